"""The PostgreSQL storage backend (asyncpg and its pool): the interface of `data.repositories` on
a server that several bot processes may share.

Its behaviour is data/storage.py's (SQLite), which is the spec; what differs is how each
guarantee is kept when other processes write at the same time:
- a move is one statement or one transaction whose `UPDATE … WHERE turn = $n` re-checks the
  turn after waiting for any other writer of the row, so it is applied at most once;
- lobby changes lock the match row (`SELECT … FOR UPDATE`) before counting seats;
- a new lobby counts its host's open lobbies under an advisory lock on that host;
- a final move takes a transaction-level advisory lock on its server's ratings, so two results
  of one server are rated one after the other, as SQLite's single writer rates them;
- migrations run under a session advisory lock: processes starting together migrate once.
Every connection comes from the pool for one call or one transaction (an asyncpg connection
serves one coroutine at a time). Every SQL statement the bot runs on PostgreSQL is in this module.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

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

log = logging.getLogger(__name__)

# Advisory locks (the two-key form): the migrations (held while one process migrates), the
# ratings of one server, and the lobbies of one host.
MIGRATION_LOCK = (0x47540001, 0)
_LOCK_RATINGS = 0x47540002
_LOCK_HOST = 0x47540003  # the open lobbies of one host, while a new one is counted
# The open lobbies one member hosts on one server (the index lobbies_by_host).
_HOSTED = "status = 'lobby' AND host_id = $1 AND guild_id = $2"
# SQLSTATE classes and codes of a database that refuses a call for now: connection exceptions,
# a transaction rolled back by the server (serialization failure, deadlock), insufficient
# resources (disk full, out of memory, too many connections), operator intervention (a
# statement cancelled, the server shutting down or starting), system errors (I/O), a read-only
# transaction (a standby, or default_transaction_read_only) and a row lock not had in time.
_FAULT_CLASSES = frozenset({"08", "40", "53", "57", "58"})
_FAULT_CODES = frozenset({"25006", "55P03"})


def _is_fault(error: BaseException) -> bool:
    """Whether `error` is the database refusing a call for now (see `_FAULT_CLASSES`)."""
    if isinstance(error, asyncpg.PostgresError):
        state = error.sqlstate or ""
        return state[:2] in _FAULT_CLASSES or state in _FAULT_CODES
    return isinstance(error, (OSError, TimeoutError))


@contextmanager
def _faults_unavailable() -> Iterator[None]:
    """Raise `StorageUnavailable` for PostgreSQL's refusals of the moment, and for a server that
    cannot be reached; other errors pass as they are."""
    try:
        yield
    except (asyncpg.PostgresError, OSError, TimeoutError) as error:
        if _is_fault(error):
            raise StorageUnavailable() from error
        raise


def shown_url(url: str) -> str:
    """`url` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class _Pool:
    """The pool every repository shares. Each call takes a connection for itself (or for its
    transaction) and gives it back; a refusal of the moment raises `StorageUnavailable`, and the
    transaction it was part of is rolled back whole."""

    def __init__(self, pool: asyncpg.Pool, acquire_timeout_s: float) -> None:
        self.pool = pool
        self._acquire_timeout_s = acquire_timeout_s

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy]:
        """One connection of the pool for the block (statements outside a transaction commit
        each on their own)."""
        with _faults_unavailable():
            async with self.pool.acquire(timeout=self._acquire_timeout_s) as connection:
                try:
                    yield connection
                except asyncpg.InterfaceError as error:
                    if connection.is_closed():  # the server went away between two statements
                        raise StorageUnavailable() from error
                    raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy]:
        """A connection in a transaction, committed when the block ends and rolled back whole
        when it raises."""
        async with self.connection() as connection, connection.transaction():
            yield connection

    async def execute(self, sql: str, *args: Any) -> int:
        """One statement that is a transaction on its own; returns how many rows it changed."""
        async with self.connection() as connection:
            return _changed(await connection.execute(sql, *args))

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self.connection() as connection:
            return list(await connection.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with self.connection() as connection:
            return await connection.fetchrow(sql, *args)


def _changed(status: str) -> int:
    """How many rows a statement changed, from its command tag (e.g. 'UPDATE 1')."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


class PostgresStorage:
    """An open PostgreSQL database and its repositories (implements `data.repositories.Database`)."""

    def __init__(self, pool: asyncpg.Pool, *, acquire_timeout_s: float = 5.0) -> None:
        self._db = _Pool(pool, acquire_timeout_s)
        self.league = PostgresLeague(self._db)
        self.matches = PostgresMatches(self._db, self.league)
        self.settings = PostgresSettings(self._db)

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, lock_timeout_ms: int = 5000
    ) -> PostgresStorage:
        """Connect to the database at `url` (postgresql://user:password@host:port/database), apply
        pending migrations (one process at a time) and prove that it can be written.
        `max_size`: the most connections this process holds; `lock_timeout_ms`: how long a call
        waits for a row another connection is writing before it raises `StorageUnavailable`."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                # No idle timer: the pool keeps its connections and schedules nothing of its own.
                max_inactive_connection_lifetime=0,
                server_settings={"lock_timeout": str(int(lock_timeout_ms)), "application_name": "game-table"},
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError, ValueError) as error:
            raise _unusable(url, error) from error
        storage = cls(pool, acquire_timeout_s=max(lock_timeout_ms / 1000, 1.0))
        try:
            await storage._migrate()
            await storage._prove_writable()
        except (asyncpg.PostgresError, StorageError) as error:
            await pool.close()
            raise _unusable(url, error) from error
        return storage

    @property
    def pool(self) -> asyncpg.Pool:
        """The pool itself, for diagnostics, tests and the copy command; the bot goes through
        the repositories."""
        return self._db.pool

    async def close(self) -> None:
        await self._db.pool.close()

    async def _migrate(self) -> None:
        """Apply each pending migration in its own transaction, holding an advisory lock for
        the whole run: a process starting meanwhile waits, then finds nothing left to do."""
        async with self._db.connection() as connection:
            # However long another process migrates: no lock_timeout while waiting or migrating.
            await connection.execute("SET lock_timeout = 0")
            await connection.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
            try:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "number BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
                )
                applied = await connection.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
                for migration in migrations(after=applied, dialect="postgres"):
                    async with connection.transaction():
                        for statement in migration.statements:
                            await connection.execute(statement)
                        await connection.execute(
                            "INSERT INTO schema_migrations (number, name, applied_at) VALUES ($1, $2, $3)",
                            migration.number,
                            migration.name,
                            now_iso(),
                        )
            finally:
                if not connection.is_closed():
                    await connection.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
                    await connection.execute("RESET lock_timeout")

    async def _prove_writable(self) -> None:
        """Fail at start-up, not at the first move, when the database cannot be written (a
        standby, a read-only default): a write that is rolled back."""
        async with self._db.connection() as connection:
            transaction = connection.transaction()
            await transaction.start()
            try:
                await connection.execute("UPDATE schema_migrations SET name = name WHERE number = 0")
            finally:
                await transaction.rollback()


