"""Sequence Numbers engine: data, every rule on a built position, playouts, leaks."""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import replace

import pytest

from games.base import GameError, IllegalMove, NotYourTurn
from games.sequence_numbers import (
    BOARD,
    CARDS,
    CELLS_OF,
    CORNERS,
    ENGINE,
    SIZE,
    SequenceState,
    locked_cells,
)

PLUS = next(i for i, c in enumerate(CARDS) if c.kind == "plus")
MINUS = next(i for i, c in enumerate(CARDS) if c.kind == "minus")


def at(name: str) -> int:
    """The cell index of `C4`-style names."""
    return (int(name[1:]) - 1) * SIZE + "ABCDEFGHIJ".index(name[0])


def rc(name: str) -> dict[str, int]:
    return dict(zip(("row", "col"), divmod(at(name), SIZE), strict=True))


def card_for(name: str, op: str = "+") -> int:
    """The problem card (with operator `op`) answered by the number on cell `name`."""
    number = BOARD[at(name)]
    return next(i for i, c in enumerate(CARDS) if c.kind == "problem" and c.answer == number and op in c.text)


def make(
    players: int = 2,
    chips: dict[str, int] | None = None,
    hands: list[list[int]] | None = None,
    sequences: dict[int, list[list[str]]] | None = None,
    options: dict | None = None,
    **changes,
) -> SequenceState:
    """A new game changed into a built position; unused cards go to the deck."""
    state = ENGINE.new_game(players, seed=1, options=options)
    board = [None] * (SIZE * SIZE)
    for name, team in (chips or {}).items():
        board[at(name)] = team
    seqs = [()] * state.team_count
    for team, runs in (sequences or {}).items():
        seqs[team] = tuple(tuple(at(n) for n in run) for run in runs)
    hands_t = tuple(tuple(h) for h in hands) if hands is not None else state.hands
    held = {c for h in hands_t for c in h}
    deck = tuple(c for c in range(len(CARDS)) if c not in held)
    state = replace(state, chips=tuple(board), sequences=tuple(seqs), hands=hands_t, deck=deck, turn=0)
    return replace(state, **changes)


def play(state: SequenceState, seat: int, card: int, name: str) -> SequenceState:
    index = state.hands[seat].index(card)
    return ENGINE.apply(state, seat, {"type": "play", "card": index, **rc(name)})


def row_names(row: int, cols: str) -> list[str]:
    return [f"{c}{row}" for c in cols]


# --- fixed data ---------------------------------------------------------------------


def test_board_has_free_corners_and_every_number_from_1_to_48_twice() -> None:
    assert all(BOARD[c] is None for c in CORNERS)
    numbers = [n for n in BOARD if n is not None]
    assert sorted(numbers) == sorted(list(range(1, 49)) * 2)


@pytest.mark.parametrize("number", range(1, 49))
def test_two_cells_of_a_number_share_no_line_and_are_three_apart_both_ways(number: int) -> None:
    first, second = CELLS_OF[number]
    (r1, c1), (r2, c2) = divmod(first, SIZE), divmod(second, SIZE)
    assert abs(r1 - r2) >= 3 and abs(c1 - c2) >= 3
    assert abs(r1 - r2) != abs(c1 - c2)  # no shared diagonal either way


def test_deck_has_96_problems_two_plus_and_two_minus_cards() -> None:
    kinds = [c.kind for c in CARDS]
    assert len(CARDS) == 100
    assert (kinds.count("problem"), kinds.count("plus"), kinds.count("minus")) == (96, 2, 2)


@pytest.mark.parametrize("number", range(1, 49))
def test_each_answer_has_one_addition_and_one_subtraction_with_operands_0_to_60(
    number: int,
) -> None:
    cards = [c for c in CARDS if c.kind == "problem" and c.answer == number]
    assert len(cards) == 2 and cards[0].text != cards[1].text
    ops = set()
    for card in cards:
        left, op, right = re.fullmatch(r"(\d+) ([+-]) (\d+)", card.text).groups()
        a, b = int(left), int(right)
        assert 0 <= a <= 60 and 0 <= b <= 60
        assert (a + b if op == "+" else a - b) == number
        ops.add(op)
    assert ops == {"+", "-"}


