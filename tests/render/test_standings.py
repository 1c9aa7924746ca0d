"""The standings picture: Discord's width, text large enough to read, names that fit."""

from __future__ import annotations

import io

from PIL import Image

from render.common import recording_text_sizes
from render.standings import WIDTH, StandingsTable, fitted, standings_png


def table(names: list[str]) -> StandingsTable:
    rows = tuple((str(place), name, "3", "4.5", "1.25") for place, name in enumerate(names, start=1))
    return StandingsTable(
        "Tournament #3 — Tetris Link (Swiss)",
        "after round 2",
        ("#", "Player", "Points", "Buchholz", "S-B"),
        rows,
    )


def test_the_standings_are_550_pixels_wide_with_a_row_per_player_and_text_of_13_pixels_or_more():
    with recording_text_sizes() as sizes:
        png = standings_png(table(["Alice", "Bob", "Carol"]))
    small = Image.open(io.BytesIO(png))
    with recording_text_sizes():
        tall = Image.open(io.BytesIO(standings_png(table(["Alice", "Bob", "Carol", "Dave"]))))

    assert small.width == tall.width == WIDTH and tall.height > small.height
    assert sizes.smallest >= 13


def test_a_name_too_long_for_its_column_is_shortened_with_an_ellipsis():
    assert fitted("Bartholomew the Magnificent of Somewhere Far Away", 120, 15).endswith("…")
    assert fitted("Bob", 120, 15) == "Bob"


def test_the_same_standings_draw_the_same_bytes():
    assert standings_png(table(["Alice", "Bob"])) == standings_png(table(["Alice", "Bob"]))
