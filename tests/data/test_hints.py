"""Hints in storage (a SQLite file, and PostgreSQL when there is one): counted per seat while a
match runs, kept with its result, summed for /stats, and judged for the rating."""

from __future__ import annotations

import sqlite3

from data.model import HINTED, MatchResult, SeatResult
from data.storage import Storage
from tests.data.test_migrations import database_at_version
from tests.data.tracing import running_match

PLAYERS = (11, 22)


def won_by(winner: int) -> MatchResult:
    """A two-player result that seat `winner` wins."""
    return MatchResult(
        draw=False,
        seats=tuple(SeatResult(seat, user, seat, 5, seat == winner) for seat, user in enumerate(PLAYERS)),
    )


async def finish(storage, match_id: int, winner: int) -> None:
    assert await storage.matches.record_move(
        match_id, turn=0, seat=0, user_id=11, move={"type": "last"}, state="{}", result=won_by(winner)
    )


async def test_hints_are_counted_once_a_turn_and_kept_with_a_result_that_stays_rated_when_the_hinter_lost(
    storage,
):
    match_id = await running_match(storage, PLAYERS)
    counted = [await storage.matches.count_hint(match_id, 1, turn=turn) for turn in (1, 1, 3, 2)]
    assert counted == [True, False, True, False]  # a turn's hint counts once, and never an older one
    assert await storage.matches.hints(match_id) == {1: 2}

    await finish(storage, match_id, winner=0)

    assert await storage.league.unrated_reason(match_id) is None
    assert set(await storage.league.rating_changes(match_id)) == {0, 1}
    assert await storage.matches.hints(match_id) == {1: 2}
    assert (await storage.league.hints_used(1, 22), await storage.league.hints_used(1, 11)) == (2, 0)
    assert await storage.league.hints_used(2, 22) == 0  # another server


async def test_a_result_whose_hinter_won_is_unrated_for_everyone(storage):
    match_id = await running_match(storage, PLAYERS)
    assert await storage.matches.count_hint(match_id, 0, turn=0)

    await finish(storage, match_id, winner=0)

    assert await storage.league.unrated_reason(match_id) == HINTED
    assert await storage.league.rating_changes(match_id) == {}
    assert await storage.league.hints_used(1, 11) == 1


async def test_an_older_database_gets_hint_counts_of_zero_and_counts_on(tmp_path):
    path = tmp_path / "version11.db"
    database_at_version(path, 11)
    storage = await Storage.open(path)
    try:
        before = await storage.matches.hints(2), await storage.league.hints_used(1, 11)
        assert await storage.matches.count_hint(2, 1, turn=0)
        after = await storage.matches.hints(2)
    finally:
        await storage.close()

    assert before == ({}, 0)
    assert after == {1: 1}
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT hints FROM result_seats").fetchall() == [(0,)]
    raw.close()
