"""SQLite storage of matches, seats, moves and results (aiosqlite, WAL)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite
import discord

from data import ratings

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class StorageError(RuntimeError):
    """The database cannot be used; the message says what to fix."""


@dataclass(slots=True)
class MatchRow:
    """One match as stored: plain values, the engine state as its dumped text."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    status: str
    seed: int
    options: dict[str, Any]
    state: str | None
    turn: int
    ping_message_id: int | None
    created_at: str
    started_at: str | None
    clock_s: int | None = None
    deadline: str | None = None
    reminded: bool = False
    timeouts: dict[str, int] = field(default_factory=dict)
    invited: list[int] | None = None
    players: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a match."""

    seat: int
    user_id: int
    team: int
    score: int
    winner: bool
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What a finished (or abandoned) match stores for leaderboards and history."""

    draw: bool
    seats: tuple[SeatResult, ...]
    abandoned: bool = False
    tiebreak: str | None = None


def now_iso() -> str:
    """The current time as stored: ISO 8601 UTC, following the bot's clock."""
    return discord.utils.utcnow().isoformat()


def _seconds_between(start: str | None, end: str) -> float:
    if start is None:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


_MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, message_id, host_id, status, seed, options, state, "
    "turn, ping_message_id, created_at, started_at, clock_s, deadline, reminded, timeouts, invited"
)


