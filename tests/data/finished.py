"""Finished matches stored through the real storage, as the bot stores them: a seeded random
playout of a real engine, every move committed, the result with the last one."""

from __future__ import annotations

import random
from typing import Any

from data.model import MatchResult, SeatResult
from data.repositories import Database
from matches.achievements import match_feats
from matches.spec import AnyGameSpec


def playout(
    spec: AnyGameSpec, players: int, seed: int
) -> tuple[list[Any], list[tuple[int, int, dict[str, Any]]]]:
    """The states and move log of one seeded random match to its end."""
    engine = spec.engine
    state = engine.new_game(players, seed, spec.options({}, players))
    states, log = [state], []
    chooser = random.Random(seed)
    while seats := engine.current_seats(state):
        move = chooser.choice(engine.legal_moves(state, seats[0]))
        state = engine.apply(state, seats[0], move)
        states.append(state)
        log.append((len(log), seats[0], move))
    return states, log


def featured_seed(spec: AnyGameSpec, players: int = 2) -> int:
    """The first seed whose random playout has one winner and earns a feat."""
    for seed in range(200):
        states, log = playout(spec, players, seed)
        outcome = spec.engine.outcome(states[-1])
        if outcome is not None and len(outcome.winners) == 1 and match_feats(spec, players, seed, {}, log):
            return seed
    raise AssertionError(f"no seed of {spec.name} earns a feat")


async def store_played(
    storage: Database, spec: AnyGameSpec, *, guild_id: int, users: tuple[int, ...], seed: int | None = None
) -> tuple[int, dict[int, frozenset[str]]]:
    """Store a finished match of `users` (a random playout, `seed` or the first that earns a feat):
    its id and the feats each user's seat achieved."""
    seed = featured_seed(spec, len(users)) if seed is None else seed
    states, log = playout(spec, len(users), seed)
    row = await storage.matches.open_lobby(
        game=spec.name, guild_id=guild_id, channel_id=guild_id + 1, host_id=users[0], seed=seed, options={}
    )
    for user in users[1:]:
        assert await storage.matches.join_lobby(row.id, user, len(users))
    assert await storage.matches.start(row.id, spec.engine.dump(states[0]))
    outcome = spec.engine.outcome(states[-1])
    assert outcome is not None
    result = MatchResult(
        draw=outcome.draw,
        seats=tuple(
            SeatResult(seat, user, seat, outcome.scores[seat], seat in outcome.winners)
            for seat, user in enumerate(users)
        ),
    )
    for (turn, seat, move), state in zip(log, states[1:], strict=True):
        last = turn == len(log) - 1
        assert await storage.matches.record_move(
            row.id,
            turn=turn,
            seat=seat,
            user_id=users[seat],
            move=move,
            state=spec.engine.dump(state),
            result=result if last else None,
        )
    feats = match_feats(spec, len(users), seed, {}, log)
    return row.id, {users[seat]: keys for seat, keys in feats.items()}
