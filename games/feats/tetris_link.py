"""Tetris Link feats: a group of 12 pieces, a link worth 5 points, a tower without gaps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.feats import FeatsBySeat, Logged, by_seat, steps
from games.tetris_link import TetrisLinkView

GROUP_12 = "tetris_link.group_12"  # a placement leaves its group at 12 pieces or more
BIG_LINK = "tetris_link.big_link"  # one placement gains 5 points or more
CLEAN_TOWER = "tetris_link.clean_tower"  # a finished match of 15+ pieces, never a gap penalty
BIG_GROUP = 12
BIG_GAIN = 5
CLEAN_PIECES = 15


def feats(views: Sequence[TetrisLinkView], log: Sequence[Logged]) -> FeatsBySeat:
    """The Tetris Link feats each seat achieved in a finished match."""
    earned: list[tuple[int, str]] = []
    placed = [0] * views[0]["players"]
    gaps = [False] * views[0]["players"]
    for seat, move, _, after in steps(views, log):
        event: Any = after["last_event"]
        if move.get("type") != "place" or event is None or event["type"] != "place":
            continue
        placed[seat] += 1
        gaps[seat] = gaps[seat] or event["gap_penalty"] > 0
        if event["group"] >= BIG_GROUP:
            earned.append((seat, GROUP_12))
        if event["gained"] >= BIG_GAIN:
            earned.append((seat, BIG_LINK))
    final = views[-1]
    if final["winners"] is not None:
        for seat, count in enumerate(placed):
            if count >= CLEAN_PIECES and not gaps[seat] and seat not in final["resigned"]:
                earned.append((seat, CLEAN_TOWER))
    return by_seat(earned)
