"""A perfect-memory Tremember player, the reference the hard level must beat.

It is the strongest of the simple strategies: it forgets nothing it saw (every flip,
and the cards it peeked at, followed through pushes and turns of the board), peeks at
a card it does not know, pushes so that the pairs it knows lie best, turns the known
pair worth most, else a card it does not know and then its twin if it knows it, else
another unknown card. It weighs nothing of what a turned card tells the others; the
level is ignored.

python -m benchmarks.references.tremember [GAMES]   # hard against it, seats swapped
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import ai.tremember
from ai.tremember import Table, pushed_to, read_table
from benchmarks.references import best, report
from games.tremember import ENGINE, SIZE, TrememberMove, TrememberView, pair_points

# Hard plays this many seeded matches against the reference.
REFERENCE_GAMES = 100


def choose(
    level: str, views: Sequence[TrememberView], legal: list[TrememberMove], rng: random.Random
) -> TrememberMove:
    """The perfect-memory move of the seat to move, whatever `level`."""
    table = read_table(views, "hard", rng)  # every card it saw, none forgotten
    hole = views[-1]["hole"]
    if hole is not None:
        pushes = [move for move in legal if move["type"] == "push"]
        return pushes[best([_pairs_after(table, hole[0] * SIZE + hole[1], move) for move in pushes], rng)]
    cell = _cell_to_turn(table, rng) if views[-1]["phase"] == "flip" else _cell_to_take(table, rng)
    return next(move for move in legal if move["type"] != "push" and _cell(move) == cell)


def _cell(move: TrememberMove) -> int:
    assert move["type"] != "push"
    return move["cell"][0] * SIZE + move["cell"][1]


def _pairs_after(table: Table, hole: int, move: TrememberMove) -> int:
    """The points of the best known pair once `move` pushed the card back in."""
    assert move["type"] == "push"
    moves = pushed_to(hole, move["from"])
    return max((pair_points(moves.get(a, a), moves.get(b, b)) for a, b in table.pairs()), default=0)


def _cell_to_take(table: Table, rng: random.Random) -> int:
    """A card it does not know, to peek at; any card when it knows them all."""
    return rng.choice(table.unknown() or table.down)


def _cell_to_turn(table: Table, rng: random.Random) -> int:
    """The twin of the first card, else the best known pair, else an unknown card."""
    if table.first is not None:
        twins = [cell for cell, motif in table.known.items() if motif == table.first_motif]
        if twins:
            return twins[0]
    elif pairs := table.pairs():
        return pairs[0][0]
    return rng.choice(table.unknown() or table.down)


if __name__ == "__main__":
    report(ENGINE, ai.tremember.choose, choose, REFERENCE_GAMES)
