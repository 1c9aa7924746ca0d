"""My First Triominos engine: every rule of rules/triominos.md, playouts, leaks.

The rulebook's examples are tests named after them: its pictures A–J (lost from the
text, so each is rebuilt from the sentence that cites it), every row of its bonus table,
and its boxed cases (cannot place and cannot buy, last card of the hand, last card of
the pot).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameError, IllegalMove, NotYourTurn, chance, first_seat
from games.triominos import (
    CARDS,
    ENGINE,
    JOKER,
    Cell,
    Placed,
    Point,
    Table,
    TriominosState,
    cell_order,
    cell_points,
    cells_around,
    corner_values,
    side_neighbours,
    table_of,
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
RIGHT = (0, 0, 0)  # the place right of it: corners (0,1), (1,1), (1,0)
ALL_TWOS = {(0, 1): 2, (1, 0): 2, (0, 0): 2}  # the first card 2-2-2

# The first card and, on its right, the card 1-2-2 with its 1 at the free corner (1, 1).
SINGLE = {**ALL_TWOS, (1, 1): 1}

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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_example_A_the_first_card_is_never_the_joker(players):
    """« Prenez une carte ... C'est la première carte. (C'est un joker? Remettez-le dans
    la cagnotte et prenez une autre carte) » — over thousands of deals."""
    drawn_first = []
    for seed in range(6000):
        state = ENGINE.new_game(players, seed)
        assert state.table[0][0] != JOKER
        if first_draw(seed, players) == JOKER:
            drawn_first.append(seed)
            assert JOKER in state.pot
            assert state.table[0][0] == second_draw(seed, players)
    assert len(drawn_first) >= 100  # the joker came up first often enough to matter


def test_example_A_the_joker_once_laid_first_with_two_players_is_now_put_back():
    # Seed 2466 laid the joker first when the joker went back on top of the pot.
    state = ENGINE.new_game(2, 2466)
    assert first_draw(2466, 2) == JOKER
    assert state.table[0][0] == second_draw(2466, 2) and JOKER in state.pot


def first_draw(seed: int, players: int) -> int:
    """The card the pot would offer as the first card, replaying the deal's shuffle."""
    deck = list(range(36))
    chance(seed, 0).shuffle(deck)
    return deck[players * 6]


def second_draw(seed: int, players: int) -> int:
    """The card under it: "another card" when the first is the joker."""
    deck = list(range(36))
    chance(seed, 0).shuffle(deck)
    return deck[players * 6 + 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seat_drawn_to_start_moves_first_and_the_start_event_names_it(players):
    for seed in range(20):
        view = ENGINE.view(ENGINE.new_game(players, seed), None)
        drawn = first_seat(seed, players)
        assert view["last_event"] == {"type": "start", "seat": drawn}
        assert view["to_move"] == [drawn]


def test_rulebook_note_for_parents_without_the_joker_it_stays_in_the_box():
    """« il est conseillé de ne pas vous servir du porte-cartes ni du joker »."""
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
    state = position(lay(ALL_TWOS, [FIRST]), [[0], [1]])
    places = ENGINE.view(state, None)["places"]
    assert [p["label"] for p in places] == ["1", "2", "3"]
    assert [p["points"] for p in places] == [
        [list(p) for p in cell_points(c)] for c in [(-1, 0, 0), (0, 0, 0), (0, -1, 0)]
    ]


def test_example_B_a_card_is_laid_with_each_corner_on_the_same_number():
    """« 1 en face de 1, 3 en face de 3, le rouge en face du rouge ... Voir exemple B »:
    first card 2-2-2; the card 1-2-2 fits each side, each time turned another way."""
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2)], [0]])
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


def test_example_C_a_corner_on_another_number_is_refused():
    """« Poser comme indiqué dans fig C et D n'est pas autorisé » (C: numbers that differ)."""
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2)], [0]])
    move = place(state, 0, (0, 0, 0), rotation=0)  # would put 1 on the first card's 2
    with pytest.raises(IllegalMove, match="does not match"):
        ENGINE.apply(state, 0, move)


