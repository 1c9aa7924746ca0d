"""No member can wear the others down, and the bot sends nothing Discord would refuse: a host
holds at most three open lobbies per server, a finished match has one Rematch lobby, a member is
pinged once per match and turn, no edit goes out with an interaction token past its 15 minutes,
closed DMs are not tried again until the member next uses a command, and a press on a board a
failed edit left behind redraws it at once."""

from __future__ import annotations

from typing import Any

from bot import create_bot
from tests.e2e.helpers import (
    all_text,
    button_labels,
    channel_message,
    footer_move,
    has_card,
    mover,
    open_and_start,
    play_on_board,
    text_displays,
    title,
    token_of,
    told,
)
from tests.e2e.test_tremember import cells_offered, choose, running_match, start, take_a_card

TWO_MINUTES = 120
TOKEN_EXPIRED_S = 15 * 60 + 1


def edits_through(table: Any, token: str) -> list[Any]:
    """Every request the bot made through an interaction's token after answering it: its
    follow-ups and edits (webhook paths that name the token)."""
    return [
        request
        for request in table.env.http_requests
        if request.path.startswith("/webhooks/") and f"/{token}/" in request.path
    ]


def dm_attempts(table: Any, member: Any) -> int:
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return sum(1 for request in table.env.http_requests if request.method == "POST" and request.path == path)


def pings_of(table: Any, member: Any) -> int:
    """How many public messages the bot posted in the channel pinging `member` (its own or an
    interaction's answer), including any it deleted since: a mention in its content, or one in
    its card's text displays that its allowed mentions let ping (a board names every player in
    its card, and pings nobody)."""
    mention, found = f"<@{member.user.id}>", 0
    for request in table.env.http_requests:
        body = request.json or {}
        if request.path == f"/channels/{table.channel.id}/messages" and request.method == "POST":
            message = body
        elif request.path.startswith("/interactions/") and body.get("type") == 4:  # a message answer
            message = body.get("data") or {}
        else:
            continue
        allowed = message.get("allowed_mentions") or {}
        may_ping = "users" in allowed.get("parse", []) or str(member.user.id) in map(
            str, allowed.get("users", [])
        )
        in_card = may_ping and any(mention in text for text in text_displays(message))
        in_content = mention in (message.get("content") or "")
        found += (in_content or in_card) and not (message.get("flags") or 0) & 64
    return found


async def resign(member: Any, board: Any) -> None:
    asked = await member.click(board, label="Resign")
    await member.click(asked.response.message, label="Yes, resign")


# --- lobbies and rematches ------------------------------------------------------------------


async def test_a_member_holding_three_open_lobbies_is_shown_them_instead_of_a_fourth(table):
    other = await table.bob.slash(table.channel, "tetrislink new")
    await table.alice.click(other.response.message, label="Join")  # a seat she joined is not hers to hold
    held = [(await table.alice.slash(table.channel, "tetrislink new")).response.message for _ in range(3)]

    fourth = await table.alice.slash(table.channel, "rookie new")

    assert fourth.ephemeral and "already host 3 open lobbies" in told(fourth)
    assert all(f"/{lobby.id}" in told(fourth) for lobby in held)
    lobbies = [
        message for message in table.channel.history() if has_card(message) and "lobby" in title(message)
    ]
    assert len(lobbies) == 4  # Bob's and her three
    elsewhere = table.env.create_guild("Elsewhere")
    there = elsewhere.add_member(table.alice.user)
    assert not (await there.slash(elsewhere.create_text_channel("games"), "rookie new")).ephemeral
    await table.alice.click(held[0], label="Cancel")
    assert not (await table.alice.slash(table.channel, "rookie new")).ephemeral


