"""Sequence Numbers engine: data, every rule on a built position, the examples of
rules/sequence_numbers.md (tests named `test_example_...`), the mover's lock choice,
the fair start, the time-out move, playouts, saves and leaks."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from dataclasses import replace

import pytest

from games.base import GameError, IllegalMove, NotYourTurn, Outcome, first_seat
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
SETUPS = [(2, {}), (3, {}), (4, {}), (6, {}), (6, {"teams": 3})]


def at(name: str) -> int:
    """The cell index of `C4`-style names."""
    return (int(name[1:]) - 1) * SIZE + "ABCDEFGHIJ".index(name[0])


def _name(cell: int) -> str:
    return f"{'ABCDEFGHIJ'[cell % SIZE]}{cell // SIZE + 1}"


def rc(name: str) -> dict[str, int]:
    return dict(zip(("row", "col"), divmod(at(name), SIZE), strict=True))


def number_on(name: str) -> int:
    """The number printed on cell `name` (never a free corner here)."""
    number = BOARD[at(name)]
    assert number is not None
    return number


def twins(name: str) -> tuple[int, ...]:
    """The two cells showing the number on cell `name`."""
    return CELLS_OF[number_on(name)]


def result(state: SequenceState) -> Outcome:
    """The outcome of a game that must be over."""
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return outcome


def card_for(name: str, op: str = "+") -> int:
    """The problem card (with operator `op`) answered by the number on cell `name`."""
    number = number_on(name)
    return next(i for i, c in enumerate(CARDS) if c.kind == "problem" and c.answer == number and op in c.text)


def make(
    players: int = 2,
    chips: dict[str, int] | None = None,
    hands: list[list[int]] | None = None,
    sequences: dict[int, list[list[str]]] | None = None,
    options: dict | None = None,
    **changes,
) -> SequenceState:
    """A new game changed into a built position, seat 0 to move; unused cards go to the deck."""
    state = ENGINE.new_game(players, seed=1, options=options)
    board: list[int | None] = [None] * (SIZE * SIZE)
    for name, team in (chips or {}).items():
        board[at(name)] = team
    seqs: list[tuple[tuple[int, ...], ...]] = [()] * state.team_count
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


def lock(state: SequenceState, seat: int, first: str, last: str) -> SequenceState:
    return ENGINE.apply(state, seat, {"type": "lock", "from": first, "to": last})


def row_names(row: int, cols: str) -> list[str]:
    return [f"{c}{row}" for c in cols]


def runs_of(state: SequenceState, team: int) -> list[list[str]]:
    return [[_name(x) for x in run] for run in state.sequences[team]]


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
        problem = re.fullmatch(r"(\d+) ([+-]) (\d+)", card.text)
        assert problem is not None
        left, op, right = problem.groups()
        a, b = int(left), int(right)
        assert 0 <= a <= 60 and 0 <= b <= 60
        assert (a + b if op == "+" else a - b) == number
        ops.add(op)
    assert ops == {"+", "-"}


# --- players, teams, dealing ----------------------------------------------------------


def test_example_five_players_cannot_split_evenly_and_are_refused_with_a_clear_message() -> None:
    """Rules: "(5 players cannot split evenly: refuse with a clear message.)\""""
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
def test_example_four_play_two_teams_of_two_six_two_of_three_or_three_of_two_sitting_alternately(
    players: int, options: dict, teams: list[list[int]], hand: int
) -> None:
    """Rules: "4 → two teams of 2; 6 → two teams of 3 or three teams of 2 ... Team members
    sit alternately"; "Hand size: 5 cards with 2–3 players, 4 with 4–6.\""""
    state = ENGINE.new_game(players, seed=3, options=options)
    view = ENGINE.view(state, None)
    assert view["teams"] == teams
    assert view["hand_sizes"] == [hand] * players
    assert view["deck_size"] == 100 - hand * players


@pytest.mark.parametrize(("players", "teams"), [(6, 4), (4, 3), (6, "two")])
def test_a_team_count_that_does_not_fit_is_refused(players: int, teams: object) -> None:
    with pytest.raises(GameError, match="teams"):
        ENGINE.new_game(players, seed=1, options={"teams": teams})


def test_turns_go_round_the_seats_from_the_seat_drawn_so_teams_alternate() -> None:
    state = ENGINE.new_game(6, seed=5, options={"teams": 3})
    start = first_seat(5, 6)
    order = []
    for _ in range(6):
        seat = ENGINE.current_seats(state)[0]
        order.append(seat)
        move = next(m for m in ENGINE.legal_moves(state, seat) if m["type"] == "play")
        state = ENGINE.apply(state, seat, move)
    assert order == [(start + k) % 6 for k in range(6)]


