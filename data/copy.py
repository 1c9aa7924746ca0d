"""Move a SQLite game-table database into an empty PostgreSQL database:

    python -m data.copy SQLITE_PATH POSTGRES_URL

The SQLite file is first brought to the current schema (as the bot does when it starts), then
every table is copied in one PostgreSQL transaction with its ids kept, and the match id sequence
is set past SQLite's counter: a match id is never given twice. Stop the bot first; the SQLite
file is only read and stays as it was, so going back is keeping DATABASE_URL unset.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data.model import StorageError
from data.postgres import PostgresStorage, shown_url
from data.storage import Storage

# Every table of the schema, each after the tables it refers to.
TABLES = (
    "matches",
    "seats",
    "moves",
    "results",
    "result_seats",
    "ratings",
    "rated_opponents",
    "guild_settings",
    "member_languages",
    "meta",
)
BATCH = 10_000
_CONVERT: dict[str, Callable[[Any], Any]] = {"bigint": int, "double precision": float, "text": str}


async def copy(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy every table of the SQLite database at `sqlite_path` into the empty PostgreSQL
    database at `url`; returns how many rows each table had. Raises `StorageError` saying what
    to do when either database cannot be used, the target is not empty or a row cannot be copied."""
    if not sqlite_path.is_file():
        raise StorageError(f"There is no SQLite database at {sqlite_path}; give the path of the bot's file.")
    await (await Storage.open(sqlite_path)).close()  # the current schema, as the bot would leave it
    target = await PostgresStorage.open(url)
    try:
        async with target.pool.acquire() as connection, connection.transaction():
            await _refuse_unless_empty(connection, url)
            with closing(sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)) as source:
                counts = {table: await _copy_table(source, connection, table) for table in TABLES}
                await _advance_match_ids(source, connection)
    finally:
        await target.close()
    return counts


async def _refuse_unless_empty(connection: PoolConnectionProxy, url: str) -> None:
    held = {table: await connection.fetchval(f"SELECT COUNT(*) FROM {table}") for table in TABLES}
    if any(held.values()):
        rows = ", ".join(f"{count} in {table}" for table, count in held.items() if count)
        raise StorageError(
            f"The PostgreSQL database at {shown_url(url)} is not empty ({rows}); copy into a new, "
            "empty database (e.g. createdb game_table) so that nothing is mixed or overwritten."
        )


async def _copy_table(source: sqlite3.Connection, connection: PoolConnectionProxy, table: str) -> int:
    """Copy one table (binary COPY, in batches), each value as PostgreSQL's column type wants it."""
    types: dict[str, str] = {
        name: kind
        for name, kind in await connection.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
    }
    columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
    convert = [_CONVERT[types[column]] for column in columns]
    cursor = source.execute(f"SELECT rowid, {', '.join(columns)} FROM {table} ORDER BY rowid")
    copied = 0
    while batch := cursor.fetchmany(BATCH):
        records = list(_converted(table, columns, convert, batch))
        try:
            await connection.copy_records_to_table(table, records=records, columns=columns)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise StorageError(
                f"Table {table} of the SQLite database has rows PostgreSQL refuses ({error}); list rows "
                "that point at missing rows with `sqlite3 FILE 'PRAGMA foreign_key_check'`, repair or "
                "delete them, then copy again: nothing was copied."
            ) from error
        copied += len(records)
    return copied


def _converted(
    table: str, columns: list[str], convert: list[Callable[[Any], Any]], rows: list[tuple[Any, ...]]
) -> Iterator[tuple[Any, ...]]:
    for rowid, *values in rows:
        try:
            yield tuple(
                None if value is None else as_type(value)
                for as_type, value in zip(convert, values, strict=True)
            )
        except ValueError as error:
            raise StorageError(
                f"Row {rowid} of table {table} in the SQLite database has a value PostgreSQL cannot "
                f"store ({error}; columns {', '.join(columns)}); repair or delete that row "
                "(e.g. with the sqlite3 shell), then copy again: nothing was copied."
            ) from error


async def _advance_match_ids(source: sqlite3.Connection, connection: PoolConnectionProxy) -> None:
    """Set the match id sequence past the highest id SQLite ever gave (AUTOINCREMENT's counter
    is ahead of the highest id when the newest matches were deleted)."""
    (counter,) = source.execute(
        "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'matches'), 0), "
        "COALESCE((SELECT MAX(id) FROM matches), 0))"
    ).fetchone()
    await connection.execute(
        "SELECT setval(pg_get_serial_sequence('matches', 'id'), $1, $2)", max(counter, 1), counter > 0
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.copy", description=__doc__.split("\n\n")[0])
    parser.add_argument("sqlite_path", type=Path, help="the bot's SQLite file (e.g. data/game_table.db)")
    parser.add_argument("postgres_url", help="postgresql://user:password@host:port/database, empty")
    arguments = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy(arguments.sqlite_path, arguments.postgres_url))
    except StorageError as error:
        print(error, file=sys.stderr)
        return 1
    rows = ", ".join(f"{count} {table}" for table, count in counts.items())
    print(f"Copied {rows} into {shown_url(arguments.postgres_url)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
