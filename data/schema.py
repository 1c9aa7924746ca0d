"""The one migration history every storage backend applies: numbered SQL files in data/migrations/.

Each backend records the number of the last migration it applied (SQLite in `PRAGMA
user_version`, PostgreSQL in the table `schema_migrations`) and applies each later file in its
own transaction. Where SQLite's SQL cannot run on PostgreSQL (or would give it other types),
data/migrations/postgres/ holds PostgreSQL's form of that same migration, with the same number
and name and the same resulting tables, columns, constraints and indexes; PostgreSQL runs the
shared file of every other number. Applied files are never edited: a change of schema is a new
file (and its PostgreSQL form beside it when it needs one). Migrations hold no ';' inside
literals or on a line with a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
POSTGRES_MIGRATIONS = MIGRATIONS / "postgres"

Dialect = Literal["sqlite", "postgres"]


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    statements: tuple[str, ...]


def migrations(after: int = 0, dialect: Dialect = "sqlite") -> list[Migration]:
    """The migrations numbered above `after`, in order, as `dialect` runs them."""
    variants = {script.name: script for script in POSTGRES_MIGRATIONS.glob("*.sql")}
    if strays := set(variants) - {script.name for script in MIGRATIONS.glob("*.sql")}:
        raise ValueError(
            f"{', '.join(sorted(strays))} in {POSTGRES_MIGRATIONS} has no migration of the same "
            f"number and name in {MIGRATIONS}: every form belongs to the one history."
        )
    found = []
    for script in sorted(MIGRATIONS.glob("*.sql")):
        number = int(script.name.split("_", 1)[0])
        if number > after:
            source = variants.get(script.name, script) if dialect == "postgres" else script
            found.append(Migration(number, script.stem, statements(source.read_text(encoding="utf-8"))))
    return found


def statements(script: str) -> tuple[str, ...]:
    """Split a migration into statements, dropping comment lines."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return tuple(part.strip() for part in "\n".join(lines).split(";") if part.strip())
