"""Rookie engine: every rule on a constructed table, random playouts, dump/load, leaks."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from games.base import GameError, IllegalMove, NotYourTurn
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


def make(players: int = 3, variant: str = "standard", **changes: object) -> RookieState:
    """A fresh game with the table and anything else replaced as given."""
    state = ENGINE.new_game(players, 1, {"variant": variant})
    changes.setdefault("table", TABLE)
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
    state = ENGINE.new_game(4, 7, {"variant": variant, "deck": deck})
    assert [len(stack) for stack in state.table] == [size] * 9
    assert len({card for stack in state.table for card in stack}) == kinds
    view = ENGINE.view(state, None)
    assert all(position["top"] is None for position in view["positions"])
    assert view["last_flip"] is None and view["to_move"] == [0]


def test_the_kids_deck_has_no_x_cards():
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
    with pytest.raises(GameError, match=words):
        ENGINE.new_game(players, 1, options)


# --- a normal start ----------------------------------------------------------------------


def test_a_pair_of_one_colour_is_placed_and_the_player_goes_on():
    state = play(make(), flip(0), flip(1))
    assert state.phase == "place" and state.pair == "red"
    assert len(ENGINE.legal_moves(state, 0)) == 6
    state = play(state, place(0, 0, 1))
    assert state.discards[0] == discards("R", "R", "")
    assert state.phase == "flip" and state.turn == 0
    assert state.table[0] == cards("B") and state.table[1] == cards("B")


def test_a_pair_may_go_onto_a_single_stack():
    state = play(make(), flip(0), flip(1), place(0, 2, 2))
    assert state.discards[0] == discards("", "", "RR")


def test_two_different_colours_are_turned_down_and_the_turn_passes():
    state = play(make(), flip(0), flip(2))
    view = ENGINE.view(state, None)
    assert state.turn == 1 and state.phase == "flip"
    assert view["positions"][0]["top"] is None and view["positions"][2]["top"] is None
    assert view["last_flip"] == [
        {"position": 0, "card": "red", "from": 0},
        {"position": 2, "card": "blue", "from": 2},
    ]


def test_a_colour_and_an_x_stay_open_and_end_the_turn():
    state = play(make(), flip(0), flip(4))
    view = ENGINE.view(state, None)
    assert state.turn == 1 and view["open"] == [0, 4]
    assert view["positions"][0]["top"] == "red" and view["positions"][4]["top"] == X
    assert view["phase"] == "start"


def test_only_face_down_top_cards_can_be_flipped():
    state = play(make(), flip(0))
    with pytest.raises(IllegalMove, match="already face up"):
        play(state, flip(0))
    with pytest.raises(IllegalMove, match="empty"):
        play(make(table=table("", *["BR"] * 8)), flip(0))
    assert flip(0) not in ENGINE.legal_moves(state, 0)


def test_a_player_out_of_turn_is_told_to_wait():
    with pytest.raises(NotYourTurn):
        ENGINE.apply(make(), 1, flip(0))
    assert ENGINE.legal_moves(make(), 1) == []


def test_a_move_of_the_wrong_kind_names_the_decision_asked_for():
    with pytest.raises(IllegalMove, match="Place the pair"):
        play(make(), flip(0), flip(1), flip(2))


# --- open cards: Option 1 and Option 2 ---------------------------------------------------


def with_open(*positions: int, turn: int = 1, **changes: object) -> RookieState:
    """Seat `turn` starts with these positions' tops lying open."""
    return make(open=positions, turn=turn, phase="start", **changes)


def test_option_one_turns_the_open_cards_down_for_a_normal_start():
    state = with_open(0, 4)
    assert ENGINE.legal_moves(state, 1)[0] == {"type": "turn_down"}
    state = play(state, {"type": "turn_down"})
    assert state.open == () and state.phase == "flip" and state.turn == 1
    assert ENGINE.view(state, None)["positions"][4]["top"] is None


def test_a_chase_that_matches_nothing_leaves_one_more_open_card():
    state = play(with_open(0, 4), flip(3))
    assert state.open == (0, 4, 3) and state.turn == 2 and state.phase == "start"


def test_a_chase_that_matches_an_open_colour_takes_the_pair_and_chases_again():
    state = play(with_open(0, 4), flip(1), place(1, 0, 0))
    assert state.discards[1] == discards("RR", "", "")
    assert state.open == (4,) and state.phase == "chase" and state.turn == 1
    assert {"type": "turn_down"} not in ENGINE.legal_moves(state, 1)


def test_a_chase_that_clears_every_open_card_goes_on_with_a_normal_start():
    state = play(with_open(0), flip(1), place(1, 0, 1))
    assert state.open == () and state.phase == "flip" and state.turn == 1


