"""Rookie engine: every rule of rules/rookie.md on a constructed table, random playouts,
the fair start, the clock's move, dump/load and leaks.

A test that checks one of the rules file's cases says which in its docstring
("Rules › <section>: <the case>"), and is named after it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest

from games.base import GameError, IllegalMove, NotYourTurn, first_seat
from games.rookie import ENGINE, RookieState, X

NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple", "X": X}


def cards(code: str) -> tuple[str, ...]:
    """Cards written as letters, bottom first: "RGX" is red, green, then X on top."""
    return tuple(NAMES[letter] for letter in code)


def table(*stacks: str) -> tuple[tuple[str, ...], ...]:
    return tuple(cards(stack) for stack in stacks)


def discards(*stacks: str) -> tuple[tuple[str, ...], ...]:
    return tuple(cards(stack) for stack in stacks)


NO_DISCARDS = discards("", "", "")
# Tops: 0 R, 1 R, 2 B, 3 G, 4 X, 5 X, 6 Y, 7 P, 8 G; a blue lies under every top.
TABLE = table("BR", "BR", "YB", "BG", "BX", "BX", "BY", "BP", "BG")


def make(players: int = 3, variant: str = "standard", **changes: Any) -> RookieState:
    """A game with seat 0 (A) to move and the table and anything else replaced as given."""
    state = ENGINE.new_game(players, 1, {"variant": variant})
    changes.setdefault("table", TABLE)
    changes.setdefault("turn", 0)
    changes.setdefault("events", ())
    return replace(state, **changes)


def play(state: RookieState, *moves: dict) -> RookieState:
    """Apply moves, each by the seat whose turn it is."""
    for move in moves:
        state = ENGINE.apply(state, ENGINE.current_seats(state)[0], move)
    return state


def flip(position: int) -> dict:
    return {"type": "flip", "position": position}


def place(seat: int, first: int, second: int) -> dict:
    return {"type": "place", "seat": seat, "stacks": [first, second]}


def arrange(*tops: str | None) -> dict:
    return {"type": "arrange", "tops": list(tops)}


def total_cards(state: RookieState) -> int:
    """Every card, wherever it is: table, discard stacks, points, loot, pair in hand."""
    on_table = sum(map(len, state.table))
    unsecured = sum(len(stack) for seat in state.discards for stack in seat)
    in_hand = len(state.loot) + (2 if state.phase == "place" else 0)
    return on_table + unsecured + sum(state.points) + in_hand


def hidden_twin(state: RookieState, seat: int | None, rng: random.Random) -> RookieState:
    """The same table with its face-down cards shuffled among the face-down places.

    Face-down faces are secret from every seat alike, so `seat` changes nothing. The
    cards everyone can see stay: the face-up tops (open cards, a first flip) and the
    cards of the last flip, which everyone has just seen turned down where they lie.
    Stack sizes stay too. The seed only dealt the cards and drew the starter, so it stays.
    """
    up = set(state.open) | set(state.flipped)
    seen = up | {position for position, _, _ in state.last_flip or ()}
    pool = [card for p, stack in enumerate(state.table) for card in (stack[:-1] if p in seen else stack)]
    rng.shuffle(pool)
    stacks = []
    for p, stack in enumerate(state.table):
        kept = stack[-1:] if p in seen else ()
        size = len(stack) - len(kept)
        stacks.append((*pool[:size], *kept))
        pool = pool[size:]
    return replace(state, table=tuple(stacks))


# --- setting up --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "deck", "size", "kinds"),
    [
        ("standard", "standard", 12, 6),
        ("standard", "pocket", 8, 6),
        ("kids", "standard", 10, 5),
        ("team", "pocket", 8, 6),
    ],
)
def test_the_deck_is_dealt_evenly_into_nine_face_down_stacks(variant, deck, size, kinds):
    """Rules › Components and Table: 5 colours × 18 + 18 X (pocket: × 12), dealt face down
    into 9 stacks as evenly as possible."""
    state = ENGINE.new_game(4, 7, {"variant": variant, "deck": deck})
    assert [len(stack) for stack in state.table] == [size] * 9
    assert len({card for stack in state.table for card in stack}) == kinds
    view = ENGINE.view(state, None)
    assert all(position["top"] is None for position in view["positions"])
    assert view["last_flip"] is None and view["to_move"] == [first_seat(7, 4)]


def test_the_kids_deck_has_no_x_cards():
    """Rules › Kids variant: no X cards."""
    state = ENGINE.new_game(2, 3, {"variant": "kids", "deck": "pocket"})
    dealt = Counter(card for stack in state.table for card in stack)
    assert X not in dealt and sum(dealt.values()) == 60


def test_the_same_seed_deals_the_same_table():
    assert ENGINE.new_game(3, 42).table == ENGINE.new_game(3, 42).table
    assert ENGINE.new_game(3, 42).table != ENGINE.new_game(3, 43).table


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (1, {}, "2–6 players"),
        (7, {}, "2–6 players"),
        (5, {"variant": "team"}, "4 or 6 players"),
        (3, {"variant": "solo"}, "variant"),
        (3, {"deck": "huge"}, "deck"),
        (3, {"speed": "fast"}, "no option speed"),
    ],
)
def test_bad_seat_counts_and_options_are_refused_with_a_reason(players, options, words):
    """Rules › Components and options: 2–6 players; team needs 4 or 6."""
    with pytest.raises(GameError, match=words):
        ENGINE.new_game(players, 1, options)


# --- who starts ------------------------------------------------------------------------------

START_CONFIGS = [
    (players, variant)
    for variant, counts in (("standard", range(2, 7)), ("team", (4, 6)), ("kids", range(2, 7)))
    for players in counts
]


@pytest.mark.parametrize(("players", "variant"), START_CONFIGS)
def test_the_player_who_starts_is_drawn_by_lot(players, variant):
    """Rules › Table: "The player who starts is drawn by lot (match seed)" — the host
    (seat A) must not always start. Over thousands of seeds every seat starts equally
    often (within five standard deviations), and the start event names the seat drawn."""
    trials = 3000
    starts = Counter()
    for seed in range(trials):
        state = ENGINE.new_game(players, seed, {"variant": variant})
        (starter,) = ENGINE.current_seats(state)
        assert starter == first_seat(seed, players)
        starts[starter] += 1
        if seed < 50:
            view = ENGINE.view(state, None)
            assert view["last_event"] == {"type": "start", "seat": starter}
            assert view["events"] == [view["last_event"]] and view["turn"] == starter
    expected = trials / players
    spread = 5 * (trials * (1 / players) * (1 - 1 / players)) ** 0.5
    assert sorted(starts) == list(range(players))
    assert all(abs(count - expected) <= spread for count in starts.values()), starts


def test_teams_stay_as_seated_whoever_is_drawn_to_start():
    """Rules › Team variant: partners sit opposite (A & C, B & D); the lot picks only who starts."""
    starters = set()
    for seed in range(40):
        state = ENGINE.new_game(4, seed, {"variant": "team"})
        starters.add(state.turn)
        assert ENGINE.view(state, None)["teams"] == [[0, 2], [1, 3]]
    assert starters == {0, 1, 2, 3}


def test_turn_order_is_seat_order_from_whoever_starts():
    """Rules › Table: "Turn order is seat order" — after the last seat comes the first."""
    state = play(make(turn=2), flip(0), flip(2))
    assert state.turn == 0
    assert ENGINE.view(state, None)["to_move"] == [0]


# --- a normal start ----------------------------------------------------------------------


def test_a_pair_of_one_colour_is_placed_and_the_player_goes_on():
    """Rules › A turn › Normal start › Same colour: place both cards on your discard stacks,
    on two different ones; you go on: flip two new cards."""
    state = play(make(), flip(0), flip(1))
    assert state.phase == "place" and state.pair == "red"
    assert len(ENGINE.legal_moves(state, 0)) == 6
    state = play(state, place(0, 0, 1))
    assert state.discards[0] == discards("R", "R", "")
    assert state.phase == "flip" and state.turn == 0
    assert state.table[0] == cards("B") and state.table[1] == cards("B")


def test_a_pair_may_go_onto_a_single_stack():
    """Rules › A turn › Normal start › Same colour: "on one stack or on two different ones"."""
    state = play(make(), flip(0), flip(1), place(0, 2, 2))
    assert state.discards[0] == discards("", "", "RR")


def test_two_different_colours_are_turned_down_and_the_turn_passes():
    """Rules › A turn › Normal start › Two different colours: turn both face down again
    where they lie; your turn ends."""
    state = play(make(), flip(0), flip(2))
    view = ENGINE.view(state, None)
    assert state.turn == 1 and state.phase == "flip"
    assert view["positions"][0]["top"] is None and view["positions"][2]["top"] is None
    assert state.table[0] == cards("BR") and state.table[2] == cards("YB")
    assert view["last_flip"] == [
        {"position": 0, "card": "red", "from": 0},
        {"position": 2, "card": "blue", "from": 2},
    ]


def test_a_colour_and_an_x_stay_open_and_end_the_turn():
    """Rules › A turn › Normal start › One colour and one X: leave both face up (open
    cards); your turn ends."""
    state = play(make(), flip(0), flip(4))
    view = ENGINE.view(state, None)
    assert state.turn == 1 and view["open"] == [0, 4]
    assert view["positions"][0]["top"] == "red" and view["positions"][4]["top"] == X
    assert view["phase"] == "start"


def test_only_face_down_top_cards_can_be_flipped():
    """Rules › A turn: only the top card of a stack can be flipped, and only while face down."""
    state = play(make(), flip(0))
    with pytest.raises(IllegalMove, match="position 1 is already face up"):
        play(state, flip(0))
    with pytest.raises(IllegalMove, match="Position 1 is empty"):
        play(make(table=table("", *["BR"] * 8)), flip(0))
    assert flip(0) not in ENGINE.legal_moves(state, 0)


def test_a_player_out_of_turn_is_told_to_wait():
    with pytest.raises(NotYourTurn):
        ENGINE.apply(make(), 1, flip(0))
    assert ENGINE.legal_moves(make(), 1) == []


def test_a_move_of_the_wrong_kind_names_the_decision_asked_for():
    with pytest.raises(IllegalMove, match="Place the pair"):
        play(make(), flip(0), flip(1), flip(2))


@pytest.mark.parametrize(
    ("moves", "bad", "words"),
    [
        ((), flip(9), "positions 1–9"),
        ((), flip(-1), "positions 1–9"),
        ((flip(0), flip(1)), place(0, 0, 3), "discard stacks 1–3"),
        ((flip(0), flip(1)), place(1, 0, 0), "your own discard stacks"),
        ((flip(4), flip(5)), arrange("red", "pink", None), "discard stacks 1–3"),
    ],
)
def test_refusals_count_positions_and_stacks_from_one(moves, bad, words):
    """Player-facing text counts from 1: positions 1–9, discard stacks 1–3."""
    state = make(players=2, discards=(NO_DISCARDS, discards("R", "", "")))
    state = play(state, *moves)
    if bad["type"] == "arrange":
        state = play(state, place(0, 0, 0))
    with pytest.raises(IllegalMove, match=words) as refused:
        play(state, bad)
    assert "0–" not in str(refused.value) and " 0 " not in str(refused.value)


def test_a_refused_steal_names_the_neighbours_by_letter():
    robbed = (NO_DISCARDS, discards("R", "", ""), discards("GG", "B", ""))
    state = play(make(discards=robbed), flip(4), flip(5), place(0, 0, 0))
    with pytest.raises(IllegalMove, match="player C or player B"):
        play(state, {"type": "steal", "from": 0})


# --- open cards: Option 1 and Option 2 ---------------------------------------------------


def with_open(*positions: int, turn: int = 1, **changes: Any) -> RookieState:
    """Seat `turn` starts with these positions' tops lying open."""
    return make(open=positions, turn=turn, phase="start", **changes)


