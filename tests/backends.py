"""The databases the storage tests run on: SQLite always, and PostgreSQL when TEST_DATABASE_URL
names a server (e.g. `URL=$(scripts/postgres start /tmp/pg) && TEST_DATABASE_URL=$URL pytest`),
each test on a fresh database of its own, dropped after it."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import asyncpg
import pytest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
BACKENDS = ("sqlite", "postgres") if TEST_DATABASE_URL else ("sqlite",)
needs_postgres = pytest.mark.skipif(
    not TEST_DATABASE_URL, reason="set TEST_DATABASE_URL to a PostgreSQL server (scripts/postgres start DIR)"
)

Target = Path | str  # what data.open_storage opens: a SQLite file or a PostgreSQL URL


def with_database(url: str, name: str) -> str:
    """`url` naming the database `name` on the same server."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@asynccontextmanager
async def fresh_postgres_database() -> AsyncIterator[str]:
    """The URL of a new, empty database on the TEST_DATABASE_URL server, dropped afterwards."""
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    name = f"test_{uuid4().hex[:16]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(TEST_DATABASE_URL, name)
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


async def create_migrated_database() -> str:
    """A new database on the TEST_DATABASE_URL server with every migration applied: its URL."""
    from data.storage import Storage

    admin = await asyncpg.connect(TEST_DATABASE_URL)
    name = f"test_shared_{uuid4().hex[:16]}"
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = with_database(TEST_DATABASE_URL, name)
    await (await Storage.open(url)).close()
    return url


async def drop_database(url: str) -> None:
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f'DROP DATABASE "{urlsplit(url).path.lstrip("/")}" WITH (FORCE)')
    finally:
        await admin.close()


async def empty_database(url: str) -> None:
    """Empty every table of a migrated database and restart its ids: as good as a fresh one
    for a test, in a fraction of the time (the schema and its migration record stay)."""
    connection = await asyncpg.connect(url)
    try:
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        names = ", ".join(f'"{row["tablename"]}"' for row in tables)
        await connection.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


def _numbered(sql: str) -> str:
    """SQLite's `?` placeholders as PostgreSQL's `$1, $2, …`."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


async def raw(target: Target, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement (`?` placeholders) on the database `target` names from a connection of
    its own, as a hand edit or another program would, and commit it; returns its rows."""
    if isinstance(target, Path):
        with sqlite3.connect(target) as connection:
            rows = connection.execute(sql, params).fetchall()
        connection.close()
        return rows
    connection = await asyncpg.connect(target)
    try:
        return [tuple(row) for row in await connection.fetch(_numbered(sql), *params)]
    finally:
        await connection.close()


class Outage:
    """A TCP relay between the bot and the PostgreSQL server, which can cut every connection
    and refuse new ones (the server is gone) and come back on the same port."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._url = url
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self.port = 0

    @property
    def url(self) -> str:
        """The database's URL through the relay."""
        parts = urlsplit(self._url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Stop listening and close every relayed connection."""
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        self._writers.clear()
        await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        self._writers += [writer, up_writer]
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    async def close(self) -> None:
        if self._server is not None and self._server.is_serving():
            await self.cut()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


async def wait_until(check: Any, *, what: str, tries: int = 400) -> Any:
    """Poll the coroutine function `check` until it returns something true (at most `tries`
    times, 25 ms apart): what it returned."""
    for _ in range(tries):
        if found := await check():
            return found
        await asyncio.sleep(0.025)
    raise AssertionError(f"never saw {what}")


def column_names(rows: Sequence[tuple[Any, ...]]) -> list[Any]:
    return [row[0] for row in rows]
