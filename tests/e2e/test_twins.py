"""Two bot processes on one PostgreSQL race on one match (twin SimCord worlds, one per
process: see tests/e2e/twin.py): every move is stored once, none is lost, and the clock's
reminder and time-out happen once between them."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import asyncpg

from matches.turns import STALE
from tests.backends import fresh_postgres_database, needs_postgres
from tests.e2e.twin import ROUNDS

pytestmark = needs_postgres
WORLD_TIMEOUT_S = 240


async def run_twins(url: str, folder: Path) -> dict[str, dict]:
    """Both worlds, side by side, to their end; what each saw."""
    worlds = {
        role: await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.twin",
            role,
            url,
            str(folder),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2],
        )
        for role in ("a", "b")
    }
    outputs = await asyncio.wait_for(
        asyncio.gather(*(world.communicate() for world in worlds.values())), WORLD_TIMEOUT_S
    )
    failed = {
        role: output.decode()[-3000:]
        for (role, world), (output, _) in zip(worlds.items(), outputs, strict=True)
        if world.returncode != 0
    }
    assert not failed, failed
    return {role: json.loads((folder / f"{role}.json").read_text()) for role in worlds}


async def stored_moves(url: str) -> list[tuple[int, str | None]]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT turn, move FROM moves ORDER BY turn")
        turn = await connection.fetchval("SELECT turn FROM matches")
    finally:
        await connection.close()
    assert turn == len(rows)
    return [(row["turn"], json.loads(row["move"]).get("by")) for row in rows]


async def test_two_processes_racing_on_one_match_store_every_move_exactly_once(tmp_path: Path):
    async with fresh_postgres_database() as url:
        seen = await run_twins(url, tmp_path)
        moves = await stored_moves(url)
    a, b = seen["a"], seen["b"]
    assert a["ids"] == b["ids"]  # twin worlds: the same server, channel and members
    assert a["errors"] == b["errors"] == []
    for number, told in enumerate(zip(a["rounds"], b["rounds"], strict=True)):
        # Both pressed the same move at once: one played it, the other was told it came second.
        assert sorted(told) == ["", STALE], f"round {number}: {told}"
    # Every round's move once, in order, then the clock's move when the deadline passed.
    assert moves == [(turn, None) for turn in range(ROUNDS)] + [(ROUNDS, "clock")]
    assert a["reminders"] + b["reminders"] == 1
    assert a["timeouts"] + b["timeouts"] == 1, (a["boards"], b["boards"])
