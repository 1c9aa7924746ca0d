"""Nothing leaves the bot dead, stuck or silent: forged presses, stale confirmations, boards
that cannot be edited, unreadable stored matches, a busy database and a failing clock.

Each test reproduces one defect through SimCord; the database faults are real ones (another
connection holding the write lock on the same SQLite file)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from matches.match import seat_name
from tests.e2e.helpers import (
    all_text,
    body,
    button_labels,
    channel_message,
    components,
    fields,
    footer,
    forge,
    mover,
    open_and_start,
    title,
    told,
)
from tests.e2e.test_tremember import cells_offered, choose, running_match, start, take_a_card
from tests.registry import ENGINES

BUSY = "try again"


@pytest.fixture
def backend() -> str:
    """These faults are made by hand in the SQLite file (its own locks, its own rows); the
    storage tests cover the same faults on PostgreSQL."""
    return "sqlite"


@contextlib.contextmanager
def write_lock(database: Path) -> Iterator[None]:
    """Another process holding the database's write lock (as a backup tool or a second bot might)."""
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def short_busy_timeout(table: Any) -> None:
    """Give up on a held lock after 50 ms instead of 5 s, so the fault shows at once."""
    await table.env.bot.storage.on_sqlite(lambda connection: connection.execute("PRAGMA busy_timeout = 50"))


def custom_ids(message: Any) -> list[str]:
    return [child.custom_id for child in components(message)]


def current_footer(table: Any, board: Any) -> str:
    return footer(channel_message(table.channel, board.id))


# --- forged and stale presses ------------------------------------------------------------------


async def test_a_press_no_component_takes_is_answered_privately(table):
    board = await start(table)
    player = mover(board, table.players)
    match_id = title(board).rsplit("#", 1)[1]
    for custom_id in (
        "zzz",  # fits no template at all
        f"g:tremember:{10**30}:0:_private",  # a number no template accepts
        f"m:{match_id}:0:b:0::{10**30}",
        f"lobby:{10**20}:join",
        "lb:chess:0",  # a leaderboard of a game nobody hosts
    ):
        answered = await forge(player, board, custom_id)
        assert answered.acknowledged and told(answered), custom_id
    assert current_footer(table, board).endswith("move 0")


async def test_a_member_of_another_server_cannot_join_a_lobby_by_a_forged_id(table):
    lobby = (await table.alice.slash(table.channel, "tremember new")).response.message
    elsewhere = table.env.create_guild("Elsewhere")
    mallory = elsewhere.add_member(table.env.create_user("mallory"))
    note = await mallory.slash(elsewhere.create_text_channel("general"), "help")
    buttons = [c for c in components(lobby) if isinstance(c, discord.Button)]
    join_id = next(c.custom_id for c in buttons if c.label == "Join")

    refused = await forge(mallory, note.response.message, join_id)

    assert "lobby is closed" in told(refused)
    assert "<@" + str(mallory.user.id) not in body(channel_message(table.channel, lobby.id))


async def test_a_stale_resign_confirmation_is_refused_after_the_game_moved_on(table):
    board = await start(table)
    player = mover(board, table.players)
    waiting = next(m for m in table.players[:2] if m is not player)
    asked = await waiting.click(board, label="Resign")
    await take_a_card(table, board.id)

    late = await waiting.click(asked.response.message, label="Yes, resign")

    assert "out of date" in told(late)
    board = channel_message(table.channel, board.id)
    assert "resigned" not in body(board) and "move 1" in footer(board)


async def test_a_resign_confirmed_while_a_move_is_being_made_is_refused(table):
    board = await start(table)
    player = mover(board, table.players)
    waiting = next(m for m in table.players[:2] if m is not player)
    asked = await waiting.click(board, label="Resign")
    match = running_match(table, board)
    seat = match.engine.current_seats(match.state)[0]
    move = match.engine.legal_moves(match.state, seat)[0]

    async with match.lock:  # a move is under way when the confirmation comes
        late = asyncio.create_task(waiting.click(asked.response.message, label="Yes, resign"))
        while not match.lock._waiters:  # the confirmation now waits for that move
            await asyncio.sleep(0)
        state = match.engine.apply(match.state, seat, move)
        assert await table.env.bot.matches.turns.commit(match, seat, player.user.id, move, state)

    assert "moved on" in told(await late)
    assert seat_name(table.players.index(waiting)) not in str(
        match.engine.view(match.state, None)["resigned"]
    )
    assert not match.engine.view(match.state, None)["resigned"] and match.turn == 1


