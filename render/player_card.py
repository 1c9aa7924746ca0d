"""A player's card: their name, a small chart of their rating over time in each game, their record,
a few facts (streak, best game) and their latest achievements, drawn from plain data.

The card draws what it is given: every word arrives translated and every number formatted
(`PlayerCard`), so the card knows no language. Each game's chart sits in its own panel beside the
game's name, so a line's colour is never the only thing that says whose it is (`SIGNALS`).

**Many matches.** A chart holds at most one point per two pixels of its width: a longer history is
sampled evenly (its first and last points always kept), so five games of 500 matches draw as fast
as five of 175.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    Signal,
    font,
    to_png,
    wrap,
)

WIDTH = 600
MARGIN = 20
PANEL_HEIGHT = 96
GAP = 8
LEFT = 200  # the width of a panel's words, left of its chart
CHART_WIDTH = WIDTH - 2 * MARGIN - LEFT - 16
CHART_HEIGHT = PANEL_HEIGHT - 24
SCALE = 3  # charts are drawn this many times larger, then shrunk: smooth lines
POINT_SPACING = 2  # pixels of chart width per point at least (see the module docstring)
GRID = (72, 75, 82)
BADGE = (60, 63, 70)
SIGNALS: dict[str, tuple[Signal, ...]] = {
    "game lines": tuple(
        Signal(f"game {index + 1}", colour, f"the name of game {index + 1} beside its chart")
        for index, colour in enumerate(SEAT_COLOURS[:5])
    )
}


@dataclass(frozen=True, slots=True)
class GameChart:
    """One game on the card: its name, the rating now as the leaderboard shows it (formatted),
    the record ("3 wins / 5 games"), the shown ratings from before the first rated match kept to
    after the last one, and the labels of the chart's lowest and highest values (formatted)."""

    title: str
    rating: str
    record: str
    ratings: tuple[int, ...]
    lowest: str
    highest: str


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """Everything the card shows, in its reader's words: `facts` are sentences under the name
    (the streak, the best game); `achievements` (emoji, name) the latest first, the section left
    out when there are none; `empty` is said when there is no game to chart."""

    name: str
    facts: tuple[str, ...]
    games: tuple[GameChart, ...]
    achievements_title: str
    achievements: tuple[tuple[str, str], ...]
    empty: str


def render(card: PlayerCard) -> bytes:
    """The card as a PNG."""
    return to_png(card_image(card))


def card_image(card: PlayerCard) -> Image.Image:
    """The card as an RGB image, WIDTH pixels wide and as tall as its contents."""
    badges = _badge_rows(card.achievements)
    height = MARGIN + 44 + 26 * len(card.facts) + 10
    height += (PANEL_HEIGHT + GAP) * max(1, len(card.games))
    if badges:
        height += 34 + 36 * len(badges)
    height += MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), _fitted(card.name, WIDTH - 2 * MARGIN, 36), font=font(36), fill=TEXT)
    y = MARGIN + 44
    for fact in card.facts:
        draw.text((MARGIN, y), _fitted(fact, WIDTH - 2 * MARGIN, 19), font=font(19), fill=MUTED)
        y += 26
    y += 10
    if not card.games:
        _empty_panel(draw, y, card.empty)
        y += PANEL_HEIGHT + GAP
    for index, game in enumerate(card.games):
        _game_panel(image, draw, y, game, SEAT_COLOURS[index % len(SEAT_COLOURS)])
        y += PANEL_HEIGHT + GAP
    if badges:
        _achievements(draw, y + 4, card.achievements_title, badges)
    return image


def _empty_panel(draw: ImageDraw.ImageDraw, top: int, text: str) -> None:
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + PANEL_HEIGHT), radius=10, fill=PANEL)
    lines = wrap(text, WIDTH - 2 * MARGIN - 32, 19)[:3]
    y = top + PANEL_HEIGHT / 2 - 13 * len(lines)
    for line in lines:
        draw.text((MARGIN + 16, y), line, font=font(19), fill=MUTED)
        y += 26


