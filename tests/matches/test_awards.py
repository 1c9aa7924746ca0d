"""Which results count towards achievements (matches/awards.py), how an award is told, and how the
list of /achievements fits Discord's limits however long the catalogue grows."""

from __future__ import annotations

import discord

from cogs.achievements import entry_line, fields_of, pages_of, rarity_text, sections
from cogs.limits import FIELD_LIMIT
from data.model import (
    ABANDONED,
    HINTED,
    REPEATED,
    RESIGNED,
    TIMED_OUT,
    WITH_COMPUTERS,
    Award,
    FinishedMatch,
    PlayedSeat,
    PlayerResult,
)
from games.feats import Achievement
from matches.achievements import BEAT_HARD, FIRST_WIN, LEAGUE, STREAK_5
from matches.awards import counts_for_feats, counts_for_league, earned_line, league_awards
from matches.cards import COMPONENT_LIMIT, TEXT_LIMIT, Card, card_view, text_size
from matches.match import computer_id

ALICE = 11
HARD = computer_id([], "hard")


def result(
    match_id: int,
    *,
    won: bool = True,
    unrated: str | None = None,
    hints: int = 0,
    abandoned: bool = False,
    computers: tuple[int, ...] = (),
) -> PlayerResult:
    return PlayerResult(
        match_id=match_id,
        game="rookie",
        finished_at=f"2026-01-{match_id:02d}T12:00:00+00:00",
        draw=False,
        abandoned=abandoned,
        unrated=unrated,
        seat=PlayedSeat(0, ALICE, won, False, hints),
        computers=computers,
    )


def test_rated_wins_and_wins_against_computers_count_and_farmed_or_helped_ones_do_not():
    assert counts_for_league(result(1)) and counts_for_league(result(2, unrated=WITH_COMPUTERS))
    assert not counts_for_league(result(3, unrated=REPEATED))  # past the daily limit between two members
    assert not counts_for_league(result(4, unrated=HINTED))
    assert not counts_for_league(result(5, unrated=WITH_COMPUTERS, hints=1))
    assert not counts_for_league(result(6, unrated=ABANDONED, abandoned=True))


def test_feats_count_from_any_finished_match_but_not_for_helped_or_stood_in_seats():
    def finished(*seats: PlayedSeat, abandoned: bool = False) -> FinishedMatch:
        return FinishedMatch(
            1, "rookie", 7, "2026-01-01T12:00:00+00:00", False, abandoned, None, 1, {}, seats
        )

    mine, hinted = PlayedSeat(0, ALICE, True, False, 0), PlayedSeat(1, 22, False, False, 2)
    stood_in = PlayedSeat(2, 33, False, True, 0, TIMED_OUT)  # a computer played on for them
    computer, resigned = PlayedSeat(3, HARD, False, False, 0), PlayedSeat(4, 44, False, True, 0, RESIGNED)
    played = finished(mine, hinted, stood_in, computer, resigned)
    assert [counts_for_feats(played, seat) for seat in played.seats] == [True, False, False, False, True]
    assert not counts_for_feats(finished(mine, abandoned=True), mine)


def test_each_league_achievement_names_the_match_that_earned_it_and_skipped_results_break_no_run():
    history = [
        result(1, unrated=WITH_COMPUTERS, computers=(HARD,)),
        result(2),
        result(3, won=False, unrated=REPEATED),  # counts for nothing: no loss either
        result(4),
        result(5),
        result(6),
    ]
    earned = {award.key: award.match_id for award in league_awards(7, ALICE, history)}
    assert earned == {FIRST_WIN: 1, BEAT_HARD: 1, STREAK_5: 6}


def test_an_award_is_told_with_emoji_and_name_in_the_boards_language():
    first, hard = LEAGUE[0], next(a for a in LEAGUE if a.key == BEAT_HARD)
    both = "🏅 <@11> earned 🥇 **First win** and 🤖 **Giant slayer**"
    assert earned_line(ALICE, [first, hard], "en") == both
    assert earned_line(ALICE, [first], "de") == "🏅 <@11> schaltet 🥇 **Erster Sieg** frei."
    assert earned_line(ALICE, [first], "fr") == "🏅 <@11> débloque 🥇 **Première victoire**"


def test_forty_long_achievements_fit_in_fields_and_pages_within_discords_limits():
    catalogue = [
        Achievement(f"test.{n}", f"Achievement {n}", "A long description of a feat. " * 6, "🏅", "feat")
        for n in range(40)
    ]
    earned = [Award(1, ALICE, f"test.{n}", "2026-01-01T12:00:00+00:00") for n in range(0, 40, 3)]
    parts = sections(catalogue, earned, 9, {"test.0": 3}, "fr")
    pages = pages_of(fields_of(parts))

    assert len(pages) > 1
    shown = []
    for page in pages:
        card = Card(
            heading="🏅 Succès",
            body="<@11> a 14 succès sur 40.",
            parts=tuple(page),
            footer="Page 1 sur 2 · " + "x" * 200,
            items=[discord.ui.Button(label="◀"), discord.ui.Button(label="▶")],
        )
        assert all(len(value) <= FIELD_LIMIT for _, value in page)
        assert text_size(card) <= TEXT_LIMIT and card_view(card).total_children_count <= COMPONENT_LIMIT
        shown += [line for _, value in page for line in value.splitlines()]
    assert len(shown) == 40 and len(set(shown)) == 40
    assert shown[0] == entry_line(catalogue[0], "fr", rarity_text(3, 9, "fr"), earned[0])
    assert "33\xa0% des joueurs" in shown[0] and shown[0].count("<t:") == 1
    assert sum(line.startswith("🔒") for line in shown) == 40 - len(earned)
