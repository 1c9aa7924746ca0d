"""`python -m data.copy SQLITE_PATH POSTGRES_URL` moves a bot's SQLite database into PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from data.copy import copy
from data.model import MatchResult, SeatResult, StorageError
from data.repositories import Database
from data.storage import Storage
from tests.backends import needs_postgres, raw
from tests.data.tracing import finish, running_match

pytestmark = needs_postgres
USERS = (11, 22, 33, 44, -1)


@pytest.fixture
def backend() -> str:
    """The copy's target is PostgreSQL."""
    return "postgres"


def copy_command(path: Path, url: str) -> subprocess.CompletedProcess[str]:
    """`python -m data.copy PATH URL` as an operator runs it."""
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "data.copy", str(path), url],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


async def lived_in_database(path: Path) -> None:
    """A SQLite database as a bot leaves it after a while: lobbies, running matches (clocks,
    reminders, time-outs, a stale board), finished and abandoned ones with ratings, one against
    a computer, a cancelled lobby, a match set aside, settings and meta; the newest match was
    deleted, so SQLite's id counter is ahead of the highest id."""
    storage = await Storage.open(path)
    matches = storage.matches
    try:
        await matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=11, seed=5, options={"r": 3}
        )
        await matches.open_lobby(
            game="tremember",
            guild_id=1,
            channel_id=3,
            host_id=22,
            seed=6,
            options={},
            clock_s=60,
            invited=[33],
        )
        clocked = await running_match(storage, (11, 22, 33), deadline="2026-01-01T12:00:00.250000+00:00")
        await matches.record_move(
            clocked,
            turn=0,
            seat=0,
            user_id=11,
            move={"x": 1},
            state="s1",
            deadline="2026-01-02T12:00:00+00:00",
        )
        await matches.mark_reminded(clocked, turn=0)
        await matches.set_board_message(clocked, 10**18 + 7)
        await matches.set_ping_message(clocked, 10**18 + 8)
        await matches.mark_board_stale(clocked, True)
        await matches.record_move(
            clocked, turn=1, seat=1, user_id=None, move={}, state="s2", timeouts={"1": 1}
        )
        await matches.record_move(clocked, turn=2, seat=2, user_id=33, move={"x": 2}, state="s3")
        taken = await storage.takebacks.ask(clocked, turn=2, user_id=33, asked=[11, 22])
        assert taken is not None
        await storage.takebacks.accept(taken.id, 11)
        await storage.takebacks.take_back(taken.id, user_id=22, state="s2", deadline=None)
        for players in ((11, 22), (22, 33, 44), (11, 44)):
            await finish(storage, await running_match(storage, players), players)
        against_computer = await running_match(storage, (11, -1))
        await finish(storage, against_computer, (11, -1))
        abandoned = await running_match(storage, (33, 44), guild_id=2)
        await matches.record_move(
            abandoned,
            turn=0,
            seat=0,
            user_id=None,
            move={"type": "abandon"},
            state="{}",
            result=MatchResult(True, (SeatResult(0, 33, 0, 0, False), SeatResult(1, 44, 1, 0, False)), True),
        )
        cancelled = await matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=44, seed=1, options={}
        )
        await matches.cancel_lobby(cancelled.id)
        await matches.set_aside(await running_match(storage, (22, 44)), "its game state cannot be loaded")
        deleted = await running_match(storage, (11, 22))
        await storage.settings.set_default_clock(1, 3600)
        await storage.settings.set_max_timeouts(1, 2)
        await storage.settings.set_threads(2, True)
        await storage.settings.set_guild_language(3, "de")
        await storage.settings.set_member_locale(44, "fr")
        await storage.settings.set_meta("alive", "2026-01-01T00:00:00+00:00")
        season = await storage.seasons.set_kind(1, "monthly", datetime(2026, 1, 1, tzinfo=UTC))
        assert season is not None and await storage.seasons.end(season.id, datetime.now(UTC))
    finally:
        await storage.close()
    await raw(path, "DELETE FROM seats WHERE match_id = ?", deleted)
    await raw(path, "DELETE FROM matches WHERE id = ?", deleted)


