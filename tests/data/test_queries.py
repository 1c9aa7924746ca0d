"""What storage asks of SQLite: a fixed number of queries, each served by an index."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from data.model import Award
from data.storage import Storage
from tests.data.tracing import finish, recording, running_match, sql


@pytest.fixture
def backend() -> str:
    """These tests read SQLite's trace and query plans: SQLite only."""
    return "sqlite"


async def _plan(storage: Storage, statement: str) -> list[tuple[int, int, str]]:
    """SQLite's query plan of a statement as (node id, parent id, detail)."""
    rows = await sql(storage, f"EXPLAIN QUERY PLAN {statement}")
    return [(row[0], row[1], row[3]) for row in rows]


async def _finished_matches(storage: Storage, count: int, *, guild_id: int) -> None:
    for _ in range(count):
        await finish(storage, await running_match(storage, (11, 22, 33), guild_id=guild_id), (11, 22, 33))


@pytest.mark.parametrize(
    "query", [{}, {"game": "rookie"}, {"user_id": 22}], ids=["server", "one game", "one player"]
)
async def test_a_servers_history_costs_one_query_for_one_result_as_for_ten(storage, query):
    await _finished_matches(storage, 1, guild_id=1)
    await _finished_matches(storage, 10, guild_id=2)

    async with recording(storage) as one:
        short = await storage.league.recent_results(1, limit=10, **query)
    async with recording(storage) as ten:
        long = await storage.league.recent_results(2, limit=10, **query)

    assert (len(short), len(long)) == (1, 10)
    assert all(len(result["seats"]) == 3 for result in long)
    assert len(one) == len(ten) == 1


