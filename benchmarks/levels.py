"""Level against level: whether each computer level beats the one below as the games require.

Two-player matches between computer players, seeded 0, 1, 2… with the two levels taking the
first seat in turn, so every run plays the same matches (`ai.arena.first_wins`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ai.arena import first_wins
from benchmarks.references import wilson_low
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


REQUIREMENTS: dict[str, tuple[Requirement, ...]] = {
    "tremember": (
        Requirement("normal", "easy", 0.75, 16),
        Requirement("hard", "normal", 0.6, 40),
    ),
    "tetris_link": (
        Requirement("normal", "easy", 0.6, 12, {"dice": True}),
        Requirement("hard", "normal", 0.7, 10, {"dice": True}),
        Requirement("hard", "normal", 0.7, 6, {"dice": False}, "without dice"),
    ),
    "rookie": (
        Requirement("normal", "easy", 0.75, 12, {"deck": "pocket"}),
        Requirement("hard", "easy", 0.75, 4, {"deck": "pocket"}),
        # Hard's perfect memory wins seven to eight matches in ten; six leaves room for luck.
        Requirement("hard", "normal", 0.6, 24, {"deck": "pocket"}),
    ),
    "triominos": (
        # Enough matches that each share, if met, has its 95% Wilson lower bound above
        # one half: the deal decides much of a match between children's players.
        # Hard against the greedy reference: python -m benchmarks.references.triominos.
        Requirement("normal", "easy", 0.58, 400),
        Requirement("hard", "normal", 0.55, 400),
        Requirement("hard", "easy", 0.6, 100),
    ),
    "sequence_numbers": (
        # Enough matches that each share, if met, has its 95% Wilson lower bound above
        # one half. The draw decides much of a two-player match (see the module docstring
        # of ai.sequence_numbers); hard's building and reading of the cards still tell.
        # Hard against the greedy reference: python -m benchmarks.references.sequence_numbers.
        Requirement("normal", "easy", 0.58, 400),
        Requirement("hard", "easy", 0.6, 100),
        Requirement("hard", "normal", 0.55, 400),
    ),
}


def check(game: str, requirement: Requirement) -> tuple[float, bool]:
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
    )
    return won, won >= requirement.share


def bench_levels() -> None:
    """Print every game's win rates and whether each is the share required."""
    print("Level against level: each level must beat the one below by the share required")
    met = True
    for game, requirements in REQUIREMENTS.items():
        print(f"  {GAMES[game].title}")
        for requirement in requirements:
            start = time.perf_counter()
            won, enough = check(game, requirement)
            met = met and enough
            pairing = f"{requirement.stronger} against {requirement.weaker} {requirement.note}".strip()
            print(
                f"    {pairing:34s} {100 * won:5.1f}% won of {requirement.games:3d} "
                f"(95% lower bound {100 * wilson_low(won, requirement.games):4.1f}%; "
                f"required {100 * requirement.share:3.0f}%)  {'ok' if enough else 'NOT MET'}"
                f"  {time.perf_counter() - start:5.1f} s"
            )
    print("  every level beats the one below as required" if met else "  NOT MET: a level falls short")
