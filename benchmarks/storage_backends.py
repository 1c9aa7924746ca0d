"""The storage backends side by side, each on a database of its own:

- one committed move: median and p99 of 500 `record_move` calls, each waiting for its commit
  (SQLite synchronous=FULL, PostgreSQL fsync and synchronous commits on);
- resume after a restart: `matches.resume_running` over 10,000 and 100,000 running matches
  (real dumped game states, 2 to 4 seated players, a turn clock each), in a new process as a
  restarting bot is: its seconds and how much the process's peak resident memory grew;
- 50 concurrent matches: 50 tasks, each committing moves on its own match through the one
  storage object as fast as it can for 5 s (SQLite: its one connection; PostgreSQL: the pool
  `open_storage` makes, up to 10 connections): moves committed per second, latency per move.

    python -m benchmarks.storage_backends [POSTGRES_URL] [--quick]

POSTGRES_URL (or TEST_DATABASE_URL, or DATABASE_URL) names a server where the benchmark creates
databases of its own and drops them afterwards (e.g. `scripts/postgres start /tmp/pg`); without
one, SQLite alone is measured. `--quick` leaves out the 100,000 matches.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import asyncpg
from sqlalchemy import Connection

from benchmarks.__main__ import played
from cogs.registry import GAMES
from data import open_storage
from data.repositories import Database
from data.storage import Storage
from data.tables import matches as match_table
from data.tables import seats as seat_table

ENGINES = {name: spec.engine for name, spec in GAMES.items()}  # the hosted games' engines
MOVES = 500
RESUMED = (10_000, 100_000)
CONCURRENT = 50
CONCURRENT_S = 5.0
CLOCK_S = 86_400  # a day a turn: every seeded match has a deadline to read
FIRST_USER = 300_000_000_000_000_000  # Discord-sized ids, as BIGINT stores them

Figures = dict[str, str]


async def committed_moves(storage: Database, count: int = MOVES) -> list[float]:
    """Seconds each of `count` moves took to commit, in one running match."""
    lobby = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=7, options={}
    )
    await storage.matches.join_lobby(lobby.id, 22, 2)
    await storage.matches.start(lobby.id, '{"state": 0}')
    state = "x" * 2000  # about the size of a dumped game state
    timings = []
    for turn in range(count):
        started = time.perf_counter()
        saved = await storage.matches.record_move(
            lobby.id,
            turn=turn,
            seat=turn % 2,
            user_id=(11, 22)[turn % 2],
            move={"type": "play", "card": turn},
            state=state,
            deadline="2026-01-01T12:00:00+00:00",
        )
        timings.append(time.perf_counter() - started)
        assert saved
    return timings


def p99(timings: Sequence[float]) -> float:
    ordered = sorted(timings)
    return ordered[min(len(ordered) - 1, round(0.99 * len(ordered)))]


def latency(timings: Sequence[float]) -> tuple[str, str]:
    """Median and p99 of `timings`, in milliseconds."""
    return f"{statistics.median(timings) * 1000:.2f} ms", f"{p99(timings) * 1000:.2f} ms"


# --- Seeding running matches ------------------------------------------------------------------

MATCH_COLUMNS = (
    "id",
    "game",
    "guild_id",
    "channel_id",
    "message_id",
    "host_id",
    "status",
    "seed",
    "options",
    "state",
    "turn",
    "created_at",
    "started_at",
    "updated_at",
    "clock_s",
    "deadline",
    "reminded",
    "timeouts",
    "board_stale",
)
SEAT_COLUMNS = ("match_id", "seat", "user_id")


@dataclass(frozen=True, slots=True)
class Moment:
    """A real game part-way through: the dumped state after `turn` moves of a seeded game."""

    game: str
    players: int
    seed: int
    turn: int
    state: str


def moments() -> list[Moment]:
    """Dumped states from seeded games of every engine, 2 to 4 players, a third and two thirds
    of the way through."""
    found = []
    for game, engine in ENGINES.items():
        for players in (2, 3, 4):
            seed = players
            states = [state for _, _, state in played(game, seed, players)]
            for turn in (len(states) // 3, 2 * len(states) // 3):
                found.append(Moment(game, players, seed, turn, engine.dump(states[turn])))
    return found


def running_rows(
    first_id: int, count: int, templates: Sequence[Moment]
) -> tuple[list[tuple[Any, ...]], list[tuple[int, int, int]]]:
    """`count` running matches (ids from `first_id`) as rows of `MATCH_COLUMNS`, and their seats
    as rows of `SEAT_COLUMNS`: spread over 1,000 servers, each a moment of `templates`."""
    now = datetime.now(UTC)
    started = (now - timedelta(hours=2)).isoformat()
    deadline = (now + timedelta(seconds=CLOCK_S)).isoformat()
    matches: list[tuple[Any, ...]] = []
    seats: list[tuple[int, int, int]] = []
    for match_id in range(first_id, first_id + count):
        moment = templates[match_id % len(templates)]
        players = [FIRST_USER + (match_id * 4 + seat) % 400_000 for seat in range(moment.players)]
        matches.append(
            (
                match_id,
                moment.game,
                FIRST_USER + match_id % 1000,
                FIRST_USER + 10_000 + match_id % 5000,
                FIRST_USER + 10_000_000 + match_id,
                players[0],
                "running",
                moment.seed,
                "{}",
                moment.state,
                moment.turn,
                started,
                started,
                started,
                CLOCK_S,
                deadline,
                0,
                "{}",
                0,
            )
        )
        seats.extend((match_id, seat, user) for seat, user in enumerate(players))
    return matches, seats


async def seed_running(storage: Storage, first_id: int, count: int, templates: Sequence[Moment]) -> None:
    """Bulk-insert `count` running matches in one transaction (untimed)."""
    matches, seats = running_rows(first_id, count, templates)

    def insert(connection: Connection) -> None:
        connection.execute(
            match_table.insert(), [dict(zip(MATCH_COLUMNS, row, strict=True)) for row in matches]
        )
        connection.execute(seat_table.insert(), [dict(zip(SEAT_COLUMNS, row, strict=True)) for row in seats])

    def settle(connection: Connection) -> None:
        connection.exec_driver_sql(
            "SELECT setval(pg_get_serial_sequence('matches', 'id'), (SELECT MAX(id) FROM matches))"
        )
        # What autovacuum would have done by the time a bot restarts: statistics, visibility map.
        connection.exec_driver_sql("VACUUM ANALYZE matches, seats")

    await storage.run(insert, transaction=True)
    if storage.dialect == "postgresql":
        await storage.run(settle)


# --- Resume in a new process ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Resumed:
    matches: int
    seconds: float
    peak_mb: float  # how much the process's peak resident memory grew during the call
    held_mb: float  # how much more resident memory the process holds after it (the rows kept)


def _memory_mb(field: str) -> float:
    """A memory figure of this process from /proc/self/status (Linux), in MB: VmRSS is the resident
    memory now, VmHWM its peak (since the start, or since `_reset_peak`)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024  # kB
    raise RuntimeError(f"/proc/self/status has no {field}: this benchmark measures memory on Linux.")


