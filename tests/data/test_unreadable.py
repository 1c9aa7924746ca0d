"""A stored match the bot cannot read stops nothing: lists leave it out, resuming sets it aside."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from data import open_storage
from data.model import SetAside
from data.repositories import Database
from data.storage import Storage
from tests.backends import Target, raw
from tests.data.tracing import Statements, recording, running_match

# (column, stored text, what the warning and the note say): corruptions a bad write, a bug of an
# older version or a hand edit can leave behind.
CORRUPTIONS = [
    ("options", "{not json", "its stored options are unreadable"),
    ("options", "[1, 2]", "its stored options are unreadable"),
    ("timeouts", '{"0": "twice"}', "its stored time-out counts are unreadable"),
    ("invited", "11, 22", "its stored rematch invitations are unreadable"),
    ("deadline", "next tuesday", "its stored turn deadline is unreadable"),
    ("deadline", "2026-01-01T12:00:00", "its stored turn deadline is unreadable"),  # no time zone
    ("started_at", "yesterday", "its stored start time is unreadable"),
    ("guild_id", "the big server", "its stored guild id is unreadable"),
]
IDS = ["options-json", "options-type", "timeouts", "invited", "deadline", "deadline-zone", "started", "guild"]


async def corrupt(target: Target, match_id: int, column: str, text: str) -> None:
    """Overwrite one column of a stored match from another connection, as a hand edit would.
    (PostgreSQL refuses text in a BIGINT column: there, an id column cannot be corrupted so.)"""
    if column == "guild_id" and not isinstance(target, Path):
        pytest.skip("PostgreSQL's BIGINT column refuses the text: no such row can exist there")
    await raw(target, f"UPDATE matches SET {column} = ? WHERE id = ?", text, match_id)


async def stored(target: Target, match_id: int, columns: str) -> tuple:
    (row,) = await raw(target, f"SELECT {columns} FROM matches WHERE id = ?", match_id)
    return row


@asynccontextmanager
async def recording_if_sqlite(storage: Database) -> AsyncIterator[Statements | None]:
    """SQLite's statements while the block runs (to check its transactions); None elsewhere."""
    if not isinstance(storage, Storage) or storage.dialect != "sqlite":
        yield None
        return
    async with recording(storage) as statements:
        yield statements


def warnings_about(caplog: pytest.LogCaptureFixture, match_id: int) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno == logging.WARNING and f"Match {match_id} " in record.getMessage()
    ]


@pytest.mark.parametrize(("column", "text", "reason"), CORRUPTIONS, ids=IDS)
async def test_a_match_with_an_unreadable_column_is_left_out_of_every_list_with_a_warning(
    storage, target, caplog, column, text, reason
):
    broken = await running_match(storage, (11, 22))
    fine = await running_match(storage, (11, 33))
    await corrupt(target, broken, column, text)

    assert [row.id for row in await storage.matches.running()] == [fine]
    assert [row.id for row in await storage.matches.active_for(11, 1)] == [fine]
    assert await storage.matches.get(broken) is None
    assert (await storage.matches.get(fine)).players == [11, 33]
    warnings = warnings_about(caplog, broken)
    assert warnings and all(reason in warning for warning in warnings)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_lobby_with_unreadable_options_is_left_out_of_the_open_lobbies(storage, target, caplog):
    broken = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={"rounds": 3}
    )
    fine = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=22, seed=1, options={}
    )
    await corrupt(target, broken.id, "options", '{"rounds": 3')

    assert [row.id for row in await storage.matches.lobbies()] == [fine.id]
    assert await storage.matches.active_for(11, 1) == []
    assert set(warnings_about(caplog, broken.id)) == {  # once for each of the two reads
        f"Match {broken.id} cannot be read: its stored options are unreadable "
        "(Expecting ',' delimiter: line 1 column 13 (char 12))"
    }


@pytest.mark.parametrize(("column", "text", "reason"), CORRUPTIONS, ids=IDS)
async def test_resuming_sets_aside_a_running_match_it_cannot_read_and_resumes_the_others(
    storage, target, caplog, column, text, reason
):
    fine = await running_match(storage, (11, 22), deadline="2026-01-01T12:00:00+00:00")
    broken = await running_match(storage, (33, 44, 55), deadline="2026-01-01T12:00:00+00:00")
    await storage.matches.set_board_message(broken, 777)
    await storage.matches.record_move(broken, turn=0, seat=0, user_id=33, move={"n": 1}, state="after one")
    await corrupt(target, broken, column, text)

    async with recording_if_sqlite(storage) as statements:
        rows, set_aside = await storage.matches.resume_running(timedelta(hours=1))

    assert [(row.id, row.deadline) for row in rows] == [(fine, "2026-01-01T13:00:00+00:00")]
    guild_id = "the big server" if column == "guild_id" else 1
    assert set_aside == [SetAside(broken, "rookie", guild_id, 2, 777, (33, 44, 55), reason)]
    # Set aside, not lost: the state and the moves stay for an operator to repair.
    assert await stored(target, broken, "status, note, state, turn") == ("set_aside", reason, "after one", 1)
    assert [turn for turn, _, _ in await storage.matches.move_log(broken)] == [0]
    if statements is not None:
        assert statements.transactions() == ["BEGIN IMMEDIATE", "COMMIT"]
    assert any(
        f"Match {broken} is set aside: {reason}" == warning for warning in warnings_about(caplog, broken)
    )
    # The next start resumes the good match alone and sets nothing aside again.
    assert await storage.matches.resume_running(timedelta(0)) == ([await storage.matches.get(fine)], [])


async def test_a_running_match_set_aside_keeps_its_state_and_moves_and_says_who_to_tell(storage, target):
    match_id = await running_match(storage, (11, 22))
    await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 1}, state="kept")

    told = await storage.matches.set_aside(match_id, "its game state cannot be loaded")

    assert told == SetAside(match_id, "rookie", 1, 2, None, (11, 22), "its game state cannot be loaded")
    row = await storage.matches.get(match_id)
    assert (row.status, row.state, row.turn) == ("set_aside", "kept", 1)
    assert await stored(target, match_id, "note") == ("its game state cannot be loaded",)
    assert await storage.matches.move_log(match_id) == [(0, 0, {"n": 1})]
    assert await storage.matches.running() == []
    assert not await storage.matches.record_move(match_id, turn=1, seat=1, user_id=22, move={}, state="no")


async def test_only_a_running_match_can_be_set_aside(storage):
    lobby = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={}
    )
    running = await running_match(storage)
    assert await storage.matches.set_aside(lobby.id, "why") is None
    assert await storage.matches.set_aside(running, "why") is not None
    assert await storage.matches.set_aside(running, "again") is None
    assert await storage.matches.set_aside(9999, "why") is None
    assert (await storage.matches.get(lobby.id)).status == "lobby"


async def test_a_bot_restarted_on_a_database_with_an_unreadable_match_starts(target, caplog):
    first = await open_storage(target)
    broken = await running_match(first)
    await first.close()
    await corrupt(target, broken, "timeouts", "")

    reopened = await open_storage(target)
    try:
        rows, set_aside = await reopened.matches.resume_running(timedelta(0))
    finally:
        await reopened.close()
    assert (rows, [match.id for match in set_aside]) == ([], [broken])
