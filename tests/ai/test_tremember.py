"""The Tremember computer players: legal to the end, deterministic, view-only, ranked,
with a memory that is exactly what the seat's views showed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import ai
import ai.tremember
from ai import arena
from ai.tremember import read_memory
from benchmarks.references import tremember as reference
from games.tremember import ENGINE, HOLE, NO_CARD, TrememberState, motif_of
from tests.games.test_tremember import move, ordered_game, push, rc


def first_wins(first: str, second: str, games: int) -> float:
    return arena.first_wins(ENGINE, ai.tremember.choose, first, second, games)


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_level_plays_a_match_to_the_end_with_legal_moves_only(level, players):
    state: TrememberState = arena.play(ENGINE, ai.tremember.choose, (level,) * players, seed=players)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    assert sum(state.scores) >= 18  # every pair was found, each for 1 to 3 points


def test_mixed_levels_play_a_six_seat_match_to_the_end():
    state: TrememberState = arena.play(ENGINE, ai.tremember.choose, ("easy", "normal", "hard") * 2, seed=11)
    assert ENGINE.outcome(state) is not None


# --- what the seat remembers --------------------------------------------------------


class Table:
    """A match played by given moves, with every state and every seat's views."""

    def __init__(self, state: TrememberState) -> None:
        self.states = [state]
        self.views = [[ENGINE.view(state, seat)] for seat in range(state.players)]

    @property
    def state(self) -> TrememberState:
        return self.states[-1]

    def play(self, seat: int, *moves: dict) -> None:
        for made in moves:
            self.states.append(ENGINE.apply(self.state, seat, made))
            for other, seen in enumerate(self.views):
                seen.append(ENGINE.view(self.state, other))

    def resign(self, seat: int) -> None:
        self.states.append(ENGINE.resign(self.state, seat))
        for other, seen in enumerate(self.views):
            seen.append(ENGINE.view(self.state, other))

    def play_randomly(self, moves: int, rng: random.Random) -> None:
        for _ in range(moves):
            seats = ENGINE.current_seats(self.state)
            if not seats:
                return
            self.play(seats[0], rng.choice(ENGINE.legal_moves(self.state, seats[0])))

    def seen_by(self, seat: int) -> set[int]:
        """The cards `seat` has seen face up (by the states, not the views): its peeks and
        every flip."""
        seen: set[int] = set()
        for state in self.states[1:]:
            kind, mover, *details = state.last_event
            if kind == "take" and mover == seat:
                seen.add(state.taken)
            elif kind == "flip":
                seen.add(details[1])
            elif kind in ("pair", "miss"):
                seen.update((details[1], details[3]))
        return seen


def cards_where_remembered(table: Table, seat: int) -> dict[int, str]:
    """Card number -> the motif the seat's memory shows at the cell where it lies now."""
    memory = read_memory(table.views[seat], seat)
    state = table.state
    grid = [state.taken if card == HOLE else card for card in state.grid]
    return {grid[cell]: motif for cell, motif in enumerate(memory.motif) if motif is not None}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_card_a_seat_saw_is_remembered_where_it_lies_now_and_nothing_else(players):
    """Each turned or peeked card shows in some view of the seat, and the memory read
    from the views follows it through pushes and joker turns to its cell."""
    rng = random.Random(players)
    turned = 0
    for seed in range(3):
        table = Table(ENGINE.new_game(players, seed))
        while seats := ENGINE.current_seats(table.state):
            legal = ENGINE.legal_moves(table.state, seats[0])
            table.play(seats[0], ai.choose(ai.tremember.choose, "normal", table.views[seats[0]], legal, rng))
            if len(table.states) % 3:
                continue
            for seat in range(players):
                remembered = cards_where_remembered(table, seat)
                face_up = {card for card, by in enumerate(table.state.found_by) if by >= 0}
                assert set(remembered) == table.seen_by(seat) | face_up
                assert all(motif_of(card) == motif for card, motif in remembered.items())
        turned += sum(1 for state in table.states if state.last_event[0] == "pair" and state.last_event[-1])
    assert turned  # the board turned under the memory at least once


