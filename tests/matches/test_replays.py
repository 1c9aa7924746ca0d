"""The replay workshop (matches/replays.py): one production per replay however many ask at
once, a bounded queue, a bounded memory, and a per-member rate that a kept replay does not use."""

from __future__ import annotations

import asyncio
import random

import pytest

from matches.replays import Busy, RateLimit, RateLimited, ReplayJob, Workshop, make_replay
from tests.registry import ENGINES, HOSTED


def job(match_id: int, moves: int = 6, lang: str = "en") -> ReplayJob:
    """A finished-looking Tremember match of `moves` random moves, as the worker gets it."""
    engine = ENGINES["tremember"]
    state, rng, log = engine.new_game(2, match_id), random.Random(match_id), []
    for turn in range(moves):
        seat = engine.current_seats(state)[0]
        move = rng.choice(engine.legal_moves(state, seat))
        state = engine.apply(state, seat, move)
        log.append((turn, seat, move))
    return ReplayJob(HOSTED["tremember"], match_id, 2, match_id, {}, log, lang)


async def test_concurrent_requests_for_one_replay_share_one_production():
    workshop = Workshop()
    made = await asyncio.gather(*(workshop.get((1, "en"), job(1), member) for member in (10, 20, 30)))
    assert workshop.produced == 1
    assert made[0].data == made[1].data == made[2].data
    assert all(workshop.limit.wait(member) == 0 for member in (10, 20, 30))
    assert (await workshop.get((1, "en"), job(1), 40)).data == made[0].data and workshop.produced == 1
    workshop.close()


async def test_a_full_queue_refuses_a_new_production_but_not_one_under_way():
    workshop = Workshop(max_waiting=1)
    first = asyncio.create_task(workshop.get((1, "en"), job(1), 10))
    await asyncio.sleep(0)  # the first production is under way
    with pytest.raises(Busy):
        await workshop.get((2, "en"), job(2), 20)
    joined = await workshop.get((1, "en"), job(1), 20)
    assert joined.data == (await first).data and workshop.produced == 1
    await workshop.get((2, "en"), job(2), 20)  # the queue has room again
    assert workshop.produced == 2
    workshop.close()


async def test_a_member_may_start_three_productions_a_minute_and_see_kept_ones_freely():
    now = [0.0]
    workshop = Workshop(limit=RateLimit(3, 60.0, clock=lambda: now[0]))
    for match_id in (1, 2, 3):
        await workshop.get((match_id, "en"), job(match_id), 10)
    now[0] = 45.0
    with pytest.raises(RateLimited) as refused:
        await workshop.get((4, "en"), job(4), 10)
    assert refused.value.wait == pytest.approx(15.0)
    await workshop.get((1, "en"), job(1), 10)  # kept: free
    await workshop.get((4, "en"), job(4), 20)  # another member
    now[0] = 60.0
    await workshop.get((5, "en"), job(5), 10)
    assert workshop.produced == 5
    workshop.close()


async def test_the_least_recently_shown_replay_is_dropped_beyond_the_memory_bound():
    workshop = Workshop()
    await workshop.get((1, "en"), job(1), 10)
    await workshop.get((2, "en"), job(2), 10)
    workshop.capacity = len(make_replay(job(1)).data) + len(make_replay(job(3)).data)
    await workshop.get((1, "en"), job(1), 10)  # shown again: now the most recent
    await workshop.get((3, "en"), job(3), 20)
    assert set(workshop.kept) == {(1, "en"), (3, "en")}
    workshop.close()
