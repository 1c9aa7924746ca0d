"""The queries of tournaments (`TournamentRepository`), written once for both databases: a
sign-up open in a channel, its entrants, and each round's byes and tables with the match each
plays and its places once decided. Each step that must happen once (start, a new round, a table's
result, the end) is claimed by a conditional write, so whichever press or process gets there
first does it, and only it."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from data.model import ALL_SHARDS, EntrantRow, SeatOutcome, Shards, TableRow, TournamentRow, now_iso
from data.runner import Runner
from data.tables import (
    result_seats,
    results,
    tournament_entrants,
    tournament_rounds,
    tournament_tables,
    tournaments,
)

LOCK_CHANNEL = 0x47540010  # the sign-ups of one channel are opened one at a time


def _read(connection: Connection, tournament_id: int) -> TournamentRow | None:
    row = connection.execute(select(tournaments).where(tournaments.c.id == tournament_id)).mappings().first()
    if row is None:
        return None
    found = TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        organizer_id=row["organizer_id"],
        game=row["game"],
        format=row["format"],
        seats=row["seats"],
        rounds=row["rounds"],
        clock_s=row["clock_s"],
        options=json.loads(row["options"]),
        language=row["language"],
        status=row["status"],
        round=row["round"],
    )
    entrants = connection.execute(
        select(tournament_entrants)
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.position)
    ).mappings()
    found.entrants = [
        EntrantRow(
            entrant["user_id"], entrant["rating"], entrant["joined"], entrant["left_at"], entrant["name"]
        )
        for entrant in entrants
    ]
    tables = connection.execute(
        select(tournament_tables)
        .where(tournament_tables.c.tournament_id == tournament_id)
        .order_by(tournament_tables.c.round, tournament_tables.c.position)
    ).mappings()
    found.tables = [
        TableRow(
            table["round"],
            table["position"],
            tuple(json.loads(table["seats"])),
            None if table["ranks"] is None else tuple(json.loads(table["ranks"])),
            table["match_id"],
        )
        for table in tables
    ]
    rounds = connection.execute(
        select(tournament_rounds.c.number, tournament_rounds.c.byes).where(
            tournament_rounds.c.tournament_id == tournament_id
        )
    )
    found.byes = {number: tuple(json.loads(byes)) for number, byes in rounds}
    return found


def _touch(tournament_id: int, **values: Any) -> Any:
    return update(tournaments).where(tournaments.c.id == tournament_id).values(updated_at=now_iso(), **values)


class Tournaments:
    """Tournaments, their entrants, rounds and tables (`TournamentRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        game: str,
        format: str,
        seats: int,
        rounds: int | None,
        clock_s: int | None,
        options: dict[str, Any],
        language: str,
    ) -> TournamentRow | int:
        stamp = now_iso()

        def work(connection: Connection) -> TournamentRow | int:
            self._db.lock(connection, LOCK_CHANNEL, channel_id)
            held = connection.execute(
                select(tournaments.c.id).where(
                    tournaments.c.channel_id == channel_id, tournaments.c.status == "signup"
                )
            ).scalar()
            if held is not None:
                return int(held)
            new = connection.execute(
                insert(tournaments)
                .values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    organizer_id=organizer_id,
                    game=game,
                    format=format,
                    seats=seats,
                    rounds=rounds,
                    clock_s=clock_s,
                    options=json.dumps(options),
                    language=language,
                    status="signup",
                    created_at=stamp,
                    updated_at=stamp,
                )
                .returning(tournaments.c.id)
            ).scalar_one()
            row = _read(connection, new)
            assert row is not None
            return row

        return await self._db.transaction(work)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        return await self._db.run(lambda connection: _read(connection, tournament_id))

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self._db.transaction(
            lambda connection: connection.execute(_touch(tournament_id, message_id=message_id))
        )

    async def join(
        self,
        tournament_id: int,
        user_id: int,
        *,
        rating: float,
        joined: int,
        max_entrants: int,
        name: str | None = None,
    ) -> bool:
        def work(connection: Connection) -> bool:  # the tournament row stays locked until commit
            status = connection.execute(
                select(tournaments.c.status, tournaments.c.round)
                .where(tournaments.c.id == tournament_id)
                .with_for_update()
            ).first()
            if status is None or status.status not in ("signup", "running"):
                return False
            count, present = connection.execute(
                select(func.count(), func.count().filter(tournament_entrants.c.user_id == user_id)).where(
                    tournament_entrants.c.tournament_id == tournament_id
                )
            ).one()
            if present or count >= max_entrants:
                return False
            last = connection.execute(
                select(func.coalesce(func.max(tournament_entrants.c.position), -1)).where(
                    tournament_entrants.c.tournament_id == tournament_id
                )
            ).scalar_one()
            connection.execute(
                insert(tournament_entrants).values(
                    tournament_id=tournament_id,
                    user_id=user_id,
                    position=last + 1,
                    rating=rating,
                    joined=joined,
                    name=name,
                )
            )
            connection.execute(_touch(tournament_id))
            return True

        return await self._db.transaction(work)

    async def withdraw(self, tournament_id: int, user_id: int, *, left: int | None) -> bool:
        """Take a player off a sign-up (`left` None) or mark them gone from round `left` on;
        False if they were not in (or gone already)."""
        mine = and_(
            tournament_entrants.c.tournament_id == tournament_id, tournament_entrants.c.user_id == user_id
        )

        def work(connection: Connection) -> bool:
            if left is None:
                return connection.execute(delete(tournament_entrants).where(mine)).rowcount > 0
            statement = (
                update(tournament_entrants)
                .where(mine, tournament_entrants.c.left_at.is_(None))
                .values(left_at=left)
            )
            return connection.execute(statement).rowcount > 0

        return await self._db.transaction(work)

    async def start(self, tournament_id: int, ratings: dict[int, float], rounds: int | None) -> bool:
        """Close the sign-up (once) with each entrant's rating now and the number of rounds."""

        def work(connection: Connection) -> bool:
            claimed = connection.execute(
                _touch(tournament_id, status="running", rounds=rounds).where(tournaments.c.status == "signup")
            )
            if claimed.rowcount == 0:
                return False
            for user_id, rating in ratings.items():
                connection.execute(
                    update(tournament_entrants)
                    .where(
                        tournament_entrants.c.tournament_id == tournament_id,
                        tournament_entrants.c.user_id == user_id,
                    )
                    .values(rating=rating)
                )
            return True

        return await self._db.transaction(work)

    async def close(self, tournament_id: int, status: str, *, was: str) -> bool:
        """Move a tournament from status `was` to `status` (cancelled, finished) once."""

        def work(connection: Connection) -> bool:
            changed = connection.execute(
                _touch(tournament_id, status=status).where(tournaments.c.status == was)
            )
            return changed.rowcount > 0

        return await self._db.transaction(work)

    async def add_round(
        self,
        tournament_id: int,
        number: int,
        tables: list[tuple[tuple[int, ...], tuple[int, ...] | None]],
        byes: tuple[int, ...],
    ) -> bool:
        """Store round `number` (its tables: players and places when decided already, and its
        byes) once, after round `number - 1`."""

        def work(connection: Connection) -> bool:
            claimed = connection.execute(
                _touch(tournament_id, round=number).where(
                    tournaments.c.round == number - 1, tournaments.c.status == "running"
                )
            )
            if claimed.rowcount == 0:
                return False
            connection.execute(
                insert(tournament_rounds).values(
                    tournament_id=tournament_id, number=number, byes=json.dumps(byes), started_at=now_iso()
                )
            )
            for position, (players, ranks) in enumerate(tables):
                connection.execute(
                    insert(tournament_tables).values(
                        tournament_id=tournament_id,
                        round=number,
                        position=position,
                        seats=json.dumps(players),
                        ranks=None if ranks is None else json.dumps(ranks),
                    )
                )
            return True

        return await self._db.transaction(work)

    def _table(self, tournament_id: int, number: int, position: int) -> Any:
        return update(tournament_tables).where(
            tournament_tables.c.tournament_id == tournament_id,
            tournament_tables.c.round == number,
            tournament_tables.c.position == position,
        )

    async def set_match(self, tournament_id: int, number: int, position: int, match_id: int) -> None:
        statement = self._table(tournament_id, number, position).values(match_id=match_id)
        await self._db.transaction(lambda connection: connection.execute(statement))

    async def record(self, tournament_id: int, number: int, position: int, ranks: tuple[int, ...]) -> bool:
        """A table's places, once (False if it had them already)."""
        statement = (
            self._table(tournament_id, number, position)
            .where(tournament_tables.c.ranks.is_(None))
            .values(ranks=json.dumps(ranks))
        )
        return await self._db.transaction(lambda connection: connection.execute(statement).rowcount > 0)

    async def table_of(self, match_id: int) -> tuple[int, int, int] | None:
        """The tournament, round and table position a match is played for, if any."""
        query = select(
            tournament_tables.c.tournament_id, tournament_tables.c.round, tournament_tables.c.position
        ).where(tournament_tables.c.match_id == match_id)

        def work(connection: Connection) -> tuple[int, int, int] | None:
            row = connection.execute(query).first()
            return None if row is None else (row[0], row[1], row[2])

        return await self._db.run(work)

    async def outcome(self, match_id: int) -> list[SeatOutcome] | None:
        """How each seat of a finished match ended (None while it has no result)."""
        query = (
            select(
                result_seats.c.seat,
                result_seats.c.user_id,
                result_seats.c.winner,
                result_seats.c.score,
                result_seats.c.resigned,
            )
            .select_from(results.join(result_seats, result_seats.c.match_id == results.c.match_id))
            .where(results.c.match_id == match_id)
            .order_by(result_seats.c.seat)
        )

        def work(connection: Connection) -> list[SeatOutcome] | None:
            rows = connection.execute(query).all()
            return [SeatOutcome(row[0], row[1], bool(row[2]), row[3], bool(row[4])) for row in rows] or None

        return await self._db.run(work)

    async def running(self, shards: Shards = ALL_SHARDS) -> list[int]:
        """The running tournaments of the guilds of `shards`."""
        query = select(tournaments.c.id).where(tournaments.c.status == "running").order_by(tournaments.c.id)

        def work(connection: Connection) -> list[int]:
            ids = connection.execute(query.add_columns(tournaments.c.guild_id)).all()
            return [row[0] for row in ids if shards.owns(row[1])]

        return await self._db.run(work)

    async def latest(self, guild_id: int, user_id: int | None = None) -> int | None:
        """The newest tournament of the server still open or running (with `user_id`: one they are
        still in), else the newest of all (without `user_id`)."""
        query = select(tournaments.c.id).where(tournaments.c.guild_id == guild_id)
        if user_id is not None:
            query = query.join(
                tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id
            ).where(
                tournament_entrants.c.user_id == user_id,
                tournament_entrants.c.left_at.is_(None),
                tournaments.c.status.in_(("signup", "running")),
            )
        active = tournaments.c.status.in_(("signup", "running"))

        def work(connection: Connection) -> int | None:
            found = connection.execute(
                query.order_by(active.desc(), tournaments.c.id.desc()).limit(1)
            ).scalar()
            return None if found is None else int(found)

        return await self._db.run(work)