def test_example_D_a_card_touching_the_table_only_at_a_point_is_no_place():
    """(D: not laid against a side.) « sur n'importe quel côté des autres cartes »:
    every open place shares a whole side with a card, none only a corner."""
    state = playout(6, 3, {}, steps=12)
    view = ENGINE.view(state, None)
    cards = [{tuple(p) for p in card["points"]} for card in view["table"]]
    for open_place in view["places"]:
        corners = {tuple(p) for p in open_place["points"]}
        assert any(len(corners & card) == 2 for card in cards)
    below_right = (1, -1, 1)  # meets the first card only at its corner (1, 0)
    assert label_at_or_none(position(lay(ALL_TWOS, [FIRST]), [[0], [1]]), below_right) is None


def label_at_or_none(state: TriominosState, cell: Cell) -> str | None:
    """The label of the open place on `cell`, if that cell is an open place."""
    points = [list(p) for p in cell_points(cell)]
    return next((p["label"] for p in ENGINE.view(state, None)["places"] if p["points"] == points), None)


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
    """« Vous avez posé une carte? Dans ce cas, vous avez gagné une fiche ... La banque vous paie. »"""
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2), 1], [2]])
    after = ENGINE.apply(state, 0, place(state, 0, RIGHT, rotation=2))
    view = ENGINE.view(after, None)
    assert view["scores"] == [5, 4] and view["bank"] == 39
    assert view["last_card"] == 1 and view["to_move"] == [1]
    assert view["last_event"] == {
        "type": "place",
        "seat": 0,
        "joker": False,
        "hexagons": 0,
        "bridge": False,
        "last_card": False,
        "earned": 1,
        "paid": 1,
    }


# --- bonuses --------------------------------------------------------------------------

# The shapes of the bonus table: values at grid points, the cards' cells, the open cell.
SHAPES = {
    "plain": (SINGLE, [FIRST, RIGHT], RIGHT),
    "hexagon": (HEXAGON, list(cells_around((0, 0))), HEXAGON_HOLE),
    "two hexagons": (
        TWO_HEXAGONS,
        sorted(set(cells_around((0, 0))) | set(cells_around((1, 0)))),
        HEXAGON_HOLE,
    ),
    "bridge": (BRIDGE, [*BRIDGE_CHAIN, BRIDGE_GAP], BRIDGE_GAP),
}

# « Tableau des récompenses »: row, shape filled, last card of the hand?, total tokens.
BONUS_TABLE = [
    ("Carte posée", "plain", False, 1),
    ("Carte posée + 1 hexagone", "hexagon", False, 2),
    ("Carte posée + 2 hexagones", "two hexagons", False, 3),
    ("Carte posée + 1 pont", "bridge", False, 2),
    ("Dernière carte posée", "plain", True, 2),
    ("Dernière carte posée + 1 hexagone", "hexagon", True, 3),
    ("Dernière carte posée + 2 hexagones", "two hexagons", True, 4),
    ("Dernière carte posée + 1 pont", "bridge", True, 3),
]


def fill_the_gap(shape: str, last: bool) -> tuple[TriominosState, dict]:
    """Seat 0 lays the card that fills the shape's open cell (its only card, if `last`)."""
    values, cells, hole = SHAPES[shape]
    table, hole_card, spares = around_hole(values, cells, hole, 2)
    state = position(table, [[hole_card] if last else [hole_card, spares[0]], [spares[1]]])
    after = ENGINE.apply(state, 0, place(state, 0, hole, fitting_rotation(state, 0, 0, hole)))
    return after, ENGINE.view(after, None)["last_event"]


@pytest.mark.parametrize(("row", "shape", "last", "total"), BONUS_TABLE, ids=[row[0] for row in BONUS_TABLE])
def test_the_bonus_table_row(row, shape, last, total):
    after, event = fill_the_gap(shape, last)
    hexagons = {"hexagon": 1, "two hexagons": 2}.get(shape, 0)
    assert (event["hexagons"], event["bridge"], event["last_card"]) == (hexagons, shape == "bridge", last)
    assert event["earned"] == event["paid"] == total, row
    assert after.tokens[0] == 4 + total and (after.hands[0] == ()) == last


