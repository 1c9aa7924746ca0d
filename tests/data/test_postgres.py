"""PostgreSQL's own part: one schema with SQLite's, migrations run once however many processes
start, a move applied once whichever process makes it, and a server that refuses or goes away."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

from data import open_storage
from data.dialects import MIGRATION_LOCK
from data.migrate import head
from data.model import StorageError, StorageUnavailable
from data.storage import Storage
from data.tables import metadata
from tests.backends import Outage, needs_postgres, raw, wait_until
from tests.data.legacy import postgres_at_011
from tests.data.tracing import finish, running_match

pytestmark = needs_postgres


@pytest.fixture
def backend() -> str:
    """These tests are about PostgreSQL."""
    return "postgres"


# SQLite's column types and what the PostgreSQL forms of the migrations make of them.
TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}


def sqlite_schema(path: Path) -> dict[str, Any]:
    """Tables (columns in order: name, type, nullable, default, auto-numbered), keys, foreign
    keys, CHECK lists and created indexes of a SQLite database, in PostgreSQL's words."""
    connection = sqlite3.connect(path)
    schema: dict[str, Any] = {}
    tables = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name <> 'alembic_version'"
    ).fetchall()
    for table, sql in tables:
        columns = connection.execute(f"PRAGMA table_info({table})").fetchall()
        indexes = connection.execute(f"PRAGMA index_list({table})").fetchall()
        schema[table] = {
            "columns": [
                (name, TYPES[kind], not (notnull or pk), default, "AUTOINCREMENT" in sql and pk == 1)
                for _, name, kind, notnull, default, pk in columns
            ],
            "primary key": [name for *_, name, _, _, _, pk in sorted(columns, key=lambda c: c[5]) if pk],
            "unique": sorted(
                [row[2] for row in connection.execute(f"PRAGMA index_info({index[1]})")]
                for index in indexes
                if index[3] == "u"
            ),
            "foreign keys": sorted(
                (f[3], f[2], f[4], f[6]) for f in connection.execute(f"PRAGMA foreign_key_list({table})")
            ),
            "checks": sorted(_quoted(_check(sql))),
            "indexes": {
                index[1]: _sqlite_index(connection, index[1]) for index in indexes if index[3] == "c"
            },
        }
    connection.close()
    return schema


def _quoted(sql: str) -> list[str]:
    """The quoted literals of some SQL: the values a CHECK allows."""
    return re.findall(r"'([^']*)'", sql)


def _check(sql: str) -> str:
    """The CHECK clause of a CREATE TABLE (the values it allows), or ''."""
    found = re.search(r"CHECK \((.*?)\)\)", sql, re.S)
    return found.group(1) if found else ""


def _sqlite_index(connection: sqlite3.Connection, name: str) -> list[tuple[str, bool]]:
    """An index's key columns (an expression as 'expression') and whether each sorts descending."""
    return [
        (column or "expression", bool(desc))
        for _, _, column, desc, _, key in connection.execute(f"PRAGMA index_xinfo({name})")
        if key
    ]


async def postgres_schema(url: str) -> dict[str, Any]:
    """The same description of a PostgreSQL database (its record of the migrations aside)."""
    connection = await asyncpg.connect(url)
    try:
        schema: dict[str, Any] = {}
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_name <> 'alembic_version'"
        )
        for (table,) in tables:
            schema[table] = await _postgres_table(connection, table)
        return schema
    finally:
        await connection.close()


async def _postgres_table(connection: asyncpg.Connection, table: str) -> dict[str, Any]:
    columns = await connection.fetch(
        "SELECT column_name, data_type, is_nullable, column_default, is_identity, collation_name "
        "FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 "
        "ORDER BY ordinal_position",
        table,
    )
    for name, kind, *_, collation in columns:
        assert kind != "text" or collation == "C", f"{table}.{name} compares text as SQLite does not"
    constraints = await connection.fetch(
        "SELECT contype::text, pg_get_constraintdef(oid), "
        "ARRAY(SELECT attname FROM unnest(conkey) WITH ORDINALITY AS k(n, i) "
        "JOIN pg_attribute ON attrelid = conrelid AND attnum = n ORDER BY i) "
        "FROM pg_constraint WHERE conrelid = $1::regclass",
        table,
    )
    indexes = await connection.fetch(
        "SELECT c.relname, i.indnatts, i.indoption::int2[], i.indexrelid FROM pg_index AS i "
        "JOIN pg_class AS c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid)",
        table,
    )
    return {
        "columns": [
            (name, kind, nullable == "YES", _default(default), identity == "YES")
            for name, kind, nullable, default, identity, _ in columns
        ],
        "primary key": next(list(keys) for kind, _, keys in constraints if kind == "p"),
        "unique": sorted(list(keys) for kind, _, keys in constraints if kind == "u"),
        "foreign keys": sorted(_foreign_key(sql) for kind, sql, _ in constraints if kind == "f"),
        "checks": sorted(value for kind, sql, _ in constraints if kind == "c" for value in _quoted(sql)),
        "indexes": {
            name: [
                (await _index_column(connection, oid, position), bool(options[position - 1] & 1))
                for position in range(1, count + 1)
            ]
            for name, count, options, oid in indexes
        },
    }