# --- the fair start ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_the_seat_drawn_by_lot_starts_and_the_start_event_names_it(players: int, options: dict) -> None:
    for seed in range(40):
        state = ENGINE.new_game(players, seed, options)
        drawn = first_seat(seed, players)
        assert ENGINE.current_seats(state) == (drawn,)
        for seat in (None, *range(players)):
            assert ENGINE.view(state, seat)["last_event"] == {"type": "start", "seat": drawn}


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_over_thousands_of_seeds_every_seat_starts_about_equally_often(players: int, options: dict) -> None:
    """Rules: "The player who starts is drawn by lot ... the host must not always start.\""""
    trials = 6000
    starts = Counter(ENGINE.current_seats(ENGINE.new_game(players, s, options))[0] for s in range(trials))
    expected = trials / players
    spread = 5 * (trials * (1 / players) * (1 - 1 / players)) ** 0.5
    assert sorted(starts) == list(range(players))
    assert all(abs(starts[seat] - expected) <= spread for seat in range(players)), starts


def test_seats_and_teams_stay_as_seated_whoever_starts() -> None:
    seeds = {first_seat(seed, 4): seed for seed in range(50)}
    assert sorted(seeds) == [0, 1, 2, 3]
    for start, seed in seeds.items():
        state = ENGINE.new_game(4, seed)
        assert ENGINE.view(state, None)["teams"] == [[0, 2], [1, 3]]
        move = next(m for m in ENGINE.legal_moves(state, start) if m["type"] == "play")
        assert ENGINE.current_seats(ENGINE.apply(state, start, move)) == ((start + 1) % 4,)


# --- placing chips and sequences --------------------------------------------------------


def test_a_problem_card_places_a_chip_only_on_an_empty_cell_showing_its_answer() -> None:
    card = card_for("E5")
    other = next(x for x in twins("E5") if x != at("E5"))
    state = make(hands=[[card, PLUS], [MINUS]], chips={})
    moves = ENGINE.legal_moves(state, 0)
    targets = {(m["row"], m["col"]) for m in moves if m["card"] == 0}
    assert targets == {divmod(at("E5"), SIZE), divmod(other, SIZE)}
    wrong = next(_name(x) for x in range(100) if BOARD[x] not in (None, number_on("E5")))
    with pytest.raises(IllegalMove, match=r"shows \d+ — try [A-J]\d+ or [A-J]\d+"):
        play(state, 0, card, wrong)
    after = play(state, 0, card, "E5")
    assert after.chips[at("E5")] == 0 and len(after.hands[0]) == 2


def test_a_taken_cell_is_refused_by_its_name() -> None:
    card = card_for("E5")
    state = make(hands=[[card], [MINUS]], chips={"E5": 1})
    with pytest.raises(IllegalMove, match="E5 is taken"):
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


def test_example_with_two_players_one_sequence_wins() -> None:
    """Rules: "with 2–3 players, the first player/team with 1 sequence wins.\""""
    cells = row_names(2, "BCDEF")
    state = make(2, chips=dict.fromkeys(cells[:4], 1), hands=[[MINUS], [card_for("F2")]], turn=1)
    outcome = result(play(state, 1, card_for("F2"), "F2"))
    assert outcome.winners == (1,) and not outcome.draw and outcome.scores == (0, 1)


def test_example_a_free_corner_counts_as_a_chip_of_every_colour() -> None:
    """Rules: "the four corners are free spaces that count as a chip of every colour.\""""
    chips = dict.fromkeys(row_names(1, "BCD"), 0) | dict.fromkeys(row_names(10, "BCD"), 1)
    state = make(4, chips=chips, hands=[[card_for("E1")], [card_for("E10")], [], []])
    state = play(state, 0, card_for("E1"), "E1")
    state = play(state, 1, card_for("E10"), "E10")
    assert ENGINE.view(state, None)["sequences"] == [1, 1]
    assert state.sequences[0][0][0] == at("A1")


def test_example_several_players_may_use_the_same_corner() -> None:
    """Rules: "Several players may use the same corner.\""""
    chips = dict.fromkeys(row_names(1, "BCD"), 0) | dict.fromkeys(["A2", "A3", "A4"], 1)
    state = make(4, chips=chips, hands=[[card_for("E1")], [card_for("A5")], [], []])
    state = play(state, 0, card_for("E1"), "E1")
    state = play(state, 1, card_for("A5"), "A5")
    assert runs_of(state, 0) == [["A1", "B1", "C1", "D1", "E1"]]
    assert runs_of(state, 1) == [["A1", "A2", "A3", "A4", "A5"]]