@pytest.mark.parametrize(
    ("moves", "phase", "one_turned"), [(21, "push", False), (22, "flip", False), (23, "flip", True)]
)
def test_after_a_seat_resigns_mid_turn_the_others_remember_rightly_and_play_to_the_end(
    moves, phase, one_turned
):
    """Whether it left with a card in hand, before turning or with one card turned,
    the memory stays true."""
    table = Table(ENGINE.new_game(3, moves))
    table.play_randomly(moves, random.Random(moves))
    assert (table.state.phase, table.state.first_flip != NO_CARD) == (phase, one_turned)
    table.resign(ENGINE.current_seats(table.state)[0])
    rng = random.Random(0)
    while seats := ENGINE.current_seats(table.state):
        legal = ENGINE.legal_moves(table.state, seats[0])
        table.play(seats[0], ai.choose(ai.tremember.choose, "hard", table.views[seats[0]], legal, rng))
        for seat in range(3):
            remembered = cards_where_remembered(table, seat)
            assert all(motif_of(card) == motif for card, motif in remembered.items())
    assert ENGINE.outcome(table.state) is not None


def test_a_peeked_card_is_remembered_by_its_taker_alone():
    table = Table(ordered_game())
    table.play(0, move("take", "C3"), push("left"))  # card 14 lands at A3
    assert read_memory(table.views[0], 0).motif[12] == motif_of(14)
    assert read_memory(table.views[1], 1).motif[12] is None
    assert read_memory(table.views[1], 1).knowers[12] == 1  # seat 1 knows seat 0 saw it


# --- deciding from the views alone --------------------------------------------------------


def decide(level: str, table: Table, seed: int) -> dict:
    seat = ENGINE.current_seats(table.state)[0]
    views = table.views[seat]
    return ai.choose(
        ai.tremember.choose, level, views, ENGINE.legal_moves(table.state, seat), random.Random(seed)
    )


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_views_legal_moves_and_seed_give_the_same_choice(level):
    table = Table(ENGINE.new_game(3, 4))
    table.play_randomly(50, random.Random(4))
    choices = [decide(level, table, seed=7) for _ in range(3)]
    assert choices[0] == choices[1] == choices[2]


def hidden_twin(table: Table, seat: int) -> Table:
    """The same match with two cards the seat never saw swapped in the deal, one of them
    peeked at by another seat: every view of `seat` stays the same, the secrets differ."""
    unseen = set(range(36)) - table.seen_by(seat)
    peeked = {
        state.taken for state in table.states if state.last_event[0] == "take" and state.last_event[1] != seat
    }
    a = next(card for card in sorted(unseen & peeked))
    b = next(card for card in sorted(unseen) if motif_of(card) != motif_of(a))
    start = table.states[0]
    grid = [b if card == a else a if card == b else card for card in start.grid]
    twin = Table(replace(start, grid=tuple(grid)))
    for before, after in zip(table.states, table.states[1:], strict=False):
        mover = ENGINE.current_seats(before)[0]
        twin.play(mover, replay_move(before, after))
    return twin


def replay_move(before: TrememberState, after: TrememberState) -> dict:
    """The move that led from `before` to `after`, in the words of a move."""
    kind, _, *details = after.last_event
    if kind == "push":
        return push(details[0])
    cell = details[0] if kind in ("take", "flip") else details[2]
    return {"type": "take" if kind == "take" else "flip", "cell": list(divmod(cell, 6))}


@pytest.mark.parametrize("level", ai.LEVELS)
def test_states_with_equal_views_for_the_seat_give_the_same_choice(level):
    rng = random.Random(9)
    for seed in range(4):
        table = Table(ENGINE.new_game(2, seed))
        table.play_randomly(30 + seed, rng)
        seat = ENGINE.current_seats(table.state)[0]
        twin = hidden_twin(table, seat)
        assert twin.views[seat] == table.views[seat]
        assert twin.state.grid != table.state.grid
        assert decide(level, twin, seed) == decide(level, table, seed)