def test_example_H_completing_a_hexagon_earns_one_more_token():
    """« Si vous êtes en mesure de former un hexagone (H) ... au total, vous gagnez donc 2 fiches »."""
    state, _, _ = hexagon_position()
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    assert ENGINE.view(after, None)["last_event"]["hexagons"] == 1
    assert after.tokens[0] == 4 + 2


def test_rulebook_two_hexagons_at_once_earn_three_tokens():
    """« Celui qui, en posant une carte, arrive à former 2 hexagones en même temps,
    gagne au total 3 fiches. »"""
    after, event = fill_the_gap("two hexagons", last=False)
    assert event["hexagons"] == 2 and after.tokens[0] == 4 + 3


def test_example_J_a_bridge_over_a_gap_earns_one_more_token():
    """« ... ou un pont (J) ... plus 1 fiche supplémentaire pour l'hexagone ou le pont »."""
    table, gap_card, spares = around_hole(BRIDGE, [*BRIDGE_CHAIN, BRIDGE_GAP], BRIDGE_GAP, 2)
    state = position(table, [[gap_card, spares[0]], [spares[1]]])
    rotation = fitting_rotation(state, 0, 0, BRIDGE_GAP)
    after = ENGINE.apply(state, 0, place(state, 0, BRIDGE_GAP, rotation))
    event = ENGINE.view(after, None)["last_event"]
    assert (event["bridge"], event["hexagons"], event["earned"]) == (True, 0, 2)


def test_a_card_touching_one_side_with_a_free_far_corner_is_no_bridge():
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2), 1], [2]])
    after = ENGINE.apply(state, 0, place(state, 0, RIGHT, rotation=2))
    assert ENGINE.view(after, None)["last_event"]["bridge"] is False


def test_rulebook_case_the_last_card_of_the_hand_earns_two_and_the_next_turn_buys():
    """« VOUS AVEZ POSÉ LA DERNIERE CARTE DE VOTRE PORTE-CARTES ... au total, vous gagnez
    donc 2 fiches. Ce n'est qu'au tour suivant que vous pouvez prendre une carte de la
    cagnotte, payer une fiche »."""
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2)], [0]], pot=(7, 8, 9))
    after = ENGINE.apply(state, 0, place(state, 0, RIGHT, rotation=2))
    assert ENGINE.view(after, None)["last_event"]["last_card"] is True
    assert after.tokens[0] == 6 and after.hands[0] == ()
    after = ENGINE.apply(after, 1, {"type": "buy"})
    assert ENGINE.legal_moves(after, 0) == [{"type": "buy"}]
    after = ENGINE.apply(after, 0, {"type": "buy"})
    assert after.tokens[0] == 5 and len(after.hands[0]) == 1


def test_the_bank_pays_only_what_it_holds():
    state, _, _ = hexagon_position(bank=1)
    rotation = fitting_rotation(state, 0, 0, HEXAGON_HOLE)
    after = ENGINE.apply(state, 0, place(state, 0, HEXAGON_HOLE, rotation))
    event = ENGINE.view(after, None)["last_event"]
    assert (event["earned"], event["paid"]) == (2, 1)
    assert after.tokens[0] == 5 and after.bank == 0


def test_an_empty_bank_pays_nothing_until_a_purchase_refills_it():
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2), 1], [2]], bank=0, pot=(9,))
    after = ENGINE.apply(state, 0, place(state, 0, RIGHT, rotation=2))
    assert after.tokens == (4, 4) and after.bank == 0
    after = ENGINE.apply(after, 1, {"type": "buy"})
    assert after.tokens == (4, 3) and after.bank == 1


# --- the joker ------------------------------------------------------------------------


def test_example_E_a_joker_fits_every_open_place_and_closes_a_hexagon():
    """« Le joker remplace toutes les combinaisons ... Vous pouvez l'utiliser dans toutes
    les positions. Exemples: E, F et G » — and « (vous pouvez également le faire en vous
    servant d'un joker) » for the hexagon."""
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
    assert view["last_event"]["joker"] and view["last_event"]["hexagons"] == 1 and after.tokens[0] == 6


