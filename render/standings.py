"""A tournament's standings as a picture: a table drawn from plain words and numbers (the caller
translates and formats them), 550 pixels wide so Discord shows it at its size, every text at
least 13 pixels high. The first column is the place, the second the player, the others the
points and tiebreaks, right-aligned; withdrawn players are drawn muted, the leaders in gold."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, advance, font, to_png

WIDTH = 550
MARGIN = 16
TITLE_SIZE = 20
TEXT_SIZE = 15
ROW_HEIGHT = 26
GAP = 14  # between two columns
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """What the picture shows: a title, a line under it, the column headers and one row per
    player (each as many cells as headers), and which rows are withdrawn players."""

    title: str
    subtitle: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    withdrawn: tuple[bool, ...] = ()


def fitted(text: str, width: float, size: int) -> str:
    """`text` cut with an ellipsis to fit `width` pixels at font `size`."""
    if advance(text, size) <= width:
        return text
    while text and advance(text + ELLIPSIS, size) > width:
        text = text[:-1]
    return text + ELLIPSIS


def _column_widths(table: StandingsTable) -> list[float]:
    """Each column's width: the numbers' columns as wide as their widest cell, the player's
    column whatever is left."""
    columns = len(table.headers)
    widths = [
        max(advance(cell, TEXT_SIZE) for cell in [table.headers[index], *(row[index] for row in table.rows)])
        for index in range(columns)
    ]
    others = sum(width for index, width in enumerate(widths) if index != 1)
    widths[1] = max(80.0, WIDTH - 2 * MARGIN - others - GAP * (columns - 1))
    return widths


def standings_png(table: StandingsTable) -> bytes:
    """The standings picture as PNG bytes."""
    widths = _column_widths(table)
    top = MARGIN + TITLE_SIZE + 8 + TEXT_SIZE + 14
    height = top + ROW_HEIGHT * (len(table.rows) + 1) + MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text(
        (MARGIN, MARGIN),
        fitted(table.title, WIDTH - 2 * MARGIN, TITLE_SIZE),
        font=font(TITLE_SIZE),
        fill=TEXT,
    )
    subtitle = fitted(table.subtitle, WIDTH - 2 * MARGIN, TEXT_SIZE)
    draw.text((MARGIN, MARGIN + TITLE_SIZE + 8), subtitle, font=font(TEXT_SIZE), fill=MUTED)
    _row(draw, top, table.headers, widths, MUTED)
    for index, row in enumerate(table.rows):
        y = top + ROW_HEIGHT * (index + 1)
        if index % 2 == 0:
            draw.rectangle((MARGIN // 2, y - 3, WIDTH - MARGIN // 2, y + ROW_HEIGHT - 5), fill=PANEL)
        gone = index < len(table.withdrawn) and table.withdrawn[index]
        _row(draw, y, row, widths, MUTED if gone else HIGHLIGHT if index == 0 else TEXT)
    return to_png(image)


def _row(
    draw: ImageDraw.ImageDraw, y: int, cells: tuple[str, ...], widths: list[float], fill: tuple[int, int, int]
) -> None:
    x = float(MARGIN)
    for index, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        if index == 1:
            draw.text((x, y), fitted(cell, width, TEXT_SIZE), font=font(TEXT_SIZE), fill=fill)
        else:
            draw.text((x + width, y), cell, font=font(TEXT_SIZE), fill=fill, anchor="ra")
        x += width + GAP
