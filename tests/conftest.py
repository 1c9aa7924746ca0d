"""Shared fixtures: a bot on a real SQLite file, driven through SimCord."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import create_bot
from data.storage import Storage


@pytest.fixture(autouse=True)
async def close_databases(monkeypatch):
    """Close every database a test's bots opened: SimCord does not close a bot it detaches,
    and an open connection's thread would keep pytest from exiting after a failure."""
    opened: list[Storage] = []
    original = Storage.open.__func__

    async def recording_open(cls, path, **options):
        storage = await original(cls, path, **options)
        opened.append(storage)
        return storage

    monkeypatch.setattr(Storage, "open", classmethod(recording_open))
    yield
    for storage in opened:
        await storage.close()


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


@pytest.fixture
def simcord_bot(database: Path):
    return create_bot(database=database)


@dataclass
class Table:
    """A server with a games channel and four members."""

    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    dave: object

    @property
    def players(self) -> list:
        return [self.alice, self.bob, self.carol, self.dave]


@pytest.fixture
def table(simcord_env) -> Table:
    guild = simcord_env.create_guild("Game Night")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return Table(simcord_env, guild, channel, *members)
