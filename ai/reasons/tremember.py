"""Why a Tremember move is good, from the seat's own views (see ai/reasons/__init__.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ai import tremember as player
from ai.reasons import Reason
from games.tremember import SIZE, TrememberMove, TrememberView


def explain(views: Sequence[TrememberView], move: TrememberMove) -> Reason:
    """What the seat remembers of the card to take or turn (and when it saw it)."""
    if move["type"] == "push":
        return Reason("push")
    table = player.read_table(views, "normal", random.Random(0))  # normal forgets nothing
    cell = move["cell"][0] * SIZE + move["cell"][1]
    motif = table.known.get(cell)
    if move["type"] == "take":
        return _seen(table, cell) if motif is not None else Reason("take_unseen")
    wanted = table.first_motif if table.first is not None else motif
    pair = [other for other, known in table.known.items() if known == wanted and other != cell]
    if table.first is not None and motif == wanted and motif is not None:
        return Reason("pair_seen", {"n": max(table.memory.seen[cell], 0)})
    if table.first is None and motif is not None and pair:
        return Reason("pair_seen", {"n": max(table.memory.seen[pair[0]], 0)})
    return _seen(table, cell) if motif is not None else Reason("unseen")


def _seen(table: player.Table, cell: int) -> Reason:
    return Reason("card_seen", {"n": max(table.memory.seen[cell], 0)})