async def test_a_host_cancels_from_matches_a_lobby_whose_message_a_moderator_deleted(table):
    held = [(await table.alice.slash(table.channel, "tetrislink new")).response.message for _ in range(3)]
    gone = title(held[0]).rsplit("#", 1)[1]
    moderator = table.guild.add_member(table.guild.owner)
    await moderator.delete(held[0])  # its Cancel button went with it
    refused = await table.alice.slash(table.channel, "rookie new")
    assert "lists them, each with a button to cancel it" in told(refused)

    listed = (await table.alice.slash(table.channel, "matches")).response.message
    cancel = f"Cancel lobby #{gone}"
    assert cancel in button_labels(listed)
    cancelled = await table.alice.click(listed, label=cancel)

    assert cancelled.ephemeral and f"Lobby #{gone} is cancelled." in told(cancelled)
    assert not (await table.alice.slash(table.channel, "rookie new")).ephemeral
    assert "This lobby is closed" in told(await table.alice.click(listed, label=cancel))


async def test_twenty_five_rematch_presses_open_one_lobby_that_pings_once_and_outlives_a_restart(
    table, target
):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await resign(table.bob, board)
    board = channel_message(table.channel, board.id)
    pinged = pings_of(table, table.bob)

    presses = [await table.alice.click(board, label="Rematch") for _ in range(25)]

    lobby = presses[0].response.message
    assert "confirm the rematch" in all_text(lobby)
    assert all(f"/{lobby.id}" in told(press) and "rematch is open" in told(press) for press in presses[1:])
    assert pings_of(table, table.bob) == pinged + 1
    await table.env.restart_bot(create_bot(database=target))
    assert "rematch is open" in told(await table.alice.click(board, label="Rematch"))

    joined = await table.bob.click(board, label="Rematch")  # Bob confirms from the old board too

    assert f"/{lobby.id}" in told(joined) and "rematch has begun" in told(joined)
    rematch = channel_message(table.channel, lobby.id)
    assert title(rematch).startswith("Tetris Link #") and "My pieces" in button_labels(rematch)
    assert "under way" in told(await table.alice.click(board, label="Rematch"))
    lobbies = [m for m in table.channel.history() if has_card(m) and "lobby" in title(m)]
    assert lobbies == []  # the one lobby became the match


async def test_a_cancelled_rematch_is_not_opened_again(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await resign(table.bob, board)
    board = channel_message(table.channel, board.id)
    lobby = (await table.alice.click(board, label="Rematch")).response.message
    await table.alice.click(lobby, label="Cancel")
    pinged = pings_of(table, table.bob)

    again = await table.alice.click(board, label="Rematch")

    assert again.ephemeral and "rematch was cancelled" in told(again) and "/tetrislink new" in told(again)
    assert pings_of(table, table.bob) == pinged


# --- one ping per turn ------------------------------------------------------------------------


async def test_a_turn_published_again_pings_nobody_a_second_time_even_after_a_restart(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    due = mover(board, table.players)
    match = running_match(table, board)
    pinged = pings_of(table, due)

    await table.env.bot.matches.board.publish(None, match, previous_seats=())  # e.g. a board redrawn
    await table.env.restart_bot(create_bot(database=target))
    again = await table.env.bot.matches.match(match.id)
    await table.env.bot.matches.board.publish(None, again, previous_seats=())

    assert pings_of(table, due) == pinged == 1
    await play_on_board(due, table.channel, board.id)
    following = mover(channel_message(table.channel, board.id), table.players)
    assert pings_of(table, following) == 1  # the next turn pings its player, once


# --- interaction tokens past 15 minutes ---------------------------------------------------------


async def test_a_private_reply_older_than_fifteen_minutes_is_never_edited(table):
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=0
    )
    player = mover(board, table.players)
    shown = await player.click(board, label="My pieces")
    assert shown.ephemeral

    await table.env.advance_time(TOKEN_EXPIRED_S)
    await play_on_board(player, table.channel, board.id)

    assert edits_through(table, token_of(shown)) == []
    assert footer_move(channel_message(table.channel, board.id)) == 1


async def test_a_spectators_view_older_than_fifteen_minutes_is_never_edited(table):
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=0
    )
    listed = await table.carol.slash(table.channel, "matches")
    watching = await table.carol.click(
        listed.response.message, label=f"Watch #{running_match(table, board).id}"
    )
    player = mover(board, table.players)
    await play_on_board(player, table.channel, board.id)
    assert footer_move(watching.response) == 1  # kept current while its token lives
    before = len(edits_through(table, token_of(watching)))

    await table.env.advance_time(TOKEN_EXPIRED_S)
    await play_on_board(
        mover(channel_message(table.channel, board.id), table.players), table.channel, board.id
    )

    assert len(edits_through(table, token_of(watching))) == before


