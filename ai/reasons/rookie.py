"""Why a Rookie move is good, from the seat's own views (see ai/reasons/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ai.reasons import Reason
from games.rookie import RookieMove, RookieView


def explain(views: Sequence[RookieView], move: RookieMove) -> Reason:
    """What placing the pair secures, what a steal takes; the other steps by their kind."""
    pending = views[-1]["pending"]
    if move["type"] == "place" and pending is not None and pending["kind"] == "place":
        choice = next(
            (c for c in pending["choices"] if c["seat"] == move["seat"] and c["stacks"] == move["stacks"]),
            None,
        )
        if choice is not None and choice["rookie"]:
            return Reason("rookie")
        return Reason("secure" if choice is not None and choice["secures"] else "pair")
    if move["type"] == "steal" and pending is not None and pending["kind"] == "steal":
        cards = next((c["cards"] for c in pending["choices"] if c["from"] == move["from"]), 0)
        return Reason("steal", {"n": cards})
    return Reason(move["type"] if move["type"] in ("flip", "turn_down", "arrange") else "arrange")
