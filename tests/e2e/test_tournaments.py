"""Tournaments through the real bot: the sign-up, rounds of real matches (finished here by
resigning), byes, forfeits, late entrants, a restart, and the standings picture."""

from __future__ import annotations

from itertools import combinations

import discord

from bot import create_bot
from tests.e2e.helpers import board_image, body, button_labels, card_size, channel_message, title, told
from tests.e2e.test_boards import threads_on


async def resign(member, board) -> None:
    asked = await member.click(board, label="Resign")
    done = await member.click(asked.response.message, label="Yes, resign")
    assert done.acknowledged and not told(done), told(done)


async def sign_up(channel, organizer, others, **options):
    """The organizer opens a tournament, the others join, the organizer starts it; returns the
    sign-up message."""
    opened = await organizer.slash(channel, "tournament new", **options)
    signup = opened.response.message
    for member in others:
        joined = await member.click(signup, label="Join")
        assert joined.acknowledged and not told(joined), told(joined)
    return signup


async def current_tables(env, tournament_id: int):
    row = await env.bot.storage.tournaments.get(tournament_id)
    return row, [table for table in row.tables if table.round == row.round]


async def lose(env, channel, members, tournament_id: int, losers=()) -> None:
    """Every match of the current round ends: at each table the players of `losers` (else all
    but the first seated) resign, one after the other."""
    by_id = {member.user.id: member for member in members}
    _, tables = await current_tables(env, tournament_id)
    for table in tables:
        if table.ranks is not None or table.match_id is None:
            continue
        chosen = [p for p in table.seats if p in losers] or list(table.seats[1:])
        for loser in chosen:
            match = await env.bot.storage.matches.get(table.match_id)
            where = next((thread for thread in channel.threads if thread.id == match.channel_id), channel)
            if match.status == "running" and loser not in {d.user_id for d in match.departures}:
                await resign(by_id[loser], channel_message(where, match.message_id))


def rounds_said(channel) -> list[str]:
    return [m.content for m in channel.history() if "— round" in (m.content or "")]


async def test_a_swiss_tournament_of_five_pairs_three_rounds_with_a_bye_each_and_survives_a_restart(
    table, target
):
    erin = table.guild.add_member(table.env.create_user("erin"))
    members = [*table.players, erin]
    signup = await sign_up(
        table.channel, table.alice, members[1:], game="tetris_link", format="swiss", rounds=3, dice=False
    )
    assert title(signup).startswith("Tournament #1 — Tetris Link (Swiss)")
    assert "a win is 1 point, a draw ½, a loss 0" in body(signup)
    assert "Buchholz, then Sonneborn–Berger" in body(signup)
    again = await table.bob.click(signup, label="Join")
    assert "in this tournament already" in told(again)
    refused = await table.bob.click(signup, label="Start")
    assert "Only the organizer" in told(refused)

    await table.alice.click(signup, label="Start")
    row, tables = await current_tables(table.env, 1)
    assert row.round == 1 and len(tables) == 2 and len(row.byes[1]) == 1
    assert "Bye (a win)" in rounds_said(table.channel)[0]

    first, *_ = [t for t in tables]
    await resign(
        {m.user.id: m for m in members}[first.seats[1]],
        channel_message(table.channel, (await table.env.bot.storage.matches.get(first.match_id)).message_id),
    )
    await table.env.restart_bot(create_bot(database=target))  # mid-round
    await lose(table.env, table.channel, members, 1)
    row, _ = await current_tables(table.env, 1)
    assert row.round == 2  # the last match of round 1 ended after the restart: round 2 began

    await table.env.restart_bot(create_bot(database=target))  # between rounds: round 2 is paired
    await lose(table.env, table.channel, members, 1)
    await lose(table.env, table.channel, members, 1)

    row = await table.env.bot.storage.tournaments.get(1)
    assert row.status == "finished" and sorted(row.byes) == [1, 2, 3]
    assert len({bye for byes in row.byes.values() for bye in byes}) == 3  # never the same player twice
    pairs = [frozenset(pair) for t in row.tables for pair in combinations(t.seats, 2)]
    assert len(pairs) == len(set(pairs)) == 6  # no pairing repeated
    said = rounds_said(table.channel)
    assert len(said) == 3 and all("Bye (a win)" in line for line in said)

    final = table.channel.history()[-1]
    assert "🏆 **Tournament #1 (Tetris Link) is over:** 🥇" in final.content
    winner = final.content.split("🥇 ", 1)[1].split(",", 1)[0]
    assert final.content.splitlines()[-1] == f"🏅 {winner} earned 🏆 **Champion**"
    podium, standings = final.attachments
    assert podium.description.startswith("Tournament #1 — Tetris Link (Swiss). 1. ")
    assert standings.description.startswith("Standings of tournament #1, final standings: 1, ")
    shown = await table.bob.slash(table.channel, "tournament standings")
    assert shown.ephemeral and board_image(shown.response).description == standings.description
    lines = [line.split(", ") for line in standings.description.split(": ", 1)[1].split("; ")]
    assert [line[0] for line in lines] == ["1", "2", "3", "4", "5"] and all(len(line) == 5 for line in lines)
    points = [float(line[2]) for line in lines]  # place, name, points, Buchholz, Sonneborn–Berger
    assert points == sorted(points, reverse=True) and sum(points) == 3 * 2 + 3  # 2 games and a bye a round
    ties = [line for line in lines if float(line[2]) == points[1]]
    assert [float(line[3]) for line in ties] == sorted((float(line[3]) for line in ties), reverse=True)