def test_a_chase_that_matches_an_x_robs_the_player_to_the_left_and_turns_the_rest_down():
    robbed = (discards("GG", "", "Y"), NO_DISCARDS, discards("B", "", ""))
    state = play(with_open(0, 4, discards=robbed), flip(5))
    assert state.open == () and state.phase == "place" and state.pair == X
    state = play(state, place(1, 0, 1))
    # Seat 0 sits before seat 1: its three cards are taken, seat 2 keeps its own.
    assert state.phase == "arrange" and Counter(state.loot) == Counter(cards("GGY"))
    assert state.discards[0] == NO_DISCARDS and state.discards[2] == discards("B", "", "")
    state = play(state, arrange("green", None, "yellow"))
    assert state.discards[1] == discards("XGG", "X", "Y")
    assert state.phase == "flip" and state.turn == 1


# --- X pairs, stealing and arranging -------------------------------------------------------


def test_an_x_pair_lets_the_player_choose_the_neighbour_before_or_after():
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
    state = make(players=2, discards=(discards("", "", ""), discards("RR", "R", "G")))
    state = play(state, flip(4), flip(5), place(0, 0, 1))
    default = ENGINE.view(state, None)["pending"]["default"]
    assert default == ["red", "red", "red"]
    assert ENGINE.legal_moves(state, 0)[0] == arrange(*default)


# --- securing, Rookie, chaining --------------------------------------------------------------


def test_three_equal_colour_tops_are_secured_onto_the_point_stack():
    state = make(discards=(discards("GR", "R", ""), NO_DISCARDS, NO_DISCARDS))
    placing = ENGINE.view(play(state, flip(0), flip(1)), None)["pending"]["choices"]
    assert {"seat": 0, "stacks": [2, 2], "secures": True, "rookie": False} in placing
    state = play(state, flip(0), flip(1), place(0, 2, 2))
    assert state.points[0] == 5 and state.discards[0] == NO_DISCARDS
    assert ENGINE.view(state, None)["scores"] == [5, 0, 0]


def test_three_x_tops_are_a_rookie_that_takes_every_other_players_cards():
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
    state = make(table=table("", "BR", "", "BG", "BX", "BX", "BY", "BP", "RGB"))
    state = play(state, flip(8))
    assert state.table[0] == cards("B") and state.table[8] == cards("RG")
    view = ENGINE.view(state, None)
    assert view["positions"][0] == {"count": 1, "top": "blue"}
    assert view["last_flip"] == [{"position": 0, "card": "blue", "from": 8}]
    # The miss turns it face down at its new place.
    state = play(state, flip(1))
    assert state.table[1] == cards("B") and state.table[2] == cards("R")
    state_view = ENGINE.view(state, None)
    assert state_view["positions"][0] == {"count": 1, "top": None}
    assert state.turn == 1


def test_a_last_card_is_flipped_where_it_lies_even_beside_an_empty_position():
    state = play(make(table=table("", "R", "BR", *["BG"] * 6)), flip(1))
    assert state.table[0] == () and state.flipped == (1,)


def test_the_last_pair_takes_every_unsecured_card_onto_the_point_stack():
    others = (discards("G", "", ""), discards("XX", "B", ""), discards("Y", "", "P"))
    state = make(table=table("", "", "", "", "RR", "", "", "", ""), discards=others)
    state = play(state, flip(4))
    assert state.table[0] == cards("R")
    state = play(state, flip(4))
    assert state.phase == "over" and ENGINE.current_seats(state) == ()
    assert state.points == (8, 0, 0)
    assert all(seat == NO_DISCARDS for seat in state.discards)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,) and not outcome.draw
    assert ENGINE.view(state, None)["winners"] == [0]


def test_the_last_pair_is_a_win_shared_on_equal_points():
    state = make(players=2, table=table("R", "R", *[""] * 7), points=(0, 2))
    outcome = ENGINE.outcome(play(state, flip(0), flip(1)))
    assert outcome.winners == (0, 1) and outcome.draw


def test_the_view_tells_what_a_rookie_took_from_whom():
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    state = play(make(discards=others), flip(4), flip(5), place(0, 2, 2))
    assert ENGINE.view(state, None)["events"] == [
        {"type": "place", "seat": 0, "owner": 0, "card": "X", "stacks": [2, 2]},
        {"type": "secure", "seat": 0, "card": "X", "count": 4},
        {"type": "rookie", "seat": 0, "taken": [[1, 3], [2, 1]]},
    ]
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


