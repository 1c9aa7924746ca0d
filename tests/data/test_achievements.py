"""Achievements in storage: each earned once per member and server, what they are read from, how
rare they are, and placings awarded through the service the tournaments and seasons call."""

from __future__ import annotations

from datetime import UTC, datetime

from cogs.registry import GAMES
from data.model import ALL_SHARDS, Award, now_iso
from matches.achievements import SEASON_PODIUM, TOURNAMENT_WIN, Placing
from matches.awards import Awards
from tests.data.finished import store_played

GUILD, OTHER = 5, 6
ALICE, BOB, CAROL = 11, 22, 33
COMPUTER = -13  # a hard computer's seat


async def test_an_achievement_is_stored_once_and_only_the_new_ones_are_returned(storage):
    first = Award(GUILD, ALICE, "league.first_win", "2026-01-01T10:00:00+00:00", None)
    again = Award(GUILD, ALICE, "league.first_win", "2026-02-01T10:00:00+00:00", None)
    elsewhere = Award(OTHER, ALICE, "league.first_win", "2026-02-01T10:00:00+00:00", None)

    assert await storage.achievements.award([first]) == [first]
    assert await storage.achievements.award([again, elsewhere]) == [elsewhere]

    assert await storage.achievements.earned(GUILD, ALICE) == [first]  # the first time is kept
    assert await storage.achievements.earned(GUILD, BOB) == []


async def test_stored_matches_are_read_whole_awarded_once_and_rarity_counts_the_servers_players(storage):
    triominos = GAMES["triominos"]
    played, feats = await store_played(storage, triominos, guild_id=GUILD, users=(ALICE, BOB))
    against, _ = await store_played(storage, triominos, guild_id=GUILD, users=(CAROL, COMPUTER), seed=1)
    await store_played(storage, triominos, guild_id=OTHER, users=(ALICE, BOB), seed=2)

    waiting = await storage.achievements.unawarded(now_iso(), ALL_SHARDS)
    assert set(waiting) >= {played, against} and len(waiting) == 3
    [match] = await storage.achievements.finished([played])
    assert (match.game, match.guild_id, match.abandoned, match.unrated) == ("triominos", GUILD, False, None)
    assert [seat.user_id for seat in match.seats] == [ALICE, BOB] and len(match.log) > 10
    history = await storage.achievements.player_results(GUILD, [CAROL, ALICE])
    assert [result.match_id for result in history[CAROL]] == [against]
    assert history[CAROL][0].computers == (COMPUTER,) and history[CAROL][0].unrated == "computers"
    assert [result.match_id for result in history[ALICE]] == [played]  # this server's only

    awards = Awards(storage, GAMES, ALL_SHARDS)
    new = await awards.award([played, against])
    assert {(a.user_id, a.key) for a in new if a.match_id == played} >= {
        (user, key) for user, keys in feats.items() for key in keys
    }
    assert all(a.user_id > 0 for a in new)  # computers earn nothing
    assert await awards.award([played, against]) == []  # each once
    assert await storage.achievements.unawarded(now_iso(), ALL_SHARDS) == [max(waiting)]

    players, holders = await storage.achievements.rarity(GUILD)
    assert players == 3  # Alice, Bob and Carol finished a match here; the computer is none
    assert holders == {key: len({a.user_id for a in new if a.key == key}) for key in {a.key for a in new}}


async def test_placings_earn_a_champion_and_a_podium_once_and_computers_nothing(storage):
    awards = Awards(storage, GAMES, ALL_SHARDS)
    won = Placing("tournament", datetime(2026, 3, 1, tzinfo=UTC), 1)
    third = Placing("season", datetime(2026, 4, 1, tzinfo=UTC), 3)

    earned = await awards.award_placings(GUILD, ALICE, [won, third])
    assert [a.key for a in earned] == [TOURNAMENT_WIN, SEASON_PODIUM]
    assert await awards.award_placings(GUILD, ALICE, [won]) == []
    assert await awards.award_placings(GUILD, COMPUTER, [won]) == []
    stored = await storage.achievements.earned(GUILD, ALICE)
    assert [(a.key, a.earned_at, a.match_id) for a in stored] == [
        (TOURNAMENT_WIN, won.ended.isoformat(), None),
        (SEASON_PODIUM, third.ended.isoformat(), None),
    ]