async def test_a_knockout_of_six_gives_the_top_seeds_byes_and_a_quitter_forfeits_to_the_opponent(table):
    erin = table.guild.add_member(table.env.create_user("erin"))
    alice, bob, carol, dave = table.players
    members = [*table.players, erin]
    signup = await sign_up(
        table.channel, alice, members[1:], game="tetris_link", format="knockout", dice=False
    )
    assert "Add a computer" in button_labels(signup)
    refused = await bob.click(signup, label="Add a computer")
    assert "Only the organizer" in told(refused)
    await alice.click(signup, label="Add a computer")
    assert "🤖 Computer (normal)" in body(channel_message(table.channel, signup.id))
    await alice.click(signup, label="Start")

    row, tables = await current_tables(table.env, 1)
    ids = [member.user.id for member in members]
    computer = next(e.user_id for e in row.entrants if e.user_id < 0)
    assert row.byes[1] == (ids[0], ids[1])  # the two top seeds; the computer is seeded last
    assert [t.seats for t in tables] == [(ids[3], ids[4]), (ids[2], computer)]

    left = await dave.slash(table.channel, "tournament leave")
    assert "remaining games are forfeited" in told(left)
    assert any(f"<@{dave.user.id}> left tournament #1" in m.content for m in table.channel.history())
    await lose(table.env, table.channel, members, 1, losers={carol.user.id})  # carol resigns too

    row, tables = await current_tables(table.env, 1)
    assert [t.seats for t in tables] == [(ids[0], ids[4]), (ids[1], computer)] and row.byes[2] == ()
    await lose(table.env, table.channel, members, 1, losers={erin.user.id, bob.user.id})
    await lose(table.env, table.channel, members, 1, losers={alice.user.id})

    final = table.channel.history()[-1]
    assert "🏆 **Tournament #1 (Tetris Link) is over:** 🥇 🤖 Computer (normal), 🥈 <@" in final.content
    podium, standings = final.attachments
    assert (
        "1. Computer (normal) (winner). 2. alice (reached round 3). 3. bob (reached round 2)."
        in podium.description
    )
    alt = standings.description
    assert "1, Computer (normal), winner; 2, alice, 3;" in alt and "dave (withdrawn), 1" in alt


async def test_a_round_robin_of_four_at_tables_of_three_meets_everyone_and_scores_by_place(table):
    await threads_on(table)
    signup = await sign_up(
        table.channel, table.alice, table.players[1:], game="tremember", format="roundrobin", seats=3
    )
    assert "points by place: 3-1-0" in body(signup)
    await table.alice.click(signup, label="Start")
    for _ in range(3):
        row, tables = await current_tables(table.env, 1)
        assert len(tables) == 1 and len(tables[0].seats) == 3 and len(row.byes[row.round]) == 1
        await lose(table.env, table.channel, table.players, 1)

    row = await table.env.bot.storage.tournaments.get(1)
    assert row.status == "finished" and row.round == 3
    assert len(table.channel.threads) == 3  # each match in its own thread
    assert "🧵 **Tremember #1** — a tournament match, in its own thread." in [
        m.content for m in table.channel.history()
    ]
    met = {frozenset(pair) for t in row.tables for pair in combinations(t.seats, 2)}
    assert len(met) == 6  # every two of the four met
    assert "is over" in table.channel.history()[-1].content


