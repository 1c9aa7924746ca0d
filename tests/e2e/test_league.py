"""Turn clocks, rematches, ratings and the server's league, through the real bot."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot import create_bot
from tests.e2e.helpers import (
    button_labels,
    channel_message,
    components,
    footer_move,
    mover,
    open_and_start,
    told,
)

TWO_MINUTES = 120


async def resign(member, board) -> None:
    asked = await member.click(board, label="Resign")
    await member.click(asked.response.message, label="Yes, resign")


async def test_the_player_to_move_is_reminded_before_the_clock_runs_out(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", clock=TWO_MINUTES)
    player = mover(board, table.players)
    assert "Time runs out" in board.embeds[0].description

    await table.env.advance_time(95)  # the reminder goes a quarter of the clock before the end

    reminders = [m.content for m in player.user.dm_channel.history() if "runs out" in m.content]
    assert len(reminders) == 1 and "Tetris Link #" in reminders[0]
    assert footer_move(channel_message(table.channel, board.id)) == 0  # nothing played yet


async def test_when_time_runs_out_the_move_is_played_and_announced(table):
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=TWO_MINUTES
    )
    late = mover(board, table.players)

    await table.env.advance_time(TWO_MINUTES + 20)

    board = channel_message(table.channel, board.id)
    assert f"<@{late.user.id}> ran out of time: the turn was played for them" in board.embeds[0].description
    assert footer_move(board) == 1
    assert mover(board, table.players) is not late


async def test_the_clock_survives_a_restart(table, target):
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=TWO_MINUTES
    )
    await table.env.advance_time(60)

    await table.env.restart_bot(create_bot(database=target))
    await table.env.advance_time(75)

    board = channel_message(table.channel, board.id)
    assert "ran out of time" in board.embeds[0].description
    assert footer_move(board) == 1


async def test_a_match_without_a_clock_never_times_out(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", clock=0)
    assert "Time runs out" not in board.embeds[0].description
    await table.env.advance_time(3600)
    assert footer_move(channel_message(table.channel, board.id)) == 0


async def test_a_finished_match_shows_rating_changes_and_offers_a_rematch_all_confirm(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await resign(table.bob, board)
    board = channel_message(table.channel, board.id)
    ratings = board.embeds[0].fields[1].value
    assert f"<@{table.alice.user.id}> 1000 →" in ratings and "(+" in ratings
    assert f"<@{table.bob.user.id}> 1000 →" in ratings and "(-" in ratings

    outsider = await table.carol.click(board, label="Rematch")
    assert "Only its players" in told(outsider)
    asked = await table.bob.click(board, label="Rematch")
    lobby = asked.response.message
    assert f"<@{table.alice.user.id}>" in lobby.content and "confirm the rematch" in lobby.content
    assert "without dice" in lobby.embeds[0].description  # the same options
    refused = await table.carol.click(lobby, label="Join")
    assert "rematch is for the players" in told(refused)

    await table.alice.click(lobby, label="Join")  # the last confirmation starts it

    rematch = channel_message(table.channel, lobby.id)
    assert rematch.embeds[0].title.startswith("Tetris Link #")
    assert "My pieces" in button_labels(rematch)


async def test_the_leaderboard_stats_and_history_follow_finished_matches(table):
    for loser in (table.bob, table.bob, table.carol):
        board = await open_and_start(table.channel, table.alice, [loser], "tetrislink new")
        await resign(loser, board)

    table_ = (await table.dave.slash(table.channel, "leaderboard")).response
    lines = table_.embeds[0].description.splitlines()
    assert f"<@{table.alice.user.id}>" in lines[0] and "3 wins / 3 games" in lines[0]
    assert len(lines) == 3
    one_game = (await table.dave.slash(table.channel, "leaderboard", game="tetris_link")).response
    assert one_game.embeds[0].title == "Leaderboard — Tetris Link"

    stats = (await table.dave.slash(table.channel, "stats", member=table.bob)).response.embeds[0]
    assert any(f.name == "Tetris Link" and "0 wins / 2 games" in f.value for f in stats.fields)
    recent = next(f for f in stats.fields if f.name == "Recent results").value
    assert len(recent.splitlines()) == 2

    history = (await table.dave.slash(table.channel, "history")).response.embeds[0].description
    assert len(history.splitlines()) == 3 and history.count("🏆") == 3


async def test_an_empty_server_has_an_empty_but_helpful_league(table):
    board = (await table.alice.slash(table.channel, "leaderboard")).response.embeds[0]
    assert "Nobody has finished a rated match here yet" in board.description
    stats = (await table.alice.slash(table.channel, "stats")).response.embeds[0]
    assert "has not finished a match" in stats.description
    history = (await table.alice.slash(table.channel, "history")).response.embeds[0]
    assert "No match has finished here yet" in history.description


async def test_results_stay_on_their_own_server(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    await resign(table.bob, board)
    other = table.env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    alice_there = other.add_member(table.alice.user)

    board = (await alice_there.slash(elsewhere, "leaderboard")).response.embeds[0]

    assert "Nobody has finished a rated match here yet" in board.description


async def test_the_leaderboard_pages_through_many_players(table):
    guild = table.guild
    members = [guild.add_member(table.env.create_user(f"p{n}")) for n in range(12)]
    for winner, loser in zip(members[::2], members[1::2], strict=True):
        board = await open_and_start(table.channel, winner, [loser], "tetrislink new")
        await resign(loser, board)

    first = (await table.alice.slash(table.channel, "leaderboard")).response
    assert len(first.embeds[0].description.splitlines()) == 10
    assert "page 1 of 2" in first.embeds[0].footer.text
    await table.alice.click(first.message, label="Next ▶")
    second = channel_message(table.channel, first.message.id, viewer=table.alice)
    assert "page 2 of 2" in second.embeds[0].footer.text
    assert second.embeds[0].description.splitlines()[0].startswith("` 11.`")
    assert [c.disabled for c in components(second)] == [False, True]


async def test_only_server_managers_change_the_settings_and_new_matches_follow_them(table):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await table.alice.slash(table.channel, "settings clock", clock=600)  # hidden from her

    changed = await admin.slash(table.channel, "settings clock", clock=600)
    assert "10 minutes per move" in changed.response.content
    await admin.slash(table.channel, "settings timeouts", count=1)

    lobby = (await table.alice.slash(table.channel, "tetrislink new")).response.message
    assert "10 minutes per move" in lobby.embeds[0].description
    shown = await admin.slash(table.channel, "settings show")
    assert "**1** times in a row" in shown.response.content