async def test_a_refused_pick_in_a_menu_is_cleared_and_explained(table):
    board = await start(table)
    player = mover(board, table.players)
    waiting = next(m for m in table.players[:2] if m is not player)

    refused = await choose(table, board.id, cells_offered(board)[0], player=waiting)

    assert "not your turn" in told(refused)
    assert not refused.ephemeral and refused.response.id == board.id  # the menu was redrawn as it was
    assert custom_ids(channel_message(table.channel, board.id)) == custom_ids(board)


# --- boards that cannot be edited ------------------------------------------------------------


async def test_a_deleted_board_is_posted_again_when_the_clock_plays(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tremember new", clock=120)
    moderator = table.guild.add_member(table.guild.owner)
    await moderator.delete(board)

    await table.env.advance_time(130)

    fresh = table.channel.history()[-2]  # then the ping of the player now due
    assert title(fresh) == title(board) and "ran out of time" in body(fresh)
    assert not footer(fresh).endswith("move 0") and "Resign" in button_labels(fresh)
    assert running_match(table, fresh).row.message_id == fresh.id
    assert str(fresh.id) in table.channel.history()[-1].content  # the ping links the new board


async def test_a_board_edit_that_fails_is_redrawn_by_the_clock(table):
    board = await start(table)
    table.env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500)

    took = await take_a_card(table, board.id)

    assert "could not be redrawn" in told(took)
    assert "move 0" in current_footer(table, board)  # the move is saved, the board is behind
    await table.env.advance_time(20)
    assert "move 1" in current_footer(table, board)


async def test_a_board_left_behind_is_redrawn_after_a_restart(table, database):
    board = await start(table)
    table.env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500)
    await take_a_card(table, board.id)

    await table.env.restart_bot(create_bot(database=database))  # before the clock's next beat
    assert "move 0" in current_footer(table, board)
    await table.env.advance_time(20)

    assert "move 1" in current_footer(table, board)


# --- stored matches that cannot be read ------------------------------------------------------


def damage(database: Path, match_id: int, column: str, value: str) -> None:
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        connection.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (value, match_id))


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("state", "not a saved game", "stored position is unreadable"),
        ("options", "{", "options are unreadable"),
        ("game", "chess", "no longer hosts its game"),
    ],
)
async def test_an_unreadable_match_is_set_aside_at_restart_and_the_others_play_on(
    table, database, column, value, reason
):
    broken = await start(table)
    other_board = await open_and_start(table.channel, table.carol, [table.dave], "tremember new")
    broken_id = int(title(broken).rsplit("#", 1)[1])
    damage(database, broken_id, column, value)

    await table.env.restart_bot(create_bot(database=database))

    note = next(m for m in table.channel.history() if f"#{broken_id}** could not be resumed" in m.content)
    assert reason in note.content and f"<@{table.alice.user.id}>" in note.content
    assert broken_id not in table.env.bot.matches.running
    took = await take_a_card(table, other_board.id)
    assert took.acknowledged and "move 1" in current_footer(table, other_board)
    listed = await table.alice.slash(table.channel, "matches")
    assert f"#{broken_id}" not in told(listed) + all_text(listed.response)


async def test_lists_show_a_finished_match_of_a_game_no_longer_hosted(table, database):
    board = await start(table)
    resigned = await table.alice.click(board, label="Resign")
    await table.alice.click(resigned.response.message, label="Yes, resign")
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        for table_name in ("matches", "results", "ratings"):
            connection.execute(f"UPDATE {table_name} SET game = 'chess' WHERE game = 'tremember'")

    for command in ("history", "stats", "matches", "leaderboard"):
        shown = await table.bob.slash(table.channel, command)
        assert shown.acknowledged, command
    history = await table.bob.slash(table.channel, "history")
    assert "chess (no longer hosted)" in body(history.response)


