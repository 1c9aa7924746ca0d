"""Shared fixtures: a bot on a real SQLite file, driven through SimCord."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import create_bot


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
