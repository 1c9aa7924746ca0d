"""My First Triominos through the real bot in SimCord: the hand, its choices, the end."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot import create_bot
from cogs.triominos import hand_form
from games.triominos import ENGINE
from matches.components import form_items
from tests.e2e.helpers import (
    Picture,
    board_image,
    body,
    channel_message,
    components,
    footer,
    forge,
    mover,
    open_and_start,
    roster,
    title,
    told,
)

# Seed 48: the first player holds two fitting cards, each fitting three places, turned.
DEAL_SEED = 48
# Seed 50: the first player can lay the joker at once and the second take it back.
JOKER_SEED = 50
# Seed 22: no card of the first player fits the first card.
NO_FIT_SEED = 22


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where the pictures a test received are kept, to look at after a failure."""
    return tmp_path


def button_labels(message) -> list[str]:
    """Labels of a message's buttons (select menus have none)."""
    return [c.label for c in components(message) if getattr(c, "label", None)]


PLACEHOLDERS = {
    "card": "Choose a card to place",
    "spot": "Choose where it goes",
    "place": "Choose a place",
    "turn": "Choose how it is turned",
    "swap": "Choose the card for the joker's place",
}
OFF_OFFER = "That choice is no longer on offer"


def select_named(message, name: str):
    """The first select menu of a step (e.g. "card", "spot"), known by its placeholder."""
    return next(
        (
            c
            for c in components(message)
            if getattr(c, "options", None) and (c.placeholder or "").startswith(PLACEHOLDERS[name])
        ),
        None,
    )


def numbers(label: str) -> list[str]:
    """The numbers an option names after its colon ("Card 2: 1 · 3 · 4", "Place 1: top 3, ...")."""
    return re.findall(r"\d", label.split(":", 1)[1])


async def open_hand(player, board):
    result = await player.click(board, label="My hand")
    assert result.ephemeral
    return result.response.message


async def choose(player, message, menu, *, joker: bool = False):
    """Pick the first option of `menu` (the joker's, if asked and there); the edited message."""
    options = [o for o in menu.options if joker and "joker" in o.label] or menu.options
    result = await player.select(message, [options[0].value], custom_id=menu.custom_id)
    assert result.acknowledged and result.response.ephemeral
    return result


async def place_from_hand(player, hand, *, joker: bool = False):
    """Card, then place and turn (one choice, or place then turn): the move's result."""
    result = await choose(player, hand, select_named(hand, "card"), joker=joker)
    message = result.response.message
    while (
        menu := select_named(message, "spot")
        or select_named(message, "place")
        or select_named(message, "turn")
    ):
        result = await choose(player, message, menu)
        message = result.response.message
        if "You placed" in message.content:
            return result
    return result


async def play_turn(table, board_id: int, *, joker: bool = False):
    """The player to move opens My hand and takes back the joker, places a card, buys or passes."""
    board = channel_message(table.channel, board_id)
    player = mover(board, table.players)
    assert player is not None, "the board names the player to move"
    hand = await open_hand(player, board)
    labels = button_labels(hand)
    if joker and "Take back the joker" in labels:
        shown = await player.click(hand, label="Take back the joker")
        result = await choose(player, shown.response.message, select_named(shown.response.message, "swap"))
    elif select_named(hand, "card") is not None:
        result = await place_from_hand(player, hand, joker=joker)
    else:
        result = await player.click(hand, label="Buy a card (1 token)" if "Pass" not in labels else "Pass")
    assert result.acknowledged
    return player, result


async def play_to_the_end(table, board_id: int, headlines: list[str] | None = None):
    """Play turns until the board names nobody to move; `headlines` collects what it said."""
    for _ in range(200):
        board = channel_message(table.channel, board_id)
        if headlines is not None:
            headlines.append(body(board))
        if mover(board, table.players) is None:
            return board
        await play_turn(table, board_id)
    raise AssertionError("the match did not end in 200 turns")


async def save(shots: Path, name: str, picture: Picture) -> bytes:
    data = await picture.read()
    (shots / f"triominos_e2e_{name}.png").write_bytes(data)
    return data


def without_tokens(table, board) -> None:
    """Setup: the player to move hands every token to the bank (never an assertion)."""
    match = table.env.bot.matches.running[int(footer(board).split()[1])]
    state = match.state
    seat = state.turn
    tokens = (*state.tokens[:seat], 0, *state.tokens[seat + 1 :])
    match.state = replace(state, tokens=tokens, bank=state.bank + state.tokens[seat])


