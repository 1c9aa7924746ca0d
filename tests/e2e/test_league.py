"""Turn clocks, rematches, ratings and the server's league, through the real bot."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot import create_bot
from cogs.league import LeaderboardPage
from data.ratings import OVERALL
from tests.data.tracing import finish, running_match
from tests.e2e.helpers import (
    body,
    button_labels,
    card_size,
    channel_message,
    components,
    field,
    fields,
    footer,
    footer_move,
    mover,
    open_and_start,
    play_on_board,
    roster,
    text_displays,
    title,
    told,
)

TWO_MINUTES = 120
DAY_S = 24 * 3600


async def resign(member, board) -> None:
    asked = await member.click(board, label="Resign")
    await member.click(asked.response.message, label="Yes, resign")


async def play_moves(channel, board, members, moves: int = 4):
    """`moves` moves on the board, each by the member it names (two each for two players:
    enough for a resignation to be rated); returns the board."""
    for _ in range(moves):
        board = channel_message(channel, board.id)
        await play_on_board(mover(board, members), channel, board.id)
    return channel_message(channel, board.id)


def rating_signs(board) -> dict[str, str]:
    """Each player's rating change on a final board, as its sign: {"<@1>": "+", "<@2>": "-"}."""
    lines = field(board, "Ratings").splitlines()
    return {line.split()[0]: line.rsplit("(", 1)[1][0] for line in lines}


async def rated_win(channel, winner, loser):
    """A match `winner` wins by `loser`'s resignation after two moves each; returns the board."""
    board = await open_and_start(channel, winner, [loser], "tetrislink new", dice=False)
    await play_moves(channel, board, [winner, loser])
    await resign(loser, board)
    return channel_message(channel, board.id)