def _reset_peak() -> None:
    """Start VmHWM (the peak getrusage's ru_maxrss reports) again from the resident memory now,
    so the peak measured is the call's own; without the right to, it stays the process's peak."""
    with suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


async def _resume(url: str) -> Resumed:
    storage = await open_storage(url)
    try:
        _reset_peak()
        before = _memory_mb("VmRSS")
        started = time.perf_counter()
        rows, set_aside = await storage.matches.resume_running(timedelta(0))
        seconds = time.perf_counter() - started
        assert not set_aside
        return Resumed(len(rows), seconds, _memory_mb("VmHWM") - before, _memory_mb("VmRSS") - before)
    finally:
        await storage.close()


def resume_in_process(url: str) -> Resumed:
    """`resume_running` on the database at `url`, as the first call of a process (run in a new one)."""
    return asyncio.run(_resume(url))


def resume_fresh(url: str) -> Resumed:
    """Resume in a new process: its memory is the resume's own, not what seeding left behind."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(resume_in_process, (url,))


async def resumes(url: str, counts: Sequence[int]) -> Figures:
    """Seed the database at `url` up to each of `counts` running matches and time a resume."""
    figures: Figures = {}
    templates, seeded = moments(), 0
    for count in counts:
        storage = await Storage.open(url)
        try:
            await seed_running(storage, seeded + 1, count - seeded, templates)
        finally:
            await storage.close()
        seeded = count
        resumed = resume_fresh(url)
        assert resumed.matches == count, f"resumed {resumed.matches} of {count} matches"
        figures[f"resume {count:,} time"] = f"{resumed.seconds:.2f} s"
        figures[f"resume {count:,} peak RSS"] = f"+{resumed.peak_mb:.0f} MB"
        figures[f"resume {count:,} held RSS"] = f"+{resumed.held_mb:.0f} MB"
    return figures


# --- Concurrent matches -----------------------------------------------------------------------


async def _running_match(storage: Database, index: int, players: int) -> int:
    game = list(ENGINES)[index % len(ENGINES)]
    lobby = await storage.matches.open_lobby(
        game=game, guild_id=FIRST_USER + index, channel_id=index, host_id=FIRST_USER, seed=index, options={}
    )
    for seat in range(1, players):
        await storage.matches.join_lobby(lobby.id, FIRST_USER + seat, players)
    await storage.matches.start(lobby.id, ENGINES[game].dump(ENGINES[game].new_game(players, index)))
    return lobby.id


def script(game: str) -> list[tuple[int, dict[str, Any], str]]:
    """The moves of a seeded two-player game of `game`: (seat, move, dumped state after it)."""
    return [
        (seat, move, ENGINES[game].dump(state))
        for seat, move, state in played(game, 1, 2)
        if move is not None
    ]


async def _play(
    storage: Database, match_id: int, moves: Sequence[tuple[int, dict[str, Any], str]], until: float
) -> list[float]:
    """Commit `moves` (over and over) on one match until `until`: each move's seconds."""
    deadline = (datetime.now(UTC) + timedelta(seconds=CLOCK_S)).isoformat()
    timings: list[float] = []
    while time.perf_counter() < until:
        seat, move, state = moves[len(timings) % len(moves)]
        started = time.perf_counter()
        saved = await storage.matches.record_move(
            match_id,
            turn=len(timings),
            seat=seat,
            user_id=FIRST_USER + seat,
            move=move,
            state=state,
            deadline=deadline,
        )
        timings.append(time.perf_counter() - started)
        assert saved, f"match {match_id} refused its move {len(timings) - 1}"
    return timings