# --- players, teams, dealing ----------------------------------------------------------


def test_five_players_are_refused_with_a_clear_message() -> None:
    with pytest.raises(GameError, match="equal size"):
        ENGINE.new_game(5, seed=1)


@pytest.mark.parametrize("players", [1, 7])
def test_seat_counts_outside_two_to_six_are_refused(players: int) -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(players, seed=1)


@pytest.mark.parametrize(
    ("players", "options", "teams", "hand"),
    [
        (2, {}, [[0], [1]], 5),
        (3, {}, [[0], [1], [2]], 5),
        (4, {}, [[0, 2], [1, 3]], 4),
        (6, {}, [[0, 2, 4], [1, 3, 5]], 4),
        (6, {"teams": 3}, [[0, 3], [1, 4], [2, 5]], 4),
    ],
)
def test_teams_alternate_around_the_table_and_hands_have_the_right_size(
    players: int, options: dict, teams: list[list[int]], hand: int
) -> None:
    state = ENGINE.new_game(players, seed=3, options=options)
    view = ENGINE.view(state, None)
    assert view["teams"] == teams
    assert view["hand_sizes"] == [hand] * players
    assert view["deck_size"] == 100 - hand * players


@pytest.mark.parametrize(("players", "teams"), [(6, 4), (4, 3), (6, "two")])
def test_a_team_count_that_does_not_fit_is_refused(players: int, teams: object) -> None:
    with pytest.raises(GameError, match="teams"):
        ENGINE.new_game(players, seed=1, options={"teams": teams})


def test_turns_go_round_the_seats_so_teams_alternate() -> None:
    state = ENGINE.new_game(6, seed=5, options={"teams": 3})
    order = []
    for _ in range(6):
        seat = ENGINE.current_seats(state)[0]
        order.append(seat)
        move = next(m for m in ENGINE.legal_moves(state, seat) if m["type"] == "play")
        state = ENGINE.apply(state, seat, move)
    assert order == [0, 1, 2, 3, 4, 5]


# --- placing chips and sequences --------------------------------------------------------


def test_a_problem_card_places_a_chip_only_on_an_empty_cell_showing_its_answer() -> None:
    card = card_for("E5")
    other = next(x for x in CELLS_OF[BOARD[at("E5")]] if x != at("E5"))
    state = make(hands=[[card, PLUS], [MINUS]], chips={})
    moves = ENGINE.legal_moves(state, 0)
    targets = {(m["row"], m["col"]) for m in moves if m["card"] == 0}
    assert targets == {divmod(at("E5"), SIZE), divmod(other, SIZE)}
    wrong = next(_name(x) for x in range(100) if BOARD[x] not in (None, BOARD[at("E5")]))
    with pytest.raises(IllegalMove, match="shows"):
        play(state, 0, card, wrong)
    after = play(state, 0, card, "E5")
    assert after.chips[at("E5")] == 0 and len(after.hands[0]) == 2


def test_a_taken_cell_is_refused() -> None:
    card = card_for("E5")
    state = make(hands=[[card], [MINUS]], chips={"E5": 1})
    with pytest.raises(IllegalMove, match="taken"):
        play(state, 0, card, "E5")


def test_five_in_a_row_is_a_sequence_whose_chips_lock() -> None:
    cells = row_names(2, "BCDEF")
    state = make(4, chips=dict.fromkeys(cells[:4], 0), hands=[[card_for("F2")], [], [], []])
    after = play(state, 0, card_for("F2"), "F2")
    view = ENGINE.view(after, None)
    assert view["sequences"] == [1, 0]
    assert all(view["board"][1][c]["locked"] for c in range(1, 6))
    assert not view["board"][1][6]["locked"]
    assert ENGINE.outcome(after) is None  # four players need two sequences


