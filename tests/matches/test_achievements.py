"""The achievements' catalogue and the league rules (matches/achievements.py), and the feats of a
stored match read through its game's spec."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from cogs.registry import GAMES
from locales.catalogues import catalogue as translations
from matches.achievements import (
    BEAT_HARD,
    FIRST_WIN,
    SEASON_PODIUM,
    STREAK_5,
    TOURNAMENT_WIN,
    WINS_10,
    WINS_50,
    Earned,
    MatchResult,
    Placing,
    catalogue,
    league_achievements,
    match_feats,
)

START = datetime(2026, 1, 1, tzinfo=UTC)


def results(*outcomes: str, computers: tuple[str, ...] = ()) -> list[MatchResult]:
    """Results one day apart: "w" an outright win, "l" a loss, "d" a draw (a shared win)."""
    return [
        MatchResult(
            game="tremember",
            ended=START + timedelta(days=day),
            won=outcome in "wd",
            draw=outcome == "d",
            computers=computers,
        )
        for day, outcome in enumerate(outcomes)
    ]


def day(n: int) -> datetime:
    return START + timedelta(days=n)


# --- the catalogue ---------------------------------------------------------------------------


ALL = catalogue(GAMES.values())


def test_the_catalogue_has_at_least_25_achievements_with_unique_keys():
    keys = [achievement.key for achievement in ALL]
    assert len(keys) >= 25
    assert len(set(keys)) == len(keys)
    assert all(achievement.emoji and achievement.name and achievement.description for achievement in ALL)


def test_every_hosted_game_names_its_feats_and_each_has_at_least_three():
    for name, spec in GAMES.items():
        assert spec.feats is not None, name
        assert len([a for a in ALL if a.kind == "feat" and a.game == name]) >= 3, name
    assert {a.game for a in ALL if a.kind == "feat"} == set(GAMES)
    assert {a.game for a in ALL if a.kind == "league"} == {None}


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_name_and_description_is_translated(lang):
    written = translations(lang)
    for achievement in ALL:
        for text in (achievement.name, achievement.description):
            entry = written.get(text)
            assert entry is not None and entry.string and not entry.fuzzy, (lang, text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_stored_match_replays_into_the_feats_its_play_showed(name):
    spec = GAMES[name]
    for seed in range(6):
        players = spec.engine.min_players + seed % 2
        state = spec.engine.new_game(players, seed, {})
        views, log = [spec.engine.view(state, None)], []
        rng = random.Random(seed)
        while seats := spec.engine.current_seats(state):
            move = rng.choice(spec.engine.legal_moves(state, seats[0]))
            state = spec.engine.apply(state, seats[0], move)
            views.append(spec.engine.view(state, None))
            log.append((len(log), seats[0], {**move, "by": "clock"} if len(log) % 7 == 0 else move))
        found = match_feats(spec, players, seed, {}, log)
        assert found == spec.feats(views, log)
        assert set(found) <= set(range(players))
        assert all(key in {a.key for a in spec.achievements} for keys in found.values() for key in keys)


# --- the league rules ------------------------------------------------------------------------


def keys(earned: list[Earned]) -> list[str]:
    return [entry.key for entry in earned]


def test_the_first_win_is_earned_at_the_first_outright_win():
    earned = league_achievements(results("l", "d", "w", "w"))
    assert earned == [Earned(FIRST_WIN, day(2))]


def test_nothing_without_a_win():
    assert league_achievements(results("l", "d", "l")) == []
    assert league_achievements([]) == []


def test_ten_and_fifty_wins_count_wins_not_matches():
    earned = league_achievements(results(*("wl" * 50)))
    assert earned == [Earned(FIRST_WIN, day(0)), Earned(WINS_10, day(18)), Earned(WINS_50, day(98))]
    assert WINS_50 not in keys(league_achievements(results(*("w" * 49), "d", "l")))


def test_five_wins_in_a_row_and_a_loss_breaks_the_run():
    assert STREAK_5 not in keys(league_achievements(results("w", "w", "w", "w", "l", "w", "w", "w", "w")))
    earned = league_achievements(results("w", "w", "l", "w", "w", "w", "w", "w"))
    assert Earned(STREAK_5, day(7)) in earned


def test_a_draw_breaks_the_run_too():
    assert STREAK_5 not in keys(league_achievements(results("w", "w", "w", "d", "w", "w")))


def test_beating_a_hard_computer_needs_the_win_and_the_hard_level():
    assert BEAT_HARD in keys(league_achievements(results("w", computers=("easy", "hard"))))
    assert BEAT_HARD not in keys(league_achievements(results("l", "d", computers=("hard",))))
    assert BEAT_HARD not in keys(league_achievements(results("w", computers=("normal",))))


def test_a_tournament_won_and_a_season_podium():
    placings = [
        Placing("tournament", day(3), 2),
        Placing("season", day(5), 4),
        Placing("season", day(9), 3),
        Placing("tournament", day(12), 1),
    ]
    earned = league_achievements(results("w"), placings)
    assert earned == [
        Earned(FIRST_WIN, day(0)),
        Earned(SEASON_PODIUM, day(9)),
        Earned(TOURNAMENT_WIN, day(12)),
    ]
    assert league_achievements([], placings[:2]) == []


def test_each_achievement_is_earned_once():
    earned = league_achievements(results(*("w" * 60), computers=("hard",)))
    assert len(keys(earned)) == len(set(keys(earned))) == 5