def _unusable(url: str, error: BaseException) -> StorageError:
    """The one sentence `PostgresStorage.open` raises for a database it cannot use."""
    where = shown_url(url)
    cause = error.__cause__ if isinstance(error, StorageUnavailable) else error
    state = getattr(cause, "sqlstate", None) or ""
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


class PostgresMatches:
    """Lobbies, seats, moves, running matches, deadlines and pings (`MatchRepository`)."""

    def __init__(self, db: _Pool, league: PostgresLeague) -> None:
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
        async with self._db.transaction() as connection:
            if max_hosted is not None:  # one host's lobbies are counted one opening at a time
                await connection.execute(
                    "SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)", _LOCK_HOST, host_id
                )
                hosted, _ = await _read(connection, _HOSTED, (host_id, guild_id))
                if len(hosted) >= max_hosted:
                    raise TooManyLobbies(hosted)
            row = await connection.fetchrow(
                "WITH lobby AS ("
                "INSERT INTO matches (game, guild_id, channel_id, host_id, status, seed, options, "
                "clock_s, invited, language, rematch_of, created_at, updated_at) "
                "VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $8, $10, $11, $9, $9) "
                "ON CONFLICT (rematch_of) DO NOTHING RETURNING id), "
                "host AS (INSERT INTO seats (match_id, seat, user_id) SELECT id, 0, $4::bigint FROM lobby) "
                "SELECT id FROM lobby",
                game,
                guild_id,
                channel_id,
                host_id,
                seed,
                json.dumps(options),
                clock_s,
                json.dumps(invited) if invited else None,
                stamp,
                language,
                rematch_of,
            )
        if row is None:
            raise RematchTaken(await self._load("rematch_of = $1", (rematch_of,)))
        lobby = await self.get(row[0])
        assert lobby is not None
        return lobby

    async def join_lobby(self, match_id: int, user_id: int, max_players: int) -> bool:
        async with self._db.transaction() as connection:  # the match row stays locked until commit
            if not await _lock_lobby(connection, match_id):
                return False
            row = await connection.fetchrow(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE user_id = $2) FROM seats WHERE match_id = $1",
                match_id,
                user_id,
            )
            assert row is not None
            count, present = row
            if present or count >= max_players:
                return False
            await connection.execute(
                "INSERT INTO seats (match_id, seat, user_id) VALUES ($1, $2, $3)", match_id, count, user_id
            )
            return True

    async def leave_lobby(self, match_id: int, user_id: int) -> bool:
        async with self._db.transaction() as connection:
            if not await _lock_lobby(connection, match_id):
                return False
            if not _changed(
                await connection.execute(
                    "DELETE FROM seats WHERE match_id = $1 AND user_id = $2", match_id, user_id
                )
            ):
                return False
            remaining = await connection.fetch(
                "SELECT user_id FROM seats WHERE match_id = $1 ORDER BY seat", match_id
            )
            await connection.execute("DELETE FROM seats WHERE match_id = $1", match_id)
            await connection.execute(
                "INSERT INTO seats (match_id, seat, user_id) SELECT $1::bigint, seat - 1, user_id "
                "FROM unnest($2::bigint[]) WITH ORDINALITY AS t(user_id, seat)",
                match_id,
                [row[0] for row in remaining],
            )
            return True

    async def cancel_lobby(self, match_id: int) -> bool:
        changed = await self._db.execute(
            "UPDATE matches SET status = 'cancelled', updated_at = $1 WHERE id = $2 AND status = 'lobby'",
            now_iso(),
            match_id,
        )
        return changed == 1

    async def start(self, match_id: int, state: str, deadline: str | None = None) -> bool:
        stamp = now_iso()
        changed = await self._db.execute(
            "UPDATE matches SET status = 'running', state = $1, turn = 0, started_at = $2, "
            "updated_at = $2, moved_at = $2, deadline = $3 WHERE id = $4 AND status = 'lobby'",
            state,
            stamp,
            deadline,
            match_id,
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
        # One statement: the match (only at `turn`, re-checked after waiting for any other writer
        # of the row) and its move-log row, both or neither.
        sql = (
            "WITH played AS ("
            "UPDATE matches SET state = $1, turn = turn + 1, status = $2, updated_at = $3, moved_at = $3, "
            "finished_at = $4, deadline = $5, reminded = 0, timeouts = $6, "
            "departures = COALESCE($12::text, departures) "
            "WHERE id = $7 AND turn = $8 AND status = 'running' "
            "RETURNING game, guild_id, options, started_at), "
            "logged AS (INSERT INTO moves (match_id, turn, seat, user_id, move, created_at) "
            "SELECT $7::bigint, $8::bigint, $9::bigint, $10::bigint, $11::text, $3::text FROM played) "
            "SELECT game, guild_id, options, started_at FROM played"
        )
        args = (
            state,
            status,
            stamp,
            None if result is None else stamp,
            deadline,
            json.dumps(timeouts or {}),
            match_id,
            turn,
            seat,
            user_id,
            json.dumps(move, sort_keys=True),
            None if departures is None else departures_json(departures),
        )
        if result is None:
            return await self._db.fetchrow(sql, *args) is not None
        async with self._db.transaction() as connection:
            match = await connection.fetchrow(sql, *args)
            if match is None:
                return False
            game, guild_id, options, started_at = match
            await self._league.record_result(
                connection,
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
        await self._db.execute(
            "UPDATE matches SET channel_id = $1, updated_at = $2 WHERE id = $3",
            channel_id,
            now_iso(),
            match_id,
        )

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self._db.execute(
            "UPDATE matches SET message_id = $1, updated_at = $2 WHERE id = $3",
            message_id,
            now_iso(),
            match_id,
        )

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        await self._db.execute("UPDATE matches SET ping_message_id = $1 WHERE id = $2", message_id, match_id)

    async def mark_board_stale(self, match_id: int, stale: bool) -> None:
        await self._db.execute("UPDATE matches SET board_stale = $1 WHERE id = $2", int(stale), match_id)

    async def claim_ping(self, match_id: int, *, turn: int) -> bool:
        claimed = await self._db.execute(
            "UPDATE matches SET pinged_turn = $1 WHERE id = $2 AND (pinged_turn IS NULL OR pinged_turn < $1)",
            turn,
            match_id,
        )
        return claimed == 1

    async def mark_reminded(self, match_id: int, *, turn: int) -> bool:
        claimed = await self._db.execute(
            "UPDATE matches SET reminded = 1 "
            "WHERE id = $1 AND turn = $2 AND reminded = 0 AND status = 'running'",
            match_id,
            turn,
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
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE seats SET user_id = $1 WHERE match_id = $2 AND seat = $3 AND user_id = $4 "
                "AND match_id IN (SELECT id FROM matches WHERE id = $2 AND status = 'running' FOR UPDATE)",
                user_id,
                match_id,
                seat,
                replacing,
            )
            if not _changed(changed):
                return False
            await connection.execute(
                "UPDATE matches SET timeouts = $1, departures = $2, updated_at = $3 WHERE id = $4",
                json.dumps(timeouts),
                departures_json(departures),
                now_iso(),
                match_id,
            )
            return True

    async def own_moves(self, match_id: int) -> dict[int, int]:
        rows = await self._db.fetch(
            "SELECT seat, COUNT(*) FROM (SELECT seat, user_id, move, LAG(seat) OVER (ORDER BY turn) "
            "AS before FROM moves WHERE match_id = $1) AS m WHERE (before IS NULL OR before <> seat) "
            'AND user_id > 0 AND move <> \'{"type": "resign"}\' GROUP BY seat',
            match_id,
        )
        return {seat: count for seat, count in rows}

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._load("id = $1", (match_id,))
        return rows[0] if rows else None

    async def running(self) -> list[MatchRow]:
        return await self._load("status = 'running'")

    async def resume_running(
        self, outage: timedelta, shards: Shards = ALL_SHARDS
    ) -> tuple[list[MatchRow], list[SetAside]]:
        async with self._db.transaction() as connection:
            # The running matches stay locked until the commit: no move lands in between.
            where = f"status = 'running' AND {shards.condition()}"
            rows, unreadable = await _read(connection, where, lock=True)
            if outage > timedelta(0):
                shifted = shifted_by_outage(rows, outage)
                await connection.execute(
                    "UPDATE matches SET deadline = t.deadline, reminded = t.reminded, moved_at = t.moved_at "
                    "FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[]) "
                    "AS t(id, deadline, reminded, moved_at) WHERE matches.id = t.id",
                    [row.id for row in shifted],
                    [row.deadline for row in shifted],
                    [int(row.reminded) for row in shifted],
                    [row.moved_at for row in shifted],
                )
            await connection.execute(
                "UPDATE matches SET status = 'set_aside', note = t.note, updated_at = $3 "
                "FROM unnest($1::bigint[], $2::text[]) AS t(id, note) WHERE matches.id = t.id",
                [match.id for match in unreadable],
                [match.reason for match in unreadable],
                now_iso(),
            )
        for match in unreadable:
            log.warning("Match %s is set aside: %s", match.id, match.reason)
        return rows, unreadable

    async def set_aside(self, match_id: int, reason: str, *, resumable: bool = False) -> SetAside | None:
        aside = await self._set_aside("id = $4", match_id, reason, resumable)
        return aside[0] if aside else None

    async def set_aside_guild(self, guild_id: int, reason: str) -> list[SetAside]:
        return await self._set_aside("guild_id = $4", guild_id, reason, True)

    async def _set_aside(self, where: str, key: int, reason: str, resumable: bool) -> list[SetAside]:
        """Set aside the running matches `where` selects (`$4` being `key`); what to tell the
        players of each."""
        async with self._db.transaction() as connection:
            rows = await connection.fetch(
                "UPDATE matches SET status = 'set_aside', note = $1, resumable = $2, deadline = NULL, "
                f"reminded = 0, updated_at = $3 WHERE {where} AND status = 'running' "
                "RETURNING id, game, guild_id, channel_id, message_id, language",
                reason,
                int(resumable),
                now_iso(),
                key,
            )
            if not rows:
                return []
            players: dict[int, list[int]] = {row["id"]: [] for row in rows}
            for match_id, user_id in await connection.fetch(
                "SELECT match_id, user_id FROM seats WHERE match_id = ANY($1::bigint[]) "
                "ORDER BY match_id, seat",
                list(players),
            ):
                players[match_id].append(user_id)
        rows.sort(key=lambda row: int(row["id"]))
        return [set_aside_notice(row, players[row["id"]], reason) for row in rows]

    async def resume_set_aside(self, match_id: int, deadline: str | None) -> bool:
        changed = await self._db.execute(
            "UPDATE matches SET status = 'running', note = NULL, resumable = 0, deadline = $1, "
            "reminded = 0, pinged_turn = NULL, updated_at = $2, moved_at = $2 WHERE id = $3 "
            "AND status = 'set_aside' "
            "AND resumable = 1",
            deadline,
            now_iso(),
            match_id,
        )
        return changed == 1

    async def turns_since(self, since: str, shards: Shards = ALL_SHARDS) -> dict[int, tuple[int, str]]:
        rows = await self._db.fetch(
            f"SELECT id, turn, status FROM matches WHERE updated_at >= $1 AND {shards.condition()}", since
        )
        return {match_id: (turn, status) for match_id, turn, status in rows}

    async def lobbies(self) -> list[MatchRow]:
        return await self._load("status = 'lobby'")

    async def active_for(self, user_id: int, guild_id: int) -> list[MatchRow]:
        return await self._load(
            "guild_id = $1 AND (status IN ('lobby', 'running') OR (status = 'set_aside' AND resumable = 1)) "
            "AND id IN (SELECT match_id FROM seats WHERE user_id = $2)",
            (guild_id, user_id),
            newest_first=True,
        )

    async def rematch_of(self, match_id: int) -> MatchRow | None:
        rows = await self._load("rematch_of = $1", (match_id,))
        return rows[0] if rows else None

    async def move_log(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        rows = await self._db.fetch(
            "SELECT turn, seat, move FROM moves WHERE match_id = $1 ORDER BY turn", match_id
        )
        return [(turn, seat, json.loads(move)) for turn, seat, move in rows]

    async def _load(
        self, where: str, params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[MatchRow]:
        """The readable matches `where` selects, with their players (see `_read`)."""
        async with self._db.connection() as connection:
            rows, _ = await _read(connection, where, params, newest_first=newest_first)
        return rows


async def _lock_lobby(connection: asyncpg.pool.PoolConnectionProxy, match_id: int) -> bool:
    """Lock a match's row for the transaction: whether it is a lobby."""
    status = await connection.fetchval("SELECT status FROM matches WHERE id = $1 FOR UPDATE", match_id)
    return bool(status == "lobby")


async def _read(
    connection: asyncpg.pool.PoolConnectionProxy,
    where: str,
    params: Sequence[Any] = (),
    *,
    newest_first: bool = False,
    lock: bool = False,
) -> tuple[list[MatchRow], list[SetAside]]:
    """The matches `where` selects, with their players, in two queries however many there are:
    the readable ones, and those with a column the bot cannot read (logged as a warning), as
    what setting them aside would tell their players. `lock`: lock the rows until the commit."""
    order = ("DESC" if newest_first else "") + (" FOR UPDATE" if lock else "")
    stored = await connection.fetch(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id {order}",
        *params,
    )
    if not stored:
        return [], []
    players: dict[int, list[int]] = {row["id"]: [] for row in stored}
    for match_id, user_id in await connection.fetch(
        "SELECT match_id, user_id FROM seats WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, seat",
        list(players),
    ):
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


class PostgresLeague:
    """Results, ratings, leaderboards, stats and history (`LeagueRepository`)."""

    def __init__(self, db: _Pool) -> None:
        self._db = db

    async def record_result(
        self,
        connection: asyncpg.pool.PoolConnectionProxy,
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
        the overall ratings, inside the final move's transaction on `connection`. The server's
        ratings are locked until the commit: a result finishing at the same time in another
        process is judged and rated after this one, from what this one wrote."""
        await connection.execute(
            "SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)", _LOCK_RATINGS, guild_id
        )
        unrated = await self._unrated(connection, guild_id, result, stamp)
        await connection.execute(
            "INSERT INTO results (match_id, game, guild_id, draw, abandoned, unrated, duration_s, options, "
            "tiebreak, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
        )
        changes = {} if unrated else await self._rate(connection, guild_id, game, result)
        shown = [shown_ratings(changes.get((game, s.user_id))) for s in result.seats]
        await connection.execute(
            "INSERT INTO result_seats (match_id, seat, user_id, team, score, winner, resigned, left_by, "
            "rating_before, rating_after) SELECT $1::bigint, * FROM unnest($2::bigint[], $3::bigint[], "
            "$4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[], $9::float8[], "
            "$10::float8[])",
            match_id,
            [s.seat for s in result.seats],
            [s.user_id for s in result.seats],
            [s.team for s in result.seats],
            [s.score for s in result.seats],
            [int(s.winner) for s in result.seats],
            [int(s.resigned) for s in result.seats],
            [s.left for s in result.seats],
            [before for before, _ in shown],
            [after for _, after in shown],
        )

    async def _unrated(
        self, connection: asyncpg.pool.PoolConnectionProxy, guild_id: int, result: MatchResult, stamp: str
    ) -> str | None:
        """Why the result changes no rating, or None: a computer sat in it (the table is for
        people), it was abandoned, or two of its people already had their rated results of the
        day together (`data.ratings`)."""
        if any(is_computer(s.user_id) for s in result.seats):
            return WITH_COMPUTERS
        if result.abandoned:
            return ABANDONED
        repeated = await connection.fetchval(
            "SELECT 1 FROM results AS r "
            "JOIN result_seats AS a ON a.match_id = r.match_id "
            "JOIN result_seats AS b ON b.match_id = r.match_id AND b.user_id > a.user_id "
            "WHERE r.guild_id = $1 AND r.finished_at > $2 AND a.user_id = ANY($3::bigint[]) "
            "AND b.user_id = ANY($3::bigint[]) "
            "AND a.rating_before IS NOT NULL AND b.rating_before IS NOT NULL "
            "GROUP BY a.user_id, b.user_id HAVING COUNT(*) >= $4 LIMIT 1",
            guild_id,
            ratings.window_start(stamp),
            sorted({s.user_id for s in result.seats}),
            ratings.REPEAT_LIMIT,
        )
        return REPEATED if repeated else None

    async def _rate(
        self, connection: asyncpg.pool.PoolConnectionProxy, guild_id: int, game: str, result: MatchResult
    ) -> dict[tuple[str, int], tuple[ratings.Skill, ratings.Skill]]:
        """Update the players' ratings in the game and overall, and whom they met: the skills
        before and after, by (board, user)."""
        boards = (game, ratings.OVERALL)
        changes = ratings.rate_result(
            result, boards, await self._skills(connection, guild_id, boards, result.seats)
        )
        met = [(board, user, other) for board in boards for user, other in ratings.opponent_pairs(result)]
        if met:
            await connection.execute(
                "INSERT INTO rated_opponents (guild_id, game, user_id, opponent_id) "
                "SELECT $1::bigint, * FROM unnest($2::text[], $3::bigint[], $4::bigint[]) "
                "ON CONFLICT DO NOTHING",
                guild_id,
                [board for board, _, _ in met],
                [user for _, user, _ in met],
                [other for _, _, other in met],
            )
        wins = {s.user_id: int(s.winner and not s.resigned) for s in result.seats}
        entries = [(board, user, new) for (board, user), (_, new) in changes.items()]
        await connection.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, opponents) "
            "SELECT $1::bigint, game, user_id, mu, sigma, 1, wins, "
            "(SELECT COUNT(*) FROM rated_opponents AS o "
            "WHERE o.guild_id = $1 AND o.game = t.game AND o.user_id = t.user_id) "
            "FROM unnest($2::text[], $3::bigint[], "
            "$4::float8[], $5::float8[], $6::bigint[]) AS t(game, user_id, mu, sigma, wins) "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = ratings.games + 1, wins = ratings.wins + excluded.wins, opponents = excluded.opponents",
            guild_id,
            [board for board, _, _ in entries],
            [user for _, user, _ in entries],
            [new.mu for _, _, new in entries],
            [new.sigma for _, _, new in entries],
            [wins[user] for _, user, _ in entries],
        )
        return changes

    async def _skills(
        self,
        connection: asyncpg.pool.PoolConnectionProxy,
        guild_id: int,
        boards: Sequence[str],
        seats: Sequence[SeatResult],
    ) -> dict[tuple[str, int], ratings.Skill]:
        """The stored skills of the seats' players on the boards, in one query."""
        rows = await connection.fetch(
            "SELECT game, user_id, mu, sigma FROM ratings WHERE guild_id = $1 "
            "AND game = ANY($2::text[]) AND user_id = ANY($3::bigint[])",
            guild_id,
            list(boards),
            [s.user_id for s in seats],
        )
        return {(board, user): ratings.Skill(mu, sigma) for board, user, mu, sigma in rows}

    async def unrated_reason(self, match_id: int) -> str | None:
        row = await self._db.fetchrow("SELECT unrated FROM results WHERE match_id = $1", match_id)
        return None if row is None else row[0]

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        rows = await self._db.fetch(
            "SELECT seat, rating_before, rating_after FROM result_seats "
            "WHERE match_id = $1 AND rating_before IS NOT NULL",
            match_id,
        )
        return {seat: (int(before), int(after)) for seat, before, after in rows}

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch(
            "SELECT user_id, mu, sigma, wins, games FROM ratings WHERE guild_id = $1 AND game = $2 "
            "AND games >= $5 AND opponents >= $6 "
            "ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT $3 OFFSET $4",
            guild_id,
            game,
            limit,
            offset,
            ratings.LISTED_GAMES,
            ratings.LISTED_OPPONENTS,
        )
        return [
            {"user_id": u, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
            for u, mu, sigma, w, g in rows
        ]

    async def rated_players(self, guild_id: int, game: str) -> int:
        row = await self._db.fetchrow(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND game = $2 "
            "AND games >= $3 AND opponents >= $4",
            guild_id,
            game,
            ratings.LISTED_GAMES,
            ratings.LISTED_OPPONENTS,
        )
        assert row is not None
        return int(row[0])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch(
            "SELECT game, mu, sigma, wins, games, opponents FROM ratings "
            "WHERE guild_id = $1 AND user_id = $2 ORDER BY game",
            guild_id,
            user_id,
        )
        return player_rows(rows)

    async def computer_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        row = await self._db.fetchrow(
            "SELECT COUNT(*), COALESCE(SUM(mine.winner), 0) FROM result_seats AS mine "
            "JOIN results AS r ON r.match_id = mine.match_id "
            "WHERE r.guild_id = $1 AND mine.user_id = $2 "
            "AND EXISTS (SELECT 1 FROM result_seats AS c WHERE c.match_id = mine.match_id AND c.user_id < 0)",
            guild_id,
            user_id,
        )
        assert row is not None
        return int(row[0]), int(row[1])

    async def recent_results(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """One query: the latest results (by the index on guild, [game,] time) and their seats."""
        where = "guild_id = $1"
        params: list[Any] = [guild_id]
        if game is not None:
            params.append(game)
            where += f" AND game = ${len(params)}"
        if user_id is not None:
            params.append(user_id)
            where += f" AND match_id IN (SELECT match_id FROM result_seats WHERE user_id = ${len(params)})"
        params.append(limit)
        rows = await self._db.fetch(
            "WITH recent AS ("
            "SELECT match_id, game, draw, abandoned, unrated, duration_s, finished_at FROM results "
            f"WHERE {where} ORDER BY finished_at DESC, match_id DESC LIMIT ${len(params)}) "
            "SELECT r.match_id, r.game, r.draw, r.abandoned, r.unrated, r.duration_s, r.finished_at, "
            "s.seat, s.user_id, s.score, s.winner, s.left_by, s.rating_before, s.rating_after "
            "FROM recent AS r JOIN result_seats AS s ON s.match_id = r.match_id "
            "ORDER BY r.finished_at DESC, r.match_id DESC, s.seat",
            *params,
        )
        return results_by_match(rows)


class PostgresSettings:
    """Servers' settings and the bot's meta key/values (`SettingsRepository`)."""

    def __init__(self, db: _Pool) -> None:
        self._db = db

    async def for_guild(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetchrow(
            "SELECT clock_s, max_timeouts, threads FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return GuildSettings(row[0], row[1], bool(row[2])) if row else GuildSettings()

    async def set_default_clock(self, guild_id: int, seconds: int) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, clock_s) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET clock_s = excluded.clock_s",
            guild_id,
            seconds,
        )

    async def set_max_timeouts(self, guild_id: int, count: int) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, max_timeouts) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET max_timeouts = excluded.max_timeouts",
            guild_id,
            count,
        )

    async def set_threads(self, guild_id: int, on: bool) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, threads) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            guild_id,
            int(on),
        )

    async def guild_language(self, guild_id: int) -> str | None:
        row = await self._db.fetchrow("SELECT language FROM guild_settings WHERE guild_id = $1", guild_id)
        return row[0] if row else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            guild_id,
            language,
        )

    async def member_locale(self, user_id: int) -> str | None:
        row = await self._db.fetchrow("SELECT locale FROM member_languages WHERE user_id = $1", user_id)
        return row[0] or None if row else None  # '': a member known only by their closed DMs

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        await self._db.execute(
            "INSERT INTO member_languages (user_id, locale, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            user_id,
            locale,
            now_iso(),
        )

    async def dms_closed(self, user_id: int) -> bool:
        row = await self._db.fetchrow("SELECT dms_closed FROM member_languages WHERE user_id = $1", user_id)
        return bool(row and row[0])

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        await self._db.execute(
            "INSERT INTO member_languages (user_id, locale, updated_at, dms_closed) VALUES ($1, '', $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed",
            user_id,
            now_iso(),
            int(closed),
        )

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.fetchrow("SELECT value FROM meta WHERE key = $1", key)
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )
