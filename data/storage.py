"""The storage: `Storage` opens a database on either backend (data/dialects.py), migrates it
(data/migrate.py) and offers the interface of `data.repositories` through one implementation of
every query (data/queries.py, SQLAlchemy Core). The bot reaches the data through the
repositories: `storage.matches`, `storage.league`, `storage.settings`, `storage.takebacks`,
`storage.achievements`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy.exc import DBAPIError

from data import sqlite_path
from data.achievements import Achievements
from data.dialects import Connections, Dialect, OneConnection, Postgres, Sqlite, Work
from data.migrate import migrate
from data.model import MatchResult, MatchRow, SeatResult, SetAside, StorageError, StorageUnavailable, now_iso
from data.queries import League, Matches, Settings
from data.runner import Runner
from data.seasons import Seasons
from data.takebacks import Takebacks
from data.tournaments import Tournaments

__all__ = [
    "MatchResult",
    "MatchRow",
    "SeatResult",
    "SetAside",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "now_iso",
]

WAIT_MS = 5000
T = TypeVar("T")


class Storage:
    """An open database and its repositories (implements `data.repositories.Database`)."""

    def __init__(self, dialect: Dialect, connections: Connections) -> None:
        self._db = Runner(dialect, connections)
        self.league = League(self._db)
        self.matches = Matches(self._db, self.league)
        self.settings = Settings(self._db)
        self.takebacks = Takebacks(self._db)
        self.seasons = Seasons(self._db)
        self.achievements = Achievements(self._db)
        self.tournaments = Tournaments(self._db)

    @classmethod
    async def open(cls, target: str | Path | None, *, wait_ms: int = WAIT_MS, max_size: int = 10) -> Storage:
        """Open the database `target` names (see `data.open_storage`), creating and migrating it
        if needed, and prove that it can be written. `wait_ms`: how long a call waits for a lock
        another connection holds before it raises `StorageUnavailable`; `max_size`: the most
        connections this process holds (PostgreSQL)."""
        try:
            path = sqlite_path(target)
        except ValueError as error:
            raise StorageError(str(error)) from error
        dialect: Dialect = Postgres(str(target)) if path is None else Sqlite(path)
        storage = cls(dialect, dialect.connections(wait_ms, max_size))
        try:
            with storage._db.faults():
                await migrate(dialect, storage._db.connections)
            await storage._prove_writable()
        except Exception as error:
            if not isinstance(error, (StorageError, DBAPIError, OSError, TimeoutError, *dialect.errors)):
                raise
            await storage.close()
            cause = dialect.driver_error(error) if isinstance(error, DBAPIError) else error
            raise dialect.unusable(cause) from error
        return storage

    @property
    def dialect(self) -> str:
        """The backend: "sqlite" or "postgresql"."""
        return self._db.dialect.name

    async def run(self, work: Work[T], *, transaction: bool = False) -> T:
        """Run `work` (synchronous SQLAlchemy calls on one connection), in one transaction or
        not: for tools that load rows in bulk (the copy command, benchmarks) and for tests; the
        bot goes through the repositories."""
        return await (self._db.transaction(work) if transaction else self._db.run(work))

    async def on_sqlite(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` with SQLite's one connection itself, in its thread: for diagnostics and
        tests (tracing, EXPLAIN, pragmas)."""
        connections = self._db.connections
        if not isinstance(connections, OneConnection):
            raise TypeError("Only a SQLite storage has one connection of its own.")
        return await connections.on_driver(work)

    async def close(self) -> None:
        await self._db.connections.close()

    async def _prove_writable(self) -> None:
        """Fail at start-up, not at the first move, when the database cannot be written (a
        read-only file or folder, a standby server): a write that is rolled back."""
        await self._db.transaction(
            lambda connection: connection.exec_driver_sql(
                "UPDATE alembic_version SET version_num = version_num"
            ),
            keep=False,
        )
