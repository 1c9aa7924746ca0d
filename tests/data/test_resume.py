"""Resuming running matches from the database, clocks included."""

from __future__ import annotations

from datetime import datetime, timedelta

import discord

from bot import create_bot
from matches import MatchService
from matches.match import ALIVE
from tests.registry import ENGINES


async def test_resuming_loads_every_running_match_and_adds_the_outage_to_its_clock(storage, database):
    engine = ENGINES["tetris_link"]
    row = await storage.matches.open_lobby(
        game="tetris_link", guild_id=1, channel_id=2, host_id=10, seed=5, options={}, clock_s=120
    )
    await storage.matches.join_lobby(row.id, 20, 4)
    deadline = discord.utils.utcnow() + timedelta(seconds=90)
    await storage.matches.start(row.id, engine.dump(engine.new_game(2, 5)), deadline.isoformat())
    # The bot was last seen up an hour ago: it was down since, and that hour is not the players'.
    await storage.settings.set_meta(ALIVE, (discord.utils.utcnow() - timedelta(hours=1)).isoformat())

    bot = create_bot(database=database)
    bot.storage, bot.matches = storage, MatchService(bot, storage, bot.games)
    service = bot.matches
    assert await service.resume() == 1

    match = service.running[row.id]
    shifted = datetime.fromisoformat(match.row.deadline) - deadline
    assert timedelta(minutes=59) < shifted < timedelta(minutes=61)
    assert match.view(None)["cells"] == engine.view(engine.new_game(2, 5), None)["cells"]
    stored = await storage.matches.get(row.id)
    assert stored.deadline == match.row.deadline


async def test_an_outage_counts_against_nobody_waiting_to_claim_a_match_without_a_clock(storage, database):
    engine = ENGINES["tetris_link"]
    row = await storage.matches.open_lobby(
        game="tetris_link", guild_id=1, channel_id=2, host_id=10, seed=5, options={}
    )
    await storage.matches.join_lobby(row.id, 20, 4)
    await storage.matches.start(row.id, engine.dump(engine.new_game(2, 5)))
    moved = (await storage.matches.get(row.id)).moved_at
    await storage.settings.set_meta(ALIVE, (discord.utils.utcnow() - timedelta(hours=1)).isoformat())

    bot = create_bot(database=database)
    bot.storage, bot.matches = storage, MatchService(bot, storage, bot.games)
    assert await bot.matches.resume() == 1

    match = bot.matches.running[row.id]
    shifted = datetime.fromisoformat(match.row.moved_at) - datetime.fromisoformat(moved)
    assert timedelta(minutes=59) < shifted < timedelta(minutes=61)  # the three days to a claim wait longer
    assert match.row.deadline is None and (await storage.matches.get(row.id)).moved_at == match.row.moved_at