def test_example_F_a_free_joker_corner_matches_any_later_card():
    """« Si, sur l'un des côtés du joker, il n'y a pas de carte, ce côté-ci est considéré
    comme libre. Exemple F. »"""
    first = lay(ALL_TWOS, [FIRST])
    joker = (JOKER, *RIGHT, 0)  # its corner (1, 1) is free
    hand = [card_id(2, 3, 3), card_id(2, 4, 4)]  # reach (1, 1) from the far side with 3 or 4
    state = position((*first, joker), [hand, [0]])
    beyond = (1, 0, 1)  # corners (1,1) (2,0) (1,0): only (1,0) is pinned, to 2
    fitting = {m["card"] for m in ENGINE.legal_moves(state, 0) if m.get("place") == label_at(state, beyond)}
    assert fitting == {0, 1}


def test_example_G_a_joker_on_the_table_stands_for_the_numbers_beside_it():
    """« Une fois que le joker est posé sur la table, il correspond au même chiffre ou
    couleur qui se trouvent à côté de lui. »: its corner (0, 1) stands for the first
    card's 2, so a card laid against the joker's side must show 2 there."""
    first = lay(ALL_TWOS, [FIRST])
    joker = (JOKER, *RIGHT, 0)
    above = (0, 1, 1)  # shares the joker's side (0,1)-(1,1); touches the first card only at (0,1)
    hand = [card_id(1, 3, 4), card_id(1, 2, 3)]
    state = position((*first, joker), [hand, [0]])
    label = label_at(state, above)
    offered = {(m["card"], m["rotation"]) for m in ENGINE.legal_moves(state, 0) if m.get("place") == label}
    assert {card for card, _ in offered} == {1}
    for card, rotation in offered:
        after = ENGINE.apply(state, 0, place(state, card, above, rotation))
        shown = ENGINE.view(after, None)["table"][-1]
        assert dict(zip(map(tuple, shown["points"]), shown["values"], strict=True))[(0, 1)] == 2


def test_taking_back_the_joker_swaps_in_a_card_that_fits_and_costs_nothing():
    """« vous devez le remplacer par l'une de vos propres cartes correspondant exactement
    à l'endroit où le joker se trouvait. Ce changement de carte ne vous donne pas droit à
    une fiche de récompense, mais vous n'aurez rien à payer non plus. »"""
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
    assert view["last_card"] == len(table) - 1
    assert view["last_event"] == {"type": "take_joker", "seat": 1}


def test_a_card_that_does_not_fit_the_jokers_place_cannot_take_it_back():
    state, hole_card, spares = hexagon_position()
    table = (*state.table, (JOKER, *HEXAGON_HOLE, 0))
    state = position(table, [[spares[0]], [spares[1], hole_card]], turn=1)
    with pytest.raises(IllegalMove, match="joker"):
        ENGINE.apply(state, 1, {"type": "take_joker", "card": 0, "rotation": 0})


def test_the_joker_can_only_be_taken_back_from_the_table():
    state = position(lay(ALL_TWOS, [FIRST]), [[1, 2], [3]])
    with pytest.raises(IllegalMove, match="not on the table"):
        ENGINE.apply(state, 0, {"type": "take_joker", "card": 0, "rotation": 0})


# --- buying and passing ---------------------------------------------------------------


def test_buying_pays_a_token_and_draws_the_top_card_of_the_pot():
    """« Vous ne pouvez (ou ne voulez) pas poser de carte? Dans ce cas, payez une fiche ...
    acheter une carte à la cagnotte »."""
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2]], pot=(7, 8, 9))
    after = ENGINE.apply(state, 0, {"type": "buy"})
    assert after.hands[0] == (1, 7) and after.pot == (8, 9)
    assert after.tokens == (3, 4) and after.bank == 41
    assert ENGINE.current_seats(after) == (1,)
    assert ENGINE.view(after, None)["last_event"] == {"type": "buy", "seat": 0, "pot_emptied": False}


def test_rulebook_attention_a_player_may_buy_rather_than_lay_a_card_that_fits():
    """« Attention: Parfois, il est préférable de ne pas poser de carte. »"""
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2)], [2]], pot=(7,))
    moves = ENGINE.legal_moves(state, 0)
    assert any(m["type"] == "place" for m in moves)
    assert {"type": "buy"} in moves and {"type": "pass"} not in moves