async def everything(storage: Database) -> dict[str, Any]:
    """All the bot can read from a database with those matches, through its repositories."""
    ids = range(1, 20)
    league, settings = storage.league, storage.settings
    return {
        "matches": [await storage.matches.get(match_id) for match_id in ids],
        "moves": [await storage.matches.move_log(match_id) for match_id in ids],
        "lobbies": await storage.matches.lobbies(),
        "running": await storage.matches.running(),
        "mine": [await storage.matches.active_for(user, 1) for user in USERS],
        "history": [await league.recent_results(guild, limit=50) for guild in (1, 2)],
        "tables": [await league.leaderboard(1, game, offset=0, limit=50) for game in ("rookie", "*")],
        "players": [await league.player_ratings(1, user) for user in USERS],
        "changes": [await league.rating_changes(match_id) for match_id in ids],
        "computers": [await league.computer_record(1, user) for user in USERS],
        "settings": [await settings.for_guild(guild) for guild in (1, 2, 3)],
        "languages": [await settings.guild_language(guild) for guild in (1, 2, 3)],
        "locales": [await settings.member_locale(user) for user in USERS],
        "meta": await settings.get_meta("alive"),
        "taken back": [await storage.takebacks.get(takeback_id) for takeback_id in (1, 2)],
        "counts": [await storage.takebacks.count(1, user) for user in USERS],
        "seasons": [await storage.seasons.ended(1), await storage.seasons.current(1)],
        "season tables": [
            await storage.seasons.standings(1, game, offset=0, limit=50) for game in ("rookie", "*")
        ],
    }


async def test_a_lived_in_sqlite_database_reads_back_identically_from_postgresql(tmp_path, target):
    path = tmp_path / "game_table.db"
    await lived_in_database(path)
    before = await Storage.open(path)
    try:
        expected = await everything(before)
    finally:
        await before.close()

    done = copy_command(path, target)

    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(
        "Copied 10 matches, 19 seats, 7 moves, 1 takebacks, 5 results, 11 result_seats, 0 achievements, "
        "8 ratings, 20 rated_opponents, 3 guild_settings, "
        "1 member_languages, 1 meta, 2 seasons, 8 season_standings, 0 tournaments, 0 tournament_entrants, "
        "0 tournament_rounds, 0 tournament_tables into postgresql://"
    )
    copied = await Storage.open(target)
    try:
        assert await everything(copied) == expected
        assert len([row for row in expected["matches"] if row]) == 10
        # The next match takes the id after the deleted one, as it would have on SQLite.
        lobby = await copied.matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={}
        )
        assert lobby.id == 12
        following = await copied.seasons.current(1)
        assert following is not None and following.id == 2
        assert (await copied.seasons.end(2, datetime(2099, 1, 1, tzinfo=UTC))).following.id == 3
    finally:
        await copied.close()


async def test_a_copy_into_a_database_that_holds_matches_is_refused_and_changes_nothing(
    tmp_path, target, capsys
):
    path = tmp_path / "game_table.db"
    await lived_in_database(path)
    storage = await Storage.open(target)
    try:
        await running_match(storage, (55, 66))
    finally:
        await storage.close()

    done = copy_command(path, target)

    assert done.returncode == 1
    assert "is not empty (1 in matches, 2 in seats)" in done.stderr
    assert await raw(target, "SELECT COUNT(*) FROM matches") == [(1,)]


async def test_a_row_postgresql_cannot_store_stops_the_copy_naming_it_with_nothing_copied(tmp_path, target):
    path = tmp_path / "game_table.db"
    await lived_in_database(path)
    await raw(path, "UPDATE seats SET user_id = 'someone' WHERE match_id = 3 AND seat = 1")

    with pytest.raises(StorageError, match=r"^Row [0-9]+ of table seats in the SQLite database has a value"):
        await copy(path, target)

    assert await raw(target, "SELECT COUNT(*) FROM matches") == [(0,)]


async def test_rows_pointing_at_a_missing_match_stop_the_copy_with_what_to_repair(tmp_path, target):
    path = tmp_path / "game_table.db"
    await lived_in_database(path)
    await raw(path, "DELETE FROM matches WHERE id = 1")  # without foreign keys: its seat stays

    with pytest.raises(StorageError, match="PRAGMA foreign_key_check"):
        await copy(path, target)

    assert await raw(target, "SELECT COUNT(*) FROM seats") == [(0,)]
