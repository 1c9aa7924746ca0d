"""Computer seats through the real bot: opened with `new`, added in the lobby, playing a
natural moment after their turn comes, replacing a player who walked away, surviving a
restart, and left out of the ratings."""

from __future__ import annotations

import discord
import pytest

from bot import create_bot
from tests.e2e.helpers import (
    body,
    button_labels,
    channel_message,
    components,
    field,
    fields,
    footer,
    footer_move,
    forge,
    mover,
    play_on_board,
    roster,
    told,
)

TWO_MINUTES = 120
# Every game's `new` command, and the options its tests use.
GAMES = {
    "tetrislink": {"dice": False},
    "tremember": {},
    "rookie": {},
    "triominos": {},
    "sequence": {},
}


def menu_of(lobby) -> discord.SelectMenu:
    return next(c for c in components(lobby) if isinstance(c, discord.SelectMenu))


async def test_a_member_alone_against_three_computers_finishes_a_match(table):
    opened = await table.alice.slash(table.channel, "tetrislink new", dice=False, computers=3, level="easy")
    lobby = opened.response.message
    assert players_field_lines(lobby) == [
        f"<@{table.alice.user.id}> (host)",
        "🤖 Computer (easy)",
        "🤖 Computer (easy)",
        "🤖 Computer (easy)",
    ]
    await table.alice.click(lobby, label="Start")
    board = channel_message(table.channel, lobby.id)
    assert "🤖 Computer (easy)" in roster(board)

    for _ in range(400):
        board = channel_message(table.channel, lobby.id)
        if "**Game over**" in body(board):
            break
        if mover(board, table.players) is table.alice:
            await play_on_board(table.alice, table.channel, lobby.id)
        else:
            await table.env.advance_time(5)
    board = channel_message(table.channel, lobby.id)
    assert "**Game over**" in body(board)
    assert len(fields(board)) == 1  # no ratings field: a match with computers is unrated
    pings = [m for m in table.channel.history() if "your turn" in (m.content or "")]
    assert all("Computer" not in m.content and "<@-" not in m.content for m in pings)

    leaderboard = await table.alice.slash(table.channel, "leaderboard")
    assert "Nobody is listed here yet" in body(leaderboard.response)
    stats = await table.alice.slash(table.channel, "stats")
    assert field(stats.response, "With computers (unrated)").endswith("/ 1 game")
    recent = field(stats.response, "Recent results")
    assert "unrated" in recent and "🤖 Computer (easy)" in recent


def players_field_lines(lobby) -> list[str]:
    """The lobby's seats, each without its seat marker."""
    text = body(lobby).split("**Players", 1)[1].split("\n\n", 1)[0]
    return [line.split(" · ", 1)[1] for line in text.splitlines()[1:]]


async def test_a_computer_waits_a_natural_moment_before_it_moves(table):
    opened = await table.alice.slash(table.channel, "tetrislink new", dice=False, computers=1)
    await table.alice.click(opened.response.message, label="Start")
    board_id = opened.response.message.id
    board = channel_message(table.channel, board_id)
    if mover(board, table.players) is table.alice:
        await play_on_board(table.alice, table.channel, board_id)
    assert footer_move(channel_message(table.channel, board_id)) in (0, 1)
    before = footer_move(channel_message(table.channel, board_id))

    await table.env.advance_time(1)
    assert footer_move(channel_message(table.channel, board_id)) == before  # still reading the board
    await table.env.advance_time(5)
    board = channel_message(table.channel, board_id)
    assert footer_move(board) == before + 1
    assert mover(board, table.players) is table.alice


async def test_a_computer_deciding_when_the_bot_restarts_moves_once_after_it(table, target):
    opened = await table.alice.slash(table.channel, "tetrislink new", dice=False, computers=1, level="hard")
    await table.alice.click(opened.response.message, label="Start")
    board_id = opened.response.message.id
    if mover(channel_message(table.channel, board_id), table.players) is table.alice:
        await play_on_board(table.alice, table.channel, board_id)
    before = footer_move(channel_message(table.channel, board_id))

    await table.env.restart_bot(create_bot(database=target))  # mid-decision: nothing played yet
    assert footer_move(channel_message(table.channel, board_id)) == before
    await table.env.advance_time(30)

    board = channel_message(table.channel, board_id)
    assert footer_move(board) == before + 1  # played once, not twice
    assert mover(board, table.players) is table.alice
    match_id = int(footer(board).split()[1])
    log = await table.env.bot.storage.matches.move_log(match_id)
    assert len(log) == before + 1


def boards_shown(env) -> str:
    """Every board text the bot posted or edited in, oldest first."""
    payloads = [request.json for request in env.http_requests if isinstance(request.json, dict)]
    return "\n".join(body(payload) for payload in payloads)