def _default(default: str | None) -> str | None:
    """A column default without PostgreSQL's cast: "'{}'::text" is SQLite's "'{}'"."""
    return None if default is None else re.sub(r"::[a-z ]+$", "", default)


def _foreign_key(definition: str) -> tuple[str, str, str, str]:
    """'FOREIGN KEY (match_id) REFERENCES matches(id) ON DELETE CASCADE' as SQLite's pragma says it."""
    pattern = r"FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)(?: ON DELETE (\w+(?: \w+)?))?"
    found = re.fullmatch(pattern, definition)
    assert found, definition
    column, table, to, on_delete = found.groups()
    return (column, table, to, on_delete or "NO ACTION")


async def _index_column(connection: asyncpg.Connection, index: int, position: int) -> str:
    definition = await connection.fetchval("SELECT pg_get_indexdef($1::oid, $2, true)", index, position)
    return definition if re.fullmatch(r"\w+", definition) else "expression"


async def test_both_backends_build_the_same_schema_column_by_column(tmp_path, target):
    await (await Storage.open(tmp_path / "fresh.db")).close()
    await (await Storage.open(target)).close()

    on_sqlite, on_postgres = sqlite_schema(tmp_path / "fresh.db"), await postgres_schema(target)

    assert sorted(on_postgres) == sorted(on_sqlite)
    for table in on_sqlite:
        assert on_postgres[table] == on_sqlite[table], table
    assert on_sqlite["matches"]["columns"][0] == ("id", "bigint", False, None, True)
    assert "set_aside" in on_sqlite["matches"]["checks"]
    assert on_sqlite["ratings"]["indexes"]["ratings_by_rank"][2] == ("expression", True)


def test_one_migration_history_serves_both_backends():
    migrations = Path(__file__).resolve().parents[2] / "data" / "migrations"
    assert not list(migrations.rglob("*.sql"))  # no second set of SQL files
    assert sorted(path.name for path in migrations.glob("v*.py"))[-1].startswith(f"v{head()}_")


async def test_two_processes_starting_together_migrate_once(target):
    first, second = await asyncio.gather(Storage.open(target), Storage.open(target))
    try:
        lobby = await first.matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={}
        )
        assert (await second.matches.get(lobby.id)).players == [11]
    finally:
        await first.close()
        await second.close()
    assert await raw(target, "SELECT version_num FROM alembic_version") == [(head(),)]


async def test_a_process_starting_while_another_migrates_waits_for_it(target):
    holder = await asyncpg.connect(target)  # as a process in the middle of migrating would
    await holder.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
    # A long migration: the waiting process waits past its lock timeout for rows.
    opening = asyncio.create_task(Storage.open(target, wait_ms=1))

    async def waiting_for_the_lock() -> bool:
        return bool(
            await holder.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND classid = $1 AND objid = $2",
                *MIGRATION_LOCK,
            )
        )

    await wait_until(waiting_for_the_lock, what="the second process waiting for the migration lock")
    assert not opening.done()
    assert not await holder.fetchval("SELECT to_regclass('matches') IS NOT NULL")  # it migrated nothing yet
    await holder.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
    await holder.close()
    storage = await opening
    try:
        settings = await storage.run(
            lambda connection: connection.exec_driver_sql("SELECT current_setting('lock_timeout')").scalar()
        )
    finally:
        await storage.close()
    assert settings == "1ms"  # the pool's connections keep theirs
    assert await raw(target, "SELECT version_num FROM alembic_version") == [(head(),)]