def test_option_one_turns_the_open_cards_down_for_a_normal_start():
    """Rules › A turn › Start with open cards › Option 1: turn all open cards face down,
    then play a normal start."""
    state = with_open(0, 4)
    assert ENGINE.legal_moves(state, 1)[0] == {"type": "turn_down"}
    state = play(state, {"type": "turn_down"})
    assert state.open == () and state.phase == "flip" and state.turn == 1
    assert ENGINE.view(state, None)["positions"][4]["top"] is None
    assert ENGINE.view(state, None)["last_event"] == {"type": "turn_down", "seat": 1, "count": 2}


def test_a_chase_that_matches_nothing_leaves_one_more_open_card():
    """Rules › A turn › Option 2 (chase) › It matches nothing: it stays face up as one
    more open card; your turn ends."""
    state = play(with_open(0, 4), flip(3))
    assert state.open == (0, 4, 3) and state.turn == 2 and state.phase == "start"


def test_a_chase_that_matches_an_open_colour_takes_the_pair_and_chases_again():
    """Rules › A turn › Option 2 (chase) › It matches an open colour: take that pair; if
    open cards remain, chase again with one more card (Option 1 is no longer available)."""
    state = play(with_open(0, 4), flip(1), place(1, 0, 0))
    assert state.discards[1] == discards("RR", "", "")
    assert state.open == (4,) and state.phase == "chase" and state.turn == 1
    assert {"type": "turn_down"} not in ENGINE.legal_moves(state, 1)


