"""Databases as the bot left them before its migrations were Alembic revisions: the numbered
SQL migrations it applied to SQLite (tests/data/legacy/NNN_name.sql, recording the last one in
`PRAGMA user_version`) and the PostgreSQL schema they made (tests/data/legacy/postgres_011.sql,
recorded in the table `schema_migrations`), for tests that upgrade such a database."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import asyncpg

LEGACY = Path(__file__).resolve().parent / "legacy"


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    statements: tuple[str, ...]


def migrations(after: int = 0) -> list[Migration]:
    """SQLite's migrations numbered above `after`, in order."""
    found = []
    for script in sorted(LEGACY.glob("[0-9]*.sql")):
        number = int(script.name.split("_", 1)[0])
        if number > after:
            found.append(Migration(number, script.stem, statements(script.read_text(encoding="utf-8"))))
    return found


def statements(script: str) -> tuple[str, ...]:
    """Split a migration into statements, dropping comment lines."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return tuple(part.strip() for part in "\n".join(lines).split(";") if part.strip())


async def postgres_at_011(url: str) -> None:
    """Make the empty database at `url` what the bot's PostgreSQL backend made of it at
    migration 011."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute((LEGACY / "postgres_011.sql").read_text(encoding="utf-8"))
    finally:
        await connection.close()
