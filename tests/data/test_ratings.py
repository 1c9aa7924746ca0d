"""Ratings are OpenSkill's Plackett–Luce, stored per server and game."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from data.model import MatchResult, SeatResult
from data.ratings import NEWCOMER, Skill, rate, team_ranks


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
