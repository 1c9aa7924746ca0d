"""Places the bot lost: a deleted channel, a server that removed the bot, a permission taken
away. The match is set aside once, its players are told once, and the bot sends nothing more
for it — no edits, pings, reminders, time-outs or computers; a lost permission given back lets
a player resume it from `/matches`. No lobby leaves an empty thread behind."""

from __future__ import annotations

from typing import Any

import discord

from tests.e2e.helpers import (
    all_text,
    body,
    channel_message,
    footer,
    open_and_start,
    roster,
    title,
    told,
)
from tests.e2e.test_boards import threads_on
from tests.e2e.test_tremember import running_match

PERIOD = 120  # seconds per move of the matches here
MISSING_PERMISSIONS = {"status": 403, "code": 50013, "message": "Missing Permissions"}
UNKNOWN_CHANNEL = {"status": 404, "code": 10003, "message": "Unknown Channel"}


async def clocked_match(table: Any, channel: Any = None, players: tuple[Any, Any] | None = None) -> Any:
    host, guest = players or (table.alice, table.bob)
    return await open_and_start(channel or table.channel, host, [guest], "tremember new", clock=PERIOD)


def dms(member: Any, words: str) -> list[str]:
    return [message.content for message in member.user.dm_channel.history() if words in message.content]


async def stored(table: Any, match_id: int) -> Any:
    return await table.env.bot.storage.matches.get(match_id)


async def test_a_deleted_channel_ends_its_match_once_and_nothing_more_is_sent_for_it(table):
    board = await clocked_match(table)
    match = running_match(table, board)
    players = (table.alice, table.bob)

    table.env.backend.delete_channel(table.channel.id)
    await table.env.settle()
    sent = len(table.env.http_requests)
    await table.env.advance_time(5 * PERIOD)

    assert table.env.http_requests[sent:] == []  # no edit, ping, reminder, time-out or notice more
    ended = "**Tremember #1** ends here: its channel was deleted. Its moves are kept; the match is unrated."
    for member in players:
        assert dms(member, "ends here") == [ended]
        assert not dms(member, "runs out") and not dms(member, "computer")
    row = await stored(table, match.id)
    assert (row.status, row.turn, row.players) == ("set_aside", 0, match.players)  # nobody replaced
    assert match.id not in table.env.bot.matches.running


async def test_a_deleted_channel_ends_the_matches_of_its_threads_too(table):
    await threads_on(table)
    opened = await table.alice.slash(table.channel, "tremember new", clock=PERIOD)
    [thread] = table.channel.threads
    lobby = thread.history()[-1]
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    assert opened.acknowledged

    table.env.backend.delete_channel(table.channel.id)  # its threads go with it
    await table.env.settle()
    sent = len(table.env.http_requests)
    await table.env.advance_time(5 * PERIOD)

    assert table.env.http_requests[sent:] == []
    for member in (table.alice, table.bob):
        assert dms(member, "ends here") == [
            "**Tremember #1** ends here: its channel was deleted. Its moves are kept; the match is unrated."
        ]
    assert (await stored(table, 1)).status == "set_aside"


async def test_a_channel_found_gone_while_publishing_is_asked_for_once(table):
    board = await clocked_match(table)
    match = running_match(table, board)
    table.env.inject_error("*", f"/channels/{table.channel.id}/*", times=None, **UNKNOWN_CHANNEL)
    sent = len(table.env.http_requests)

    await table.env.advance_time(6 * PERIOD)  # the first time-out finds the channel gone

    later = table.env.http_requests[sent:]
    refused = [r for r in later if r.path.startswith(f"/channels/{table.channel.id}/")]
    assert len(refused) == 1
    for member in (table.alice, table.bob):
        assert len(dms(member, "ends here: its channel was deleted")) == 1
        assert len(dms(member, "runs out")) <= 1  # the reminder before the time-out, no more
    row = await stored(table, match.id)
    assert (row.status, row.players) == ("set_aside", match.players)  # one time-out played, nobody replaced