# --- the levels ----------------------------------------------------------------------------


def test_hard_wins_most_of_a_few_seeded_matches_against_easy():
    """A fast sign of the levels' order; `python -m benchmarks levels` checks each level
    against the one below on enough matches."""
    assert first_wins("hard", "easy", games=4) > 0.5


def pair_seen_then_rounds(rounds: int) -> Table:
    """Seat 0 has seen the sun pair at A1 and B1 (its own miss and seat 1's), then both
    seats play `rounds` turns each that turn only the moon and star cards again."""
    table = Table(ordered_game())  # card k at cell k: A1, B1 suns; C1, D1 moons; E1, F1 stars
    far_take = (move("take", "F6"), push("left"))  # row 6 only: rows 1-5 stay
    table.play(0, *far_take, move("flip", "A1"), move("flip", "C1"))
    table.play(1, *far_take, move("flip", "B1"), move("flip", "E1"))
    for _ in range(rounds):
        table.play(0, *far_take, move("flip", "C1"), move("flip", "E1"))
        table.play(1, *far_take, move("flip", "C1"), move("flip", "E1"))
    table.play(0, *far_take)
    return table


def turns_the_sun_pair(level: str, table: Table, tries: int) -> int:
    """Of `tries` decisions with different seeds, how many turn A1 or B1 first."""
    return sum(decide(level, table, seed)["cell"] in (rc("A1"), rc("B1")) for seed in range(tries))


def test_easy_forgets_like_a_child_and_forgets_more_the_longer_ago_it_saw_a_pair():
    fresh, old = pair_seen_then_rounds(0), pair_seen_then_rounds(6)
    assert turns_the_sun_pair("normal", old, 20) == turns_the_sun_pair("hard", old, 20) == 20
    recalled_fresh, recalled_old = turns_the_sun_pair("easy", fresh, 60), turns_the_sun_pair("easy", old, 60)
    assert 20 < recalled_fresh < 60
    assert recalled_old < recalled_fresh / 2


def test_hard_pushes_a_pair_it_knows_side_by_side_before_turning_it():
    """Seat 0 knows the suns at A1 and C2 (1 point as they lie): hard takes C2 and
    pushes it in from the left of row 2, so that it lands at A2, under A1, for 3."""
    start = ordered_game()
    grid = list(start.grid)
    grid[rc_index("B1")], grid[rc_index("C2")] = grid[rc_index("C2")], grid[rc_index("B1")]
    table = Table(replace(start, grid=tuple(grid)))  # suns at A1 and C2
    far_take = (move("take", "F6"), push("left"))
    table.play(0, *far_take, move("flip", "A1"), move("flip", "D1"))
    table.play(1, *far_take, move("flip", "C2"), move("flip", "E1"))
    for _ in range(4):
        table.play(0, decide("hard", table, 1))
    assert table.state.last_event[0] == "pair"
    assert table.state.scores[0] == 3


def rc_index(name: str) -> int:
    row, col = rc(name)
    return row * 6 + col


def test_the_reference_plays_legal_moves_to_the_end_whatever_its_level():
    """The perfect-memory player hard is measured against: the same seeded match whatever level."""
    ends = [arena.play(ENGINE, reference.choose, (level, level), seed=3) for level in ai.LEVELS]
    outcome = ENGINE.outcome(ends[0])
    assert outcome is not None and outcome.winners
    assert ends[0] == ends[1] == ends[2]


def test_the_reference_never_forgets_a_pair_it_saw_long_ago():
    table = pair_seen_then_rounds(6)
    seat = ENGINE.current_seats(table.state)[0]
    legal = ENGINE.legal_moves(table.state, seat)
    for seed in range(20):
        move = reference.choose("easy", table.views[seat], legal, random.Random(seed))
        assert move["cell"] in (rc("A1"), rc("B1"))
