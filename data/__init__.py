"""Storage: `open_storage(url)` opens the database a URL names, on the backend it names.

- None or '' (data/game_table.db), a path, `sqlite:///relative/path` or
  `sqlite:////absolute/path` (three slashes then the path, as SQLAlchemy writes them): SQLite
  (the default: nothing to install).
- `postgresql://user:password@host:port/database` (or `postgres://…`): PostgreSQL.
Both are `data.storage.Storage`, which implements `data.repositories.Database`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from data.repositories import Database

DEFAULT_PATH = Path(__file__).resolve().parent / "game_table.db"  # the bot's default too
_SQLITE = "sqlite:///"
_POSTGRES = ("postgresql://", "postgres://")


def sqlite_path(url: str | Path | None) -> Path | None:
    """The SQLite file `url` names, or None when it names a PostgreSQL database. Raises
    ValueError for a URL of another kind."""
    if url is None or isinstance(url, Path):
        return url or DEFAULT_PATH
    if not url:
        return DEFAULT_PATH
    if url.startswith(_POSTGRES):
        return None
    if url.startswith(_SQLITE):
        return Path(url.removeprefix(_SQLITE))
    if "://" in url:
        raise ValueError(
            f"Cannot open {url.split('://', 1)[0]}:// databases; set DATABASE_URL to a file path, "
            "sqlite:///path or postgresql://user:password@host:port/database."
        )
    return Path(url)


async def open_storage(url: str | Path | None = None) -> Database:
    """Open (creating and migrating if needed) the database `url` names; see the module's doc.
    Raises `data.model.StorageError` with what to fix when it cannot be used."""
    # Imported here: the storage imports data.model, which would import this package first.
    from data.storage import Storage

    return await Storage.open(url)