def test_with_two_players_one_sequence_wins() -> None:
    cells = row_names(2, "BCDEF")
    state = make(2, chips=dict.fromkeys(cells[:4], 1), hands=[[MINUS], [card_for("F2")]], turn=1)
    outcome = ENGINE.outcome(play(state, 1, card_for("F2"), "F2"))
    assert outcome.winners == (1,) and not outcome.draw and outcome.scores == (0, 1)


def test_a_free_corner_counts_as_a_chip_of_every_colour() -> None:
    chips = dict.fromkeys(row_names(1, "BCD"), 0) | dict.fromkeys(row_names(10, "BCD"), 1)
    state = make(4, chips=chips, hands=[[card_for("E1")], [card_for("E10")], [], []])
    state = play(state, 0, card_for("E1"), "E1")
    state = play(state, 1, card_for("E10"), "E10")
    assert ENGINE.view(state, None)["sequences"] == [1, 1]
    assert state.sequences[0][0][0] == at("A1")


def test_a_plus_card_goes_on_any_empty_cell_but_never_on_a_free_corner() -> None:
    state = make(hands=[[PLUS], [MINUS]], chips={"C3": 1})
    cells = {m["row"] * SIZE + m["col"] for m in ENGINE.legal_moves(state, 0)}
    assert cells == set(range(100)) - CORNERS - {at("C3")}
    with pytest.raises(IllegalMove, match="free corner"):
        play(state, 0, PLUS, "J10")


def test_two_sequences_may_share_one_chip_and_that_wins_with_four_players() -> None:
    first = row_names(2, "BCDEF")
    column = ["F3", "F4", "F5"]
    state = make(
        4,
        chips=dict.fromkeys(first + column, 0),
        sequences={0: [first]},
        hands=[[card_for("F6")], [], [], []],
    )
    after = play(state, 0, card_for("F6"), "F6")
    assert ENGINE.outcome(after).winners == (0, 2)
    assert set(after.sequences[0][0]) & set(after.sequences[0][1]) == {at("F2")}


def test_a_line_of_six_is_only_one_sequence_as_sequences_share_at_most_one_chip() -> None:
    first = row_names(2, "BCDEF")
    state = make(
        4,
        chips=dict.fromkeys(first, 0),
        sequences={0: [first]},
        hands=[[card_for("G2")], [], [], []],
    )
    after = play(state, 0, card_for("G2"), "G2")
    assert len(after.sequences[0]) == 1 and ENGINE.outcome(after) is None


def test_a_line_of_nine_built_onto_a_sequence_counts_as_two() -> None:
    first = row_names(5, "ABCDE")
    state = make(
        4,
        chips=dict.fromkeys([*first, "F5", "G5", "H5"], 0),
        sequences={0: [first]},
        hands=[[card_for("I5")], [], [], []],
    )
    after = play(state, 0, card_for("I5"), "I5")
    assert ENGINE.outcome(after).winners == (0, 2)


def test_filling_the_middle_of_a_line_of_nine_makes_two_sequences_in_one_move() -> None:
    chips = dict.fromkeys(row_names(5, "ABCDFGHI"), 1)
    state = make(4, chips=chips, hands=[[], [card_for("E5")], [], []], turn=1)
    after = play(state, 1, card_for("E5"), "E5")
    assert len(after.sequences[1]) == 2 and ENGINE.outcome(after).winners == (1, 3)


def test_a_row_and_a_column_through_one_chip_are_two_sequences_in_one_move() -> None:
    chips = dict.fromkeys(["B5", "C5", "D5", "E5", "F1", "F2", "F3", "F4"], 0)
    state = make(4, chips=chips, hands=[[card_for("F5")], [], [], []])
    after = play(state, 0, card_for("F5"), "F5")
    assert len(after.sequences[0]) == 2 and ENGINE.outcome(after).winners == (0, 2)


