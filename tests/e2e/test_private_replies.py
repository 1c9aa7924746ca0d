"""One private reply per player and match, kept current.

A choice, a move or a refusal made in a private reply redraws it in place; a new press of the
private button replaces the older reply (deleted); a reply whose interaction token expired is
never edited, and the next press in it redraws it; the controls left on a board posted again
answer with a link to the new board; a refused pick in a menu leaves the menu ready again."""

from __future__ import annotations

from typing import Any

from tests.e2e import test_sequence_numbers as numbers
from tests.e2e import test_triominos as triominos
from tests.e2e.helpers import (
    body,
    channel_message,
    components,
    ephemerals,
    footer,
    forge,
    has_card,
    mover,
    open_and_start,
    told,
)

TOKEN_EXPIRED_S = 15 * 60 + 1
ONE_HOUR = 3600
UNKNOWN_MESSAGE = {"status": 404, "code": 10008, "message": "Unknown Message"}


def mine(table: Any, member: Any) -> list[Any]:
    """The ephemeral messages `member` sees in the games channel."""
    return ephemerals(table.channel, member)


async def test_one_private_reply_per_player_stays_current_through_a_triominos_match(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    players = [table.alice, table.bob]

    for _ in range(200):
        board = channel_message(table.channel, board.id)
        player = mover(board, players)
        if player is None:
            break
        _, result = await triominos.play_turn(table, board.id)
        assert not told(result), told(result)
        # The hand opened this turn, redrawn with the move; the older one is gone.
        assert [message.id for message in mine(table, player)] == [result.response.message.id]
    else:
        raise AssertionError("the match did not end in 200 turns")

    assert "**Game over**" in body(board)
    assert [len(mine(table, member)) for member in players] == [1, 1]


async def test_one_private_reply_per_player_through_a_sequence_numbers_match(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")

    for _ in range(200):
        if "**Game over**" in body(board):
            break
        board = await numbers.take_turn(table, board.id, table.players)
        assert [len(mine(table, member)) for member in (table.alice, table.bob)] in ([1, 1], [1, 0], [0, 1])
    else:
        raise AssertionError("the match did not end in 200 turns")

    assert [len(mine(table, member)) for member in (table.alice, table.bob)] == [1, 1]


async def test_a_refusal_in_the_hand_redraws_it_in_place(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await triominos.open_hand(player, board)
    buy = next(c for c in components(hand) if getattr(c, "label", None) == "Buy a card (1 token)")
    match, turn, _where, level, path, _index = buy.custom_id.split(":")[1:]

    refused = await forge(player, hand, f"m:{match}:{turn}:p:{level}:{path}:42")

    assert triominos.OFF_OFFER in told(refused)
    assert not refused.followups and not refused.ephemeral  # no new message
    redrawn = channel_message(table.channel, hand.id, viewer=player)
    assert redrawn.content.startswith(f"⚠️ {triominos.OFF_OFFER}")
    assert triominos.select_named(redrawn, "card") is not None and redrawn.attachments  # still playable
    assert mine(table, player) == [redrawn]


async def test_a_second_my_hand_replaces_the_first(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    first = await triominos.open_hand(player, board)

    second = await triominos.open_hand(player, board)

    assert [message.id for message in mine(table, player)] == [second.id] != [first.id]
    result = await triominos.place_from_hand(player, second)
    assert "You placed" in result.response.message.content
    assert [message.id for message in mine(table, player)] == [second.id]


async def test_an_expired_reply_is_not_edited_and_the_next_press_in_it_redraws_it(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new", clock=ONE_HOUR)
    player = mover(board, table.players)
    hand = await triominos.open_hand(player, board)
    cards = triominos.select_named(hand, "card")

    await table.env.advance_time(ONE_HOUR + 60)  # the clock plays for the player: 15 minutes are long gone
    board = channel_message(table.channel, board.id)
    assert "move 1" in footer(board)
    kept = channel_message(table.channel, hand.id, viewer=player)
    assert kept.content == hand.content and kept.attachments  # untouched, its image whole

    pressed = await player.select(kept, [cards.options[0].value], custom_id=cards.custom_id)

    redrawn = channel_message(table.channel, hand.id, viewer=player)
    assert told(pressed) == "The game moved on — this is how it stands now."
    assert redrawn.content != kept.content and redrawn.attachments
    assert triominos.select_named(redrawn, "card") is None  # not their turn any more
    assert mine(table, player) == [redrawn]


async def test_every_control_of_an_old_board_points_to_the_new_one(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    listed = await player.slash(table.channel, "matches")
    table.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", **UNKNOWN_MESSAGE)  # no pointer
    await player.click(listed.response.message, label="Board #1 ↓")
    fresh = table.channel.history()[-1]
    assert fresh.id != board.id and has_card(fresh)

    for label in ("My hand", "Resign"):
        pressed = await player.click(channel_message(table.channel, board.id), label=label)

        assert told(pressed) == f"This board moved: {fresh.jump_url}", label
    assert not any(message.attachments for message in mine(table, player))  # no hand shown there


async def test_a_refused_pick_in_a_menu_can_be_picked_again(table, seed):
    seed(triominos.DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await triominos.open_hand(player, board)
    cards = triominos.select_named(hand, "card")

    refused = await forge(player, hand, cards.custom_id, ["42"])  # a card past the hand

    assert triominos.OFF_OFFER in told(refused) and not refused.followups
    again = channel_message(table.channel, hand.id, viewer=player)
    assert again.edited_at is not None  # the menu was sent again: nothing in it shows as picked
    menu = triominos.select_named(again, "card")
    assert [option.label for option in menu.options] == [option.label for option in cards.options]
    assert not any(option.default for option in menu.options)
    picked = await triominos.choose(player, again, menu)
    led = picked.response.message
    assert not told(picked) and any(triominos.select_named(led, step) for step in ("spot", "place", "turn"))
    assert mine(table, player) == [channel_message(table.channel, hand.id, viewer=player)]