def test_a_chase_that_clears_every_open_card_goes_on_with_a_normal_start():
    """Rules › A turn › Option 2 (chase) › It matches an open colour: if none remain, go
    on with a normal start."""
    state = play(with_open(0), flip(1), place(1, 0, 1))
    assert state.open == () and state.phase == "flip" and state.turn == 1


def test_a_chase_that_leaves_no_card_to_flip_turns_the_open_cards_down_for_a_normal_start():
    """Rules › A turn › Option 2 (chase) › It matches an open colour: if no card can be
    flipped, turn any open cards face down and go on with a normal start."""
    # Open: red at 1, X at 5. The only face-down card on the table is the red at 2.
    state = with_open(0, 4, table=table("R", "R", "", "", "BX", "", "", "", ""))
    state = play(state, flip(1))
    view = ENGINE.view(state, None)
    assert view["events"] == [
        {"type": "pair", "seat": 1, "card": "red"},
        {"type": "turn_down", "seat": 1, "count": 1},
    ]
    state = play(state, place(1, 0, 1))
    assert state.open == () and state.phase == "flip" and state.turn == 1
    assert ENGINE.view(state, None)["positions"][4]["top"] is None
    assert flip(4) in ENGINE.legal_moves(state, 1)


def test_a_chase_that_matches_an_x_robs_the_player_to_the_left_and_turns_the_rest_down():
    """Rules › A turn › Option 2 (chase) › It is an X and an X is open: take both X, take
    all unsecured cards of the player to your left (the player before you), turn all other
    open cards face down, go on with a normal start."""
    robbed = (discards("GG", "", "Y"), NO_DISCARDS, discards("B", "", ""))
    state = play(with_open(0, 4, discards=robbed), flip(5))
    assert state.open == () and state.phase == "place" and state.pair == X
    assert ENGINE.view(state, None)["events"][-1] == {"type": "turn_down", "seat": 1, "count": 1}
    state = play(state, place(1, 0, 1))
    # Seat 0 sits before seat 1: its three cards are taken, seat 2 keeps its own.
    assert state.phase == "arrange" and Counter(state.loot) == Counter(cards("GGY"))
    assert state.discards[0] == NO_DISCARDS and state.discards[2] == discards("B", "", "")
    state = play(state, arrange("green", None, "yellow"))
    assert state.discards[1] == discards("XGG", "X", "Y")
    assert state.phase == "flip" and state.turn == 1


