"""Where SQLite and PostgreSQL really differ, each in one small class: how connections are held
and transactions begun, locks, start-up settings, the record of an older migration history,
and which errors are refusals of the moment. Every query is in data/queries.py, for both.

- SQLite (the standard library's sqlite3, WAL): one file, one connection the whole bot shares in
  a thread of its own, one writer at a time; a write transaction takes the file's lock at once
  (BEGIN IMMEDIATE), so it never waits in the middle; a whole call (a move and its move-log row,
  a final move's result and ratings) runs in that thread at once: the event loop waits for
  SQLite once per call, not once per statement.
- PostgreSQL (asyncpg and a pool of connections): a server that several bot processes may share.
  A move's `UPDATE … WHERE turn = n` re-checks the turn after waiting for any other writer of
  the row; lobby changes lock the match row (`FOR UPDATE`); a new lobby counts its host's open
  lobbies under an advisory lock on that host; a final move takes an advisory lock on its
  server's ratings, so two results of one server are rated one after the other as SQLite's
  single writer rates them; migrations run under a session advisory lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from data.model import StorageError, StorageUnavailable

T = TypeVar("T")
Work = Callable[[Connection], T]  # a unit of work: synchronous SQLAlchemy calls on one connection

# Advisory locks (PostgreSQL's two-key form): the migrations, the ratings of one server, the
# lobbies of one host. SQLite's one writer holds them all.
MIGRATION_LOCK = (0x47540001, 0)
LOCK_RATINGS = 0x47540002
LOCK_HOST = 0x47540003


class Dialect(Protocol):
    """What the shared storage code asks of a backend."""

    name: str
    where: str  # the database, as messages name it (no password)
    errors: tuple[type[BaseException], ...]  # the driver's own errors

    def connections(self, wait_ms: int, max_size: int) -> Connections:
        """Connect (lazily): how units of work reach the database."""
        ...

    def lock(self, connection: Connection, kind: int, key: int) -> None:
        """Hold a lock on (`kind`, `key`) until the transaction ends, where other writers may run."""
        ...

    def migrating(self, connection: Connection) -> AbstractContextManager[None]:
        """A context around a run of migrations on `connection`."""
        ...

    def check_foreign_keys(self, connection: Connection, revision: str) -> None:
        """Refuse a migration that would leave rows pointing at missing rows."""
        ...

    def legacy_version(self, connection: Connection) -> int:
        """The last numbered SQL migration the bot applied before it used Alembic (0: none)."""
        ...

    def driver_error(self, error: DBAPIError) -> BaseException:
        """The driver's own error behind SQLAlchemy's."""
        ...

    def is_fault(self, error: BaseException) -> bool:
        """Whether the database refused a call for now (busy, full, read-only, gone)."""
        ...

    def unusable(self, error: BaseException) -> StorageError:
        """The one sentence for a database the bot cannot use at start-up."""
        ...


class Connections(Protocol):
    """How units of work reach the database: each runs on one connection, either with its
    statements committing each on their own or as one transaction (committed when the work
    returns, rolled back whole when it raises)."""

    async def run(self, work: Work[T], *, transaction: bool = False, keep: bool = True) -> T:
        """Run `work`; with `transaction`, in one (always rolled back when `keep` is False)."""
        ...

    async def migrate(self, work: Work[T]) -> T:
        """Run `work` on a connection outside any transaction (it begins its own, `within`)."""
        ...

    def within(self, connection: Connection, *, keep: bool = True) -> AbstractContextManager[None]:
        """A context: one transaction on `connection`."""
        ...

    async def close(self) -> None: ...


# --- SQLite -----------------------------------------------------------------------------------

# SQLite's primary result codes for a database that refuses a call for now: busy or locked past
# the busy timeout, full, read-only, or a disk error.
_SQLITE_FAULTS = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
    }
)


def _primary_code(error: BaseException) -> int | None:
    """SQLite's primary result code of an error (its extended code without the detail)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


