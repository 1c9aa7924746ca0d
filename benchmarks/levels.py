"""The level table: whether each computer level beats the one below as the games require,
whether hard beats the game's reference, and how long each level takes to decide.

Two-player matches between computer players, seeded 0, 1, 2… with the two players taking
the first seat in turn, so every run plays the same matches (`ai.arena.first_wins`). A
share is met when it reaches the share required and its 95% Wilson lower bound is above
one half. The decision times are those of the same matches (against the reference, hard's
alone) on this machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import ai
from ai import Player
from ai.arena import Timer, first_wins
from benchmarks.references import (
    REFERENCE_SHARE,
    hard_or,
    rookie,
    sequence_numbers,
    tetris_link,
    tremember,
    triominos,
    wilson_low,
)
from cogs.registry import GAMES


@dataclass(frozen=True)
class Requirement:
    """`stronger` wins at least `share` of `games` matches against `weaker`."""

    stronger: str
    weaker: str
    share: float
    games: int
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Reference:
    """The game's strongest simple strategy (benchmarks/references/), which hard must beat
    in at least `REFERENCE_SHARE` of `games` matches played with `options`."""

    choose: Player[Any]
    games: int
    options: Mapping[str, Any] = field(default_factory=dict)


REQUIREMENTS: dict[str, tuple[Requirement, ...]] = {
    "tremember": (
        Requirement("normal", "easy", 0.75, 16),
        Requirement("hard", "normal", 0.6, 40),
    ),
    "tetris_link": (
        Requirement("normal", "easy", 0.6, 40, {"dice": True}),
        Requirement("hard", "normal", 0.7, 20, {"dice": True}),
        Requirement("hard", "normal", 0.7, 6, {"dice": False}, "without dice"),
    ),
    "rookie": (
        Requirement("normal", "easy", 0.75, 20, {"deck": "pocket"}),
        Requirement("hard", "easy", 0.75, 10, {"deck": "pocket"}),
        # Hard's perfect memory wins three to four matches in five; six leaves room for luck.
        Requirement("hard", "normal", 0.6, 40, {"deck": "pocket"}),
    ),
    "triominos": (
        # Enough matches that each share, if met, has its 95% Wilson lower bound above
        # one half: the deal decides much of a match between children's players.
        Requirement("normal", "easy", 0.58, 400),
        Requirement("hard", "normal", 0.55, 400),
        Requirement("hard", "easy", 0.6, 100),
    ),
    "sequence_numbers": (
        # Enough matches that each share, if met, has its 95% Wilson lower bound above
        # one half. The draw decides much of a two-player match (see the module docstring
        # of ai.sequence_numbers); hard's building and reading of the cards still tell.
        # Against the greedy reference hard wins about half (51.5% of 400): a player that
        # cheats wins 82% of 400 knowing the deck, but 49% of 100 seeing only the other
        # hand (`python -m benchmarks.references.sequence_numbers oracle`).
        Requirement("normal", "easy", 0.58, 400),
        Requirement("hard", "easy", 0.6, 100),
        Requirement("hard", "normal", 0.55, 400),
    ),
}

REFERENCES: dict[str, Reference] = {
    "tremember": Reference(tremember.choose, tremember.REFERENCE_GAMES),
    "tetris_link": Reference(tetris_link.choose, tetris_link.REFERENCE_GAMES),
    "rookie": Reference(rookie.choose, rookie.REFERENCE_GAMES, rookie.OPTIONS),
    "triominos": Reference(triominos.choose, triominos.REFERENCE_GAMES),
    "sequence_numbers": Reference(sequence_numbers.choose, sequence_numbers.REFERENCE_GAMES),
}


def met(won: float, share: float, games: int) -> bool:
    """Whether `won` of `games` matches is the share required, beyond the luck of the deal."""
    return won >= share and wilson_low(won, games) > 0.5


def check(game: str, requirement: Requirement, timer: Timer | None = None) -> tuple[float, bool]:
    """The share of matches the stronger level won, and whether that is the share required."""
    spec = GAMES[game]
    if spec.choose is None:
        raise ValueError(f"{spec.title} has no computer player to measure.")
    won = first_wins(
        spec.engine,
        spec.choose,
        requirement.stronger,
        requirement.weaker,
        requirement.games,
        requirement.options,
        timer,
    )
    return won, met(won, requirement.share, requirement.games)


def against_reference(game: str, timer: Timer | None = None) -> tuple[float, bool]:
    """The share of matches hard won against the game's reference, and whether it is enough."""
    spec, reference = GAMES[game], REFERENCES[game]
    if spec.choose is None:
        raise ValueError(f"{spec.title} has no computer player to measure.")
    player = hard_or(spec.choose, reference.choose)
    won = first_wins(spec.engine, player, "hard", "normal", reference.games, reference.options, timer)
    return won, met(won, REFERENCE_SHARE, reference.games)


def _line(pairing: str, won: float, games: int, share: float, enough: bool, start: float) -> str:
    return (
        f"    {pairing:34s} {100 * won:5.1f}% won of {games:3d} "
        f"(95% lower bound {100 * wilson_low(won, games):4.1f}%; required {100 * share:3.0f}%)  "
        f"{'ok' if enough else 'NOT MET'}  {time.perf_counter() - start:5.1f} s"
    )


def bench_game(game: str) -> bool:
    """Print one game's rows of the level table; whether every share is met."""
    times: dict[str, list[float]] = {level: [] for level in ai.LEVELS}

    def timer(level: str, seconds: float) -> None:
        times[level].append(seconds)

    def hard_timer(level: str, seconds: float) -> None:
        if level == "hard":  # the reference plays at another level: its times are not a level's
            times[level].append(seconds)

    print(f"  {GAMES[game].title}")
    every = True
    for requirement in REQUIREMENTS[game]:
        start = time.perf_counter()
        won, enough = check(game, requirement, timer)
        every = every and enough
        pairing = f"{requirement.stronger} against {requirement.weaker} {requirement.note}".strip()
        print(_line(pairing, won, requirement.games, requirement.share, enough, start))
    start = time.perf_counter()
    won, enough = against_reference(game, hard_timer)
    print(_line("hard against the reference", won, REFERENCES[game].games, REFERENCE_SHARE, enough, start))
    for level in ai.LEVELS:
        samples = times[level]
        print(
            f"    {level:6s} decides in median {1000 * statistics.median(samples):7.2f} ms, "
            f"max {1000 * max(samples):7.1f} ms  ({len(samples)} decisions)"
        )
    return every and enough


def bench_levels() -> None:
    """Print the level table of every game and whether each share is met."""
    print(
        "The level table: two-player matches seeded 0, 1, 2…, seats swapped; a share is met when it"
        " reaches the share required with its 95% lower bound above 50%"
        " (decision budget: easy and normal median <= 50 ms, hard median <= 1 s, max <= 3 s)"
    )
    every = True
    for game in REQUIREMENTS:
        every = bench_game(game) and every
    print(
        "  every level beats the one below and hard beats the reference as required"
        if every
        else "  NOT MET: a level falls short"
    )
