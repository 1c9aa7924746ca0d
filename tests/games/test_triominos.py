"""My First Triominos engine: every rule of rules/triominos.md, playouts, leaks."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameError, IllegalMove, NotYourTurn, chance
from games.triominos import (
    CARDS,
    ENGINE,
    JOKER,
    Cell,
    Placed,
    Point,
    TriominosState,
    cell_points,
    cells_around,
    corner_values,
    side_neighbours,
)

# --- building positions ---------------------------------------------------------------


def placed(clockwise: tuple[int, ...], cell: Cell) -> Placed:
    """The card and rotation showing `clockwise` at the cell's corners."""
    for card in range(len(CARDS)):
        for rotation in range(3):
            if corner_values(card, rotation) == tuple(clockwise):
                return (card, *cell, rotation)
    raise AssertionError(f"{clockwise} would need a card flipped over")


def lay(values: dict[Point, int], cells: list[Cell]) -> tuple[Placed, ...]:
    """Cards on `cells` whose corners show `values` at every grid point."""
    return tuple(placed(tuple(values[p] for p in cell_points(c)), c) for c in cells)


def card_id(*values: int) -> int:
    """The number card holding these three values."""
    return CARDS.index(tuple(sorted(values)))


def position(
    table: tuple[Placed, ...],
    hands: list[list[int]],
    *,
    pot: tuple[int, ...] = (),
    tokens: tuple[int, ...] | None = None,
    bank: int = 40,
    turn: int = 0,
) -> TriominosState:
    """A hand-made state; seat `turn` is to move."""
    return TriominosState(
        players=len(hands),
        seed=0,
        open_hands=False,
        with_joker=True,
        pot=pot,
        hands=tuple(tuple(h) for h in hands),
        tokens=tokens or (4,) * len(hands),
        bank=bank,
        table=table,
        turn=turn,
    )


def label_at(state: TriominosState, cell: Cell) -> str:
    """The public label of the open place on `cell`."""
    points = [list(p) for p in cell_points(cell)]
    return next(p["label"] for p in ENGINE.view(state, None)["places"] if p["points"] == points)


def place(state: TriominosState, index: int, cell: Cell, rotation: int = 0) -> dict:
    """The move that puts hand card `index` on `cell`."""
    return {"type": "place", "card": index, "place": label_at(state, cell), "rotation": rotation}


def fitting_rotation(state: TriominosState, seat: int, index: int, cell: Cell) -> int:
    """The one rotation legal_moves offers for that card on that cell."""
    label = label_at(state, cell)
    (rotation,) = [
        m["rotation"]
        for m in ENGINE.legal_moves(state, seat)
        if m["type"] == "place" and m["card"] == index and m["place"] == label
    ]
    return rotation


FIRST = (0, 0, 1)  # the first card's cell: pointing up, corners (0,1), (1,0), (0,0)

# Five cards around point (0, 0) with the sixth place open (found so every card differs).
HEXAGON = {(-1, 0): 4, (-1, 1): 1, (0, -1): 2, (0, 0): 1, (0, 1): 3, (1, -1): 1, (1, 0): 5}
HEXAGON_HOLE = (0, -1, 0)

# Nine cards around points (0, 0) and (1, 0); the open place between them closes both.
TWO_HEXAGONS = {
    (-1, 0): 3, (-1, 1): 4, (0, -1): 3, (0, 0): 2, (0, 1): 5,
    (1, -1): 2, (1, 0): 5, (1, 1): 5, (2, -1): 1, (2, 0): 1,
}  # fmt: skip

# A C-shaped chain from the first card round to point (1, 1), the far corner of the gap.
BRIDGE = {
    (-1, 1): 4, (-1, 2): 5, (-1, 3): 1, (0, 0): 4, (0, 1): 4,
    (0, 2): 3, (0, 3): 2, (1, 0): 3, (1, 1): 1, (1, 2): 3,
}  # fmt: skip
BRIDGE_CHAIN = [(0, 0, 1), (-1, 0, 0), (-1, 1, 1), (-1, 1, 0), (-1, 2, 1), (-1, 2, 0), (0, 2, 1), (0, 1, 0)]
BRIDGE_GAP = (0, 0, 0)


