"""The Rookie computer players: legal to the end, deterministic, view-only, ranked."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import ai
import ai.rookie
from ai import arena
from ai.rookie import Memory, read_memory, recalled, sample_state, sure_gain
from benchmarks.references import rookie as reference
from games.rookie import ENGINE, RookieState, X
from tests.games.test_rookie import NO_DISCARDS, discards, flip, make, table

Levels = tuple[str, ...]
# What a sampled table must show exactly as the real one does.
SHOWN = ("positions", "open", "seats", "phase", "pending", "table_cards", "turn", "scores", "to_move")


def play(levels: Levels, seed: int, options: dict | None = None) -> RookieState:
    state: RookieState = arena.play(ENGINE, ai.rookie.choose, levels, seed, options)
    return state


TABLES = [
    (2, {}),
    (3, {"variant": "kids"}),
    (4, {"variant": "team", "deck": "pocket"}),
    (5, {"deck": "pocket"}),
    (6, {"variant": "team", "deck": "pocket"}),
]
# The hard player shares a pocket deck with normal players, to keep the suite quick.
HARD_TABLES = [(2, {"deck": "pocket"}), (4, {"variant": "team", "deck": "pocket"})]


@pytest.mark.parametrize(
    ("level", "players", "options"),
    [(level, *table) for level in ("easy", "normal") for table in TABLES]
    + [("hard", *table) for table in HARD_TABLES],
)
def test_every_level_plays_a_match_to_the_end_with_legal_moves_only(level, players, options):
    levels = (level,) + ("normal",) * (players - 1) if level == "hard" else (level,) * players
    state = play(levels, seed=players, options=options)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    dealt = sum(map(len, ENGINE.new_game(players, 0, options).table))
    assert sum(state.points) == dealt


def decisions(players: int, seed: int, options: dict | None = None):
    """Every decision of a match between normal players: the state, the seat, its views."""
    state = ENGINE.new_game(players, seed, options)
    views: list[list[dict]] = [[ENGINE.view(state, seat)] for seat in range(players)]
    rng = random.Random(seed)
    while ENGINE.current_seats(state):
        seat = state.turn
        yield state, seat, views[seat]
        move = ai.choose(ai.rookie.choose, "normal", views[seat], ENGINE.legal_moves(state, seat), rng)
        state = ENGINE.apply(state, seat, move)
        for other in range(players):
            views[other].append(ENGINE.view(state, other))


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"variant": "kids"}), (4, {"variant": "team"}), (5, {"deck": "pocket"})],
)
def test_the_memory_read_from_the_views_is_the_table_and_a_sampled_deal_shows_the_same(players, options):
    """Every remembered top lies there, every unsecured pile is followed card by card, and
    a deal sampled from the memory shows the seat exactly its view and offers its moves."""
    rng = random.Random(players)
    remembered = 0
    for number, (state, seat, views) in enumerate(decisions(players, players, options)):
        if number % 3:
            continue
        memory = read_memory(views)
        assert all(state.table[p][-1] == card for p, (card, _) in memory.seen.items())
        piles = [Counter(card for stack in own for card in stack) for own in state.discards]
        assert memory.unsecured == piles
        sample = sample_state(views[-1], memory, rng)
        shown = ENGINE.view(sample, seat)
        assert {key: shown[key] for key in SHOWN} == {key: views[-1][key] for key in SHOWN}
        legal = ENGINE.legal_moves(state, seat)
        assert ENGINE.legal_moves(sample, seat) == legal
        if state.phase in ("place", "steal", "arrange"):  # certain moves: the same outcome
            after = [ENGINE.view(ENGINE.apply(s, seat, legal[-1]), seat) for s in (sample, state)]
            assert {key: after[0][key] for key in SHOWN} == {key: after[1][key] for key in SHOWN}
        remembered += len(memory.seen)
    assert remembered > 30


def history(players: int, seed: int, moves: int) -> tuple[RookieState, list[dict]]:
    """A match between normal players, `moves` moves in: the first state and the moves."""
    start = state = ENGINE.new_game(players, seed)
    views: list[list[dict]] = [[ENGINE.view(state, seat)] for seat in range(players)]
    played: list[dict] = []
    rng = random.Random(seed)
    while len(played) < moves:
        seat = state.turn
        move = ai.choose(ai.rookie.choose, "normal", views[seat], ENGINE.legal_moves(state, seat), rng)
        state = ENGINE.apply(state, seat, move)
        played.append(move)
        for other in range(players):
            views[other].append(ENGINE.view(state, other))
    return start, played


def replay(start: RookieState, moves: list[dict], seat: int) -> tuple[RookieState, list[dict]]:
    state, views = start, [ENGINE.view(start, seat)]
    for move in moves:
        state = ENGINE.apply(state, state.turn, move)
        views.append(ENGINE.view(state, seat))
    return state, views


def hidden_twin(start: RookieState, moves: list[dict], rng: random.Random) -> RookieState:
    """Another deal behind the same history (its first state): two cards of different
    kinds that nobody has seen trade places, so the same moves show every view unchanged."""
    end, seen = replay(start, moves, 0)
    deal = [list(stack) for stack in start.table]
    slots = [(p, i) for p, stack in enumerate(deal) for i in range(len(stack))]
    while True:
        (p, i), (q, j) = rng.sample(slots, 2)
        if deal[p][i] == deal[q][j]:
            continue
        swapped = [list(stack) for stack in deal]
        swapped[p][i], swapped[q][j] = deal[q][j], deal[p][i]
        twin = replace(start, table=tuple(tuple(stack) for stack in swapped))
        try:
            twin_end, twin_seen = replay(twin, moves, 0)
        except ValueError:  # a move this deal does not allow
            continue
        if twin_seen == seen and twin_end.table != end.table:
            return twin


@pytest.mark.parametrize("level", ai.LEVELS)
def test_states_with_equal_views_for_the_seat_give_the_same_choice(level):
    rng = random.Random(5)
    for seed in range(3):
        start, moves = history(2, seed, 40 + 7 * seed)
        twin_start = hidden_twin(start, moves, rng)
        seat = replay(start, moves, 0)[0].turn
        (state, views), (twin, twin_views) = (replay(s, moves, seat) for s in (start, twin_start))
        assert twin.table != state.table and twin_views == views
        choices = [
            ai.choose(ai.rookie.choose, level, seen, ENGINE.legal_moves(s, seat), random.Random(seed))
            for s, seen in ((state, views), (twin, twin_views))
        ]
        assert choices[0] == choices[1] and choices[0] in ENGINE.legal_moves(state, seat)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_views_legal_moves_and_seed_give_the_same_choice(level):
    start, moves = history(3, 4, 30)
    state = replay(start, moves, 0)[0]
    _, seat_views = replay(start, moves, state.turn)
    legal = ENGINE.legal_moves(state, state.turn)
    choices = [ai.choose(ai.rookie.choose, level, seat_views, legal, random.Random(9)) for _ in range(3)]
    assert choices[0] == choices[1] == choices[2]


def known_green_pair() -> tuple[RookieState, list[dict]]:
    """A turned up red and green, B turned up blue and green: A knows where two greens lie."""
    state = make(players=2, table=table("BR", "BG", "YB", "BR", "BG", "BX", "BY", "BP", "YY"))
    views = [ENGINE.view(state, 0)]
    for position in (0, 1, 2, 4):
        state = ENGINE.apply(state, state.turn, flip(position))
        views.append(ENGINE.view(state, 0))
    assert state.turn == 0 and state.phase == "flip"
    return state, views


@pytest.mark.parametrize("seed", range(3))
def test_hard_takes_a_pair_it_remembers(seed):
    state, views = known_green_pair()
    move = ai.choose(ai.rookie.choose, "hard", views, ENGINE.legal_moves(state, 0), random.Random(seed))
    assert move in (flip(1), flip(4))
    state = ENGINE.apply(state, 0, move)
    views.append(ENGINE.view(state, 0))
    second = ai.choose(ai.rookie.choose, "hard", views, ENGINE.legal_moves(state, 0), random.Random(seed))
    assert ENGINE.apply(state, 0, second).pair == "green"


def test_easy_forgets_a_pair_it_has_seen_more_often_than_normal_and_hard_never_does():
    state, views = known_green_pair()
    legal = ENGINE.legal_moves(state, 0)
    forgotten = {
        level: sum(
            ai.choose(ai.rookie.choose, level, views, legal, random.Random(seed)) not in (flip(1), flip(4))
            for seed in range(60)
        )
        for level in ai.LEVELS
    }
    assert forgotten["hard"] == 0 < forgotten["easy"]
    assert forgotten["normal"] < forgotten["easy"] / 2


def test_normal_recalls_a_card_just_seen_and_mostly_forgets_one_seen_long_ago():
    memory = Memory({0: ("red", 0), 1: ("blue", 199)}, Counter(), [Counter(), Counter()], Counter(), None)
    rng = random.Random(4)
    recalls = {level: Counter() for level in ai.LEVELS}
    for _ in range(100):
        for level in ai.LEVELS:
            recalls[level].update(recalled(200, memory, level, rng))
    assert recalls["hard"] == Counter({0: 100, 1: 100})
    assert recalls["normal"][1] == 100 and recalls["normal"][0] < 20
    assert recalls["easy"][0] == 0


def placing(pair: str, own: tuple, other: tuple, **changes: Any) -> tuple[RookieState, list[dict]]:
    """Seat A holds a pair to place; the views are the one of this moment."""
    state = make(players=2, phase="place", pair=pair, discards=(own, other), **changes)
    return state, [ENGINE.view(state, 0)]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_an_x_pair_on_an_x_top_makes_a_rookie(level):
    # Robbing B's four cards instead could secure nothing: a Rookie banks six and takes them.
    state, views = placing(X, discards("RX", "G", "B"), discards("RR", "Y", "P"), after_pair="choose")
    move = ai.choose(ai.rookie.choose, level, views, ENGINE.legal_moves(state, 0), random.Random(2))
    after = ENGINE.apply(state, 0, move)
    assert after.points[0] == 6 and after.discards[1] == NO_DISCARDS


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_pair_that_matches_a_top_secures_the_stacks(level):
    state, views = placing("red", discards("GR", "G", "B"), discards("", "", ""))
    move = ai.choose(ai.rookie.choose, level, views, ENGINE.legal_moves(state, 0), random.Random(2))
    assert ENGINE.apply(state, 0, move).points[0] == 6


def every_top_known_and_unmatched() -> tuple[RookieState, list[dict]]:
    """A saw the red at 1 and the blue at 3 (a green beneath it); B took the yellow, purple
    and X pairs at 4–9 and missed with the green at 2 and the red. A is to move: every top
    is known, no two match, and six places are empty."""
    state = make(players=2, table=table("R", "G", "GB", "Y", "Y", "P", "P", "X", "X"))
    views = [ENGINE.view(state, 0)]
    for position in (0, 2, 3, 4, 5, 6, 7, 8, 1, 0):
        state = ENGINE.apply(state, state.turn, flip(position))
        views.append(ENGINE.view(state, 0))
        while state.phase in ("place", "steal", "arrange"):
            state = ENGINE.apply(state, state.turn, ENGINE.legal_moves(state, state.turn)[0])
            views.append(ENGINE.view(state, 0))
    assert state.turn == 0 and state.phase == "flip"
    return state, views


@pytest.mark.parametrize("level", ai.LEVELS)
def test_with_every_top_known_and_no_pair_the_player_uncovers_a_new_card(level):
    # Turning up the lone red or green would change nothing, and the match would never end.
    state, views = every_top_known_and_unmatched()
    move = ai.choose(ai.rookie.choose, level, views, ENGINE.legal_moves(state, 0), random.Random(3))
    assert move == flip(2)
    after = ENGINE.apply(state, 0, move)
    assert after.table[2] == ("green",) and after.table[3] == ("blue",)


def test_the_reference_plays_legal_moves_to_the_end_whatever_its_level():
    """The greedy player hard is measured against: the same seeded match whatever level."""
    ends = [arena.play(ENGINE, reference.choose, (level, level), 3, reference.OPTIONS) for level in ai.LEVELS]
    outcome = ENGINE.outcome(ends[0])
    assert outcome is not None and outcome.winners
    assert ends[0] == ends[1] == ends[2]


@pytest.mark.parametrize("seed", range(3))
def test_the_reference_takes_a_pair_it_remembers(seed):
    state, views = known_green_pair()
    move = reference.choose("easy", views, ENGINE.legal_moves(state, 0), random.Random(seed))
    assert move in (flip(1), flip(4))
    state = ENGINE.apply(state, 0, move)
    views.append(ENGINE.view(state, 0))
    second = reference.choose("easy", views, ENGINE.legal_moves(state, 0), random.Random(seed))
    assert ENGINE.apply(state, 0, second).pair == "green"


def test_hard_leaves_its_rule_of_thumb_only_for_a_gain_larger_than_the_luck_of_the_deals():
    proposed = [0.0, 4.0, -2.0, 1.0, 3.0, -1.0]
    assert sure_gain([v + 0.5 for v in proposed], proposed) == 0.5  # the same gain on every deal
    lucky = [v + gain for v, gain in zip(proposed, (6.0, -5.0, 4.0, -4.0, 5.0, -3.0), strict=True)]
    assert sure_gain(lucky, proposed) == 0.0  # a better mean, but within the deals' luck
