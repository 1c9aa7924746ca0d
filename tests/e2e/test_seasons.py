"""Seasons through the real bot: a season ends at the month's boundary (its tables archived, its
podium announced where it was played, every rating restarted softly), once, even when the
boundary passed while the bot was stopped; a server with seasons off is left alone."""

from __future__ import annotations

import io

import discord
from PIL import Image

from bot import Settings, create_bot
from data.model import Shards
from matches.seasons import season_placings
from tests.data.tracing import finish, running_match
from tests.e2e.helpers import board_image, body, field, fields, footer, title, told
from tests.e2e.test_league import rated_win

JANUARY_S = 31 * 24 * 3600  # SimCord's clock starts on 1 January 2026, 00:00 UTC


async def manager(table):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("admin"), roles=[admins])


async def stop_until(table, target, seconds: float) -> None:
    """Let virtual time run `seconds` with the bot's beats stopped (as if it were down), then
    start it again on the same database."""
    table.env.bot.matches.beats.stop()
    await table.env.advance_time(seconds)
    await table.env.restart_bot(create_bot(database=target))


async def alice_listed(table) -> None:
    """Alice wins five rated matches against Bob, Carol and Dave, played in a channel that no
    longer exists (stored directly: the table needs five to list her)."""
    storage = table.env.bot.storage
    for other in (table.bob, table.carol, table.dave, table.bob, table.carol):
        players = (table.alice.user.id, other.user.id)
        assert await finish(storage, await running_match(storage, players, guild_id=table.guild.id), players)


def announcements(channel) -> list:
    return [m for m in channel.history() if "is over" in m.content]


def alice_line(message, alice) -> str:
    return next(line for line in body(message).splitlines() if f"<@{alice.user.id}>" in line)


def rating_in(line: str) -> int:
    return int(line.split("**")[1].replace(",", ""))


async def test_a_season_ends_at_the_month_boundary_archived_announced_and_softly_reset(table, target):
    admin = await manager(table)
    turned_on = await admin.slash(table.channel, "settings seasons", seasons="monthly")
    assert "Seasons are monthly: the season January 2026 ends" in told(turned_on)
    shown = await admin.slash(table.channel, "settings show")
    assert "the season January 2026 ends" in told(shown)
    await alice_listed(table)
    await rated_win(table.channel, table.alice, table.bob)  # the one match in a channel still there
    before = (await table.carol.slash(table.channel, "leaderboard")).response
    rating = rating_in(alice_line(before, table.alice))
    none_yet = await table.carol.autocomplete(table.channel, "leaderboard", "season", "")
    assert none_yet == []

    await stop_until(table, target, JANUARY_S - 60)  # the last minute of January
    assert announcements(table.channel) == []
    await table.env.advance_time(120)  # the turn clock's beat passes 1 February

    [announced] = announcements(table.channel)
    assert "Season January 2026** is over" in announced.content
    assert f"🥇 <@{table.alice.user.id}> — {rating:,} · 6 wins" in announced.content
    assert f"🏅 <@{table.alice.user.id}> earned 🎖️ **On the podium**" in announced.content.splitlines()
    podium = board_image(announced)
    assert podium.filename == "podium.png"
    assert podium.description.startswith("Season January 2026 — all games. 1. alice (")
    assert Image.open(io.BytesIO(await podium.read())).width >= 550

    after = (await table.carol.slash(table.channel, "leaderboard")).response
    assert rating_in(alice_line(after, table.alice)) < rating  # restarted softly: lower, not 1000
    assert rating_in(alice_line(after, table.alice)) > 1000
    [choice] = await table.carol.autocomplete(table.channel, "leaderboard", "season", "jan")
    assert choice["name"] == "January 2026"
    past = (await table.carol.slash(table.channel, "leaderboard", season=choice["value"])).response
    assert title(past) == "Leaderboard — Season January 2026 — all games"
    assert alice_line(past, table.alice).startswith("`  1.`")
    assert f"**{rating}** · 6 wins / 6 games" in alice_line(past, table.alice)
    assert "final table" in footer(past)
    placings = await season_placings(table.env.bot.storage, table.guild.id, table.alice.user.id)
    assert [(p.kind, p.ended.month, p.rank) for p in placings] == [("season", 2, 1)]
    bob_past = (
        await table.carol.slash(table.channel, "leaderboard", game="tetris_link", season=choice["value"])
    ).response
    assert "0 wins / 1 game" in body(bob_past)  # only the Tetris Link match, Bob's one loss
    wrong = await table.carol.slash(table.channel, "leaderboard", season="999")
    assert "not a past season of this server" in told(wrong)

    stats = (await table.alice.slash(table.channel, "stats")).response
    overall = field(stats, "all games")
    assert "February 2026: 0 wins / 0 games · all time: 6 wins / 6 games" in overall
    await rated_win(table.channel, table.alice, table.bob)
    stats = (await table.alice.slash(table.channel, "stats")).response
    assert "February 2026: 1 win / 1 game · all time: 7 wins / 7 games" in field(stats, "all games")
    assert any("February 2026: 1 win / 1 game" in f.value for f in fields(stats) if f.name == "Tetris Link")


async def test_a_boundary_passed_while_stopped_is_handled_once_by_its_shard_and_seasons_off_change_nothing(
    table, target
):
    admin = await manager(table)
    await admin.slash(table.channel, "settings seasons", seasons="quarterly")
    elsewhere = table.env.create_guild("Seasons off")
    quiet = elsewhere.create_text_channel("games")
    ann, ben = (elsewhere.add_member(table.env.create_user(name)) for name in ("ann", "ben"))
    await rated_win(table.channel, table.alice, table.bob)
    await rated_win(quiet, ann, ben)
    quiet_stats = field((await ann.slash(quiet, "stats")).response, "Tetris Link")

    await stop_until(table, target, JANUARY_S + 60)  # February: a quarter is not over yet
    assert announcements(table.channel) == []
    table.env.bot.matches.beats.stop()
    await table.env.advance_time(59 * 24 * 3600)  # stopped across 1 April
    other_shard = Settings(shards=Shards(2, (1 - (table.guild.id >> 22) % 2,)))
    await table.env.restart_bot(create_bot(database=target, settings=other_shard))
    await table.env.advance_time(30)
    assert announcements(table.channel) == []  # the server is not this process's
    await table.env.restart_bot(create_bot(database=target))
    await table.env.advance_time(30)  # the first beats after start-up

    [announced] = announcements(table.channel)
    assert "Season Q1 2026** is over" in announced.content
    await table.env.restart_bot(create_bot(database=target))
    await table.env.advance_time(30)
    assert len(announcements(table.channel)) == 1  # handled once
    assert announcements(quiet) == []
    assert field((await ann.slash(quiet, "stats")).response, "Tetris Link") == quiet_stats
    off = await admin.slash(table.channel, "settings seasons", seasons="off")
    assert "Seasons are now off" in told(off)
    assert "Seasons are off" in told(await admin.slash(table.channel, "settings show"))
