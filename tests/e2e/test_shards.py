"""A process that runs some shards runs the matches of its shards' guilds only: it resumes
them, keeps their clocks and leaves the other guilds' matches to their own process."""

from __future__ import annotations

import pytest

from bot import Settings, create_bot
from data.model import Shards
from tests.e2e.helpers import (
    body,
    channel_message,
    footer_move,
    open_and_start,
)

CLOCK_S = 120


def sharded(target, *ids: int):
    return create_bot(database=target, settings=Settings(shards=Shards(2, ids)))


@pytest.fixture
def simcord_bot(target):
    return sharded(target, 0, 1)


async def start_in_new_server(env, shard: int):
    """A server on `shard` with a running two-player Tetris Link match on a 2-minute clock."""
    guild = env.create_guild(f"Shard {shard}", shard_id=shard)
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    board = await open_and_start(channel, alice, [bob], "tetrislink new", dice=False, clock=CLOCK_S)
    return channel, board.id


def timed_out(channel, board_id: int) -> bool:
    board = channel_message(channel, board_id)
    return "ran out of time" in body(board) and footer_move(board) >= 1


async def test_each_shard_process_keeps_the_clocks_of_its_own_servers_only(simcord_env, target):
    env = simcord_env
    zero = await start_in_new_server(env, 0)
    one = await start_in_new_server(env, 1)

    await env.restart_bot(sharded(target, 0))  # this process now runs shard 0 alone
    assert sorted(match.row.guild_id >> 22 & 1 for match in env.bot.matches.running.values()) == [0]
    await env.advance_time(CLOCK_S + 20)
    assert timed_out(*zero)
    assert footer_move(channel_message(*one)) == 0  # shard 1's clock is not this process's

    await env.restart_bot(sharded(target, 1))  # and now shard 1 alone
    await env.advance_time(20)
    assert timed_out(*one)
    moves_zero = footer_move(channel_message(*zero))
    await env.advance_time(CLOCK_S + 20)  # past the next deadline of shard 0's match
    assert footer_move(channel_message(*zero)) == moves_zero


async def test_a_match_of_another_shard_is_read_from_the_database_and_left_to_its_process(
    simcord_env, target
):
    env = simcord_env
    await start_in_new_server(env, 1)
    await env.restart_bot(sharded(target, 0))
    service = env.bot.matches
    assert service.running == {}
    (match_id,) = [row.id for row in await service.storage.matches.running()]
    match = await service.match(match_id)  # e.g. a press that reached this process
    assert match is not None and match.turn == 0 and match.players
    assert service.running == {}  # its clock and board stay with shard 1's process