class Sqlite:
    """A SQLite file."""

    name = "sqlite"
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)

    def connections(self, wait_ms: int, max_size: int) -> Connections:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise self.unusable(error) from error
        engine = create_engine(
            URL.create("sqlite+pysqlite", database=str(self.path)),
            poolclass=NullPool,  # the one connection is held for the storage's life
            isolation_level="AUTOCOMMIT",  # transactions are begun and ended below, as SQLite wants
        )
        # synchronous=FULL: in WAL mode, NORMAL may lose the last commits on a power cut, and a
        # move the players saw accepted must survive one.
        pragmas = ("journal_mode=WAL", "foreign_keys=ON", f"busy_timeout={int(wait_ms)}", "synchronous=FULL")

        @event.listens_for(engine, "connect")
        def configure(connection: Any, _: Any) -> None:
            for pragma in pragmas:
                connection.execute(f"PRAGMA {pragma}").close()

        return OneConnection(engine)

    def lock(self, connection: Connection, kind: int, key: int) -> None:
        """Nothing to do: a write transaction holds the file's one write lock."""

    @contextmanager
    def migrating(self, connection: Connection) -> Iterator[None]:
        """Foreign keys are off while migrations run (a table rebuilt in batch mode would
        otherwise cascade) and checked before each commit (`check_foreign_keys`). The pragma is
        a no-op inside a transaction: hence around them."""
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            yield
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")

    def check_foreign_keys(self, connection: Connection, revision: str) -> None:
        if broken := connection.exec_driver_sql("PRAGMA foreign_key_check").all():
            raise StorageError(
                f"Migration {revision} would leave {len(broken)} rows of table {broken[0][0]} pointing at "
                "missing rows; nothing was changed — keep using the previous version of the bot and "
                "report this."
            )

    def legacy_version(self, connection: Connection) -> int:
        return int(connection.exec_driver_sql("PRAGMA user_version").scalar_one())

    def driver_error(self, error: DBAPIError) -> BaseException:
        return error.orig if isinstance(error.orig, BaseException) else error

    def is_fault(self, error: BaseException) -> bool:
        return _primary_code(error) in _SQLITE_FAULTS

    def unusable(self, error: BaseException) -> StorageError:
        cause = error.__cause__ if isinstance(error, StorageUnavailable) else error
        code = _primary_code(cause) if cause is not None else None
        if code == sqlite3.SQLITE_READONLY:
            return StorageError(
                f"The database at {self.path} is read-only ({cause}); let the bot write to that file and "
                "to its folder (SQLite adds files beside it), or set DATABASE_PATH to a file it can write to."
            )
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return StorageError(
                f"The database at {self.path} is locked by another program ({cause}); stop the other bot "
                "using it, or set DATABASE_PATH to another file."
            )
        if isinstance(error, OSError):
            return StorageError(
                f"Cannot open the database at {self.path} ({error}); "
                "set DATABASE_PATH to a file in a folder the bot can write to."
            )
        if isinstance(error, StorageError) and not isinstance(error, StorageUnavailable):
            return error
        return StorageError(
            f"The database at {self.path} cannot be used ({cause}); check that it is a game-table "
            "database, that its disk has room and that the bot may write to it, or set DATABASE_PATH "
            "to another file."
        )


