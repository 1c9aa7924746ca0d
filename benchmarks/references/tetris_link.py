"""The published one-ply Tetris Link heuristic, the reference the hard level must beat.

It is the strongest of the simple strategies (arXiv 2004.00377): every legal placement
is scored by a weighted sum of the points it makes, the links to the player's own
pieces, the opponents' pieces it touches, the empty cells it leaves under itself and
its height, and the highest sum is played. It looks no further than its own move; the
level is ignored.

python -m benchmarks.references.tetris_link [GAMES]   # hard against it, seats swapped
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import ai.tetris_link
from ai.tetris_link import place, read_board
from benchmarks.references import best, report
from games.tetris_link import ENGINE, TetrisLinkMove, TetrisLinkView

# Hard plays this many seeded matches against the reference (with the shape die).
REFERENCE_GAMES = 40


def choose(
    level: str, views: Sequence[TetrisLinkView], legal: list[TetrisLinkMove], rng: random.Random
) -> TetrisLinkMove:
    """The placement the heuristic scores highest, whatever `level`."""
    view = views[-1]
    seat = view["to_move"][0]
    board = read_board(view)
    values = []
    for move in legal:
        placement = place(board, seat, move)
        if placement is None:
            raise ValueError("A legal move does not fit the newest view: pass the views of the seat to move.")
        values.append(placement.value())
    return legal[best(values, rng)]


if __name__ == "__main__":
    report(ENGINE, ai.tetris_link.choose, choose, REFERENCE_GAMES)
