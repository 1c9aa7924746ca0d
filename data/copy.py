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
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, func, select, text
from sqlalchemy.exc import IntegrityError

from data.dialects import shown_url
from data.model import StorageError
from data.storage import Storage
from data.tables import metadata

# Every table of the schema, each after the tables it refers to.
TABLES = (
    "matches",
    "seats",
    "moves",
    "takebacks",
    "results",
    "result_seats",
    "achievements",
    "ratings",
    "rated_opponents",
    "guild_settings",
    "member_languages",
    "meta",
    "seasons",
    "season_standings",
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_tables",
)
# Tables whose ids the database gives (an identity column): PostgreSQL goes on from SQLite's.
NUMBERED = tuple(
    table.name for table in metadata.sorted_tables if table.c.get("id") is not None and table.c.id.identity
)
BATCH = 10_000


async def copy(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy every table of the SQLite database at `sqlite_path` into the empty PostgreSQL
    database at `url`; returns how many rows each table had. Raises `StorageError` saying what
    to do when either database cannot be used, the target is not empty or a row cannot be copied."""
    if not sqlite_path.is_file():
        raise StorageError(f"There is no SQLite database at {sqlite_path}; give the path of the bot's file.")
    await (await Storage.open(sqlite_path)).close()  # the current schema, as the bot would leave it
    target = await Storage.open(url)
    try:
        with closing(
            sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True, check_same_thread=False)
        ) as source:
            return await target.run(partial(_copy_all, source, url), transaction=True)
    finally:
        await target.close()


def _copy_all(source: sqlite3.Connection, url: str, connection: Connection) -> dict[str, int]:
    _refuse_unless_empty(connection, url)
    counts = {name: _copy_table(source, connection, metadata.tables[name]) for name in TABLES}
    for table in NUMBERED:
        _advance_ids(source, connection, table)
    return counts


def _refuse_unless_empty(connection: Connection, url: str) -> None:
    held = {
        name: connection.execute(select(func.count()).select_from(metadata.tables[name])).scalar_one()
        for name in TABLES
    }
    if any(held.values()):
        rows = ", ".join(f"{count} in {table}" for table, count in held.items() if count)
        raise StorageError(
            f"The PostgreSQL database at {shown_url(url)} is not empty ({rows}); copy into a new, "
            "empty database (e.g. createdb game_table) so that nothing is mixed or overwritten."
        )


def _copy_table(source: sqlite3.Connection, connection: Connection, table: Table) -> int:
    """Copy one table (in batches), each value as the column's type wants it."""
    columns = [row[1] for row in source.execute(f"PRAGMA table_info({table.name})")]
    cursor = source.execute(f"SELECT rowid, {', '.join(columns)} FROM {table.name} ORDER BY rowid")
    copied = 0
    while batch := cursor.fetchmany(BATCH):
        records = list(_converted(table, columns, batch))
        try:
            connection.execute(table.insert(), records)
        except IntegrityError as error:
            raise StorageError(
                f"Table {table.name} of the SQLite database has rows PostgreSQL refuses ({error.orig}); list "
                "rows that point at missing rows with `sqlite3 FILE 'PRAGMA foreign_key_check'`, repair or "
                "delete them, then copy again: nothing was copied."
            ) from error
        copied += len(records)
    return copied


def _converted(table: Table, columns: list[str], rows: list[tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    convert = [table.c[column].type.python_type for column in columns]
    for rowid, *values in rows:
        try:
            yield {
                column: None if value is None else as_type(value)
                for column, as_type, value in zip(columns, convert, values, strict=True)
            }
        except ValueError as error:
            raise StorageError(
                f"Row {rowid} of table {table.name} in the SQLite database has a value PostgreSQL cannot "
                f"store ({error}; columns {', '.join(columns)}); repair or delete that row "
                "(e.g. with the sqlite3 shell), then copy again: nothing was copied."
            ) from error


def _advance_ids(source: sqlite3.Connection, connection: Connection, table: str) -> None:
    """Set the id sequence of `table` past the highest id SQLite ever gave (AUTOINCREMENT's
    counter is ahead of the highest id when the newest rows were deleted)."""
    (counter,) = source.execute(
        f"SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0), "
        f"COALESCE((SELECT MAX(id) FROM {table}), 0))"
    ).fetchone()
    connection.execute(
        text("SELECT setval(pg_get_serial_sequence(:table, 'id'), :counter, :called)"),
        {"table": table, "counter": max(counter, 1), "called": counter > 0},
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
