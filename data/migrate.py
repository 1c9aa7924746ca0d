"""Bringing a database to the current schema when it opens: the Alembic revisions in
data/migrations/, each applied in its own transaction, on SQLite and PostgreSQL alike.

A database made before the bot used Alembic recorded the number of the last SQL migration it
applied (SQLite in `PRAGMA user_version`, PostgreSQL in the table `schema_migrations`); the
revisions 001 to 011 are those migrations, so such a database is stamped at its number and
continues from there. The old record is left as it was (not written any more).
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path
from typing import Any

from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from data.dialects import Connections, Dialect

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


@cache
def scripts() -> ScriptDirectory:
    """The revisions (read once: they never change while the bot runs)."""
    return ScriptDirectory(str(MIGRATIONS), version_locations=[str(MIGRATIONS)])


def head() -> str:
    """The newest revision: the schema data/tables.py describes."""
    found = scripts().get_current_head()
    assert found is not None
    return found


async def migrate(dialect: Dialect, connections: Connections) -> None:
    """Apply every pending revision on one connection, each in its own transaction, which
    checks foreign keys before it commits."""
    await connections.migrate(partial(_migrate, dialect, connections))


def _migrate(dialect: Dialect, connections: Connections, connection: Connection) -> None:
    with dialect.migrating(connection):
        with connections.within(connection):
            pending = _pending(dialect, connection)
        for revision in pending:
            with connections.within(connection):
                _upgrade(connection, revision)
                dialect.check_foreign_keys(connection, revision)


def _pending(dialect: Dialect, connection: Connection) -> list[str]:
    """The revisions still to apply, oldest first (stamping a database of the older history)."""
    current = _context(connection).get_current_revision()
    if current is None and (legacy := dialect.legacy_version(connection)):
        current = f"{legacy:03d}"
        _context(connection).stamp(scripts(), current)
    revisions = scripts().iterate_revisions(head(), current)
    return [script.revision for script in reversed(list(revisions))]


def _context(connection: Connection, **options: Any) -> MigrationContext:
    return MigrationContext.configure(connection, opts={"script": scripts(), **options})


def _upgrade(connection: Connection, revision: str) -> None:
    """Apply the one revision `revision` inside the caller's transaction."""
    context = _context(
        connection,
        fn=lambda current, _: scripts()._upgrade_revs(revision, current),
        transaction_per_migration=False,
    )
    with Operations.context(context):
        context.run_migrations()
