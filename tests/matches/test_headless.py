"""The match framework runs a match without Discord: no bot, no SimCord, only a client that
never connects, a real database and the games' specs. Computer seats play a whole match
through the framework's own beats (`MatchService.beats`), called with the time."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord
import pytest

from data import open_storage
from games.replay import replay_states
from matches import MatchService
from matches.match import computer_id
from tests.registry import GAMES

LATER = timedelta(minutes=1)  # past any computer's pause: its move is due


@pytest.fixture
async def service(target):
    storage = await open_storage(target)
    service = MatchService(discord.Client(intents=discord.Intents.default()), storage, GAMES)
    yield service
    await service.close()
    await storage.close()


async def seat_computers(service: MatchService, game: str, levels: tuple[str, ...], seed: int) -> int:
    """A running match of computer seats at `levels`, stored as the lobby stores one; its id."""
    spec, players = GAMES[game], []
    for level in levels:
        players.append(computer_id(players, level))
    row = await service.storage.matches.open_lobby(
        game=game, guild_id=1, channel_id=2, host_id=players[0], seed=seed, options={}
    )
    for player in players[1:]:
        await service.storage.matches.join_lobby(row.id, player, len(levels))
    state = spec.engine.new_game(len(levels), seed, spec.options({}, len(levels)))
    await service.storage.matches.start(row.id, spec.engine.dump(state))
    return row.id


async def play_out(service: MatchService, match_id: int, beats: int = 500) -> None:
    """Beat the framework's clock until the match ends: each beat lets the computers decide,
    then plays what is due a minute later."""
    match = service.running[match_id]
    for _ in range(beats):
        if match.row.status != "running":
            return
        await asyncio.gather(*service.computers.thinking.values())
        now = discord.utils.utcnow() + LATER
        await service.beats.computers_beat(now)
        await service.beats.tick(now)
    raise AssertionError(f"match {match_id} did not end within {beats} beats")


@pytest.mark.parametrize("game", ["nim", "tetris_link"])
async def test_computer_seats_play_a_whole_match_headless_through_the_framework(service, game):
    match_id = await seat_computers(service, game, ("hard", "easy"), seed=4)
    assert await service.resume() == 1

    await play_out(service, match_id)

    row = await service.storage.matches.get(match_id)
    assert row is not None and row.status == "finished" and match_id not in service.running
    moves = await service.storage.matches.move_log(match_id)
    engine = GAMES[game].engine
    states = replay_states(engine, 2, row.seed, {}, moves)  # every logged move was legal
    assert engine.view(states[-1], None) == engine.view(engine.load(row.state or ""), None)
    assert engine.outcome(states[-1]) is not None
    assert len(moves) == row.turn > 0
