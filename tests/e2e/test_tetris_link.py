"""Tetris Link through the real bot in SimCord: lobby to result, refusals, restarts."""

from __future__ import annotations

import re

from simcord.components import walk_components

from bot import create_bot
from tests.e2e.helpers import (
    board_image,
    body,
    button_labels,
    channel_message,
    components,
    field,
    footer,
    mover,
    open_and_start,
    roster,
    title,
    told,
)

SHAPE_LABELS = ("I ×", "O ×", "T ×", "S ×", "L ×")


async def play_one_turn(table, board_id: int):
    """The player named on the board places a piece: a shape first if they may choose."""
    board = channel_message(table.channel, board_id)
    player = mover(board, table.players)
    assert player is not None, "the game is over"
    shapes = [c for c in components(board) if c.label.startswith(SHAPE_LABELS) and not c.disabled]
    if shapes:
        await player.click(board, custom_id=shapes[0].custom_id)
        board = channel_message(table.channel, board_id)
    drop = next(c for c in components(board) if c.label.startswith("Drop"))
    result = await player.click(board, custom_id=drop.custom_id)
    assert result.acknowledged and not result.ephemeral
    return channel_message(table.channel, board_id)


async def play_to_the_end(table, board) -> object:
    for _ in range(200):
        if mover(board, table.players) is None:
            return board
        board = await play_one_turn(table, board.id)
    raise AssertionError("the match did not end in 200 turns")


