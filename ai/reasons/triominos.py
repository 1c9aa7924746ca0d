"""Why a My First Triominos move is good, from the seat's own views (see ai/reasons/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ai import triominos as player
from ai.reasons import Reason
from games.triominos import TriominosMove, TriominosView


def explain(views: Sequence[TriominosView], move: TriominosMove) -> Reason:
    """The tokens a placement earns (a bonus, the last card), or why not to place."""
    if move["type"] != "place":
        return Reason({"take_joker": "joker"}.get(move["type"], move["type"]))
    knowledge = player.read(views)
    option = next(o for o in player.options(views[-1], [move]))
    assert option.cell is not None
    bonuses = knowledge.board.bonuses(option.cell)
    last = len(knowledge.hand) == 1
    earned = 1 + bonuses + int(last)
    return Reason("last_card" if last else "bonus" if bonuses else "tokens", {"n": earned})
