"""Simple strategies the hard level of a game must beat (`python -m benchmarks.references.<game>`).

A reference module has `choose(level, views, legal, rng)`, which ignores the level, and runs
`report` on it: hard against the reference over seeded two-player matches, seats swapped."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ai import Player
from ai.arena import first_wins
from games.base import AnyEngine

REFERENCE_SHARE = 0.6  # hard must win this share against the reference


def wilson_low(share: float, games: int, z: float = 1.96) -> float:
    """The lower end of the 95% Wilson interval of a share won over `games` matches."""
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def hard_or(hard: Player[Any], reference: Player[Any]) -> Player[Any]:
    """One player for the arena: `hard` at the level "hard", the reference at any other."""

    def choose(level: str, views: Sequence[Any], legal: list[Any], rng: random.Random) -> Any:
        return (hard if level == "hard" else reference)(level, views, legal, rng)

    return choose


def best(values: Sequence[float], rng: random.Random) -> int:
    """The index of a highest value; ties drawn with `rng`."""
    top = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= top - 1e-9])


def report(
    engine: AnyEngine,
    hard: Player[Any],
    reference: Player[Any],
    default_games: int,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Print the share of seeded matches `hard` wins against `reference` (games: argv[1]),
    the games played with `options`."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else default_games
    won = first_wins(engine, hard_or(hard, reference), "hard", "normal", games, options)
    print(
        f"{engine.title} hard against the reference: {100 * won:.1f}% won of {games} "
        f"(95% lower bound {100 * wilson_low(won, games):.1f}%, required {100 * REFERENCE_SHARE:.0f}%)"
    )