async def test_moves_racing_from_two_processes_are_each_applied_exactly_once(storage, target):
    other = await open_storage(target)  # a second bot process on the same database
    match_id = await running_match(storage, (11, 22))
    try:
        for turn in range(10):
            saved = await asyncio.gather(
                *(
                    (storage, other)[n % 2].matches.record_move(
                        match_id, turn=turn, seat=turn % 2, user_id=11, move={"n": n}, state=f"{turn}.{n}"
                    )
                    for n in range(6)
                )
            )
            assert sorted(saved) == [False] * 5 + [True]
    finally:
        await other.close()
    row = await storage.matches.get(match_id)
    assert row.turn == 10
    assert [turn for turn, _, _ in await storage.matches.move_log(match_id)] == list(range(10))


async def test_final_moves_racing_from_two_processes_store_one_result_and_rate_once(storage, target):
    other = await open_storage(target)
    match_id = await running_match(storage, (11, 22))
    try:
        saved = await asyncio.gather(
            *(finish(s, match_id, (11, 22)) for s in (storage, other, storage, other))
        )
    finally:
        await other.close()
    assert sorted(saved) == [False, False, False, True]
    records = [(await storage.league.player_ratings(1, user))[1] for user in (11, 22)]
    assert [(row["game"], row["games"], row["wins"]) for row in records] == [
        ("rookie", 1, 1),
        ("rookie", 1, 0),
    ]
    assert len(await storage.league.recent_results(1)) == 1


async def test_results_of_one_server_finishing_together_in_two_processes_both_count(storage, target):
    other = await open_storage(target)
    # One winner against six members (the same two members would be rated three times a day).
    matches = [await running_match(storage, (11, 22 + n)) for n in range(6)]
    try:
        saved = await asyncio.gather(
            *(finish((storage, other)[n % 2], match_id, (11, 22 + n)) for n, match_id in enumerate(matches))
        )
    finally:
        await other.close()
    assert all(saved)
    # Each result was rated from the ratings the previous one wrote: none was lost.
    table = await storage.league.leaderboard(1, "*", offset=0, limit=10)
    assert [(row["user_id"], row["games"], row["wins"]) for row in table] == [(11, 6, 6)]
    winner = sorted([(await storage.league.rating_changes(m))[0] for m in matches])
    # Each match rated the winner from where the previous one left them: a chain, no step lost.
    assert [before for before, _ in winner[1:]] == [after for _, after in winner[:-1]]


async def test_a_move_whose_connection_is_cut_saves_nothing_and_goes_through_later(storage, target):
    match_id = await running_match(storage)
    holder = await asyncpg.connect(target)  # another writer holds the match's row
    await holder.execute("BEGIN")
    await holder.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)

    def move():
        return storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 1}, state="one")

    moving = asyncio.create_task(move())

    async def waiting_move() -> int:
        return int(
            await holder.fetchval(
                "SELECT pid FROM pg_stat_activity WHERE application_name = 'game-table' "
                "AND wait_event_type = 'Lock' AND datname = current_database()"
            )
            or 0
        )

    pid = await wait_until(waiting_move, what="the move waiting for the row")
    await holder.execute("SELECT pg_terminate_backend($1)", pid)  # the connection is cut mid-move
    with pytest.raises(StorageUnavailable, match="nothing was saved"):
        await moving
    await holder.execute("ROLLBACK")
    await holder.close()

    assert (await storage.matches.get(match_id)).turn == 0
    assert await storage.matches.move_log(match_id) == []
    assert await move()  # the pool connects again: the same move is saved, once
    assert await storage.matches.move_log(match_id) == [(0, 0, {"n": 1})]


async def test_a_row_held_past_the_lock_timeout_is_a_refusal_for_now(target):
    storage = await Storage.open(target, wait_ms=100)
    match_id = await running_match(storage)
    holder = await asyncpg.connect(target)
    await holder.execute("BEGIN")
    await holder.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
    try:
        with pytest.raises(StorageUnavailable) as refused:
            await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
        assert isinstance(refused.value.__cause__, asyncpg.LockNotAvailableError)
    finally:
        await holder.execute("ROLLBACK")
        await holder.close()
    assert await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
    await storage.close()


async def test_calls_while_the_server_is_gone_are_refused_for_now_and_work_when_it_is_back(target):
    relay = Outage(target)
    await relay.start()
    storage = await Storage.open(relay.url)
    try:
        match_id = await running_match(storage)
        await relay.cut()  # the server is gone: connections cut, new ones refused

        with pytest.raises(StorageUnavailable):
            await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
        with pytest.raises(StorageUnavailable):
            await storage.matches.get(match_id)
        with pytest.raises(StorageUnavailable):
            await storage.settings.set_meta("alive", "now")

        await relay.start()  # back on the same address
        assert await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
        assert (await storage.matches.get(match_id)).turn == 1
    finally:
        await storage.close()
        await relay.close()