async def test_a_servers_history_lists_the_newest_first_with_every_seat_in_order(storage):
    first = await running_match(storage, (11, 22), guild_id=1)
    await finish(storage, first, (11, 22))
    second = await running_match(storage, (33, 22, 11), guild_id=1)
    await finish(storage, second, (33, 22, 11))
    await finish(storage, await running_match(storage, (44, 55), guild_id=9), (44, 55))  # another server

    recent = await storage.league.recent_results(1)

    assert [r["match_id"] for r in recent] == [second, first]
    assert [(s["seat"], s["user_id"], s["score"], s["winner"]) for s in recent[0]["seats"]] == [
        (0, 33, 10, True),
        (1, 22, 9, False),
        (2, 11, 8, False),
    ]
    assert recent[0]["seats"][0]["change"] > 0 > recent[0]["seats"][2]["change"]
    assert [r["match_id"] for r in await storage.league.recent_results(1, user_id=33)] == [second]
    assert [r["match_id"] for r in await storage.league.recent_results(1, limit=1)] == [second]
    assert await storage.league.recent_results(1, game="tremember") == []


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_the_final_move_reads_the_ratings_once_and_writes_them_once_however_many_play(storage, players):
    seated = tuple(range(100, 100 + players))
    # Half the players are rated already (their rows are updated), the others are new (inserted).
    veterans = seated[: players // 2]
    await finish(storage, await running_match(storage, (*veterans, 999)), (*veterans, 999))
    match_id = await running_match(storage, seated)

    async with recording(storage) as statements:
        assert await finish(storage, match_id, seated)

    assert len(statements.touching("ratings")) == 2  # one SELECT of every needed rating, one upsert
    # The whole final move, whatever the number of players: BEGIN, the match, the move-log row,
    # the seats' hints, the look for repeats among its players, the result, the ratings read, the
    # opponents met, the ratings written, the seats' results, COMMIT.
    assert len(statements) == 11
    assert statements.transactions() == ["BEGIN IMMEDIATE", "COMMIT"]
    games = {user: (await storage.league.player_ratings(1, user))[0]["games"] for user in (*seated, 999)}
    assert games == {**{user: 1 for user in seated}, **{user: 2 for user in veterans}, 999: 1}


async def test_resuming_shifts_every_running_deadline_in_one_transaction(storage):
    soon, later = "2026-01-01T12:00:00+00:00", "2026-01-02T08:30:00.250000+00:00"
    clocked = [await running_match(storage, deadline=soon), await running_match(storage, deadline=later)]
    unclocked = await running_match(storage)
    await storage.matches.mark_reminded(clocked[0], turn=0)
    finished = await running_match(storage, deadline=soon)
    await finish(storage, finished, (11, 22))
    await storage.matches.open_lobby(game="rookie", guild_id=1, channel_id=2, host_id=1, seed=1, options={})

    async with recording(storage) as statements:
        rows, set_aside = await storage.matches.resume_running(timedelta(hours=1, seconds=5))

    assert [row.id for row in rows] == [*clocked, unclocked]
    assert set_aside == []
    expected = ["2026-01-01T13:00:05+00:00", "2026-01-02T09:30:05.250000+00:00", None]
    assert [row.deadline for row in rows] == expected
    assert [(await storage.matches.get(row.id)).deadline for row in rows] == expected
    assert not any(row.reminded for row in rows)
    assert (await storage.matches.get(finished)).deadline is None
    # One transaction around the reads and every update: nothing can move in between.
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"
    assert statements.transactions() == ["BEGIN IMMEDIATE", "COMMIT"]
    # The two deadlines, and the unclocked match's last move (a claim waits from it).
    assert len([sql for sql in statements if sql.startswith("UPDATE matches")]) == 3


async def test_a_resume_that_fails_halfway_shifts_no_deadline(storage):
    deadline = "2026-01-01T12:00:00+00:00"
    first = await running_match(storage, deadline=deadline)
    second = await running_match(storage, deadline=deadline)
    await sql(
        storage,
        f"CREATE TEMP TRIGGER refuse BEFORE UPDATE OF deadline ON main.matches WHEN NEW.id = {second} "
        "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END",
    )

    with pytest.raises(sqlite3.DatabaseError, match="the disk is full"):
        await storage.matches.resume_running(timedelta(hours=1))

    assert [(await storage.matches.get(m)).deadline for m in (first, second)] == [deadline, deadline]


@pytest.mark.parametrize(
    ("query", "index"),
    [({}, "results_by_guild_time"), ({"game": "rookie"}, "results_by_guild")],
    ids=["server", "one game"],
)
async def test_a_servers_history_is_read_through_an_index_in_time_order_without_sorting(
    storage, query, index
):
    await _finished_matches(storage, 3, guild_id=1)
    async with recording(storage) as statements:
        await storage.league.recent_results(1, **query)

    plan = await _plan(storage, statements[0])

    # The latest results come straight from the index, newest first; only the few rows of
    # the page are sorted again with their seats.
    (recent,) = [node for node, _, detail in plan if detail.startswith("MATERIALIZE")]
    reading = [detail for _, parent, detail in plan if parent == recent]
    assert reading == [f"SEARCH results USING INDEX {index} (guild_id=?{' AND game=?' if query else ''})"]


async def _every_query(storage: Storage) -> list[str]:
    """Every repository method once (with data for each to find); the statements they ran."""
    matches, league, settings = storage.matches, storage.league, storage.settings
    async with recording(storage) as statements:
        lobby = await matches.open_lobby(
            game="rookie", guild_id=1, channel_id=2, host_id=1, seed=1, options={}
        )
        await matches.join_lobby(lobby.id, 2, 4)
        await matches.join_lobby(lobby.id, 3, 4)
        await matches.leave_lobby(lobby.id, 2)
        await matches.set_board_message(lobby.id, 5)
        await matches.lobbies()
        await matches.start(lobby.id, "{}", "2026-01-01T00:00:00+00:00")
        await matches.set_ping_message(lobby.id, 6)
        await matches.claim_ping(lobby.id, turn=0)
        await matches.mark_reminded(lobby.id, turn=0)
        await matches.record_move(
            lobby.id, turn=0, seat=0, user_id=1, move={}, state="{}", deadline="2026-01-01T00:00:00+00:00"
        )
        await matches.move_log(lobby.id)
        await matches.running()
        await matches.active_for(1, 1)
        await matches.resume_running(timedelta(minutes=1))
        await matches.set_aside(lobby.id, "its stored options are unreadable")
        await matches.resume_set_aside(lobby.id, None)
        await matches.set_aside_guild(1, "I was removed from its server")
        await matches.cancel_lobby(
            (
                await matches.open_lobby(
                    game="rookie", guild_id=1, channel_id=2, host_id=1, seed=1, options={}
                )
            ).id
        )
        finished = await running_match(storage, (1, 3))
        await finish(storage, finished, (1, 3))
        await matches.open_lobby(
            game="rookie",
            guild_id=1,
            channel_id=2,
            host_id=1,
            seed=1,
            options={},
            rematch_of=finished,
            max_hosted=3,
        )
        await matches.rematch_of(finished)
        await league.rating_changes(finished)
        await league.leaderboard(1, "rookie", offset=0, limit=10)
        await league.rated_players(1, "rookie")
        await league.player_ratings(1, 1)
        await league.rating_history(1, 1, limit=10)
        await league.head_to_head(1, 1, 3)
        for query in ({}, {"game": "rookie"}, {"user_id": 1}, {"game": "rookie", "user_id": 1}):
            await league.recent_results(1, **query)
        await settings.for_guild(1)
        await settings.set_default_clock(1, 60)
        await settings.set_max_timeouts(1, 3)
        await settings.set_dms_closed(1, True)
        await settings.dms_closed(1)
        await settings.get_meta("alive")
        await settings.set_meta("alive", "now")
        await _take_back_a_move(storage)
        await _seasons_achievements_and_tournaments(storage, finished)
    return [sql for sql in statements if sql.split()[0] not in ("BEGIN", "COMMIT", "ROLLBACK")]


async def _seasons_achievements_and_tournaments(storage: Storage, finished: int) -> None:
    """Every query of the seasons, the achievements and the tournaments, each with rows to find."""
    now = datetime(2026, 1, 15, tzinfo=UTC)
    seasons, awards, tournaments = storage.seasons, storage.achievements, storage.tournaments
    season = await seasons.set_kind(1, "monthly", now)
    assert season is not None
    await seasons.current(1)
    await seasons.record_since(1, 1, season.started_at)
    [due] = await seasons.due(now + timedelta(days=40))
    await seasons.end(due.id, now + timedelta(days=40))
    await seasons.get(due.id)
    await seasons.ended(1)
    await seasons.standings(due.id, "*", offset=0, limit=10)
    await seasons.standing_count(due.id, "*")
    await seasons.placings(1, 1)
    [match_id] = await awards.unawarded("2100-01-01T00:00:00+00:00")
    [played] = await awards.finished([match_id])
    await awards.player_results(1, [1, 3])
    await awards.award([Award(1, 1, "league.first_win", played.finished_at, match_id)], [match_id])
    await awards.earned(1, 1)
    await awards.rarity(1)
    opened = await tournaments.open(
        guild_id=1,
        channel_id=2,
        organizer_id=1,
        game="rookie",
        format="swiss",
        seats=2,
        rounds=1,
        clock_s=None,
        options={},
        language="en",
    )
    assert not isinstance(opened, int)
    await tournaments.set_message(opened.id, 7)
    for user in (1, 3):
        await tournaments.join(opened.id, user, rating=1000, joined=1, max_entrants=64)
    await tournaments.start(opened.id, {1: 1000.0, 3: 1000.0}, rounds=1)
    await tournaments.add_round(opened.id, 1, [((1, 3), None)], ())
    await tournaments.set_match(opened.id, 1, 0, finished)
    await tournaments.table_of(finished)
    await tournaments.outcome(finished)
    await tournaments.record(opened.id, 1, 0, (1, 2))
    await tournaments.running()
    await tournaments.latest(1)
    await tournaments.latest(1, 1)
    await tournaments.withdraw(opened.id, 3, left=2)
    await tournaments.get(opened.id)
    await tournaments.close(opened.id, "finished", was="running")


async def test_every_query_finds_its_rows_through_an_index_and_every_index_serves_a_query(storage):
    used: set[str] = set()
    tables = {row[0] for row in await sql(storage, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    for statement in dict.fromkeys(await _every_query(storage)):
        for _, _, detail in await _plan(storage, statement):
            words = detail.split()
            # A SCAN of a table reads all of it: only VALUES rows, a CTE's few rows and the rows of a
            # subquery (found through an index first) may be scanned.
            assert words[0] != "SCAN" or words[-2:] == ["CONSTANT", "ROWS"] or words[1] not in tables, (
                statement,
                detail,
            )
            if "INDEX" in words:
                used.add(words[words.index("INDEX") + 1])
    created = await _created_indexes(storage)
    assert set(created) <= used, f"indexes no query uses: {set(created) - used}"


async def test_no_index_repeats_the_start_of_another_index_or_of_a_key(storage):
    keys = await _all_index_columns(storage)
    rules = await _partial_unique_indexes(storage)  # they enforce a rule on some rows, not a lookup
    for name in await _created_indexes(storage):
        if name in rules:
            continue
        for other, columns in keys.items():
            if other != name and columns[: len(keys[name])] == keys[name]:
                pytest.fail(f"{name} {keys[name]} is a prefix of {other} {columns}")


async def test_a_servers_results_by_time_have_an_index_and_the_redundant_ones_are_gone(storage):
    created = await _created_indexes(storage)
    assert "results_by_guild_time" in created
    assert not {"ratings_by_board", "matches_by_guild", "matches_by_deadline"} & set(created)


async def _created_indexes(storage: Storage) -> list[str]:
    """The indexes the migrations created (not those SQLite makes for keys and UNIQUE)."""
    rows = await sql(
        storage, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
    )
    return [row[0] for row in rows]


async def _partial_unique_indexes(storage: Storage) -> set[str]:
    """The UNIQUE indexes over some rows only (e.g. one season under way per server)."""
    tables = await sql(storage, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {
        index[1]
        for (table,) in tables
        for index in await sql(storage, f"PRAGMA index_list({table})")
        if index[2] and index[4]
    }


async def _all_index_columns(storage: Storage) -> dict[str, list[Any]]:
    """Every index's key columns (an expression as its position), keys and UNIQUEs included."""
    found: dict[str, list[Any]] = {}
    tables = await sql(storage, "SELECT name FROM sqlite_master WHERE type = 'table'")
    for (table,) in tables:
        for index in await sql(storage, f"PRAGMA index_list({table})"):
            info = await sql(storage, f"PRAGMA index_xinfo({index[1]})")
            found[index[1]] = [
                (table, row[2] if row[2] is not None else f"expression {index[1]}.{row[0]}", row[3])
                for row in info
                if row[5]  # key columns, not the rowid SQLite appends
            ]
    return found


async def _take_back_a_move(storage: Storage) -> None:
    """Every query of taking a move back: asked, accepted, declined, lapsed and counted."""
    takebacks, match_id = storage.takebacks, await running_match(storage, (1, 3))
    await storage.matches.record_move(match_id, turn=0, seat=0, user_id=1, move={}, state="{}")
    asked = await takebacks.ask(match_id, turn=0, user_id=1, asked=[3])
    assert asked is not None
    await takebacks.set_message(asked.id, 7)
    await takebacks.pending()
    await takebacks.get(asked.id)
    await takebacks.accept(asked.id, 3)
    await takebacks.take_back(asked.id, user_id=3, state="{}", deadline=None)
    await takebacks.close(asked.id, "lapsed", None)
    await takebacks.count(1, 1)
