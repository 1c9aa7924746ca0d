"""Boards that never go dead, spectators, and images everyone can read.

A board message that can no longer be edited (deleted, Discord's edit limit on old
messages) is posted again with a pointer left in the old one; chat-buried boards come
back down with `/matches`; anyone on the server can watch a running match live; every
image carries a description for screen readers that tells no secret."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from PIL import Image

from tests.e2e.helpers import (
    board_image,
    body,
    button_labels,
    channel_message,
    components,
    footer,
    has_card,
    open_and_start,
    title,
    told,
)
from tests.e2e.test_tremember import MOTIF_WORDS, running_match, start, take_a_card
from tests.e2e.test_triominos import DEAL_SEED, open_hand

EDIT_LIMIT = {
    "status": 429,
    "code": 30046,
    "message": "Maximum number of edits to messages older than 1 hour",
}


UNKNOWN_MESSAGE = {"status": 404, "code": 10008, "message": "Unknown Message"}  # the board was deleted


@pytest.mark.parametrize("refusal", [EDIT_LIMIT, UNKNOWN_MESSAGE], ids=["edit limit", "deleted"])
async def test_a_board_that_cannot_be_edited_is_posted_again_and_its_old_buttons_point_to_it(table, refusal):
    board = await start(table)
    table.env.inject_error("PATCH", "/webhooks/*/messages/@original", **refusal)
    table.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", times=None, **refusal)
    menu = next(c for c in components(board) if isinstance(c, discord.SelectMenu))

    took = await take_a_card(table, board.id)

    assert took.acknowledged
    fresh = next(m for m in reversed(table.channel.history()) if has_card(m) and m.id != board.id)
    assert title(fresh) == title(board) and "move 1" in footer(fresh)
    assert running_match(table, fresh).row.message_id == fresh.id
    player = next(m for m in table.players[:2] if m.user.id in running_match(table, fresh).players)
    late = await player.select(board, [menu.options[1].value], custom_id=menu.custom_id)  # the old board
    assert f"/{fresh.id}" in told(late)


async def test_a_buried_board_comes_back_down_and_old_buttons_point_to_it(table):
    board = await start(table)
    player = next(m for m in table.players[:2] if m.user.id in running_match(table, board).players)
    listed = await player.slash(table.channel, "matches")

    brought = await player.click(listed.response.message, label=f"Board #{running_match(table, board).id} ↓")

    fresh = table.channel.history()[-1]
    assert "now at the bottom" in told(brought) and str(fresh.id) in told(brought)
    assert title(fresh) == title(board) and "Resign" in button_labels(fresh)
    old = channel_message(table.channel, board.id)
    assert old.content == f"This board moved: {running_match(table, fresh).jump_url()}"
    assert not has_card(old) and not components(old) and not old.attachments


async def test_a_member_watches_a_running_match_live_without_joining(table):
    board = await start(table)
    listed = await table.carol.slash(table.channel, "matches")
    match = running_match(table, board)

    watching = await table.carol.click(listed.response.message, label=f"Watch #{match.id}")

    assert watching.ephemeral
    view = watching.response
    assert title(view) == title(board) and not components(view.message)
    assert [attachment.filename for attachment in view.attachments] == ["board.png"]
    await take_a_card(table, board.id)
    assert "move 1" in footer(watching.response)  # kept current
    assert not MOTIF_WORDS.search(body(watching.response))  # the peek is the taker's
    mover = next(m for m in table.players[:2] if m.user.id == match.players[0])
    asked = await mover.click(channel_message(table.channel, board.id), label="Resign")
    await mover.click(asked.response.message, label="Yes, resign")
    assert "Game over" in body(watching.response)
    assert button_labels(watching.response.message) == ["Replay"]  # and now the replay


async def test_every_image_has_a_description_that_tells_no_secret(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    match = running_match(table, board)
    alt = board_image(board).description

    assert alt.startswith(f"My First Triominos #{match.id} board, move 0.") and "to move." in alt
    assert "Scores: A " in alt and "<@" not in alt and "**" not in alt
    hands = [card for seat in range(2) for card in match.engine.view(match.state, seat)["hand"]]
    spelled = {" · ".join(map(str, card["values"])) for card in hands if not card.get("joker")}
    assert not any(card in alt for card in spelled)  # no hand card is named on the public board
    player = next(
        m for m in table.players[:2] if m.user.id == match.players[match.engine.current_seats(match.state)[0]]
    )
    hand = await open_hand(player, board)
    assert board_image(hand).description and "you have" in board_image(hand).description


async def threads_on(table: Any) -> None:
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    said = await admin.slash(table.channel, "settings threads", threads="on")
    assert "its own thread" in told(said)


async def test_with_threads_on_a_match_lives_in_its_own_thread_archived_at_the_end(table):
    await threads_on(table)

    opened = await table.alice.slash(table.channel, "tremember new")

    [thread] = table.channel.threads
    assert opened.response.content == f"🧵 **Tremember #1** — a new lobby: join it in {thread.mention}."
    lobby = thread.history()[-1]
    assert title(lobby) == "Tremember — lobby #1"
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    board = channel_message(thread, lobby.id)
    assert title(board) == "Tremember #1" and "Resign" in button_labels(board)
    asked = await table.alice.click(board, label="Resign")
    await table.alice.click(asked.response.message, label="Yes, resign")
    assert "Game over" in body(channel_message(thread, lobby.id))
    assert table.env.backend.channels[thread.id].thread_metadata.archived
    said = [m.id for m in table.channel.history() if m.type is not discord.MessageType.thread_created]
    assert said == [opened.response.message.id]  # one line in the channel, and the rest in the thread


async def test_where_threads_cannot_be_made_the_lobby_stays_in_the_channel_with_a_note(table):
    await threads_on(table)
    table.env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013)

    opened = await table.alice.slash(table.channel, "tremember new")

    lobby = channel_message(table.channel, opened.response.message.id)
    assert "may not create threads here" in lobby.content and title(lobby) == "Tremember — lobby #1"
    joined = await table.bob.click(lobby, label="Join")
    assert joined.acknowledged and not table.channel.threads


async def finished_tremember(table: Any) -> Any:
    """A Tremember match with a few moves, then resigned: its final board."""
    board = await start(table)
    await take_a_card(table, board.id)
    match = running_match(table, board)
    mover = next(m for m in table.players[:2] if m.user.id == match.players[0])
    asked = await mover.click(channel_message(table.channel, board.id), label="Resign")
    await mover.click(asked.response.message, label="Yes, resign")
    return channel_message(table.channel, board.id)


async def replay_frames(message: Any) -> int:
    [attachment] = message.attachments
    assert attachment.filename == "replay.webp" and attachment.description.startswith("Animated replay of")
    picture = Image.open(io.BytesIO(await attachment.read()))
    assert picture.is_animated
    return picture.n_frames


async def test_a_finished_match_offers_its_replay_and_replay_shows_every_move(table):
    board = await finished_tremember(table)
    match_id = int(title(board).rsplit("#", 1)[1])
    moves = int(footer(board).rsplit(" ", 1)[1])
    assert button_labels(board) == ["Rematch", "Replay"]

    pressed = await table.carol.click(board, label="Replay")  # anyone on the server

    assert pressed.ephemeral and await replay_frames(pressed.response.message) == moves + 1
    shared = await table.bob.slash(table.channel, "replay", match=match_id)
    assert not shared.ephemeral and await replay_frames(shared.response.message) == moves + 1


async def test_a_running_match_has_no_replay_yet(table):
    board = await start(table)
    match_id = int(title(board).rsplit("#", 1)[1])

    refused = await table.carol.slash(table.channel, "replay", match=match_id)

    assert "still being played" in told(refused) and not refused.followups
    unknown = await table.carol.slash(table.channel, "replay", match=99)
    assert "no match #99" in told(unknown)


@pytest.mark.parametrize(
    ("game", "command"),
    [
        ("tremember", "tremember new"),
        ("tetris_link", "tetrislink new"),
        ("rookie", "rookie new"),
        ("triominos", "triominos new"),
        ("sequence_numbers", "sequence new"),
    ],
)
async def test_every_attachment_of_every_game_is_described(table, game, command):
    board = await open_and_start(table.channel, table.alice, [table.bob], command)
    label = table.env.bot.matches.games[game].private_label
    for member in (table.alice, table.bob):
        await member.click(channel_message(table.channel, board.id), label=label)
    if game == "tremember":
        await take_a_card(table, board.id)  # the peeked card, too

    seen = [
        message
        for member in (table.alice, table.bob)
        for message in [*table.channel.history(viewer=member), *member.user.dm_channel.history()]
    ]
    attachments = [attachment for message in seen for attachment in message.attachments]
    assert attachments and all(attachment.description for attachment in attachments)
    assert {attachment.filename for attachment in attachments} >= {"board.png"}
