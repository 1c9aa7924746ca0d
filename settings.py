"""The bot's settings: read from `.env` (python-dotenv) and the environment, the environment
winning; `.env.example` documents each."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from data.model import ALL_SHARDS, Shards
from locales import DEFAULT as DEFAULT_LANGUAGE
from locales import LANGUAGES

ROOT = Path(__file__).resolve().parent
DEFAULT_DATABASE = ROOT / "data" / "game_table.db"
DEFAULT_LOCAL_PORT = 8765
DEFAULT_LOCAL_PLAYERS = ("Alice", "Bob", "Carol", "Dave")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot; `.env.example` documents each."""

    token: str | None = None
    database: str | Path = DEFAULT_DATABASE  # a SQLite file, or a database URL (see data/__init__.py)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    local_port: int = DEFAULT_LOCAL_PORT
    local_players: tuple[str, ...] = DEFAULT_LOCAL_PLAYERS
    shards: Shards = ALL_SHARDS  # with a count: run those shards (AutoShardedBot)
    local_language: str = DEFAULT_LANGUAGE  # the language the local table's server and players speak
    # Whether the members' command picker lists the commands by their localized names, as
    # Discord's does; the local table's lists them by their default (English) names (set by
    # the local table, not read from .env).
    localized_picker: bool = True

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        def number(key: str) -> int | None:
            value = environ.get(key, "").strip()
            if not value:
                return None
            if not value.isdigit():
                raise SystemExit(f"{key} must be a number (got {value!r}) — fix it in .env.")
            return int(value)

        players = environ.get("LOCAL_PLAYERS", "")
        return cls(
            token=environ.get("DISCORD_TOKEN", "").strip() or None,
            # DATABASE_URL names the database; else DATABASE_PATH, a relative path being taken
            # from the project folder, wherever the bot is started.
            database=environ.get("DATABASE_URL", "").strip()
            or ROOT / (environ.get("DATABASE_PATH") or DEFAULT_DATABASE),
            dev_guild_id=number("DEV_GUILD_ID"),
            log_level=(environ.get("LOG_LEVEL") or "INFO").upper(),
            local_port=number("LOCAL_PORT") or DEFAULT_LOCAL_PORT,
            local_players=tuple(p.strip() for p in players.split(",") if p.strip()) or DEFAULT_LOCAL_PLAYERS,
            shards=read_shards(environ.get("SHARD_COUNT", ""), environ.get("SHARD_IDS", "")),
            local_language=read_language(environ.get("LOCAL_LANGUAGE", "")),
        )

    @classmethod
    def load(cls, env_file: Path = ROOT / ".env") -> Settings:
        """The settings of `env_file` (if there is one) and of the environment, which wins."""
        file = {key: value for key, value in dotenv_values(env_file).items() if value is not None}
        return cls.from_env({**file, **os.environ})


def read_language(text: str) -> str:
    """LOCAL_LANGUAGE: one of the languages the bot speaks (English when empty)."""
    language = text.strip().lower() or DEFAULT_LANGUAGE
    if language not in LANGUAGES:
        raise SystemExit(
            f"LOCAL_LANGUAGE must be one of {', '.join(LANGUAGES)} (got {text!r}) — fix it in .env."
        )
    return language


def read_shards(count_text: str, ids_text: str) -> Shards:
    """SHARD_COUNT and SHARD_IDS ("0,1", "4-7" or a mix; all shards when empty) as `Shards`."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise SystemExit(
                "SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all) — set it in .env."
            )
        return ALL_SHARDS
    if not count_text.isdecimal() or int(count_text) < 1:
        raise SystemExit(
            f"SHARD_COUNT must be a whole number of at least 1 (got {count_text!r}) — fix it in .env."
        )
    count, ids = int(count_text), set[int]()
    for part in filter(None, (piece.strip() for piece in ids_text.split(","))):
        low, _, high = part.partition("-")
        if not low.strip().isdecimal() or not (high.strip() or low).isdecimal():
            raise SystemExit(
                f"SHARD_IDS must list shard numbers like 0,1 or 0-3 (got {ids_text!r}) — fix it in .env."
            )
        ids.update(range(int(low), int(high or low) + 1))
    if not ids_text:
        ids = set(range(count))
    if not ids or max(ids) >= count:
        raise SystemExit(
            f"SHARD_IDS must be shards 0 to {count - 1} of SHARD_COUNT={count} (got {ids_text!r})."
        )
    return Shards(count, tuple(sorted(ids)))