# --- minus cards --------------------------------------------------------------------


def test_a_minus_card_removes_an_opponent_chip_that_is_not_locked() -> None:
    state = make(chips={"C3": 1, "D4": 0}, hands=[[MINUS], [PLUS]])
    moves = ENGINE.legal_moves(state, 0)
    assert [(m["row"], m["col"]) for m in moves] == [divmod(at("C3"), SIZE)]
    after = play(state, 0, MINUS, "C3")
    assert after.chips[at("C3")] is None
    assert ENGINE.view(after, None)["last_move"]["type"] == "remove"


def test_a_minus_card_cannot_remove_a_chip_of_a_completed_sequence() -> None:
    run = row_names(3, "BCDEF")
    state = make(4, chips=dict.fromkeys(run, 1), sequences={1: [run]}, hands=[[MINUS], [], [], []])
    assert at("B3") in locked_cells(state)
    assert ENGINE.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="sequence"):
        play(state, 0, MINUS, "B3")


def test_a_minus_card_cannot_remove_your_own_teams_chip() -> None:
    state = make(4, chips={"C3": 0, "D3": 1}, hands=[[MINUS], [], [], []])
    with pytest.raises(IllegalMove, match="no opponent chip"):
        play(state, 0, MINUS, "C3")


# --- dead cards, drawing, skipping, the draw ----------------------------------------------


def test_a_dead_card_can_be_traded_once_per_turn_and_then_a_card_is_played() -> None:
    dead = [card_for("E5"), card_for("E6")]
    chips = {cell: 1 for n in ("E5", "E6") for cell in map(_name, CELLS_OF[BOARD[at(n)]])}
    state = make(chips=chips, hands=[[*dead, PLUS], [MINUS]])
    trades = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "trade"]
    assert trades == [{"type": "trade", "card": 0}, {"type": "trade", "card": 1}]
    after = ENGINE.apply(state, 0, trades[0])
    assert after.discards[0] == (dead[0],) and len(after.hands[0]) == 3
    assert after.turn == 0 and after.traded
    assert all(m["type"] == "play" for m in ENGINE.legal_moves(after, 0))
    with pytest.raises(IllegalMove, match="already traded"):
        ENGINE.apply(after, 0, {"type": "trade", "card": 0})


def test_a_live_card_cannot_be_traded() -> None:
    state = make(hands=[[card_for("E5")], [MINUS]])
    with pytest.raises(IllegalMove, match="dead card"):
        ENGINE.apply(state, 0, {"type": "trade", "card": 0})


def test_a_trade_that_leaves_no_playable_card_ends_the_turn() -> None:
    numbers = ("E5", "E6")
    # Own chips: the minus card has no target, so nothing is playable after the trade.
    chips = {cell: 0 for n in numbers for cell in map(_name, CELLS_OF[BOARD[at(n)]])}
    hands = [[card_for("E5"), MINUS], [PLUS]]
    state = make(chips=chips, hands=hands)
    state = replace(state, deck=(card_for("E6"), *state.deck))  # the new card is dead too
    after = ENGINE.apply(state, 0, {"type": "trade", "card": 0})
    assert ENGINE.current_seats(after) == (1,) and not after.traded


def test_an_empty_deck_is_rebuilt_from_every_discard_pile_and_the_card_just_played() -> None:
    card = card_for("E5")
    rest = [c for c in range(100) if c not in (card, MINUS)]
    state = make(hands=[[card], [MINUS]], deck=(), discards=(tuple(rest[:50]), tuple(rest[50:])))
    after = play(state, 0, card, "E5")
    assert after.discards == ((), ())
    assert after.step == state.step + 1
    assert sorted(after.deck + after.hands[0]) == sorted([*rest, card])
    assert len(after.hands[0]) == 1


