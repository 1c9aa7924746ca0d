"""Matches between computer players, for the tests and the benchmark."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import ai
from ai import Player
from games.base import AnyEngine

# Called after every decision with the deciding level and the seconds it took.
Timer = Callable[[str, float], None]


def play(
    engine: AnyEngine,
    player: Player[Any],
    levels: tuple[str, ...],
    seed: int,
    options: Mapping[str, Any] | None = None,
    timer: Timer | None = None,
) -> Any:
    """One seeded match of `engine` to the end, seat i played by `player` at `levels[i]`: the
    final state. Each seat decides from its own views only; every move is checked legal."""
    state = engine.new_game(len(levels), seed, options)
    views: list[list[dict[str, Any]]] = [[engine.view(state, seat)] for seat in range(len(levels))]
    rng = random.Random(seed)
    while seats := engine.current_seats(state):
        seat = seats[0]
        legal = engine.legal_moves(state, seat)
        start = time.perf_counter()
        move = ai.choose(player, levels[seat], views[seat], legal, rng)
        if timer is not None:
            timer(levels[seat], time.perf_counter() - start)
        if move not in legal:
            raise AssertionError(f"{engine.name} {levels[seat]} chose an illegal move: {move}")
        state = engine.apply(state, seat, move)
        for other, seen in enumerate(views):
            seen.append(engine.view(state, other))
    return state


def first_wins(
    engine: AnyEngine,
    player: Player[Any],
    first: str,
    second: str,
    games: int,
    options: Mapping[str, Any] | None = None,
    timer: Timer | None = None,
) -> float:
    """The share of two-player matches `first` wins against `second` (a shared win counts
    as its share), the two levels taking the first seat in turn."""
    won = 0.0
    for seed in range(games):
        levels = (first, second) if seed % 2 == 0 else (second, first)
        outcome = engine.outcome(play(engine, player, levels, seed, options, timer))
        assert outcome is not None
        if levels.index(first) in outcome.winners:
            won += 1 / len(outcome.winners)
    return won / games
