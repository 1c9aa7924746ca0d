"""What the player card and the head-to-head record read: a player's rating history and two
members' matches against each other, from stored results, on every backend."""

from __future__ import annotations

from itertools import pairwise

from data.model import HeadToHead, MatchResult, RatedResult, SeatResult
from data.ratings import streak


async def played(
    storage, seats: list[tuple[int, int, bool]], *, game="rookie", guild_id=1, draw=False, abandoned=False
) -> int:
    """A finished match of `seats` (user, team, winner), the first seat hosting; its id."""
    users = [user for user, _, _ in seats]
    row = await storage.matches.open_lobby(
        game=game, guild_id=guild_id, channel_id=2, host_id=users[0], seed=7, options={}
    )
    for user in users[1:]:
        assert await storage.matches.join_lobby(row.id, user, len(users))
    assert await storage.matches.start(row.id, "{}")
    result = MatchResult(
        draw=draw,
        abandoned=abandoned,
        seats=tuple(
            SeatResult(seat, user, team, 10 - seat, winner) for seat, (user, team, winner) in enumerate(seats)
        ),
    )
    assert await storage.matches.record_move(
        row.id, turn=0, seat=0, user_id=users[0], move={}, state="{}", result=result
    )
    return row.id


async def test_a_rating_history_is_each_games_latest_rated_matches_oldest_first(storage):
    await played(storage, [(1, 0, True), (2, 1, False)])
    await played(storage, [(1, 0, True), (3, 1, False)], game="tetris_link")
    await played(storage, [(4, 0, True), (1, 1, False)])
    await played(storage, [(1, 0, True), (5, 1, True)], draw=True)
    await played(storage, [(1, 0, True), (-1, 1, False)])  # with a computer: unrated
    await played(storage, [(1, 0, True), (2, 1, False)], guild_id=9)  # another server

    history = await storage.league.rating_history(1, 1, limit=10)

    assert [(h.game, h.won, h.drew) for h in history] == [
        ("rookie", True, False),
        ("tetris_link", True, False),
        ("rookie", False, False),
        ("rookie", False, True),
    ]
    rookie = [h for h in history if h.game == "rookie"]
    assert rookie[0].before == 1000 < rookie[0].after
    assert all(earlier.after == later.before for earlier, later in pairwise(rookie))
    assert rookie[1].after < rookie[1].before  # the loss
    current = {row["game"]: row["rating"] for row in await storage.league.player_ratings(1, 1)}
    assert rookie[-1].after == current["rookie"]

    latest = await storage.league.rating_history(1, 1, limit=2)
    assert latest == [history[1], *rookie[1:]]  # the two latest of rookie, the one of tetris_link
    assert await storage.league.rating_history(1, 6, limit=10) == []


async def test_two_members_head_to_head_counts_their_matches_against_each_other_per_game(storage):
    await played(storage, [(1, 0, True), (2, 1, False)])
    await played(storage, [(2, 0, False), (1, 1, True)])
    await played(storage, [(2, 0, True), (1, 1, False)])
    await played(storage, [(1, 0, True), (2, 1, True)], draw=True)
    third_won = await played(storage, [(3, 0, True), (1, 1, False), (2, 2, False)])
    await played(storage, [(1, 0, True), (2, 0, True), (3, 1, False), (4, 1, False)])  # partners
    await played(storage, [(1, 0, False), (2, 1, True)], abandoned=True)
    await played(storage, [(1, 0, True), (2, 1, False)], game="tetris_link")
    await played(storage, [(1, 0, True), (2, 1, False)], guild_id=9)

    record = await storage.league.head_to_head(1, 1, 2)

    ended = {r["match_id"]: r["finished_at"] for r in await storage.league.recent_results(1, limit=20)}
    rookie, tetris_link = record
    assert rookie == HeadToHead("rookie", 5, wins=2, losses=1, draws=1, last_played=ended[third_won])
    assert rookie.others == 1
    assert tetris_link == HeadToHead("tetris_link", 1, 1, 0, 0, ended[max(ended)])
    mirrored = await storage.league.head_to_head(1, 2, 1)
    assert [(h.wins, h.losses, h.draws, h.others) for h in mirrored] == [(1, 2, 1, 1), (0, 1, 0, 0)]
    assert await storage.league.head_to_head(1, 3, 4) == []  # only ever partners


def result(won: bool = False, drew: bool = False) -> RatedResult:
    return RatedResult("rookie", "2026-01-01T00:00:00+00:00", 1000, 1000, won, drew)


def test_a_streak_counts_the_latest_results_alike_and_a_draw_ends_it():
    win, loss, draw = result(won=True), result(), result(drew=True)
    assert streak([]) == 0
    assert streak([loss, win, win, win]) == 3
    assert streak([win, loss, loss]) == -2
    assert streak([win, win, draw]) == 0
