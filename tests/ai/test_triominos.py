"""The My First Triominos computer players: legal to the end, deterministic, view-only, ranked."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import ai
import ai.triominos
from ai import arena
from ai.triominos import JOKER, ROTATIONS, World, deal, options, read
from benchmarks.references import triominos as reference
from games.triominos import ENGINE, TriominosState, table_of
from tests.games.test_triominos import hidden_twin

Levels = tuple[str, ...]


def play(levels: Levels, seed: int, options: dict | None = None) -> TriominosState:
    """A seeded match to the end, each seat played by the computer at its level."""
    state: TriominosState = arena.play(ENGINE, ai.triominos.choose, levels, seed, options)
    return state


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"joker": False}), (4, {"open_hands": True})])
def test_every_level_plays_a_match_to_the_end_with_legal_moves_only(level, players, options):
    state = play((level,) * players, seed=players, options=options)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    assert len(state.table) > 20


def recorded(seed: int, players: int, moves: int) -> tuple[TriominosState, list[list[dict]]]:
    """A game some moves in, by time-out moves, with every seat's views so far."""
    state = ENGINE.new_game(players, seed)
    views = [[ENGINE.view(state, s)] for s in range(players)]
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.turn
        legal = ENGINE.legal_moves(state, seat)
        placing = [m for m in legal if m["type"] == "place"]
        state = ENGINE.apply(state, seat, rng.choice(placing or legal))
        for s in range(players):
            views[s].append(ENGINE.view(state, s))
    return state, views


def decision(level: str, state: TriominosState, views: list[dict], seed: int) -> dict:
    seat = state.turn
    return ai.choose(ai.triominos.choose, level, views, ENGINE.legal_moves(state, seat), random.Random(seed))


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_views_legal_moves_and_seed_give_the_same_choice(level):
    state, views = recorded(3, 2, 9)
    choices = [decision(level, state, views[state.turn], seed=7) for _ in range(3)]
    assert choices[0] == choices[1] == choices[2]


@pytest.mark.parametrize("level", ai.LEVELS)
def test_states_with_equal_views_for_the_seat_give_the_same_choice(level):
    rng = random.Random(5)
    for seed in range(3):
        state, views = recorded(seed, 3, 7)
        seat = state.turn
        twin = hidden_twin(state, seat, rng)
        assert twin.hands != state.hands and twin.pot != state.pot
        assert ENGINE.view(twin, seat) == views[seat][-1]
        twin_views = [*views[seat][:-1], ENGINE.view(twin, seat)]
        assert decision(level, twin, twin_views, seed) == decision(level, state, views[seat], seed)


def test_what_the_views_leave_unseen_is_exactly_the_other_hands_and_the_pot():
    for seed in range(4):
        state, views = recorded(seed, 3, 12)
        seat = state.turn
        knowledge = read(views[seat])
        hidden = [c for s in range(3) if s != seat for c in state.hands[s] if c not in knowledge.known[s]]
        assert sorted(knowledge.unseen) == sorted([*state.pot, *hidden])
        assert knowledge.hand == list(state.hands[seat])


def test_a_deal_gives_every_hand_its_size_and_the_pot_its_cards_from_the_unseen_ones():
    state, views = recorded(6, 4, 10)
    seat = state.turn
    knowledge = read(views[seat])
    for number in range(20):
        world = deal(knowledge, random.Random(number))
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.hands[seat] == list(state.hands[seat])
        assert len(world.pot) == len(state.pot)
        dealt = [*world.pot, *(c for s, h in enumerate(world.hands) if s != seat for c in h)]
        assert sorted(dealt) == sorted(knowledge.unseen)


def joker_taken_back(seed: int) -> tuple[TriominosState, list[list[dict]], int]:
    """A two-player game where one seat took the joker back; the other seat to move."""
    for attempt in range(200):
        state = ENGINE.new_game(2, seed + attempt)
        views: list[list[dict]] = [[ENGINE.view(state, s)] for s in range(2)]
        rng = random.Random(attempt)
        while ENGINE.current_seats(state):
            seat = state.turn
            legal = ENGINE.legal_moves(state, seat)
            swaps = [m for m in legal if m["type"] == "take_joker"]
            jokers = [m for m in legal if m["type"] == "place" and state.hands[seat][m["card"]] == JOKER]
            placing = [m for m in legal if m["type"] == "place"]
            move = (swaps or jokers)[0] if swaps or jokers else rng.choice(placing or legal)
            state = ENGINE.apply(state, seat, move)
            for s in range(2):
                views[s].append(ENGINE.view(state, s))
            if move["type"] == "take_joker" and ENGINE.current_seats(state):
                return state, views, seat
    raise AssertionError("no game took the joker back")


