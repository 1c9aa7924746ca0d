"""Matches set aside for a place the bot lost (a permission, its server): stopped, listed to
their players, and put back in play once, on both databases."""

from __future__ import annotations

from data.model import SetAside
from tests.data.tracing import running_match

DEADLINE = "2026-01-01T00:00:00+00:00"
REMOVED = "I was removed from its server"


async def test_a_server_that_removed_the_bot_sets_aside_its_running_matches_and_no_other(storage):
    first = await running_match(storage, (11, 22), deadline=DEADLINE)
    second = await running_match(storage, (33, 11))
    elsewhere = await running_match(storage, (11, 22), guild_id=9)
    lobby = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={}
    )

    told = await storage.matches.set_aside_guild(1, REMOVED)

    assert told == [
        SetAside(first, "rookie", 1, 2, None, (11, 22), REMOVED),
        SetAside(second, "rookie", 1, 2, None, (33, 11), REMOVED),
    ]
    row = await storage.matches.get(first)
    assert (row.status, row.resumable, row.deadline) == ("set_aside", True, None)  # its clock stopped
    assert (await storage.matches.get(elsewhere)).status == "running"
    assert (await storage.matches.get(lobby.id)).status == "lobby"
    assert [row.id for row in await storage.matches.active_for(11, 1)] == [lobby.id, second, first]
    assert await storage.matches.set_aside_guild(1, REMOVED) == []  # told once


async def test_a_paused_match_comes_back_once_with_a_fresh_deadline(storage):
    paused = await running_match(storage, (11, 22), deadline=DEADLINE)
    await storage.matches.set_aside(paused, "I lack a permission I need in its channel", resumable=True)
    ended = await running_match(storage, (11, 22))
    await storage.matches.set_aside(ended, "its channel was deleted")

    before = (await storage.matches.get(paused)).moved_at

    assert await storage.matches.resume_set_aside(paused, "2026-02-01T00:00:00+00:00")

    row = await storage.matches.get(paused)
    assert (row.status, row.resumable, row.deadline) == ("running", False, "2026-02-01T00:00:00+00:00")
    assert row.moved_at > before  # the pause is nobody's silence: a claim waits from now
    assert not await storage.matches.resume_set_aside(paused, None)  # back already
    assert not await storage.matches.resume_set_aside(ended, None)  # its channel is gone for good
    assert [row.id for row in await storage.matches.active_for(11, 1)] == [paused]
