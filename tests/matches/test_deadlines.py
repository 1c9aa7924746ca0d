"""The clock's index of running matches: what is due is found without walking every match,
each due match once, at its reminder and then at its deadline, and never once it moved on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from data.model import MatchRow
from matches.deadlines import RunningMatches
from matches.match import Match
from tests.registry import ENGINES

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CLOCK_S = 3600  # its reminder comes 15 minutes before the deadline


def running_match(match_id: int, deadline: datetime | None) -> Match:
    row = MatchRow(
        id=match_id,
        game="tremember",
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=11,
        status="running",
        seed=match_id,
        options={},
        state=None,
        turn=0,
        ping_message_id=None,
        created_at=NOW.isoformat(),
        started_at=NOW.isoformat(),
        clock_s=CLOCK_S if deadline else None,
        deadline=deadline.isoformat() if deadline else None,
        players=[11, 22],
    )
    return Match(row=row, engine=ENGINES["tremember"], state=None)


def at(minutes: float) -> datetime:
    return NOW + timedelta(minutes=minutes)


def test_a_match_is_due_at_its_reminder_then_at_its_deadline_once_each():
    running = RunningMatches()
    match = running_match(1, at(60))
    running.add(match)

    assert running.due(at(44)) == []
    assert running.due(at(45)) == [match]  # the reminder
    assert running.due(at(46)) == []  # taken off until the clock watches it again
    match.row.reminded = True
    running.watch(match)
    assert running.due(at(59)) == []
    assert running.due(at(60)) == [match]  # the deadline


def test_a_match_that_moved_on_is_due_at_its_new_deadline_only():
    running = RunningMatches()
    moved, ended, untimed = running_match(1, at(60)), running_match(2, at(60)), running_match(3, None)
    for match in (moved, ended, untimed):
        running.add(match)

    moved.row.deadline = at(120).isoformat()
    running.watch(moved)
    ended.row.status = "finished"
    running.remove(ended.id)

    assert running.due(at(100)) == []
    assert running.due(at(105)) == [moved]
