"""Why a Sequence Numbers move is good, from the seat's own views (see ai/reasons/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ai.reasons import Reason
from games.sequence_numbers import SequenceMove, SequenceView

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def explain(views: Sequence[SequenceView], move: SequenceMove) -> Reason:
    """What a chip does to the lines through its cell: a sequence, a longer line, a block."""
    view = views[-1]
    if move["type"] != "play":
        return Reason(move["type"])
    team = next(t for t, seats in enumerate(view["teams"]) if view["seat"] in seats)
    cell = (move["row"], move["col"])
    chip = view["board"][cell[0]][cell[1]]["chip"]
    if chip is not None:  # a minus card takes another team's chip away
        return Reason("remove", {"n": _line(view, cell, chip)})
    own = _line(view, cell, team)
    if own >= SEQUENCE:
        return Reason("sequence")
    others = max((_line(view, cell, t) for t in range(len(view["teams"])) if t != team), default=0)
    if others >= BLOCKING and others > own:
        return Reason("block", {"n": others - 1})
    return Reason("line", {"n": own}) if own > 1 else Reason("room")


SEQUENCE = 5  # chips in a row that make a sequence
BLOCKING = 4  # a line another team would have with a chip here (three of theirs) is worth blocking


def _line(view: SequenceView, cell: tuple[int, int], team: int) -> int:
    """The longest line of `team` through `cell` with a chip of theirs on it (free corners
    count for everyone)."""
    board = view["board"]
    size = len(board)

    def mine(row: int, col: int) -> bool:
        if not (0 <= row < size and 0 <= col < size):
            return False
        square = board[row][col]
        return square["number"] is None or square["chip"] == team

    longest = 1
    for dr, dc in DIRECTIONS:
        length = 1
        for sign in (1, -1):
            row, col = cell[0] + sign * dr, cell[1] + sign * dc
            while mine(row, col):
                length += 1
                row, col = row + sign * dr, col + sign * dc
        longest = max(longest, length)
    return longest