def test_a_chase_works_the_same_against_any_number_of_open_cards():
    """Rules › A turn › Option 2 [decision]: the same rule for any number of open cards —
    against three open cards a match takes one pair and the chase goes on."""
    state = with_open(0, 4, 3, table=table("BR", "BY", "YB", "BG", "BX", "BX", "BY", "BP", "BG"))
    state = play(state, flip(8), place(1, 0, 0))
    assert state.open == (0, 4) and state.phase == "chase"
    state = play(state, flip(2))
    assert state.open == (0, 4, 2) and state.turn == 2 and state.phase == "start"


# --- X pairs, stealing and arranging -------------------------------------------------------


def test_an_x_pair_lets_the_player_choose_the_neighbour_before_or_after():
    """Rules › A turn › Normal start › Two X cards: place both, then take all unsecured
    cards of the player before you or after you (your choice); you go on."""
    robbed = (NO_DISCARDS, discards("R", "", ""), discards("GG", "B", ""))
    state = play(make(discards=robbed), flip(4), flip(5), place(0, 0, 0))
    assert state.phase == "steal"
    assert ENGINE.legal_moves(state, 0) == [{"type": "steal", "from": 2}, {"type": "steal", "from": 1}]
    choices = ENGINE.view(state, None)["pending"]["choices"]
    assert choices == [
        {"from": 2, "side": "before", "cards": 3},
        {"from": 1, "side": "after", "cards": 1},
    ]
    state = play(state, {"type": "steal", "from": 2})
    assert state.phase == "arrange" and state.discards[2] == NO_DISCARDS


def test_with_two_players_the_x_pair_robs_the_only_neighbour_at_once():
    state = make(players=2, discards=(NO_DISCARDS, discards("R", "G", "")))
    state = play(state, flip(4), flip(5), place(0, 0, 1))
    assert state.phase == "arrange" and Counter(state.loot) == Counter(cards("RG"))


def test_an_x_pair_with_nothing_to_steal_goes_straight_on():
    state = play(make(), flip(4), flip(5), place(0, 0, 1))
    assert state.phase == "flip" and state.turn == 0


def test_taken_cards_may_be_arranged_with_any_top_and_some_stacks_left_out():
    """Rules › Placing cards › Taken cards: spread over the three stacks in any way (a
    stack may get none), choosing which card ends on top of each stack that gets some."""
    state = make(players=2, discards=(discards("", "", "G"), discards("RB", "R", "Y")))
    state = play(state, flip(4), flip(5), place(0, 0, 0))
    moves = ENGINE.legal_moves(state, 0)
    assert arrange("red", None, None) in moves and arrange(None, None, "yellow") in moves
    assert arrange("yellow", "yellow", None) not in moves
    with pytest.raises(IllegalMove, match="only 1 × yellow"):
        play(state, arrange("yellow", "yellow", None))
    state = play(state, arrange(None, "blue", None))
    assert state.discards[0][1][-1] == "blue" and sum(map(len, state.discards[0])) == 7


def test_the_arrangement_that_secures_is_offered_first():
    """Rules › Placing cards: "Offer the arrangement that secures at once as the default"."""
    state = make(players=2, discards=(discards("", "", ""), discards("RR", "R", "G")))
    state = play(state, flip(4), flip(5), place(0, 0, 1))
    default = ENGINE.view(state, None)["pending"]["default"]
    assert default == ["red", "red", "red"]
    assert ENGINE.legal_moves(state, 0)[0] == arrange(*default)


def test_securing_is_checked_once_after_the_whole_loot_is_placed():
    """Rules › Placing cards [decision]: securing is checked once, after the whole loot
    is placed — a red among the loot that could have completed three red tops on its own
    does not secure when the arrangement ends on other tops."""
    state = make(players=2, discards=(discards("R", "R", ""), discards("R", "G", "")))
    state = play(state, flip(4), flip(5), place(0, 2, 2))  # tops: red, red, X
    assert state.phase == "arrange"
    state = play(state, arrange(None, None, "green"))
    assert state.points[0] == 0
    assert [stack[-1] for stack in state.discards[0]] == ["red", "red", "green"]
    assert sorted(state.discards[0][2]) == sorted(cards("XXRG"))


# --- securing, Rookie, chaining --------------------------------------------------------------


