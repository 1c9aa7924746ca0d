"""How the queries reach the database, whichever it is (see `Runner`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError

from data.dialects import Connections, Dialect, Work
from data.model import StorageUnavailable

T = TypeVar("T")


class Runner:
    """Runs the queries' units of work (synchronous SQLAlchemy Core on one connection) on this
    backend's terms: statements that commit each on their own (`run`) or one transaction
    (`transaction`). A database that refuses a statement for now (busy, full, read-only, gone)
    raises `StorageUnavailable`, and the transaction it was part of is rolled back whole; other
    errors are the driver's own."""

    def __init__(self, dialect: Dialect, connections: Connections) -> None:
        self.dialect = dialect
        self.connections = connections

    async def run(self, work: Work[T]) -> T:
        with self.faults():
            return await self.connections.run(work)

    async def transaction(self, work: Work[T], *, keep: bool = True) -> T:
        """Run `work` in one transaction (always rolled back when `keep` is False)."""
        with self.faults():
            return await self.connections.run(work, transaction=True, keep=keep)

    def lock(self, connection: Connection, kind: int, key: int) -> None:
        """Hold a lock on (`kind`, `key`) until the transaction ends (PostgreSQL's processes
        share the database; SQLite's one writer holds every lock)."""
        self.dialect.lock(connection, kind, key)

    def insert(self, table: Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT that can say ON CONFLICT (the same SQL on both databases, which SQLAlchemy
        builds with each dialect's own class)."""
        return postgresql.insert(table) if self.dialect.name == "postgresql" else sqlite.insert(table)

    @contextmanager
    def faults(self) -> Iterator[None]:
        try:
            yield
        except DBAPIError as error:
            cause = self.dialect.driver_error(error)
            if error.connection_invalidated or self.dialect.is_fault(cause):
                raise StorageUnavailable() from cause
            raise cause from None
        except (OSError, TimeoutError) as error:
            if self.dialect.is_fault(error):
                raise StorageUnavailable() from error
            raise
