"""The Sequence Numbers board's own colours, beside the toolkit's (`render.common`)."""

from __future__ import annotations

from render.common import HIGHLIGHT, RGB, SEAT_COLOURS, Signal

# Number groups by tens: a light text colour and a dark cell tint each, so a player
# looking for 34 scans only the blue cells. Hues stay clear of the chip colours, and the tints
# differ in lightness as well as hue, so that they stay apart for every colour vision.
GROUPS: tuple[tuple[RGB, RGB], ...] = (
    ((236, 236, 240), (84, 83, 97)),  # 1–9
    ((240, 228, 66), (85, 80, 14)),  # 10–19
    ((255, 160, 196), (74, 45, 54)),  # 20–29
    ((128, 220, 245), (21, 54, 89)),  # 30–39
    ((170, 232, 140), (66, 94, 68)),  # 40–48
)
FREE_FILL = (78, 70, 40)
DARK = (20, 20, 22)
WHITE = (250, 250, 250)
DEAD = (213, 94, 0)
# The runs a mover may lock: apart from the chips, the tints and the highlight for every colour vision.
CHOICE = (210, 135, 255)
CARD_FACE = (244, 241, 232)
CARD_INK = (30, 32, 36)


def team_colour(team: int) -> RGB:
    return SEAT_COLOURS[team % len(SEAT_COLOURS)]


def group(number: int) -> tuple[RGB, RGB]:
    """The text colour and cell tint of `number`'s group of ten."""
    return GROUPS[min(number // 10, len(GROUPS) - 1)]


# Every colour that means something on the board, with the mark drawn with it: a chip its team's
# number (or its player's letter). A tint stands alone under a chip, which hides its number, and
# so do the last move's outline and the rails of a lock to choose.
SIGNALS: dict[str, tuple[Signal, ...]] = {
    "chips": (
        *(Signal(f"team {team + 1}", team_colour(team), f"{team + 1}") for team in range(3)),
        Signal("last move", HIGHLIGHT, None),
        Signal("lock choice", CHOICE, None),
    ),
    "number groups": tuple(
        Signal(f"numbers {numbers}", tint, None)
        for numbers, (_, tint) in zip(("1–9", "10–19", "20–29", "30–39", "40–48"), GROUPS, strict=True)
    ),
}
