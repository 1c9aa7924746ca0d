"""Counting the SQL statements a storage call runs (SQLite's trace callback)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from data.model import MatchResult, SeatResult
from data.repositories import Database
from data.storage import Storage


class Statements(list[str]):
    """The SQL statements SQLite ran, each with its parameters filled in, in order.

    A statement run for many rows (`executemany`) counts once per row."""

    def touching(self, table: str) -> list[str]:
        return [sql for sql in self if re.search(rf"\b{table}\b", sql)]

    def transactions(self) -> list[str]:
        return [sql for sql in self if sql.split()[0] in ("BEGIN", "COMMIT", "ROLLBACK")]


async def sql(storage: Storage, statement: str) -> list[Any]:
    """Run one statement on SQLite's connection itself (as a diagnostic would): its rows."""
    return await storage.on_sqlite(lambda connection: connection.execute(statement).fetchall())


@asynccontextmanager
async def recording(storage: Storage) -> AsyncIterator[Statements]:
    """Record every statement run on the storage's connection while the block runs."""
    statements = Statements()
    await storage.on_sqlite(lambda connection: connection.set_trace_callback(statements.append))
    try:
        yield statements
    finally:
        await storage.on_sqlite(lambda connection: connection.set_trace_callback(None))


async def running_match(
    storage: Database, players: tuple[int, ...] = (11, 22), *, guild_id: int = 1, deadline: str | None = None
) -> int:
    """A match started by `players` (the first hosts), at turn 0."""
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=guild_id, channel_id=2, host_id=players[0], seed=7, options={}
    )
    for user in players[1:]:
        assert await storage.matches.join_lobby(row.id, user, len(players))
    assert await storage.matches.start(row.id, '{"state": 0}', deadline)
    return row.id


def ffa_result(players: tuple[int, ...]) -> MatchResult:
    """Every player alone on a team, the first winning, scores falling by seat."""
    return MatchResult(
        draw=False,
        seats=tuple(SeatResult(seat, user, seat, 10 - seat, seat == 0) for seat, user in enumerate(players)),
    )


async def finish(storage: Database, match_id: int, players: tuple[int, ...]) -> bool:
    """Play the final move of a running match at turn 0."""
    return await storage.matches.record_move(
        match_id,
        turn=0,
        seat=0,
        user_id=players[0],
        move={"type": "last"},
        state="{}",
        result=ffa_result(players),
    )
