"""Triominos feats: two hexagons with one card, the top of the bonus table, the joker taken back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.feats import FeatsBySeat, Logged, by_seat, steps
from games.triominos import TriominosView

TWO_HEXAGONS = "triominos.two_hexagons"  # one card completes two hexagons (or more)
FOUR_TOKENS = "triominos.four_tokens"  # one card worth 4 tokens or more by the bonus table
JOKER_BACK = "triominos.joker_back"  # the joker taken back from the table
TOP_OF_TABLE = 4


def feats(views: Sequence[TriominosView], log: Sequence[Logged]) -> FeatsBySeat:
    """The Triominos feats each seat achieved in a finished match."""
    earned: list[tuple[int, str]] = []
    for seat, _, _, after in steps(views, log):
        event: Any = after["last_event"]
        if event is None or event["seat"] != seat:
            continue
        if event["type"] == "take_joker":
            earned.append((seat, JOKER_BACK))
        if event["type"] != "place":
            continue
        hexagons = event.get("hexagons", 0)
        if hexagons >= 2:
            earned.append((seat, TWO_HEXAGONS))
        if 1 + hexagons + event.get("bridge", False) + event.get("last_card", False) >= TOP_OF_TABLE:
            earned.append((seat, FOUR_TOKENS))
    return by_seat(earned)