def test_three_equal_colour_tops_are_secured_onto_the_point_stack():
    """Rules › Securing: after a placement, if all three discard stacks are non-empty and
    their tops are the same colour, all three go onto the point stack."""
    state = make(discards=(discards("GR", "R", ""), NO_DISCARDS, NO_DISCARDS))
    placing = ENGINE.view(play(state, flip(0), flip(1)), None)["pending"]["choices"]
    assert {"seat": 0, "stacks": [2, 2], "secures": True, "rookie": False} in placing
    assert {"seat": 0, "stacks": [0, 0], "secures": False, "rookie": False} in placing
    state = play(state, flip(0), flip(1), place(0, 2, 2))
    assert state.points[0] == 5 and state.discards[0] == NO_DISCARDS
    assert ENGINE.view(state, None)["scores"] == [5, 0, 0]


def test_three_x_tops_are_a_rookie_that_takes_every_other_players_cards():
    """Rules › Securing › Rookie: all three tops X — secure the three stacks first, then
    take all unsecured cards of every other player."""
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    state = play(make(discards=others), flip(4), flip(5), place(0, 2, 2))
    assert state.points[0] == 4
    assert state.phase == "arrange" and state.loot_reason == "rookie"
    assert Counter(state.loot) == Counter(cards("RBGY"))
    assert state.discards[1] == NO_DISCARDS and state.discards[2] == NO_DISCARDS
    # The X pair's own steal finds the neighbours empty afterwards.
    state = play(state, arrange("red", "green", "yellow"))
    assert state.phase == "flip" and sum(map(len, state.discards[0])) == 4


def test_securing_chains_when_taken_cards_complete_three_equal_tops():
    """Rules › Securing: checked again after each such placement, so it can chain."""
    others = (NO_DISCARDS, discards("RG", "", ""), discards("XXX", "", "Y"))
    state = play(make(discards=others), flip(4), flip(5), place(0, 0, 1))
    state = play(state, {"type": "steal", "from": 2})
    # The arrangement ends in three X tops: Rookie again, which robs seat 1 as well.
    state = play(state, arrange(X, X, X))
    assert state.points[0] == 6
    assert state.phase == "arrange" and Counter(state.loot) == Counter(cards("RG"))
    state = play(state, arrange("red", "green", None))
    assert state.discards[0] == discards("R", "G", "") and state.phase == "flip"


def test_a_chain_of_colour_securing_after_a_steal_counts_every_card():
    others = (NO_DISCARDS, NO_DISCARDS, discards("BR", "R", "R"))
    state = play(make(discards=others), flip(4), flip(5), place(0, 0, 1))
    state = play(state, {"type": "steal", "from": 2}, arrange("red", "red", "red"))
    assert state.points[0] == 6 and state.discards[0] == NO_DISCARDS
    assert state.phase == "flip"


# --- the table running out -------------------------------------------------------------------


def test_a_card_from_a_tall_stack_moves_onto_the_lowest_empty_position():
    """Rules › Empty stacks: while a position is empty, a flipped card from a stack that
    holds more is moved, face up, onto the lowest-numbered empty position; after a miss it
    is turned face down at its new place."""
    state = make(table=table("", "BR", "", "BG", "BX", "BX", "BY", "BP", "RGB"))
    state = play(state, flip(8))
    assert state.table[0] == cards("B") and state.table[8] == cards("RG")
    view = ENGINE.view(state, None)
    assert view["positions"][0] == {"count": 1, "top": "blue"}
    assert view["last_flip"] == [{"position": 0, "card": "blue", "from": 8}]
    assert view["last_event"] == {"type": "flip", "seat": 0, "position": 0, "card": "blue", "from": 8}
    # The miss turns it face down at its new place.
    state = play(state, flip(1))
    assert state.table[1] == cards("B") and state.table[2] == cards("R")
    state_view = ENGINE.view(state, None)
    assert state_view["positions"][0] == {"count": 1, "top": None}
    assert state.turn == 1


def test_a_moved_card_beside_an_x_stays_open_at_its_new_place():
    """Rules › Empty stacks: from then on it behaves like any flipped card at its new
    place — left open beside an X."""
    state = make(table=table("", "BR", "BB", "BG", "BX", "BX", "BY", "BP", "RGB"))
    state = play(state, flip(4))  # the X moves from position 5 onto empty position 1
    state = play(state, flip(8))  # no position is empty any more: the blue is flipped where it lies
    view = ENGINE.view(state, None)
    assert view["open"] == [0, 8] and view["positions"][0] == {"count": 1, "top": X}
    assert state.table[4] == cards("B") and state.turn == 1


def test_a_last_card_is_flipped_where_it_lies_even_beside_an_empty_position():
    """Rules › Empty stacks: only a card from a stack that still holds at least one more moves."""
    state = play(make(table=table("", "R", "BR", *["BG"] * 6)), flip(1))
    assert state.table[0] == () and state.flipped == (1,)


def test_the_last_pair_takes_every_unsecured_card_onto_the_point_stack():
    """Rules › End: whoever takes the last pair puts it onto their point stack with all
    unsecured cards of all players, their own included [decision]; unsecured cards of the
    others score nothing."""
    others = (discards("G", "", ""), discards("XX", "B", ""), discards("Y", "", "P"))
    state = make(table=table("", "", "", "", "RR", "", "", "", ""), discards=others)
    state = play(state, flip(4))
    assert state.table[0] == cards("R")
    state = play(state, flip(4))
    assert ENGINE.current_seats(state) == ()
    assert state.points == (8, 0, 0)
    assert all(seat == NO_DISCARDS for seat in state.discards)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,) and not outcome.draw
    view = ENGINE.view(state, None)
    assert view["winners"] == [0] and view["to_move"] == [] and view["pending"] is None