def test_the_seat_that_took_the_joker_back_is_remembered_to_hold_it():
    state, views, taker = joker_taken_back(1)
    seat = state.turn
    assert seat != taker and JOKER in state.hands[taker]
    knowledge = read(views[seat])
    assert knowledge.known[taker] == [JOKER] and JOKER not in knowledge.unseen
    assert all(JOKER in deal(knowledge, random.Random(n)).hands[taker] for n in range(5))


def test_a_seat_that_passed_is_dealt_only_cards_that_fitted_nowhere_then():
    """Seat 1 has no tokens and nothing that fits: it passes, and deals respect that."""
    state, _ = recorded(2, 2, 4)
    while state.turn != 1:
        state = ENGINE.apply(state, state.turn, {"type": "buy"})
    table = table_of(state)
    misfits = [c for c in range(35) if not any(ROTATIONS[c][pattern(table, p)] for p in table.places)]
    seen = {c for c, *_ in state.table} | set(state.hands[0])
    hand = tuple(c for c in misfits if c not in seen)[:3]
    assert len(hand) == 3
    rest = [c for c in [*state.hands[1], *state.pot] if c not in hand]
    tokens = (state.tokens[0] + state.tokens[1], 0)  # seat 1 cannot buy
    state = replace(state, hands=(state.hands[0], hand), pot=tuple(rest), tokens=tokens)
    before = ENGINE.view(state, 0)
    state = ENGINE.apply(state, 1, {"type": "pass"})
    knowledge = read([before, ENGINE.view(state, 0)])
    fitting = [c for c in knowledge.unseen if c != JOKER and c not in misfits]
    assert fitting  # cards that would have fitted are still unseen
    for number in range(20):
        assert not set(deal(knowledge, random.Random(number)).hands[1]) & {*fitting, JOKER}


def pattern(table, cell) -> int:
    a, b, c = table.pattern(cell)
    return a * 36 + b * 6 + c


def test_the_players_simulation_earns_what_the_engine_pays():
    checked = 0
    for seed in range(4):
        state = ENGINE.new_game(3, seed)
        rng = random.Random(seed)
        while ENGINE.current_seats(state):
            seat = state.turn
            view = ENGINE.view(state, seat)
            legal = ENGINE.legal_moves(state, seat)
            move = rng.choice([m for m in legal if m["type"] == "place"] or legal)
            option = next(o for o in options(view, legal) if o.move == move)
            knowledge = read([view])
            world = World(
                knowledge.board,
                [list(h) for h in state.hands],
                list(state.pot),
                list(state.tokens),
                state.bank,
                set(),
                None,
                0,
                3,
            )
            if option.kind == "place":
                assert option.cell is not None
                world.place(seat, option.index, option.cell, option.rotation)
            state = ENGINE.apply(state, seat, move)
            if option.kind == "place":
                assert world.tokens == list(state.tokens) and world.bank == state.bank
                checked += state.last_bonus is not None and state.last_bonus[3] > 1
    assert checked >= 3  # some placements earned a bonus


def test_hard_wins_most_of_a_few_seeded_matches_against_easy():
    """A fast sign of the levels' order; `python -m benchmarks levels` checks each level
    against the one below on enough matches."""
    assert arena.first_wins(ENGINE, ai.triominos.choose, "hard", "easy", games=10) > 0.5


def test_easy_now_and_then_misses_a_card_that_fits_and_buys_where_normal_and_hard_lay_one():
    """The beginner's mistake: a card fits (turned the right way) but it buys instead."""
    state, views = recorded(4, 2, 6)
    legal = ENGINE.legal_moves(state, state.turn)
    assert {"type": "buy"} in legal and any(m["type"] == "place" for m in legal)
    seat_views = views[state.turn]
    bought = {
        level: sum(decision(level, state, seat_views, seed)["type"] == "buy" for seed in range(40))
        for level in ("easy", "normal")
    }
    assert 0 < bought["easy"] < 20 and bought["normal"] == 0
    assert all(decision("hard", state, seat_views, seed)["type"] != "buy" for seed in range(3))


def test_the_greedy_reference_plays_legal_moves_to_the_end_whatever_its_level():
    """The reference hard is measured against: the same seeded match whatever level it is given."""
    ends = [arena.play(ENGINE, reference.choose, (level, level), seed=3) for level in ai.LEVELS]
    outcome = ENGINE.outcome(ends[0])
    assert outcome is not None and outcome.winners
    assert ends[0] == ends[1] == ends[2]