def test_a_seat_with_no_playable_and_no_dead_card_is_skipped() -> None:
    state = make(3, chips={"C3": 2}, hands=[[MINUS], [MINUS + 1], [card_for("E5")]])
    after = play(state, 0, MINUS, "C3")  # now seat 1's minus has nothing to remove
    assert ENGINE.current_seats(after) == (2,)
    assert ENGINE.view(after, None)["skipped"] == [1]


def test_when_every_seat_is_skipped_for_a_whole_round_the_game_is_a_draw() -> None:
    state = make(2, chips={"C3": 1}, hands=[[MINUS], [MINUS + 1]], deck=(), discards=((), ()))
    after = play(state, 0, MINUS, "C3")
    # Seat 1 has nothing to remove; seat 0 draws its minus back and has nothing either.
    outcome = ENGINE.outcome(after)
    assert outcome.draw and outcome.winners == ()
    assert ENGINE.current_seats(after) == ()
    assert ENGINE.view(after, None)["skipped"] == [1, 0]


# --- errors, resigning --------------------------------------------------------------------


def test_moving_out_of_turn_is_refused() -> None:
    state = ENGINE.new_game(2, seed=1)
    move = ENGINE.legal_moves(state, 0)[0]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 1, move)


@pytest.mark.parametrize(
    "move",
    [
        {},
        {"type": "dance"},
        {"type": "play", "card": 9, "row": 0, "col": 1},
        {"type": "play", "card": 0},
    ],
)
def test_malformed_moves_are_refused_with_a_sentence(move: dict) -> None:
    with pytest.raises(IllegalMove, match=r"\w+ .*"):
        ENGINE.apply(ENGINE.new_game(2, seed=1), 0, move)


def test_a_resigned_seats_turns_are_skipped() -> None:
    state = ENGINE.resign(ENGINE.new_game(4, seed=2), 1)
    move = next(m for m in ENGINE.legal_moves(state, 0) if m["type"] == "play")
    assert ENGINE.current_seats(ENGINE.apply(state, 0, move)) == (2,)


def test_a_resigned_seats_partner_can_still_win_for_the_team() -> None:
    run = row_names(2, "BCDEF")
    state = make(
        4,
        chips=dict.fromkeys([*run, "F3", "F4", "F5"], 0),
        sequences={0: [run]},
        hands=[[PLUS], [PLUS + 1], [card_for("F6")], [MINUS]],
        turn=2,
    )
    state = ENGINE.resign(state, 0)
    assert ENGINE.outcome(state) is None
    assert ENGINE.outcome(play(state, 2, card_for("F6"), "F6")).winners == (0, 2)


def test_when_one_team_is_left_after_resigning_it_wins() -> None:
    state = ENGINE.new_game(4, seed=2)
    state = ENGINE.resign(state, 1)
    assert ENGINE.outcome(state) is None
    state = ENGINE.resign(state, 3)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0, 2) and outcome.details["reason"] == "resignation"


def test_resigning_on_your_turn_passes_the_turn_on() -> None:
    state = ENGINE.new_game(3, seed=2)
    state = ENGINE.resign(state, 0)
    assert ENGINE.current_seats(state) == (1,)
    with pytest.raises(GameError):
        ENGINE.resign(state, 0)


# --- playouts, serialisation, leaks -------------------------------------------------------


def check_invariants(state: SequenceState) -> None:
    held = [c for pile in (*state.hands, state.deck, *state.discards) for c in pile]
    assert sorted(held) == list(range(100))
    assert all(state.chips[c] is None for c in CORNERS)
    for team, runs in enumerate(state.sequences):
        for run in runs:
            assert all(c in CORNERS or state.chips[c] == team for c in run)
            steps = {b - a for a, b in itertools.pairwise(run)}
            assert len(steps) == 1 and steps <= {1, 9, 10, 11}
        for i, a in enumerate(runs):
            assert all(len(set(a) & set(b)) <= 1 for b in runs[i + 1 :])
    if ENGINE.current_seats(state):
        assert ENGINE.legal_moves(state, state.turn)