def test_a_plus_card_goes_on_any_empty_cell_but_never_on_a_free_corner() -> None:
    state = make(hands=[[PLUS], [MINUS]], chips={"C3": 1})
    cells = {m["row"] * SIZE + m["col"] for m in ENGINE.legal_moves(state, 0)}
    assert cells == set(range(100)) - CORNERS - {at("C3")}
    with pytest.raises(IllegalMove, match="J10 is a free corner"):
        play(state, 0, PLUS, "J10")


def test_example_two_sequences_may_share_one_chip_and_that_wins_with_four_players() -> None:
    """Rules: "with 4–6 players, the first team with 2 sequences. Two sequences of one team
    may share at most one chip.\""""
    first = row_names(2, "BCDEF")
    column = ["F3", "F4", "F5"]
    state = make(
        4,
        chips=dict.fromkeys(first + column, 0),
        sequences={0: [first]},
        hands=[[card_for("F6")], [], [], []],
    )
    after = play(state, 0, card_for("F6"), "F6")
    assert result(after).winners == (0, 2)
    assert set(after.sequences[0][0]) & set(after.sequences[0][1]) == {at("F2")}


def test_example_a_line_of_six_is_only_one_sequence_as_sequences_share_at_most_one_chip() -> None:
    """Rules: "Two sequences of one team may share at most one chip, pairwise.\""""
    first = row_names(2, "BCDEF")
    state = make(
        4,
        chips=dict.fromkeys(first, 0),
        sequences={0: [first]},
        hands=[[card_for("G2")], [], [], []],
    )
    after = play(state, 0, card_for("G2"), "G2")
    assert len(after.sequences[0]) == 1 and ENGINE.outcome(after) is None
    assert ENGINE.view(after, None)["lock_choices"] == []


def test_example_a_line_of_nine_counts_as_two_when_its_two_ends_lock() -> None:
    """Rules: "(so a line of nine can count as two, when its two ends lock)"."""
    first = row_names(5, "ABCDE")
    state = make(
        4,
        chips=dict.fromkeys([*first, "F5", "G5", "H5"], 0),
        sequences={0: [first]},
        hands=[[card_for("I5")], [], [], []],
    )
    after = play(state, 0, card_for("I5"), "I5")
    assert runs_of(after, 0) == [first, row_names(5, "EFGHI")]
    assert result(after).winners == (0, 2)


def test_example_one_move_can_complete_two_sequences_in_the_middle_of_a_line_of_nine() -> None:
    """Rules: "One move can complete two sequences." (here: both ends of a line of nine)."""
    chips = dict.fromkeys(row_names(5, "ABCDFGHI"), 1)
    state = make(4, chips=chips, hands=[[], [card_for("E5")], [], []], turn=1)
    after = play(state, 1, card_for("E5"), "E5")
    assert runs_of(after, 1) == [row_names(5, "ABCDE"), row_names(5, "EFGHI")]
    assert result(after).winners == (1, 3)
    assert not after.choices  # the move wins: no choice to make


def test_example_one_move_can_complete_a_row_and_a_column_through_one_chip() -> None:
    """Rules: "One move can complete two sequences." (here: in two directions)."""
    chips = dict.fromkeys(["B5", "C5", "D5", "E5", "F1", "F2", "F3", "F4"], 0)
    state = make(4, chips=chips, hands=[[card_for("F5")], [], [], []])
    after = play(state, 0, card_for("F5"), "F5")
    assert len(after.sequences[0]) == 2 and result(after).winners == (0, 2)


# --- the mover chooses which five lock -------------------------------------------------------

# Team 0 (seats 0 and 2) holds A3, B3, D3, E3 and F3; C3 (30) fills the gap.
SIX = dict.fromkeys(["A3", "B3", "D3", "E3", "F3"], 0)


def six_in_a_row() -> SequenceState:
    """The example position right after seat 0 played C3: the choice is open."""
    hands = [[card_for("C3"), PLUS, MINUS, card_for("G3")], [PLUS + 1], [card_for("J6")], [MINUS + 1]]
    return play(make(4, chips=SIX, hands=hands), 0, card_for("C3"), "C3")


