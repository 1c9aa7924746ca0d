"""Shared fixtures: a bot on a real database, driven through SimCord. Every test that uses the
bot or a storage runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL names a server
(see tests/backends.py); a test about one backend's own features overrides `backend`.

The bot, discord.py and the storage backends are imported only by the fixtures that use them:
the engine tests import none of them (tests/test_layers.py checks it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.backends import (
    BACKENDS,
    TEST_DATABASE_URL,
    Target,
    create_migrated_database,
    drop_database,
    empty_database,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let every SimCord environment take `SETTLE_S` to settle, so that a test advancing virtual
    hours on a loaded machine fails only on a real hang (a test's own marker wins)."""
    simcord_tests = [item for item in items if "simcord_env" in getattr(item, "fixturenames", ())]
    if not simcord_tests:
        return
    from tests.e2e.helpers import SETTLE_S

    for item in simcord_tests:
        if item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_S))


@pytest.fixture(autouse=True)
async def close_databases(monkeypatch):
    """Close every database a test's bots opened: SimCord does not close a bot it detaches,
    and an open connection's thread would keep pytest from exiting after a failure."""
    from data.storage import Storage

    opened: list[Storage] = []
    monkeypatch.setattr(Storage, "open", classmethod(_recording(Storage.open.__func__, opened)))
    yield
    for storage in opened:
        await storage.close()


def _recording(original, opened: list):
    async def recording_open(cls, where, **options):
        storage = await original(cls, where, **options)
        opened.append(storage)
        return storage

    return recording_open


@pytest.fixture(autouse=True)
def no_error_logs(caplog):
    """Fail any test during which something logged an ERROR: discord.py only logs the
    exceptions raised inside `DynamicItem` and View callbacks, which SimCord cannot see.
    A test that provokes an error on purpose takes the records it expects out of `caplog`."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [
        record
        for phase in ("setup", "call")
        for record in caplog.get_records(phase)
        if record.levelno >= logging.ERROR
    ]
    if errors:
        pytest.fail("Logged errors:\n" + "\n".join(logging.Formatter().format(r) for r in errors))


@pytest.fixture
def seed(monkeypatch):
    """Fix the seed the lobby draws, so a test replays the same deal every run."""

    def use(value: int) -> None:
        fixed = SimpleNamespace(randrange=lambda _: value)
        monkeypatch.setattr("matches.lobby.random", SimpleNamespace(SystemRandom=lambda: fixed))

    return use


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "game_table.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def shared_postgres() -> Iterator[str | None]:
    """One migrated PostgreSQL database for the session's bots, emptied before each test
    (None without TEST_DATABASE_URL)."""
    if not TEST_DATABASE_URL:
        yield None
        return
    url = asyncio.run(create_migrated_database())
    yield url
    asyncio.run(drop_database(url))


@pytest.fixture
async def target(backend: str, database: Path, shared_postgres: str | None) -> Target:
    """The database a test's bot opens: a real SQLite file in its tmp_path, or the session's
    PostgreSQL database, emptied (the storage tests override this with a fresh database each)."""
    if backend == "sqlite" or shared_postgres is None:
        return database
    await empty_database(shared_postgres)
    return shared_postgres


@pytest.fixture
def simcord_bot(target: Target):
    from bot import create_bot

    return create_bot(database=target)
