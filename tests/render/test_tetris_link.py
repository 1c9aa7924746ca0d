"""Tetris Link board image: deterministic, small, and showing ghost and last move."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from games.tetris_link import ENGINE, drop
from render.tetris_link import CELL, LAST_MOVE, _cell_box, render


def place(state, seat: int, shape: str, column: int, rotation: int = 0):
    state = replace(state, to_move=seat, die=None)
    move = {"type": "place", "shape": shape, "rotation": rotation, "flip": False, "column": column}
    return ENGINE.apply(state, seat, move)


def mid_game_view() -> dict:
    state = ENGINE.new_game(3, seed=4, options={"dice": False})
    for seat, shape, column in [(0, "I", 0), (1, "O", 4), (2, "T", 6), (0, "L", 0)]:
        state = place(state, seat, shape, column)
    return ENGINE.view(state, None)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_same_view_renders_the_same_bytes():
    view = mid_game_view()
    assert render(view) == render(view)


def test_the_image_fits_discord_and_the_size_budget():
    for players in (2, 3, 4):
        png = render(ENGINE.view(ENGINE.new_game(players, seed=players), None))
        image = pixels(png)
        assert len(png) <= 300_000
        assert 500 <= image.width <= 700 and image.height <= 900


def test_the_last_move_is_outlined():
    view = mid_game_view()
    row, column = view["last_move"]["cells"][0]
    x0, y0, x1, y1 = _cell_box(row, column)
    image = pixels(render(view))
    edge = [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
    assert LAST_MOVE in edge
    # An earlier piece carries no such outline.
    x0, y0, x1, y1 = _cell_box(0, 4)
    assert LAST_MOVE not in [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]


def test_the_ghost_is_drawn_where_the_piece_would_land_and_nowhere_else():
    view = mid_game_view()
    cells = drop(view["cells"], "O", 0, False, 8)
    ghost = {"seat": 1, "cells": [list(cell) for cell in cells]}
    plain = pixels(render(view))
    shown = pixels(render(view, ghost=ghost))
    for row, column in cells:
        x0, y0, _, _ = _cell_box(row, column)
        centre = (x0 + CELL // 2, y0 + CELL // 2)
        assert plain.getpixel(centre) != shown.getpixel(centre)
    x0, y0, _, _ = _cell_box(10, 8)  # well above the ghost: untouched
    assert plain.getpixel((x0 + 5, y0 + 5)) == shown.getpixel((x0 + 5, y0 + 5))


def test_a_ghost_looks_different_from_a_placed_piece_of_the_same_seat():
    view = mid_game_view()
    placed_row, placed_column = next(
        (r, c) for r, row in enumerate(view["cells"]) for c, e in enumerate(row) if e and e[0] == 1
    )
    ghost = {"seat": 1, "cells": [[0, 8], [0, 9], [1, 8], [1, 9]]}
    image = pixels(render(view, ghost=ghost))
    placed = _cell_box(placed_row, placed_column)
    ghosted = _cell_box(0, 8)
    assert image.crop(placed).tobytes() != image.crop(ghosted).tobytes()


def test_the_viewer_and_the_end_of_the_game_render():
    state = ENGINE.new_game(2, seed=3)
    state = ENGINE.resign(state, 1)
    view = ENGINE.view(state, 0)
    assert view["phase"] == "over"
    assert render(view, viewer=0) != render(view)
