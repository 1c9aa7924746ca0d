"""Ratings are OpenSkill's Plackett–Luce, stored per server and game, by the rules that keep a
table honest (data/ratings.py)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from data.model import (
    ABANDONED,
    REPEATED,
    RESIGNED,
    TIMED_OUT,
    WITH_COMPUTERS,
    Departure,
    MatchResult,
    SeatResult,
)
from data.ratings import NEWCOMER, Skill, rate, rate_result, team_ranks
from tests.data.tracing import ffa_result, running_match


def openskill(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[float]:
    """OpenSkill's own answer, flattened to (mu, sigma, mu, sigma, ...)."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=m, sigma=s) for m, s in team] for team in teams], ranks=ranks)
    return [value for team in rated for r in team for value in (r.mu, r.sigma)]


def ours(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[float]:
    rated = rate([[Skill(m, s) for m, s in team] for team in teams], ranks)
    return [value for team in rated for r in team for value in (r.mu, r.sigma)]


def test_a_free_for_all_is_rated_as_openskill_rates_it():
    teams = [[(25.0, 8.3)], [(30.0, 5.0)], [(20.0, 7.0)], [(27.0, 6.0)]]
    assert ours(teams, [2, 0, 3, 1]) == pytest.approx(openskill(teams, [2, 0, 3, 1]))


def test_teams_are_rated_as_openskill_rates_them():
    teams = [[(25.0, 8.3), (28.0, 6.0)], [(22.0, 7.0), (26.0, 5.5)], [(25.0, 8.3), (25.0, 8.3)]]
    assert ours(teams, [1, 0, 2]) == pytest.approx(openskill(teams, [1, 0, 2]))


def test_a_draw_gives_equal_ranks_and_equal_players_equal_ratings():
    ranks = team_ranks([[0], [1]], winners={0, 1}, scores=[4, 4])
    assert ranks == [0, 0]
    after = ours([[(25.0, 8.3)], [(25.0, 8.3)]], ranks)
    assert after == pytest.approx(openskill([[(25.0, 8.3)], [(25.0, 8.3)]], [0, 0]))
    assert after[:2] == pytest.approx(after[2:])


def test_losers_rank_by_score_and_equal_scores_share_a_rank():
    assert team_ranks([[0], [1], [2], [3]], winners={2}, scores=[3, 5, 9, 3]) == [2, 1, 0, 2]


def test_a_newcomer_is_shown_at_one_thousand():
    assert NEWCOMER.shown == 1000


async def test_a_stored_result_updates_the_game_and_overall_ratings_of_its_server_only(storage):
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=5, channel_id=6, host_id=1, seed=1, options={}
    )
    await storage.matches.join_lobby(row.id, 2, 4)
    await storage.matches.start(row.id, "{}")
    result = MatchResult(draw=False, seats=(SeatResult(0, 1, 0, 10, True), SeatResult(1, 2, 1, 4, False)))
    await storage.matches.record_move(row.id, turn=0, seat=0, user_id=1, move={}, state="{}", result=result)

    expected = openskill([[(NEWCOMER.mu, NEWCOMER.sigma)], [(NEWCOMER.mu, NEWCOMER.sigma)]], [0, 1])
    winner = Skill(*expected[0:2]).shown
    for user, rating, wins in ((1, winner, 1), (2, Skill(*expected[2:4]).shown, 0)):
        tables = await storage.league.player_ratings(5, user)
        assert [(t["game"], t["rating"], t["wins"], t["games"], t["opponents"]) for t in tables] == [
            ("*", rating, wins, 1, 1),
            ("rookie", rating, wins, 1, 1),
        ]
    assert await storage.league.player_ratings(99, 1) == []
    assert (await storage.league.rating_changes(row.id))[0] == (1000, winner)


def test_whoever_left_ranks_below_everyone_who_stayed_and_later_leavers_above_sooner_ones():
    # Seat 1 left first (a computer then won its seat), seat 2 left later; seat 0 stayed, scoring least.
    result = MatchResult(
        draw=False,
        seats=(
            SeatResult(0, 1, 0, 2, False),
            SeatResult(1, 2, 1, 30, True, resigned=True, left=TIMED_OUT, left_at=4),
            SeatResult(2, 3, 2, 20, False, resigned=True, left=RESIGNED, left_at=9),
        ),
    )
    changes = rate_result(result, ("rookie",), {})
    after = {user: new.shown for (_, user), (_, new) in changes.items()}
    assert after[1] > after[3] > after[2]