def around_hole(values: dict[Point, int], cells: list[Cell], hole: Cell, hand_extra: int = 1):
    """The table without the hole, the hole's card, and spare cards not on the table."""
    table = lay(values, [c for c in cells if c != hole])
    hole_card = lay(values, [hole])[0][0]
    used = {p[0] for p in table} | {hole_card}
    spares = [c for c in range(len(CARDS)) if c not in used][:hand_extra]
    return table, hole_card, spares


def hexagon_position(**kwargs) -> tuple[TriominosState, int, list[int]]:
    """Five cards round (0, 0); seat 0 holds the sixth place's card and a spare.

    Returns the state, the sixth place's card and three more cards in no one's hand.
    """
    table, hole_card, spares = around_hole(HEXAGON, list(cells_around((0, 0))), HEXAGON_HOLE, 5)
    state = position(table, [[hole_card, spares[0]], [spares[1]]], **kwargs)
    return state, hole_card, spares[2:]


# --- cards and grid -------------------------------------------------------------------


def test_the_deck_holds_every_multiset_of_three_values_once_plus_a_joker():
    assert len(CARDS) == 35 and JOKER == 35
    assert len(set(CARDS)) == 35
    assert all(list(c) == sorted(c) and set(c) <= {1, 2, 3, 4, 5} for c in CARDS)
    assert Counter(len(set(c)) for c in CARDS) == {1: 5, 2: 20, 3: 10}


def test_the_six_cells_around_a_point_all_have_a_corner_there():
    for point in [(0, 0), (3, -2)]:
        cells = cells_around(point)
        assert len(set(cells)) == 6
        assert all(point in cell_points(c) for c in cells)


def test_side_neighbours_share_exactly_two_grid_points():
    for cell in [(0, 0, 1), (0, 0, 0), (2, -3, 1)]:
        for near in side_neighbours(cell):
            assert len(set(cell_points(cell)) & set(cell_points(near))) == 2
            assert cell in side_neighbours(near)


def test_the_three_rotations_are_the_clockwise_turns_of_a_card():
    card = card_id(1, 2, 3)
    assert [corner_values(card, r) for r in range(3)] == [(1, 2, 3), (2, 3, 1), (3, 1, 2)]


# --- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_deals_six_cards_and_four_tokens_and_lays_a_number_card(players):
    state = ENGINE.new_game(players, 7)
    view = ENGINE.view(state, None)
    assert view["hand_sizes"] == [6] * players
    assert view["scores"] == [4] * players
    assert view["bank"] == 60 - 4 * players
    assert view["pot_size"] == 36 - 6 * players - 1
    assert len(view["table"]) == 1 and not view["table"][0]["joker"]
    assert view["to_move"] in ([s] for s in range(players))


def test_a_joker_drawn_as_the_first_card_goes_back_into_the_pot():
    seed = next(s for s in range(5000) if first_draw(s, 2) == JOKER)
    state = ENGINE.new_game(2, seed)
    assert state.table[0][0] != JOKER
    assert JOKER in state.pot


def first_draw(seed: int, players: int) -> int:
    """The card the pot would offer as the first card, replaying the deal's shuffle."""
    deck = list(range(36))
    chance(seed, 0).shuffle(deck)
    return deck[players * 6]


def test_without_the_joker_option_the_joker_stays_in_the_box():
    state = ENGINE.new_game(4, 3, {"joker": False})
    cards = [c for h in state.hands for c in h] + list(state.pot) + [p[0] for p in state.table]
    assert sorted(cards) == list(range(35))


def test_the_same_seed_deals_the_same_game():
    assert ENGINE.new_game(3, 11) == ENGINE.new_game(3, 11)
    assert ENGINE.new_game(3, 11) != ENGINE.new_game(3, 12)


def test_wrong_player_counts_and_unknown_options_are_refused():
    with pytest.raises(GameError):
        ENGINE.new_game(5, 1)
    with pytest.raises(GameError):
        ENGINE.new_game(2, 1, {"jokers": True})


# --- matching and rotations -----------------------------------------------------------