@pytest.mark.parametrize("command", GAMES)
async def test_a_player_who_walks_away_is_replaced_by_a_computer_and_the_match_ends(table, command):
    opened = await table.alice.slash(table.channel, f"{command} new", clock=TWO_MINUTES, **GAMES[command])
    lobby = opened.response.message
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")

    for _ in range(200):  # both walk away: the clock plays for them, then computers take over
        if "**Game over**" in body(channel_message(table.channel, lobby.id)):
            break
        await table.env.advance_time(TWO_MINUTES + 15)
    board = channel_message(table.channel, lobby.id)
    assert "**Game over**" in body(board)
    for person in (table.alice, table.bob):
        said = f"<@{person.user.id}> ran out of time 3 times in a row: that counts as resigning, and 🤖"
        assert said in boards_shown(table.env)
        assert f"<@{person.user.id}>" not in roster(board)
    assert roster(board).count("🤖 Computer (normal)") == 2
    assert len(fields(board)) == 1  # no ratings: both left before making a move of their own
    assert "Abandoned before everyone had made two moves" in body(board)


async def test_the_host_seats_and_removes_computers_with_the_lobby_menu(table):
    opened = await table.alice.slash(table.channel, "tetrislink new")
    lobby = opened.response.message
    menu = menu_of(lobby)
    assert [option.value for option in menu.options] == ["easy", "normal", "hard", "remove"]

    refused = await table.bob.select(lobby, ["hard"], custom_id=menu.custom_id)
    assert "Only the host" in told(refused)
    await table.alice.select(lobby, ["hard"], custom_id=menu.custom_id)
    await table.alice.select(lobby, ["easy"], custom_id=menu.custom_id)
    lobby = channel_message(table.channel, lobby.id)
    assert players_field_lines(lobby)[1:] == ["🤖 Computer (hard)", "🤖 Computer (easy)"]

    await table.alice.select(lobby, ["remove"], custom_id=menu.custom_id)
    lobby = channel_message(table.channel, lobby.id)
    assert players_field_lines(lobby)[1:] == ["🤖 Computer (hard)"]

    forged = await forge(table.alice, lobby, menu.custom_id, values=["grandmaster"])
    assert "no longer on offer" in told(forged)
    for level in ("normal", "normal"):
        await table.alice.select(lobby, [level], custom_id=menu.custom_id)
    full = await table.alice.select(lobby, ["easy"], custom_id=menu.custom_id)
    assert "This lobby is full" in told(full)
    assert "Start" in button_labels(channel_message(table.channel, lobby.id))


async def test_new_fills_every_other_seat_with_computers_when_asked(table):
    result = await table.alice.slash(table.channel, "sequence new", computers=5, level="hard")
    lobby = result.response.message
    assert players_field_lines(lobby)[1:] == ["🤖 Computer (hard)"] * 5
    joined = await table.bob.click(lobby, label="Join")
    assert "This lobby is full" in told(joined)


async def test_a_computer_player_that_fails_still_plays_its_turn(table, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the player is broken")

    monkeypatch.setattr("matches.computers.ai.choose", broken)
    opened = await table.alice.slash(table.channel, "tetrislink new", dice=False, computers=1)
    await table.alice.click(opened.response.message, label="Start")
    board_id = opened.response.message.id
    if mover(channel_message(table.channel, board_id), table.players) is table.alice:
        await play_on_board(table.alice, table.channel, board_id)
    before = footer_move(channel_message(table.channel, board_id))
    await table.env.advance_time(6)

    assert footer_move(channel_message(table.channel, board_id)) == before + 1
    failures = [r for r in caplog.get_records("call") if r.levelname == "ERROR"]
    assert failures and "computer player of match" in failures[0].getMessage()
    caplog.clear()


async def test_a_rematch_against_computers_seats_them_again(table):
    opened = await table.alice.slash(table.channel, "tetrislink new", dice=False, computers=1, level="hard")
    await table.alice.click(opened.response.message, label="Start")
    board = channel_message(table.channel, opened.response.message.id)
    asked = await table.alice.click(board, label="Resign")
    await table.alice.click(asked.response.message, label="Yes, resign")
    board = channel_message(table.channel, board.id)
    assert "**Game over** — 🤖 Computer (hard) wins by resignation!" in body(board)

    again = await table.alice.click(board, label="Rematch")
    lobby = again.response.message
    assert players_field_lines(lobby) == [f"<@{table.alice.user.id}> (host)", "🤖 Computer (hard)"]
    started = await table.alice.click(lobby, label="Start")
    assert started.acknowledged
    assert "**Turn 1:**" in body(channel_message(table.channel, lobby.id))
