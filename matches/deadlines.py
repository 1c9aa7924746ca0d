"""The running matches of a process, indexed by when the turn clock next has to look at each:
its reminder time, or once reminded its deadline. The clock's beat then pops what is due
from a heap instead of walking every match.

The index is kept current in one way: a match is watched when it enters `RunningMatches`
(`running.add(match)`) and whenever its deadline or reminder changes (`watch`, called by
the code that changes them: a committed move, a reload from the database, the clock itself).
A heap entry that no longer matches its match (moved on, finished, set aside) is skipped
when it comes up."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta

from data.model import MatchRow
from matches.match import Match

COMPACT_SLACK = 1024  # stale heap entries tolerated beyond two per match before a rebuild


def reminder_lead(clock_s: int) -> timedelta:
    """How long before the deadline the reminder goes out: a quarter of the clock, at most an hour."""
    return timedelta(seconds=min(clock_s / 4, 3600))


def next_look(row: MatchRow) -> datetime | None:
    """When the clock next has something to do for a match: remind, then time out (None
    without a running clock)."""
    if row.status != "running" or row.deadline is None or row.clock_s is None:
        return None
    deadline = datetime.fromisoformat(row.deadline)
    return deadline if row.reminded else deadline - reminder_lead(row.clock_s)


class RunningMatches(Mapping[int, Match]):
    """The running matches of this process by id, with the clock's index of when each is next
    due. Read it as a mapping; only `add` and `remove` change it."""

    def __init__(self) -> None:
        self._matches: dict[int, Match] = {}
        self._heap: list[tuple[datetime, int]] = []
        self._queued: dict[int, datetime] = {}  # the one live heap entry of each match

    def __getitem__(self, match_id: int) -> Match:
        return self._matches[match_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._matches)

    def __len__(self) -> int:
        return len(self._matches)

    def add(self, match: Match) -> None:
        """Run `match` in this process (in place of an older copy of it), its clock watched."""
        self._matches[match.id] = match
        self.watch(match)

    def remove(self, match_id: int) -> Match | None:
        """This process runs the match no more (it ended, was set aside, or belongs elsewhere):
        the match it ran, if any. Its clock entries are skipped from now on."""
        self._queued.pop(match_id, None)
        return self._matches.pop(match_id, None)

    def watch(self, match: Match) -> None:
        """Index when the clock next looks at `match` (nothing for a match not held here)."""
        when = next_look(match.row)
        if when is None or self.get(match.id) is not match or self._queued.get(match.id) == when:
            return
        self._queued[match.id] = when
        heapq.heappush(self._heap, (when, match.id))
        if len(self._heap) > 2 * len(self) + COMPACT_SLACK:
            self._compact()

    def due(self, now: datetime) -> list[Match]:
        """The matches whose reminder or deadline has come by `now`, each once, taken off the
        index (watch them again once handled)."""
        found = []
        while self._heap and self._heap[0][0] <= now:
            when, match_id = heapq.heappop(self._heap)
            if self._queued.get(match_id) != when:
                continue  # superseded by a later watch
            del self._queued[match_id]
            match = self.get(match_id)
            if match is not None and next_look(match.row) == when:
                found.append(match)
        return found

    def _compact(self) -> None:
        """Drop the stale entries: one entry per match still held."""
        self._queued = {match_id: when for match_id, when in self._queued.items() if match_id in self}
        self._heap = [(when, match_id) for match_id, when in self._queued.items()]
        heapq.heapify(self._heap)