async def test_a_two_player_match_is_played_through_my_hand_to_the_result(table, seed, shots):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    assert title(board).startswith("My First Triominos #")
    assert "My hand" in button_labels(board)
    await save(shots, "board_start", board_image(board))

    headlines: list[str] = []
    board = await play_to_the_end(table, board.id, headlines)

    assert any("🎉" in line and ("hexagon" in line or "bridge" in line) for line in headlines)
    text = body(board)
    assert "**Game over**" in text and "The game ended because" in text and "Tokens:" in text
    assert "tokens" in roster(board)
    assert "My hand" not in button_labels(board)  # nothing left to play
    await save(shots, "board_end", board_image(board))


async def test_a_four_player_match_is_played_to_the_result(table, seed):
    seed(4)
    guests = [table.bob, table.carol, table.dave]
    board = await open_and_start(table.channel, table.alice, guests, "triominos new", joker=False)
    assert len(roster(board).splitlines()) == 4

    board = await play_to_the_end(table, board.id)

    assert "**Game over**" in body(board)


async def test_my_hand_shows_the_numbered_cards_and_only_fitting_choices(table, seed, shots):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    waiting = table.bob if player is table.alice else table.alice

    hand = await open_hand(player, board)
    assert "Your turn" in hand.content
    await save(shots, "hand", board_image(hand))
    cards = select_named(hand, "card")
    assert all(o.label.startswith("Card ") and "fits place" in o.description for o in cards.options)
    assert "Buy a card (1 token)" in button_labels(hand) and "Pass" not in button_labels(hand)
    assert "Take back the joker" not in button_labels(hand)

    chosen = await choose(player, hand, cards)
    message = chosen.response.message
    spots = select_named(message, "spot")
    assert all(
        o.label.startswith("Place ") and ("top" in o.label or "bottom" in o.label) for o in spots.options
    )
    # The card stays marked above its places, and the other choices stay on offer.
    assert [o.default for o in select_named(message, "card").options] == [True, False]
    assert "Buy a card (1 token)" in button_labels(message)
    other = select_named(message, "card").options[1]
    switched = await player.select(message, [other.value], custom_id=select_named(message, "card").custom_id)
    message = switched.response.message
    assert [o.default for o in select_named(message, "card").options] == [False, True]
    assert [o.label for o in select_named(message, "spot").options] != [o.label for o in spots.options]

    idle = await open_hand(waiting, board)
    assert "When yours comes" in idle.content and not components(idle)
    assert idle.attachments  # the waiting player still sees their cards


async def test_placing_a_turned_card_updates_the_board_and_leaves_a_short_note(table, seed, shots):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    before = await board_image(board).read()
    player = mover(board, table.players)

    hand = await open_hand(player, board)
    card = select_named(hand, "card").options[0]
    chosen = await choose(player, hand, select_named(hand, "card"))
    spots = select_named(chosen.response.message, "spot")
    turned = next(o for o in spots.options if numbers(o.label) != numbers(card.label))
    result = await player.select(chosen.response.message, [turned.value], custom_id=spots.custom_id)

    note = result.response.message  # the hand, redrawn without the card and its choices
    assert "You placed a card: +" in note.content and "When yours comes" in note.content
    assert not components(note) and await board_image(note).read() != await board_image(hand).read()
    board = channel_message(table.channel, board.id)
    assert "placed a card: +" in body(board)
    assert "move 1" in footer(board)
    assert await save(shots, "board_placed", board_image(board)) != before
    assert mover(board, table.players) is not player


async def test_buying_pays_a_token_and_shows_the_new_hand(table, seed, shots):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)

    bought = await player.click(hand, label="Buy a card (1 token)")

    refreshed = bought.response.message  # the hand itself is redrawn, with the new card
    assert "You paid 1 token and drew a card. Your new card is card 7." in refreshed.content
    assert "you have 3 tokens" in refreshed.content and not components(refreshed)
    await save(shots, "hand_after_buy", board_image(refreshed))
    board = channel_message(table.channel, board.id)
    assert "paid 1 token and drew a card" in body(board)


