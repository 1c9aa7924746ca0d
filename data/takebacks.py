"""The queries of taking a move back by consent (`TakebackRepository`), written once for both
databases: a request asks the other people of a match to let a player take back their last
move; the last Accept takes it out of the move log (kept in the request) and returns the match
to its state before, in one transaction."""

from __future__ import annotations

import json

from sqlalchemy import ColumnElement, Connection, RowMapping, and_, exists, func, insert, select, update

from data.model import ACCEPTED, ASKED, Takeback, now_iso
from data.queries import RESIGNATION, constant, status_is
from data.runner import Runner
from data.tables import matches, moves, seats, takebacks


def _open(takeback_id: int) -> ColumnElement[bool]:
    """The request is still asked and its match still at the turn after the move it asks about."""
    return and_(
        takebacks.c.id == takeback_id,
        takebacks.c.status == constant(ASKED),
        exists().where(
            matches.c.id == takebacks.c.match_id,
            matches.c.turn == takebacks.c.turn + 1,
            status_is("running"),
        ),
    )


def _takeback(row: RowMapping) -> Takeback:
    return Takeback(
        id=row["id"],
        match_id=row["match_id"],
        turn=row["turn"],
        seat=row["seat"],
        user_id=row["user_id"],
        move=json.loads(row["move"]),
        moved_at=row["moved_at"],
        asked=tuple(json.loads(row["asked"])),
        accepted=tuple(json.loads(row["accepted"])),
        status=row["status"],
        asked_at=row["asked_at"],
        message_id=row["message_id"],
        answered_by=row["answered_by"],
    )


def _read(connection: Connection, takeback_id: int) -> Takeback | None:
    row = connection.execute(select(takebacks).where(takebacks.c.id == takeback_id)).mappings().first()
    return None if row is None else _takeback(row)


class Takebacks:
    """Requests to take a move back, and the moves taken back (`TakebackRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def ask(self, match_id: int, *, turn: int, user_id: int, asked: list[int]) -> Takeback | None:
        last = (
            select(moves.c.seat, moves.c.move, moves.c.created_at)
            .select_from(moves.join(matches, matches.c.id == moves.c.match_id))
            .where(
                moves.c.match_id == match_id,
                moves.c.turn == turn,
                moves.c.user_id == user_id,
                moves.c.move != constant(RESIGNATION),
                matches.c.turn == turn + 1,
                status_is("running"),
            )
        )
        asked_before = (
            select(takebacks.c.id)
            .where(
                takebacks.c.match_id == match_id,
                takebacks.c.turn == turn,
                takebacks.c.status != constant(ACCEPTED),
            )
            .limit(1)
        )

        def work(connection: Connection) -> Takeback | None:
            # The match row stays locked until commit: presses racing to ask store one request.
            connection.execute(select(matches.c.id).where(matches.c.id == match_id).with_for_update())
            found = connection.execute(last).first()
            if found is None or connection.execute(asked_before).first() is not None:
                return None
            seat, move, moved_at = found
            new = connection.execute(
                insert(takebacks)
                .values(
                    match_id=match_id,
                    turn=turn,
                    seat=seat,
                    user_id=user_id,
                    move=move,
                    moved_at=moved_at,
                    asked=json.dumps(asked),
                    accepted="[]",
                    status=ASKED,
                    asked_at=now_iso(),
                )
                .returning(takebacks.c.id)
            ).scalar_one()
            return _read(connection, new)

        return await self._db.transaction(work)

    async def get(self, takeback_id: int) -> Takeback | None:
        return await self._db.run(lambda connection: _read(connection, takeback_id))

    async def pending(self) -> list[Takeback]:
        query = (  # from the running matches (an index), to their requests (another)
            select(takebacks)
            .select_from(matches.join(takebacks, takebacks.c.match_id == matches.c.id))
            .where(status_is("running"), takebacks.c.status == constant(ASKED))
            .order_by(takebacks.c.id)
        )

        def work(connection: Connection) -> list[Takeback]:
            return [_takeback(row) for row in connection.execute(query).mappings()]

        return await self._db.run(work)

    async def set_message(self, takeback_id: int, message_id: int) -> None:
        statement = update(takebacks).where(takebacks.c.id == takeback_id).values(message_id=message_id)
        await self._db.run(lambda connection: connection.execute(statement))

    async def accept(self, takeback_id: int, user_id: int) -> Takeback | None:
        def work(connection: Connection) -> Takeback | None:
            # The request's row stays locked until commit: Accepts at the same time all count.
            locked = select(takebacks.c.id).where(takebacks.c.id == takeback_id).with_for_update()
            connection.execute(locked)
            query = select(takebacks.c.asked, takebacks.c.accepted).where(_open(takeback_id))
            row = connection.execute(query).first()
            if row is None or user_id not in json.loads(row.asked):
                return None
            accepted = sorted({*json.loads(row.accepted), user_id})
            connection.execute(
                update(takebacks).where(_open(takeback_id)).values(accepted=json.dumps(accepted))
            )
            return _read(connection, takeback_id)

        return await self._db.transaction(work)

    async def close(self, takeback_id: int, status: str, user_id: int | None) -> bool:
        statement = (
            update(takebacks)
            .where(takebacks.c.id == takeback_id, takebacks.c.status == constant(ASKED))
            .values(status=status, answered_by=user_id, answered_at=now_iso())
        )
        return await self._db.run(lambda connection: bool(connection.execute(statement).rowcount))

    async def take_back(self, takeback_id: int, *, user_id: int, state: str, deadline: str | None) -> bool:
        stamp = now_iso()

        def work(connection: Connection) -> bool:
            request = _read(connection, takeback_id)
            if request is None:
                return False
            returned = connection.execute(
                update(matches)
                .where(
                    matches.c.id == request.match_id,
                    matches.c.turn == request.turn + 1,
                    status_is("running"),
                    exists().where(takebacks.c.id == takeback_id, takebacks.c.status == constant(ASKED)),
                )
                .values(
                    state=state,
                    turn=request.turn,
                    deadline=deadline,
                    reminded=constant(0),
                    updated_at=stamp,
                    moved_at=stamp,
                )
            )
            if not returned.rowcount:
                return False
            connection.execute(
                update(takebacks)
                .where(takebacks.c.id == takeback_id)
                .values(
                    status=ACCEPTED,
                    accepted=json.dumps(list(request.asked)),
                    answered_by=user_id,
                    answered_at=stamp,
                )
            )
            connection.execute(
                moves.delete().where(moves.c.match_id == request.match_id, moves.c.turn == request.turn)
            )
            connection.execute(  # the hints of the turns after the move were of positions now gone
                update(seats)
                .where(seats.c.match_id == request.match_id, seats.c.hint_turn > request.turn)
                .values(hint_turn=request.turn)
            )
            return True

        return await self._db.transaction(work)

    async def count(self, guild_id: int, user_id: int) -> int:
        query = (
            select(func.count())
            .select_from(takebacks.join(matches, matches.c.id == takebacks.c.match_id))
            .where(
                takebacks.c.user_id == user_id,
                takebacks.c.status == constant(ACCEPTED),
                matches.c.guild_id == guild_id,
            )
        )
        return await self._db.run(lambda connection: int(connection.execute(query).scalar_one()))