def playout(players: int, seed: int, options: dict | None = None) -> list[SequenceState]:
    state, rng, states = ENGINE.new_game(players, seed, options), random.Random(seed), []
    for _ in range(5000):
        states.append(state)
        seats = ENGINE.current_seats(state)
        if not seats:
            return states
        # Chips beat removals so random games finish quickly.
        moves = ENGINE.legal_moves(state, seats[0])
        placing = [m for m in moves if m["type"] == "play" and not _is_minus(state, seats[0], m)]
        state = ENGINE.apply(state, seats[0], rng.choice(placing or moves))
    raise AssertionError("the game did not end")


def _is_minus(state: SequenceState, seat: int, move: dict) -> bool:
    return CARDS[state.hands[seat][move["card"]]].kind == "minus"


def _name(cell: int) -> str:
    return f"{'ABCDEFGHIJ'[cell % SIZE]}{cell // SIZE + 1}"


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (4, {}), (6, {}), (6, {"teams": 3})])
def test_random_games_end_with_a_winner_and_keep_every_invariant(players: int, options: dict) -> None:
    for seed in range(4):
        states = playout(players, seed, options)
        for state in states[::7] + states[-1:]:
            check_invariants(state)
        outcome = ENGINE.outcome(states[-1])
        assert outcome is not None and (outcome.winners or outcome.draw)
        final = ENGINE.view(states[-1], None)
        if outcome.winners:
            team = final["winning_team"]
            assert final["sequences"][team] >= final["sequences_to_win"]


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    assert playout(4, 11) == playout(4, 11)


def test_dump_and_load_round_trip_exactly_through_a_whole_game() -> None:
    for state in playout(3, 5)[::5]:
        text = ENGINE.dump(state)
        assert ENGINE.load(text) == state and ENGINE.dump(ENGINE.load(text)) == text
        json.loads(text)


def test_every_legal_move_is_accepted_and_nothing_else_is() -> None:
    state = playout(2, 3)[20]
    seat = ENGINE.current_seats(state)[0]
    legal = ENGINE.legal_moves(state, seat)
    for move in legal:
        ENGINE.apply(state, seat, move)
    for index in range(len(state.hands[seat])):
        for cell in range(100):
            move = {"type": "play", "card": index, "row": cell // SIZE, "col": cell % SIZE}
            if move not in legal:
                with pytest.raises(IllegalMove):
                    ENGINE.apply(state, seat, move)


def hidden_twin(state: SequenceState) -> SequenceState:
    """The same public position with other cards in the hands and the deck reordered."""
    pool = [c for h in state.hands for c in h] + list(state.deck)
    random.Random(99).shuffle(pool)
    hands, rest = [], pool
    for hand in state.hands:
        hands.append(tuple(rest[: len(hand)]))
        rest = rest[len(hand) :]
    return replace(state, hands=tuple(hands), deck=tuple(rest))


def test_states_differing_only_in_hidden_cards_give_equal_spectator_views() -> None:
    for state in playout(4, 7)[::10]:
        twin = hidden_twin(state)
        assert twin.hands != state.hands
        assert ENGINE.view(twin, None) == ENGINE.view(state, None)


def test_a_seats_view_holds_its_own_cards_and_never_another_seats() -> None:
    state = ENGINE.new_game(4, seed=8)
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert view["hand"] == [CARDS[c].public() for c in state.hands[seat]]
        text = json.dumps(view)
        hidden = [c for s in range(4) if s != seat for c in state.hands[s]] + list(state.deck)
        for card in hidden:
            if CARDS[card].kind == "problem" and card not in state.hands[seat]:
                assert f'"{CARDS[card].text}"' not in text
    assert ENGINE.view(state, None)["hand"] == []