def _game_panel(
    image: Image.Image, draw: ImageDraw.ImageDraw, top: int, game: GameChart, colour: RGB
) -> None:
    """A game's panel: a chip of its line's colour, its name, rating and record, and its chart."""
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + PANEL_HEIGHT), radius=10, fill=PANEL)
    x = MARGIN + 14
    draw.rounded_rectangle((x, top + 16, x + 12, top + 28), radius=3, fill=colour)
    draw.text((x + 20, top + 12), _fitted(game.title, LEFT - 40, 19), font=font(19), fill=TEXT)
    draw.text((x, top + 36), game.rating, font=font(30), fill=TEXT)
    draw.text((x, top + 70), _fitted(game.record, LEFT - 20, 16), font=font(16), fill=MUTED)
    chart = _chart(game.ratings, colour)
    left = WIDTH - MARGIN - 12 - CHART_WIDTH
    image.paste(chart, (left, top + 12))
    draw.text((left + 4, top + 12), game.highest, font=font(16), fill=MUTED)
    draw.text((left + 4, top + PANEL_HEIGHT - 12), game.lowest, font=font(16), fill=MUTED, anchor="ld")


def _chart(ratings: Sequence[int], colour: RGB) -> Image.Image:
    """A game's rating line, lowest to highest filling the chart's height, drawn large and shrunk."""
    width, height = CHART_WIDTH * SCALE, CHART_HEIGHT * SCALE
    big = Image.new("RGB", (width, height), PANEL)
    draw = ImageDraw.Draw(big)
    for grid in (2 * SCALE, height - 2 * SCALE):
        draw.line((0, grid, width, grid), fill=GRID, width=SCALE)
    points = sampled(ratings, CHART_WIDTH // POINT_SPACING)
    if points:
        low, high = min(ratings), max(ratings)
        span = max(high - low, 1)
        room = 60 * SCALE  # the labels' room at the chart's left
        step = (width - room - 8 * SCALE) / max(len(points) - 1, 1)
        line = [
            (room + index * step, height - 4 * SCALE - (value - low) / span * (height - 8 * SCALE))
            for index, value in enumerate(points)
        ]
        if len(line) > 1:
            draw.line(line, fill=colour, width=3 * SCALE, joint="curve")
        x, y = line[-1]
        radius = 4 * SCALE
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=TEXT, width=SCALE)
    return big.resize((CHART_WIDTH, CHART_HEIGHT), Image.Resampling.BOX)


def sampled(values: Sequence[int], most: int) -> list[int]:
    """At most `most` of `values`, evenly spaced, the first and the last kept."""
    if len(values) <= most:
        return list(values)
    last = len(values) - 1
    return [values[round(index * last / (most - 1))] for index in range(most)]


def _badge_rows(achievements: Sequence[tuple[str, str]]) -> list[list[tuple[str, float]]]:
    """The achievements' badges (name, width) in rows of the card's width, at most three rows."""
    rows: list[list[tuple[str, float]]] = []
    used = float(WIDTH)
    for _, name in achievements:
        text = _fitted(name, WIDTH - 2 * MARGIN - 40, 17)
        width = font(17).getlength(text) + 40
        if used + width > WIDTH - 2 * MARGIN:
            if len(rows) == 3:
                break
            rows.append([])
            used = 0
        rows[-1].append((text, width))
        used += width + 8
    return rows


def _achievements(
    draw: ImageDraw.ImageDraw, top: int, title: str, rows: list[list[tuple[str, float]]]
) -> None:
    """The achievements' heading and badges: a drawn medal and the achievement's name."""
    draw.text((MARGIN, top), title, font=font(19), fill=TEXT)
    y = top + 30
    for row in rows:
        x = float(MARGIN)
        for text, width in row:
            draw.rounded_rectangle((x, y, x + width, y + 28), radius=14, fill=BADGE)
            draw.ellipse((x + 8, y + 7, x + 22, y + 21), fill=HIGHLIGHT)
            draw.text((x + 30, y + 14), text, font=font(17), fill=TEXT, anchor="lm")
            x += width + 8
        y += 36


def _fitted(text: str, width: float, size: int) -> str:
    """`text`, cut with an ellipsis if it is wider than `width` at font `size`."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
