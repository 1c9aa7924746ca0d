"""How the queries reach the database, whichever it is (see `Database`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from data.dialects import Connections, Dialect
from data.model import StorageUnavailable


class Database:
    """How the queries reach the database: a connection for statements that commit each on
    their own, or one for a transaction, both on this backend's terms. A database that refuses a
    statement for now (busy, full, read-only, gone) raises `StorageUnavailable`, and the
    transaction it was part of is rolled back whole; other errors are the driver's own."""

    def __init__(self, dialect: Dialect, connections: Connections) -> None:
        self.dialect = dialect
        self._connections = connections

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        with self.faults():
            async with self._connections.connection() as connection:
                yield connection

    @asynccontextmanager
    async def transaction(self, *, keep: bool = True) -> AsyncIterator[AsyncConnection]:
        with self.faults():
            async with self._connections.transaction(keep=keep) as connection:
                yield connection

    async def lock(self, connection: AsyncConnection, kind: int, key: int) -> None:
        """Hold a lock on (`kind`, `key`) until the transaction ends (PostgreSQL's processes
        share the database; SQLite's one writer holds every lock)."""
        await self.dialect.lock(connection, kind, key)

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

    def insert(self, table: Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT that can say ON CONFLICT (the same SQL on both databases, which SQLAlchemy
        builds with each dialect's own class)."""
        return postgresql.insert(table) if self.dialect.name == "postgresql" else sqlite.insert(table)
