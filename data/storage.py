"""The SQLite storage backend (aiosqlite, WAL): the interface of `data.repositories` on one file.

`Storage` owns the connection, the migrations, the transactions and `close`; the bot reaches
the data through its repositories: `storage.matches`, `storage.league`, `storage.settings`.
Every SQL statement the bot runs on SQLite is in this module.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from data import ratings
from data.model import (
    GuildSettings,
    MatchResult,
    MatchRow,
    SeatResult,
    StorageError,
    now_iso,
    seconds_between,
)
from data.schema import migrations

__all__ = ["MatchResult", "MatchRow", "SeatResult", "Storage", "StorageError", "now_iso"]

_MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, message_id, host_id, status, seed, options, state, "
    "turn, ping_message_id, created_at, started_at, clock_s, deadline, reminded, timeouts, invited"
)


class Storage:
    """An open SQLite database and its repositories (implements `data.repositories.Database`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = _Connection(connection)
        self.league = SqliteLeague(self._db)
        self.matches = SqliteMatches(self._db, self.league)
        self.settings = SqliteSettings(self._db)

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating if needed) the database at `path` and apply pending migrations."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StorageError(
                f"Cannot open the database at {path} ({error}); "
                "set DATABASE_PATH to a file in a folder the bot can write to."
            ) from error
        connection.row_factory = aiosqlite.Row
        storage = cls(connection)
        try:
            await storage._configure()
            await storage._migrate()
        except sqlite3.Error as error:
            await connection.close()
            raise StorageError(
                f"The database at {path} cannot be used ({error}); "
                "check that it is a game-table database and that the bot may write to it."
            ) from error
        return storage

    @property
    def connection(self) -> aiosqlite.Connection:
        """The connection itself, for diagnostics and tests (tracing, EXPLAIN); the bot
        goes through the repositories."""
        return self._db.connection

    async def close(self) -> None:
        await self._db.connection.close()

    async def _configure(self) -> None:
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000", "synchronous=NORMAL"):
            await self._db.run(f"PRAGMA {pragma}")

    async def _migrate(self) -> None:
        row = await self._db.fetch_one("PRAGMA user_version")
        assert row is not None
        for migration in migrations(after=row[0]):
            async with self._db.transaction():
                for statement in migration.statements:
                    await self._db.run(statement)
                await self._db.run(f"PRAGMA user_version={migration.number}")