def test_equal_counts_at_the_top_share_the_win_and_lower_counts_do_not():
    """Rules › End [decision]: most cards in the point stack wins; equal counts at the top
    share the win. Here the last pair lifts A level with B, and C, behind, is no winner."""
    state = make(players=3, table=table("R", "R", *[""] * 7), points=(3, 5, 4))
    outcome = ENGINE.outcome(play(state, flip(0), flip(1)))
    assert outcome.scores == (5, 5, 4)
    assert outcome.winners == (0, 1) and outcome.draw
    alone = ENGINE.outcome(play(replace(state, points=(4, 5, 4)), flip(0), flip(1)))
    assert alone.winners == (0,) and not alone.draw


def test_the_view_tells_what_a_rookie_took_from_whom():
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    state = play(make(discards=others), flip(4), flip(5), place(0, 2, 2))
    assert ENGINE.view(state, None)["events"] == [
        {"type": "place", "seat": 0, "owner": 0, "card": "X", "stacks": [2, 2]},
        {"type": "secure", "seat": 0, "card": "X", "count": 4},
        {"type": "rookie", "seat": 0, "taken": [[1, 3], [2, 1]]},
    ]
    assert ENGINE.view(state, None)["last_event"] == {"type": "rookie", "seat": 0, "taken": [[1, 3], [2, 1]]}
    state = play(state, arrange("red", "green", "yellow"))
    assert ENGINE.view(state, None)["events"] == [
        {"type": "arrange", "seat": 0, "count": 4, "tops": ["red", "green", "yellow"]}
    ]


def test_the_view_tells_what_the_last_pair_collected_and_never_names_a_miss():
    others = (discards("G", "", ""), discards("XX", "B", ""), discards("Y", "", "P"))
    state = make(table=table("", "", "", "", "RR", "", "", "", ""), discards=others)
    events = ENGINE.view(play(state, flip(4), flip(4)), None)["events"]
    assert events[-1] == {"type": "collect", "seat": 0, "count": 8, "taken": [[0, 1], [1, 3], [2, 2]]}
    missed = ENGINE.view(play(make(), flip(0), flip(2)), None)["events"]
    assert missed == [{"type": "miss", "seat": 0}]
    state = play(make(), flip(0), flip(4))
    assert ENGINE.view(state, None)["events"] == [{"type": "open", "seat": 0, "cards": ["red", "X"]}]
    assert ENGINE.load(ENGINE.dump(state)) == state


# --- team variant ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "teams"), [(4, [[0, 2], [1, 3]]), (6, [[0, 3], [1, 4], [2, 5]])])
def test_partners_sit_opposite_so_turns_alternate_between_teams(players, teams):
    """Rules › Team variant: partners sit opposite (seats 1 & 3, 2 & 4 with four players;
    1 & 4, 2 & 5, 3 & 6 with six), so turns alternate between teams."""
    state = make(players, "team")
    assert ENGINE.view(state, None)["teams"] == teams
    team_of = {seat: index for index, team in enumerate(teams) for seat in team}
    order = [state.turn]
    for _ in range(players):
        state = play(state, flip(0), flip(2))
        order.append(state.turn)
    assert order == [*range(players), 0]
    assert all(team_of[a] != team_of[b] for a, b in pairwise(order))


def test_in_the_team_variant_a_pair_may_secure_the_partners_stacks():
    """Rules › Team variant: a pair may be placed on your own or your partner's discard
    stacks — both cards on one player's stacks."""
    partner = discards("R", "GR", "")
    state = make(4, "team", discards=(NO_DISCARDS, NO_DISCARDS, partner, NO_DISCARDS))
    state = play(state, flip(0), flip(1))
    moves = ENGINE.legal_moves(state, 0)
    assert len(moves) == 12 and place(2, 2, 2) in moves and place(1, 0, 0) not in moves
    state = play(state, place(2, 2, 2))
    assert state.points == (0, 0, 5, 0) and state.turn == 0
    view = ENGINE.view(state, None)
    assert view["teams"] == [[0, 2], [1, 3]] and view["team_scores"] == [5, 0]


def test_in_the_team_variant_steals_target_opponents_and_land_on_your_own_stacks():
    """Rules › Team variant: taken cards always go on your own stacks; stealing targets
    the neighbours in turn order (always opponents)."""
    robbed = (NO_DISCARDS, discards("G", "", ""), NO_DISCARDS, discards("Y", "", ""))
    state = play(make(4, "team", discards=robbed), flip(4), flip(5), place(2, 0, 1))
    assert [move["from"] for move in ENGINE.legal_moves(state, 0)] == [3, 1]
    state = play(state, {"type": "steal", "from": 1}, arrange("green", None, None))
    assert state.discards[0] == discards("G", "", "") and state.discards[2] == discards("X", "X", "")


