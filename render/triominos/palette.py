"""The colours of every Triominos picture, and what their one palette is learnt from.

Every board is mapped onto one palette (see `render.common.Palette`), learnt once from
pictures holding every colour the renderer draws: a made-up board (`sample_view`), a
hand, the one-colour cards and the joker, and blocks of every flat colour (`swatches`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.triominos import HandCard, OpenPlace, PlaceFit, TableCard, TriominosView
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    Palette,
    Signal,
    paste,
    seat_signals,
)

# The rulebook's colours (1 red ... 5 purple) in Okabe–Ito shades; the number and the
# small triangles carry the value too, so colour is never the only cue.
VALUE_COLOURS: dict[int, RGB] = {
    1: (213, 94, 0),  # red (vermilion)
    2: (240, 228, 66),  # yellow
    3: (0, 114, 178),  # blue
    4: (0, 158, 115),  # green
    5: (150, 90, 170),  # purple
}
# Every colour that means something: a seat's panel carries its letter, a value its number
# and as many small triangles.
SIGNALS: dict[str, tuple[Signal, ...]] = {
    "seats": seat_signals(4),
    "values": tuple(Signal(f"value {value}", colour, str(value)) for value, colour in VALUE_COLOURS.items()),
}
INK = (24, 25, 28)
JOKER_FACE = (250, 248, 240)
PLACE_FILL = (54, 57, 63)
PLACE_EDGE = (120, 125, 135)
WHITE = (255, 255, 255)
SWATCH = 160  # pixels a side of a flat colour's block

# The faces whose cards hold every colour a card can show: the one-colour cards (the joker
# is learnt beside them).
TRIPLES = tuple((value,) * 3 for value in VALUE_COLOURS)


def swatches() -> Image.Image:
    """Every flat colour drawn, in blocks big enough that the palette keeps each exactly."""
    flat = [
        BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, INK, JOKER_FACE, PLACE_FILL, PLACE_EDGE, WHITE,
        *SEAT_COLOURS[:4], *VALUE_COLOURS.values(),
    ]  # fmt: skip
    image = Image.new("RGB", (SWATCH * len(flat), SWATCH))
    for index, colour in enumerate(flat):
        image.paste(colour, (index * SWATCH, 0, (index + 1) * SWATCH, SWATCH))
    return image


def sample_view() -> TriominosView:
    """A made-up running game of four seats: cards up and down, the joker, open places,
    the glow of the last card, every panel item. Only for learning the palette."""
    up = [[[x, 1], [x + 1, 0], [x, 0]] for x in range(4)]
    down = [[[x, 1], [x + 1, 1], [x + 1, 0]] for x in range(4)]
    faces: list[list[int | None]] = [
        [1, 2, 3],
        [3, 4, 5],
        [5, 1, 2],
        [4, 4, 4],
        [2, 5, 1],
        [1, 1, 3],
        [2, 2, 5],
    ]
    table = [TableCard(points=p, values=v, joker=False) for p, v in zip(up + down, faces, strict=False)]
    table.append(TableCard(points=down[-1], values=[None, None, None], joker=True))
    places = [
        OpenPlace(label=str(n + 1), points=[[x, 2], [x + 1, 1], [x, 1]]) for n, x in enumerate(range(4))
    ]
    return {
        "players": 4,
        "to_move": [1],
        "scores": [4, 12, 7, 0],
        "last_event": {"type": "buy", "seat": 0, "pot_emptied": True},
        "winners": None,
        "resigned": [3],
        "table": table,
        "places": places,
        "hand": [],
        "hand_sizes": [6, 5, 9, 0],
        "pot_size": 0,
        "bank": 37,
        "options": {"open_hands": False, "joker": True},
        "passes": 0,
        "last_round": True,
        "last_round_to_play": [2],
        "last_card": 2,
    }


def sample_hand(faces: Sequence[tuple[int, int, int]]) -> TriominosView:
    """A made-up own view holding number cards of `faces` and the joker, the first fitting
    somewhere: every colour and caption of a hand. Only for learning the palette."""
    cards = [HandCard(values=list(face)) for face in faces] + [HandCard(joker=True)]
    view = sample_view()
    view["hand"] = cards
    first: list[PlaceFit] = [["1", 0]]
    view["fits"] = [first] + [[] for _ in cards[1:]]
    return view


def learn(board: Image.Image, hand: Image.Image, cards: Sequence[Image.Image]) -> Palette:
    """The palette of every picture, from a `board`, a `hand`, the `cards` of `TRIPLES`
    and the joker (side by side on a sheet) and the swatches."""
    sheet = Image.new("RGB", (sum(c.width for c in cards), max(c.height for c in cards)), BACKGROUND)
    x = 0
    for card in cards:
        paste(sheet, card, (x, 0))
        x += card.width
    return Palette.learn([board, hand, sheet, swatches()])
