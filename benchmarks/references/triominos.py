"""A greedy My First Triominos player, the reference the hard level must beat.

It is the strongest of the simple strategies: it lays the card that earns the most
tokens now (hexagons, bridges, the last card), keeps the joker for a placement that
earns a bonus, takes the joker back when nothing fits, and otherwise buys. It reads
nothing of the hidden cards and looks no further than its own move; the level is ignored.

python -m benchmarks.references.triominos [GAMES]   # hard against it, seats swapped
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence

import ai.triominos
from ai.arena import first_wins
from ai.triominos import JOKER_KEPT, Option, card_of, fallback, options, read_board
from games.triominos import ENGINE, JOKER, TriominosMove, TriominosView

# Hard must win this share of this many seeded matches against the reference.
REFERENCE_SHARE = 0.6
REFERENCE_GAMES = 400


def choose(
    level: str, views: Sequence[TriominosView], legal: list[TriominosMove], rng: random.Random
) -> TriominosMove:
    """The greedy move of the seat to move, whatever `level`."""
    view = views[-1]
    found = options(view, legal)
    placing = [o for o in found if o.kind == "place"]
    if not placing:
        return fallback(found).move
    board = read_board(view)
    hand = [card_of(card) for card in view["hand"]]

    def earned(option: Option) -> float:
        assert option.cell is not None
        value: float = 1 + board.bonuses(option.cell) + int(len(hand) == 1)
        if hand[option.index] == JOKER and len(hand) > 1:
            value -= JOKER_KEPT
        return value

    values = [earned(option) for option in placing]
    top = max(values)
    return rng.choice([o for o, v in zip(placing, values, strict=True) if v >= top - 1e-9]).move


def wilson_low(share: float, games: int, z: float = 1.96) -> float:
    """The lower end of the 95% Wilson interval of a share won over `games` matches."""
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def hard_or_reference(
    level: str, views: Sequence[TriominosView], legal: list[TriominosMove], rng: random.Random
) -> TriominosMove:
    """The hard level at "hard", the reference at any other level: one player for the arena."""
    if level == "hard":
        return ai.triominos.choose(level, views, legal, rng)
    return choose(level, views, legal, rng)


def main() -> None:
    """Print the share of seeded two-player matches hard wins against the reference."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else REFERENCE_GAMES
    won = first_wins(ENGINE, hard_or_reference, "hard", "normal", games)
    print(
        f"My First Triominos hard against the greedy reference: {100 * won:.1f}% won of {games} "
        f"(95% lower bound {100 * wilson_low(won, games):.1f}%, required {100 * REFERENCE_SHARE:.0f}%)"
    )


if __name__ == "__main__":
    main()
