"""Migrations carry a database of an older version forward without losing a row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.migrate import head
from data.storage import Storage
from tests.data.legacy import migrations
from tests.data.tracing import sql


@pytest.fixture
def backend() -> str:
    """Upgrades of older SQLite files: tests/data/test_postgres.py migrates PostgreSQL."""
    return "sqlite"


def database_at_version(path: Path, version: int) -> None:
    """A database as a bot that had applied migrations up to `version` left it, with a
    finished match (seats, moves, result), a running one and a lobby; the last match created
    was deleted, so the id counter is ahead of the highest id."""
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys=ON")
        for migration in migrations():
            if migration.number <= version:
                for statement in migration.statements:
                    raw.execute(statement)
        raw.execute(f"PRAGMA user_version={version}")
        stamp = "2026-01-01T12:00:00+00:00"
        for match_id, status in ((1, "finished"), (2, "running"), (3, "lobby"), (4, "cancelled")):
            raw.execute(
                "INSERT INTO matches (id, game, guild_id, channel_id, host_id, status, seed, options, "
                "created_at, updated_at, deadline) VALUES (?, 'rookie', 1, 2, 11, ?, 7, '{}', ?, ?, ?)",
                (match_id, status, stamp, stamp, stamp),
            )
            raw.executemany(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)",
                [(match_id, 0, 11), (match_id, 1, 22)],
            )
        raw.execute("INSERT INTO moves VALUES (1, 0, 0, 11, '{}', ?)", (stamp,))
        raw.execute(
            "INSERT INTO results (match_id, game, guild_id, draw, abandoned, duration_s, options, "
            "tiebreak, finished_at) VALUES (1, 'rookie', 1, 0, 0, 60.0, '{}', NULL, ?)",
            (stamp,),
        )
        raw.execute(
            "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner) "
            "VALUES (1, 0, 11, 0, 5, 1)"
        )
        raw.execute("DELETE FROM matches WHERE id = 4")
    raw.close()


def counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as raw:
        found = {
            table: raw.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("matches", "seats", "moves", "results", "result_seats")
        }
    raw.close()
    return found


async def test_setting_matches_aside_arrives_in_an_older_database_with_every_row_kept(tmp_path):
    path = tmp_path / "version3.db"
    database_at_version(path, 3)
    before = counts(path)

    storage = await Storage.open(path)
    try:
        # The rebuilt matches table takes the new status; the others still point at it.
        assert (await storage.matches.set_aside(2, "its stored options are unreadable")).players == (11, 22)
        lobby = await storage.matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=33, seed=1, options={}
        )
        assert (await storage.matches.get(1)).players == [11, 22]
        assert [row.id for row in await storage.matches.lobbies()] == [3, lobby.id]
    finally:
        await storage.close()

    assert lobby.id == 5  # the id of the deleted match is not given again
    assert counts(path) == {**before, "matches": before["matches"] + 1, "seats": before["seats"] + 1}
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head()
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        indexes = raw.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'matches'")
        expected = ["lobbies_by_host", "matches_by_rematch", "matches_by_status"]  # 004's, then 009's
        assert sorted(name for (name,) in indexes) == expected
        assert raw.execute("SELECT status, note FROM matches WHERE id = 2").fetchone() == (
            "set_aside",
            "its stored options are unreadable",
        )
    raw.close()


async def test_foreign_keys_are_on_again_after_the_migrations(database):
    storage = await Storage.open(database)
    try:
        assert (await sql(storage, "PRAGMA foreign_keys"))[0][0] == 1
    finally:
        await storage.close()


async def test_rated_opponents_are_counted_from_the_results_an_older_database_holds(tmp_path):
    path = tmp_path / "version7.db"
    database_at_version(path, 7)
    stamp = "2026-01-01T12:00:00+00:00"
    with sqlite3.connect(path) as raw:  # match 1 rated 11 against 22; match 5 had a computer
        raw.execute("INSERT INTO result_seats VALUES (1, 1, 22, 1, 3, 0, 0, 1000, 940)")
        raw.execute("UPDATE result_seats SET rating_before = 1000, rating_after = 1060 WHERE seat = 0")
        raw.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) "
            "VALUES (1, ?, ?, 25, 8, 1, ?)",
            [(board, user, int(user == 11)) for board in ("rookie", "*") for user in (11, 22)],
        )
        raw.execute(
            "INSERT INTO matches (id, game, guild_id, channel_id, host_id, status, seed, created_at, "
            "updated_at) VALUES (5, 'rookie', 1, 2, 11, 'finished', 7, ?, ?)",
            (stamp, stamp),
        )
        raw.execute("INSERT INTO results VALUES (5, 'rookie', 1, 0, 0, 60.0, '{}', NULL, ?)", (stamp,))
        raw.execute(
            "INSERT INTO result_seats VALUES "
            "(5, 0, 11, 0, 5, 1, 0, NULL, NULL), (5, 1, -11, 1, 2, 0, 0, NULL, NULL)"
        )
    raw.close()

    storage = await Storage.open(path)
    try:
        tables = await storage.league.player_ratings(1, 11)
        recent = await storage.league.recent_results(1)
    finally:
        await storage.close()

    assert [(t["game"], t["games"], t["opponents"], t["listed"]) for t in tables] == [
        ("*", 1, 1, False),
        ("rookie", 1, 1, False),
    ]
    assert [(r["match_id"], r["unrated"]) for r in recent] == [(5, "computers"), (1, None)]


async def test_an_older_database_counts_claims_from_the_last_move_and_keeps_its_resignations(tmp_path):
    path = tmp_path / "version10.db"
    database_at_version(path, 10)
    with sqlite3.connect(path) as raw:  # running match 2 was last moved at noon the next day
        raw.execute("UPDATE matches SET started_at = '2026-01-01T12:00:00+00:00', moved_at = NULL")
        raw.execute("INSERT INTO moves VALUES (2, 0, 0, 11, '{}', '2026-01-02T12:00:00+00:00')")
        raw.execute(
            "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner, resigned) "
            "VALUES (1, 1, 22, 1, 2, 0, 1)"
        )
    raw.close()

    storage = await Storage.open(path)
    try:
        running = await storage.matches.get(2)
        [finished] = await storage.league.recent_results(1)
    finally:
        await storage.close()

    assert running is not None and running.moved_at == "2026-01-02T12:00:00+00:00"
    assert [seat["left"] for seat in finished["seats"]] == [None, "resigned"]


async def test_a_database_made_before_the_one_migration_history_is_continued_with_every_row(tmp_path):
    path = tmp_path / "version11.db"
    database_at_version(path, 11)  # as today's bots leave their files
    before = counts(path)
    with sqlite3.connect(path) as raw:
        raw.execute(
            "INSERT INTO guild_settings (guild_id, clock_s, threads, language) VALUES (1, 600, 1, 'de')"
        )
        raw.execute("INSERT INTO meta (key, value) VALUES ('alive', 'yesterday')")
    raw.close()

    storage = await Storage.open(path)
    try:
        finished, running = await storage.matches.get(1), await storage.matches.get(2)
        [result] = await storage.league.recent_results(1)
        settings = await storage.settings.for_guild(1)
        alive = await storage.settings.get_meta("alive")
        moved = await storage.matches.record_move(2, turn=0, seat=0, user_id=11, move={"n": 1}, state="on")
        lobby = await storage.matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=33, seed=1, options={}
        )
    finally:
        await storage.close()

    assert (finished.status, finished.players, running.status) == ("finished", [11, 22], "running")
    assert (result["match_id"], result["duration_s"], [s["user_id"] for s in result["seats"]]) == (
        1,
        60.0,
        [11],
    )
    assert (settings, alive, moved, lobby.id) == ((600, None, True), "yesterday", True, 5)
    assert counts(path) == {**before, "matches": 4, "seats": 7, "moves": 2}
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [(head(),)]
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 11  # the old record, left as it was
    raw.close()
