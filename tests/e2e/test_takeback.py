"""Taking a move back by consent, end to end: the player who just moved asks under the board,
the others accept or decline, and an accepted request returns the match to its state before
the move, replayed from the move log, so that every chance afterwards comes out the same."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot import create_bot
from matches.hints import decide
from tests.e2e.helpers import (
    body,
    button_labels,
    channel_message,
    components,
    fields,
    forge,
    mover,
    open_and_start,
    play_on_board,
    title,
    told,
)
from tests.e2e.test_hints import confirmed_hint, press_hint, resign
from tests.e2e.test_rookie import Driver, a_pair, labelled, peek
from tests.e2e.test_sequence_numbers import greedy, make_move, open_hand
from tests.e2e.test_tetris_link import SHAPE_LABELS, play_one_turn
from tests.e2e.test_tremember import push_back, take_a_card
from tests.e2e.test_triominos import play_turn as play_triominos_turn

TAKE_BACK = "Take back"  # the button's label (its emoji "↩️" apart)
NOT_YOURS = "Only the player who just moved can ask to take that move back — and only a move they made."


def running(table: Any, board: Any) -> Any:
    match_id = int(title(board).rsplit("#", 1)[1])
    return table.env.bot.matches.running[match_id]


def dumped(table: Any, board: Any) -> str:
    """The stored state behind a board: what the match returns to, chance included."""
    match = running(table, board)
    return match.engine.dump(match.state)


def take_back_button(board: Any) -> Any | None:
    return next((c for c in components(board) if (c.custom_id or "").endswith(":_takeback")), None)


def request_message(table: Any) -> Any:
    """The latest take-back request under the board."""
    return next(m for m in reversed(table.channel.history()) if "to take back" in (m.content or ""))


def other(table: Any, member: Any) -> Any:
    return table.bob if member is table.alice else table.alice


# Each makes one move that reveals nothing, through the board or the private hand, from a
# match just started by Alice and Bob, and returns the board; called again after a take-back,
# it makes the same move from the same position.
async def tetris_link_move(table: Any, board: Any) -> Any:
    return await play_one_turn(table, board.id)


async def tremember_push(table: Any, board: Any) -> Any:
    if running(table, board).state.phase == "take":
        await take_a_card(table, board.id)  # the taker saw the card: this cannot be taken back
    assert take_back_button(channel_message(table.channel, board.id)) is None
    await push_back(table, board.id)
    return channel_message(table.channel, board.id)


async def rookie_placement(table: Any, board: Any) -> Any:
    driver = Driver(table, board)
    state = peek(table, board)
    if state.phase != "place":
        await driver.flip(*a_pair(state, lambda kind: kind != "X"))  # flips: nothing to take back
    assert take_back_button(driver.board) is None
    await driver.click(labelled(driver.board, "Stacks 1+3")[0])
    return driver.board


async def triominos_card(table: Any, board: Any) -> Any:
    _, result = await play_triominos_turn(table, board.id)
    assert "You placed" in result.response.message.content
    return channel_message(table.channel, board.id)


GAMES: dict[str, tuple[str, dict[str, Any], Callable[[Any, Any], Awaitable[Any]]]] = {
    "tetris_link": ("tetrislink new", {"dice": False}, tetris_link_move),
    "tremember": ("tremember new", {}, tremember_push),
    "rookie": ("rookie new", {}, rookie_placement),
    "triominos": ("triominos new", {}, triominos_card),
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_move_is_taken_back_when_the_others_accept_and_chance_stays_the_same(table, seed, game):
    seed(4)
    command, options, move = GAMES[game]
    board = await open_and_start(table.channel, table.alice, [table.bob], command, **options)
    players = [table.alice, table.bob]
    if game == "tremember":
        await take_a_card(table, board.id)
    if game == "rookie":
        await Driver(table, board).flip(*a_pair(peek(table, board), lambda kind: kind != "X"))
    before, player = dumped(table, board), mover(channel_message(table.channel, board.id), players)

    board = await move(table, board)
    after, turn = dumped(table, board), running(table, board).turn

    assert take_back_button(board) is not None
    stranger = await other(table, player).click(board, label=TAKE_BACK)
    assert told(stranger) == NOT_YOURS and dumped(table, board) == after
    asked = await player.click(board, label=TAKE_BACK)
    assert asked.acknowledged and not told(asked)
    request = request_message(table)
    answerer = other(table, player)
    assert request.content == (
        f"↩️ <@{player.user.id}> asks to take back their last move. <@{answerer.user.id}>, do you accept? "
        "Playing the next move declines."
    )
    assert button_labels(request) == ["Accept", "Decline"]
    board = channel_message(table.channel, board.id)
    assert take_back_button(board) is None  # one request per move
    own = await player.click(request, label="Accept")
    assert told(own) == f"Only <@{answerer.user.id}> can answer this request."

    accepted = await answerer.click(request, label="Accept")

    assert accepted.acknowledged and not told(accepted)
    request = channel_message(table.channel, request.id)
    note = f"↩️ <@{player.user.id}> took back their move."
    assert request.content == note and not components(request)
    board = channel_message(table.channel, board.id)
    assert note in body(board)
    assert mover(board, players) is player and dumped(table, board) == before
    assert running(table, board).turn == turn - 1
    log = await table.env.bot.storage.matches.move_log(running(table, board).id)
    assert len(log) == turn - 1
    again = await move(table, board)
    assert dumped(table, again) == after  # the same move meets the same chance
    stats = (await table.carol.slash(table.channel, "stats", member=player)).response
    assert any(f.name == "Taken back" and f.value == "1 move taken back" for f in fields(stats))


async def test_with_three_players_both_others_must_accept(table):
    guests = [table.bob, table.carol]
    board = await open_and_start(table.channel, table.alice, guests, "tetrislink new", dice=False)
    before, player = dumped(table, board), mover(board, table.players)
    board = await play_one_turn(table, board.id)
    others = [member for member in (table.alice, *guests) if member is not player]
    await player.click(board, label=TAKE_BACK)
    request = request_message(table)
    first, second = others
    assert f"<@{first.user.id}> and <@{second.user.id}>, do you accept?" in request.content

    await first.click(request, label="Accept")

    request = channel_message(table.channel, request.id)
    assert request.content.endswith(f"\n✅ <@{first.user.id}> accepted.")
    assert f"<@{second.user.id}>, do you accept?" in request.content
    again = await first.click(request, label="Accept")
    assert told(again) == f"You accepted already — waiting for <@{second.user.id}>."
    await second.click(request, label="Accept")
    assert (
        channel_message(table.channel, request.id).content == f"↩️ <@{player.user.id}> took back their move."
    )
    assert dumped(table, board) == before


async def test_a_move_that_showed_a_card_offers_no_take_back_and_a_forged_press_is_refused(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tremember new")
    player = mover(board, table.players)
    await take_a_card(table, board.id)
    board = channel_message(table.channel, board.id)
    match = running(table, board)
    assert take_back_button(board) is None
    before = dumped(table, board)

    forged = await forge(player, board, f"g:tremember:{match.id}:{match.turn}:_takeback")

    assert told(forged) == (
        "That move showed something that cannot be unseen (a card turned up or drawn, a die rolled): "
        "it cannot be taken back."
    )
    assert dumped(table, board) == before and request_message_absent(table)


def request_message_absent(table: Any) -> bool:
    return not any("to take back" in (m.content or "") for m in table.channel.history())


async def test_a_card_played_in_sequence_numbers_draws_one_so_it_cannot_be_taken_back(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    match = running(table, board)
    hand = await open_hand(player, board)
    await make_move(table, player, hand, greedy(match, match.seat_of(player.user.id)))
    board = channel_message(table.channel, board.id)
    assert take_back_button(board) is None

    forged = await forge(player, board, f"g:sequence_numbers:{match.id}:{match.turn}:_takeback")

    assert "cannot be taken back" in told(forged) and request_message_absent(table)


async def test_a_decline_ends_the_request_and_the_move_cannot_be_asked_again(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    after = dumped(table, board)
    await player.click(board, label=TAKE_BACK)
    request = request_message(table)

    declined = await other(table, player).click(request, label="Decline")

    assert declined.acknowledged and not told(declined)
    request = channel_message(table.channel, request.id)
    assert request.content == (
        f"✖️ <@{other(table, player).user.id}> declined: the move of <@{player.user.id}> stands."
    )
    assert not components(request) and dumped(table, board) == after
    match = running(table, board)
    board = channel_message(table.channel, board.id)
    again = await forge(player, board, f"g:tetris_link:{match.id}:{match.turn}:_takeback")
    assert told(again) == "You asked to take back this move already — one request per move."


async def test_the_next_move_lapses_the_request_and_a_stale_accept_changes_nothing(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    await player.click(board, label=TAKE_BACK)
    request = request_message(table)
    accept = next(c.custom_id for c in components(request) if c.label == "Accept")

    board = await play_one_turn(table, board.id)  # the other player moves instead
    after = dumped(table, board)

    request = channel_message(table.channel, request.id)
    assert request.content == f"⌛ The next move came first: the move of <@{player.user.id}> stands."
    assert not components(request)
    stale = await forge(other(table, player), request, accept)
    assert told(stale) == "The next move came first: this request has lapsed and nothing was taken back."
    assert dumped(table, board) == after


async def test_when_the_turn_clock_runs_out_the_request_lapses_and_the_move_stands(table):
    board = await open_and_start(
        table.channel, table.alice, [table.bob], "tetrislink new", dice=False, clock=120
    )
    player = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    await player.click(board, label=TAKE_BACK)
    request = request_message(table)
    turn = running(table, board).turn

    await table.env.advance_time(130)  # the other player's clock runs out: it moves for them

    assert running(table, board).turn == turn + 1
    request = channel_message(table.channel, request.id)
    assert request.content == f"⌛ The next move came first: the move of <@{player.user.id}> stands."
    assert not components(request)


async def test_a_computer_accepts_at_once_and_its_decision_for_the_turn_taken_back_is_void(table, seed):
    seed(2)
    lobby = (await table.alice.slash(table.channel, "tetrislink new", dice=False)).response.message
    await table.alice.select(lobby, ["normal"], custom_id=f"lobbyc:{lobby_id(lobby)}")
    await table.alice.click(lobby, label="Start")
    board = channel_message(table.channel, lobby.id)
    for _ in range(10):
        if mover(board, table.players) is table.alice:
            break
        await table.env.advance_time(5)
        board = channel_message(table.channel, board.id)
    before = dumped(table, board)
    board = await play_one_turn(table, board.id)

    asked = await table.alice.click(board, label=TAKE_BACK)

    assert asked.acknowledged and not told(asked) and request_message_absent(table)
    board = channel_message(table.channel, board.id)
    assert f"↩️ <@{table.alice.user.id}> took back their move." in body(board)
    assert dumped(table, board) == before
    await table.env.advance_time(10)  # the computer had decided the turn taken back: void
    assert dumped(table, board) == before and mover(channel_message(table.channel, board.id), table.players)


async def test_a_computer_due_next_waits_for_the_answer_and_plays_on_after_a_decline(table, seed):
    seed(2)
    lobby = (await table.alice.slash(table.channel, "tetrislink new", dice=False)).response.message
    await table.bob.click(lobby, label="Join")
    await table.alice.select(lobby, ["normal"], custom_id=f"lobbyc:{lobby_id(lobby)}")
    await table.alice.click(lobby, label="Start")
    board = channel_message(table.channel, lobby.id)
    while mover(board, table.players) is not table.bob:  # the computer sits after Bob
        if mover(board, table.players) is table.alice:
            board = await play_one_turn(table, board.id)
        else:
            await table.env.advance_time(5)
            board = channel_message(table.channel, board.id)
    board = await play_one_turn(table, board.id)
    await table.bob.click(board, label=TAKE_BACK)
    request = request_message(table)
    assert f"<@{table.alice.user.id}>, do you accept?" in request.content  # not the computer
    waiting = dumped(table, board)

    await table.env.advance_time(30)

    assert dumped(table, board) == waiting  # the computer waits for Alice's answer
    await table.alice.click(request, label="Decline")
    await table.env.advance_time(10)
    assert dumped(table, board) != waiting  # then it plays on
    assert mover(channel_message(table.channel, board.id), table.players) is table.alice


def lobby_id(lobby: Any) -> int:
    return int(next(c for c in components(lobby) if c.custom_id.startswith("lobby:")).custom_id.split(":")[1])


async def test_a_request_survives_a_restart(table, target, seed):
    seed(4)
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    before = dumped(table, board)
    player = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    await player.click(board, label=TAKE_BACK)
    request = request_message(table)
    moved_deadline = running(table, board).row.deadline

    await table.env.restart_bot(create_bot(database=target))
    await table.env.advance_time(600)
    accepted = await other(table, player).click(request, label="Accept")

    assert accepted.acknowledged and not told(accepted)
    assert (
        channel_message(table.channel, request.id).content == f"↩️ <@{player.user.id}> took back their move."
    )
    assert dumped(table, channel_message(table.channel, board.id)) == before
    assert running(table, board).row.deadline > moved_deadline  # the mover's turn, on a fresh clock


async def test_the_replay_of_a_match_with_a_move_taken_back_shows_the_moves_that_stand(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    board = await play_one_turn(table, board.id)
    second = mover(board, table.players)
    board = await play_one_turn(table, board.id)
    await second.click(board, label=TAKE_BACK)  # the third move
    await other(table, second).click(request_message(table), label="Accept")
    board = channel_message(table.channel, board.id)
    asked = await player.click(board, label="Resign")
    await player.click(asked.response.message, label="Yes, resign")
    final = channel_message(table.channel, board.id)

    replay = await table.carol.click(final, label="Replay")

    [attachment] = replay.response.message.attachments
    expected = f"Animated replay of Tetris Link #{running_id(final)}, one frame per move: 3 moves."
    assert attachment.description.startswith(expected)  # two moves and the resignation


def running_id(board: Any) -> int:
    return int(title(board).rsplit("#", 1)[1])


@pytest.mark.parametrize(
    ("lang", "request_text", "note", "stats"),
    [
        (
            "de",
            "↩️ <@{p}> möchte den letzten Zug zurücknehmen. <@{o}>, bist du einverstanden? "
            "Wer weiterzieht, lehnt ab.",
            "↩️ <@{p}> hat den Zug zurückgenommen.",
            "1 Zug zurückgenommen",
        ),
        (
            "fr",
            "↩️ <@{p}> demande à reprendre son dernier coup. <@{o}>, tu acceptes\u00a0? "
            "Jouer le coup suivant vaut refus.",
            "↩️ <@{p}> a repris son coup.",
            "1 coup repris",
        ),
    ],
)
async def test_the_request_and_the_note_speak_the_match_language(
    simcord_env, client_locales, lang, request_text, note, stats
):
    guild = simcord_env.create_guild("Spieleabend", preferred_locale=lang)
    channel = guild.create_text_channel("spiele")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    for member in (alice, bob):
        client_locales.speak(member, lang)
    result = await alice.slash(channel, "tetrislink new", dice=False)
    lobby = result.response.message
    await bob.click(lobby, custom_id=f"lobby:{lobby_id(lobby)}:join")
    await alice.click(lobby, custom_id=f"lobby:{lobby_id(lobby)}:start")
    board = channel_message(channel, lobby.id)
    player = mover(board, [alice, bob])
    answerer = bob if player is alice else alice

    await play_on_board(player, channel, board.id)
    board = channel_message(channel, board.id)
    await player.click(board, custom_id=take_back_button(board).custom_id)
    request = next(m for m in reversed(channel.history()) if "↩️" in (m.content or ""))
    assert request.content == request_text.format(p=player.user.id, o=answerer.user.id)
    accept = next(c for c in components(request) if "_takeback+" in c.custom_id)
    await answerer.click(request, custom_id=accept.custom_id)

    board = channel_message(channel, board.id)
    assert note.format(p=player.user.id) in body(board)
    shown = (await answerer.slash(channel, "stats", member=player)).response
    assert any(f.value == stats for f in fields(shown))


async def take_back_and_move_otherwise(table: Any, board: Any, player: Any, answerer: Any) -> Any:
    """In Tetris Link: `player` takes their move back with the consent of `answerer`, then drops
    another piece in another column; returns the board."""
    await player.click(board, label=TAKE_BACK)
    await answerer.click(request_message(table), label="Accept")
    board = channel_message(table.channel, board.id)
    shapes = [c for c in components(board) if (c.label or "").startswith(SHAPE_LABELS) and not c.disabled]
    if shapes:
        await player.click(board, custom_id=shapes[-1].custom_id)  # another shape this time
        board = channel_message(table.channel, board.id)
    drops = [c for c in components(board) if (c.label or "").startswith("Drop")]
    await player.click(board, custom_id=drops[-1].custom_id)  # and another column
    return channel_message(table.channel, board.id)


async def test_a_hint_after_a_move_was_taken_back_and_made_otherwise_is_for_the_new_position(table, seed):
    seed(4)
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, [table.alice, table.bob])
    answerer = other(table, player)
    board = await play_one_turn(table, board.id)
    first = await confirmed_hint(answerer, table.channel, board, "tetris_link")
    board = await take_back_and_move_otherwise(table, board, player, answerer)
    match = running(table, board)
    seat = match.seat_of(answerer.user.id)
    game = table.env.bot.matches.games["tetris_link"]
    log_rows = await table.env.bot.storage.matches.move_log(match.id)
    expected = decide(game, match, seat, match.state, log_rows)

    second = told(await press_hint(answerer, table.channel, board, "tetris_link"))

    assert second.startswith(
        f"💡 **Hint:** {game.hint_text(expected.view, expected.move, expected.reason, 'en')}"
    )
    assert second != first


async def test_a_hint_for_the_new_position_after_a_move_was_taken_back_counts_again(table, seed):
    seed(4)
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new", dice=False)
    player = mover(board, [table.alice, table.bob])
    answerer = other(table, player)
    board = await play_one_turn(table, board.id)
    await confirmed_hint(answerer, table.channel, board, "tetris_link")
    board = await take_back_and_move_otherwise(table, board, player, answerer)

    second = await press_hint(answerer, table.channel, board, "tetris_link")
    assert told(second).startswith("💡 **Hint:** ")
    await resign(player, table.channel, board)

    final = channel_message(table.channel, board.id)
    assert f"<@{answerer.user.id}> used 2 hints." in body(final)
