"""A player's hand as an image: its cards numbered 1..n, dead cards marked (sent to that seat alone)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.sequence_numbers import SequenceCard, SequenceView
from locales import DEFAULT, gettext
from render.common import BACKGROUND, MUTED, RGB, TEXT, centred_text, font, seat_label, to_png, wrap
from render.sequence_numbers.colours import CARD_FACE, CARD_INK, DARK, DEAD
from render.sequence_numbers.layout import CARD_GAP, CARD_H, CARD_W, PAD

HINT = 17  # the smallest words: read on a phone showing the widest hand 360 px wide
HINT_LINE = 18
FOOT_H = 44  # the card's foot: what it does, or that it is dead


def _hand_card(
    draw: ImageDraw.ImageDraw, left: int, top: int, number: int, card: SequenceCard, dead: bool, lang: str
) -> None:
    box = (left, top, left + CARD_W, top + CARD_H)
    face = (150, 150, 150) if dead else CARD_FACE
    draw.rounded_rectangle(box, radius=10, fill=face, outline=DARK, width=2)
    draw.ellipse((left + 8, top + 8, left + 36, top + 36), fill=CARD_INK)
    centred_text(draw, (left + 22, top + 22), str(number), 18, CARD_FACE)
    centre = (left + CARD_W // 2, top + CARD_H // 2 - 4)
    if card["kind"] == "problem":
        centred_text(draw, centre, card["text"], 26, CARD_INK)
        hint = "= ?"
    else:
        _sign(draw, centre, plus=card["kind"] == "plus")
        hint = gettext(lang, "any empty cell") if card["kind"] == "plus" else gettext(lang, "remove a chip")
    foot = (left + 2, top + CARD_H - FOOT_H, left + CARD_W - 2, top + CARD_H - 4)
    if dead:  # a dead card is only traded: what it would do no longer matters
        draw.rectangle(foot, fill=DEAD)
        _foot_lines(draw, foot, gettext(lang, "DEAD · trade it"), (255, 255, 255))
    else:
        _foot_lines(draw, foot, hint, (90, 90, 96))


def _foot_lines(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, fill: RGB) -> None:
    """`text` centred in the card's foot `box`, on two lines where one is too narrow."""
    lines = wrap(text, box[2] - box[0] - 8, HINT)
    middle, x = (box[1] + box[3]) / 2, (box[0] + box[2]) / 2
    for index, line in enumerate(lines):
        centred_text(draw, (x, middle + (index - (len(lines) - 1) / 2) * HINT_LINE), line, HINT, fill)


def _sign(draw: ImageDraw.ImageDraw, centre: tuple[int, int], *, plus: bool) -> None:
    """A big plus or minus drawn as bars, bolder than any letter."""
    x, y = centre
    draw.rectangle((x - 26, y - 6, x + 26, y + 6), fill=CARD_INK)
    if plus:
        draw.rectangle((x - 6, y - 26, x + 6, y + 26), fill=CARD_INK)


def render_hand(view: SequenceView, lang: str = DEFAULT) -> bytes:
    """The viewing seat's hand in `lang`, cards numbered 1..n (hand index + 1), dead cards marked."""
    hand = view["hand"]
    dead = set(view["dead_cards"])
    count = max(len(hand), 1)
    width = 2 * PAD + count * CARD_W + (count - 1) * CARD_GAP
    height = 2 * PAD + 30 + CARD_H
    image = Image.new("RGB", (max(width, 260), height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seat = view["seat"]
    title = (
        gettext(lang, "Your hand")
        if seat is None
        else gettext(lang, "Your hand ({seat})", seat=seat_label(seat))
    )
    draw.text((PAD, PAD), title, font=font(18), fill=TEXT)
    if not hand:
        draw.text((PAD, PAD + 40), gettext(lang, "No cards."), font=font(HINT), fill=MUTED)
    for index, card in enumerate(hand):
        left = PAD + index * (CARD_W + CARD_GAP)
        _hand_card(draw, left, PAD + 30, index + 1, card, index in dead, lang)
    return to_png(image)
