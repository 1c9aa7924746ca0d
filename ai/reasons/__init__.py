"""Why a move is good, from the deciding seat's own views: what a hint says besides the move.

Each game's `explain(views, move)` (ai/reasons/<game>.py, named by its spec) returns a `Reason`:
a key naming the kind of reason and the numbers that fill it (the cogs word it in each language,
counts through ngettext). Like the computer players it reads only the seat's views, oldest
first, the newest being the position the move is made in. Standard library only (and the
games' and players' pure helpers).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move: `key` names the reason ("group", "pair_seen"…), `values` fill its words."""

    key: str
    values: dict[str, int] = field(default_factory=dict)