def test_rulebook_case_cannot_place_and_no_tokens_to_buy_passes_for_free():
    """« VOUS NE POUVEZ PAS POSER DE CARTE ET VOUS N'AVEZ PAS DE FICHE POUR ACHETER UNE
    CARTE. Vous n'avez pas à payer de fiche. »"""
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2]], pot=(7,), tokens=(0, 4))
    moves = ENGINE.legal_moves(state, 0)
    assert moves == [{"type": "pass"}]
    with pytest.raises(IllegalMove, match="no tokens"):
        ENGINE.apply(state, 0, {"type": "buy"})
    after = ENGINE.apply(state, 0, {"type": "pass"})
    assert after.hands[0] == (1,) and after.tokens == (0, 4) and after.passes == 1
    assert ENGINE.view(after, None)["last_event"] == {"type": "pass", "seat": 0, "reason": "no_tokens"}


def test_rulebook_case_cannot_place_and_the_pot_is_empty_passes_for_free():
    """« VOUS NE POUVEZ PAS POSER DE CARTE ET IL N'Y A PLUS DE CARTE DANS LA CAGNOTTE.
    Vous n'avez pas à payer de fiche. »"""
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]])
    assert ENGINE.legal_moves(state, 0) == [{"type": "pass"}]
    after = ENGINE.apply(state, 0, {"type": "pass"})
    assert after.tokens == (4, 4, 4) and after.bank == 40
    assert ENGINE.view(after, None)["last_event"] == {"type": "pass", "seat": 0, "reason": "empty_pot"}


@pytest.mark.parametrize(
    ("pot", "tokens"), [((7,), (0, 4)), ((), (4, 4)), ((), (0, 4))], ids=["no tokens", "empty pot", "both"]
)
def test_a_pass_is_refused_while_a_card_of_the_player_fits(pot, tokens):
    """Both cases begin « VOUS NE POUVEZ PAS POSER DE CARTE »: not placing costs a purchase."""
    state = position(lay(ALL_TWOS, [FIRST]), [[1, card_id(1, 2, 2)], [2]], pot=pot, tokens=tokens)
    moves = ENGINE.legal_moves(state, 0)
    assert moves and all(m["type"] == "place" for m in moves)
    with pytest.raises(IllegalMove, match="fits"):
        ENGINE.apply(state, 0, {"type": "pass"})
    with pytest.raises(IllegalMove, match="Place a card"):
        ENGINE.apply(state, 0, {"type": "buy"})
    view = ENGINE.view(state, 0)
    assert (view["can_buy"], view["can_pass"]) == (False, False)


def test_a_joker_in_hand_always_fits_so_its_holder_never_passes():
    state = position(lay(ALL_TWOS, [FIRST]), [[1, JOKER], [2]], tokens=(0, 4))
    moves = ENGINE.legal_moves(state, 0)
    assert {"type": "pass"} not in moves and {m["card"] for m in moves} == {1}


def test_passing_is_refused_while_buying_is_possible():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2]], pot=(7,))
    assert {"type": "pass"} not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="buy"):
        ENGINE.apply(state, 0, {"type": "pass"})
    view = ENGINE.view(state, 0)
    assert (view["can_buy"], view["can_pass"]) == (True, False)


def test_a_player_with_an_empty_hand_can_only_buy():
    state = position(lay(ALL_TWOS, [FIRST]), [[], [2]], pot=(7, 8))
    assert ENGINE.legal_moves(state, 0) == [{"type": "buy"}]


# --- a player out of time -------------------------------------------------------------


def test_an_absent_player_buys_rather_than_lays_a_card_that_fits():
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2)], [2]], pot=(7,))
    assert ENGINE.timeout_move(state, 0) == {"type": "buy"}


def test_an_absent_player_who_can_neither_place_nor_buy_passes():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2]], pot=(7,), tokens=(0, 4))
    assert ENGINE.timeout_move(state, 0) == {"type": "pass"}


