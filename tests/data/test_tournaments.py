"""Tournaments as stored, on both backends: one open sign-up per channel, entrants counted and
never twice, each round and each table's result written once, a match traced to its table."""

from __future__ import annotations

from data.model import TournamentRow
from data.repositories import Database
from tests.data.tracing import ffa_result, running_match


async def sign_up(storage: Database, channel_id: int = 2, guild_id: int = 1) -> TournamentRow | int:
    return await storage.tournaments.open(
        guild_id=guild_id,
        channel_id=channel_id,
        organizer_id=11,
        game="rookie",
        format="swiss",
        seats=2,
        rounds=3,
        clock_s=600,
        options={"deck": "pocket"},
        language="de",
    )


async def test_a_channel_holds_one_open_sign_up_and_entrants_join_once_up_to_the_limit(storage):
    opened = await sign_up(storage)
    assert isinstance(opened, TournamentRow) and (opened.status, opened.options) == (
        "signup",
        {"deck": "pocket"},
    )
    assert await sign_up(storage) == opened.id  # the channel's open sign-up instead
    assert isinstance(await sign_up(storage, channel_id=3), TournamentRow)

    tournaments = storage.tournaments
    assert await tournaments.join(opened.id, 11, rating=1000, joined=1, max_entrants=2, name="Alice")
    assert not await tournaments.join(opened.id, 11, rating=1000, joined=1, max_entrants=2)
    assert await tournaments.join(opened.id, -11, rating=999, joined=1, max_entrants=2)
    assert not await tournaments.join(opened.id, 33, rating=1000, joined=1, max_entrants=2)  # full
    assert await tournaments.withdraw(opened.id, -11, left=None)
    assert await tournaments.join(opened.id, 22, rating=1000, joined=1, max_entrants=2, name="Bob")

    assert await tournaments.start(opened.id, {11: 1200.0, 22: 1100.0}, rounds=3)
    assert not await tournaments.start(opened.id, {}, rounds=3)  # once
    row = await tournaments.get(opened.id)
    assert [(e.user_id, e.rating, e.name) for e in row.entrants] == [
        (11, 1200.0, "Alice"),
        (22, 1100.0, "Bob"),
    ]
    assert await tournaments.latest(1, 22) == opened.id
    assert await tournaments.running() == [opened.id]


async def test_each_round_and_each_result_is_written_once_and_a_match_leads_to_its_table(storage):
    opened = await sign_up(storage)
    assert isinstance(opened, TournamentRow)
    tournaments = storage.tournaments
    for user in (11, 22, 33):
        await tournaments.join(opened.id, user, rating=1000, joined=1, max_entrants=64)
    await tournaments.start(opened.id, {}, rounds=2)

    assert await tournaments.add_round(opened.id, 1, [((11, 22), None)], (33,))
    assert not await tournaments.add_round(opened.id, 1, [((11, 33), None)], (22,))  # taken
    assert not await tournaments.add_round(opened.id, 3, [], ())  # not next
    match_id = await running_match(storage, (11, 22))
    await tournaments.set_match(opened.id, 1, 0, match_id)
    assert await tournaments.table_of(match_id) == (opened.id, 1, 0)
    assert await tournaments.outcome(match_id) is None  # still running

    await storage.matches.record_move(
        match_id, turn=0, seat=0, user_id=11, move={}, state="end", result=ffa_result((11, 22))
    )
    outcome = await tournaments.outcome(match_id)
    assert [(seat.user_id, seat.winner) for seat in outcome] == [(11, True), (22, False)]
    assert await tournaments.record(opened.id, 1, 0, (1, 2))
    assert not await tournaments.record(opened.id, 1, 0, (2, 1))  # once
    row = await tournaments.get(opened.id)
    assert (row.round, row.byes, [(t.seats, t.ranks, t.match_id) for t in row.tables]) == (
        1,
        {1: (33,)},
        [((11, 22), (1, 2), match_id)],
    )
    assert await tournaments.withdraw(opened.id, 22, left=2)
    assert not await tournaments.withdraw(opened.id, 22, left=2)
    assert await tournaments.close(opened.id, "finished", was="running")
    assert await tournaments.running() == [] and await tournaments.latest(1, 11) is None