def test_example_locking_a3_e3_of_a_six_keeps_e3_i3_possible_as_the_second_sequence() -> None:
    """The lock-choice example: chips on A3, B3, D3, E3, F3; C3 is played; locking A3–E3
    lets G3, H3, I3 later make E3–I3, the second sequence and the win."""
    state = six_in_a_row()
    assert ENGINE.legal_moves(state, 0) == [
        {"type": "lock", "from": "A3", "to": "E3"},
        {"type": "lock", "from": "B3", "to": "F3"},
    ]
    assert ENGINE.view(state, None)["lock_choices"] == [row_names(3, "ABCDE"), row_names(3, "BCDEF")]
    state = lock(state, 0, "A3", "E3")
    assert runs_of(state, 0) == [row_names(3, "ABCDE")]
    later = make(
        4,
        chips={**SIX, "C3": 0, "G3": 0, "H3": 0},
        sequences={0: [row_names(3, "ABCDE")]},
        hands=[[], [], [card_for("I3")], []],
        turn=2,
    )
    after = play(later, 2, card_for("I3"), "I3")
    assert runs_of(after, 0)[1] == row_names(3, "EFGHI")
    assert result(after).winners == (0, 2)


def test_example_locking_b3_f3_of_that_six_leaves_no_second_sequence_in_the_row() -> None:
    """The same example the other way: what the engine always did before the choice."""
    state = lock(six_in_a_row(), 0, "B3", "F3")
    assert runs_of(state, 0) == [row_names(3, "BCDEF")]
    later = make(
        4,
        chips={**SIX, "C3": 0, "G3": 0, "H3": 0},
        sequences={0: [row_names(3, "BCDEF")]},
        hands=[[], [], [card_for("I3")], []],
        turn=2,
    )
    after = play(later, 2, card_for("I3"), "I3")
    assert len(after.sequences[0]) == 1 and ENGINE.outcome(after) is None


def test_the_lock_choice_is_a_follow_up_decision_of_the_same_turn_before_the_draw() -> None:
    state = six_in_a_row()
    assert ENGINE.current_seats(state) == (0,)
    assert len(state.hands[0]) == 3 and state.sequences[0] == ()  # no draw, no lock yet
    event = ENGINE.view(state, None)["last_event"]
    assert event["type"] == "place" and event["cell"] == "C3" and event["locked"] == []
    after = lock(state, 0, "A3", "E3")
    assert len(after.hands[0]) == 4 and ENGINE.current_seats(after) == (1,)
    assert after.deck == state.deck[1:]
    assert ENGINE.view(after, None)["lock_choices"] == []
    event = ENGINE.view(after, None)["last_event"]
    assert event["type"] == "lock" and event["cell"] == "C3" and event["locked"] == [row_names(3, "ABCDE")]


def test_only_a_chip_whose_lock_choice_is_still_open_can_be_taken_back() -> None:
    """Every turn ends with a draw, which shows the mover a card; a chip that leaves the lock
    choice open has drawn nothing yet."""
    before = make(4, chips=SIX, hands=[[card_for("C3"), PLUS, MINUS, card_for("G3")], [PLUS + 1], [], []])
    assert not reveals(before, 0, {"type": "play", "card": 0, "row": 2, "col": 2})
    assert reveals(six_in_a_row(), 0, {"type": "lock", "from": "A3", "to": "E3"})
    assert reveals(before, 0, {"type": "play", "card": 3, "row": 2, "col": 6})


def reveals(state, seat, move) -> bool:
    """Whether `move` shows a seat something hidden, the move applied as the bot applies it."""
    return ENGINE.reveals(state, seat, move, ENGINE.apply(state, seat, move))


def test_during_a_lock_choice_only_a_lock_by_the_mover_is_accepted() -> None:
    state = six_in_a_row()
    for seat in (1, 2, 3):
        assert ENGINE.legal_moves(state, seat) == []
        with pytest.raises(NotYourTurn):
            lock(state, seat, "A3", "E3")
    with pytest.raises(IllegalMove, match="which five chips to lock: A3–E3 or B3–F3"):
        ENGINE.apply(state, 0, {"type": "play", "card": 0, **rc("J5")})
    with pytest.raises(IllegalMove, match="A3–E3 or B3–F3"):
        lock(state, 0, "C3", "G3")


def test_a_lock_move_without_a_choice_to_make_is_refused() -> None:
    state = make(hands=[[PLUS], [MINUS]])
    with pytest.raises(IllegalMove, match="nothing to lock"):
        lock(state, 0, "A3", "E3")


