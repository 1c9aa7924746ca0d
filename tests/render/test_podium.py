"""The podium picture: the best in the middle and highest, shared places level, long names kept
inside their step, readable where Discord shows it, its colours told apart by their numbers for
every colour vision, and said again in words for screen readers."""

from __future__ import annotations

import io
from itertools import combinations

import pytest
from PIL import Image

from render.common import BACKGROUND, recording_text_sizes
from render.podium import COLUMN, GAP, SIGNALS, Place, podium_alt, podium_image, render_podium
from tests.render.test_colour_vision import APART, Pair, as_drawn, seen
from tests.render.test_readable import DESKTOP, LEAST, PHONE
from tests.render.vision import DEFICIENCIES, delta_e, simulated

TITLE = "Season November 2026 — all games"
LONG = "Zoë Ångström-Łukasiewicz, the Magnificent Strategist of the Northern Table"
THREE = [
    Place(1, "Alice", "1,284 · 31 wins"),
    Place(2, "Дмитрий", "1,190 · 22 wins"),
    Place(3, "Chloé", "1,050"),
]


def step_tops(image: Image.Image) -> list[int | None]:
    """How high each step stands (the middle, left, right thirds of the picture): the height above
    the floor of the first pixel, going up its centre line, that is background again."""
    tops: list[int | None] = []
    for centre in (
        image.width // 2,
        image.width // 2 - image.width // 3,
        image.width // 2 + image.width // 3,
    ):
        height = 0
        y = image.height - 30  # just above the floor line
        while image.getpixel((centre, y - height)) != BACKGROUND:
            height += 1
        tops.append(height or None)
    return tops


def test_the_winner_stands_highest_in_the_middle_then_second_left_and_third_right():
    middle, left, right = step_tops(podium_image(TITLE, THREE))
    assert middle and left and right and middle > left > right


def test_shared_places_stand_level_and_missing_places_leave_their_steps_out():
    middle, left, right = step_tops(
        podium_image(TITLE, [Place(1, "Ana", "5"), Place(1, "Ben", "5"), Place(3, "Cy", "2")])
    )
    assert middle == left and right and right < middle
    middle, left, right = step_tops(podium_image(TITLE, [Place(1, "Ana", "5"), Place(2, "Ben", "3")]))
    assert middle and left and left < middle and right is None
    assert step_tops(podium_image(TITLE, [Place(1, "Ana", "5")]))[1:] == [None, None]


def test_long_names_and_details_stay_inside_their_steps():
    image = podium_image(LONG, [Place(1, LONG, LONG), Place(2, LONG, LONG), Place(3, LONG, LONG)])
    middle_left = (image.width - COLUMN) // 2
    for gap in (
        range(middle_left - GAP + 1, middle_left),
        range(middle_left + COLUMN + 1, middle_left + COLUMN + GAP),
    ):
        for x in gap:
            column = {image.getpixel((x, y)) for y in range(40, image.height - 30)}
            assert column == {BACKGROUND}, f"something is drawn between two steps at x={x}"


def test_the_smallest_text_is_readable_at_the_width_discord_shows_the_picture():
    with recording_text_sizes() as sizes:
        png = render_podium(
            LONG, [Place(1, LONG, LONG), Place(2, "Bob", "3 points"), Place(3, "Cy", "1 point")]
        )
    width = Image.open(io.BytesIO(png)).width
    for shown, least in LEAST.items():
        assert sizes.smallest * shown / width >= least, f"{sizes.smallest} px at {shown} of {width} px"
    assert set(LEAST) == {DESKTOP, PHONE}


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_the_places_colours_stay_apart_or_carry_their_numbers_for_every_colour_vision(deficiency):
    image = Image.open(io.BytesIO(render_podium(TITLE, THREE))).convert("RGB")
    drawn = [(signal, found) for signal in SIGNALS if (found := as_drawn(image, signal.colour))]
    assert [signal for signal, _ in drawn] == list(SIGNALS)
    simulation = simulated(image, deficiency)
    looks = [(signal, seen(image, simulation, found)) for signal, found in drawn]
    for (first, a), (second, b) in combinations(looks, 2):
        pair = Pair("podium", "places", first, second, deficiency, delta_e(a, b))
        assert pair.distance >= APART or pair.marked, str(pair)


def test_the_description_says_the_title_and_every_place_in_order():
    assert podium_alt(TITLE, THREE) == (
        "Season November 2026 — all games: 1. Alice (1,284 · 31 wins); 2. Дмитрий (1,190 · 22 wins); "
        "3. Chloé (1,050)"
    )
    assert len(podium_alt(TITLE, [Place(1, LONG * 20, LONG * 20)])) == 1024


@pytest.mark.parametrize(
    "places",
    [[], [Place(1, "a", ""), Place(2, "b", ""), Place(3, "c", ""), Place(4, "d", "")], [Place(2, "a", "")]],
)
def test_a_podium_of_no_places_too_many_or_out_of_order_is_refused(places):
    with pytest.raises(ValueError, match="podium"):
        podium_image(TITLE, places)