def test_a_partner_who_left_shares_nothing_of_the_win_the_team_played_on_to():
    # Teams {0, 2} and {1, 3}: seat 2 timed out and a computer played on; its team won.
    result = MatchResult(
        draw=False,
        seats=(
            SeatResult(0, 1, 0, 9, True),
            SeatResult(1, 2, 1, 5, False),
            SeatResult(2, 3, 0, 9, False, resigned=True, left=TIMED_OUT, left_at=6),
            SeatResult(3, 4, 1, 5, False),
        ),
    )
    changes = rate_result(result, ("sequence_numbers",), {})
    after = {user: new.shown for (_, user), (_, new) in changes.items()}
    assert after[1] > NEWCOMER.shown > after[3]  # the leaver lost, though their team won
    assert after[2] == after[4] < NEWCOMER.shown


async def played(storage, players: tuple[int, ...], *, guild_id: int = 1, result: MatchResult | None = None):
    """A finished match of `players` (the first wins); returns its id."""
    match_id = await running_match(storage, players, guild_id=guild_id)
    await storage.matches.record_move(
        match_id,
        turn=0,
        seat=0,
        user_id=players[0],
        move={},
        state="{}",
        result=result or ffa_result(players),
    )
    return match_id


async def test_an_abandoned_match_is_kept_in_history_but_changes_no_rating(storage):
    seats = (SeatResult(0, 11, 0, 0, True), SeatResult(1, 22, 1, 0, False, resigned=True, left=RESIGNED))
    match_id = await played(storage, (11, 22), result=MatchResult(False, seats, abandoned=True))

    assert await storage.league.rating_changes(match_id) == {}
    assert await storage.league.unrated_reason(match_id) == ABANDONED
    assert await storage.league.player_ratings(1, 11) == []
    (shown,) = await storage.league.recent_results(1)
    assert shown["abandoned"] and shown["unrated"] == ABANDONED
    assert [(s["user_id"], s["left"], s["change"]) for s in shown["seats"]] == [
        (11, None, None),
        (22, RESIGNED, None),
    ]
    assert (await storage.matches.get(match_id)).status == "abandoned"


async def test_any_two_members_rate_three_results_a_day_together_whoever_else_played(storage):
    rated = [await played(storage, players) for players in ((11, 22), (22, 11, 33), (11, 44, 22))]
    fourth = await played(storage, (33, 22, 55, 11))  # 11 and 22 again, among others
    elsewhere = await played(storage, (11, 22), guild_id=2)  # another server's table

    assert all([await storage.league.rating_changes(match_id) for match_id in rated])
    assert await storage.league.rating_changes(fourth) == {}
    assert await storage.league.unrated_reason(fourth) == REPEATED
    assert (await storage.league.recent_results(1))[0]["unrated"] == REPEATED
    assert await storage.league.rating_changes(elsewhere)
    assert await storage.league.unrated_reason(rated[0]) is None
    with_computer = await played(storage, (33, -1))
    assert await storage.league.unrated_reason(with_computer) == WITH_COMPUTERS


async def test_a_member_is_listed_after_five_rated_matches_against_three_different_members(storage):
    for opponent in (22, 33, 22, 33):
        await played(storage, (11, opponent))
    (_, rookie) = await storage.league.player_ratings(1, 11)
    assert (rookie["games"], rookie["opponents"], rookie["listed"]) == (4, 2, False)
    assert await storage.league.leaderboard(1, "rookie", offset=0, limit=10) == []
    assert await storage.league.rated_players(1, "*") == 0

    await played(storage, (11, 44))

    (_, rookie) = await storage.league.player_ratings(1, 11)
    assert (rookie["games"], rookie["opponents"], rookie["listed"]) == (5, 3, True)
    assert [row["user_id"] for row in await storage.league.leaderboard(1, "*", offset=0, limit=10)] == [11]
    assert await storage.league.rated_players(1, "rookie") == 1
    partners = MatchResult(
        False, tuple(SeatResult(s, u, s % 2, 9 - s, s % 2 == 0) for s, u in enumerate((55, 66, 77, 88)))
    )
    await played(storage, (55, 66, 77, 88), result=partners)
    assert (await storage.league.player_ratings(1, 55))[0]["opponents"] == 2  # 77 is a partner


async def test_a_replaced_player_and_their_turn_are_kept_and_own_turns_are_counted(storage):
    match_id = await running_match(storage, (11, 22))
    plays = ((0, 11), (0, 11), (1, None), (0, 11), (0, 11), (0, 11), (1, 22), (1, 22))  # whole turns
    for turn, (seat, user) in enumerate(plays):
        await storage.matches.record_move(
            match_id, turn=turn, seat=seat, user_id=user, move={"n": turn}, state="s"
        )
    left = Departure(1, 22, 8, TIMED_OUT)

    assert await storage.matches.replace_player(match_id, 1, -12, {}, replacing=22, departures=[left])
    await storage.matches.record_move(match_id, turn=8, seat=1, user_id=-12, move={"n": 8}, state="s")

    row = await storage.matches.get(match_id)
    assert row.players == [11, -12] and row.departures == [left] and row.moved_at is not None
    assert await storage.matches.own_moves(match_id) == {0: 2, 1: 1}