class _Connection:
    """The one connection every repository shares. Statements run to completion (an open
    cursor would block COMMIT) and writes are serialised: a statement run while another
    coroutine's transaction is open would otherwise land inside it."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._write_lock = asyncio.Lock()

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        async with self.connection.execute(sql, tuple(params)) as cursor:
            await cursor.fetchall()
            return cursor.rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters (one prepared statement)."""
        await self.connection.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self.connection.execute_fetchall(sql, tuple(params)))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def write(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement that is a transaction on its own; returns how many rows it changed."""
        async with self._write_lock:
            return await self.run(sql, params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """A write transaction that takes the database lock at once (BEGIN IMMEDIATE)."""
        async with self._write_lock:
            await self.run("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.run("ROLLBACK")
                raise
            await self.run("COMMIT")


def _rows_of(count: int, width: int) -> str:
    """The placeholders of a multi-row VALUES: `(?, ?), (?, ?)` for two rows of two."""
    row = "(" + ", ".join("?" * width) + ")"
    return ", ".join([row] * count)


class SqliteMatches:
    """Lobbies, seats, moves, running matches, deadlines and pings (`MatchRepository`)."""

    def __init__(self, db: _Connection, league: SqliteLeague) -> None:
        self._db = db
        self._league = league

    async def open_lobby(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seed: int,
        options: dict[str, Any],
        clock_s: int | None = None,
        invited: list[int] | None = None,
    ) -> MatchRow:
        stamp = now_iso()
        async with self._db.transaction():
            row = await self._db.fetch_one(
                "INSERT INTO matches (game, guild_id, channel_id, host_id, status, seed, options, "
                "clock_s, invited, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    game,
                    guild_id,
                    channel_id,
                    host_id,
                    seed,
                    json.dumps(options),
                    clock_s,
                    json.dumps(invited) if invited else None,
                    stamp,
                    stamp,
                ),
            )
            assert row is not None
            match_id = row[0]
            await self._db.run(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, 0, ?)", (match_id, host_id)
            )
        lobby = await self.get(match_id)
        assert lobby is not None
        return lobby

    async def join_lobby(self, match_id: int, user_id: int) -> bool:
        async with self._db.transaction():
            if not await self._is_lobby(match_id):
                return False
            row = await self._db.fetch_one(
                "SELECT COUNT(*), SUM(user_id = ?) FROM seats WHERE match_id = ?", (user_id, match_id)
            )
            assert row is not None
            count, present = row
            if present:
                return False
            await self._db.run(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)", (match_id, count, user_id)
            )
            return True

    async def leave_lobby(self, match_id: int, user_id: int) -> bool:
        async with self._db.transaction():
            if not await self._is_lobby(match_id):
                return False
            if not await self._db.run(
                "DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            ):
                return False
            remaining = await self._db.fetch_all(
                "SELECT user_id FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            )
            await self._db.run("DELETE FROM seats WHERE match_id = ?", (match_id,))
            if remaining:
                await self._db.run(
                    f"INSERT INTO seats (match_id, seat, user_id) VALUES {_rows_of(len(remaining), 3)}",
                    [value for seat, row in enumerate(remaining) for value in (match_id, seat, row[0])],
                )
            return True

    async def _is_lobby(self, match_id: int) -> bool:
        row = await self._db.fetch_one("SELECT status FROM matches WHERE id = ?", (match_id,))
        return row is not None and row[0] == "lobby"

    async def cancel_lobby(self, match_id: int) -> bool:
        changed = await self._db.write(
            "UPDATE matches SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'lobby'",
            (now_iso(), match_id),
        )
        return changed == 1

    async def start(self, match_id: int, state: str, deadline: str | None = None) -> bool:
        stamp = now_iso()
        changed = await self._db.write(
            "UPDATE matches SET status = 'running', state = ?, turn = 0, started_at = ?, "
            "updated_at = ?, deadline = ? WHERE id = ? AND status = 'lobby'",
            (state, stamp, stamp, deadline, match_id),
        )
        return changed == 1

    async def record_move(
        self,
        match_id: int,
        *,
        turn: int,
        seat: int,
        user_id: int | None,
        move: dict[str, Any],
        state: str,
        result: MatchResult | None = None,
        deadline: str | None = None,
        timeouts: dict[str, int] | None = None,
    ) -> bool:
        stamp = now_iso()
        status = "running" if result is None else "abandoned" if result.abandoned else "finished"
        async with self._db.transaction():
            match = await self._db.fetch_one(
                "UPDATE matches SET state = ?, turn = turn + 1, status = ?, updated_at = ?, "
                "finished_at = ?, deadline = ?, reminded = 0, timeouts = ? "
                "WHERE id = ? AND turn = ? AND status = 'running' "
                "RETURNING game, guild_id, options, started_at",
                (
                    state,
                    status,
                    stamp,
                    None if result is None else stamp,
                    deadline,
                    json.dumps(timeouts or {}),
                    match_id,
                    turn,
                ),
            )
            if match is None:
                return False
            await self._db.run(
                "INSERT INTO moves (match_id, turn, seat, user_id, move, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, turn, seat, user_id, json.dumps(move, sort_keys=True), stamp),
            )
            if result is not None:
                game, guild_id, options, started_at = match
                await self._league.record_result(
                    match_id,
                    game=game,
                    guild_id=guild_id,
                    options=options,
                    duration_s=seconds_between(started_at, stamp),
                    result=result,
                    stamp=stamp,
                )
            return True

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self._db.write(
            "UPDATE matches SET message_id = ?, updated_at = ? WHERE id = ?",
            (message_id, now_iso(), match_id),
        )

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        await self._db.write("UPDATE matches SET ping_message_id = ? WHERE id = ?", (message_id, match_id))

    async def mark_reminded(self, match_id: int) -> None:
        await self._db.write("UPDATE matches SET reminded = 1 WHERE id = ?", (match_id,))

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._load("id = ?", (match_id,))
        return rows[0] if rows else None

    async def running(self) -> list[MatchRow]:
        return await self._load("status = 'running'")

    async def resume_running(self, outage: timedelta) -> list[MatchRow]:
        async with self._db.transaction():
            rows = await self._load("status = 'running'")
            if outage > timedelta(0):
                shifted = [row for row in rows if row.deadline is not None]
                for row in shifted:
                    assert row.deadline is not None
                    row.deadline = (datetime.fromisoformat(row.deadline) + outage).isoformat()
                    row.reminded = False
                await self._db.run_many(
                    "UPDATE matches SET deadline = ?, reminded = 0 WHERE id = ?",
                    [(row.deadline, row.id) for row in shifted],
                )
        return rows

    async def lobbies(self) -> list[MatchRow]:
        return await self._load("status = 'lobby'")

    async def active_for(self, user_id: int, guild_id: int) -> list[MatchRow]:
        return await self._load(
            "guild_id = ? AND status IN ('lobby', 'running') "
            "AND id IN (SELECT match_id FROM seats WHERE user_id = ?)",
            (guild_id, user_id),
            newest_first=True,
        )

    async def move_log(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        rows = await self._db.fetch_all(
            "SELECT turn, seat, move FROM moves WHERE match_id = ? ORDER BY turn", (match_id,)
        )
        return [(turn, seat, json.loads(move)) for turn, seat, move in rows]

    async def _load(
        self, where: str, params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[MatchRow]:
        """The matches `where` selects, with their players: two queries however many there are."""
        order = "DESC" if newest_first else ""
        rows = [
            _match_row(row)
            for row in await self._db.fetch_all(
                f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id {order}", params
            )
        ]
        if rows:
            by_id = {row.id: row for row in rows}
            for match_id, user_id in await self._db.fetch_all(
                "SELECT match_id, user_id FROM seats "
                f"WHERE match_id IN (SELECT id FROM matches WHERE {where}) ORDER BY match_id, seat",
                params,
            ):
                if match_id in by_id:  # a match that changed between the two reads keeps its seats
                    by_id[match_id].players.append(user_id)
        return rows


class SqliteLeague:
    """Results, ratings, leaderboards, stats and history (`LeagueRepository`)."""

    def __init__(self, db: _Connection) -> None:
        self._db = db

    async def record_result(
        self,
        match_id: int,
        *,
        game: str,
        guild_id: int,
        options: str,
        duration_s: float,
        result: MatchResult,
        stamp: str,
    ) -> None:
        """Store a match's result and update the game's and the overall ratings, inside the
        final move's transaction: four statements, however many players."""
        await self._db.run(
            "INSERT INTO results (match_id, game, guild_id, draw, abandoned, duration_s, options, "
            "tiebreak, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                game,
                guild_id,
                int(result.draw),
                int(result.abandoned),
                duration_s,
                options,
                result.tiebreak,
                stamp,
            ),
        )
        boards = (game, ratings.OVERALL)
        changes = ratings.rate_result(result, boards, await self._skills(guild_id, boards, result.seats))
        wins = {s.user_id: int(s.winner) for s in result.seats}
        await self._db.run(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) "
            f"VALUES {_rows_of(len(changes), 7)} "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins",
            [
                value
                for (board, user), (_, new) in changes.items()
                for value in (guild_id, board, user, new.mu, new.sigma, 1, wins[user])
            ],
        )
        await self._db.run(
            "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner, resigned, "
            f"rating_before, rating_after) VALUES {_rows_of(len(result.seats), 9)}",
            [
                value
                for s in result.seats
                for value in (
                    match_id,
                    s.seat,
                    s.user_id,
                    s.team,
                    s.score,
                    int(s.winner),
                    int(s.resigned),
                    changes[game, s.user_id][0].shown,
                    changes[game, s.user_id][1].shown,
                )
            ],
        )

    async def _skills(
        self, guild_id: int, boards: Sequence[str], seats: Sequence[SeatResult]
    ) -> dict[tuple[str, int], ratings.Skill]:
        """The stored skills of the seats' players on the boards, in one query."""
        users = [s.user_id for s in seats]
        rows = await self._db.fetch_all(
            "SELECT game, user_id, mu, sigma FROM ratings WHERE guild_id = ? "
            f"AND game IN ({', '.join('?' * len(boards))}) AND user_id IN ({', '.join('?' * len(users))})",
            (guild_id, *boards, *users),
        )
        return {(board, user): ratings.Skill(mu, sigma) for board, user, mu, sigma in rows}

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        rows = await self._db.fetch_all(
            "SELECT seat, rating_before, rating_after FROM result_seats WHERE match_id = ?", (match_id,)
        )
        return {seat: (int(before), int(after)) for seat, before, after in rows}

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch_all(
            "SELECT user_id, mu, sigma, wins, games FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
        return [
            {"user_id": u, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
            for u, mu, sigma, w, g in rows
        ]

    async def rated_players(self, guild_id: int, game: str) -> int:
        row = await self._db.fetch_one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        assert row is not None
        return int(row[0])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch_all(
            "SELECT game, mu, sigma, wins, games FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY game",
            (guild_id, user_id),
        )
        return [
            {"game": game, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
            for game, mu, sigma, w, g in rows
        ]

    async def recent_results(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """One query: the latest results (by the index on guild, [game,] time) and their seats."""
        where = "guild_id = ?"
        params: list[Any] = [guild_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        if user_id is not None:
            where += " AND match_id IN (SELECT match_id FROM result_seats WHERE user_id = ?)"
            params.append(user_id)
        rows = await self._db.fetch_all(
            "WITH recent AS ("
            "SELECT match_id, game, draw, abandoned, duration_s, finished_at FROM results "
            f"WHERE {where} ORDER BY finished_at DESC, match_id DESC LIMIT ?) "
            "SELECT r.match_id, r.game, r.draw, r.abandoned, r.duration_s, r.finished_at, "
            "s.seat, s.user_id, s.score, s.winner, s.rating_before, s.rating_after "
            "FROM recent AS r JOIN result_seats AS s ON s.match_id = r.match_id "
            "ORDER BY r.finished_at DESC, r.match_id DESC, s.seat",
            (*params, limit),
        )
        results: dict[int, dict[str, Any]] = {}
        for m, g, d, a, duration, f, seat, user, score, won, before, after in rows:
            entry = results.setdefault(
                m,
                {
                    "match_id": m,
                    "game": g,
                    "draw": bool(d),
                    "abandoned": bool(a),
                    "duration_s": duration,
                    "finished_at": f,
                    "seats": [],
                },
            )
            entry["seats"].append(
                {
                    "seat": seat,
                    "user_id": user,
                    "score": score,
                    "winner": bool(won),
                    "change": (after or 0) - (before or 0),
                }
            )
        return list(results.values())


class SqliteSettings:
    """Servers' settings and the bot's meta key/values (`SettingsRepository`)."""

    def __init__(self, db: _Connection) -> None:
        self._db = db

    async def for_guild(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetch_one(
            "SELECT clock_s, max_timeouts FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return GuildSettings(row[0], row[1]) if row else GuildSettings()

    async def set_default_clock(self, guild_id: int, seconds: int) -> None:
        await self._db.write(
            "INSERT INTO guild_settings (guild_id, clock_s) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET clock_s = excluded.clock_s",
            (guild_id, seconds),
        )

    async def set_max_timeouts(self, guild_id: int, count: int) -> None:
        await self._db.write(
            "INSERT INTO guild_settings (guild_id, max_timeouts) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET max_timeouts = excluded.max_timeouts",
            (guild_id, count),
        )

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.write(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )


def _match_row(row: sqlite3.Row) -> MatchRow:
    values = dict(row)
    values["options"] = json.loads(values["options"])
    values["timeouts"] = json.loads(values["timeouts"])
    values["invited"] = json.loads(values["invited"]) if values["invited"] else None
    values["reminded"] = bool(values["reminded"])
    return MatchRow(**values)