def test_the_first_cards_open_places_are_labelled_left_right_then_below():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[0], [1]])
    places = ENGINE.view(state, None)["places"]
    assert [p["label"] for p in places] == ["1", "2", "3"]
    assert [p["points"] for p in places] == [
        [list(p) for p in cell_points(c)] for c in [(-1, 0, 0), (0, 0, 0), (0, -1, 0)]
    ]


def test_each_rotation_fits_exactly_where_its_corners_match():
    # First card 2-2-2; the card 1-2-2 fits each side in a different rotation.
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2)], [0]])
    offered = {(m["place"], m["rotation"]) for m in ENGINE.legal_moves(state, 0) if m["type"] == "place"}
    expected = {
        (label_at(state, (-1, 0, 0)), 0),  # corners (-1,1) (0,1) (0,0) show 1 2 2
        (label_at(state, (0, -1, 0)), 1),  # corners (0,0) (1,0) (1,-1) show 2 2 1
        (label_at(state, (0, 0, 0)), 2),  # corners (0,1) (1,1) (1,0) show 2 1 2
    }
    assert offered == expected
    for label, rotation in expected:
        move = {"type": "place", "card": 0, "place": label, "rotation": rotation}
        after = ENGINE.apply(state, 0, move)
        card = ENGINE.view(after, None)["table"][-1]
        shown = {tuple(p): v for p, v in zip(card["points"], card["values"], strict=True)}
        assert sorted(shown.values()) == [1, 2, 2]
        assert all((v == 2) == (p in {(0, 1), (1, 0), (0, 0)}) for p, v in shown.items())


def test_a_corner_that_does_not_match_its_grid_point_is_refused():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2)], [0]])
    move = place(state, 0, (0, 0, 0), rotation=0)  # would put 1 on the first card's 2
    with pytest.raises(IllegalMove, match="does not match"):
        ENGINE.apply(state, 0, move)


def test_a_card_cannot_be_flipped_over():
    # Right of the first card the corners read, clockwise, 1 ? 3: 1-2-3 shows 1 2 3 there,
    # while 1-3-4 would have to show 1 4 3, its values counter-clockwise (flipped over).
    state = position(
        lay({(0, 1): 1, (1, 0): 3, (0, 0): 5}, [FIRST]), [[card_id(1, 2, 3), card_id(1, 3, 4)], [0]]
    )
    right = label_at(state, (0, 0, 0))
    fits = {m["card"] for m in ENGINE.legal_moves(state, 0) if m.get("place") == right}
    assert fits == {0}


def test_a_triple_card_is_offered_once_per_place():
    # Only the right-hand place pins two 2s; 2-2-2 looks the same in every rotation.
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 5}, [FIRST]), [[card_id(2, 2, 2)], [0]])
    moves = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "place"]
    assert moves == [{"type": "place", "card": 0, "place": label_at(state, (0, 0, 0)), "rotation": 0}]


def test_a_card_placed_next_to_the_table_earns_one_token_from_the_bank():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2), 1], [2]])
    after = ENGINE.apply(state, 0, place(state, 0, (0, 0, 0), rotation=2))
    view = ENGINE.view(after, None)
    assert view["scores"] == [5, 4] and view["bank"] == 39
    assert view["last_card"] == 1 and view["to_move"] == [1]
    assert view["last_bonus"] == {"hexagons": 0, "bridge": False, "last_card": False, "earned": 1, "paid": 1}


# --- bonuses --------------------------------------------------------------------------


def test_completing_a_hexagon_earns_one_more_token():
    state, _, _ = hexagon_position()
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    assert ENGINE.view(after, None)["last_bonus"]["hexagons"] == 1
    assert after.tokens[0] == 4 + 2


def test_closing_two_hexagons_at_once_earns_two_more_tokens():
    cells = sorted(set(cells_around((0, 0))) | set(cells_around((1, 0))))
    table, hole_card, spares = around_hole(TWO_HEXAGONS, cells, HEXAGON_HOLE, 2)
    state = position(table, [[hole_card, spares[0]], [spares[1]]])
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    assert ENGINE.view(after, None)["last_bonus"]["hexagons"] == 2
    assert after.tokens[0] == 4 + 3


