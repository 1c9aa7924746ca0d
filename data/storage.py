"""The SQLite storage backend (aiosqlite, WAL): the interface of `data.repositories` on one file.

`Storage` owns the connection, the migrations, the transactions and `close`; the bot reaches
the data through its repositories: `storage.matches`, `storage.league`, `storage.settings`.
Every SQL statement the bot runs on SQLite is in this module.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from data import ratings
from data.model import (
    ABANDONED,
    ALL_SHARDS,
    REPEATED,
    WITH_COMPUTERS,
    Departure,
    GuildSettings,
    MatchResult,
    MatchRow,
    RematchTaken,
    SeatResult,
    SetAside,
    Shards,
    StorageError,
    StorageUnavailable,
    TooManyLobbies,
    is_computer,
    now_iso,
    seconds_between,
)
from data.rows import (
    MATCH_COLUMNS,
    UnreadableColumn,
    departures_json,
    match_row,
    player_rows,
    results_by_match,
    set_aside_notice,
    shifted_by_outage,
    shown_ratings,
)
from data.schema import migrations

__all__ = [
    "MatchResult",
    "MatchRow",
    "SeatResult",
    "SetAside",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "now_iso",
]

log = logging.getLogger(__name__)

# SQLite's primary result codes for a database that refuses a call for now: busy or locked past
# the busy timeout, full, read-only, or a disk error. A call that meets one raises StorageUnavailable.
_FAULTS = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
    }
)


class Storage:
    """An open SQLite database and its repositories (implements `data.repositories.Database`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = _Connection(connection)
        self.league = SqliteLeague(self._db)
        self.matches = SqliteMatches(self._db, self.league)
        self.settings = SqliteSettings(self._db)

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Storage:
        """Open (creating if needed) the database at `path`, apply pending migrations and prove
        that it can be written. `busy_timeout_ms`: how long a call waits for another
        connection's write lock before it raises `StorageUnavailable`."""
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
            await storage._configure(busy_timeout_ms)
            await storage._migrate()
            await storage._prove_writable()
        except (sqlite3.Error, StorageError) as error:
            await connection.close()
            raise _unusable(path, error) from error
        return storage

    @property
    def connection(self) -> aiosqlite.Connection:
        """The connection itself, for diagnostics and tests (tracing, EXPLAIN); the bot
        goes through the repositories."""
        return self._db.connection

    async def close(self) -> None:
        await self._db.connection.close()

    async def _configure(self, busy_timeout_ms: int) -> None:
        # synchronous=FULL: in WAL mode, NORMAL may lose the last commits on a power cut, and a
        # move the players saw accepted must survive one (benchmarks: `python -m benchmarks storage`).
        for pragma in (
            "journal_mode=WAL",
            "foreign_keys=ON",
            f"busy_timeout={int(busy_timeout_ms)}",
            "synchronous=FULL",
        ):
            await self._db.run(f"PRAGMA {pragma}")

    async def _migrate(self) -> None:
        """Apply each pending migration in its own transaction. Foreign keys are off meanwhile
        (a migration may rebuild a table others refer to, which would otherwise cascade) and
        checked before each commit. The pragma is a no-op inside a transaction: hence outside."""
        row = await self._db.fetch_one("PRAGMA user_version")
        assert row is not None
        pending = migrations(after=row[0])
        if not pending:
            return
        await self._db.run("PRAGMA foreign_keys=OFF")
        try:
            for migration in pending:
                async with self._db.transaction():
                    for statement in migration.statements:
                        await self._db.run(statement)
                    if broken := await self._db.fetch_all("PRAGMA foreign_key_check"):
                        raise StorageError(
                            f"Migration {migration.name} would leave {len(broken)} rows of table "
                            f"{broken[0][0]} pointing at missing rows; nothing was changed — "
                            "keep using the previous version of the bot and report this."
                        )
                    await self._db.run(f"PRAGMA user_version={migration.number}")
        finally:
            await self._db.run("PRAGMA foreign_keys=ON")

    async def _prove_writable(self) -> None:
        """Fail at start-up, not at the first move, when the file cannot be written: a write
        that is rolled back (BEGIN IMMEDIATE alone succeeds on a read-only file)."""
        row = await self._db.fetch_one("PRAGMA user_version")
        assert row is not None
        async with self._db.trial():
            await self._db.run(f"PRAGMA user_version={row[0]}")


def _unusable(path: Path, error: sqlite3.Error | StorageError) -> StorageError:
    """The one sentence `Storage.open` raises for a database it cannot use."""
    cause = error.__cause__ if isinstance(error, StorageUnavailable) else error
    code = _primary_code(cause) if isinstance(cause, sqlite3.Error) else None
    if code == sqlite3.SQLITE_READONLY:
        return StorageError(
            f"The database at {path} is read-only ({cause}); let the bot write to that file and to "
            "its folder (SQLite adds files beside it), or set DATABASE_PATH to a file it can write to."
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StorageError(
            f"The database at {path} is locked by another program ({cause}); stop the other bot "
            "using it, or set DATABASE_PATH to another file."
        )
    if isinstance(error, StorageError) and not isinstance(error, StorageUnavailable):
        return error
    return StorageError(
        f"The database at {path} cannot be used ({cause}); check that it is a game-table database, "
        "that its disk has room and that the bot may write to it, or set DATABASE_PATH to another file."
    )


def _primary_code(error: sqlite3.Error) -> int | None:
    """SQLite's primary result code of an error (its extended code without the detail)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


@contextmanager
def _faults_unavailable() -> Iterator[None]:
    """Raise `StorageUnavailable` for SQLite's refusals of the moment; other errors pass as they are."""
    try:
        yield
    except sqlite3.Error as error:
        if _primary_code(error) in _FAULTS:
            raise StorageUnavailable() from error
        raise


class _Connection:
    """The one connection every repository shares. Statements run to completion (an open
    cursor would block COMMIT) and writes are serialised: a statement run while another
    coroutine's transaction is open would otherwise land inside it. A database that refuses
    a statement for now (busy, full, read-only, disk error) raises `StorageUnavailable`, and
    the transaction it was part of is rolled back whole."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._write_lock = asyncio.Lock()

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        with _faults_unavailable():
            async with self.connection.execute(sql, tuple(params)) as cursor:
                await cursor.fetchall()
                return cursor.rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters (one prepared statement)."""
        with _faults_unavailable():
            await self.connection.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with _faults_unavailable():
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
        """A write transaction that takes the database lock at once (BEGIN IMMEDIATE),
        committed when the block ends and rolled back whole when it raises."""
        async with self._write_lock:
            await self.run("BEGIN IMMEDIATE")
            try:
                yield
                await self.run("COMMIT")
            except BaseException:
                await self._roll_back()
                raise

    @asynccontextmanager
    async def trial(self) -> AsyncIterator[None]:
        """A write transaction that is always rolled back: to prove a write is possible."""
        async with self._write_lock:
            await self.run("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                await self._roll_back()

    async def _roll_back(self) -> None:
        # SQLite may have rolled the transaction back itself (after SQLITE_FULL, IOERR or BUSY),
        # and a ROLLBACK without one fails.
        if self.connection.in_transaction:
            await self.run("ROLLBACK")


# The open lobbies one member hosts on one server (the index lobbies_by_host).
_HOSTED = "status = 'lobby' AND host_id = ? AND guild_id = ?"


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
        language: str = "en",
        rematch_of: int | None = None,
        max_hosted: int | None = None,
    ) -> MatchRow:
        stamp = now_iso()
        async with self._db.transaction():
            if max_hosted is not None:
                hosted = await self._load(_HOSTED, (host_id, guild_id))
                if len(hosted) >= max_hosted:
                    raise TooManyLobbies(hosted)
            row = await self._db.fetch_one(
                "INSERT INTO matches (game, guild_id, channel_id, host_id, status, seed, options, "
                "clock_s, invited, language, rematch_of, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (rematch_of) DO NOTHING RETURNING id",
                (
                    game,
                    guild_id,
                    channel_id,
                    host_id,
                    seed,
                    json.dumps(options),
                    clock_s,
                    json.dumps(invited) if invited else None,
                    language,
                    rematch_of,
                    stamp,
                    stamp,
                ),
            )
            if row is None:
                raise RematchTaken(await self._load("rematch_of = ?", (rematch_of,)))
            match_id = row[0]
            await self._db.run(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, 0, ?)", (match_id, host_id)
            )
        lobby = await self.get(match_id)
        assert lobby is not None
        return lobby

    async def join_lobby(self, match_id: int, user_id: int, max_players: int) -> bool:
        async with self._db.transaction():  # the count and the new seat in one write lock
            if not await self._is_lobby(match_id):
                return False
            row = await self._db.fetch_one(
                "SELECT COUNT(*), SUM(user_id = ?) FROM seats WHERE match_id = ?", (user_id, match_id)
            )
            assert row is not None
            count, present = row
            if present or count >= max_players:
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
            "updated_at = ?, moved_at = ?, deadline = ? WHERE id = ? AND status = 'lobby'",
            (state, stamp, stamp, stamp, deadline, match_id),
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
        departures: list[Departure] | None = None,
    ) -> bool:
        stamp = now_iso()
        status = "running" if result is None else "abandoned" if result.abandoned else "finished"
        async with self._db.transaction():
            match = await self._db.fetch_one(
                "UPDATE matches SET state = ?, turn = turn + 1, status = ?, updated_at = ?, moved_at = ?, "
                "finished_at = ?, deadline = ?, reminded = 0, timeouts = ?, "
                "departures = COALESCE(?, departures) "
                "WHERE id = ? AND turn = ? AND status = 'running' "
                "RETURNING game, guild_id, options, started_at",
                (
                    state,
                    status,
                    stamp,
                    stamp,
                    None if result is None else stamp,
                    deadline,
                    json.dumps(timeouts or {}),
                    None if departures is None else departures_json(departures),
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

    async def move_to_channel(self, match_id: int, channel_id: int) -> None:
        await self._db.write(
            "UPDATE matches SET channel_id = ?, updated_at = ? WHERE id = ?",
            (channel_id, now_iso(), match_id),
        )

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self._db.write(
            "UPDATE matches SET message_id = ?, updated_at = ? WHERE id = ?",
            (message_id, now_iso(), match_id),
        )

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        await self._db.write("UPDATE matches SET ping_message_id = ? WHERE id = ?", (message_id, match_id))

    async def mark_board_stale(self, match_id: int, stale: bool) -> None:
        await self._db.write("UPDATE matches SET board_stale = ? WHERE id = ?", (int(stale), match_id))

    async def claim_ping(self, match_id: int, *, turn: int) -> bool:
        claimed = await self._db.write(
            "UPDATE matches SET pinged_turn = ? WHERE id = ? AND (pinged_turn IS NULL OR pinged_turn < ?)",
            (turn, match_id, turn),
        )
        return claimed == 1

    async def mark_reminded(self, match_id: int, *, turn: int) -> bool:
        claimed = await self._db.write(
            "UPDATE matches SET reminded = 1 "
            "WHERE id = ? AND turn = ? AND reminded = 0 AND status = 'running'",
            (match_id, turn),
        )
        return claimed == 1

    async def replace_player(
        self,
        match_id: int,
        seat: int,
        user_id: int,
        timeouts: dict[str, int],
        *,
        replacing: int,
        departures: list[Departure],
    ) -> bool:
        async with self._db.transaction():
            changed = await self._db.run(
                "UPDATE seats SET user_id = ? WHERE match_id = ? AND seat = ? AND user_id = ? "
                "AND match_id IN (SELECT id FROM matches WHERE id = ? AND status = 'running')",
                (user_id, match_id, seat, replacing, match_id),
            )
            if not changed:
                return False
            await self._db.run(
                "UPDATE matches SET timeouts = ?, departures = ?, updated_at = ? WHERE id = ?",
                (json.dumps(timeouts), departures_json(departures), now_iso(), match_id),
            )
            return True

    async def own_moves(self, match_id: int) -> dict[int, int]:
        rows = await self._db.fetch_all(
            "SELECT seat, COUNT(*) FROM (SELECT seat, user_id, move, LAG(seat) OVER (ORDER BY turn) "
            "AS before FROM moves WHERE match_id = ?) AS m WHERE (before IS NULL OR before <> seat) "
            'AND user_id > 0 AND move <> \'{"type": "resign"}\' GROUP BY seat',
            (match_id,),
        )
        return {seat: count for seat, count in rows}

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._load("id = ?", (match_id,))
        return rows[0] if rows else None

    async def running(self) -> list[MatchRow]:
        return await self._load("status = 'running'")

    async def resume_running(
        self, outage: timedelta, shards: Shards = ALL_SHARDS
    ) -> tuple[list[MatchRow], list[SetAside]]:
        async with self._db.transaction():
            rows, unreadable = await self._read(f"status = 'running' AND {shards.condition()}")
            if outage > timedelta(0):
                await self._db.run_many(
                    "UPDATE matches SET deadline = ?, reminded = ?, moved_at = ? WHERE id = ?",
                    [
                        (row.deadline, int(row.reminded), row.moved_at, row.id)
                        for row in shifted_by_outage(rows, outage)
                    ],
                )
            stamp = now_iso()
            await self._db.run_many(
                "UPDATE matches SET status = 'set_aside', note = ?, updated_at = ? WHERE id = ?",
                [(match.reason, stamp, match.id) for match in unreadable],
            )
        for match in unreadable:
            log.warning("Match %s is set aside: %s", match.id, match.reason)
        return rows, unreadable

    async def set_aside(self, match_id: int, reason: str, *, resumable: bool = False) -> SetAside | None:
        aside = await self._set_aside("id = ?", (match_id,), reason, resumable)
        return aside[0] if aside else None

    async def set_aside_guild(self, guild_id: int, reason: str) -> list[SetAside]:
        return await self._set_aside("guild_id = ?", (guild_id,), reason, True)

    async def _set_aside(
        self, where: str, params: tuple[Any, ...], reason: str, resumable: bool
    ) -> list[SetAside]:
        """Set aside the running matches `where` selects; what to tell the players of each."""
        async with self._db.transaction():
            rows = await self._db.fetch_all(
                "UPDATE matches SET status = 'set_aside', note = ?, resumable = ?, deadline = NULL, "
                f"reminded = 0, updated_at = ? WHERE {where} AND status = 'running' "
                "RETURNING id, game, guild_id, channel_id, message_id, language",
                (reason, int(resumable), now_iso(), *params),
            )
            if not rows:
                return []
            ids = [row["id"] for row in rows]
            seats = await self._db.fetch_all(
                f"SELECT match_id, user_id FROM seats WHERE match_id IN ({', '.join('?' * len(ids))}) "
                "ORDER BY match_id, seat",
                ids,
            )
        players: dict[int, list[int]] = {match_id: [] for match_id in ids}
        for match_id, user_id in seats:
            players[match_id].append(user_id)
        rows.sort(key=lambda row: int(row["id"]))
        return [set_aside_notice(row, players[row["id"]], reason) for row in rows]

    async def resume_set_aside(self, match_id: int, deadline: str | None) -> bool:
        now = now_iso()
        changed = await self._db.write(
            "UPDATE matches SET status = 'running', note = NULL, resumable = 0, deadline = ?, "
            "reminded = 0, pinged_turn = NULL, updated_at = ?, moved_at = ? WHERE id = ? "
            "AND status = 'set_aside' AND resumable = 1",
            (deadline, now, now, match_id),
        )
        return changed == 1

    async def turns_since(self, since: str, shards: Shards = ALL_SHARDS) -> dict[int, tuple[int, str]]:
        rows = await self._db.fetch_all(
            f"SELECT id, turn, status FROM matches WHERE updated_at >= ? AND {shards.condition()}", (since,)
        )
        return {match_id: (turn, status) for match_id, turn, status in rows}

    async def lobbies(self) -> list[MatchRow]:
        return await self._load("status = 'lobby'")

    async def active_for(self, user_id: int, guild_id: int) -> list[MatchRow]:
        return await self._load(
            "guild_id = ? AND (status IN ('lobby', 'running') OR (status = 'set_aside' AND resumable = 1)) "
            "AND id IN (SELECT match_id FROM seats WHERE user_id = ?)",
            (guild_id, user_id),
            newest_first=True,
        )

    async def rematch_of(self, match_id: int) -> MatchRow | None:
        rows = await self._load("rematch_of = ?", (match_id,))
        return rows[0] if rows else None

    async def move_log(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        rows = await self._db.fetch_all(
            "SELECT turn, seat, move FROM moves WHERE match_id = ? ORDER BY turn", (match_id,)
        )
        return [(turn, seat, json.loads(move)) for turn, seat, move in rows]

    async def _load(
        self, where: str, params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[MatchRow]:
        """The readable matches `where` selects, with their players (see `_read`)."""
        rows, _ = await self._read(where, params, newest_first=newest_first)
        return rows

    async def _read(
        self, where: str, params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> tuple[list[MatchRow], list[SetAside]]:
        """The matches `where` selects, with their players, in two queries however many there
        are: the readable ones, and those with a column the bot cannot read (logged as a
        warning), as what setting them aside would tell their players."""
        order = "DESC" if newest_first else ""
        stored = await self._db.fetch_all(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id {order}", params
        )
        if not stored:
            return [], []
        players: dict[int, list[int]] = {row["id"]: [] for row in stored}
        for match_id, user_id in await self._db.fetch_all(
            "SELECT match_id, user_id FROM seats "
            f"WHERE match_id IN (SELECT id FROM matches WHERE {where}) ORDER BY match_id, seat",
            params,
        ):
            if match_id in players:  # a match that changed between the two reads keeps its seats
                players[match_id].append(user_id)
        rows: list[MatchRow] = []
        unreadable: list[SetAside] = []
        for row in stored:
            try:
                rows.append(match_row(row, players[row["id"]]))
            except UnreadableColumn as error:
                log.warning("Match %s cannot be read: %s (%s)", row["id"], error.reason, error.detail)
                unreadable.append(set_aside_notice(row, players[row["id"]], error.reason))
        return rows, unreadable


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
        """Store a match's result and, when it is rated (`data.ratings`), update the game's and
        the overall ratings, inside the final move's transaction: seven statements at most,
        however many players."""
        unrated = await self._unrated(guild_id, result, stamp)
        await self._db.run(
            "INSERT INTO results (match_id, game, guild_id, draw, abandoned, unrated, duration_s, options, "
            "tiebreak, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                game,
                guild_id,
                int(result.draw),
                int(result.abandoned),
                unrated,
                duration_s,
                options,
                result.tiebreak,
                stamp,
            ),
        )
        changes = {} if unrated else await self._rate(guild_id, game, result)
        await self._db.run(
            "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner, resigned, left_by, "
            f"rating_before, rating_after) VALUES {_rows_of(len(result.seats), 10)}",
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
                    s.left,
                    *shown_ratings(changes.get((game, s.user_id))),
                )
            ],
        )

    async def _unrated(self, guild_id: int, result: MatchResult, stamp: str) -> str | None:
        """Why the result changes no rating, or None: a computer sat in it (the table is for
        people), it was abandoned, or two of its people already had their rated results of the
        day together (`data.ratings`)."""
        if any(is_computer(s.user_id) for s in result.seats):
            return WITH_COMPUTERS
        if result.abandoned:
            return ABANDONED
        users = sorted({s.user_id for s in result.seats})
        marks = ", ".join("?" * len(users))
        repeated = await self._db.fetch_one(
            "SELECT 1 FROM results AS r "
            "JOIN result_seats AS a ON a.match_id = r.match_id "
            "JOIN result_seats AS b ON b.match_id = r.match_id AND b.user_id > a.user_id "
            "WHERE r.guild_id = ? AND r.finished_at > ? "
            f"AND a.user_id IN ({marks}) AND b.user_id IN ({marks}) "
            "AND a.rating_before IS NOT NULL AND b.rating_before IS NOT NULL "
            "GROUP BY a.user_id, b.user_id HAVING COUNT(*) >= ? LIMIT 1",
            (guild_id, ratings.window_start(stamp), *users, *users, ratings.REPEAT_LIMIT),
        )
        return REPEATED if repeated else None

    async def _rate(
        self, guild_id: int, game: str, result: MatchResult
    ) -> dict[tuple[str, int], tuple[ratings.Skill, ratings.Skill]]:
        """Update the players' ratings in the game and overall, and whom they met: the skills
        before and after, by (board, user)."""
        boards = (game, ratings.OVERALL)
        changes = ratings.rate_result(result, boards, await self._skills(guild_id, boards, result.seats))
        met = [(board, user, other) for board in boards for user, other in ratings.opponent_pairs(result)]
        if met:
            await self._db.run(
                "INSERT INTO rated_opponents (guild_id, game, user_id, opponent_id) "
                f"VALUES {_rows_of(len(met), 4)} ON CONFLICT DO NOTHING",
                [value for board, user, other in met for value in (guild_id, board, user, other)],
            )
        wins = {s.user_id: int(s.winner and not s.resigned) for s in result.seats}
        row = (
            "(?, ?, ?, ?, ?, 1, ?, "
            "(SELECT COUNT(*) FROM rated_opponents WHERE guild_id = ? AND game = ? AND user_id = ?))"
        )
        await self._db.run(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, opponents) "
            f"VALUES {', '.join([row] * len(changes))} "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = games + 1, wins = wins + excluded.wins, opponents = excluded.opponents",
            [
                value
                for (board, user), (_, new) in changes.items()
                for value in (guild_id, board, user, new.mu, new.sigma, wins[user], guild_id, board, user)
            ],
        )
        return changes

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

    async def unrated_reason(self, match_id: int) -> str | None:
        row = await self._db.fetch_one("SELECT unrated FROM results WHERE match_id = ?", (match_id,))
        return None if row is None else row[0]

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        rows = await self._db.fetch_all(
            "SELECT seat, rating_before, rating_after FROM result_seats "
            "WHERE match_id = ? AND rating_before IS NOT NULL",
            (match_id,),
        )
        return {seat: (int(before), int(after)) for seat, before, after in rows}

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch_all(
            "SELECT user_id, mu, sigma, wins, games FROM ratings WHERE guild_id = ? AND game = ? "
            "AND games >= ? AND opponents >= ? "
            "ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, ratings.LISTED_GAMES, ratings.LISTED_OPPONENTS, limit, offset),
        )
        return [
            {"user_id": u, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
            for u, mu, sigma, w, g in rows
        ]

    async def rated_players(self, guild_id: int, game: str) -> int:
        row = await self._db.fetch_one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ? AND opponents >= ?",
            (guild_id, game, ratings.LISTED_GAMES, ratings.LISTED_OPPONENTS),
        )
        assert row is not None
        return int(row[0])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch_all(
            "SELECT game, mu, sigma, wins, games, opponents FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY game",
            (guild_id, user_id),
        )
        return player_rows(rows)

    async def computer_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        row = await self._db.fetch_one(
            "SELECT COUNT(*), COALESCE(SUM(mine.winner), 0) FROM result_seats AS mine "
            "JOIN results AS r ON r.match_id = mine.match_id "
            "WHERE r.guild_id = ? AND mine.user_id = ? "
            "AND EXISTS (SELECT 1 FROM result_seats AS c WHERE c.match_id = mine.match_id AND c.user_id < 0)",
            (guild_id, user_id),
        )
        assert row is not None
        return int(row[0]), int(row[1])

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
            "SELECT match_id, game, draw, abandoned, unrated, duration_s, finished_at FROM results "
            f"WHERE {where} ORDER BY finished_at DESC, match_id DESC LIMIT ?) "
            "SELECT r.match_id, r.game, r.draw, r.abandoned, r.unrated, r.duration_s, r.finished_at, "
            "s.seat, s.user_id, s.score, s.winner, s.left_by, s.rating_before, s.rating_after "
            "FROM recent AS r JOIN result_seats AS s ON s.match_id = r.match_id "
            "ORDER BY r.finished_at DESC, r.match_id DESC, s.seat",
            (*params, limit),
        )
        return results_by_match(rows)