async def test_the_joker_is_laid_and_taken_back(table, seed, shots):
    seed(JOKER_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    await play_turn(table, board.id, joker=True)
    board = channel_message(table.channel, board.id)
    await save(shots, "board_joker", board_image(board))
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    assert "Take back the joker" in button_labels(hand)

    player, result = await play_turn(table, board.id, joker=True)

    assert "You took back the joker and put a card in its place." in result.response.message.content
    board = channel_message(table.channel, board.id)
    assert "took back the joker" in body(board)
    later = await open_hand(player, board)
    assert "Take back the joker" not in button_labels(later)


async def test_the_match_goes_on_after_a_restart(table, target, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    await play_turn(table, board.id)
    board = channel_message(table.channel, board.id)
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    chosen = (await choose(player, hand, select_named(hand, "card"))).response.message  # mid-choice

    await table.env.restart_bot(create_bot(database=target))

    assert footer(channel_message(table.channel, board.id)) == footer(board)
    result = await choose(player, chosen, select_named(chosen, "spot"))
    assert "You placed a card" in result.response.message.content
    await play_turn(table, board.id)
    assert "move 3" in footer(channel_message(table.channel, board.id))


async def test_a_restart_mid_choice_keeps_the_buttons_of_my_hand_working(table, target, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    chosen = (await choose(player, hand, select_named(hand, "card"))).response.message

    await table.env.restart_bot(create_bot(database=target))

    bought = await player.click(chosen, label="Buy a card (1 token)")
    assert bought.acknowledged and "Your new card is card 7" in bought.response.message.content
    board = channel_message(table.channel, board.id)
    assert "paid 1 token and drew a card" in body(board)


async def the_movers_hand(table, seed):
    """A two-player match on the fixed deal: its board, the player to move, their hand reply,
    its card menu and its Buy button."""
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    cards = select_named(hand, "card")
    buy = next(c for c in components(hand) if getattr(c, "label", None) == "Buy a card (1 token)")
    return board, player, hand, cards, buy


async def test_a_forged_choice_is_refused_privately_and_changes_nothing(table, seed):
    board, player, hand, cards, buy = await the_movers_hand(table, seed)
    match, turn, _where, level, path, index = buy.custom_id.split(":")[1:]
    forgeries = [  # an index past the options, a level the form lacks, the hand's moves on the board
        (f"m:{match}:{turn}:p:{level}:{path}:42", None),
        (f"m:{match}:{turn}:p:7:{path}:{index}", None),
        (f"m:{match}:{turn}:b:{level}:{path}:{index}", None),
        (cards.custom_id, ["42"]),  # a card past the hand
    ]

    for forged, values in forgeries:
        refused = await forge(player, hand, forged, values)
        assert OFF_OFFER in told(refused), forged

    board = channel_message(table.channel, board.id)
    assert "move 0" in footer(board) and mover(board, table.players) is player


async def test_an_older_hand_reply_goes_when_my_hand_is_pressed_again_and_offers_nothing_stale(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    old_hand = await open_hand(player, board)
    assert "Buy a card (1 token)" in button_labels(old_hand)
    await play_turn(table, board.id)  # the same player opens My hand again and places a card

    shown = [message for message in table.channel.history(viewer=player) if message.flags.ephemeral]

    assert old_hand.id not in [message.id for message in shown]  # replaced by the newer reply
    assert len(shown) == 1 and not components(shown[0]) and "You placed" in shown[0].content


async def test_nobody_sees_another_players_hand_in_the_channel_or_by_dm(table, seed):
    seed(JOKER_SEED)
    players = [table.alice, table.bob, table.carol]
    board = await open_and_start(table.channel, table.alice, players[1:], "triominos new")
    hands: dict[int, set[bytes]] = {p.user.id: set() for p in players}
    for _ in range(6):
        player, _result = await play_turn(table, board.id, joker=True)
        hand = await open_hand(player, channel_message(table.channel, board.id))
        hands[player.user.id].add(await board_image(hand).read())

    for member in players:
        others = set().union(*(images for user, images in hands.items() if user != member.user.id))
        seen = [m for m in table.channel.history(viewer=member)] + list(member.user.dm_channel.history())
        images = {await a.read() for m in seen for a in m.attachments}
        assert not images & others
        assert not any(select_named(m, "card") for m in table.channel.history(viewer=member) if m.author.bot)
    dms = list(table.alice.user.dm_channel.history())
    assert any("Your turn in **My First Triominos" in m.content and m.attachments for m in dms)


async def test_the_first_board_names_the_player_drawn_to_start(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    starter = mover(board, table.players)
    assert f"<@{starter.user.id}> (" in body(board)
    assert "was drawn to start" in body(board)


async def test_without_tokens_a_player_whose_card_fits_must_place_it(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    without_tokens(table, board)
    player = mover(board, table.players)

    hand = await open_hand(player, board)

    assert select_named(hand, "card") is not None
    assert "Pass" not in button_labels(hand) and "Buy a card (1 token)" not in button_labels(hand)
    assert "not placing costs a purchase" in hand.content


async def test_a_player_who_can_neither_place_nor_buy_passes_for_free(table, seed):
    seed(NO_FIT_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    without_tokens(table, board)
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    assert select_named(hand, "card") is None and "Buy a card (1 token)" not in button_labels(hand)

    passed = await player.click(hand, label="Pass")

    assert passed.acknowledged and "\nYou passed: no card fits" in passed.response.message.content
    board = channel_message(table.channel, board.id)
    assert "passed: no card fits and no token is left to buy one" in body(board)
    assert mover(board, table.players) is not player


async def test_with_tokens_a_player_whose_cards_do_not_fit_buys_and_cannot_pass(table, seed):
    seed(NO_FIT_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    hand = await open_hand(mover(board, table.players), board)
    assert button_labels(hand) == ["Buy a card (1 token)", "Hint"]


async def test_open_hands_are_listed_on_the_board_and_the_rules_are_short(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new", open_hands=True)
    assert "hand: " in body(board)
    rules = await table.carol.slash(table.channel, "triominos rules")
    text = body(rules.response)
    assert rules.ephemeral and "hexagon" in text and len(text) <= 4096
    assert "you **pass** only when no card of yours fits *and* you cannot buy" in text


def test_a_card_fitting_many_places_asks_for_the_place_then_the_turn():
    places = [{"label": str(n), "points": [[0, 1], [1, 0], [0, 0]]} for n in range(1, 12)]
    legal = [
        {"type": "place", "card": 0, "place": str(n), "rotation": r} for n in range(1, 11) for r in range(3)
    ]
    legal.append({"type": "place", "card": 0, "place": "11", "rotation": 1})  # one way only: placed at once
    view = {"hand": [{"values": [1, 2, 3]}], "places": places}

    steps = hand_form(view, legal, (0,), "en")
    turns = hand_form(view, legal, (*steps.path, 4), "en")  # place 4

    assert [c.placeholder for c in steps.choices] == ["Choose a card to place", "Or", "Choose a place"]
    assert [o.label for o in steps.choices[2].options][:2] == ["Place 1", "Place 2"]
    assert [o.move for o in steps.choices[2].options] == [None] * 10 + [legal[-1]]
    assert [o.label for o in turns.choices[3].options] == [
        "Turned: top 1, lower right 2, lower left 3",
        "Turned: top 2, lower right 3, lower left 1",
        "Turned: top 3, lower right 1, lower left 2",
    ]
    assert all(o.move in legal for o in turns.choices[3].options)


@pytest.mark.parametrize("game", range(12))
def test_every_choice_of_a_hand_is_a_legal_move_and_fits_discords_rows(game):
    """Random games: at every turn the paths a player can reach (and forged ones) offer
    legal moves only, every legal move among them, in the rows Discord has."""
    rng = random.Random(game)
    state = ENGINE.new_game(2 + game % 3, game, {"open_hands": False, "joker": True})
    while ENGINE.current_seats(state):
        seat = ENGINE.current_seats(state)[0]
        view, legal = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
        cards, places = range(len(view["hand"]) + 1), range(len(view["places"]) + 2)
        paths = [(), (99, 1), (999, 999, 999), *((c, 0, p) for c in cards for p in places)]
        offered = []
        for path in paths:
            form = hand_form(view, legal, path, "en")
            form_items(1, 0, "p", form)  # raises past Discord's rows
            offered += [o.move for c in form.choices for o in c.options if o.move is not None]
        assert all(move in legal for move in offered) and all(move in offered for move in legal)
        state = ENGINE.apply(state, seat, rng.choice(legal))


async def test_a_hand_choice_pressed_on_the_board_never_shows_the_hand_there(table, seed):
    board, player, _, cards, buy = await the_movers_hand(table, seed)

    for custom_id, values in ((cards.custom_id, [cards.options[0].value]), (buy.custom_id, None)):
        refused = await forge(player, board, custom_id, values)  # a stale or forged press on the board
        assert OFF_OFFER in told(refused), custom_id

    after = channel_message(table.channel, board.id)
    assert title(after) == title(board) and not after.content
    assert [attachment.filename for attachment in after.attachments] == ["board.png"]
    assert "My hand" in button_labels(after) and "move 0" in footer(after)