def test_a_line_of_seven_offers_the_three_sets_of_five_through_the_new_chip() -> None:
    chips = dict.fromkeys(["A3", "B3", "C3", "E3", "F3", "G3"], 0)
    state = make(4, chips=chips, hands=[[card_for("D3")], [], [], []])
    state = play(state, 0, card_for("D3"), "D3")
    assert [(m["from"], m["to"]) for m in ENGINE.legal_moves(state, 0)] == [
        ("A3", "E3"),
        ("B3", "F3"),
        ("C3", "G3"),
    ]


def test_a_line_of_nine_made_by_one_chip_locks_both_ends_and_wins_without_a_choice() -> None:
    chips = dict.fromkeys(row_names(7, "BCDEGHIJ"), 0)
    state = make(4, chips=chips, hands=[[card_for("F7")], [], [], []])
    after = play(state, 0, card_for("F7"), "F7")
    assert not after.choices
    assert runs_of(after, 0) == [row_names(7, "BCDEF"), row_names(7, "FGHIJ")]
    assert result(after).winners == (0, 2)


def test_example_where_the_move_wins_the_game_the_choice_is_moot() -> None:
    """Rules: "Where the move wins the game the choice is moot." Two players need one
    sequence; four players with one sequence already need one more."""
    two = make(2, chips=SIX, hands=[[card_for("C3")], [MINUS]])
    after = play(two, 0, card_for("C3"), "C3")
    assert result(after).winners == (0,) and not after.choices
    assert ENGINE.view(after, None)["lock_choices"] == []
    four = make(
        4,
        chips={**SIX, **dict.fromkeys(row_names(8, "ABCDE"), 0)},
        sequences={0: [row_names(8, "ABCDE")]},
        hands=[[card_for("C3")], [], [], []],
    )
    after = play(four, 0, card_for("C3"), "C3")
    assert result(after).winners == (0, 2) and len(after.sequences[0]) == 2


def test_one_chip_making_a_row_of_six_and_a_column_wins_without_a_choice() -> None:
    chips = {**SIX, **dict.fromkeys(["C4", "C5", "C6", "C7"], 0)}
    state = make(4, chips=chips, hands=[[card_for("C3")], [], [], []])
    after = play(state, 0, card_for("C3"), "C3")
    assert not after.choices and result(after).winners == (0, 2)
    assert row_names(3, "ABCDE") in runs_of(after, 0) or row_names(3, "BCDEF") in runs_of(after, 0)
    assert ["C3", "C4", "C5", "C6", "C7"] in runs_of(after, 0)


def test_a_single_way_to_lock_is_taken_automatically() -> None:
    hands = [[card_for("C3")], [PLUS], [], []]
    state = make(4, chips=dict.fromkeys(["A3", "B3", "D3", "E3"], 0), hands=hands)
    after = play(state, 0, card_for("C3"), "C3")
    assert not after.choices and runs_of(after, 0) == [row_names(3, "ABCDE")]
    assert ENGINE.current_seats(after) == (1,)
    assert ENGINE.view(after, None)["last_event"]["locked"] == [row_names(3, "ABCDE")]


def test_a_lock_choice_survives_a_save_and_a_restart() -> None:
    state = six_in_a_row()
    loaded = ENGINE.load(ENGINE.dump(state))
    assert loaded == state
    assert ENGINE.view(loaded, 0)["lock_choices"] == [row_names(3, "ABCDE"), row_names(3, "BCDEF")]
    assert runs_of(lock(loaded, 0, "A3", "E3"), 0) == [row_names(3, "ABCDE")]


def test_another_seat_resigning_during_a_lock_choice_leaves_the_choice_open() -> None:
    state = ENGINE.resign(six_in_a_row(), 3)
    assert ENGINE.current_seats(state) == (0,)
    view = ENGINE.view(state, None)
    assert view["last_event"] == {"type": "resign", "seat": 3}
    assert view["lock_choices"] == [row_names(3, "ABCDE"), row_names(3, "BCDEF")]
    state = ENGINE.load(ENGINE.dump(state))
    event = ENGINE.view(lock(state, 0, "B3", "F3"), None)["last_event"]
    assert (event["type"], event["cell"], event["card"]) == ("lock", "C3", CARDS[card_for("C3")].public())


def test_resigning_during_ones_own_lock_choice_locks_the_first_run_and_passes_the_turn() -> None:
    state = ENGINE.resign(six_in_a_row(), 0)
    assert runs_of(state, 0) == [row_names(3, "ABCDE")]
    assert ENGINE.current_seats(state) == (1,) and not state.choices
    assert ENGINE.view(state, None)["last_event"] == {"type": "resign", "seat": 0}


