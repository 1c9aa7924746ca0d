"""What storage keeps so no member can wear others down: the open lobbies a host may hold, one
rematch per match, one ping per turn, and closed DMs, on both databases and across processes."""

from __future__ import annotations

import asyncio

import pytest

from data import open_storage
from data.model import RematchTaken, TooManyLobbies
from data.repositories import Database


async def lobby(storage: Database, host: int = 1, guild: int = 1, **extra):
    return await storage.matches.open_lobby(
        game="rookie", guild_id=guild, channel_id=2, host_id=host, seed=3, options={}, **extra
    )


async def test_a_host_holds_at_most_the_limit_of_open_lobbies_on_one_server(storage):
    held = [await lobby(storage, max_hosted=3) for _ in range(3)]
    await lobby(storage, host=2, max_hosted=3)  # another member's lobby takes none of hers
    joined = await lobby(storage, host=3)
    assert await storage.matches.join_lobby(joined.id, 1, 4)  # a seat she only joined neither

    with pytest.raises(TooManyLobbies) as refused:
        await lobby(storage, max_hosted=3)

    assert [row.id for row in refused.value.lobbies] == [row.id for row in held]
    assert await lobby(storage, guild=9, max_hosted=3)  # another server counts apart
    await storage.matches.cancel_lobby(held[0].id)
    assert await lobby(storage, max_hosted=3)  # a cancelled lobby frees its place
    started = held[1]
    assert await storage.matches.start(started.id, "{}")
    assert await lobby(storage, max_hosted=3)  # and so does a started one


async def test_lobbies_opened_at_once_from_two_processes_never_pass_the_limit(storage, target):
    other = await open_storage(target)  # another connection, as a second bot process would have
    try:
        opened = await asyncio.gather(
            *(lobby((storage, other)[n % 2], max_hosted=3) for n in range(8)), return_exceptions=True
        )
    finally:
        await other.close()
    assert sum(not isinstance(result, Exception) for result in opened) == 3
    assert all(isinstance(result, TooManyLobbies) for result in opened if isinstance(result, Exception))


async def test_a_match_has_one_rematch_whoever_asks_and_however_often(storage, target):
    finished, another = (await lobby(storage, host=10)).id, (await lobby(storage, host=10)).id
    other = await open_storage(target)
    try:
        asked = await asyncio.gather(
            *(lobby((storage, other)[n % 2], host=10 + n % 2, rematch_of=finished) for n in range(6)),
            return_exceptions=True,
        )
    finally:
        await other.close()
    (first,) = [result for result in asked if not isinstance(result, Exception)]
    for refused in asked:
        if isinstance(refused, Exception):
            assert isinstance(refused, RematchTaken) and [row.id for row in refused.lobbies] == [first.id]
    await storage.matches.cancel_lobby(first.id)
    assert (await storage.matches.rematch_of(finished)).id == first.id  # cancelled, still the one
    with pytest.raises(RematchTaken):
        await lobby(storage, rematch_of=finished)
    assert await storage.matches.rematch_of(another) is None
    assert (await lobby(storage, rematch_of=another)).id == (await storage.matches.rematch_of(another)).id


async def test_the_players_due_at_a_turn_are_pinged_once_whichever_process_asks(storage, target):
    match = await lobby(storage)
    other = await open_storage(target)
    try:
        claims = await asyncio.gather(
            *((storage, other)[n % 2].matches.claim_ping(match.id, turn=0) for n in range(6))
        )
        assert sum(claims) == 1
        assert await other.matches.claim_ping(match.id, turn=2)
        assert not await storage.matches.claim_ping(match.id, turn=1)  # an older turn comes late
        assert not await storage.matches.claim_ping(match.id, turn=2)
    finally:
        await other.close()


async def test_closed_dms_are_kept_until_the_member_uses_the_bot_again(target):
    first = await open_storage(target)
    await first.settings.set_member_locale(7, "de")
    await first.settings.set_dms_closed(7, True)
    await first.settings.set_dms_closed(8, True)  # a member the bot never saw
    await first.close()

    reopened = await open_storage(target)
    try:
        assert await reopened.settings.dms_closed(7) and await reopened.settings.dms_closed(8)
        assert await reopened.settings.member_locale(7) == "de"  # the language stays
        assert await reopened.settings.member_locale(8) is None
        assert not await reopened.settings.dms_closed(9)
        await reopened.settings.set_dms_closed(7, False)
        await reopened.settings.set_member_locale(8, "fr")
        assert not await reopened.settings.dms_closed(7)
        assert await reopened.settings.dms_closed(8)  # only using the bot opens them again
        assert await reopened.settings.member_locale(8) == "fr"
    finally:
        await reopened.close()
