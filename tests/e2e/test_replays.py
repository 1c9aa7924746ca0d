"""Replays on a busy server: made once and kept, condensed when long, and a member who asks
for many new ones is told privately when to ask again."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from render.replay import MAX_FRAMES
from tests.e2e.helpers import (
    body,
    channel_message,
    open_and_start,
    title,
    told,
)
from tests.e2e.test_boards import finished_tremember
from tests.e2e.test_tremember import running_match
from tests.registry import ENGINES, HOSTED
from tests.render.test_replay import far_off_share


def match_number(board: Any) -> int:
    return int(title(board).rsplit("#", 1)[1])


async def picture(message: Any) -> tuple[bytes, str]:
    """The replay attached to `message`: its bytes and description."""
    [attachment] = message.attachments
    assert attachment.filename == "replay.webp"
    return await attachment.read(), attachment.description


def workshop(table: Any) -> Any:
    return table.env.bot.matches.replays.workshop


async def test_a_replay_is_made_once_and_every_later_press_gets_the_same_file(table):
    board = await finished_tremember(table)

    first = await table.carol.click(board, label="Replay")
    again = await table.dave.click(board, label="Replay")
    shared = await table.bob.slash(table.channel, "replay", match=match_number(board))

    made = await picture(first.response.message)
    assert first.ephemeral and again.ephemeral and not shared.ephemeral
    assert await picture(again.response.message) == made == await picture(shared.response.message)
    assert workshop(table).produced == 1


async def test_too_many_new_replays_are_refused_privately_saying_when_to_ask_again(table, client_locales):
    boards = [await finished_tremember(table) for _ in range(4)]
    for board in boards[:3]:
        shown = await table.carol.click(board, label="Replay")
        assert shown.response.message.attachments

    refused = await table.carol.click(boards[3], label="Replay")

    assert refused.ephemeral and not refused.response.message.attachments
    said = told(refused)
    assert said.startswith("You asked for 3 new replays within a minute — you may ask for another in ")
    assert said.endswith(" seconds. Replays already made come at once.")
    kept = await table.carol.click(boards[0], label="Replay")  # made already: free
    assert kept.response.message.attachments
    public = await table.carol.slash(table.channel, "replay", match=match_number(boards[3]))
    assert public.ephemeral and "you may ask for another in" in told(public)  # privately, even so
    await table.env.advance_time(61)
    shown = await table.carol.click(boards[3], label="Replay")
    assert shown.response.message.attachments and workshop(table).produced == 4

    client_locales.speak(table.dave, "de")  # the German replays are new productions
    for board in boards[:3]:
        assert (await table.dave.click(board, label="Replay")).response.message.attachments
    german = await table.dave.click(boards[3], label="Replay")
    assert told(german).startswith("Du hast innerhalb einer Minute 3 neue Wiederholungen angefordert")


async def test_a_long_match_is_replayed_in_at_most_120_frames_ending_on_its_last_move(table, seed):
    seed(6)
    board = await open_and_start(table.channel, table.alice, [table.bob], "rookie new")
    match = running_match(table, board)
    await play_elsewhere(table, match, moves=300)  # as if another process had taken these moves
    await table.env.bot.matches.catch_up()
    moving = next(m for m in (table.alice, table.bob) if m.user.id == match.players[0])
    asked = await moving.click(channel_message(table.channel, board.id), label="Resign")
    await moving.click(asked.response.message, label="Yes, resign")
    final = channel_message(table.channel, board.id)
    assert "Game over" in body(final)

    pressed = await table.carol.click(final, label="Replay")

    data, description = await picture(pressed.response.message)
    assert description.startswith(f"Animated replay of Rookie #{match.id}: 301 moves in 120 frames")
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == MAX_FRAMES and len(data) <= 10 * 2**20
    image.seek(image.n_frames - 1)
    last = image.convert("RGB")
    row = await table.env.bot.storage.matches.get(match.id)
    ended = HOSTED["rookie"].board(match.engine.view(match.engine.load(row.state), None))
    top = last.height - ended.height
    assert far_off_share(last.crop((0, top, ended.width, last.height)), ended.convert("RGB")) < 0.001


async def play_elsewhere(table: Any, match: Any, moves: int) -> None:
    """`moves` random legal moves of the running match, committed straight to the database."""
    storage, engine, state = table.env.bot.storage, match.engine, match.state
    rng = random.Random(1)
    for turn in range(match.turn, match.turn + moves):
        seat = engine.current_seats(state)[0]
        move = rng.choice(engine.legal_moves(state, seat))
        state = engine.apply(state, seat, move)
        saved = await storage.matches.record_move(
            match.id, turn=turn, seat=seat, user_id=match.players[seat], move=move, state=engine.dump(state)
        )
        assert saved
    assert ENGINES["rookie"].current_seats(state)