async def test_a_two_player_match_is_played_from_the_lobby_to_the_result(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    assert title(board).startswith("Tetris Link #")
    assert (await board_image(board).read()).startswith(b"\x89PNG")
    assert {"My pieces", "Resign"} <= set(button_labels(board))

    board = await play_to_the_end(table, board)

    text = body(board)
    assert "**Game over**" in text
    assert "wins" in text or "draw" in text
    assert "points" in roster(board)
    assert button_labels(board) == ["Rematch", "Replay"]  # no move left to make
    assert "1000 →" in field(board, "Ratings")


async def test_the_first_board_says_who_was_drawn_to_roll_first_the_rolls_and_who_starts(table):
    board = await open_and_start(table.channel, table.alice, [table.bob, table.carol], "tetrislink new")
    text = body(board)
    seated = {f"<@{member.user.id}>": member for member in (table.alice, table.bob, table.carol)}
    drawn = re.search(r"(<@\d+>) \(\S+ [ABC]\) was drawn to roll first\.", text)
    rolls = re.search(r"Starting rolls: (.+)\.", text)
    starter = re.search(r"(<@\d+>) \(\S+ [ABC]\) rolled the logo and starts\.", text)
    assert drawn and rolls and starter, text
    rollers = re.findall(r"<@\d+>", rolls[1])
    assert rollers[0] == drawn[1] and rollers[-1] == starter[1] and rolls[1].endswith(" logo")
    assert mover(board, table.players) is seated[starter[1]]  # and it is their turn
    assert "🎲 The die shows" in text  # they rolled again for their first piece


async def test_without_dice_the_first_board_says_who_was_drawn_to_start(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    text = body(board)
    drawn = re.search(r"(<@\d+>) \(\S+ [AB]\) was drawn to start\.", text)
    assert drawn, text
    player = mover(board, table.players)
    assert player is not None and drawn[1] == f"<@{player.user.id}>"
    assert "die" not in text and "Starting rolls" not in text


async def test_a_placement_is_told_above_the_board_in_the_words_of_the_image(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    assert player is not None
    await player.click(board, custom_id=next(c for c in components(board) if c.label == "O ×5").custom_id)
    board = channel_message(table.channel, board.id)
    drop = next(c for c in components(board) if c.label.startswith("Drop"))
    column = int(drop.label.split()[-1])

    await player.click(board, custom_id=drop.custom_id)

    board = channel_message(table.channel, board.id)
    text = body(board)
    assert f"<@{player.user.id}> (" in text
    assert f"placed an O in columns {column} and {column + 1}." in text


async def test_the_no_dice_option_is_called_a_house_variant_in_the_rules_and_the_lobby(table):
    rules = await table.alice.slash(table.channel, "tetrislink rules")
    text = body(rules.response)
    assert "**No dice** (house variant, not the rulebook's game, which rolls every turn)" in text
    assert "drawn by lot" in text

    lobby = (await table.alice.slash(table.channel, "tetrislink new", dice=False)).response.message
    assert "**Setup:** house variant without dice" in body(lobby)
    command = table.env.backend.find_command("tetrislink", table.guild.id, type=1)
    new = next(option for option in command["options"] if option["name"] == "new")
    dice = next(option for option in new["options"] if option["name"] == "dice")
    assert "as the rulebook says" in dice["description"] and "house variant" in dice["description"]
    ruled = (await table.bob.slash(table.channel, "tetrislink new")).response.message
    assert "**Setup:** rulebook game: the shape die every turn" in body(ruled)


async def test_a_four_player_match_is_played_to_the_result(table):
    guests = [table.bob, table.carol, table.dave]
    board = await open_and_start(table.channel, table.alice, guests, "tetrislink new", dice=False)
    assert len(roster(board).splitlines()) == 4

    board = await play_to_the_end(table, board)

    assert "**Game over**" in body(board)


async def test_the_lobby_refuses_a_start_by_a_guest_and_too_few_players(table):
    lobby = (await table.alice.slash(table.channel, "tetrislink new")).response.message
    alone = await table.alice.click(lobby, label="Start")
    assert "2–4" in told(alone)
    await table.bob.click(lobby, label="Join")
    by_guest = await table.bob.click(lobby, label="Start")
    assert "Only the host" in told(by_guest)
    left = await table.bob.click(lobby, label="Leave")
    assert not left.ephemeral
    assert "bob" not in body(channel_message(table.channel, lobby.id))
    cancelled = await table.alice.click(lobby, label="Cancel")
    assert "cancelled" in body(channel_message(table.channel, lobby.id))
    assert cancelled.acknowledged


async def test_an_outsider_and_a_waiting_player_are_refused_privately(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    assert player is not None
    waiting = table.bob if player is table.alice else table.alice
    shape = next(c for c in components(board) if c.label.startswith("I ×"))

    outsider = await table.carol.click(board, custom_id=shape.custom_id)
    assert "not playing in this match" in told(outsider)
    wrong_turn = await waiting.click(board, custom_id=shape.custom_id)
    assert "not your turn" in told(wrong_turn)
    # Nobody but the refused clicker saw those replies.
    seen_by_player = [m.content for m in table.channel.history(viewer=player)]
    assert not any("not your turn" in (text or "") for text in seen_by_player)


async def test_a_click_on_an_outdated_message_is_refused(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    waiting = table.bob if player is table.alice else table.alice
    asked = await waiting.click(board, label="Resign")
    assert "Resign from Tetris Link" in told(asked)
    await play_one_turn(table, board.id)

    result = await waiting.click(asked.response.message, label="Yes, resign")

    assert "out of date" in told(result)
    board = channel_message(table.channel, board.id)
    assert "resigned" not in body(board)


async def test_a_player_who_resigns_is_skipped_and_the_other_wins(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    asked = await table.bob.click(board, label="Resign")
    confirmed = await table.bob.click(asked.response.message, label="Yes, resign")
    assert confirmed.acknowledged

    board = channel_message(table.channel, board.id)
    assert "**Game over**" in body(board)
    assert f"<@{table.alice.user.id}> wins" in body(board)


async def test_the_ghost_moves_and_turns_without_making_a_move(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    assert player is not None
    await player.click(board, custom_id=next(c for c in components(board) if c.label == "L ×5").custom_id)
    board = channel_message(table.channel, board.id)
    before = next(c.label for c in components(board) if c.label.startswith("Drop"))
    image_before = await board_image(board).read()

    await player.click(board, label="▶")
    board = channel_message(table.channel, board.id)
    after = next(c.label for c in components(board) if c.label.startswith("Drop"))
    assert before != after
    assert await board_image(board).read() != image_before
    await player.click(board, label="⟳")
    await player.click(channel_message(table.channel, board.id), label="⇋")
    board = channel_message(table.channel, board.id)
    assert mover(board, table.players) is player  # steering is not a move
    assert "move 0" in footer(board)


async def test_the_match_goes_on_after_a_restart(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    board = await play_one_turn(table, board.id)
    seen_footer = footer(board)

    await table.env.restart_bot(create_bot(database=target))

    board = channel_message(table.channel, board.id)
    assert footer(board) == seen_footer
    board = await play_one_turn(table, board.id)
    assert footer(board) != seen_footer


async def test_closed_dms_are_said_in_the_channel_without_stopping_the_match(table):
    dm = table.bob.user.dm_channel
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    if mover(board, table.players) is table.bob:  # whoever was drawn to start, Alice plays next
        board = await play_one_turn(table, board.id)
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007)

    board = await play_one_turn(table, board.id)  # Bob's turn comes: his DM notice fails

    notices = [m.content for m in table.channel.history() if "cannot send you direct messages" in m.content]
    assert len(notices) == 1 and f"<@{table.bob.user.id}>" in notices[0]
    assert "My pieces" in notices[0]
    assert mover(board, table.players) is table.bob
    before = footer(board)
    board = await play_one_turn(table, board.id)  # and the match goes on: Bob plays
    moves = int(before.rsplit(" ", 1)[-1])
    assert footer(board).endswith(f"move {moves + 1}")
    alice_dms = table.alice.user.dm_channel.history()
    assert any("Your turn in **Tetris Link" in m.content for m in alice_dms)  # open DMs still work


async def test_a_control_of_a_board_drawn_by_an_earlier_version_redraws_the_current_board(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    match_id, turn = re.search(r"match (\d+) · move (\d+)", footer(board)).groups()
    shape = next(c for c in components(board) if c.label.startswith(SHAPE_LABELS))
    stored = table.env.backend.get_message(board.channel.id, board.id)
    sent = next(c for c in walk_components(stored.components) if c.get("custom_id") == shape.custom_id)
    sent["custom_id"] = old_id = f"g:tetris_link:{match_id}:{turn}:s:I"  # the id format before forms

    result = await player.click(board, custom_id=old_id)

    assert "older version of the board" in told(result)
    board = channel_message(table.channel, board.id)
    assert old_id not in [c.custom_id for c in components(board)]
    assert any(c.label.startswith(SHAPE_LABELS) and c.custom_id.startswith("m:") for c in components(board))