def test_in_the_team_variant_a_pair_may_secure_the_partners_stacks():
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
    robbed = (NO_DISCARDS, discards("G", "", ""), NO_DISCARDS, discards("Y", "", ""))
    state = play(make(4, "team", discards=robbed), flip(4), flip(5), place(2, 0, 1))
    assert [move["from"] for move in ENGINE.legal_moves(state, 0)] == [3, 1]
    state = play(state, {"type": "steal", "from": 1}, arrange("green", None, None))
    assert state.discards[0] == discards("G", "", "") and state.discards[2] == discards("X", "X", "")


def test_a_rookie_on_the_partners_stacks_gives_the_partner_every_other_players_cards():
    hands = (discards("B", "", ""), discards("G", "", ""), discards("X", "X", ""), NO_DISCARDS)
    state = play(make(4, "team", discards=hands), flip(4), flip(5), place(2, 2, 2))
    assert state.points[2] == 4 and state.receiver == 2
    assert ENGINE.current_seats(state) == (0,)
    assert Counter(state.loot) == Counter(cards("BG"))
    state = play(state, arrange("blue", "green", None))
    assert state.discards[2] == discards("B", "G", "")


def test_the_team_outcome_names_both_partners_as_winners():
    state = make(4, "team", table=table("R", "R", *[""] * 7), points=(3, 4, 0, 0))
    outcome = ENGINE.outcome(play(state, flip(0), flip(1)))
    assert outcome.winners == (0, 2) and outcome.teams == ((0, 2), (1, 3))
    assert outcome.details["team_scores"] == [5, 4]


def test_the_team_variant_alternates_turns_between_teams():
    state = play(make(4, "team"), flip(0), flip(2))
    assert state.turn == 1


# --- kids variant ----------------------------------------------------------------------------


def test_in_the_kids_variant_every_pair_goes_straight_to_the_point_stack():
    kids_table = table("BR", "BR", "YB", "BG", "BY", "BG", "BY", "BP", "BG")
    state = play(make(variant="kids", table=kids_table), flip(0), flip(1))
    assert state.points[0] == 2 and state.phase == "flip" and state.turn == 0
    assert all(seat == NO_DISCARDS for seat in state.discards)


# --- resigning -------------------------------------------------------------------------------


def test_a_resigned_seat_is_skipped_in_turn_order():
    state = ENGINE.resign(make(), 1)
    state = play(state, flip(0), flip(2))
    assert state.turn == 2


def test_resigning_mid_turn_settles_the_pair_and_passes_the_turn():
    state = play(make(), flip(0), flip(1))
    resigned = ENGINE.resign(state, 0)
    assert resigned.turn == 1 and resigned.phase == "flip"
    assert sum(map(len, resigned.discards[0])) == 2
    assert total_cards(resigned) == total_cards(state)


def test_the_last_player_standing_wins_and_a_resigned_seat_never_does():
    state = make(points=(30, 0, 2))
    state = ENGINE.resign(ENGINE.resign(state, 0), 1)
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.winners == (2,)
    with pytest.raises(GameError):
        ENGINE.resign(state, 2)


def test_a_team_that_has_left_entirely_ends_the_game():
    state = ENGINE.resign(make(4, "team", points=(9, 0, 9, 1)), 0)
    assert state.phase != "over"
    state = ENGINE.resign(state, 2)
    assert ENGINE.outcome(state).winners == (1, 3)


# --- playouts, dump/load, and what the views reveal ---------------------------------------


def random_playout(players: int, seed: int, options: dict) -> RookieState:
    """Random legal moves to the end, checking the invariants after every one."""
    state = ENGINE.new_game(players, seed, options)
    rng = random.Random(seed)
    deck = total_cards(state)
    for _ in range(20_000):
        if ENGINE.outcome(state) is not None:
            return state
        (seat,) = ENGINE.current_seats(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
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
    state = random_playout(players, players * 31 + len(variant), {"variant": variant, "deck": deck})
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


def reshuffle_hidden(state: RookieState, seed: int) -> RookieState:
    """The same table with every face-down card swapped around, face-up tops kept."""
    up = set(state.open) | set(state.flipped)
    hidden = [card for p, stack in enumerate(state.table) for card in (stack[:-1] if p in up else stack)]
    random.Random(seed).shuffle(hidden)
    stacks = []
    for p, stack in enumerate(state.table):
        keep = 1 if p in up else 0
        size = len(stack) - keep
        stacks.append((*hidden[:size], *stack[len(stack) - keep :]))
        hidden = hidden[size:]
    return replace(state, table=tuple(stacks))


def test_face_down_cards_never_reach_any_view():
    state = with_open(0, 4)
    state = play(state, flip(3))
    other = reshuffle_hidden(state, 5)
    assert other.table != state.table
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


def test_two_deals_show_the_same_view_until_a_card_is_turned_up():
    assert ENGINE.view(ENGINE.new_game(4, 1), None) == ENGINE.view(ENGINE.new_game(4, 2), None)
