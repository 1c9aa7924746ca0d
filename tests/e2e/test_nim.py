"""A sixth game that lives only in the tests (Nim, tests/nim/game.py) joins the bot through its
spec alone — `create_bot(games=...)` — and plays end to end: slash command, lobby, joins, moves
by clicks, the result, and its rating in the server's league."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from bot import create_bot
from matches.spec import Games
from tests.e2e.helpers import (
    body,
    button_labels,
    channel_message,
    field,
    fields,
    mover,
    open_and_start,
    roster,
    title,
    told,
)
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
    helped = (await table.carol.slash(table.channel, "help")).response
    assert any(field.name.startswith("Nim (") and "/nim new" in field.value for field in fields(helped))
    rules = (await table.carol.slash(table.channel, "nim rules")).response
    assert title(rules) == "Nim — rules" and "last stone wins" in body(rules)

    players = [table.alice, table.bob]
    board = await open_and_start(table.channel, table.alice, [table.bob], "nim new")
    assert title(board).startswith("Nim #") and board.attachments
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
    assert f"<@{first.user.id}>" in roster(ended)
    assert "(+" in field(ended, "Ratings")
    one_game = (await table.dave.slash(table.channel, "leaderboard", game="nim")).response
    assert title(one_game) == "Leaderboard — Nim"
    stats = (await table.dave.slash(table.channel, "stats", member=first)).response
    assert any(field.name == "Nim" and "provisional rating" in field.value for field in fields(stats))
    assert any(field.name == "Nim" and "1 win / 1 game" in field.value for field in fields(stats))
    for lang, record in (("de", "1 Sieg / 1 Partie"), ("fr", "1 victoire / 1 partie")):
        asked = await client_locales.speak(table.dave, lang).slash(table.channel, "stats", member=first)
        assert any(field.name == "Nim" and record in field.value for field in fields(asked.response))
    history = (await table.carol.slash(table.channel, "history", game="nim")).response
    assert "**Nim #" in body(history) and "🏆" in body(history)


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
