"""A greedy My First Triominos player, the reference the hard level must beat.

It is the strongest of the simple strategies: it lays the card that earns the most
tokens now (hexagons, bridges, the last card), keeps the joker for a placement that
earns a bonus, takes the joker back when nothing fits, and otherwise buys. It reads
nothing of the hidden cards and looks no further than its own move; the level is ignored.

python -m benchmarks.references.triominos [GAMES]   # hard against it, seats swapped
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import ai.triominos
from ai.triominos import JOKER_KEPT, Option, card_of, fallback, options, read_board
from benchmarks.references import report
from games.triominos import ENGINE, JOKER, TriominosMove, TriominosView

# Hard plays this many seeded matches against the reference.
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


if __name__ == "__main__":
    report(ENGINE, ai.triominos.choose, choose, REFERENCE_GAMES)