# --- the time-out move ------------------------------------------------------------------------


def test_the_timeout_move_during_a_lock_choice_locks_the_first_run_in_board_order() -> None:
    state = six_in_a_row()
    assert ENGINE.timeout_move(state, 0) == {"type": "lock", "from": "A3", "to": "E3"}


def test_the_timeout_move_plays_a_problem_card_whose_chip_makes_no_sequence() -> None:
    chips = dict.fromkeys(["A3", "B3", "D3", "E3"], 0) | {"H8": 1}
    hand = [MINUS, PLUS, card_for("C3")]
    state = make(4, chips=chips, hands=[hand, [], [], []])
    elsewhere = next(x for x in twins("C3") if x != at("C3"))  # C3's twin number
    assert ENGINE.timeout_move(state, 0) == {"type": "play", "card": 2, **rc(_name(elsewhere))}
    state = make(4, chips=chips | {_name(elsewhere): 1}, hands=[[*hand, card_for("J5")], [], [], []])
    move = ENGINE.timeout_move(state, 0)  # C3 now scores: another problem card, not the plus
    assert move["card"] == 3 and (move["row"], move["col"]) in [divmod(x, SIZE) for x in CELLS_OF[31]]


def test_the_timeout_move_trades_a_dead_card_before_spending_a_plus_card() -> None:
    dead = card_for("E5")
    chips = {_name(x): 1 for x in twins("E5")}
    state = make(4, chips=chips, hands=[[PLUS, dead], [], [], []])
    assert ENGINE.timeout_move(state, 0) == {"type": "trade", "card": 1}
    state = make(4, chips=chips | {"H8": 1}, hands=[[MINUS, PLUS], [], [], []])
    move = ENGINE.timeout_move(state, 0)
    assert move["card"] == 1 and not ENGINE.apply(state, 0, move).sequences[0]


def test_the_timeout_move_makes_a_sequence_only_when_every_other_card_is_a_minus() -> None:
    chips = dict.fromkeys(["A3", "B3", "D3", "E3"], 0) | {"H8": 1}
    elsewhere = next(x for x in twins("C3") if x != at("C3"))
    state = make(4, chips=chips | {_name(elsewhere): 1}, hands=[[MINUS, card_for("C3")], [], [], []])
    assert ENGINE.timeout_move(state, 0) == {"type": "play", "card": 1, **rc("C3")}
    only_minus = make(4, chips={"H8": 1}, hands=[[MINUS], [], [], []])
    assert ENGINE.timeout_move(only_minus, 0) == {"type": "play", "card": 0, **rc("H8")}


def test_the_timeout_move_is_refused_for_a_seat_not_to_move() -> None:
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_move(make(hands=[[PLUS], [MINUS]]), 1)


# --- minus cards --------------------------------------------------------------------


def test_a_minus_card_removes_an_opponent_chip_that_is_not_locked() -> None:
    state = make(chips={"C3": 1, "D4": 0}, hands=[[MINUS], [PLUS]])
    moves = ENGINE.legal_moves(state, 0)
    assert [(m["row"], m["col"]) for m in moves] == [divmod(at("C3"), SIZE)]
    after = play(state, 0, MINUS, "C3")
    assert after.chips[at("C3")] is None
    event = ENGINE.view(after, None)["last_event"]
    assert (event["type"], event["seat"], event["cell"], event["team"]) == ("remove", 0, "C3", 1)


def test_a_minus_card_cannot_remove_a_chip_of_a_completed_sequence() -> None:
    run = row_names(3, "BCDEF")
    state = make(4, chips=dict.fromkeys(run, 1), sequences={1: [run]}, hands=[[MINUS], [], [], []])
    assert at("B3") in locked_cells(state)
    assert ENGINE.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="B3 is part of a sequence"):
        play(state, 0, MINUS, "B3")


def test_a_minus_card_cannot_remove_your_own_teams_chip() -> None:
    state = make(4, chips={"C3": 0, "D3": 1}, hands=[[MINUS], [], [], []])
    with pytest.raises(IllegalMove, match="no opponent chip on C3"):
        play(state, 0, MINUS, "C3")


# --- dead cards, drawing, skipping, the draw ----------------------------------------------