async def concurrent_moves(
    storage: Database, matches: int = CONCURRENT, seconds: float = CONCURRENT_S
) -> Figures:
    """`matches` tasks, each committing moves on its own running match for `seconds`."""
    ids = [await _running_match(storage, index, 2) for index in range(matches)]
    scripts = {game: script(game) for game in ENGINES}
    games = [list(ENGINES)[index % len(ENGINES)] for index in range(matches)]
    started = time.perf_counter()
    done = await asyncio.gather(
        *(
            _play(storage, match_id, scripts[game], started + seconds)
            for match_id, game in zip(ids, games, strict=True)
        )
    )
    elapsed = time.perf_counter() - started
    timings = [timing for one in done for timing in one]
    median, worst = latency(timings)
    return {
        f"{matches} matches moves/s": f"{len(timings) / elapsed:,.0f}",
        f"{matches} matches median": median,
        f"{matches} matches p99": worst,
    }


# --- Databases and the table ------------------------------------------------------------------


@asynccontextmanager
async def fresh_database(server: str | None) -> AsyncIterator[str]:
    """The URL of a new, empty database, deleted afterwards: a SQLite file in a temporary folder
    (`server` None), or a database of its own on the PostgreSQL server `server`."""
    if server is None:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "bench.db")
        return
    name = f"bench_{uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def on_storage(
    server: str | None, measure: Callable[[Database], Coroutine[Any, Any, Figures]]
) -> Figures:
    async with fresh_database(server) as url:
        storage = await open_storage(url)
        try:
            return await measure(storage)
        finally:
            await storage.close()


async def one_move(storage: Database) -> Figures:
    median, worst = latency(await committed_moves(storage))
    return {"move median": median, "move p99": worst}


async def backend(server: str | None, counts: Sequence[int]) -> Figures:
    """Every figure of one backend: SQLite (`server` None) or PostgreSQL."""
    figures = await on_storage(server, one_move)
    figures |= await on_storage(server, concurrent_moves)
    async with fresh_database(server) as url:
        figures |= await resumes(url, counts)
    return figures


ROWS = (
    ("One committed move, median", "move median"),
    ("One committed move, p99", "move p99"),
    *(
        (f"Resume {count:,} running matches, {what}", f"resume {count:,} {key}")
        for count in RESUMED
        for what, key in (("time", "time"), ("peak RSS growth", "peak RSS"), ("RSS held after", "held RSS"))
    ),
    (f"{CONCURRENT} concurrent matches, moves/s", f"{CONCURRENT} matches moves/s"),
    (f"{CONCURRENT} concurrent matches, median", f"{CONCURRENT} matches median"),
    (f"{CONCURRENT} concurrent matches, p99", f"{CONCURRENT} matches p99"),
)


def table(columns: dict[str, Figures]) -> list[str]:
    lines = [f"{'':50}" + "".join(f"{name:>14}" for name in columns)]
    for label, key in ROWS:
        if any(key in figures for figures in columns.values()):
            lines.append(
                f"{label:50}" + "".join(f"{figures.get(key, '-'):>14}" for figures in columns.values())
            )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("server", nargs="?", help="postgresql://… of a server to create databases on")
    parser.add_argument("--quick", action="store_true", help="leave out the resume of 100,000 matches")
    args = parser.parse_args(argv)
    server = args.server or os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if server and not server.startswith(("postgresql://", "postgres://")):
        server = None
    counts = RESUMED[:1] if args.quick else RESUMED
    print(
        f"Storage backends on {os.cpu_count()} CPUs: {MOVES} moves committed one by one; resume of running "
        f"matches in a new process; {CONCURRENT} matches committing moves at once for {CONCURRENT_S:.0f} s"
    )
    columns = {"sqlite": asyncio.run(backend(None, counts))}
    if server:
        columns["postgresql"] = asyncio.run(backend(server, counts))
    for line in table(columns):
        print(line)


if __name__ == "__main__":
    main()
