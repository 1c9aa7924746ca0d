"""Every query the bot runs, written once for SQLite and PostgreSQL (SQLAlchemy Core): the
repositories of `data.repositories`. Where the databases differ (locks, how a transaction
begins) `data.runner.Runner` asks the backend's dialect."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.sql.dml import Update

from data import ratings
from data.dialects import LOCK_HOST, LOCK_RATINGS
from data.model import (
    ABANDONED,
    ALL_SHARDS,
    HINTED,
    REPEATED,
    WITH_COMPUTERS,
    Departure,
    GuildSettings,
    HeadToHead,
    MatchResult,
    MatchRow,
    RatedResult,
    RematchTaken,
    SeatResult,
    SetAside,
    Shards,
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
from data.runner import Runner
from data.tables import (
    guild_settings,
    matches,
    member_languages,
    meta,
    moves,
    rated_opponents,
    result_seats,
    results,
    seats,
)
from data.tables import ratings as rating_rows

log = logging.getLogger(__name__)


def constant(value: str | int) -> ColumnElement[Any]:
    """A constant written into the SQL, not bound: the query planner sees it (a partial index's
    condition, an index's expression)."""
    return literal_column(repr(value) if isinstance(value, str) else str(int(value)))


def status_is(*statuses: str) -> ColumnElement[bool]:
    if len(statuses) == 1:
        return matches.c.status == constant(statuses[0])
    return matches.c.status.in_([constant(status) for status in statuses])


def _hosted(host_id: int, guild_id: int) -> ColumnElement[bool]:
    """The open lobbies one member hosts on one server (the index lobbies_by_host)."""
    return and_(status_is("lobby"), matches.c.host_id == host_id, matches.c.guild_id == guild_id)


def _changed(connection: Connection, statement: Any) -> bool:
    """Run a statement; whether it changed a row."""
    return bool(connection.execute(statement).rowcount)


@cache
def _played(departures: bool) -> Update:
    """A move's update of its match, made once (a move is the hot path): only at its turn, the
    state, the turn number, the clock, the time of the move and (`departures`) the match's
    departures now."""
    changed: dict[str, Any] = {
        "state": bindparam("p_state"),
        "turn": matches.c.turn + 1,
        "status": bindparam("p_status"),
        "updated_at": bindparam("p_stamp"),
        "moved_at": bindparam("p_stamp"),
        "finished_at": bindparam("p_finished"),
        "deadline": bindparam("p_deadline"),
        "reminded": constant(0),
        "timeouts": bindparam("p_timeouts"),
    }
    if departures:
        changed["departures"] = bindparam("p_departures")
    return (
        update(matches)
        .where(
            matches.c.id == bindparam("p_match"), matches.c.turn == bindparam("p_turn"), status_is("running")
        )
        .values(changed)
        .returning(matches.c.game, matches.c.guild_id, matches.c.options, matches.c.started_at)
    )


_LOGGED = moves.insert()  # a move's row of the move log
RESIGNATION = '{"type": "resign"}'  # a resignation as the move log keeps it


def read_matches(
    connection: Connection, where: ColumnElement[bool], *, newest_first: bool = False, lock: bool = False
) -> tuple[list[MatchRow], list[SetAside]]:
    """The matches `where` selects, with their players, in two queries however many there are:
    the readable ones, and those with a column the bot cannot read (logged as a warning), as
    what setting them aside would tell their players. `lock`: lock the rows until the commit."""
    query = select(*(matches.c[name.strip()] for name in MATCH_COLUMNS.split(","))).where(where)
    query = query.order_by(matches.c.id.desc() if newest_first else matches.c.id)
    stored = connection.execute(query.with_for_update() if lock else query).mappings().all()
    if not stored:
        return [], []
    players: dict[int, list[int]] = {row["id"]: [] for row in stored}
    for match_id, user_id in connection.execute(
        select(seats.c.match_id, seats.c.user_id)
        .where(seats.c.match_id.in_(select(matches.c.id).where(where)))
        .order_by(seats.c.match_id, seats.c.seat)
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


class Matches:
    """Lobbies, seats, moves, running matches, deadlines and pings (`MatchRepository`)."""

    def __init__(self, db: Runner, league: League) -> None:
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

        def work(connection: Connection) -> int:
            if max_hosted is not None:  # one host's lobbies are counted one opening at a time
                self._db.lock(connection, LOCK_HOST, host_id)
                hosted, _ = read_matches(connection, _hosted(host_id, guild_id))
                if len(hosted) >= max_hosted:
                    raise TooManyLobbies(hosted)
            new = self._db.insert(matches).values(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                status="lobby",
                seed=seed,
                options=json.dumps(options),
                clock_s=clock_s,
                invited=json.dumps(invited) if invited else None,
                language=language,
                rematch_of=rematch_of,
                created_at=stamp,
                updated_at=stamp,
            )
            statement = new.on_conflict_do_nothing(index_elements=[matches.c.rematch_of])
            match_id: int | None = connection.execute(statement.returning(matches.c.id)).scalar()
            if match_id is None:
                taken, _ = read_matches(connection, matches.c.rematch_of == rematch_of)
                raise RematchTaken(taken)
            connection.execute(seats.insert().values(match_id=match_id, seat=0, user_id=host_id))
            return match_id

        lobby = await self.get(await self._db.transaction(work))
        assert lobby is not None
        return lobby

    async def join_lobby(self, match_id: int, user_id: int, max_players: int) -> bool:
        def work(connection: Connection) -> bool:  # the match row stays locked until commit
            if not _lock_lobby(connection, match_id):
                return False
            count, present = (
                connection.execute(
                    select(func.count(), func.count().filter(seats.c.user_id == user_id)).where(
                        seats.c.match_id == match_id
                    )
                )
            ).one()
            if present or count >= max_players:
                return False
            connection.execute(seats.insert().values(match_id=match_id, seat=count, user_id=user_id))
            return True

        return await self._db.transaction(work)

    async def leave_lobby(self, match_id: int, user_id: int) -> bool:
        def work(connection: Connection) -> bool:
            if not _lock_lobby(connection, match_id):
                return False
            mine = delete(seats).where(seats.c.match_id == match_id, seats.c.user_id == user_id)
            if not _changed(connection, mine):
                return False
            remaining = (
                connection.execute(
                    select(seats.c.user_id).where(seats.c.match_id == match_id).order_by(seats.c.seat)
                )
            ).scalars()
            users = list(remaining)
            connection.execute(delete(seats).where(seats.c.match_id == match_id))
            if users:
                connection.execute(
                    seats.insert().values(
                        [
                            {"match_id": match_id, "seat": seat, "user_id": user}
                            for seat, user in enumerate(users)
                        ]
                    )
                )
            return True

        return await self._db.transaction(work)

    async def cancel_lobby(self, match_id: int) -> bool:
        return await self._changes(
            update(matches)
            .where(matches.c.id == match_id, status_is("lobby"))
            .values(status="cancelled", updated_at=now_iso())
        )

    async def start(self, match_id: int, state: str, deadline: str | None = None) -> bool:
        stamp = now_iso()
        return await self._changes(
            update(matches)
            .where(matches.c.id == match_id, status_is("lobby"))
            .values(
                status="running",
                state=state,
                turn=0,
                started_at=stamp,
                updated_at=stamp,
                moved_at=stamp,
                deadline=deadline,
            )
        )

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
        changes = {
            "p_match": match_id,
            "p_turn": turn,
            "p_state": state,
            "p_status": status,
            "p_stamp": stamp,
            "p_finished": None if result is None else stamp,
            "p_deadline": deadline,
            "p_timeouts": json.dumps(timeouts or {}),
            "p_departures": None if departures is None else departures_json(departures),
        }
        logged = {
            "match_id": match_id,
            "turn": turn,
            "seat": seat,
            "user_id": user_id,
            "move": json.dumps(move, sort_keys=True),
            "created_at": stamp,
        }

        def work(connection: Connection) -> bool:
            # Only at `turn`: re-checked after waiting for any other writer of the row.
            match = connection.execute(_played(departures is not None), changes).first()
            if match is None:
                return False
            connection.execute(_LOGGED, logged)
            if result is not None:
                game, guild_id, options, started_at = match
                self._league.record_result(
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

        return await self._db.transaction(work)

    async def _changes(self, statement: Update) -> bool:
        """Run one statement that commits on its own: whether it changed a row."""
        return await self._db.run(lambda connection: _changed(connection, statement))

    async def _set(self, match_id: int, **values: Any) -> None:
        statement = update(matches).where(matches.c.id == match_id).values(**values)
        await self._db.run(lambda connection: connection.execute(statement))

    async def move_to_channel(self, match_id: int, channel_id: int) -> None:
        await self._set(match_id, channel_id=channel_id, updated_at=now_iso())

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self._set(match_id, message_id=message_id, updated_at=now_iso())

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        await self._set(match_id, ping_message_id=message_id)

    async def mark_board_stale(self, match_id: int, stale: bool) -> None:
        await self._set(match_id, board_stale=int(stale))

    async def claim_ping(self, match_id: int, *, turn: int) -> bool:
        pinged = matches.c.pinged_turn

        return await self._changes(
            update(matches)
            .where(matches.c.id == match_id, or_(pinged.is_(None), pinged < turn))
            .values(pinged_turn=turn)
        )

    async def mark_reminded(self, match_id: int, *, turn: int) -> bool:
        return await self._changes(
            update(matches)
            .where(
                matches.c.id == match_id,
                matches.c.turn == turn,
                matches.c.reminded == constant(0),
                status_is("running"),
            )
            .values(reminded=1)
        )

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
        running = select(matches.c.id).where(matches.c.id == match_id, status_is("running")).with_for_update()

        def work(connection: Connection) -> bool:
            replaced = _changed(
                connection,
                update(seats)
                .where(
                    seats.c.match_id == match_id,
                    seats.c.seat == seat,
                    seats.c.user_id == replacing,
                    seats.c.match_id.in_(running),
                )
                .values(user_id=user_id),
            )
            if not replaced:
                return False
            connection.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(
                    timeouts=json.dumps(timeouts),
                    departures=departures_json(departures),
                    updated_at=now_iso(),
                )
            )
            return True

        return await self._db.transaction(work)

    async def own_moves(self, match_id: int) -> dict[int, int]:
        log_ = select(
            moves.c.seat,
            moves.c.user_id,
            moves.c.move,
            func.lag(moves.c.seat).over(order_by=moves.c.turn).label("before"),
        ).where(moves.c.match_id == match_id)
        m = log_.subquery("m")
        query = (
            select(m.c.seat, func.count())
            .where(
                or_(m.c.before.is_(None), m.c.before != m.c.seat),
                m.c.user_id > constant(0),
                m.c.move != constant(RESIGNATION),
            )
            .group_by(m.c.seat)
        )

        def work(connection: Connection) -> dict[int, int]:
            return {seat: count for seat, count in connection.execute(query)}

        return await self._db.run(work)

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._load(matches.c.id == match_id)
        return rows[0] if rows else None

    async def running(self) -> list[MatchRow]:
        return await self._load(status_is("running"))

    async def resume_running(
        self, outage: timedelta, shards: Shards = ALL_SHARDS
    ) -> tuple[list[MatchRow], list[SetAside]]:
        def work(connection: Connection) -> tuple[list[MatchRow], list[SetAside]]:
            # The running matches stay locked until the commit: no move lands in between.
            where = and_(status_is("running"), text(shards.condition()))
            rows, unreadable = read_matches(connection, where, lock=True)
            shifted = shifted_by_outage(rows, outage) if outage > timedelta(0) else []
            if shifted:
                connection.execute(
                    update(matches)
                    .where(matches.c.id == bindparam("match"))
                    .values(
                        deadline=bindparam("new_deadline"),
                        reminded=bindparam("new_reminded"),
                        moved_at=bindparam("new_moved_at"),
                    ),
                    [
                        {
                            "match": row.id,
                            "new_deadline": row.deadline,
                            "new_reminded": int(row.reminded),
                            "new_moved_at": row.moved_at,
                        }
                        for row in shifted
                    ],
                )
            if unreadable:
                connection.execute(
                    update(matches)
                    .where(matches.c.id == bindparam("match"))
                    .values(status="set_aside", note=bindparam("reason"), updated_at=now_iso()),
                    [{"match": match.id, "reason": match.reason} for match in unreadable],
                )
            return rows, unreadable

        rows, unreadable = await self._db.transaction(work)
        for match in unreadable:
            log.warning("Match %s is set aside: %s", match.id, match.reason)
        return rows, unreadable

    async def set_aside(self, match_id: int, reason: str, *, resumable: bool = False) -> SetAside | None:
        aside = await self._set_aside(matches.c.id == match_id, reason, resumable)
        return aside[0] if aside else None

    async def set_aside_guild(self, guild_id: int, reason: str) -> list[SetAside]:
        return await self._set_aside(matches.c.guild_id == guild_id, reason, True)

    async def _set_aside(self, where: ColumnElement[bool], reason: str, resumable: bool) -> list[SetAside]:
        """Set aside the running matches `where` selects; what to tell the players of each."""
        columns = ("id", "game", "guild_id", "channel_id", "message_id", "language")

        def work(connection: Connection) -> list[SetAside]:
            rows = (
                (
                    connection.execute(
                        update(matches)
                        .where(where, status_is("running"))
                        .values(
                            status="set_aside",
                            note=reason,
                            resumable=int(resumable),
                            deadline=None,
                            reminded=0,
                            updated_at=now_iso(),
                        )
                        .returning(*(matches.c[name] for name in columns))
                    )
                )
                .mappings()
                .all()
            )
            if not rows:
                return []
            players: dict[int, list[int]] = {row["id"]: [] for row in rows}
            for match_id, user_id in connection.execute(
                select(seats.c.match_id, seats.c.user_id)
                .where(seats.c.match_id.in_(list(players)))
                .order_by(seats.c.match_id, seats.c.seat)
            ):
                players[match_id].append(user_id)
            ordered = sorted(rows, key=lambda row: int(row["id"]))
            return [set_aside_notice(row, players[row["id"]], reason) for row in ordered]

        return await self._db.transaction(work)

    async def resume_set_aside(self, match_id: int, deadline: str | None) -> bool:
        now = now_iso()
        return await self._changes(
            update(matches)
            .where(matches.c.id == match_id, status_is("set_aside"), matches.c.resumable == constant(1))
            .values(
                status="running",
                note=None,
                resumable=0,
                deadline=deadline,
                reminded=0,
                pinged_turn=None,
                updated_at=now,
                moved_at=now,
            )
        )

    async def turns_since(self, since: str, shards: Shards = ALL_SHARDS) -> dict[int, tuple[int, str]]:
        query = select(matches.c.id, matches.c.turn, matches.c.status).where(
            matches.c.updated_at >= since, text(shards.condition())
        )

        def work(connection: Connection) -> dict[int, tuple[int, str]]:
            return {match_id: (turn, status) for match_id, turn, status in connection.execute(query)}

        return await self._db.run(work)

    async def lobbies(self) -> list[MatchRow]:
        return await self._load(status_is("lobby"))

    async def active_for(self, user_id: int, guild_id: int) -> list[MatchRow]:
        mine = select(seats.c.match_id).where(seats.c.user_id == user_id)
        return await self._load(
            and_(
                matches.c.guild_id == guild_id,
                or_(
                    status_is("lobby", "running"),
                    and_(status_is("set_aside"), matches.c.resumable == constant(1)),
                ),
                matches.c.id.in_(mine),
            ),
            newest_first=True,
        )

    async def rematch_of(self, match_id: int) -> MatchRow | None:
        rows = await self._load(matches.c.rematch_of == match_id)
        return rows[0] if rows else None

    async def count_hint(self, match_id: int, seat: int, *, turn: int) -> bool:
        counted = seats.c.hint_turn
        return await self._changes(
            update(seats)
            .where(
                seats.c.match_id == match_id,
                seats.c.seat == seat,
                or_(counted.is_(None), counted < turn),
            )
            .values(hints=seats.c.hints + 1, hint_turn=turn)
        )

    async def hints(self, match_id: int) -> dict[int, int]:
        query = select(seats.c.seat, seats.c.hints).where(seats.c.match_id == match_id, seats.c.hints > 0)

        def work(connection: Connection) -> dict[int, int]:
            return {seat: hints for seat, hints in connection.execute(query)}

        return await self._db.run(work)

    async def move_log(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        query = select(moves.c.turn, moves.c.seat, moves.c.move).where(moves.c.match_id == match_id)

        def work(connection: Connection) -> list[tuple[int, int, dict[str, Any]]]:
            rows = connection.execute(query.order_by(moves.c.turn))
            return [(turn, seat, json.loads(move)) for turn, seat, move in rows]

        return await self._db.run(work)

    async def _load(self, where: ColumnElement[bool], *, newest_first: bool = False) -> list[MatchRow]:
        """The readable matches `where` selects, with their players (see `read_matches`)."""

        def work(connection: Connection) -> list[MatchRow]:
            return read_matches(connection, where, newest_first=newest_first)[0]

        return await self._db.run(work)


def _lock_lobby(connection: Connection, match_id: int) -> bool:
    """Lock a match's row for the transaction: whether it is a lobby."""
    query = select(matches.c.status).where(matches.c.id == match_id).with_for_update()
    return connection.execute(query).scalar() == "lobby"


class League:
    """Results, ratings, leaderboards, stats and history (`LeagueRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    def record_result(
        self,
        connection: Connection,
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
        the overall ratings, inside the final move's transaction on `connection`: seven
        statements at most, however many players. The server's ratings are locked until the
        commit: a result finishing at the same time in another process is judged and rated
        after this one, from what this one wrote."""
        self._db.lock(connection, LOCK_RATINGS, guild_id)
        query = select(seats.c.seat, seats.c.hints).where(seats.c.match_id == match_id)
        hints = {seat: count for seat, count in connection.execute(query)}
        unrated = self._unrated(connection, guild_id, result, stamp, hints)
        connection.execute(
            results.insert().values(
                match_id=match_id,
                game=game,
                guild_id=guild_id,
                draw=int(result.draw),
                abandoned=int(result.abandoned),
                unrated=unrated,
                duration_s=duration_s,
                options=options,
                tiebreak=result.tiebreak,
                finished_at=stamp,
            )
        )
        changes = {} if unrated else self._rate(connection, guild_id, game, result)
        rows = []
        for s in result.seats:
            before, after = shown_ratings(changes.get((game, s.user_id)))
            rows.append(
                {
                    "match_id": match_id,
                    "seat": s.seat,
                    "user_id": s.user_id,
                    "team": s.team,
                    "score": s.score,
                    "winner": int(s.winner),
                    "resigned": int(s.resigned),
                    "left_by": s.left,
                    "hints": hints.get(s.seat, 0),
                    "rating_before": before,
                    "rating_after": after,
                }
            )
        connection.execute(result_seats.insert().values(rows))

    def _unrated(
        self, connection: Connection, guild_id: int, result: MatchResult, stamp: str, hints: dict[int, int]
    ) -> str | None:
        """Why the result changes no rating, or None: a computer sat in it (the table is for
        people), it was abandoned, a player who used hints (`hints`, by seat) did not lose it,
        or two of its people already had their rated results of the day together (`data.ratings`)."""
        if any(is_computer(s.user_id) for s in result.seats):
            return WITH_COMPUTERS
        if result.abandoned:
            return ABANDONED
        if ratings.hinted(result, hints):
            return HINTED
        users = sorted({s.user_id for s in result.seats})
        r, a, b = results.alias("r"), result_seats.alias("a"), result_seats.alias("b")
        pairs = r.join(a, a.c.match_id == r.c.match_id).join(
            b, and_(b.c.match_id == r.c.match_id, b.c.user_id > a.c.user_id)
        )
        repeated = (
            select(constant(1))
            .select_from(pairs)
            .where(
                r.c.guild_id == guild_id,
                r.c.finished_at > ratings.window_start(stamp),
                a.c.user_id.in_(users),
                b.c.user_id.in_(users),
                a.c.rating_before.is_not(None),
                b.c.rating_before.is_not(None),
            )
            .group_by(a.c.user_id, b.c.user_id)
            .having(func.count() >= ratings.REPEAT_LIMIT)
            .limit(1)
        )
        return REPEATED if connection.execute(repeated).first() else None

    def _rate(
        self, connection: Connection, guild_id: int, game: str, result: MatchResult
    ) -> dict[tuple[str, int], tuple[ratings.Skill, ratings.Skill]]:
        """Update the players' ratings in the game and overall, and whom they met: the skills
        before and after, by (board, user)."""
        boards = (game, ratings.OVERALL)
        changes = ratings.rate_result(
            result, boards, self._skills(connection, guild_id, boards, result.seats)
        )
        met = [(board, user, other) for board in boards for user, other in ratings.opponent_pairs(result)]
        if met:
            connection.execute(
                self._db.insert(rated_opponents)
                .values(
                    [
                        {"guild_id": guild_id, "game": board, "user_id": user, "opponent_id": other}
                        for board, user, other in met
                    ]
                )
                .on_conflict_do_nothing()
            )
        wins = {s.user_id: int(s.winner and not s.resigned) for s in result.seats}
        opponents = rated_opponents.c
        rows = [
            {
                "guild_id": guild_id,
                "game": board,
                "user_id": user,
                "mu": new.mu,
                "sigma": new.sigma,
                "games": 1,
                "wins": wins[user],
                "opponents": select(func.count())
                .where(opponents.guild_id == guild_id, opponents.game == board, opponents.user_id == user)
                .scalar_subquery(),
            }
            for (board, user), (_, new) in changes.items()
        ]
        upsert = self._db.insert(rating_rows).values(rows)
        table = rating_rows.c
        connection.execute(
            upsert.on_conflict_do_update(
                index_elements=[table.guild_id, table.game, table.user_id],
                set_={
                    "mu": upsert.excluded.mu,
                    "sigma": upsert.excluded.sigma,
                    "games": table.games + 1,
                    "wins": table.wins + upsert.excluded.wins,
                    "opponents": upsert.excluded.opponents,
                },
            )
        )
        return changes

    def _skills(
        self, connection: Connection, guild_id: int, boards: Sequence[str], seats_: Sequence[SeatResult]
    ) -> dict[tuple[str, int], ratings.Skill]:
        """The stored skills of the seats' players on the boards, in one query."""
        table = rating_rows.c
        query = select(table.game, table.user_id, table.mu, table.sigma).where(
            table.guild_id == guild_id, table.game.in_(boards), table.user_id.in_([s.user_id for s in seats_])
        )
        return {
            (board, user): ratings.Skill(mu, sigma) for board, user, mu, sigma in connection.execute(query)
        }

    async def unrated_reason(self, match_id: int) -> str | None:
        query = select(results.c.unrated).where(results.c.match_id == match_id)
        return await self._db.run(lambda connection: connection.execute(query).scalar())

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        table = result_seats.c
        query = select(table.seat, table.rating_before, table.rating_after).where(
            table.match_id == match_id, table.rating_before.is_not(None)
        )

        def work(connection: Connection) -> dict[int, tuple[int, int]]:
            rows = connection.execute(query)
            return {seat: (int(before), int(after)) for seat, before, after in rows}

        return await self._db.run(work)

    def _listed(self, guild_id: int, game: str) -> ColumnElement[bool]:
        table = rating_rows.c
        return and_(
            table.guild_id == guild_id,
            table.game == game,
            table.games >= ratings.LISTED_GAMES,
            table.opponents >= ratings.LISTED_OPPONENTS,
        )

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict[str, Any]]:
        table = rating_rows.c
        query = (
            select(table.user_id, table.mu, table.sigma, table.wins, table.games)
            .where(self._listed(guild_id, game))
            .order_by((table.mu - constant(3) * table.sigma).desc(), table.wins.desc(), table.user_id)
            .limit(limit)
            .offset(offset)
        )

        def work(connection: Connection) -> list[dict[str, Any]]:
            rows = connection.execute(query)
            return [
                {"user_id": u, "rating": ratings.Skill(mu, sigma).shown, "wins": w, "games": g}
                for u, mu, sigma, w, g in rows
            ]

        return await self._db.run(work)

    async def rated_players(self, guild_id: int, game: str) -> int:
        query = select(func.count()).select_from(rating_rows).where(self._listed(guild_id, game))

        def work(connection: Connection) -> int:
            return int(connection.execute(query).scalar_one())

        return await self._db.run(work)

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        table = rating_rows.c
        query = (
            select(table.game, table.mu, table.sigma, table.wins, table.games, table.opponents)
            .where(table.guild_id == guild_id, table.user_id == user_id)
            .order_by(table.game)
        )

        def work(connection: Connection) -> list[dict[str, Any]]:
            return player_rows(connection.execute(query))

        return await self._db.run(work)

    async def computer_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        mine, computer = result_seats.alias("mine"), result_seats.alias("c")
        r = results.alias("r")
        query = (
            select(func.count(), func.coalesce(func.sum(mine.c.winner), 0))
            .select_from(mine.join(r, r.c.match_id == mine.c.match_id))
            .where(
                r.c.guild_id == guild_id,
                mine.c.user_id == user_id,
                exists().where(computer.c.match_id == mine.c.match_id, computer.c.user_id < constant(0)),
            )
        )
        games, won = await self._db.run(lambda connection: connection.execute(query).one())
        return int(games), int(won)

    async def hints_used(self, guild_id: int, user_id: int) -> int:
        query = (
            select(func.coalesce(func.sum(result_seats.c.hints), 0))
            .select_from(result_seats.join(results, results.c.match_id == result_seats.c.match_id))
            .where(results.c.guild_id == guild_id, result_seats.c.user_id == user_id)
        )
        return int(await self._db.run(lambda connection: connection.execute(query).scalar() or 0))

    async def recent_results(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """One query: the latest results (by the index on guild, [game,] time) and their seats."""
        where = [results.c.guild_id == guild_id]
        if game is not None:
            where.append(results.c.game == game)
        if user_id is not None:
            where.append(
                results.c.match_id.in_(
                    select(result_seats.c.match_id).where(result_seats.c.user_id == user_id)
                )
            )
        columns = ("match_id", "game", "draw", "abandoned", "unrated", "duration_s", "finished_at")
        recent = (
            select(*(results.c[name] for name in columns))
            .where(*where)
            .order_by(results.c.finished_at.desc(), results.c.match_id.desc())
            .limit(limit)
            .cte("recent")
            .alias("r")
        )
        s = result_seats.alias("s")
        query = (
            select(
                *(recent.c[name] for name in columns),
                s.c.seat,
                s.c.user_id,
                s.c.score,
                s.c.winner,
                s.c.left_by,
                s.c.rating_before,
                s.c.rating_after,
            )
            .select_from(recent.join(s, s.c.match_id == recent.c.match_id))
            .order_by(recent.c.finished_at.desc(), recent.c.match_id.desc(), s.c.seat)
        )

        def work(connection: Connection) -> list[dict[str, Any]]:
            return results_by_match(connection.execute(query))

        return await self._db.run(work)

    async def rating_history(self, guild_id: int, user_id: int, *, limit: int) -> list[RatedResult]:
        """A player's rated matches on a server, at most the latest `limit` of each game, oldest
        first: one query through the player's index, bounded by the player's own history."""
        mine, played = result_seats.alias("mine"), results.alias("played")
        latest = (
            func.row_number()
            .over(
                partition_by=played.c.game, order_by=(played.c.finished_at.desc(), played.c.match_id.desc())
            )
            .label("latest")
        )
        rated = (
            select(
                played.c.game,
                played.c.match_id,
                played.c.finished_at,
                played.c.draw,
                mine.c.rating_before,
                mine.c.rating_after,
                mine.c.winner,
                mine.c.resigned,
                latest,
            )
            .select_from(mine.join(played, played.c.match_id == mine.c.match_id))
            .where(
                mine.c.user_id == user_id, played.c.guild_id == guild_id, mine.c.rating_before.is_not(None)
            )
            .subquery("rated")
        )
        c = rated.c
        query = (
            select(c.game, c.finished_at, c.rating_before, c.rating_after, c.winner, c.resigned, c.draw)
            .where(c.latest <= limit)
            .order_by(c.finished_at, c.match_id)
        )

        def work(connection: Connection) -> list[RatedResult]:
            return [
                RatedResult(
                    game,
                    finished_at,
                    round(before),
                    round(after),
                    won=bool(winner and not resigned and not draw),
                    drew=bool(winner and draw),
                )
                for game, finished_at, before, after, winner, resigned, draw in connection.execute(query)
            ]

        return await self._db.run(work)

    async def head_to_head(self, guild_id: int, user_id: int, other_id: int) -> list[HeadToHead]:
        """What the matches `user_id` played against `other_id` on a server (on other teams, not
        abandoned) came to, per game, seen from `user_id`: one query through the first
        player's index."""
        a, b, r = result_seats.alias("a"), result_seats.alias("b"), results.alias("r")
        alone = and_(r.c.draw == 0, a.c.winner != b.c.winner)
        query = (
            select(
                r.c.game,
                func.count(),
                func.sum(case((and_(alone, a.c.winner == 1), 1), else_=0)),
                func.sum(case((and_(alone, b.c.winner == 1), 1), else_=0)),
                func.sum(case((or_(r.c.draw == 1, and_(a.c.winner == 1, b.c.winner == 1)), 1), else_=0)),
                func.max(r.c.finished_at),
            )
            .select_from(
                a.join(b, and_(b.c.match_id == a.c.match_id, b.c.user_id == other_id)).join(
                    r, r.c.match_id == a.c.match_id
                )
            )
            .where(a.c.user_id == user_id, r.c.guild_id == guild_id, r.c.abandoned == 0, a.c.team != b.c.team)
            .group_by(r.c.game)
            .order_by(r.c.game)
        )

        def work(connection: Connection) -> list[HeadToHead]:
            return [
                HeadToHead(game, int(played), int(wins), int(losses), int(draws), last)
                for game, played, wins, losses, draws, last in connection.execute(query)
            ]

        return await self._db.run(work)


class Settings:
    """Servers' settings and the bot's meta key/values (`SettingsRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def _one(self, query: Any) -> Any:
        return await self._db.run(lambda connection: connection.execute(query).first())

    async def _upsert(self, table: Any, key: str, /, **values: Any) -> None:
        """Insert a row, or set `values` (but the key) on the row that has its key."""
        statement = self._db.insert(table).values(**values)
        changed = {name: statement.excluded[name] for name in values if name != key}
        upsert = statement.on_conflict_do_update(index_elements=[key], set_=changed)
        await self._db.run(lambda connection: connection.execute(upsert))

    async def for_guild(self, guild_id: int) -> GuildSettings:
        table = guild_settings.c
        row = await self._one(
            select(table.clock_s, table.max_timeouts, table.threads).where(table.guild_id == guild_id)
        )
        return GuildSettings(row[0], row[1], bool(row[2])) if row else GuildSettings()

    async def set_default_clock(self, guild_id: int, seconds: int) -> None:
        await self._upsert(guild_settings, "guild_id", guild_id=guild_id, clock_s=seconds)

    async def set_max_timeouts(self, guild_id: int, count: int) -> None:
        await self._upsert(guild_settings, "guild_id", guild_id=guild_id, max_timeouts=count)

    async def set_threads(self, guild_id: int, on: bool) -> None:
        await self._upsert(guild_settings, "guild_id", guild_id=guild_id, threads=int(on))

    async def guild_language(self, guild_id: int) -> str | None:
        table = guild_settings.c
        row = await self._one(select(table.language).where(table.guild_id == guild_id))
        return row[0] if row else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self._upsert(guild_settings, "guild_id", guild_id=guild_id, language=language)

    async def member_locale(self, user_id: int) -> str | None:
        table = member_languages.c
        row = await self._one(select(table.locale).where(table.user_id == user_id))
        return row[0] or None if row else None  # '': a member known only by their closed DMs

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        await self._upsert(member_languages, "user_id", user_id=user_id, locale=locale, updated_at=now_iso())

    async def dms_closed(self, user_id: int) -> bool:
        table = member_languages.c
        row = await self._one(select(table.dms_closed).where(table.user_id == user_id))
        return bool(row and row[0])

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        statement = self._db.insert(member_languages).values(
            user_id=user_id, locale="", updated_at=now_iso(), dms_closed=int(closed)
        )
        upsert = statement.on_conflict_do_update(
            index_elements=["user_id"], set_={"dms_closed": statement.excluded.dms_closed}
        )
        await self._db.run(lambda connection: connection.execute(upsert))

    async def get_meta(self, key: str) -> str | None:
        row = await self._one(select(meta.c.value).where(meta.c.key == key))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._upsert(meta, "key", key=key, value=value)