def test_a_dead_card_can_be_traded_once_per_turn_and_then_a_card_is_played() -> None:
    dead = [card_for("E5"), card_for("E6")]
    chips = {cell: 1 for n in ("E5", "E6") for cell in map(_name, twins(n))}
    state = make(chips=chips, hands=[[*dead, PLUS], [MINUS]])
    trades = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "trade"]
    assert trades == [{"type": "trade", "card": 0}, {"type": "trade", "card": 1}]
    after = ENGINE.apply(state, 0, trades[0])
    assert after.discards[0] == (dead[0],) and len(after.hands[0]) == 3
    assert after.turn == 0 and after.traded
    assert all(m["type"] == "play" for m in ENGINE.legal_moves(after, 0))
    assert ENGINE.view(after, None)["last_event"] == {
        "type": "trade",
        "seat": 0,
        "card": CARDS[dead[0]].public(),
    }
    with pytest.raises(IllegalMove, match="already traded"):
        ENGINE.apply(after, 0, {"type": "trade", "card": 0})


def test_a_live_card_cannot_be_traded() -> None:
    state = make(hands=[[card_for("E5")], [MINUS]])
    with pytest.raises(IllegalMove, match="dead card"):
        ENGINE.apply(state, 0, {"type": "trade", "card": 0})


def test_example_a_trade_that_leaves_no_playable_card_ends_the_turn() -> None:
    """Rules: "after a trade that leaves no playable card, the turn ends.\""""
    numbers = ("E5", "E6")
    # Own chips: the minus card has no target, so nothing is playable after the trade.
    chips = {cell: 0 for n in numbers for cell in map(_name, twins(n))}
    hands = [[card_for("E5"), MINUS], [PLUS]]
    state = make(chips=chips, hands=hands)
    state = replace(state, deck=(card_for("E6"), *state.deck))  # the new card is dead too
    after = ENGINE.apply(state, 0, {"type": "trade", "card": 0})
    assert ENGINE.current_seats(after) == (1,) and not after.traded


def test_example_an_empty_deck_is_rebuilt_from_every_discard_pile_and_the_card_just_played() -> None:
    """Rules: "When the deck is empty at a draw, all discard piles, the card just played
    included, are shuffled (seeded) into a new deck.\""""
    card = card_for("E5")
    rest = [c for c in range(100) if c not in (card, MINUS)]
    state = make(hands=[[card], [MINUS]], deck=(), discards=(tuple(rest[:50]), tuple(rest[50:])))
    after = play(state, 0, card, "E5")
    assert after.discards == ((), ())
    assert after.step == state.step + 1
    assert sorted(after.deck + after.hands[0]) == sorted([*rest, card])
    assert len(after.hands[0]) == 1


def test_example_a_seat_with_no_playable_and_no_dead_card_is_skipped() -> None:
    """Rules: "A player who holds no playable card and no dead card to trade is skipped.\""""
    state = make(3, chips={"C3": 2}, hands=[[MINUS], [MINUS + 1], [card_for("E5")]])
    after = play(state, 0, MINUS, "C3")  # now seat 1's minus has nothing to remove
    assert ENGINE.current_seats(after) == (2,)
    assert ENGINE.view(after, None)["skipped"] == [1]


def test_example_when_every_seat_is_skipped_for_a_whole_round_the_game_is_a_draw() -> None:
    """Rules: "If every player is skipped in one whole round, the game is a draw: the
    outcome has no winners and `draw` true.\""""
    state = make(2, chips={"C3": 1}, hands=[[MINUS], [MINUS + 1]], deck=(), discards=((), ()))
    after = play(state, 0, MINUS, "C3")
    # Seat 1 has nothing to remove; seat 0 draws its minus back and has nothing either.
    outcome = result(after)
    assert outcome.draw and outcome.winners == ()
    assert ENGINE.current_seats(after) == ()
    view = ENGINE.view(after, None)
    assert view["skipped"] == [1, 0] and view["winners"] == [] and view["to_move"] == []


# --- errors, resigning --------------------------------------------------------------------


def test_moving_out_of_turn_is_refused() -> None:
    state = ENGINE.new_game(2, seed=1)
    mover = ENGINE.current_seats(state)[0]
    move = ENGINE.legal_moves(state, mover)[0]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 1 - mover, move)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({}, "Choose a card"),
        ({"type": "dance"}, "Choose a card"),
        ({"type": "play", "card": 9, "row": 0, "col": 1}, "Pick a card from your hand, 1 to 5"),
        ({"type": "play", "card": 0}, "columns A–J, rows 1–10"),
    ],
)
def test_malformed_moves_are_refused_with_a_sentence_counting_from_1(move: dict, words: str) -> None:
    state = ENGINE.new_game(2, seed=1)
    with pytest.raises(IllegalMove, match=words):
        ENGINE.apply(state, ENGINE.current_seats(state)[0], move)


def test_a_resigned_seats_turns_are_skipped() -> None:
    state = ENGINE.resign(make(4, hands=[[PLUS], [PLUS + 1], [card_for("E5")], [MINUS]]), 1)
    assert ENGINE.view(state, None)["last_event"] == {"type": "resign", "seat": 1}
    assert ENGINE.current_seats(play(state, 0, PLUS, "C3")) == (2,)


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
    assert result(play(state, 2, card_for("F6"), "F6")).winners == (0, 2)


def test_when_one_team_is_left_after_resigning_it_wins() -> None:
    state = ENGINE.new_game(4, seed=2)
    state = ENGINE.resign(state, 1)
    assert ENGINE.outcome(state) is None
    state = ENGINE.resign(state, 3)
    outcome = result(state)
    assert outcome.winners == (0, 2) and outcome.details["reason"] == "resignation"
    assert ENGINE.view(state, None)["winners"] == [0, 2]


def test_resigning_on_your_turn_passes_the_turn_on() -> None:
    state = ENGINE.new_game(3, seed=2)
    mover = ENGINE.current_seats(state)[0]
    state = ENGINE.resign(state, mover)
    assert ENGINE.current_seats(state) == ((mover + 1) % 3,)
    with pytest.raises(GameError):
        ENGINE.resign(state, mover)


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


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_random_games_end_with_a_winner_and_keep_every_invariant(players: int, options: dict) -> None:
    for seed in range(4):
        states = playout(players, seed, options)
        for state in states[::7] + states[-1:]:
            check_invariants(state)
        outcome = ENGINE.outcome(states[-1])
        assert outcome is not None and (outcome.winners or outcome.draw)
        final = ENGINE.view(states[-1], None)
        assert final["winners"] == list(outcome.winners)
        if outcome.winners:
            team = final["teams"].index(final["winners"])
            assert final["sequences"][team] >= final["sequences_to_win"]


def test_random_team_games_meet_lock_choices() -> None:
    choices = [s for seed in range(12) for s in playout(4, seed) if s.choices]
    assert choices  # the choice comes up in real games, not only in built positions
    for state in choices:
        assert all(m["type"] == "lock" for m in ENGINE.legal_moves(state, state.turn))


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    assert playout(4, 11) == playout(4, 11)


def test_dump_and_load_round_trip_exactly_through_a_whole_game() -> None:
    for state in playout(3, 5)[::5]:
        text = ENGINE.dump(state)
        assert ENGINE.load(text) == state and ENGINE.dump(ENGINE.load(text)) == text
        json.loads(text)


@pytest.mark.parametrize(
    "damage",
    [
        {"chips": [None] * 99},
        {"chips": [7] * 100},
        {"turn": 4},
        {"first": -1},
        {"deck": [0, 1, 2]},
        {"hands": [[1], [1]]},
        {"sequences": [[[1, 2, 3]], []]},
        {"choices": [[30, 31, 32, 33, 34]]},
        {"pending": [0, 22]},
        {"last": ["dance", 0, 1, 2, None]},
        {"players": 5},
        {"traded": "no"},
    ],
)
def test_a_damaged_save_is_refused_with_a_game_error(damage: dict) -> None:
    saved = json.loads(ENGINE.dump(ENGINE.new_game(2, seed=4)))
    with pytest.raises(GameError, match="cannot be read"):
        ENGINE.load(json.dumps(saved | damage))


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


def hidden_twin(state: SequenceState, seat: int | None, rng: random.Random) -> SequenceState:
    """The same position as `seat` sees it: every other hand (partners' included) and the
    deck order dealt afresh from the cards `seat` cannot see, hand sizes kept."""
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.deck)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
    return replace(state, hands=tuple(hands), deck=tuple(pool))


def test_states_differing_only_in_hidden_cards_give_equal_views() -> None:
    rng = random.Random(99)
    for state in playout(4, 7)[::10]:
        for seat in (None, 0, 1, 2, 3):
            twin = hidden_twin(state, seat, rng)
            assert twin.deck != state.deck
            assert [h for s, h in enumerate(twin.hands) if s != seat] != [
                h for s, h in enumerate(state.hands) if s != seat
            ]
            assert ENGINE.view(twin, seat) == ENGINE.view(state, seat)


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