def test_two_hexagons_with_the_last_card_earn_the_tables_top_four_tokens():
    cells = sorted(set(cells_around((0, 0))) | set(cells_around((1, 0))))
    table, hole_card, spares = around_hole(TWO_HEXAGONS, cells, HEXAGON_HOLE)
    state = position(table, [[hole_card], [spares[0]]])
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    bonus = ENGINE.view(after, None)["last_bonus"]
    assert (bonus["hexagons"], bonus["last_card"], bonus["earned"]) == (2, True, 4)
    assert after.tokens[0] == 8 and after.hands[0] == ()


def test_a_bridge_over_a_gap_earns_one_more_token():
    table, gap_card, spares = around_hole(BRIDGE, [*BRIDGE_CHAIN, BRIDGE_GAP], BRIDGE_GAP, 2)
    state = position(table, [[gap_card, spares[0]], [spares[1]]])
    rotation = fitting_rotation(state, 0, 0, BRIDGE_GAP)
    after = ENGINE.apply(state, 0, place(state, 0, BRIDGE_GAP, rotation))
    bonus = ENGINE.view(after, None)["last_bonus"]
    assert (bonus["bridge"], bonus["hexagons"], bonus["earned"]) == (True, 0, 2)


def test_a_card_touching_one_side_with_a_free_far_corner_is_no_bridge():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2), 1], [2]])
    after = ENGINE.apply(state, 0, place(state, 0, (0, 0, 0), rotation=2))
    assert ENGINE.view(after, None)["last_bonus"]["bridge"] is False


def test_placing_the_last_card_of_the_hand_earns_one_more_token():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2)], [0]])
    after = ENGINE.apply(state, 0, place(state, 0, (0, 0, 0), rotation=2))
    assert ENGINE.view(after, None)["last_bonus"]["last_card"] is True
    assert after.tokens[0] == 6


def test_the_bank_pays_only_what_it_holds():
    state, _, _ = hexagon_position(bank=1)
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    bonus = ENGINE.view(after, None)["last_bonus"]
    assert (bonus["earned"], bonus["paid"]) == (2, 1)
    assert after.tokens[0] == 5 and after.bank == 0


def test_an_empty_bank_pays_nothing_until_a_purchase_refills_it():
    state = position(
        lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[card_id(1, 2, 2), 1], [2]], bank=0, pot=(9,)
    )
    after = ENGINE.apply(state, 0, place(state, 0, (0, 0, 0), rotation=2))
    assert after.tokens == (4, 4) and after.bank == 0
    after = ENGINE.apply(after, 1, {"type": "buy"})
    assert after.tokens == (4, 3) and after.bank == 1


# --- the joker ------------------------------------------------------------------------


def test_a_joker_fits_every_open_place_and_closes_a_hexagon():
    state, _, _ = hexagon_position()
    state = replace(state, hands=((JOKER, state.hands[0][1]), state.hands[1]))
    places = ENGINE.view(state, None)["places"]
    joker_moves = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "place" and m["card"] == 0]
    assert len(joker_moves) == len(places)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE))
    view = ENGINE.view(after, None)
    assert view["table"][-1] == {
        "points": [list(p) for p in cell_points(HEXAGON_HOLE)],
        "values": [None, None, None],
        "joker": True,
    }
    assert view["last_bonus"]["hexagons"] == 1 and after.tokens[0] == 6


def test_a_free_joker_corner_matches_any_later_card():
    first = lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST])
    joker = (JOKER, 0, 0, 0, 0)  # right of the first card; its corner (1, 1) is free
    hand = [card_id(2, 3, 3), card_id(2, 4, 4)]  # reach (1, 1) from the far side with 3 or 4
    state = position((*first, joker), [hand, [0]])
    beyond = (1, 0, 1)  # corners (1,1) (2,0) (1,0): only (1,0) is pinned, to 2
    fitting = {m["card"] for m in ENGINE.legal_moves(state, 0) if m.get("place") == label_at(state, beyond)}
    assert fitting == {0, 1}


