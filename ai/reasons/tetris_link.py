"""Why a Tetris Link move is good, from the seat's own views (see ai/reasons/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ai import tetris_link as player
from ai.reasons import Reason
from games.tetris_link import TetrisLinkMove, TetrisLinkView


def explain(views: Sequence[TetrisLinkView], move: TetrisLinkMove) -> Reason:
    """Points and the group they come from; else what the piece does for later groups."""
    view = views[-1]
    seat = view["to_move"][0]
    board = player.read_board(view)
    placement = player.place(board, seat, move)
    if placement is None:
        return Reason("low")
    if placement.gained:
        player.put(board, seat, placement)
        group = next(g for g in board.groups[seat] if g & placement.mask)
        return Reason("group", {"size": group.bit_count() // 4, "n": placement.gained})
    if placement.penalty:
        return Reason("fewest_gaps", {"n": placement.holes})
    if placement.own_contacts:
        return Reason("joins")
    return Reason("blocks") if placement.block_contacts else Reason("low")
