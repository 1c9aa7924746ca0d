"""Hints through the real bot: the move the normal computer would make for the player to move,
shown to them alone, counted, and what it does to the rating."""

from __future__ import annotations

import random

import discord
import pytest

from bot import create_bot
from cogs.registry import GAMES
from tests.backends import raw
from tests.e2e.helpers import (
    body,
    button_labels,
    channel_message,
    components,
    field,
    footer_move,
    forge,
    mover,
    open_and_start,
    play_on_board,
    told,
)
from tests.registry import TWINS

COMMANDS = {
    "tremember": "tremember new",
    "tetris_link": "tetrislink new",
    "rookie": "rookie new",
    "triominos": "triominos new",
    "sequence_numbers": "sequence new",
}
PRIVATE_LABELS = {
    "tremember": "Show my card",
    "tetris_link": "My pieces",
    "rookie": "My stacks",
    "triominos": "My hand",
    "sequence_numbers": "My hand",
}
CONFIRM = "A hint makes this match unrated unless you lose it. Show the hint?"
RATED_NOTE = "This match is unrated now unless you lose it."


async def press_hint(member, channel, board, game: str):
    """Press 💡 Hint: under the board in a game without secrets, else in the private reply."""
    board = channel_message(channel, board.id)
    if "Hint" in button_labels(board):
        return await member.click(board, label="Hint")
    shown = await member.click(board, label=PRIVATE_LABELS[game])
    assert "Hint" in button_labels(shown.response.message), told(shown)
    return await member.click(shown.response.message, label="Hint")


async def confirmed_hint(member, channel, board, game: str) -> str:
    """A first hint in a rated match: asked, confirmed, shown; returns what it said."""
    asked = await press_hint(member, channel, board, game)
    assert told(asked) == CONFIRM
    shown = await member.click(asked.response.message, label="Show the hint")
    assert shown.acknowledged
    return told(shown)


async def two_moves_each(channel, board, members) -> None:
    """Enough moves for a resignation to leave the match rated."""
    for _ in range(4):
        await play_on_board(mover(channel_message(channel, board.id), members), channel, board.id)


async def play_any(member, channel, board_id: int) -> None:
    """One move on the board: the first option of its last menu or button row."""
    board = channel_message(channel, board_id)
    offered = [c for c in components(board) if (c.custom_id or "").startswith("m:") and not c.disabled]
    choice = offered[-1]
    if isinstance(choice, discord.SelectMenu):
        result = await member.select(board, [choice.options[0].value], custom_id=choice.custom_id)
    else:
        result = await member.click(board, custom_id=choice.custom_id)
    assert result.acknowledged and footer_move(channel_message(channel, board_id)) == footer_move(board) + 1


async def resign(member, channel, board) -> None:
    asked = await member.click(channel_message(channel, board.id), label="Resign")
    await member.click(asked.response.message, label="Yes, resign")


def normal_move_in_words(table, player) -> str:
    """What the normal computer would play in the player's seat at the start, and why, worded
    by the game's cog: from the seat's own view, with the generator of that match, turn and seat."""
    match = next(iter(table.env.bot.matches.running.values()))
    spec, seat = GAMES[match.row.game], match.seat_of(player.user.id)
    views = [match.view(seat)]
    legal = match.engine.legal_moves(match.state, seat)
    move = spec.choose("normal", views, legal, random.Random(f"{match.row.seed}:0:{seat}"))
    words = table.env.bot.matches.games[spec.name]
    return words.hint_text(views[0], move, spec.explain(views, move), "en")


@pytest.mark.parametrize("game", list(COMMANDS))
async def test_the_player_to_move_gets_the_normal_computers_move_and_why(table, game):
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], COMMANDS[game])
    player = mover(board, members)
    said = await confirmed_hint(player, table.channel, board, game)
    hint, _, note = said.partition("\n")
    assert hint == f"💡 **Hint:** {normal_move_in_words(table, player)}"
    assert note == RATED_NOTE
    on_board = "Hint" in button_labels(channel_message(table.channel, board.id))
    assert on_board == (not GAMES[game].secrets)  # under the board only where nothing is secret


