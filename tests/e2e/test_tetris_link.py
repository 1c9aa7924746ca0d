"""Tetris Link through the real bot in SimCord: lobby to result, refusals, restarts."""

from __future__ import annotations

from tests.e2e.helpers import button_labels, open_and_start


async def test_a_two_player_match_starts_with_a_board_image(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    assert board.embeds[0].title.startswith("Tetris Link #")
    assert board.attachments and board.attachments[0].filename == "board.png"
    png = await board.attachments[0].read()
    assert png.startswith(b"\x89PNG")
    labels = button_labels(board)
    assert "My pieces" in labels and "Resign" in labels
