"""Taking a move back by consent, as stored: one request per move, the last Accept returns the
match to its turn and keeps the move taken back beside the log; on both backends."""

from __future__ import annotations

from data.model import ACCEPTED, ASKED, DECLINED, LAPSED
from data.repositories import Database
from tests.data.tracing import running_match

DEADLINE = "2026-01-02T12:00:00+00:00"


async def two_moves(storage: Database) -> int:
    """A running match of 11 and 22 where 11 moved, then 22 moved."""
    match_id = await running_match(storage, (11, 22))
    assert await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 1}, state="s1")
    assert await storage.matches.record_move(match_id, turn=1, seat=1, user_id=22, move={"n": 2}, state="s2")
    return match_id


async def test_the_last_accept_takes_the_move_out_of_the_log_and_keeps_it_aside(storage):
    match_id = await two_moves(storage)

    asked = await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11])
    assert asked is not None and (asked.status, asked.seat, asked.move, asked.waiting_for) == (
        ASKED,
        1,
        {"n": 2},
        (11,),
    )
    await storage.takebacks.set_message(asked.id, 10**18 + 1)
    assert [t.id for t in await storage.takebacks.pending()] == [asked.id]
    assert await storage.takebacks.accept(asked.id, 33) is None  # not asked
    accepted = await storage.takebacks.accept(asked.id, 11)
    assert accepted is not None and accepted.waiting_for == () and accepted.message_id == 10**18 + 1

    assert await storage.takebacks.take_back(asked.id, user_id=11, state="s1", deadline=DEADLINE)

    row = await storage.matches.get(match_id)
    assert (row.turn, row.state, row.deadline) == (1, "s1", DEADLINE)
    assert await storage.matches.move_log(match_id) == [(0, 0, {"n": 1})]
    done = await storage.takebacks.get(asked.id)
    assert (done.status, done.move, done.answered_by) == (ACCEPTED, {"n": 2}, 11)
    assert await storage.takebacks.pending() == []
    assert (await storage.takebacks.count(1, 22), await storage.takebacks.count(2, 22)) == (1, 0)
    # The move played instead is logged at the same turn, and may be asked back in its turn.
    assert await storage.matches.record_move(match_id, turn=1, seat=1, user_id=22, move={"n": 3}, state="s3")
    assert await storage.matches.move_log(match_id) == [(0, 0, {"n": 1}), (1, 1, {"n": 3})]
    assert await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11]) is not None


async def test_only_the_last_move_of_its_own_player_is_asked_back_once(storage):
    match_id = await two_moves(storage)

    assert await storage.takebacks.ask(match_id, turn=0, user_id=11, asked=[22]) is None  # not the last
    assert await storage.takebacks.ask(match_id, turn=1, user_id=11, asked=[22]) is None  # not theirs
    asked = await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11])
    assert asked is not None
    assert await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11]) is None  # asked already

    assert await storage.takebacks.close(asked.id, DECLINED, 11)
    assert not await storage.takebacks.close(asked.id, LAPSED, None)
    assert await storage.takebacks.accept(asked.id, 11) is None
    assert not await storage.takebacks.take_back(asked.id, user_id=11, state="s1", deadline=None)
    assert await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11]) is None  # declined once
    assert (await storage.takebacks.get(asked.id)).status == DECLINED
    assert (await storage.matches.get(match_id)).turn == 2


async def test_the_next_move_leaves_a_request_unable_to_take_anything_back(storage):
    match_id = await two_moves(storage)
    asked = await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11])

    assert await storage.matches.record_move(match_id, turn=2, seat=0, user_id=11, move={"n": 4}, state="s4")

    assert await storage.takebacks.accept(asked.id, 11) is None
    assert not await storage.takebacks.take_back(asked.id, user_id=11, state="s1", deadline=None)
    assert await storage.takebacks.pending() == [await storage.takebacks.get(asked.id)]  # until lapsed
    assert await storage.takebacks.close(asked.id, LAPSED, None)
    assert await storage.takebacks.pending() == []
    row = await storage.matches.get(match_id)
    assert (row.turn, row.state) == (3, "s4")
    assert len(await storage.matches.move_log(match_id)) == 3
    assert await storage.takebacks.count(1, 22) == 0


async def test_a_resignation_or_a_move_of_the_clock_is_never_asked_back(storage):
    match_id = await running_match(storage, (11, 22))
    assert await storage.matches.record_move(match_id, turn=0, seat=0, user_id=None, move={"n": 1}, state="s")
    assert await storage.takebacks.ask(match_id, turn=0, user_id=11, asked=[22]) is None
    resign = {"type": "resign"}
    assert await storage.matches.record_move(match_id, turn=1, seat=1, user_id=22, move=resign, state="r")
    assert await storage.takebacks.ask(match_id, turn=1, user_id=22, asked=[11]) is None
