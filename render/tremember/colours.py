"""The colours of Tremember's cards and motifs (the shared ones are in `render.common`)."""

from __future__ import annotations

from render.common import RGB, Signal, seat_signals

# Card colours: light faces, a blue-grey back, lilac for the two jokers.
FACE: RGB = (246, 241, 228)
JOKER_FACE: RGB = (228, 216, 244)
BACK: RGB = (72, 84, 122)
BACK_LINE: RGB = (104, 118, 160)
INK: RGB = (30, 30, 34)
HOLE_FILL: RGB = (24, 25, 28)
BAND: RGB = (58, 56, 42)  # the line a push shifts, tinted toward the highlight

# Okabe–Ito hues for the motifs: each hue is used by two very different shapes,
# so the shape alone always tells a motif apart, and the colour helps.
YELLOW: RGB = (240, 228, 66)
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
BLUE: RGB = (0, 114, 178)
VERMILION: RGB = (213, 94, 0)
PURPLE: RGB = (204, 121, 167)
BLACK: RGB = (40, 40, 44)

# Every colour that means something on the board: a seat's frames carry its letter, a hue the
# two shapes drawn in it (the highlight frames the cards just turned, without a letter).
SIGNALS: dict[str, tuple[Signal, ...]] = {
    "seats": seat_signals(4),
    "motifs": (
        Signal("yellow", YELLOW, "sun, bolt"),
        Signal("orange", ORANGE, "star, crown"),
        Signal("sky", SKY, "drop, fish"),
        Signal("green", GREEN, "leaf, tree, jester"),
        Signal("blue", BLUE, "moon, hexagon"),
        Signal("vermilion", VERMILION, "heart, cross, turn arrow"),
        Signal("purple", PURPLE, "diamond, flower"),
        Signal("black", BLACK, "ring, arrow"),
    ),
}