async def test_a_late_entrant_joins_a_swiss_tournament_before_round_two_with_zero_points(table):
    erin = table.guild.add_member(table.env.create_user("erin"))
    signup = await sign_up(
        table.channel, table.alice, table.players[1:], game="tetris_link", format="swiss", dice=False
    )
    second = await table.bob.slash(table.channel, "tournament new", game="tetris_link", format="swiss")
    assert "Tournament #1 is open for sign-up in this channel" in told(second)
    foreign = await table.bob.slash(
        table.channel, "tournament new", game="tremember", format="swiss", dice=False
    )
    assert told(foreign) == "`dice` is not an option of Tremember — leave it out."
    wide = await table.bob.slash(
        table.channel, "tournament new", game="tremember", format="knockout", seats=3
    )
    assert "A knockout is played at tables of two" in told(wide)
    mute = discord.PermissionOverwrite(send_messages=False)
    quiet = table.guild.create_text_channel("quiet", overwrites={table.env.bot.user: mute})
    refused = await table.bob.slash(quiet, "tournament new", game="tremember", format="swiss")
    assert "I need the Send Messages permission in this channel to run a tournament" in told(refused)
    await table.alice.click(signup, label="Start")

    late = await erin.click(signup, label="Join")
    assert f"<@{erin.user.id}> joins tournament #1 late: they play from round 2" in late.response.content
    await lose(table.env, table.channel, [*table.players, erin], 1)

    row, tables = await current_tables(table.env, 1)
    assert row.round == 2 and len(row.byes[2]) == 1
    assert erin.user.id in {p for t in tables for p in t.seats} | set(row.byes[2])
    assert next(e for e in row.entrants if e.user_id == erin.user.id).joined == 2
    shown = await erin.slash(table.channel, "tournament standings")
    lines = board_image(shown.response).description.split(": ", 1)[1].split("; ")
    (erin_line,) = [line.split(", ") for line in lines if ", erin, " in line]
    assert erin_line[2] == ("1" if row.byes[2] == (erin.user.id,) else "0")  # nothing for round 1
    frank = table.guild.add_member(table.env.create_user("frank"))
    closed = await frank.click(signup, label="Join")
    assert "Entries are closed: round 2 has started." in told(closed)

    refused = await table.bob.slash(table.channel, "tournament leave", member=table.dave)
    assert "Only the organizer" in told(refused)
    removed = await table.alice.slash(table.channel, "tournament leave", member=table.dave)
    assert f"<@{table.dave.user.id}> is out of tournament #1" in told(removed)
    row = await table.env.bot.storage.tournaments.get(1)
    assert next(e for e in row.entrants if e.user_id == table.dave.user.id).left == 2
    (mine,) = [t for t in row.tables if t.round == 2 and table.dave.user.id in t.seats]
    assert mine.ranks == tuple(2 if p == table.dave.user.id else 1 for p in mine.seats)  # his match resigned
    assert any("was removed from tournament #1" in m.content for m in table.channel.history())

    other = (
        await table.bob.slash(table.channel, "tournament new", game="tremember", format="roundrobin")
    ).response
    refused = await table.carol.click(other, label="Cancel")
    assert "Only the organizer" in told(refused)
    await table.bob.click(other, label="Cancel")
    assert body(channel_message(table.channel, other.message.id)) == "This tournament was cancelled."
    assert button_labels(channel_message(table.channel, other.message.id)) == []


async def test_a_deleted_match_thread_is_a_draw_and_a_deleted_tournament_channel_cancels_it(table):
    await threads_on(table)
    signup = await sign_up(table.channel, table.alice, table.players[1:], game="tetris_link", format="swiss")
    await table.alice.click(signup, label="Start")
    _, tables = await current_tables(table.env, 1)
    first = await table.env.bot.storage.matches.get(tables[0].match_id)

    table.env.backend.delete_channel(first.channel_id)  # the first match's thread
    await table.env.settle()

    _, tables = await current_tables(table.env, 1)
    assert tables[0].ranks == (1, 1)  # a draw: nobody at the table is to blame
    assert (
        f"Tetris Link #{first.id} was played in a channel that was deleted: its table counts as a draw "
        in (table.channel.history()[-1].content)
    )
    await lose(table.env, table.channel, table.players, 1)  # the other table ends as usual
    row, _ = await current_tables(table.env, 1)
    assert (row.status, row.round) == ("running", 2)  # the tournament went on

    table.env.backend.delete_channel(table.channel.id)  # the tournament's own channel, threads and all
    await table.env.settle()
    assert (await table.env.bot.storage.tournaments.get(1)).status == "cancelled"


async def test_a_full_sign_up_of_sixty_four_fits_in_its_card_and_the_next_member_is_told_privately(table):
    opened = await table.alice.slash(table.channel, "tournament new", game="rookie", format="knockout")
    signup = opened.response.message
    for n in range(63):
        member = table.guild.add_member(table.env.create_user(f"player{n:02d}-with-a-rather-long-name"))
        joined = await member.click(signup, label="Join")
        assert joined.acknowledged and not told(joined), told(joined)

    late = table.guild.add_member(table.env.create_user("late"))
    refused = await late.click(signup, label="Join")
    assert refused.ephemeral and told(refused) == "This tournament is full (64 players) or closed."
    shown = channel_message(table.channel, signup.id)
    assert "**Players (64/64):**" in body(shown) and body(shown).count("<@") == 64
    components, characters = card_size(shown)
    assert components <= 40 and characters <= 4000