class SqliteSettings:
    """Servers' settings and the bot's meta key/values (`SettingsRepository`)."""

    def __init__(self, db: _Connection) -> None:
        self._db = db

    async def for_guild(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetch_one(
            "SELECT clock_s, max_timeouts, threads FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return GuildSettings(row[0], row[1], bool(row[2])) if row else GuildSettings()

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

    async def set_threads(self, guild_id: int, on: bool) -> None:
        await self._db.write(
            "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            (guild_id, int(on)),
        )

    async def guild_language(self, guild_id: int) -> str | None:
        row = await self._db.fetch_one("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self._db.write(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )

    async def member_locale(self, user_id: int) -> str | None:
        row = await self._db.fetch_one("SELECT locale FROM member_languages WHERE user_id = ?", (user_id,))
        return row[0] or None if row else None  # '': a member known only by their closed DMs

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        await self._db.write(
            "INSERT INTO member_languages (user_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            (user_id, locale, now_iso()),
        )

    async def dms_closed(self, user_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT dms_closed FROM member_languages WHERE user_id = ?", (user_id,)
        )
        return bool(row and row[0])

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        await self._db.write(
            "INSERT INTO member_languages (user_id, locale, updated_at, dms_closed) VALUES (?, '', ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed",
            (user_id, now_iso(), int(closed)),
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