def test_a_rookie_on_the_partners_stacks_gives_the_partner_every_other_players_cards():
    """Rules › Team variant [decision]: Rookie on the partner's stacks — the partner's
    stacks are secured and the partner takes every other player's unsecured cards, the
    mover arranging them."""
    hands = (discards("B", "", ""), discards("G", "", ""), discards("X", "X", ""), NO_DISCARDS)
    state = play(make(4, "team", discards=hands), flip(4), flip(5), place(2, 2, 2))
    assert state.points[2] == 4 and state.receiver == 2
    assert ENGINE.current_seats(state) == (0,)
    assert Counter(state.loot) == Counter(cards("BG"))
    state = play(state, arrange("blue", "green", None))
    assert state.discards[2] == discards("B", "G", "")


def test_the_team_outcome_names_both_partners_as_winners():
    """Rules › Team variant: the team score is the sum of both; the winners are all seats
    of the best team."""
    state = make(4, "team", table=table("R", "R", *[""] * 7), points=(3, 4, 0, 0))
    outcome = ENGINE.outcome(play(state, flip(0), flip(1)))
    assert outcome.winners == (0, 2) and outcome.teams == ((0, 2), (1, 3))
    assert outcome.details["team_scores"] == [5, 4]


# --- kids variant ----------------------------------------------------------------------------


def test_in_the_kids_variant_every_pair_goes_straight_to_the_point_stack():
    """Rules › Kids variant: no discard stacks — every pair goes straight to the point stack."""
    kids_table = table("BR", "BR", "YB", "BG", "BY", "BG", "BY", "BP", "BG")
    state = play(make(variant="kids", table=kids_table), flip(0), flip(1))
    assert state.points[0] == 2 and state.phase == "flip" and state.turn == 0
    assert all(seat == NO_DISCARDS for seat in state.discards)


# --- resigning -------------------------------------------------------------------------------


def test_a_resigned_seat_is_skipped_in_turn_order():
    state = ENGINE.resign(make(), 1)
    assert ENGINE.view(state, None)["last_event"] == {"type": "resign", "seat": 1}
    state = play(state, flip(0), flip(2))
    assert state.turn == 2


def test_resigning_mid_turn_settles_the_pair_and_passes_the_turn():
    state = play(make(), flip(0), flip(1))
    resigned = ENGINE.resign(state, 0)
    assert resigned.turn == 1 and resigned.phase == "flip"
    assert sum(map(len, resigned.discards[0])) == 2
    assert total_cards(resigned) == total_cards(state)
    assert ENGINE.view(resigned, None)["last_event"] == {"type": "resign", "seat": 0}


def test_resigning_mid_turn_secures_nothing_for_the_leaving_player():
    state = play(make(discards=(discards("GR", "R", ""), NO_DISCARDS, NO_DISCARDS)), flip(0), flip(1))
    resigned = ENGINE.resign(state, 0)
    assert resigned.points[0] == 0 and sum(map(len, resigned.discards[0])) == 5


def test_the_last_player_standing_wins_and_a_resigned_seat_never_does():
    state = make(points=(30, 0, 2))
    state = ENGINE.resign(ENGINE.resign(state, 0), 1)
    outcome = ENGINE.outcome(state)
    assert ENGINE.current_seats(state) == () and outcome.winners == (2,)
    with pytest.raises(GameError):
        ENGINE.resign(state, 2)


def test_a_team_that_has_left_entirely_ends_the_game():
    state = ENGINE.resign(make(4, "team", points=(9, 0, 9, 1)), 0)
    assert ENGINE.current_seats(state) != ()
    state = ENGINE.resign(state, 2)
    assert ENGINE.outcome(state).winners == (1, 3)


# --- the turn clock's move for an absent player ----------------------------------------------


def test_the_clock_turns_open_cards_down_rather_than_chasing():
    state = with_open(0, 4)
    assert ENGINE.timeout_move(state, 1) == {"type": "turn_down"}


def test_the_clock_flips_the_lowest_numbered_face_down_top():
    assert ENGINE.timeout_move(make(), 0) == flip(0)
    assert ENGINE.timeout_move(play(make(), flip(3)), 0) == flip(0)
    assert ENGINE.timeout_move(play(make(), flip(0)), 0) == flip(1)


def test_the_clock_never_secures_a_pair_where_a_neutral_placement_exists():
    """Stack 1 would secure three red tops for A, the partner's stacks a pair of them."""
    own, partner = discards("", "GR", "R"), discards("R", "R", "")
    state = make(4, "team", discards=(own, NO_DISCARDS, partner, NO_DISCARDS))
    state = play(state, flip(0), flip(1))
    assert ENGINE.legal_moves(state, 0)[0] == place(0, 0, 0)
    move = ENGINE.timeout_move(state, 0)
    assert move == place(0, 1, 1)
    assert play(state, move).points == (0, 0, 0, 0)


def test_the_clock_never_plays_a_rookie_for_an_absent_player():
    state = make(discards=(discards("", "X", "X"), discards("R", "", ""), NO_DISCARDS))
    state = play(state, flip(4), flip(5))
    move = ENGINE.timeout_move(state, 0)
    assert move == place(0, 1, 1)
    assert play(state, move).points[0] == 0


