"""Awarding the achievements of a database's stored matches once, as a bot does when it first
starts with achievements: 5,000 finished matches (1,000 of each game, seeded random playouts
played to the end, 40 members of one server in pairs), stored as the bot stores them, none yet
awarded; the time `Awards.catch_up` takes to replay every move log and store what they earned.

Random play makes long matches of Tremember and Rookie (900 to 1,900 and about 400 moves),
longer than people play them: the figure errs on the slow side.

    python -m benchmarks achievements [POSTGRES_URL]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import Connection

from benchmarks.__main__ import played
from cogs.registry import GAMES
from data import open_storage
from data.model import ALL_SHARDS, FinishedMatch, PlayedSeat
from data.repositories import Database
from data.storage import Storage
from data.tables import matches, moves, result_seats, results, seats
from matches.awards import Awards, feats_of

MATCHES = 5_000
POOL = 10  # distinct playouts of each game, dealt out again and again
MEMBERS = 40
GUILD = 1


def _pool() -> dict[str, list[tuple[int, list[tuple[int, int, dict[str, Any]]], Any]]]:
    """Per game, `POOL` seeded random playouts: (seed, move log, outcome)."""
    found: dict[str, list[tuple[int, list[tuple[int, int, dict[str, Any]]], Any]]] = {}
    for name, spec in GAMES.items():
        found[name] = []
        for seed in range(POOL):
            steps = list(played(name, seed, 2))
            log = [(turn, seat, move) for turn, (seat, move, _) in enumerate(steps[1:]) if move is not None]
            found[name].append((seed, log, spec.engine.outcome(steps[-1][2])))
    return found


def _rows(count: int) -> dict[str, list[dict[str, Any]]]:
    """The rows of `count` finished matches, the games in turn."""
    pool, rng = _pool(), random.Random(1)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    rows: dict[str, list[dict[str, Any]]] = {"matches": [], "seats": [], "moves": [], "results": [], "rs": []}
    names = list(GAMES)
    for match_id in range(1, count + 1):
        name = names[match_id % len(names)]
        seed, log, outcome = pool[name][match_id % POOL]
        players = rng.sample(range(1, MEMBERS + 1), 2)
        stamp = (start + timedelta(hours=match_id)).isoformat()
        rows["matches"].append(
            {"id": match_id, "game": name, "guild_id": GUILD, "channel_id": 2, "host_id": players[0],
             "status": "finished", "seed": seed, "options": "{}", "turn": len(log), "created_at": stamp,
             "updated_at": stamp, "finished_at": stamp}
        )  # fmt: skip
        rows["seats"] += [{"match_id": match_id, "seat": s, "user_id": u} for s, u in enumerate(players)]
        rows["moves"] += [
            {"match_id": match_id, "turn": t, "seat": s, "user_id": players[s], "move": json.dumps(m),
             "created_at": stamp}
            for t, s, m in log
        ]  # fmt: skip
        rows["results"].append(
            {"match_id": match_id, "game": name, "guild_id": GUILD, "draw": int(outcome.draw),
             "duration_s": 600.0, "options": "{}", "finished_at": stamp}
        )  # fmt: skip
        rows["rs"] += [
            {"match_id": match_id, "seat": s, "user_id": u, "team": s, "score": outcome.scores[s],
             "winner": int(s in outcome.winners)}
            for s, u in enumerate(players)
        ]  # fmt: skip
    return rows


def _insert(rows: dict[str, list[dict[str, Any]]], connection: Connection) -> None:
    for table, key in ((matches, "matches"), (seats, "seats"), (results, "results"), (result_seats, "rs")):
        connection.execute(table.insert(), rows[key])
    for at in range(0, len(rows["moves"]), 50_000):
        connection.execute(moves.insert(), rows["moves"][at : at + 50_000])


async def _measure(target: str | Path, rows: dict[str, list[dict[str, Any]]]) -> None:
    storage: Database = await open_storage(target)
    try:
        assert isinstance(storage, Storage)
        await storage.run(lambda connection: _insert(rows, connection), transaction=True)
        awards = Awards(storage, GAMES, ALL_SHARDS)
        began = time.perf_counter()
        done = await awards.catch_up()
        took = time.perf_counter() - began
        _, holders = await storage.achievements.rarity(GUILD)
        again = time.perf_counter()
        assert await awards.catch_up() == 0
        print(
            f"  {storage.dialect:<10} {done:,} matches ({len(rows['moves']):,} moves) awarded in "
            f"{took:6.1f} s "
            f"({1000 * took / done:5.1f} ms a match), {sum(holders.values())} achievements; "
            f"a start with nothing left to award: {1000 * (time.perf_counter() - again):.1f} ms"
        )
    finally:
        await storage.close()


def _per_game() -> None:
    """The replay of each game's feats alone: per match and per 100 moves of its playouts."""
    for name, playouts in _pool().items():
        seated = (PlayedSeat(0, 1, True, False, 0), PlayedSeat(1, 2, False, False, 0))
        finished = [
            FinishedMatch(0, name, GUILD, "", False, False, None, seed, {}, seated, tuple(log))
            for seed, log, _ in playouts
        ]
        began = time.perf_counter()
        feats_of(GAMES, finished)
        took = time.perf_counter() - began
        moved = sum(len(match.log) for match in finished)
        print(
            f"  {name:<17} {1000 * took / len(finished):6.1f} ms a match of "
            f"{moved // len(finished):>5} moves on average ({100_000 * took / moved:5.1f} ms per 100 moves)"
        )


def bench_achievements(postgres: str | None = None, count: int = MATCHES) -> None:
    print("The feats of one stored match (a replay of its move log), by game")
    _per_game()
    print(
        f"Achievements of {count:,} stored matches awarded at the first start (one server, {MEMBERS} members)"
    )
    rows = _rows(count)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_measure(Path(folder) / "bench.db", rows))
    if postgres:
        asyncio.run(_measure_postgres(postgres, rows))


async def _measure_postgres(url: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    import asyncpg

    name = f"bench_achievements_{os.getpid()}"
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        await _measure(urlunsplit(urlsplit(url)._replace(path=f"/{name}")), rows)
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    bench_achievements(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TEST_DATABASE_URL"))