class OneConnection:
    """The one connection every call shares, in a thread of its own: each unit of work (a whole
    transaction) runs there to its end before the next begins, so a statement never lands in
    another call's transaction, and the event loop waits for SQLite once per call."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sqlite", daemon=True)
        self._thread.start()
        self._held: Connection | None = None
        self._closed = False

    async def _call(self, function: Callable[[], T]) -> T:
        """`function`'s result, computed in the connection's thread (which hands it back to the
        event loop as soon as it has it, as aiosqlite does)."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put(Job(function, done))
        return await done

    def _serve(self) -> None:
        """The connection's thread: each job to its end, in the order they came, until `None`."""
        while (job := self._jobs.get()) is not None:
            job.run()

    def _connection(self) -> Connection:
        if self._held is None:
            self._held = self._engine.connect()
        return self._held

    async def run(self, work: Work[T], *, transaction: bool = False, keep: bool = True) -> T:
        def unit() -> T:
            connection = self._connection()
            if not transaction:
                return work(connection)
            with self.within(connection, keep=keep):
                return work(connection)

        return await self._call(unit)

    async def migrate(self, work: Work[T]) -> T:
        return await self._call(lambda: work(self._connection()))

    async def on_driver(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` with the sqlite3 connection itself, in its thread (diagnostics, tests)."""
        return await self._call(lambda: work(_driver(self._connection())))

    @contextmanager
    def within(self, connection: Connection, *, keep: bool = True) -> Iterator[None]:
        """A write transaction that takes the database lock at once (BEGIN IMMEDIATE)."""
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._roll_back(connection)
            raise
        if keep:
            connection.exec_driver_sql("COMMIT")
        else:
            self._roll_back(connection)

    def _roll_back(self, connection: Connection) -> None:
        # SQLite may have rolled the transaction back itself (after SQLITE_FULL, IOERR or BUSY),
        # and a ROLLBACK without one fails.
        if _driver(connection).in_transaction:
            connection.exec_driver_sql("ROLLBACK")

    async def close(self) -> None:
        """Close the connection and end its thread (again: nothing to do)."""

        def closing() -> None:
            if self._held is not None:
                self._held.close()
            self._engine.dispose()

        if not self._closed:
            self._closed = True
            await self._call(closing)
            self._jobs.put(None)
            await asyncio.to_thread(self._thread.join)


class Job:
    """A call for the connection's thread and the future its result goes to."""

    def __init__(self, function: Callable[[], Any], done: asyncio.Future[Any]) -> None:
        self.function = function
        self.done = done

    def run(self) -> None:
        result, error = None, None
        try:
            result = self.function()
        except BaseException as failed:
            error = failed
        with contextlib.suppress(RuntimeError):  # a closed event loop: nobody waits for the result
            self.done.get_loop().call_soon_threadsafe(self._settle, result, error)

    def _settle(self, result: Any, error: BaseException | None) -> None:
        if self.done.cancelled():  # the caller stopped waiting; the work is done all the same
            return
        if error is not None:
            self.done.set_exception(error)
        else:
            self.done.set_result(result)


def _driver(connection: Connection) -> sqlite3.Connection:
    return cast(sqlite3.Connection, connection.connection.driver_connection)


# --- PostgreSQL -------------------------------------------------------------------------------

# SQLSTATE classes and codes of a database that refuses a call for now: connection exceptions,
# a transaction rolled back by the server (serialization failure, deadlock), insufficient
# resources (disk full, out of memory, too many connections), operator intervention (a
# statement cancelled, the server shutting down or starting), system errors (I/O), a read-only
# transaction (a standby, or default_transaction_read_only) and a row lock not had in time.
_PG_FAULT_CLASSES = frozenset({"08", "40", "53", "57", "58"})
_PG_FAULT_CODES = frozenset({"25006", "55P03"})


def shown_url(url: str) -> str:
    """`url` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class Postgres:
    """A PostgreSQL database (postgresql://user:password@host:port/database)."""

    name = "postgresql"
    errors: tuple[type[BaseException], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError)

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = shown_url(url)

    def connections(self, wait_ms: int, max_size: int) -> Connections:
        try:
            url = make_url(self.url).set(drivername="postgresql+asyncpg")
        except Exception as error:  # an unreadable URL is a sentence, whatever failed
            raise self.unusable(error) from error
        engine = create_async_engine(
            url,
            pool_size=max_size,
            max_overflow=0,
            pool_timeout=max(wait_ms / 1000, 1.0),
            connect_args={
                "server_settings": {"lock_timeout": str(int(wait_ms)), "application_name": "game-table"}
            },
        )
        return _Pool(engine)

    def lock(self, connection: Connection, kind: int, key: int) -> None:
        connection.execute(
            text("SELECT pg_advisory_xact_lock(:kind, (CAST(:key AS bigint) % 2147483647)::int)"),
            {"kind": kind, "key": key},
        )

    @contextmanager
    def migrating(self, connection: Connection) -> Iterator[None]:
        """Hold the migration lock for the whole run: a process starting meanwhile waits, then
        finds nothing left to do; no lock_timeout while waiting or migrating."""
        connection.exec_driver_sql("SET lock_timeout = 0")
        connection.exec_driver_sql("SELECT pg_advisory_lock({}, {})".format(*MIGRATION_LOCK))
        connection.commit()
        try:
            yield
        finally:
            if not connection.closed and not connection.invalidated:
                connection.rollback()
                connection.exec_driver_sql("SELECT pg_advisory_unlock({}, {})".format(*MIGRATION_LOCK))
                connection.exec_driver_sql("RESET lock_timeout")
                connection.commit()

    def check_foreign_keys(self, connection: Connection, revision: str) -> None:
        """Nothing to do: PostgreSQL checks every foreign key as it goes."""

    def legacy_version(self, connection: Connection) -> int:
        if connection.exec_driver_sql("SELECT to_regclass('schema_migrations') IS NULL").scalar_one():
            return 0
        applied = connection.exec_driver_sql("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
        return int(applied.scalar_one())

    def driver_error(self, error: DBAPIError) -> BaseException:
        adapted = error.orig
        cause = adapted.__cause__ if adapted is not None else None
        if isinstance(cause, BaseException):
            return cause
        return adapted if isinstance(adapted, BaseException) else error

    def is_fault(self, error: BaseException) -> bool:
        if isinstance(error, asyncpg.PostgresError):
            state = error.sqlstate or ""
            return state[:2] in _PG_FAULT_CLASSES or state in _PG_FAULT_CODES
        if isinstance(error, asyncpg.InterfaceError):
            return "connection" in str(error) and "closed" in str(error)
        return isinstance(error, (OSError, TimeoutError))

    def unusable(self, error: BaseException) -> StorageError:
        cause = error.__cause__ if isinstance(error, StorageUnavailable) else error
        state = getattr(cause, "sqlstate", None) or ""
        where = self.where
        if state == "25006":
            return StorageError(
                f"The PostgreSQL database at {where} is read-only ({cause}); point DATABASE_URL at the "
                "primary server, or turn off default_transaction_read_only for the bot's database."
            )
        if state[:2] == "28" or state in ("3D000", "42501"):
            return StorageError(
                f"The PostgreSQL server at {where} refused the bot ({cause}); check the user, password "
                "and database name in DATABASE_URL and that this user may create tables there."
            )
        if isinstance(cause, (OSError, TimeoutError)) or state[:2] in ("08", "57"):
            return StorageError(
                f"Cannot reach the PostgreSQL server at {where} ({cause}); start it, or set DATABASE_URL "
                "to a server the bot can reach."
            )
        if isinstance(error, StorageError) and not isinstance(error, StorageUnavailable):
            return error
        return StorageError(
            f"The PostgreSQL database at {where} cannot be used ({cause}); check that it is a "
            "game-table database (or an empty one) and that the server has room, or set DATABASE_URL "
            "to another database."
        )


class _Pool:
    """The pool every call shares: each unit of work takes a connection for itself and gives it
    back; its synchronous SQLAlchemy calls run on asyncpg through SQLAlchemy's greenlet bridge."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    async def run(self, work: Work[T], *, transaction: bool = False, keep: bool = True) -> T:
        if not transaction:
            async with self._autocommit.connect() as connection:
                return await connection.run_sync(work)

        def unit(connection: Connection) -> T:
            with self.within(connection, keep=keep):
                return work(connection)

        async with self._engine.connect() as connection:
            return await connection.run_sync(unit)

    async def migrate(self, work: Work[T]) -> T:
        async with self._engine.connect() as connection:
            return await connection.run_sync(work)

    @contextmanager
    def within(self, connection: Connection, *, keep: bool = True) -> Iterator[None]:
        connection.begin()
        try:
            yield
        except BaseException:
            connection.rollback()
            raise
        if keep:
            connection.commit()
        else:
            connection.rollback()

    async def close(self) -> None:
        await self._engine.dispose()