# --- closed DMs ---------------------------------------------------------------------------------


async def closed_dms_match(table: Any) -> tuple[Any, int]:
    """A match with a clock where Alice is to move and Bob's DMs are closed for good; its board
    and how many DMs were sent to Bob before they closed."""
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=TWO_MINUTES
    )
    if mover(board, table.players) is table.bob:
        await play_on_board(table.bob, table.channel, board.id)
    dm = table.bob.user.dm_channel
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
    return board, dm_attempts(table, table.bob)


async def test_after_closed_dms_refuse_once_no_dm_is_tried_until_the_member_uses_a_command(table):
    board, sent = await closed_dms_match(table)
    for _ in range(2):  # Alice plays, Bob lets the clock play for him: notices and reminders
        await play_on_board(table.alice, table.channel, board.id)
        await table.env.advance_time(TWO_MINUTES + 15)
    await play_on_board(table.alice, table.channel, board.id)

    assert dm_attempts(table, table.bob) - sent == 1
    assert mover(channel_message(table.channel, board.id), table.players) is table.bob
    await table.bob.click(channel_message(table.channel, board.id), label="My pieces")  # a press...
    await table.env.advance_time(95)  # ...is no sign of open DMs: the reminder of this turn waits
    assert dm_attempts(table, table.bob) - sent == 1
    await play_on_board(table.bob, table.channel, board.id)
    await play_on_board(table.alice, table.channel, board.id)
    assert dm_attempts(table, table.bob) - sent == 1

    await table.bob.slash(table.channel, "matches")  # a command: he is back
    await table.env.advance_time(105)  # the reminder of this turn (at 90 s, on a beat of 15 s)

    assert dm_attempts(table, table.bob) - sent == 2
    notes = [m for m in table.channel.history() if "cannot send you direct messages" in (m.content or "")]
    assert len(notes) == 1  # said once in this match
    assert any("Your turn in" in m.content for m in table.alice.user.dm_channel.history())


async def test_closed_dms_stay_untried_after_a_restart(table, target):
    board, sent = await closed_dms_match(table)
    await play_on_board(table.alice, table.channel, board.id)  # Bob's notice is refused
    assert dm_attempts(table, table.bob) - sent == 1

    await table.env.restart_bot(create_bot(database=target))
    await table.env.advance_time(TWO_MINUTES + 15)  # his reminder, then the clock plays for him
    await play_on_board(table.alice, table.channel, board.id)

    assert dm_attempts(table, table.bob) - sent == 1


# --- a board a failed edit left behind ----------------------------------------------------------


async def test_a_press_on_a_board_left_behind_redraws_it_at_once_and_says_so(table):
    board = await start(table)
    table.env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500)
    await take_a_card(table, board.id)
    behind = channel_message(table.channel, board.id)
    assert footer_move(behind) == 0

    pressed = await choose(table, board.id, cells_offered(behind)[-1])

    assert pressed.acknowledged and "was behind and is redrawn now" in told(pressed)
    assert f"/{board.id}" in told(pressed)
    assert footer_move(channel_message(table.channel, board.id)) == 1
    assert table.env.bot.matches.board.stale == {}
    assert not running_match(table, board).row.board_stale
