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

from matches.components import form_items, items_view, lobby_items
from tests.e2e.helpers import (
    all_text,
    board_image,
    body,
    button_labels,
    channel_message,
    components,
    footer,
    has_card,
    mover,
    open_and_start,
    play_on_board,
    title,
    told,
)
from tests.e2e.test_tremember import MOTIF_WORDS, cells_offered, choose, running_match, start, take_a_card
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
    assert all_text(old) == f"This board moved: {running_match(table, fresh).jump_url()}"
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
    assert "may not create threads here" in all_text(lobby) and title(lobby) == "Tremember — lobby #1"
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


# --- boards drawn as embeds by an earlier version of the bot ----------------------------------


async def post_legacy(
    table: Any, match_id: int, embed: discord.Embed, view: discord.ui.View, **files: Any
) -> Any:
    """Post `embed` with `view` (a legacy message: content, embed and five rows at most) as the
    match's message, as the bot's earlier version drew boards and lobbies."""
    bot = table.env.bot
    message = await bot.get_channel(table.channel.id).send(embed=embed, view=view, **files)
    await bot.storage.matches.set_board_message(match_id, message.id)
    if match_id in bot.matches.running:
        bot.matches.running[match_id].row.message_id = message.id
    return channel_message(table.channel, message.id)


def shows_a_card(message: Any) -> bool:
    """A Components V2 message: words in a card, no content, no embed."""
    return message.flags.components_v2 and not message.embeds and not message.content and has_card(message)


async def test_boards_and_lobbies_drawn_as_embeds_become_cards_on_their_next_edit(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    match = running_match(table, board)
    legacy = discord.Embed(title=title(board), description=body(board))
    legacy.set_footer(text=footer(board)).set_image(url="attachment://board.png")
    choices = form_items(match.id, match.turn, "b", table.env.bot.matches.board.board_form(match))
    picture = discord.File(io.BytesIO(await board_image(board).read()), filename="board.png")
    old = await post_legacy(table, match.id, legacy, items_view(choices), file=picture)
    assert old.embeds and not old.flags.components_v2

    await play_on_board(mover(old, table.players), table.channel, old.id)

    card = channel_message(table.channel, old.id)
    assert shows_a_card(card) and title(card) == title(board) and "move 1" in footer(card)
    assert "Resign" in button_labels(card) and len(card.attachments) == 1
    assert board_image(card).description.startswith(f"{title(board)} board, move 1.")
    assert not table.env.backend.get_message(table.channel.id, card.id).ping_user_ids  # names, no pings

    opened = await table.carol.slash(table.channel, "tremember new")
    lobby = opened.response.message
    assert not table.env.backend.get_message(table.channel.id, lobby.id).ping_user_ids  # the host's name
    shown = discord.Embed(title=title(lobby), description=body(lobby))
    view = discord.ui.View(timeout=None)
    for item in lobby_items(match.id + 1, "en"):
        view.add_item(item)
    old_lobby = await post_legacy(table, match.id + 1, shown, view)

    joined = await table.dave.click(old_lobby, label="Join")

    assert joined.acknowledged and not joined.ephemeral
    card = channel_message(table.channel, old_lobby.id)
    assert shows_a_card(card) and title(card) == title(lobby) and f"<@{table.dave.user.id}>" in body(card)
    assert "Start" in button_labels(card)


async def test_a_pick_refused_on_a_card_clears_its_menu_and_keeps_its_picture(table):
    board = await start(table)
    waiting = next(m for m in table.players[:2] if m is not mover(board, table.players))

    refused = await choose(table, board.id, cells_offered(board)[0], player=waiting)

    assert "not your turn" in told(refused).lower()
    redraw = next(r for r in reversed(table.env.http_requests) if r.path.endswith("/callback"))
    [gallery] = [c for c in redraw.json["data"]["components"][0]["components"] if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"  # not a link that expires
    shown = channel_message(table.channel, board.id)
    assert shows_a_card(shown) and board_image(shown).description == board_image(board).description
