"""A database that refuses a call is a clear error, and nothing of the call is half-written."""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from data.storage import Storage, StorageError, StorageUnavailable
from tests.data.privileges import open_without_override
from tests.data.tracing import running_match, sql

AS_ROOT = os.geteuid() == 0


@pytest.fixture
def backend() -> str:
    """SQLite's own refusals (locks, page limits, file permissions); test_postgres.py has PostgreSQL's."""
    return "sqlite"


@contextmanager
def write_lock_held_elsewhere(database: Path) -> Iterator[None]:
    """Another process's connection holding the database's write lock until the block ends."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_move_meeting_a_database_busy_past_its_wait_saves_nothing_and_goes_through_later(database):
    storage = await Storage.open(database, wait_ms=50)
    match_id = await running_match(storage)

    def move():
        return storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 1}, state="one")

    with write_lock_held_elsewhere(database), pytest.raises(StorageUnavailable) as refused:
        await move()

    assert str(refused.value) == (
        "The game's database is busy or out of space right now — nothing was saved; try again in a moment."
    )
    assert isinstance(refused.value, StorageError)
    assert (await storage.matches.get(match_id)).turn == 0
    assert await move()  # the lock is released: the same move is saved, once
    assert (await storage.matches.get(match_id)).state == "one"
    assert await storage.matches.move_log(match_id) == [(0, 0, {"n": 1})]
    await storage.close()


async def test_a_move_on_a_full_disk_is_rolled_back_whole_and_goes_through_when_there_is_room(storage):
    match_id = await running_match(storage)
    pages = (await sql(storage, "PRAGMA page_count"))[0][0]
    await sql(storage, f"PRAGMA max_page_count = {pages}")  # the disk is full
    # The match's row is rewritten in place; the long move-log row needs new pages.
    long_move = {"note": "x" * 20_000}

    def move():
        return storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move=long_move, state="one")

    with pytest.raises(StorageUnavailable, match="nothing was saved"):
        await move()

    row = await storage.matches.get(match_id)
    assert (row.turn, row.state) == (0, '{"state": 0}')
    assert await storage.matches.move_log(match_id) == []
    assert not await storage.on_sqlite(lambda connection: connection.in_transaction)
    await sql(storage, f"PRAGMA max_page_count = {pages * 100}")  # room again
    assert await move()
    assert await storage.matches.move_log(match_id) == [(0, 0, long_move)]


async def test_other_database_errors_pass_as_they_are(storage):
    match_id = await running_match(storage)
    await sql(
        storage,
        "CREATE TEMP TRIGGER refuse BEFORE UPDATE ON main.matches BEGIN SELECT RAISE(ABORT, 'no'); END",
    )
    with pytest.raises(sqlite3.IntegrityError) as refused:
        await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
    assert not isinstance(refused.value, StorageError)


async def test_every_commit_reaches_the_disk_before_a_move_counts_as_saved(storage):
    [(synchronous,)] = await sql(storage, "PRAGMA synchronous")
    assert synchronous == 2  # FULL: a power cut loses no acknowledged move


@contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """`path` (a file or folder) without write permission while the block runs."""
    mode = path.stat().st_mode
    path.chmod(mode & 0o555)
    try:
        yield path
    finally:
        path.chmod(mode)


async def made_database(folder: Path) -> Path:
    """A database a bot created and closed in `folder`, with a running match."""
    folder.mkdir(exist_ok=True)
    path = folder / "game_table.db"
    storage = await Storage.open(path)
    await running_match(storage)
    await storage.close()
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="drops Linux capabilities")
@pytest.mark.parametrize("target", ["file", "folder"])
async def test_a_read_only_database_stops_the_bot_at_start_with_one_sentence(tmp_path, target):
    path = await made_database(tmp_path / "data")
    with read_only(path if target == "file" else path.parent):
        said = open_without_override(path)  # run as root, chmod restricts it as any user
    assert said.startswith(f"The database at {path} is read-only (attempt to write a readonly database);")
    assert "DATABASE_PATH" in said


@pytest.mark.skipif(AS_ROOT, reason="root writes a file whatever its permissions")
@pytest.mark.parametrize("target", ["file", "folder"])
async def test_a_read_only_database_is_refused_when_opened(tmp_path, target):
    path = await made_database(tmp_path / "data")
    with read_only(path if target == "file" else path.parent), pytest.raises(StorageError) as refused:
        await Storage.open(path)
    assert str(path) in str(refused.value)
    assert "read-only" in str(refused.value)
    assert "DATABASE_PATH" in str(refused.value)


async def test_a_database_locked_by_another_program_at_start_says_so(database):
    await (await Storage.open(database)).close()
    with write_lock_held_elsewhere(database), pytest.raises(StorageError, match="locked by another program"):
        await Storage.open(database, wait_ms=50)
