"""The one migration history every storage backend applies: numbered SQL files in data/migrations/.

Each backend records the number of the last migration it applied (SQLite in `PRAGMA
user_version`) and applies each later file in its own transaction. Applied files are never
edited: a change of schema is a new file. Migrations hold no ';' inside literals or on a
line with a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    statements: tuple[str, ...]


def migrations(after: int = 0) -> list[Migration]:
    """The migrations numbered above `after`, in order."""
    found = []
    for script in sorted(MIGRATIONS.glob("*.sql")):
        number = int(script.name.split("_", 1)[0])
        if number > after:
            found.append(Migration(number, script.stem, statements(script.read_text(encoding="utf-8"))))
    return found


def statements(script: str) -> tuple[str, ...]:
    """Split a migration into statements, dropping comment lines."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return tuple(part.strip() for part in "\n".join(lines).split(";") if part.strip())
