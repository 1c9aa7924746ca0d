"""Matches in the players' languages: a match speaks in public the language of the server it
opened in — its lobby, its board, and the board edited after every move, also after the
server changes its language and after a restart — while each member's private replies speak
their own client's language and their DMs the language they last used with the bot."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import create_bot
from tests.e2e.helpers import (
    body,
    button_labels,
    channel_message,
    fields,
    footer,
    mover,
    open_and_start,
    play_on_board,
    roster,
    title,
    told,
)
from tests.e2e.test_tremember import play_turn, push_back, running_match, take_a_card


@pytest.fixture
def german_server(simcord_env: Any, client_locales: Any) -> tuple[Any, Any, list[Any]]:
    """A server whose language is German, with two German members and a games channel."""
    guild = simcord_env.create_guild("Spieleabend", preferred_locale="de")
    members = [
        client_locales.speak(guild.add_member(simcord_env.create_user(name)), "de")
        for name in ("anna", "ben")
    ]
    return guild, guild.create_text_channel("spiele"), members


async def stored_language(env: Any, match_id: int) -> str:
    row = await env.bot.storage.matches.get(match_id)
    assert row is not None
    return str(row.language)


async def test_a_lobby_opened_in_a_german_server_is_german_and_stored_as_german(simcord_env, german_server):
    _, channel, (anna, _) = german_server

    opened = await anna.slash(channel, "tremember new", clock=0, computers=1, level="easy")
    lobby = opened.response.message
    match_id = int(footer(lobby).rsplit(" ", 1)[1])

    assert title(lobby) == f"Tremember – Lobby #{match_id}"
    assert "🤖 Computer (leicht)" in body(lobby)
    assert "keine Bedenkzeit" in body(lobby)
    assert button_labels(lobby)[0] == "Beitreten"
    assert await stored_language(simcord_env, match_id) == "de"


async def test_a_board_stays_in_the_language_it_was_posted_in_after_the_server_changes_and_a_restart(
    table, client_locales, target
):
    env = table.env
    await env.bot.storage.settings.set_guild_language(table.guild.id, "de")
    lobby = (await table.alice.slash(table.channel, "tremember new")).response.message
    await table.bob.click(lobby, label="Beitreten")
    await table.alice.click(lobby, label="Starten")
    board = channel_message(table.channel, lobby.id)
    assert "Aufgeben" in button_labels(board) and fields(board)[0].name == "Am Tisch"

    await env.bot.storage.settings.set_guild_language(table.guild.id, "fr")  # after it was posted
    await take_a_card(table, board.id)
    taken = channel_message(table.channel, board.id)
    await env.restart_bot(create_bot(database=target))
    await push_back(table, board.id)
    pushed = channel_message(table.channel, board.id)

    for shown in (taken, pushed):
        assert fields(shown)[0].name == "Am Tisch"
    assert button_labels(taken)[-2:] == ["Meine Karte zeigen", "Aufgeben"]
    assert button_labels(pushed)[-3:] == ["Meine Karte zeigen", "Aufgeben", "Zurücknehmen"]  # a push
    assert "Zug 2" in footer(pushed)  # the board after the push, drawn by the new bot
    assert await stored_language(env, running_match(table, pushed).id) == "de"


async def test_a_french_member_of_an_english_server_is_answered_in_french_while_the_match_stays_english(
    table, client_locales
):
    chloe = client_locales.speak(table.bob, "fr")
    opened = await table.alice.slash(table.channel, "tremember new")
    lobby = opened.response.message
    await chloe.click(lobby, label="Join")

    again = await chloe.click(lobby, label="Join")
    english = await table.alice.click(lobby, label="Join")

    assert told(again) == "Tu as déjà une place – attends que l’hôte appuie sur Commencer."
    assert told(english) == "You already have a seat — wait for the host to press Start."
    started = await table.alice.click(lobby, label="Start")
    assert started.acknowledged
    board = channel_message(table.channel, lobby.id)
    assert fields(board)[0].name == "Players" and "Resign" in button_labels(board)

    asked = await chloe.click(board, label="Resign")

    match = running_match(table, board)
    assert told(asked) == f"Abandonner Tremember nº {match.id}\u00a0? Tu ne pourras pas revenir en arrière."
    assert button_labels(asked.response.message) == ["Oui, abandonner"]
    assert await stored_language(table.env, match.id) == "en"


async def test_turn_notices_by_dm_speak_the_language_each_member_last_used(table, client_locales):
    chloe = client_locales.speak(table.bob, "fr")
    board = await open_and_start(table.channel, table.alice, [chloe], "tremember new")
    match = running_match(table, board)
    first = table.alice if match.players[0] == table.alice.user.id else chloe
    if first is table.alice:  # Chloé's turn comes after Alice's
        await play_turn(table, board.id, pair=False)
    dms = [message.content for message in chloe.user.dm_channel.history()]

    assert any(text.startswith(f"C’est ton tour dans **Tremember nº {match.id}**\u00a0:") for text in dms)
    assert not any(text.startswith("Your turn in") for text in dms)


async def test_a_match_in_a_french_server_is_played_in_french_from_the_lobby_to_the_result(
    simcord_env, client_locales
):
    guild = simcord_env.create_guild("Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    chloe, hugo = (
        client_locales.speak(guild.add_member(simcord_env.create_user(name)), "fr")
        for name in ("chloe", "hugo")
    )
    lobby = (await chloe.slash(channel, "tetrislink new", dice=False)).response.message
    assert button_labels(lobby)[0] == "Rejoindre"
    await hugo.click(lobby, label="Rejoindre")
    await chloe.click(lobby, label="Commencer")

    board = channel_message(channel, lobby.id)
    assert fields(board)[0].name == "Joueurs" and "de jouer" in body(board)
    player = mover(board, [chloe, hugo])
    assert player is not None
    await play_on_board(player, channel, board.id)
    board = channel_message(channel, board.id)
    assert footer(board).endswith("coup 1")

    loser = mover(board, [chloe, hugo])
    assert loser is not None
    asked = await loser.click(board, label="Abandonner")
    await loser.click(asked.response.message, label="Oui, abandonner")
    final = channel_message(channel, board.id)
    result = body(final)
    # One move in all: abandoned, unrated — said in French too.
    assert "Abandonnée avant que chacun ait joué deux coups\u00a0: cette partie n’est pas classée." in result
    assert "(a abandonné)" in roster(final)
    assert "resigned" not in result and "game ends" not in result  # what happened, in French too
    history = body((await hugo.slash(channel, "history")).response)
    assert "(abandonnée – non classée)" in history and "(a abandonné)" in history


async def test_titles_and_lists_are_written_the_way_each_language_writes_them(simcord_env, client_locales):
    guild = simcord_env.create_guild("Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    chloe, hugo = (
        client_locales.speak(guild.add_member(simcord_env.create_user(name)), "fr")
        for name in ("chloe", "hugo")
    )
    lobby = (await chloe.slash(channel, "tetrislink new", dice=False)).response.message
    await hugo.click(lobby, label="Rejoindre")
    await chloe.click(lobby, label="Commencer")
    board = channel_message(channel, lobby.id)
    match_id = int(re.findall(r"\d+", footer(board))[0])

    assert title(board) == f"Tetris Link nº\u00a0{match_id}"
    seats = roster(board).splitlines()
    assert all(" · <@" in line and line.endswith(" – 0 point") and "—" not in line for line in seats), seats
    listed = (await chloe.slash(channel, "matches")).response
    line = next(line for field in fields(listed) for line in field.value.splitlines())
    assert line.startswith(f"**Tetris Link nº\u00a0{match_id}** – coup 0 – https://") and "—" not in line

    german = client_locales.speak(hugo, "de")
    asked = await german.click(board, label="Abandonner")
    assert told(asked).startswith(f"Tetris Link #{match_id} aufgeben?")
    await german.click(asked.response.message, label="Ja, aufgeben")
    history = body((await german.slash(channel, "history")).response)
    assert history.startswith(f"**Tetris Link #{match_id}** (abgebrochen – nicht gewertet) – <@")
    assert "—" not in history