def test_an_absent_player_who_must_place_takes_back_the_joker_rather_than_score():
    state, hole_card, spares = hexagon_position()
    table = (*state.table, (JOKER, *HEXAGON_HOLE, 0))
    state = position(table, [[card_id(1, 2, 3), hole_card], [spares[1]]], tokens=(0, 4))
    assert {m["type"] for m in ENGINE.legal_moves(state, 0)} == {"place", "take_joker"}
    assert ENGINE.timeout_move(state, 0)["type"] == "take_joker"


def test_an_absent_player_who_must_place_lays_the_card_that_earns_least():
    state, hole_card, _ = hexagon_position(tokens=(0, 4))
    state = replace(state, hands=((hole_card, card_id(1, 2, 3)), state.hands[1]))
    earned = {}
    for move in ENGINE.legal_moves(state, 0):
        earned[json.dumps(move)] = ENGINE.view(ENGINE.apply(state, 0, move), None)["last_event"]["earned"]
    assert set(earned.values()) == {1, 2}  # the hole would score a hexagon
    chosen = ENGINE.timeout_move(state, 0)
    assert earned[json.dumps(chosen)] == 1 and chosen["card"] == 1


def test_an_absent_player_lays_a_number_card_before_the_joker():
    state = position(lay(ALL_TWOS, [FIRST]), [[JOKER, card_id(1, 2, 2)], [2]], tokens=(0, 4))
    assert ENGINE.timeout_move(state, 0)["card"] == 1


# --- the end --------------------------------------------------------------------------


def test_rulebook_case_drawing_the_last_card_starts_a_last_round_ending_with_the_drawer():
    """« La dernière carte retirée de la cagnotte signifie que le dernier tour a sonné. Ce
    tour est joué et se termine par le joueur qui a pris la dernière carte. »"""
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]], pot=(9,), turn=1)
    state = ENGINE.apply(state, 1, {"type": "buy"})
    view = ENGINE.view(state, None)
    assert view["last_event"] == {"type": "buy", "seat": 1, "pot_emptied": True}
    assert view["last_round"] and view["last_round_to_play"] == [2, 0, 1]
    for seat in (2, 0, 1):
        assert ENGINE.current_seats(state) == (seat,)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    assert ENGINE.current_seats(state) == ()
    assert ENGINE.outcome(state) is not None


def test_as_many_passes_in_a_row_as_players_end_the_game():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]], pot=(7,), tokens=(0, 0, 0))
    for seat in (0, 1):
        state = ENGINE.apply(state, seat, {"type": "pass"})
    assert ENGINE.current_seats(state) == (2,)
    state = ENGINE.apply(state, 2, {"type": "pass"})
    assert ENGINE.current_seats(state) == () and ENGINE.legal_moves(state, 0) == []
    assert ENGINE.view(state, None)["winners"] == [0, 1, 2]


def test_a_placement_breaks_a_run_of_passes():
    state = position(lay(ALL_TWOS, [FIRST]), [[card_id(1, 2, 2), 1], [2]], pot=(7,), tokens=(0, 0), turn=1)
    state = ENGINE.apply(state, 1, {"type": "pass"})
    state = ENGINE.apply(state, 0, place(state, 0, RIGHT, rotation=2))
    assert state.passes == 0 and ENGINE.current_seats(state) == (1,)


def test_most_tokens_win_and_equal_tops_share_the_win():
    state = replace(position(lay(ALL_TWOS, [FIRST]), [[], [], []], tokens=(7, 9, 9)), over=True)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (1, 2) and outcome.draw and outcome.scores == (7, 9, 9)
    view = ENGINE.view(state, None)
    assert view["winners"] == [1, 2] and view["to_move"] == [] and "over" not in view


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
def test_malformed_moves_are_refused_with_a_sentence_that_counts_from_one(move):
    state = ENGINE.new_game(2, 5)
    seat = ENGINE.current_seats(state)[0]
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, seat, move)
    text = str(error.value)
    assert text[0].isupper() and len(text) > 20
    assert "0" not in text  # no 0-based card, place or rotation numbers