@pytest.mark.parametrize("game", ["triominos", "sequence_numbers", "tremember"])
async def test_twin_positions_differing_only_in_hidden_cards_give_the_same_hint(table, target, seed, game):
    seed(11)
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], COMMANDS[game])
    if game == "tremember":  # a card taken (its face shown to its taker alone) and pushed back
        for _ in range(2):
            await play_any(mover(channel_message(table.channel, board.id), members), table.channel, board.id)
    player = mover(channel_message(table.channel, board.id), members)
    first = await confirmed_hint(player, table.channel, board, game)

    match = next(iter(table.env.bot.matches.running.values()))
    seat, engine = match.seat_of(player.user.id), match.engine
    twin = TWINS[game](match.state, seat, random.Random(3))
    assert engine.dump(twin) != engine.dump(match.state) and engine.view(twin, seat) == match.view(seat)
    await raw(target, "UPDATE matches SET state = ? WHERE id = ?", engine.dump(twin), match.id)
    await table.env.restart_bot(create_bot(database=target))  # nothing of the first hint is kept in memory

    again = await press_hint(player, table.channel, board, game)  # no question: a hint was used already
    assert told(again) == first


async def test_a_hint_is_refused_to_a_player_not_to_move_a_member_not_playing_and_once_it_is_over(table):
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, members)
    waiting = table.bob if player is table.alice else table.alice
    refused = await waiting.click(board, label="Hint")
    assert "It is not your turn" in told(refused)
    outsider = await table.carol.click(board, label="Hint")
    assert "You are not playing in this match" in told(outsider)

    hint = next(c for c in components(board) if c.label == "Hint")
    await resign(waiting, table.channel, board)
    over = await forge(player, channel_message(table.channel, board.id), hint.custom_id)  # a stale client
    assert "This match is over" in told(over)


async def test_pressing_twice_on_one_turn_shows_the_same_hint_and_counts_once(table):
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await two_moves_each(table.channel, board, members)
    player = mover(channel_message(table.channel, board.id), members)
    first = await confirmed_hint(player, table.channel, board, "tetris_link")
    again = await press_hint(player, table.channel, board, "tetris_link")
    assert told(again) == first

    await resign(player, table.channel, board)
    final = channel_message(table.channel, board.id)
    assert f"<@{player.user.id}> used 1 hint." in body(final)


async def test_a_hinter_who_loses_leaves_the_match_rated(table):
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await two_moves_each(table.channel, board, members)
    player = mover(channel_message(table.channel, board.id), members)
    await confirmed_hint(player, table.channel, board, "tetris_link")
    await resign(player, table.channel, board)

    final = channel_message(table.channel, board.id)
    assert "→" in field(final, "Ratings")  # rating changes, not a reason it is unrated
    assert f"<@{player.user.id}> used 1 hint." in body(final)
    stats = await player.slash(table.channel, "stats")
    assert field(stats.response, "💡 Hints") == "1 hint used in finished matches"


async def test_a_hinter_who_wins_leaves_the_match_unrated(table):
    members = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    await two_moves_each(table.channel, board, members)
    player = mover(channel_message(table.channel, board.id), members)
    await confirmed_hint(player, table.channel, board, "tetris_link")
    other = table.bob if player is table.alice else table.alice
    await resign(other, table.channel, board)

    final = channel_message(table.channel, board.id)
    assert field(final, "Ratings") == "unrated: a player who used hints did not lose"
    history = await other.slash(table.channel, "history")
    assert "unrated: a player who used hints did not lose" in body(history.response.message)


async def test_a_match_with_a_computer_needs_no_confirmation_and_hint_counts_survive_a_restart(table, target):
    board = await open_and_start(table.channel, table.alice, [], "tetrislink new", dice=False, computers=1)
    await table.env.advance_time(6)  # the computer's move, if it goes first
    assert mover(channel_message(table.channel, board.id), [table.alice]) is table.alice
    shown = await press_hint(table.alice, table.channel, board, "tetris_link")
    assert told(shown).startswith("💡 **Hint:** ") and RATED_NOTE not in told(shown)

    await table.env.restart_bot(create_bot(database=target))
    await resign(table.alice, table.channel, board)
    final = channel_message(table.channel, board.id)
    assert f"<@{table.alice.user.id}> used 1 hint." in body(final)
    stats = await table.alice.slash(table.channel, "stats")
    assert field(stats.response, "💡 Hints") == "1 hint used in finished matches"


@pytest.mark.parametrize(
    ("locale", "asked", "show", "said"),
    [
        (
            "de",
            "Nach einem Tipp bleibt diese Partie ohne Wertung",
            "Tipp zeigen",
            "💡 **Tipp:** Steck ",
        ),
        (
            "fr",
            "Avec un indice, cette partie ne sera pas classée",
            "Voir l’indice",
            "💡 **Indice\u00a0:** Lâche ",
        ),
    ],
)
async def test_the_hint_speaks_the_language_of_the_players_client(
    table, client_locales, locale, asked, show, said
):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = client_locales.speak(mover(board, [table.alice, table.bob]), locale)
    question = await player.click(board, label="Hint")  # the board speaks the server's language
    assert told(question).startswith(asked)
    shown = await player.click(question.response.message, label=show)
    assert told(shown).startswith(said)