async def test_an_unreachable_server_at_start_is_one_sentence_without_the_password(target):
    relay = Outage(target)
    await relay.start()
    await relay.cut()  # nothing listens on that port
    url = relay.url.replace("postgres@", "postgres:hunter2@")
    with pytest.raises(StorageError) as refused:
        await open_storage(url)
    said = str(refused.value)
    assert said.startswith(
        f"Cannot reach the PostgreSQL server at postgresql://postgres@127.0.0.1:{relay.port}/"
    )
    assert "DATABASE_URL" in said
    assert "hunter2" not in said


async def test_a_read_only_database_stops_the_bot_at_start_with_one_sentence(target):
    name = target.rsplit("/", 1)[1]
    await raw(target, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    with pytest.raises(StorageError) as refused:
        await open_storage(target)
    assert "is read-only" in str(refused.value)
    assert "DATABASE_URL" in str(refused.value)


async def test_a_database_of_another_program_is_refused_clearly(target):
    await raw(target, "CREATE TABLE matches (id TEXT)")  # a table of another program
    with pytest.raises(StorageError, match=r"cannot be used .* game-table database"):
        await open_storage(target)


async def test_other_database_errors_pass_as_they_are(storage, target):
    match_id = await running_match(storage)
    await raw(target, "ALTER TABLE moves ADD CONSTRAINT no_moves CHECK (turn < 0)")
    with pytest.raises(asyncpg.CheckViolationError) as refused:
        await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="x")
    assert not isinstance(refused.value, StorageError)
    assert (await storage.matches.get(match_id)).turn == 0  # the match's update went with it


async def test_a_database_made_before_the_one_migration_history_is_continued_with_every_row(target):
    await postgres_at_011(target)  # as today's bots leave their databases
    stamp = "2026-01-01T12:00:00+00:00"
    await raw(
        target,
        "INSERT INTO matches (game, guild_id, channel_id, host_id, status, seed, state, turn, created_at, "
        "started_at, updated_at, moved_at) VALUES ('rookie', 1, 2, 11, 'running', 7, 's', 1, ?, ?, ?, ?), "
        "('rookie', 1, 2, 11, 'finished', 7, 's', 1, ?, ?, ?, ?)",
        *[stamp] * 8,
    )
    await raw(target, "INSERT INTO seats VALUES (1, 0, 11), (1, 1, 22), (2, 0, 11), (2, 1, 22)")
    await raw(target, "INSERT INTO moves VALUES (1, 0, 0, 11, '{}', ?)", stamp)
    await raw(
        target,
        "INSERT INTO results (match_id, game, guild_id, draw, duration_s, options, finished_at) "
        "VALUES (2, 'rookie', 1, 0, 60.0, '{}', ?)",
        stamp,
    )
    await raw(
        target,
        "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner) VALUES (2, 0, 11, 0, 5, 1)",
    )
    await raw(target, "INSERT INTO meta VALUES ('alive', 'yesterday')")

    storage = await Storage.open(target)
    try:
        running = await storage.matches.get(1)
        [result] = await storage.league.recent_results(1)
        alive = await storage.settings.get_meta("alive")
        moved = await storage.matches.record_move(1, turn=1, seat=0, user_id=11, move={"n": 1}, state="on")
        lobby = await storage.matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=33, seed=1, options={}
        )
        log = await storage.matches.move_log(1)
    finally:
        await storage.close()

    assert (running.status, running.players, running.state) == ("running", [11, 22], "s")
    assert (result["match_id"], [s["user_id"] for s in result["seats"]], alive) == (2, [11], "yesterday")
    assert (moved, lobby.id, log) == (True, 3, [(0, 0, {}), (1, 0, {"n": 1})])
    assert await raw(target, "SELECT version_num FROM alembic_version") == [(head(),)]
    assert len(await raw(target, "SELECT number FROM schema_migrations")) == 11  # left as it was


async def test_the_tables_the_queries_use_are_the_tables_the_migrations_make(storage):
    def differences(connection: Connection) -> list[Any]:
        return compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), metadata)

    assert await storage.run(differences) == []