async def test_the_player_to_move_is_reminded_before_the_clock_runs_out(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", clock=TWO_MINUTES)
    player = mover(board, table.players)
    assert "Time runs out" in body(board)

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
    assert f"<@{late.user.id}> ran out of time: the turn was played for them" in body(board)
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
    assert "ran out of time" in body(board)
    assert footer_move(board) == 1


async def test_a_match_without_a_clock_never_times_out(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", clock=0)
    assert "Time runs out" not in body(board)
    await table.env.advance_time(3600)
    assert footer_move(channel_message(table.channel, board.id)) == 0


async def test_a_finished_match_shows_rating_changes_and_offers_a_rematch_all_confirm(table):
    board = await rated_win(table.channel, table.alice, table.bob)
    assert f"<@{table.alice.user.id}> wins by resignation!" in body(board)
    assert f"<@{table.bob.user.id}> — " in roster(board)
    assert "(resigned)" in roster(board)
    ratings = field(board, "Ratings")
    assert f"<@{table.alice.user.id}> 1000 →" in ratings and "(+" in ratings
    assert f"<@{table.bob.user.id}> 1000 →" in ratings and "(-" in ratings

    outsider = await table.carol.click(board, label="Rematch")
    assert "Only its players" in told(outsider)
    asked = await table.bob.click(board, label="Rematch")
    lobby = asked.response.message
    assert f"<@{table.alice.user.id}>" in body(lobby) and "confirm the rematch" in body(lobby)
    assert "without dice" in body(lobby)  # the same options
    refused = await table.carol.click(lobby, label="Join")
    assert "rematch is for the players" in told(refused)

    await table.alice.click(lobby, label="Join")  # the last confirmation starts it

    rematch = channel_message(table.channel, lobby.id)
    assert title(rematch).startswith("Tetris Link #")
    assert "My pieces" in button_labels(rematch)


async def test_the_leaderboard_lists_members_after_five_rated_matches_against_three_others(table):
    for loser in (table.bob, table.carol, table.bob, table.carol):
        await rated_win(table.channel, table.alice, loser)

    table_ = (await table.dave.slash(table.channel, "leaderboard")).response
    assert "Nobody is listed here yet" in body(table_)  # 4 matches, 2 opponents: not yet
    assert "listed after 5 rated matches against 3 different members" in footer(table_)
    stats = (await table.dave.slash(table.channel, "stats", member=table.alice)).response
    assert any(f.name == "Tetris Link" and "provisional rating" in f.value for f in fields(stats))

    await rated_win(table.channel, table.alice, table.dave)

    table_ = (await table.dave.slash(table.channel, "leaderboard")).response
    lines = body(table_).splitlines()
    assert len(lines) == 1  # the others have played 2 matches at most, against one member
    assert f"<@{table.alice.user.id}>" in lines[0] and "5 wins / 5 games" in lines[0]
    one_game = (await table.dave.slash(table.channel, "leaderboard", game="tetris_link")).response
    assert title(one_game) == "Leaderboard — Tetris Link"
    stats = (await table.dave.slash(table.channel, "stats", member=table.alice)).response
    assert any(f.name == "Tetris Link" and "rating **" in f.value for f in fields(stats))
    assert not any("provisional" in f.value for f in fields(stats))

    stats = (await table.dave.slash(table.channel, "stats", member=table.bob)).response
    assert any(f.name == "Tetris Link" and "0 wins / 2 games" in f.value for f in fields(stats))
    assert any("provisional rating" in f.value for f in fields(stats))
    recent = next(f for f in fields(stats) if f.name == "Recent results").value
    assert len(recent.splitlines()) == 2 and "rating -" in recent

    history = body((await table.dave.slash(table.channel, "history")).response)
    lines = history.splitlines()
    assert len(lines) == 5 and history.count("🏆") == 5
    assert all("(won by resignation)" in line and "(resigned)" in line for line in lines)


async def test_an_empty_server_has_an_empty_but_helpful_league(table):
    board = (await table.alice.slash(table.channel, "leaderboard")).response
    assert "Nobody is listed here yet" in body(board)
    stats = (await table.alice.slash(table.channel, "stats")).response
    assert "has no rated match" in body(stats)
    history = (await table.alice.slash(table.channel, "history")).response
    assert "No match has finished here yet" in body(history)


async def test_results_stay_on_their_own_server(table):
    await rated_win(table.channel, table.alice, table.bob)
    other = table.env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    alice_there = other.add_member(table.alice.user)

    board = (await alice_there.slash(elsewhere, "leaderboard")).response
    stats = (await alice_there.slash(elsewhere, "stats")).response

    assert "Nobody is listed here yet" in body(board)
    assert "has no rated match" in body(stats)


async def test_the_leaderboard_pages_through_many_players_named_in_a_card_that_pings_nobody(table):
    guild = table.guild
    members = [
        guild.add_member(table.env.create_user(f"{n:02}Wolfeschlegelsteinhausenberger")) for n in range(12)
    ]
    storage = table.env.bot.storage
    for n, member in enumerate(members):  # each against the next five: 10 matches, 10 opponents
        for step in range(1, 6):
            players = (member.user.id, members[(n + step) % 12].user.id)
            await finish(storage, await running_match(storage, players, guild_id=guild.id), players)

    first = (await table.alice.slash(table.channel, "leaderboard")).response
    assert len(body(first).splitlines()) == 10
    assert "page 1 of 2" in footer(first)
    shown = first.message
    assert shown.flags.components_v2 and not shown.embeds and card_size(shown) <= (40, 4000)
    listed = [member for member in members if f"<@{member.user.id}>" in text_displays(shown)[0]]
    assert len(listed) == 10  # in a text display: names, not ids
    assert not table.env.backend.get_message(table.channel.id, shown.id).ping_user_ids
    await table.alice.click(first.message, label="Next ▶")
    second = channel_message(table.channel, first.message.id, viewer=table.alice)
    assert "page 2 of 2" in footer(second)
    assert body(second).splitlines()[0].startswith("` 11.`")
    assert [c.disabled for c in components(second)] == [False, True]

    legacy = discord.Embed(title=title(first), description=body(first)).set_footer(text=footer(first))
    pages = discord.ui.View(timeout=None)
    pages.add_item(LeaderboardPage(OVERALL, -1, "◀ Previous", disabled=True))
    pages.add_item(LeaderboardPage(OVERALL, 1, "Next ▶"))
    old = await table.env.bot.get_channel(table.channel.id).send(embed=legacy, view=pages)
    await table.bob.click(channel_message(table.channel, old.id), label="Next ▶")
    turned = channel_message(table.channel, old.id)  # an earlier version's leaderboard: now a card
    assert turned.flags.components_v2 and not turned.embeds and "page 2 of 2" in footer(turned)


async def test_only_server_managers_change_the_settings_and_new_matches_follow_them(table):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await table.alice.slash(table.channel, "settings clock", clock=600)  # hidden from her

    changed = await admin.slash(table.channel, "settings clock", clock=600)
    assert "10 minutes per move" in changed.response.content
    await admin.slash(table.channel, "settings timeouts", count=1)

    lobby = (await table.alice.slash(table.channel, "tetrislink new")).response.message
    assert "10 minutes per move" in body(lobby)
    shown = await admin.slash(table.channel, "settings show")
    assert "runs out of time **once** is replaced" in shown.response.content


async def test_an_alt_resigning_at_once_abandons_the_match_unrated_for_everyone(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)

    await resign(table.bob, board)

    board = channel_message(table.channel, board.id)
    text = body(board)
    assert f"<@{table.alice.user.id}> wins by resignation!" in text
    assert "Abandoned before everyone had made two moves: this match is unrated." in text
    assert [f.name for f in fields(board)] == ["Players"]  # no rating changed
    history = body((await table.carol.slash(table.channel, "history")).response)
    assert "(abandoned — unrated)" in history and "🏆" not in history
    assert f"<@{table.bob.user.id}> 0 (resigned)" in history
    stats = (await table.carol.slash(table.channel, "stats", member=table.alice)).response
    recent = next(f for f in fields(stats) if f.name == "Recent results").value
    assert "(abandoned — unrated)" in recent and "· unrated" not in recent  # said once
    assert not any(f.name == "Tetris Link" for f in fields(stats))  # no rating at all


async def pass_days(table, target, days: float) -> None:
    """Let `days` go by with the bot up but its beats stopped (virtual time would otherwise run
    each of its one-second beats), then start it again on the same database: its last heartbeat
    says it was up all along, so no outage is added to the waiting."""
    table.env.bot.matches.beats.stop()
    await table.env.advance_time(days * DAY_S)
    await table.env.bot.matches.heartbeat()
    await table.env.restart_bot(create_bot(database=target))


async def test_only_three_results_a_day_between_the_same_members_change_ratings(table, target):
    for _ in range(3):
        board = await rated_win(table.channel, table.alice, table.bob)
        assert "(+" in field(board, "Ratings")

    fourth = await rated_win(table.channel, table.alice, table.bob)

    assert (
        field(fourth, "Ratings")
        == "unrated: these members already had 3 rated results together in the last 24 hours"
    )
    history = body((await table.carol.slash(table.channel, "history")).response)
    assert "already had 3 rated results" in history.splitlines()[0]
    assert not any("already had" in line for line in history.splitlines()[1:])
    stats = (await table.carol.slash(table.channel, "stats", member=table.bob)).response
    assert any(f.name == "Tetris Link" and "0 wins / 3 games" in f.value for f in fields(stats))

    await pass_days(table, target, 1)
    fifth = await rated_win(table.channel, table.alice, table.bob)

    assert "(+" in field(fifth, "Ratings")
    stats = (await table.carol.slash(table.channel, "stats", member=table.bob)).response
    assert any(f.name == "Tetris Link" and "0 wins / 4 games" in f.value for f in fields(stats))


async def test_a_player_replaced_after_time_outs_has_resigned_and_is_rated_last(table):
    players = [table.alice, table.bob]
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=TWO_MINUTES
    )
    board = await play_moves(table.channel, board, players)
    stayer = mover(board, players)
    board = await play_moves(table.channel, board, players, moves=1)
    walker = mover(board, players)
    for _ in range(2):  # the walker's turn is played for them twice; the stayer plays on
        await table.env.advance_time(TWO_MINUTES + 20)
        board = await play_moves(table.channel, board, players, moves=1)

    await table.env.advance_time(TWO_MINUTES + 20)  # the third time: a computer takes the seat, and plays

    assert "Computer" in roster(channel_message(table.channel, board.id))
    await resign(stayer, channel_message(table.channel, board.id))

    board = channel_message(table.channel, board.id)
    assert rating_signs(board) == {f"<@{stayer.user.id}>": "+", f"<@{walker.user.id}>": "-"}
    assert "ran out of time too often and resigned by it" in body(board)
    history = body((await table.carol.slash(table.channel, "history")).response)
    assert f"<@{walker.user.id}>" in history and "(timed out, seat taken over)" in history
    assert "Computer" not in history  # the seat's result is its person's
    stats = (await table.carol.slash(table.channel, "stats", member=table.alice)).response
    assert not any("With computers" in f.name for f in fields(stats))


async def test_a_member_who_left_the_server_is_resigned_on_their_next_turn_and_ranks_last(table):
    players = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    board = await play_moves(table.channel, board, players)
    stayer = mover(board, players)
    leaver = table.bob if stayer is table.alice else table.alice

    table.guild.remove_member(leaver)
    await table.env.advance_time(601)  # past the ten minutes a member found present counts as present
    board = await play_moves(table.channel, board, players, moves=1)  # the leaver's turn comes

    text = body(board)
    assert f"<@{stayer.user.id}> wins by resignation!" in text
    assert f"<@{leaver.user.id}> is no longer on this server and was resigned." in text
    assert rating_signs(board) == {f"<@{stayer.user.id}>": "+", f"<@{leaver.user.id}>": "-"}
    history = body((await table.carol.slash(table.channel, "history")).response)
    assert "(won by resignation)" in history and "(left the server)" in history


async def test_without_a_clock_the_others_may_claim_a_match_after_three_days_without_a_move(
    table, target, client_locales
):
    players = [table.alice, table.bob]
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=0
    )
    board = await play_moves(table.channel, board, players)
    absent = mover(board, players)
    claimant = table.bob if absent is table.alice else table.alice
    assert "Claim" in button_labels(board)

    early = await claimant.click(board, label="Claim")
    assert "You can claim this match <t:" in told(early) and f"if <@{absent.user.id}> has not moved" in told(
        early
    )
    own = await absent.click(board, label="Claim")
    assert "It is your turn" in told(own)

    await pass_days(table, target, 3)
    asked = await claimant.click(channel_message(table.channel, board.id), label="Claim")
    assert asked.ephemeral and f"<@{absent.user.id}> has not moved for 3 days" in asked.response.content
    confirmed = await claimant.click(asked.response.message, label="Yes, claim")

    assert "You claimed the match" in told(confirmed) or "You claimed the match" in (
        channel_message(table.channel, asked.response.message.id, viewer=claimant).content
    )
    board = channel_message(table.channel, board.id)
    text = body(board)
    assert f"<@{claimant.user.id}> wins by resignation!" in text
    assert f"<@{absent.user.id}> made no move for 3 days: the others claimed the match." in text
    assert "(+" in field(board, "Ratings")
    client_locales.speak(table.dave, "de")
    history = body((await table.dave.slash(table.channel, "history")).response)
    assert "(durch Aufgabe gewonnen)" in history and "(nach 3 Tagen ohne Zug beansprucht)" in history