def test_a_resigned_seat_is_skipped_and_never_wins():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]], pot=(7, 8, 9), tokens=(1, 20, 2))
    state = ENGINE.resign(state, 1)
    assert ENGINE.view(state, None)["last_event"] == {"type": "resign", "seat": 1}
    state = ENGINE.apply(state, 0, {"type": "buy"})
    assert ENGINE.current_seats(state) == (2,)
    state = ENGINE.resign(state, 2)
    outcome = ENGINE.outcome(state)
    assert ENGINE.current_seats(state) == () and outcome.winners == (0,)


def test_resigning_on_ones_own_turn_hands_the_turn_on():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]], pot=(7,))
    state = ENGINE.resign(state, 0)
    assert ENGINE.current_seats(state) == (1,)
    assert ENGINE.view(state, None)["resigned"] == [0]
    with pytest.raises(IllegalMove):
        ENGINE.resign(state, 0)


def test_a_resignation_in_the_last_round_removes_that_turn():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2], [3]], pot=(9,))
    state = ENGINE.apply(state, 0, {"type": "buy"})  # last round: 1, 2, 0
    state = ENGINE.resign(state, 2)
    state = ENGINE.apply(state, 1, {"type": "pass"})
    assert ENGINE.current_seats(state) == (0,)
    state = ENGINE.apply(state, 0, {"type": "pass"})
    assert ENGINE.current_seats(state) == ()


# --- views and leaks ------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_fits_but_nobody_elses():
    state = ENGINE.new_game(3, 21)
    mine = ENGINE.view(state, 0)
    assert len(mine["hand"]) == 6 and len(mine["fits"]) == 6
    assert "hands" not in mine
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and "fits" not in spectator and "swaps" not in spectator
    assert "can_buy" not in spectator and "can_pass" not in spectator


def test_only_the_seat_to_move_may_buy_or_pass():
    state = position(lay(ALL_TWOS, [FIRST]), [[1], [2]], pot=(7,), tokens=(0, 0))
    assert ENGINE.view(state, 0)["can_pass"] and not ENGINE.view(state, 1)["can_pass"]
    assert not ENGINE.view(state, 0)["can_buy"]


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


def test_rulebook_note_for_parents_open_hands_show_every_hand_in_every_view():
    """« les joueurs posent les cartes sur la table, face tournée vers le haut »."""
    state = ENGINE.new_game(3, 2, {"open_hands": True})
    for seat in (None, 0, 2):
        view = ENGINE.view(state, seat)
        assert [len(h) for h in view["hands"]] == [6, 6, 6]


def hidden_twin(state: TriominosState, seat: int | None, rng: random.Random) -> TriominosState:
    """The same game as `seat` knows it (None: a spectator), with what it cannot see dealt
    again: the pot's order and, unless hands are open, every other seat's hand (sizes kept)."""
    hidden = [] if state.open_hands else [s for s in range(state.players) if s != seat]
    pool = [*state.pot, *(card for s in hidden for card in state.hands[s])]
    dealt = pool[:]
    rng.shuffle(dealt)
    if dealt == pool:
        dealt = dealt[1:] + dealt[:1]
    hands = list(state.hands)
    rest = dealt[len(state.pot) :]
    for s in hidden:
        hands[s], rest = tuple(rest[: len(hands[s])]), rest[len(hands[s]) :]
    return replace(state, pot=tuple(dealt[: len(state.pot)]), hands=tuple(hands))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_are_identical_when_only_other_hands_and_the_pot_order_differ(seed):
    state = playout(seed, 3, {}, steps=10)
    rng = random.Random(seed)
    for seat in (None, 0, 1, 2):
        twin = hidden_twin(state, seat, rng)
        assert twin.hands != state.hands and twin.pot != state.pot
        assert ENGINE.view(state, seat) == ENGINE.view(twin, seat)


def test_with_open_hands_only_the_pot_order_is_hidden():
    state = playout(4, 3, {"open_hands": True}, steps=6)
    twin = hidden_twin(state, None, random.Random(4))
    assert twin.hands == state.hands and twin.pot != state.pot
    assert ENGINE.view(twin, None) == ENGINE.view(state, None)
    swapped = replace(state, hands=(state.hands[1], state.hands[0], state.hands[2]))
    assert ENGINE.view(swapped, None) != ENGINE.view(state, None)


