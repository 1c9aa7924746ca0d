"""The player card: drawn from plain data, the same every time, readable, its lines told apart
without colour, its alt text saying the same in words; fast for a player of many matches."""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import combinations

from PIL import Image

from benchmarks.player_card import ACHIEVEMENTS, player
from cogs.player_card import HISTORY_LIMIT, card
from locales import LANGUAGES
from matches.match import ALT_LIMIT
from render.player_card import SIGNALS, PlayerCard, card_image, render, sampled
from tests.registry import HOSTED
from tests.render.test_colour_vision import APART, as_drawn
from tests.render.vision import DEFICIENCIES, delta_e, simulate


def cards(lang: str) -> Iterator[PlayerCard]:
    """A card of no game, of one match, of a few games with achievements, of 5 games × 500 matches."""
    for games, matches, achievements in (
        (0, 0, ()),
        (1, 1, ()),
        (3, 12, ACHIEVEMENTS),
        (5, HISTORY_LIMIT, ()),
    ):
        ratings, history = player(games, matches)
        yield card(HOSTED, "Alice Wonderland", ratings, history, achievements, lang)[0]


def pictures() -> Iterator[bytes]:
    """Every sample card in every language (for tests/render/test_readable.py)."""
    for lang in LANGUAGES:
        for drawn in cards(lang):
            yield render(drawn)


def test_the_card_is_the_same_every_time_and_grows_with_the_games_it_charts():
    empty, one, few, many = cards("en")
    assert render(many) == render(many)
    heights = [card_image(drawn).height for drawn in (empty, one, many)]
    assert heights == sorted(set(heights))
    assert {card_image(drawn).width for drawn in (empty, one, few, many)} == {600}


def test_without_achievements_the_section_is_simply_absent():
    few = list(cards("en"))[2]
    without = PlayerCard(few.name, few.facts, few.games, few.achievements_title, (), few.empty)
    assert card_image(few).height - card_image(without).height == 34 + 36  # heading and one row of badges


def test_a_long_history_is_sampled_evenly_keeping_its_first_and_last_rating():
    values = list(range(1000))
    assert sampled(values, 5) == [0, 250, 500, 749, 999]
    assert sampled(values[:3], 5) == [0, 1, 2]


def test_every_games_line_keeps_its_colour_and_its_name_beside_it_for_every_colour_vision():
    many = list(cards("en"))[3]
    image = Image.open(io.BytesIO(render(many))).convert("RGB")
    lines = SIGNALS["game lines"]
    drawn = [(signal, found) for signal in lines if (found := as_drawn(image, signal.colour))]
    assert [signal for signal, _ in drawn] == list(lines)  # every line's colour is on the card
    assert {chart.title for chart in many.games} == set(HOSTED.title_of(game) for game in list(HOSTED)[:5])
    for deficiency in DEFICIENCIES:  # the lines are flat colours: simulated colour by colour
        for (first, a), (second, b) in combinations(drawn, 2):
            distance = delta_e(simulate(a, deficiency), simulate(b, deficiency))
            assert distance >= APART or first.mark != second.mark, (first, second, deficiency)


def test_the_alt_text_names_every_game_its_rating_and_record_within_the_limit():
    ratings, history = player(5, HISTORY_LIMIT)
    for lang in LANGUAGES:
        drawn, alt = card(HOSTED, "Alice", ratings, history, ACHIEVEMENTS, lang)
        assert len(alt) < ALT_LIMIT  # whole: the last games' courses left out where all do not fit
        assert all(name in alt for _, name in ACHIEVEMENTS)
        for chart in drawn.games:
            assert chart.title in alt and " ".join(chart.rating.split()) in alt  # alt text has plain spaces
    drawn, alt = card(
        HOSTED, "Alice", ratings[:1], [r for r in history if r.game == ratings[0]["game"]], [], "en"
    )
    chart = drawn.games[0]
    assert alt.startswith(
        f"Player card of Alice. {chart.title}: rating {chart.rating}; over the last {HISTORY_LIMIT} rated "
        f"matches it went from 1,000 to {chart.rating} (lowest {chart.lowest}, highest {chart.highest}); "
        f"{chart.record}."
    )
