"""Sequence Numbers feats: two sequences in one move, a win after a minus card broke a four,
a win with a plus card, a team win with no sequence for the other teams."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.feats import FeatsBySeat, Logged, by_seat, steps, winners
from games.sequence_numbers import DIRECTIONS, RUN, SIZE, SequenceView

DOUBLE = "sequence_numbers.double"  # one move (its card and the locks it chooses) makes two sequences
MINUS_WIN = "sequence_numbers.minus_win"  # a minus card broke a line one chip short; then won
PLUS_WIN = "sequence_numbers.plus_win"  # the winning chip laid with a plus card
SHUTOUT = "sequence_numbers.shutout"  # two sequences made to win while no other team has one


def feats(views: Sequence[SequenceView], log: Sequence[Logged]) -> FeatsBySeat:
    """The Sequence Numbers feats each seat achieved in a finished match."""
    earned: list[tuple[int, str]] = []
    blockers: set[int] = set()
    gain = 0
    for seat, move, before, after in steps(views, log):
        team = team_of(after, seat)
        if move.get("type") != "lock":  # a lock is a follow-up decision of the move before it
            gain = 0
        gain += after["sequences"][team] - before["sequences"][team]
        if gain >= 2:
            earned.append((seat, DOUBLE))
        event: Any = after["last_event"]
        if event is None or event["seat"] != seat or "card" not in event:
            continue
        if event["type"] == "remove" and event["team"] is not None and breaks_a_four(before, event):
            blockers.add(seat)
        if event["type"] == "place" and event["card"]["kind"] == "plus" and seat in (after["winners"] or []):
            earned.append((seat, PLUS_WIN))
    won = winners(views)
    earned += [(seat, MINUS_WIN) for seat in blockers if seat in won]
    final = views[-1]
    if won and final["sequences_to_win"] > 1:
        team = team_of(final, won[0])
        others = [count for other, count in enumerate(final["sequences"]) if other != team]
        if final["sequences"][team] >= final["sequences_to_win"] and not any(others):
            earned += [(seat, SHUTOUT) for seat in won]
    return by_seat(earned)


def team_of(view: SequenceView, seat: int) -> int:
    """The team a seat plays for."""
    return next(team for team, seats in enumerate(view["teams"]) if seat in seats)


def breaks_a_four(before: SequenceView, removal: Any) -> bool:
    """Whether the chip a minus card removed was one of five in a line that lacked one chip:
    four of its team's chips (free corners counting) and one empty cell."""
    row, col, team = removal["row"], removal["col"], removal["team"]
    board = before["board"]
    for dr, dc in DIRECTIONS:
        for back in range(RUN):
            cells = [(row + (k - back) * dr, col + (k - back) * dc) for k in range(RUN)]
            if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                continue
            squares = [board[r][c] for r, c in cells]
            theirs = sum(1 for s in squares if s["number"] is None or s["chip"] == team)
            empty = sum(1 for s in squares if s["number"] is not None and s["chip"] is None)
            if theirs == RUN - 1 and empty == 1:
                return True
    return False
