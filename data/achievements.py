"""The queries of achievements (`AchievementRepository`), written once for both databases: what
finished matches and results achievements are read from, and what members earned, each once.

A result is *awarded* once its achievements were stored (`results.awarded`); the award and the
mark are one transaction, so a result left unawarded (stored before achievements existed, or
when the bot stopped between the result and its award) is awarded later, and never twice."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, and_, func, select, text, update

from data.model import (
    ALL_SHARDS,
    Award,
    FinishedMatch,
    PlayedSeat,
    PlayerResult,
    Shards,
)
from data.queries import constant
from data.runner import Runner
from data.tables import achievements, matches, moves, result_seats, results

CHUNK = 1000  # rows or ids a statement carries (a database takes some 32,000 parameters at most)


def _seat(row: Any) -> PlayedSeat:
    return PlayedSeat(row.seat, row.user_id, bool(row.winner), bool(row.resigned), row.hints, row.left_by)


_SEAT_COLUMNS = (
    result_seats.c.seat,
    result_seats.c.user_id,
    result_seats.c.winner,
    result_seats.c.resigned,
    result_seats.c.hints,
    result_seats.c.left_by,
)


def _options(stored: str) -> dict[str, Any]:
    """A match's stored options; {} for unreadable ones (the replay then says what is wrong)."""
    try:
        value = json.loads(stored)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class Achievements:
    """What achievements are read from, and what members earned (`AchievementRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def unawarded(self, before: str, shards: Shards = ALL_SHARDS) -> list[int]:
        query = (
            select(results.c.match_id)
            .where(
                results.c.awarded == constant(0),
                results.c.finished_at <= before,
                text(shards.condition("results.guild_id")),
            )
            .order_by(results.c.finished_at, results.c.match_id)
        )
        return await self._db.run(lambda connection: list(connection.execute(query).scalars()))

    async def finished(self, match_ids: list[int]) -> list[FinishedMatch]:
        """Three queries however many matches: results with their matches, seats, move logs."""
        ids = list(match_ids)
        head = (
            select(
                results.c.match_id,
                results.c.game,
                results.c.guild_id,
                results.c.finished_at,
                results.c.draw,
                results.c.abandoned,
                results.c.unrated,
                matches.c.seed,
                matches.c.options,
            )
            .select_from(results.join(matches, matches.c.id == results.c.match_id))
            .where(results.c.match_id.in_(ids))
            .order_by(results.c.finished_at, results.c.match_id)
        )
        seated = (
            select(result_seats.c.match_id, *_SEAT_COLUMNS)
            .where(result_seats.c.match_id.in_(ids))
            .order_by(result_seats.c.match_id, result_seats.c.seat)
        )
        logged = (
            select(moves.c.match_id, moves.c.turn, moves.c.seat, moves.c.move)
            .where(moves.c.match_id.in_(ids))
            .order_by(moves.c.match_id, moves.c.turn)
        )

        def work(connection: Connection) -> list[FinishedMatch]:
            seats: dict[int, list[PlayedSeat]] = {}
            for row in connection.execute(seated):
                seats.setdefault(row.match_id, []).append(_seat(row))
            logs: dict[int, list[tuple[int, int, dict[str, Any]]]] = {}
            for match_id, turn, seat, move in connection.execute(logged):
                logs.setdefault(match_id, []).append((turn, seat, json.loads(move)))
            return [
                FinishedMatch(
                    match_id=row.match_id,
                    game=row.game,
                    guild_id=row.guild_id,
                    finished_at=row.finished_at,
                    draw=bool(row.draw),
                    abandoned=bool(row.abandoned),
                    unrated=row.unrated,
                    seed=row.seed,
                    options=_options(row.options),
                    seats=tuple(seats.get(row.match_id, ())),
                    log=tuple(logs.get(row.match_id, ())),
                )
                for row in connection.execute(head)
            ]

        return await self._db.run(work)

    async def player_results(self, guild_id: int, user_ids: list[int]) -> dict[int, list[PlayerResult]]:
        """Two queries: the players' results, then the computer seats of those matches."""
        users = sorted(set(user_ids))
        mine = (
            select(
                results.c.match_id,
                results.c.game,
                results.c.finished_at,
                results.c.draw,
                results.c.abandoned,
                results.c.unrated,
                *_SEAT_COLUMNS,
            )
            .select_from(results.join(result_seats, result_seats.c.match_id == results.c.match_id))
            .where(results.c.guild_id == guild_id, result_seats.c.user_id.in_(users))
            .order_by(results.c.finished_at, results.c.match_id)
        )
        computer = result_seats.alias("computer")
        computers = (
            select(computer.c.match_id, computer.c.user_id)
            .where(
                computer.c.user_id < constant(0),
                computer.c.match_id.in_(
                    select(result_seats.c.match_id)
                    .select_from(result_seats.join(results, results.c.match_id == result_seats.c.match_id))
                    .where(results.c.guild_id == guild_id, result_seats.c.user_id.in_(users))
                ),
            )
            .order_by(computer.c.match_id, computer.c.seat)
        )

        def work(connection: Connection) -> dict[int, list[PlayerResult]]:
            found: dict[int, list[int]] = {}
            for match_id, user_id in connection.execute(computers):
                found.setdefault(match_id, []).append(user_id)
            by_player: dict[int, list[PlayerResult]] = {user: [] for user in users}
            for row in connection.execute(mine):
                by_player[row.user_id].append(
                    PlayerResult(
                        match_id=row.match_id,
                        game=row.game,
                        finished_at=row.finished_at,
                        draw=bool(row.draw),
                        abandoned=bool(row.abandoned),
                        unrated=row.unrated,
                        seat=_seat(row),
                        computers=tuple(found.get(row.match_id, ())),
                    )
                )
            return by_player

        return await self._db.run(work)

    async def award(self, earned: list[Award], awarded: list[int] | None = None) -> list[Award]:
        rows = [
            {
                "guild_id": award.guild_id,
                "user_id": award.user_id,
                "key": award.key,
                "earned_at": award.earned_at,
                "match_id": award.match_id,
            }
            for award in earned
        ]
        table = achievements.c

        def work(connection: Connection) -> list[Award]:
            new: list[Award] = []
            for start in range(0, len(rows), CHUNK):
                statement = (
                    self._db.insert(achievements)
                    .values(rows[start : start + CHUNK])
                    .on_conflict_do_nothing()
                    .returning(table.guild_id, table.user_id, table.key, table.earned_at, table.match_id)
                )
                new += [Award(*row) for row in connection.execute(statement)]
            marked = list(awarded or ())
            for start in range(0, len(marked), CHUNK):
                chunk = marked[start : start + CHUNK]
                connection.execute(update(results).where(results.c.match_id.in_(chunk)).values(awarded=1))
            return sorted(new, key=lambda award: (award.earned_at, award.user_id, award.key))

        return await self._db.transaction(work)

    async def earned(self, guild_id: int, user_id: int) -> list[Award]:
        table = achievements.c
        query = (
            select(table.guild_id, table.user_id, table.key, table.earned_at, table.match_id)
            .where(table.guild_id == guild_id, table.user_id == user_id)
            .order_by(table.earned_at, table.key)
        )
        return await self._db.run(lambda connection: [Award(*row) for row in connection.execute(query)])

    async def rarity(self, guild_id: int) -> tuple[int, dict[str, int]]:
        players = (
            select(func.count(func.distinct(result_seats.c.user_id)))
            .select_from(result_seats.join(results, results.c.match_id == result_seats.c.match_id))
            .where(and_(results.c.guild_id == guild_id, result_seats.c.user_id > constant(0)))
        )
        table = achievements.c
        holders = select(table.key, func.count()).where(table.guild_id == guild_id).group_by(table.key)

        def work(connection: Connection) -> tuple[int, dict[str, int]]:
            total = int(connection.execute(players).scalar_one())
            return total, {key: int(count) for key, count in connection.execute(holders)}

        return await self._db.run(work)