def test_taking_back_the_joker_swaps_in_a_card_that_fits_and_costs_nothing():
    state, hole_card, spares = hexagon_position()
    table = (*state.table, (JOKER, *HEXAGON_HOLE, 0))
    state = position(table, [[spares[0]], [hole_card, spares[1]]], turn=1)
    swaps = [m for m in ENGINE.legal_moves(state, 1) if m["type"] == "take_joker"]
    assert [m["card"] for m in swaps] == [0]
    after = ENGINE.apply(state, 1, swaps[0])
    view = ENGINE.view(after, 1)
    assert view["hand"][-1] == {"joker": True}
    assert not any(c["joker"] for c in view["table"])
    assert view["scores"] == [4, 4] and view["bank"] == 40
    assert view["last_card"] == len(table) - 1 and view["last_bonus"] is None
    assert view["last_move"] == {"seat": 1, "type": "take_joker"}


def test_a_card_that_does_not_fit_the_jokers_place_cannot_take_it_back():
    state, hole_card, spares = hexagon_position()
    table = (*state.table, (JOKER, *HEXAGON_HOLE, 0))
    state = position(table, [[spares[0]], [spares[1], hole_card]], turn=1)
    with pytest.raises(IllegalMove, match="joker"):
        ENGINE.apply(state, 1, {"type": "take_joker", "card": 0, "rotation": 0})


def test_the_joker_can_only_be_taken_back_from_the_table():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1, 2], [3]])
    with pytest.raises(IllegalMove, match="not on the table"):
        ENGINE.apply(state, 0, {"type": "take_joker", "card": 0, "rotation": 0})


# --- buying and passing ---------------------------------------------------------------


def test_buying_pays_a_token_and_draws_the_top_card_of_the_pot():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2]], pot=(7, 8, 9))
    after = ENGINE.apply(state, 0, {"type": "buy"})
    assert after.hands[0] == (1, 7) and after.pot == (8, 9)
    assert after.tokens == (3, 4) and after.bank == 41
    assert ENGINE.current_seats(after) == (1,)


def test_a_player_without_tokens_passes_instead_of_buying():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2]], pot=(7,), tokens=(0, 4))
    moves = ENGINE.legal_moves(state, 0)
    assert {"type": "pass"} in moves and {"type": "buy"} not in moves
    with pytest.raises(IllegalMove, match="no tokens"):
        ENGINE.apply(state, 0, {"type": "buy"})
    after = ENGINE.apply(state, 0, {"type": "pass"})
    assert after.hands[0] == (1,) and after.tokens == (0, 4) and after.passes == 1


def test_with_an_empty_pot_the_player_passes_and_pays_nothing():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2], [3]])
    assert ENGINE.legal_moves(state, 0)[-1] == {"type": "pass"}
    after = ENGINE.apply(state, 0, {"type": "pass"})
    assert after.tokens == (4, 4, 4) and after.bank == 40


def test_passing_is_refused_while_buying_is_possible():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2]], pot=(7,))
    assert {"type": "pass"} not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="buy"):
        ENGINE.apply(state, 0, {"type": "pass"})


def test_a_player_with_an_empty_hand_can_only_buy():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[], [2]], pot=(7, 8))
    assert ENGINE.legal_moves(state, 0) == [{"type": "buy"}]


# --- the end --------------------------------------------------------------------------


def test_drawing_the_last_card_starts_a_last_round_ending_with_the_drawer():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2], [3]], pot=(9,), turn=1)
    state = ENGINE.apply(state, 1, {"type": "buy"})
    view = ENGINE.view(state, None)
    assert view["last_round"] and view["last_round_to_play"] == [2, 0, 1]
    for seat in (2, 0, 1):
        assert ENGINE.current_seats(state) == (seat,)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    assert ENGINE.current_seats(state) == ()
    assert ENGINE.outcome(state) is not None


def test_as_many_passes_in_a_row_as_players_end_the_game():
    first = lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST])
    state = position(first, [[1], [2], [3]], pot=(7,), tokens=(0, 0, 0))
    for seat in (0, 1):
        state = ENGINE.apply(state, seat, {"type": "pass"})
    assert not state.over
    state = ENGINE.apply(state, 2, {"type": "pass"})
    assert state.over and ENGINE.legal_moves(state, 0) == []


def test_a_placement_breaks_a_run_of_passes():
    first = lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST])
    state = position(first, [[card_id(1, 2, 2), 1], [2]], pot=(7,), tokens=(0, 0))
    state = replace(state, turn=1)
    state = ENGINE.apply(state, 1, {"type": "pass"})
    state = ENGINE.apply(state, 0, place(state, 0, (0, 0, 0), rotation=2))
    assert state.passes == 0 and not state.over


def test_most_tokens_win_and_equal_tops_share_the_win():
    state = replace(position((), [[], [], []], tokens=(7, 9, 9)), over=True)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (1, 2) and outcome.draw and outcome.scores == (7, 9, 9)


# --- turns, errors, resigning ---------------------------------------------------------


def test_a_move_out_of_turn_is_refused():
    state = ENGINE.new_game(2, 5)
    other = 1 - ENGINE.current_seats(state)[0]
    assert ENGINE.legal_moves(state, other) == []
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, other, {"type": "buy"})


@pytest.mark.parametrize(
    "move",
    [
        {"type": "dance"},
        {"type": "place", "card": 99, "place": "1", "rotation": 0},
        {"type": "place", "card": 0, "place": "99", "rotation": 0},
        {"type": "place", "card": 0, "place": "1", "rotation": 3},
    ],
)
def test_malformed_moves_are_refused_with_a_sentence(move):
    state = ENGINE.new_game(2, 5)
    seat = ENGINE.current_seats(state)[0]
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, seat, move)
    assert str(error.value)[0].isupper() and len(str(error.value)) > 20


def test_a_resigned_seat_is_skipped_and_never_wins():
    first = lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST])
    state = position(first, [[1], [2], [3]], pot=(7, 8, 9), tokens=(1, 20, 2))
    state = ENGINE.resign(state, 1)
    state = ENGINE.apply(state, 0, {"type": "buy"})
    assert ENGINE.current_seats(state) == (2,)
    state = ENGINE.resign(state, 2)
    outcome = ENGINE.outcome(state)
    assert state.over and outcome.winners == (0,)


def test_resigning_on_ones_own_turn_hands_the_turn_on():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2], [3]], pot=(7,))
    state = ENGINE.resign(state, 0)
    assert ENGINE.current_seats(state) == (1,)
    assert ENGINE.view(state, None)["resigned"] == [0]
    with pytest.raises(IllegalMove):
        ENGINE.resign(state, 0)


def test_a_resignation_in_the_last_round_removes_that_turn():
    state = position(lay({(0, 1): 2, (1, 0): 2, (0, 0): 2}, [FIRST]), [[1], [2], [3]], pot=(9,))
    state = ENGINE.apply(state, 0, {"type": "buy"})  # last round: 1, 2, 0
    state = ENGINE.resign(state, 2)
    state = ENGINE.apply(state, 1, {"type": "pass"})
    assert ENGINE.current_seats(state) == (0,)
    state = ENGINE.apply(state, 0, {"type": "pass"})
    assert state.over


# --- views and leaks ------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_fits_but_nobody_elses():
    state = ENGINE.new_game(3, 21)
    mine = ENGINE.view(state, 0)
    assert len(mine["hand"]) == 6 and len(mine["fits"]) == 6
    assert "hands" not in mine
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and "fits" not in spectator and "swaps" not in spectator


def test_fits_list_exactly_the_placements_legal_moves_offer():
    state = ENGINE.new_game(4, 8)
    seat = ENGINE.current_seats(state)[0]
    fits = ENGINE.view(state, seat)["fits"]
    from_fits = {(i, label, r) for i, pairs in enumerate(fits) for label, r in pairs}
    from_moves = {
        (m["card"], m["place"], m["rotation"])
        for m in ENGINE.legal_moves(state, seat)
        if m["type"] == "place"
    }
    assert from_fits == from_moves


def test_open_hands_show_every_hand_in_every_view():
    state = ENGINE.new_game(3, 2, {"open_hands": True})
    for seat in (None, 0, 2):
        view = ENGINE.view(state, seat)
        assert [len(h) for h in view["hands"]] == [6, 6, 6]


