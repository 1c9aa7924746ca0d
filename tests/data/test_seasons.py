"""Seasons: where they end, how ratings restart (data/ratings.py `soft_reset`), and a season's end
as stored — archived, reset and followed by the next season once, whoever tries; on both backends."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from data.model import MONTHLY, QUARTERLY, Standing, next_boundary
from data.ratings import NEWCOMER, OVERALL, Skill, soft_reset
from data.seasons import ranked
from tests.data.tracing import finish, running_match


def test_a_soft_reset_keeps_half_the_lead_raises_the_doubt_and_leaves_a_newcomer_alone():
    assert soft_reset(NEWCOMER) == NEWCOMER
    strong = soft_reset(Skill(31, 3))
    assert strong.mu == pytest.approx(28) and strong.sigma == pytest.approx(math.hypot(3, 25 / 6))
    weak = soft_reset(Skill(19, 3))
    assert weak.mu == pytest.approx(22)
    assert soft_reset(Skill(25, 8)).sigma == pytest.approx(25 / 3)  # never less sure than of a newcomer
    assert Skill(31, 3).shown > strong.shown > weak.shown  # lower, yet the order stays


@pytest.mark.parametrize(
    ("kind", "after", "boundary"),
    [
        (MONTHLY, datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)),
        (MONTHLY, datetime(2026, 12, 31, 23, 59, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)),
        (QUARTERLY, datetime(2026, 2, 10, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
        (QUARTERLY, datetime(2026, 10, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_season_ends_at_the_next_start_of_a_month_or_quarter(kind, after, boundary):
    assert next_boundary(kind, after) == boundary


def test_equal_ratings_and_wins_share_a_place_and_the_next_place_skips():
    table = ranked([(1, 1100, 4, 2), (2, 1200, 3, 3), (3, 1100, 5, 2), (4, 1100, 2, 1)])
    assert [(s.user_id, s.rank) for s in table] == [(2, 1), (1, 2), (3, 2), (4, 4)]


async def test_a_season_ends_once_its_tables_archived_its_ratings_reset_and_the_next_begun(storage):
    now = datetime.now(UTC)
    season = await storage.seasons.set_kind(1, MONTHLY, now - timedelta(days=1))
    assert season is not None and await storage.seasons.current(1) == season
    for players in ((11, 22), (11, 33), (22, 33)):
        assert await finish(storage, await running_match(storage, players, guild_id=1), players)
    before = {r["game"]: r["rating"] for r in await storage.league.player_ratings(1, 11)}
    later = datetime.fromisoformat(season.ends_at) + timedelta(hours=1)
    assert await storage.seasons.due(now) == []
    assert [s.id for s in await storage.seasons.due(later)] == [season.id]

    ended = await storage.seasons.end(season.id, later)

    assert ended is not None and await storage.seasons.end(season.id, later) is None  # once
    assert [s.user_id for s in ended.podium] == [11, 22, 33]
    assert ended.podium[0] == Standing(11, 1, before[OVERALL], 2, 2)
    assert ended.channels == ((2, 3, ended.channels[0][2]),)
    assert await storage.seasons.standings(season.id, "rookie", offset=0, limit=10) == list(ended.podium)
    assert await storage.seasons.standing_count(season.id, OVERALL) == 3
    after = {r["game"]: r for r in await storage.league.player_ratings(1, 11)}
    assert 1000 < after[OVERALL]["rating"] < before[OVERALL]
    assert (after[OVERALL]["games"], after[OVERALL]["wins"]) == (2, 2)  # the record stays whole
    following = await storage.seasons.current(1)
    assert following == ended.following and following.ends_at == next_boundary(MONTHLY, later).isoformat()
    assert await storage.seasons.due(later) == []
    assert [s.id for s in await storage.seasons.ended(1)] == [season.id]
    assert await storage.seasons.placings(1, 33) == [(later.isoformat(), 3)]
    assert await storage.seasons.record_since(1, 22, season.started_at) == {"rookie": (2, 1), OVERALL: (2, 1)}

    assert await storage.seasons.set_kind(1, None, later) is None
    assert await storage.seasons.current(1) is None and len(await storage.seasons.ended(1)) == 1