class Storage:
    """The bot's repository: every SQL statement of the bot lives here."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        # One connection is shared by every coroutine: write transactions must not interleave.
        self._write_lock = asyncio.Lock()

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

    async def close(self) -> None:
        await self._db.close()

    async def _configure(self) -> None:
        await self._exec("PRAGMA journal_mode=WAL")
        await self._exec("PRAGMA foreign_keys=ON")
        await self._exec("PRAGMA busy_timeout=5000")
        await self._exec("PRAGMA synchronous=NORMAL")

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            (version,) = await cursor.fetchone()
        for script in sorted(MIGRATIONS.glob("*.sql")):
            number = int(script.name.split("_", 1)[0])
            if number <= version:
                continue
            async with self._transaction():
                for statement in _statements(script.read_text(encoding="utf-8")):
                    await self._exec(statement)
                await self._exec(f"PRAGMA user_version={number}")

    async def _exec(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Cursor:
        """Run one statement to completion (an open cursor would block COMMIT)."""
        async with self._db.execute(sql, tuple(params)) as cursor:
            await cursor.fetchall()
            return cursor

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """A write transaction that takes the database lock at once (BEGIN IMMEDIATE)."""
        async with self._write_lock:
            await self._exec("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._exec("ROLLBACK")
                raise
            await self._exec("COMMIT")

    # ------------------------------------------------------------------ matches

    async def create_lobby(
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
        """Store a new lobby with the host in seat 0 (`invited`: a rematch's players)."""
        stamp = now_iso()
        async with self._transaction():
            cursor = await self._exec(
                "INSERT INTO matches (game, guild_id, channel_id, host_id, status, seed, options, "
                "clock_s, invited, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
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
            match_id = cursor.lastrowid
            await self._exec(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, 0, ?)", (match_id, host_id)
            )
        row = await self.get(match_id)
        assert row is not None
        return row

    async def set_message(self, match_id: int, message_id: int) -> None:
        async with self._transaction():
            await self._exec(
                "UPDATE matches SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, now_iso(), match_id),
            )

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        async with self._transaction():
            await self._exec("UPDATE matches SET ping_message_id = ? WHERE id = ?", (message_id, match_id))

    async def join(self, match_id: int, user_id: int) -> bool:
        """Seat `user_id` in the lobby; False if it is not a lobby or they sit already."""
        async with self._transaction():
            if not await self._is_lobby(match_id):
                return False
            async with self._db.execute(
                "SELECT COUNT(*), SUM(user_id = ?) FROM seats WHERE match_id = ?",
                (user_id, match_id),
            ) as cursor:
                count, present = await cursor.fetchone()
            if present:
                return False
            await self._exec(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)",
                (match_id, count, user_id),
            )
            return True

    async def leave(self, match_id: int, user_id: int) -> bool:
        """Unseat `user_id` from the lobby, closing the gap; False if they were not seated."""
        async with self._transaction():
            if not await self._is_lobby(match_id):
                return False
            cursor = await self._exec(
                "DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            )
            if cursor.rowcount == 0:
                return False
            async with self._db.execute(
                "SELECT user_id FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            ) as rows:
                remaining = [row[0] async for row in rows]
            await self._exec("DELETE FROM seats WHERE match_id = ?", (match_id,))
            for seat, user in enumerate(remaining):
                await self._exec(
                    "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)",
                    (match_id, seat, user),
                )
            return True

    async def _is_lobby(self, match_id: int) -> bool:
        async with self._db.execute("SELECT status FROM matches WHERE id = ?", (match_id,)) as cursor:
            row = await cursor.fetchone()
        return row is not None and row[0] == "lobby"

    async def start(self, match_id: int, state: str, deadline: str | None = None) -> bool:
        """Turn a lobby into a running match at turn 0; False if it is no longer a lobby."""
        stamp = now_iso()
        async with self._transaction():
            cursor = await self._exec(
                "UPDATE matches SET status = 'running', state = ?, turn = 0, started_at = ?, "
                "updated_at = ?, deadline = ? WHERE id = ? AND status = 'lobby'",
                (state, stamp, stamp, deadline, match_id),
            )
            return cursor.rowcount == 1

    async def cancel(self, match_id: int) -> bool:
        """Cancel a lobby (cancelled matches store no result); False if it already started."""
        async with self._transaction():
            cursor = await self._exec(
                "UPDATE matches SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'lobby'",
                (now_iso(), match_id),
            )
            return cursor.rowcount == 1

    async def save_move(
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
        """Commit one accepted move made at `turn`: state, log row and turn number together.

        Returns False, changing nothing, when the match is not running at `turn` any more
        (another click or process got there first). With `result`, the match ends in
        the same transaction.
        """
        stamp = now_iso()
        async with self._transaction():
            cursor = await self._exec(
                "UPDATE matches SET state = ?, turn = turn + 1, updated_at = ?, deadline = ?, "
                "reminded = 0, timeouts = ? WHERE id = ? AND turn = ? AND status = 'running'",
                (state, stamp, deadline, json.dumps(timeouts or {}), match_id, turn),
            )
            if cursor.rowcount != 1:
                return False
            await self._exec(
                "INSERT INTO moves (match_id, turn, seat, user_id, move, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, turn, seat, user_id, json.dumps(move, sort_keys=True), stamp),
            )
            if result is not None:
                await self._store_result(match_id, result, stamp)
            return True

    async def _store_result(self, match_id: int, result: MatchResult, stamp: str) -> None:
        status = "abandoned" if result.abandoned else "finished"
        await self._exec(
            "UPDATE matches SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?",
            (status, stamp, stamp, match_id),
        )
        async with self._db.execute(
            "SELECT game, guild_id, options, started_at FROM matches WHERE id = ?", (match_id,)
        ) as cursor:
            game, guild_id, options, started_at = await cursor.fetchone()
        await self._exec(
            "INSERT INTO results (match_id, game, guild_id, draw, abandoned, duration_s, options, "
            "tiebreak, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                game,
                guild_id,
                int(result.draw),
                int(result.abandoned),
                _seconds_between(started_at, stamp),
                options,
                result.tiebreak,
                stamp,
            ),
        )
        shown = await self._rate(guild_id, game, result)
        for s in result.seats:
            before, after = shown[s.user_id]
            await self._exec(
                "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner, resigned, "
                "rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, s.seat, s.user_id, s.team, s.score, int(s.winner), int(s.resigned), before, after),
            )

    async def _rate(self, guild_id: int, game: str, result: MatchResult) -> dict[int, tuple[int, int]]:
        """Update the game's and the overall ratings; returns each user's shown (before, after)."""
        team_ids = sorted({s.team for s in result.seats})
        teams = [[s for s in result.seats if s.team == team] for team in team_ids]
        # A resigned or removed player ranks below everyone who stayed.
        floor = min(s.score for s in result.seats) - 1
        scores = {s.seat: floor if s.resigned else s.score for s in result.seats}
        ranks = ratings.team_ranks(
            [[s.seat for s in team] for team in teams],
            {s.seat for s in result.seats if s.winner},
            [scores[seat] for seat in sorted(scores)],
        )
        shown: dict[int, tuple[int, int]] = {}
        for board in (game, ratings.OVERALL):
            before = [[await self._skill(guild_id, board, s.user_id) for s in team] for team in teams]
            after = ratings.rate(before, ranks)
            for team, old_team, new_team in zip(teams, before, after, strict=True):
                for s, old, new in zip(team, old_team, new_team, strict=True):
                    await self._save_skill(guild_id, board, s, new)
                    if board == game:
                        shown[s.user_id] = (old.shown, new.shown)
        return shown

    async def _skill(self, guild_id: int, game: str, user_id: int) -> ratings.Skill:
        async with self._db.execute(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return ratings.Skill(row[0], row[1]) if row else ratings.NEWCOMER

    async def _save_skill(self, guild_id: int, game: str, seat: SeatResult, skill: ratings.Skill) -> None:
        await self._exec(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) "
            "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins",
            (guild_id, game, seat.user_id, skill.mu, skill.sigma, int(seat.winner)),
        )

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        """Each seat's shown rating before and after a finished match."""
        async with self._db.execute(
            "SELECT seat, rating_before, rating_after FROM result_seats WHERE match_id = ?", (match_id,)
        ) as cursor:
            return {seat: (int(before), int(after)) async for seat, before, after in cursor}

    # ------------------------------------------------------------ leaderboards

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict]:
        """One page of a server's table, best first: user, shown rating, wins, games."""
        async with self._db.execute(
            "SELECT user_id, mu, sigma, wins, games FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        ) as cursor:
            return [
                {"user_id": u, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
                async for u, mu, sigma, w, g in cursor
            ]

    async def rated_players(self, guild_id: int, game: str) -> int:
        async with self._db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        ) as cursor:
            (count,) = await cursor.fetchone()
        return count

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict]:
        """A player's rating, wins and games for every game they played on a server."""
        async with self._db.execute(
            "SELECT game, mu, sigma, wins, games FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY game",
            (guild_id, user_id),
        ) as cursor:
            return [
                {"game": game, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
                async for game, mu, sigma, w, g in cursor
            ]

    async def recent_results(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[dict]:
        """A server's latest finished matches, newest first, with every seat's result."""
        sql = (
            "SELECT match_id, game, draw, abandoned, duration_s, finished_at FROM results WHERE guild_id = ?"
        )
        params: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if user_id is not None:
            sql += " AND match_id IN (SELECT match_id FROM result_seats WHERE user_id = ?)"
            params.append(user_id)
        sql += " ORDER BY finished_at DESC, match_id DESC LIMIT ?"
        params.append(limit)
        async with self._db.execute(sql, params) as cursor:
            results = [
                {
                    "match_id": m,
                    "game": g,
                    "draw": bool(d),
                    "abandoned": bool(a),
                    "duration_s": s,
                    "finished_at": f,
                    "seats": [],
                }
                async for m, g, d, a, s, f in cursor
            ]
        for entry in results:
            async with self._db.execute(
                "SELECT seat, user_id, score, winner, rating_before, rating_after FROM result_seats "
                "WHERE match_id = ? ORDER BY seat",
                (entry["match_id"],),
            ) as cursor:
                entry["seats"] = [
                    {"seat": s, "user_id": u, "score": sc, "winner": bool(w), "change": (a or 0) - (b or 0)}
                    async for s, u, sc, w, b, a in cursor
                ]
        return results

    # ------------------------------------------------------------ server settings

    async def guild_settings(self, guild_id: int) -> tuple[int | None, int | None]:
        """A server's default turn clock (seconds) and timeouts in a row before removal."""
        async with self._db.execute(
            "SELECT clock_s, max_timeouts FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return (row[0], row[1]) if row else (None, None)

    async def set_guild_setting(self, guild_id: int, name: str, value: int) -> None:
        if name not in ("clock_s", "max_timeouts"):
            raise ValueError(name)
        async with self._transaction():
            await self._exec(
                f"INSERT INTO guild_settings (guild_id, {name}) VALUES (?, ?) "
                f"ON CONFLICT (guild_id) DO UPDATE SET {name} = excluded.{name}",
                (guild_id, value),
            )

    # ------------------------------------------------------------------ clocks

    async def set_reminded(self, match_id: int) -> None:
        async with self._transaction():
            await self._exec("UPDATE matches SET reminded = 1 WHERE id = ?", (match_id,))

    async def set_deadline(self, match_id: int, deadline: str | None) -> None:
        async with self._transaction():
            await self._exec(
                "UPDATE matches SET deadline = ?, reminded = 0 WHERE id = ?", (deadline, match_id)
            )

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return rows[0] if rows else None

    async def load_running(self) -> list[MatchRow]:
        """Every match that is running (to resume at start-up)."""
        return await self._matches(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE status = 'running' ORDER BY id", ()
        )

    async def load_lobbies(self) -> list[MatchRow]:
        """Every open lobby (to resume at start-up)."""
        return await self._matches(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE status = 'lobby' ORDER BY id", ()
        )

    async def matches_of(self, user_id: int, guild_id: int) -> list[MatchRow]:
        """The lobbies and running matches `user_id` sits in on one server, newest first."""
        return await self._matches(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? "
            "AND status IN ('lobby', 'running') "
            "AND id IN (SELECT match_id FROM seats WHERE user_id = ?) ORDER BY id DESC",
            (guild_id, user_id),
        )

    async def moves(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The move log of a match as (turn, seat, move), in order."""
        async with self._db.execute(
            "SELECT turn, seat, move FROM moves WHERE match_id = ? ORDER BY turn", (match_id,)
        ) as cursor:
            return [(row[0], row[1], json.loads(row[2])) async for row in cursor]

    async def _matches(self, sql: str, params: Iterable[Any]) -> list[MatchRow]:
        async with self._db.execute(sql, tuple(params)) as cursor:
            rows = [_match_row(row) async for row in cursor]
        if not rows:
            return rows
        by_id = {row.id: row for row in rows}
        marks = ",".join("?" * len(by_id))
        async with self._db.execute(
            f"SELECT match_id, user_id FROM seats WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            tuple(by_id),
        ) as cursor:
            async for match_id, user_id in cursor:
                by_id[match_id].players.append(user_id)
        return rows

    # --------------------------------------------------------------------- meta

    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write_lock:  # one statement: its own transaction, no BEGIN/COMMIT round trips
            await self._exec(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


def _match_row(row: aiosqlite.Row) -> MatchRow:
    values = dict(row)
    values["options"] = json.loads(values["options"])
    values["timeouts"] = json.loads(values["timeouts"])
    values["invited"] = json.loads(values["invited"]) if values["invited"] else None
    values["reminded"] = bool(values["reminded"])
    return MatchRow(**values)


def _statements(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
