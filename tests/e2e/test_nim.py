"""A sixth game that lives only in the tests (Nim, tests/nim/game.py) joins the bot through its
spec alone — `create_bot(games=...)` — and plays end to end: slash command, lobby, joins, moves
by clicks, the result, and its rating in the server's league."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from bot import create_bot
from matches.spec import Games
from tests.e2e.helpers import button_labels, channel_message, mover, open_and_start, told
from tests.registry import GAMES


@pytest.fixture
def simcord_bot(target):
    return create_bot(database=target, games=GAMES)


async def take(member, channel, board_id: int, count: int) -> None:
    """`member` takes `count` stones with the board's button."""
    board = channel_message(channel, board_id)
    result = await member.click(board, label=f"Take {count}")
    assert result.acknowledged and not told(result), told(result)


async def test_nim_is_listed_opens_a_lobby_and_plays_to_a_rated_result(table, client_locales):
    help_embed = (await table.carol.slash(table.channel, "help")).response.embeds[0]
    assert any(field.name.startswith("Nim (") and "/nim new" in field.value for field in help_embed.fields)
    rules = (await table.carol.slash(table.channel, "nim rules")).response.embeds[0]
    assert rules.title == "Nim — rules" and "last stone wins" in rules.description

    players = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "nim new")
    assert board.embeds[0].title.startswith("Nim #") and board.attachments
    assert button_labels(board)[:3] == ["Take 1", "Take 2", "Take 3"]
    first = mover(board, players)
    second = table.bob if first is table.alice else table.alice
    for _ in range(5):  # 11 stones, two at a time: the first player takes the last one
        for member in (first, second):
            assert mover(channel_message(table.channel, board.id), players) is member
            await take(member, table.channel, board.id, 1)
    await take(first, table.channel, board.id, 1)

    ended = channel_message(table.channel, board.id)
    assert mover(ended, players) is None
    assert f"<@{first.user.id}>" in ended.embeds[0].fields[0].value
    assert ended.embeds[0].fields[1].name == "Ratings" and "(+" in ended.embeds[0].fields[1].value
    one_game = (await table.dave.slash(table.channel, "leaderboard", game="nim")).response
    assert one_game.embeds[0].title == "Leaderboard — Nim"
    stats = (await table.dave.slash(table.channel, "stats", member=first)).response.embeds[0]
    assert any(field.name == "Nim" and "provisional rating" in field.value for field in stats.fields)
    assert any(field.name == "Nim" and "1 win / 1 game" in field.value for field in stats.fields)
    for lang, record in (("de", "1 Sieg / 1 Partie"), ("fr", "1 victoire / 1 partie")):
        asked = await client_locales.speak(table.dave, lang).slash(table.channel, "stats", member=first)
        assert any(field.name == "Nim" and record in field.value for field in asked.response.embeds[0].fields)
    history = (await table.carol.slash(table.channel, "history", game="nim")).response.embeds[0]
    assert "**Nim #" in history.description and "🏆" in history.description


class Preparation:
    """A renderer's start-up work that notes the thread it ran in."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def __call__(self) -> None:
        self.threads.append(threading.current_thread())


async def test_each_renderer_is_prepared_once_off_the_event_loop_before_the_bot_answers(simcord_env, target):
    preparation = Preparation()
    nim_noting = replace(GAMES["nim"], prepare=preparation)
    games = Games(nim_noting if spec.name == "nim" else spec for spec in GAMES.values())
    await simcord_env.restart_bot(create_bot(database=target, games=games))
    assert len(preparation.threads) == 1 and preparation.threads[0] is not threading.main_thread()
