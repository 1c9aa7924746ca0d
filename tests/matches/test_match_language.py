"""A match keeps the language its lobby opened in: stored with it, through its start, a
restart and a set-aside notice; matches stored before languages existed speak English."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from data import open_storage
from tests.backends import Target
from tests.data.legacy import migrations

STAMP = "2026-01-01T12:00:00+00:00"


async def open_german_lobby(storage):
    lobby = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=7, options={}, language="de"
    )
    assert await storage.matches.join_lobby(lobby.id, 22, 6)
    return lobby


async def test_a_match_opened_in_german_is_german_when_it_runs_and_after_a_restart(target: Target):
    storage = await open_storage(target)
    try:
        lobby = await open_german_lobby(storage)
        assert await storage.matches.start(lobby.id, "{}")
    finally:
        await storage.close()

    restarted = await open_storage(target)
    try:
        running, _ = await restarted.matches.resume_running(timedelta(0))
        stored = await restarted.matches.get(lobby.id)
    finally:
        await restarted.close()

    assert lobby.language == "de" and stored is not None and stored.language == "de"
    assert [row.language for row in running if row.id == lobby.id] == ["de"]


async def test_a_lobby_opened_without_a_language_is_english(target: Target):
    storage = await open_storage(target)
    try:
        lobby = await storage.matches.open_lobby(
            game="tremember", guild_id=1, channel_id=2, host_id=11, seed=7, options={}
        )
    finally:
        await storage.close()

    assert lobby.language == "en"


async def test_the_notice_of_a_match_set_aside_speaks_its_language(target: Target):
    storage = await open_storage(target)
    try:
        lobby = await open_german_lobby(storage)
        await storage.matches.start(lobby.id, "{}")
        aside = await storage.matches.set_aside(lobby.id, "its stored position is unreadable")
    finally:
        await storage.close()

    assert aside is not None and aside.language == "de" and aside.players == (11, 22)


async def test_a_match_stored_before_languages_existed_speaks_english(tmp_path: Path):
    path = tmp_path / "older.db"
    with sqlite3.connect(path) as raw:
        for migration in migrations():
            if migration.number < 7:
                for statement in migration.statements:
                    raw.execute(statement)
        raw.execute("PRAGMA user_version=6")
        raw.execute(
            "INSERT INTO matches (id, game, guild_id, channel_id, host_id, status, seed, options, "
            "created_at, updated_at) VALUES (1, 'rookie', 1, 2, 11, 'lobby', 7, '{}', ?, ?)",
            (STAMP, STAMP),
        )
        raw.execute("INSERT INTO seats (match_id, seat, user_id) VALUES (1, 0, 11)")
    raw.close()

    storage = await open_storage(path)
    try:
        stored = await storage.matches.get(1)
    finally:
        await storage.close()

    assert stored is not None and stored.language == "en"