def test_the_clock_robs_the_neighbour_with_fewer_cards_and_arranges_without_securing():
    robbed = (discards("RR", "R", ""), discards("G", "", ""), discards("RR", "R", "R"))
    state = play(make(discards=robbed), flip(4), flip(5), place(0, 0, 1))
    assert ENGINE.timeout_move(state, 0) == {"type": "steal", "from": 1}
    state = play(state, {"type": "steal", "from": 2})
    assert ENGINE.legal_moves(state, 0)[0] == arrange("red", "red", "red")  # the default secures
    move = ENGINE.timeout_move(state, 0)
    assert play(state, move).points[0] == 0


def test_the_clock_chooses_from_what_the_table_shows_only():
    """The clock's move is the same for every table that looks the same: it reveals nothing."""
    rng = random.Random(3)
    for state in random_playout_states(3, 5, {})[::7]:
        seat = ENGINE.current_seats(state)
        if seat:
            twin = hidden_twin(state, seat[0], rng)
            assert ENGINE.timeout_move(twin, seat[0]) == ENGINE.timeout_move(state, seat[0])


def test_an_absent_player_never_moves_out_of_turn():
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_move(make(), 1)


# --- playouts, dump/load, and what the views reveal ---------------------------------------


def random_playout_states(players: int, seed: int, options: dict) -> list[RookieState]:
    """Every state of a game of random legal moves, checking the invariants after every one."""
    state = ENGINE.new_game(players, seed, options)
    rng = random.Random(seed)
    deck = total_cards(state)
    states = [state]
    for _ in range(20_000):
        if ENGINE.outcome(state) is not None:
            return states
        (seat,) = ENGINE.current_seats(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        states.append(state)
        assert total_cards(state) == deck
        assert ENGINE.load(ENGINE.dump(state)) == state
        view = ENGINE.view(state, None)
        assert view["to_move"] == list(ENGINE.current_seats(state))
        assert json.loads(json.dumps(view)) == view
    raise AssertionError("the playout did not finish")


CONFIGS = [
    (players, variant, deck)
    for deck in ("standard", "pocket")
    for variant, counts in (("standard", range(2, 7)), ("team", (4, 6)), ("kids", (2, 5)))
    for players in counts
]


@pytest.mark.parametrize(("players", "variant", "deck"), CONFIGS)
def test_random_games_end_with_every_card_on_a_point_stack(players, variant, deck):
    state = random_playout_states(players, players * 31 + len(variant), {"variant": variant, "deck": deck})[
        -1
    ]
    per_kind = 12 if deck == "pocket" else 18
    kinds = 5 if variant == "kids" else 6
    assert sum(state.points) == kinds * per_kind
    assert ENGINE.outcome(state).scores == state.points


def test_dump_and_load_round_trip_exactly_mid_turn():
    state = play(make(), flip(4), flip(5))
    text = ENGINE.dump(state)
    assert ENGINE.load(text) == state and ENGINE.dump(ENGINE.load(text)) == text
    with pytest.raises(GameError):
        ENGINE.load('{"state": {}}')


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("players", 9),
        ("table", [["red"]] * 8),
        ("table", [["pink"]] * 9),
        ("open", [12]),
        ("discards", [[[], [], []]]),
        ("points", ["many", 0, 0]),
        ("resigned", [0, 0, 0]),
        ("turn", 3),
        ("phase", "dance"),
        ("pair", "red"),
        ("last_flip", [[0, "red"]]),
        ("events", [["party", 0]]),
        ("events", [["place", 0]]),
    ],
)
def test_a_damaged_save_is_refused_as_a_game_error(key, value):
    saved = json.loads(ENGINE.dump(make()))
    saved["state"][key] = value
    with pytest.raises(GameError, match="Rookie"):
        ENGINE.load(json.dumps(saved))


def test_another_games_save_is_not_read_as_rookie():
    saved = json.loads(ENGINE.dump(make()))
    with pytest.raises(GameError, match="not a saved Rookie game"):
        ENGINE.load(json.dumps({**saved, "game": "tremember"}))


def test_face_down_cards_never_reach_any_view():
    """Rules › Hidden information: the faces of face-down cards are secret from everyone."""
    state = with_open(0, 4)
    state = play(state, flip(3))
    other = hidden_twin(state, None, random.Random(5))
    assert other.table != state.table
    assert [other.table[p][-1] for p in state.open] == [state.table[p][-1] for p in state.open]
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


def test_the_twin_keeps_the_cards_just_seen_turned_down():
    state = play(make(), flip(0), flip(2))
    twin = hidden_twin(state, 1, random.Random(1))
    assert twin.table != state.table
    assert twin.table[0][-1] == "red" and twin.table[2][-1] == "blue"


def test_two_deals_show_the_same_view_until_a_card_is_turned_up():
    seeds = [seed for seed in range(50) if first_seat(seed, 4) == 2][:2]
    first, second = (ENGINE.new_game(4, seed) for seed in seeds)
    assert first.table != second.table
    assert ENGINE.view(first, None) == ENGINE.view(second, None)