@pytest.mark.parametrize("seed", [4, 5])
def test_place_labels_are_the_same_whatever_the_hands(seed):
    state = playout(seed, 4, {}, steps=8)
    twin = hidden_twin(state, None, random.Random(seed))
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
        assert (view["winners"] is None) == bool(view["to_move"])
    seats = ENGINE.current_seats(state)
    if seats:
        (seat,) = seats
        moves = ENGINE.legal_moves(state, seat)
        assert seat not in state.resigned and moves
        assert ENGINE.timeout_move(state, seat) in moves
        if {"type": "pass"} in moves:
            assert all(m["type"] == "take_joker" for m in moves if m != {"type": "pass"})


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


def test_a_save_from_before_the_starter_was_kept_still_loads():
    state = ENGINE.new_game(3, 12)
    saved = json.loads(ENGINE.dump(state))
    del saved["starter"]
    loaded = ENGINE.load(json.dumps(saved))
    assert loaded.starter == chance(12, 2).randrange(3)  # the draw those games were dealt with
    assert replace(loaded, starter=state.starter) == state


@pytest.mark.parametrize(
    "damage",
    [
        {"pot": [0, 0]},
        {"tokens": [4, 4, 4]},
        {"bank": 61},
        {"table": []},
        {"table": [[0, 0, 0, 1, 3]]},
        {"turn": 2},
        {"last_move": [0, "dance"]},
        {"hands": "cards"},
        {"players": "two"},
        {"starter": -1},
        {"colour": "red"},
    ],
    ids=lambda damage: next(iter(damage)),
)
def test_a_damaged_save_is_refused_with_a_game_error(damage):
    saved = {**json.loads(ENGINE.dump(ENGINE.new_game(2, 1))), **damage}
    with pytest.raises(GameError, match=r"cannot be read|damaged"):
        ENGINE.load(json.dumps(saved))


# --- the look-ups kept with a state ---------------------------------------------------


def reference_placements(state: TriominosState, seat: int) -> list[dict]:
    """Every placement from first principles: each empty cell beside a card (reading
    order), each hand card, each rotation showing a different face, every corner agreeing
    with every number already at its point."""
    cells = {(x, y, up) for _, x, y, up, _ in state.table}
    shown: dict[Point, int] = {}
    for card, x, y, up, rotation in state.table:
        for point, value in zip(cell_points((x, y, up)), corner_values(card, rotation) or (), strict=False):
            shown[point] = value
    places = sorted({n for c in cells for n in side_neighbours(c) if n not in cells}, key=cell_order)
    moves = []
    for index, card in enumerate(state.hands[seat]):
        for label, cell in enumerate(places, start=1):
            faces_seen = set()
            for rotation in range(3):
                faces = corner_values(card, rotation)
                if faces in faces_seen:
                    continue
                faces_seen.add(faces)
                points = cell_points(cell)
                if faces is None or all(shown.get(p, v) == v for p, v in zip(points, faces, strict=True)):
                    moves.append({"type": "place", "card": index, "place": str(label), "rotation": rotation})
    return moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_placements_are_exactly_those_worked_out_from_first_principles(players):
    def check(state: TriominosState) -> None:
        for seat in ENGINE.current_seats(state):
            placing = [m for m in ENGINE.legal_moves(state, seat) if m["type"] == "place"]
            assert placing == reference_placements(state, seat)

    for seed in range(3):
        playout(seed * 10 + players, players, {"joker": seed != 1}, check=check)


def test_the_table_look_ups_kept_with_a_state_equal_a_fresh_index_and_are_never_saved():
    def check(state: TriominosState) -> None:
        kept = table_of(state)
        assert kept == Table.of(state.table)
        assert "derived" not in json.loads(ENGINE.dump(state))
        loaded = ENGINE.load(ENGINE.dump(state))
        assert loaded == state and loaded.derived is None

    playout(7, 3, {}, check=check)
    saved = {**json.loads(ENGINE.dump(ENGINE.new_game(2, 1))), "derived": None}
    with pytest.raises(GameError, match="damaged"):
        ENGINE.load(json.dumps(saved))
