"""The Rookie table's own colours, beside the toolkit's (`render.common`)."""

from __future__ import annotations

from render.common import DARK_INK, RGB, TEXT, Signal, seat_signals

CARD_FACES: dict[str, RGB] = {
    "red": (213, 50, 40),
    "yellow": (240, 196, 25),
    "green": (30, 150, 75),
    "blue": (35, 105, 205),
    "purple": (135, 70, 175),
    "X": (245, 245, 245),
}
# Cards carry a symbol as well as a colour, so that no one needs colour vision to tell them apart.
SYMBOLS = {"red": "circle", "yellow": "triangle", "green": "square", "blue": "diamond", "purple": "star"}
# The symbols as text writes them, beside the colour's name ("a purple ★ card").
GLYPHS = {"red": "●", "yellow": "▲", "green": "■", "blue": "◆", "purple": "★", "X": "X"}
CARD_BACK = (62, 72, 96)
CARD_EDGE = (20, 22, 25)
EDGES = (48, 55, 74)
OUTLINE = (80, 84, 92)
BADGE = (70, 74, 82)
TEAM_TAGS: tuple[tuple[RGB, RGB], ...] = (
    ((88, 88, 96), TEXT),
    ((200, 200, 206), DARK_INK),
    ((150, 120, 60), TEXT),
)

# Every colour that means something on the table, with the mark drawn with it.
SIGNALS: dict[str, tuple[Signal, ...]] = {
    "seats": seat_signals(),
    "cards": tuple(Signal(f"{kind} card", face, GLYPHS[kind]) for kind, face in CARD_FACES.items()),
    "teams": tuple(Signal(f"team {n}", fill, f"Team {n}") for n, (fill, _) in enumerate(TEAM_TAGS, start=1)),
}