def hidden_twin(state: TriominosState, seat: int) -> TriominosState:
    """Same public game, but `seat`'s hand swapped with pot cards and the pot reordered."""
    hand, pot = state.hands[seat], state.pot
    k = min(len(hand), len(pot))
    new_hand = pot[:k] + hand[k:]
    new_pot = tuple(reversed(hand[:k] + pot[k:]))
    hands = tuple(new_hand if s == seat else h for s, h in enumerate(state.hands))
    return replace(state, hands=hands, pot=new_pot)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_are_identical_when_only_other_hands_and_the_pot_order_differ(seed):
    state = playout(seed, 3, {}, steps=10)
    twin = hidden_twin(state, 1)
    assert twin != state
    for seat in (None, 0, 2):
        assert ENGINE.view(state, seat) == ENGINE.view(twin, seat)


@pytest.mark.parametrize("seed", [4, 5])
def test_place_labels_are_the_same_whatever_the_hands(seed):
    state = playout(seed, 4, {}, steps=8)
    twin = hidden_twin(hidden_twin(state, 0), 3)
    assert ENGINE.view(state, 0)["places"] == ENGINE.view(twin, 0)["places"]
    assert ENGINE.view(state, 0)["places"] == ENGINE.view(state, None)["places"]


# --- playouts and serialisation -------------------------------------------------------


def playout(seed: int, players: int, options: dict, steps: int = 10_000, check=None) -> TriominosState:
    """A seeded random game (placing preferred), `check`ed after every move."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    for _ in range(steps):
        if ENGINE.outcome(state) is not None:
            break
        active = [s for s in range(players) if s not in state.resigned]
        if rng.random() < 0.01 and len(active) > 2:
            state = ENGINE.resign(state, rng.choice(active))
        else:
            (seat,) = ENGINE.current_seats(state)
            moves = ENGINE.legal_moves(state, seat)
            placing = [m for m in moves if m["type"] != "buy"]
            move = rng.choice(placing if placing and rng.random() < 0.85 else moves)
            state = ENGINE.apply(state, seat, move)
        if check:
            check(state)
    return state


def check_invariants(state: TriominosState) -> None:
    """What must hold after every move of every game."""
    assert sum(state.tokens) + state.bank == 60 and state.bank >= 0 and min(state.tokens) >= 0
    cards = [c for h in state.hands for c in h] + list(state.pot) + [p[0] for p in state.table]
    assert sorted(cards) == list(range(36 if state.with_joker else 35))
    assert_table_matches_and_is_connected(state)
    assert ENGINE.load(ENGINE.dump(state)) == state
    for seat in (None, *range(state.players)):
        view = ENGINE.view(state, seat)
        assert json.loads(json.dumps(view)) == view
    if state.over:
        assert ENGINE.current_seats(state) == ()
    else:
        (seat,) = ENGINE.current_seats(state)
        assert seat not in state.resigned and ENGINE.legal_moves(state, seat)


def assert_table_matches_and_is_connected(state: TriominosState) -> None:
    """Every grid point shows one number, and every card is reachable side by side."""
    seen: dict[Point, set[int]] = {}
    cells = set()
    for card, x, y, up, rotation in state.table:
        cells.add((x, y, up))
        faces = corner_values(card, rotation)
        for point, value in zip(cell_points((x, y, up)), faces or (), strict=False):
            seen.setdefault(point, set()).add(value)
    assert all(len(values) == 1 for values in seen.values())
    start = next(iter(cells))
    reached, frontier = {start}, [start]
    while frontier:
        for near in side_neighbours(frontier.pop()):
            if near in cells and near not in reached:
                reached.add(near)
                frontier.append(near)
    assert reached == cells


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"joker": False}, {"open_hands": True}, {"open_hands": True, "joker": False}]
)
def test_seeded_random_games_play_to_the_end_keeping_every_invariant(players, options):
    state = playout(players * 100 + len(options), players, options, check=check_invariants)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    assert not set(outcome.winners) & set(state.resigned)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), joker=st.booleans())
def test_any_seed_plays_to_an_outcome_and_replays_identically(seed, players, joker):
    first = playout(seed, players, {"joker": joker})
    assert ENGINE.outcome(first) is not None
    assert playout(seed, players, {"joker": joker}) == first


def test_dump_and_load_round_trip_exactly_mid_game():
    state = playout(9, 3, {"open_hands": True}, steps=15)
    text = ENGINE.dump(state)
    assert isinstance(text, str) and ENGINE.load(text) == state
    assert ENGINE.dump(ENGINE.load(text)) == text
