"""Storage on a real database (a SQLite file, and PostgreSQL when there is one): lobbies, moves,
restarts and races."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from data import open_storage
from data.migrate import head
from data.model import MatchResult, SeatResult, StorageError
from data.repositories import Database
from data.storage import Storage
from tests.backends import raw


async def new_running_match(storage: Database, players=(11, 22)) -> int:
    row = await storage.matches.open_lobby(
        game="tetris_link", guild_id=1, channel_id=2, host_id=players[0], seed=7, options={"dice": True}
    )
    for user in players[1:]:
        assert await storage.matches.join_lobby(row.id, user, len(players))
    assert await storage.matches.start(row.id, '{"state": 0}')
    return row.id


async def test_a_sqlite_database_uses_write_ahead_logging_and_is_migrated(database):
    await (await Storage.open(database)).close()
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [(head(),)]
    connection.close()


async def test_a_lobby_seats_players_in_join_order_and_closes_gaps_when_one_leaves(storage):
    row = await storage.matches.open_lobby(
        game="tremember", guild_id=1, channel_id=2, host_id=1, seed=3, options={}
    )
    for user in (2, 3, 4):
        await storage.matches.join_lobby(row.id, user, 4)
    assert not await storage.matches.join_lobby(row.id, 3, 4)  # already seated
    assert await storage.matches.leave_lobby(row.id, 2)
    assert (await storage.matches.get(row.id)).players == [1, 3, 4]


async def test_a_move_commits_state_log_row_and_turn_together(storage):
    match_id = await new_running_match(storage)
    saved = await storage.matches.record_move(
        match_id, turn=0, seat=0, user_id=11, move={"type": "x"}, state="s1"
    )
    assert saved
    row = await storage.matches.get(match_id)
    assert (row.turn, row.state) == (1, "s1")
    assert await storage.matches.move_log(match_id) == [(0, 0, {"type": "x"})]


async def test_the_same_move_is_never_applied_twice(storage):
    match_id = await new_running_match(storage)
    first = await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 1}, state="a")
    second = await storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": 2}, state="b")
    assert (first, second) == (True, False)
    assert (await storage.matches.get(match_id)).state == "a"
    assert len(await storage.matches.move_log(match_id)) == 1


async def test_racing_moves_at_the_same_turn_commit_exactly_one(storage):
    match_id = await new_running_match(storage)
    results = await asyncio.gather(
        *(
            storage.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={"n": n}, state=f"s{n}")
            for n in range(5)
        )
    )
    assert sorted(results) == [False, False, False, False, True]
    assert (await storage.matches.get(match_id)).turn == 1


async def test_a_second_process_cannot_apply_a_move_the_first_already_applied(target, storage):
    match_id = await new_running_match(storage)
    other = await open_storage(target)  # another connection, as a second bot process would have
    try:
        assert await other.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="theirs")
        assert not await storage.matches.record_move(
            match_id, turn=0, seat=0, user_id=11, move={}, state="ours"
        )
    finally:
        await other.close()
    assert (await storage.matches.get(match_id)).state == "theirs"


async def test_running_matches_survive_a_restart(target):
    first = await open_storage(target)
    match_id = await new_running_match(first)
    await first.matches.record_move(match_id, turn=0, seat=0, user_id=11, move={}, state="after one move")
    await first.close()

    reopened = await open_storage(target)
    try:
        running = await reopened.matches.running()
    finally:
        await reopened.close()
    assert [(r.id, r.turn, r.state, r.players) for r in running] == [
        (match_id, 1, "after one move", [11, 22])
    ]


async def test_the_final_move_stores_the_result_and_ends_the_match(storage):
    match_id = await new_running_match(storage)
    result = MatchResult(
        draw=False,
        seats=(SeatResult(0, 11, 0, 5, True), SeatResult(1, 22, 1, 3, False)),
    )
    await storage.matches.record_move(
        match_id, turn=0, seat=0, user_id=11, move={}, state="end", result=result
    )
    assert (await storage.matches.get(match_id)).status == "finished"
    assert await storage.matches.running() == []


async def test_a_cancelled_lobby_stores_nothing_and_cannot_start(storage):
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=1, seed=3, options={}
    )
    assert await storage.matches.cancel_lobby(row.id)
    assert not await storage.matches.start(row.id, "{}")
    assert (await storage.matches.get(row.id)).status == "cancelled"


async def test_an_unusable_database_path_is_one_clear_sentence(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageError, match="DATABASE_PATH"):
        await Storage.open(blocker / "game_table.db")


async def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError, match="cannot be used"):
        await Storage.open(junk)


async def test_my_matches_are_my_lobbies_and_running_matches_on_this_server_newest_first(storage):
    running = await new_running_match(storage, players=(11, 22))
    lobby = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=22, seed=1, options={}
    )
    await storage.matches.join_lobby(lobby.id, 11, 4)
    elsewhere = await storage.matches.open_lobby(
        game="rookie", guild_id=9, channel_id=2, host_id=11, seed=1, options={}
    )
    cancelled = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=11, seed=1, options={}
    )
    await storage.matches.cancel_lobby(cancelled.id)

    mine = await storage.matches.active_for(11, 1)

    assert [(row.id, row.players) for row in mine] == [(lobby.id, [22, 11]), (running, [11, 22])]
    assert [row.id for row in await storage.matches.lobbies()] == [lobby.id, elsewhere.id]


async def test_server_settings_and_the_bots_own_facts_are_kept(target):
    first = await open_storage(target)
    assert await first.settings.for_guild(1) == (None, None, False)
    await first.settings.set_default_clock(1, 3600)
    await first.settings.set_max_timeouts(1, 2)
    await first.settings.set_default_clock(1, 600)
    await first.settings.set_meta("alive", "yesterday")
    await first.close()

    reopened = await open_storage(target)
    try:
        assert await reopened.settings.for_guild(1) == (600, 2, False)
        assert (await reopened.settings.for_guild(2)).clock_s is None
        assert await reopened.settings.get_meta("alive") == "yesterday"
        assert await reopened.settings.get_meta("unknown") is None
    finally:
        await reopened.close()


async def test_a_full_lobby_seats_no_one_more(storage):
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=1, seed=3, options={}
    )
    assert await storage.matches.join_lobby(row.id, 2, 2)
    assert not await storage.matches.join_lobby(row.id, 3, 2)
    assert (await storage.matches.get(row.id)).players == [1, 2]


async def test_joins_racing_for_the_last_seats_never_seat_more_than_the_game_allows(storage):
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=1, seed=3, options={}
    )
    joined = await asyncio.gather(*(storage.matches.join_lobby(row.id, user, 4) for user in range(2, 12)))
    assert sum(joined) == 3
    players = (await storage.matches.get(row.id)).players
    assert players[0] == 1 and len(set(players)) == 4


async def test_joins_from_two_processes_racing_for_the_last_seats_never_overfill_the_lobby(storage, target):
    row = await storage.matches.open_lobby(
        game="rookie", guild_id=1, channel_id=2, host_id=1, seed=3, options={}
    )
    other = await open_storage(target)  # another connection, as a second bot process would have
    try:
        joined = await asyncio.gather(
            *((storage, other)[user % 2].matches.join_lobby(row.id, user, 4) for user in range(2, 12))
        )
    finally:
        await other.close()
    assert sum(joined) == 3
    seats = await raw(target, "SELECT seat FROM seats WHERE match_id = ? ORDER BY seat", row.id)
    assert seats == [(0,), (1,), (2,), (3,)]
