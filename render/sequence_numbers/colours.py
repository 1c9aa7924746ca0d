"""The Sequence Numbers board's own colours, beside the toolkit's (`render.common`)."""

from __future__ import annotations

from render.common import RGB, SEAT_COLOURS

# Number groups by tens: a light text colour and a dark cell tint each, so a player
# looking for 34 scans only the cyan cells. Hues stay clear of the chip colours.
GROUPS: tuple[tuple[RGB, RGB], ...] = (
    ((236, 236, 240), (62, 64, 72)),  # 1–9
    ((240, 228, 66), (66, 62, 30)),  # 10–19
    ((255, 160, 196), (72, 42, 56)),  # 20–29
    ((128, 220, 245), (30, 58, 72)),  # 30–39
    ((170, 232, 140), (40, 64, 36)),  # 40–48
)
FREE_FILL = (78, 70, 40)
DARK = (20, 20, 22)
WHITE = (250, 250, 250)
DEAD = (213, 94, 0)
CHOICE = (255, 64, 200)  # the runs a mover may lock: apart from the chips and the last-move yellow
CARD_FACE = (244, 241, 232)
CARD_INK = (30, 32, 36)


def team_colour(team: int) -> RGB:
    return SEAT_COLOURS[team % len(SEAT_COLOURS)]


def group(number: int) -> tuple[RGB, RGB]:
    """The text colour and cell tint of `number`'s group of ten."""
    return GROUPS[min(number // 10, len(GROUPS) - 1)]
