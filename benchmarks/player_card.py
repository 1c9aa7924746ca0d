"""The player card of /stats: the time to draw it for players of few to many matches, and the
time of the two queries it and the head-to-head record read, for a heavy player on a real file."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from cogs.player_card import HISTORY_LIMIT, card
from cogs.registry import GAMES
from data import open_storage
from data.model import MatchResult, RatedResult, SeatResult
from data.repositories import Database
from render.player_card import render

RUNS = 20
ACHIEVEMENTS = (("🏅", "First win"), ("🔥", "Five in a row"), ("🤖", "Beat a hard computer"))


def player(games: int, matches: int, seed: int = 1) -> tuple[list[dict[str, Any]], list[RatedResult]]:
    """The ratings and rating history of a player of `matches` rated matches in each of the first
    `games` games, their ratings wandering."""
    rng = random.Random(seed)
    ratings: list[dict[str, Any]] = []
    history: list[RatedResult] = []
    for game in list(GAMES)[:games]:
        rating, wins = 1000, 0
        for index in range(matches):
            won = rng.random() < 0.55
            after = rating + rng.randint(5, 30) * (1 if won else -1)
            stamp = f"2026-01-01T{index // 3600:02d}:{index // 60 % 60:02d}:{index % 60:02d}+00:00"
            history.append(RatedResult(game, stamp, rating, after, won, drew=False))
            rating, wins = after, wins + won
        ratings.append({"game": game, "rating": rating, "wins": wins, "games": matches, "listed": True})
    history.sort(key=lambda result: result.finished_at)
    return ratings, history


def bench_card() -> None:
    print("Player card: the time to draw it (median of 20, the words and data already read)")
    for games, matches in ((0, 0), (1, 12), (3, 100), (5, HISTORY_LIMIT)):
        ratings, history = player(games, matches)
        samples, size = [], 0
        for _ in range(RUNS):
            start = time.perf_counter()
            drawn, _ = card(GAMES, "Alice Wonderland", ratings, history, ACHIEVEMENTS, "en")
            size = len(render(drawn))
            samples.append(time.perf_counter() - start)
        print(
            f"  {games} games x {matches:>3} matches  median {1000 * statistics.median(samples):6.1f} ms  "
            f"max {1000 * max(samples):6.1f} ms  PNG {size / 1024:5.1f} KiB"
        )
    asyncio.run(_bench_queries())


async def _bench_queries(matches: int = 500) -> None:
    """A player of `matches` rated matches in each of five games, each against a new member."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(Path(folder) / "card.db")
        try:
            opponent = 1000
            for game in list(GAMES)[:5]:
                for index in range(matches):
                    opponent += 1
                    await _played(storage, game, (1, opponent), winner=index % 3 != 0)
            await _played(storage, "rookie", (1, 2), winner=True)
            for name, query in (
                ("rating history", lambda: storage.league.rating_history(1, 1, limit=HISTORY_LIMIT)),
                ("head-to-head", lambda: storage.league.head_to_head(1, 1, 2)),
            ):
                samples = []
                for _ in range(RUNS):
                    start = time.perf_counter()
                    await query()
                    samples.append(time.perf_counter() - start)
                print(
                    f"  {name:>14}, 5 games x {matches} rated matches (SQLite)  "
                    f"median {1000 * statistics.median(samples):6.1f} ms"
                )
        finally:
            await storage.close()


async def _played(storage: Database, game: str, users: tuple[int, int], *, winner: bool) -> None:
    row = await storage.matches.open_lobby(
        game=game, guild_id=1, channel_id=2, host_id=users[0], seed=1, options={}
    )
    await storage.matches.join_lobby(row.id, users[1], 2)
    await storage.matches.start(row.id, "{}")
    seats = (SeatResult(0, users[0], 0, 1, winner), SeatResult(1, users[1], 1, 0, not winner))
    await storage.matches.record_move(
        row.id, turn=0, seat=0, user_id=users[0], move={}, state="{}", result=MatchResult(False, seats)
    )