async def test_a_server_that_removes_the_bot_has_every_match_set_aside_and_left_alone(table):
    first = running_match(table, await clocked_match(table))
    second = running_match(table, await clocked_match(table, players=(table.carol, table.dave)))

    table.env.backend.remove_guild(table.guild.id)
    await table.env.settle()
    sent = len(table.env.http_requests)
    await table.env.advance_time(5 * PERIOD)

    assert table.env.http_requests[sent:] == []
    assert table.env.bot.matches.running == {}
    for match, members in ((first, (table.alice, table.bob)), (second, (table.carol, table.dave))):
        assert (await stored(table, match.id)).status == "set_aside"
        for member in members:
            [notice] = dms(member, "is paused")
            assert notice.startswith(f"⏸️ **Tremember #{match.id}** is paused: I was removed from its server.")
            assert "`/matches` → **Board ↓**" in notice


async def test_a_lost_permission_sets_the_match_aside_until_a_player_resumes_it(table):
    board = await clocked_match(table)
    match = running_match(table, board)
    table.env.inject_error("*", f"/channels/{table.channel.id}/*", times=None, **MISSING_PERMISSIONS)
    await table.env.advance_time(PERIOD + 10)  # the time-out's board edit is refused

    for member in (table.alice, table.bob):
        assert len(dms(member, "is paused: I lack a permission I need in its channel")) == 1
    sent = len(table.env.http_requests)
    await table.env.advance_time(5 * PERIOD)
    assert table.env.http_requests[sent:] == []

    pressed = await table.alice.click(channel_message(table.channel, board.id), label="Resign")
    assert "This match is paused" in told(pressed)  # a press on its board says so, privately
    listed = await table.bob.slash(table.channel, "matches")
    assert "paused — Board ↓ resumes it" in roster(listed.response)
    still = await table.bob.click(listed.response.message, label=f"Board #{match.id} ↓")
    assert "I still cannot post the board" in told(still)
    assert (await stored(table, match.id)).status == "set_aside"

    table.env.backend.faults.clear()  # the permission is given back
    brought = await table.bob.click(listed.response.message, label=f"Board #{match.id} ↓")

    assert "back in play" in told(brought)
    back = table.env.bot.matches.running[match.id]
    fresh = channel_message(table.channel, back.row.message_id)
    moves = back.turn
    assert footer(fresh).endswith(f"move {moves}") and "Time runs out" in body(fresh)
    assert "your turn" in table.channel.history()[-1].content  # whoever is due is pinged
    await table.env.advance_time(PERIOD - 10)  # a fresh period: nothing runs out yet
    assert back.turn == moves
    await table.env.advance_time(20)  # its clock runs again
    assert back.turn > moves and "ran out of time" in body(channel_message(table.channel, fresh.id))
    for member in (table.alice, table.bob):
        assert len(dms(member, "is paused")) == 1


async def test_threads_on_is_refused_where_the_bot_may_not_post_in_threads(table):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    denied = discord.PermissionOverwrite(send_messages_in_threads=False)
    channel = table.guild.create_text_channel("no-threads", overwrites={table.env.bot.user: denied})

    said = await admin.slash(channel, "settings threads", threads="on")

    assert "I need the Create Public Threads and Send Messages in Threads permissions" in told(said)
    assert not (await table.env.bot.storage.settings.for_guild(table.guild.id)).threads


async def test_with_threads_on_a_lobby_opens_no_thread_it_could_not_post_in(table):
    await threads_on(table)
    denied = discord.PermissionOverwrite(send_messages_in_threads=False)
    channel = table.guild.create_text_channel("no-threads", overwrites={table.env.bot.user: denied})

    opened = await table.alice.slash(channel, "tremember new")

    lobby = channel_message(channel, opened.response.message.id)
    assert "may not create threads here" in all_text(lobby) and title(lobby) == "Tremember — lobby #1"
    assert channel.threads == []


async def test_a_thread_whose_first_post_is_refused_is_taken_away(table):
    await threads_on(table)
    table.env.inject_error("POST", "/channels/*/messages", **MISSING_PERMISSIONS)

    opened = await table.alice.slash(table.channel, "tremember new")

    lobby = channel_message(table.channel, opened.response.message.id)
    assert "may not create threads here" in all_text(lobby) and title(lobby) == "Tremember — lobby #1"
    assert table.channel.threads == []
    joined = await table.bob.click(lobby, label="Join")
    assert joined.acknowledged and not joined.ephemeral