async def test_a_lobby_of_a_game_no_longer_hosted_refuses_a_join_politely(table, database):
    lobby = (await table.alice.slash(table.channel, "tremember new")).response.message
    damage(database, int(footer(lobby).rsplit(" ", 1)[1]), "game", "chess")

    refused = await table.bob.click(lobby, label="Join")

    assert "lobby is closed" in told(refused)


# --- database faults -------------------------------------------------------------------------


async def test_a_busy_database_answers_try_again_and_loses_nothing(table, database, caplog):
    board = await start(table)
    player = mover(board, table.players)
    await short_busy_timeout(table)
    menu = next(c for c in components(board) if isinstance(c, discord.SelectMenu))

    with write_lock(database):
        refused = await player.select(board, [menu.options[0].value], custom_id=menu.custom_id)

    assert BUSY in told(refused) and "move 0" in current_footer(table, board)
    took = await player.select(
        channel_message(table.channel, board.id), [menu.options[0].value], custom_id=menu.custom_id
    )
    assert took.acknowledged and "move 1" in current_footer(table, board)
    assert any("database fault" in record.getMessage() for record in caplog.records)


async def test_a_slash_command_that_meets_a_busy_database_is_answered_try_again(table, database, caplog):
    owner = table.guild.add_member(table.guild.owner)
    await short_busy_timeout(table)

    with write_lock(database):
        refused = await owner.slash(table.channel, "settings clock", clock=600)

    assert refused.ephemeral and BUSY in told(refused)
    assert any("/clock met a database fault" in record.getMessage() for record in caplog.records)
    [raised] = table.env.errors  # what the command raised, answered by the tree (seen, and so taken)
    assert "busy" in str(raised)
    said = told(await owner.slash(table.channel, "settings clock", clock=600))  # the lock is gone
    assert said == "New matches now get 10 minutes per move by default."


async def test_a_busy_database_is_said_in_the_members_own_language(table, database, client_locales):
    board = await start(table)
    player = client_locales.speak(mover(board, table.players), "fr")
    await short_busy_timeout(table)
    menu = next(c for c in components(board) if isinstance(c, discord.SelectMenu))

    with write_lock(database):
        refused = await player.select(board, [menu.options[0].value], custom_id=menu.custom_id)

    assert "rien n’a été enregistré" in told(refused) and "move 0" in current_footer(table, board)


async def test_the_clock_goes_on_after_a_failed_database_write(table, database):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tremember new", clock=120)
    player = mover(board, table.players)
    await short_busy_timeout(table)

    with write_lock(database):
        await table.env.advance_time(130)  # the time-out cannot be saved now
    assert "move 0" in current_footer(table, board)

    await table.env.advance_time(20)  # the next beat does it
    board = channel_message(table.channel, board.id)
    assert "ran out of time" in body(board) and mover(board, table.players) is not player


# --- texts -----------------------------------------------------------------------------------


async def test_help_and_lobbies_name_the_real_seat_counts_and_commands(table):
    shown = await table.alice.slash(table.channel, "help")
    names = [part.name for part in fields(shown.response)]
    assert "Sequence Numbers (2, 3, 4 or 6 players)" in names
    assert f"Tremember ({ENGINES['tremember'].min_players}–6 players)" in names
    lobby = (await table.alice.slash(table.channel, "sequence new")).response.message
    assert "once 2, 3, 4 or 6 players are seated" in body(lobby)

    board = await start(table)
    outsider = await choose(table, board.id, cells_offered(board)[0], player=table.carol)
    assert "start your own with `/tremember new`" in told(outsider)


def test_seat_names_never_fail_past_the_sixth_seat():
    assert seat_name(0) == "🟦 A" and seat_name(6) == "seat 7"


@pytest.fixture(autouse=True)
def quiet_expected_warnings(caplog):
    caplog.set_level(logging.WARNING)


async def test_an_unreadable_note_of_the_last_heartbeat_does_not_stop_a_restart(table, database):
    board = await start(table)
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        changed = connection.execute("UPDATE meta SET value = 'yesterday' WHERE key = 'alive_at'").rowcount
    assert changed == 1

    await table.env.restart_bot(create_bot(database=database))

    took = await take_a_card(table, board.id)
    assert took.acknowledged and "move 1" in current_footer(table, board)
