"""My First Triominos through the real bot in SimCord: the hand, its choices, the end."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import create_bot
from cogs.triominos import rotation_items, spot_items
from tests.e2e.helpers import channel_message, components, mover, open_and_start

# Seed 22: the first player holds two fitting cards, one of them fits three ways.
DEAL_SEED = 22
# Seed 50: the first player can lay the joker at once and the second take it back.
JOKER_SEED = 50
SHOTS = Path("/tmp")


@pytest.fixture
def seed(monkeypatch):
    """Fix the seed the lobby draws, so a test replays the same deal every run."""

    def use(value: int) -> None:
        fixed = SimpleNamespace(randrange=lambda _: value)
        monkeypatch.setattr("cogs.lobby.random", SimpleNamespace(SystemRandom=lambda: fixed))

    return use


def button_labels(message) -> list[str]:
    """Labels of a message's buttons (select menus have none)."""
    return [c.label for c in components(message) if getattr(c, "label", None)]


def select_named(message, name: str):
    """The first select menu whose custom_id carries `name` (e.g. "card", "spot")."""
    return next(
        (c for c in components(message) if getattr(c, "options", None) and f":{name}:" in c.custom_id), None
    )


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
        if message.content.startswith("You placed"):
            return result
    return result


async def play_turn(table, board_id: int, *, joker: bool = False):
    """The player to move opens My hand and takes back the joker, places a card, buys or passes."""
    board = channel_message(table.channel, board_id)
    player = mover(board, table.players)
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
            headlines.append(board.embeds[0].description)
        if mover(board, table.players) is None:
            return board
        await play_turn(table, board_id)
    raise AssertionError("the match did not end in 200 turns")


async def save(name: str, attachment) -> bytes:
    data = await attachment.read()
    (SHOTS / f"triominos_e2e_{name}.png").write_bytes(data)
    return data


async def test_a_two_player_match_is_played_through_my_hand_to_the_result(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    assert board.embeds[0].title.startswith("My First Triominos #")
    assert "My hand" in button_labels(board)
    await save("board_start", board.attachments[0])

    headlines: list[str] = []
    board = await play_to_the_end(table, board.id, headlines)

    assert any("🎉" in line and ("hexagon" in line or "bridge" in line) for line in headlines)
    text = board.embeds[0].description
    assert "**Game over**" in text and "The game ended because" in text and "Tokens:" in text
    assert "tokens" in board.embeds[0].fields[0].value
    assert "My hand" not in button_labels(board)  # nothing left to play
    await save("board_end", board.attachments[0])


async def test_a_four_player_match_is_played_to_the_result(table, seed):
    seed(4)
    guests = [table.bob, table.carol, table.dave]
    board = await open_and_start(table.channel, table.alice, guests, "triominos new", joker=False)
    assert len(board.embeds[0].fields[0].value.splitlines()) == 4

    board = await play_to_the_end(table, board.id)

    assert "**Game over**" in board.embeds[0].description


async def test_my_hand_shows_the_numbered_cards_and_only_fitting_choices(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    waiting = table.bob if player is table.alice else table.alice

    hand = await open_hand(player, board)
    assert "Your turn" in hand.content
    await save("hand", hand.attachments[0])
    cards = select_named(hand, "card")
    assert all(o.label.startswith("Card ") and "fits place" in o.description for o in cards.options)
    assert "Buy a card (1 token)" in button_labels(hand) and "Pass" not in button_labels(hand)
    assert "Take back the joker" not in button_labels(hand)

    chosen = await choose(player, hand, cards)
    spots = select_named(chosen.response.message, "spot")
    assert all(
        o.label.startswith("Place ") and ("top" in o.label or "bottom" in o.label) for o in spots.options
    )
    assert "Back to my hand" in button_labels(chosen.response.message)
    back = await player.click(chosen.response.message, label="Back to my hand")
    assert select_named(back.response.message, "card") is not None

    idle = await open_hand(waiting, board)
    assert "When yours comes" in idle.content and not idle.components
    assert idle.attachments  # the waiting player still sees their cards


async def test_placing_a_turned_card_updates_the_board_and_leaves_a_short_note(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    before = await board.attachments[0].read()
    player = mover(board, table.players)

    hand = await open_hand(player, board)
    chosen = await choose(player, hand, select_named(hand, "card"))
    spots = select_named(chosen.response.message, "spot")
    turned = next(o for o in spots.options if not o.value.endswith(":0"))
    result = await player.select(chosen.response.message, [turned.value], custom_id=spots.custom_id)

    note = result.response.message
    assert note.content.startswith("You placed card") and not note.components and not note.attachments
    board = channel_message(table.channel, board.id)
    assert "placed a card: **+" in board.embeds[0].description
    assert "move 1" in board.embeds[0].footer.text
    assert await save("board_placed", board.attachments[0]) != before
    assert mover(board, table.players) is not player


async def test_buying_pays_a_token_and_shows_the_new_hand(table, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)

    bought = await player.click(hand, label="Buy a card (1 token)")

    assert bought.response.message.content == "You paid 1 token and drew a card."
    followup = bought.followups[0]
    assert followup.ephemeral and "Your new card is card 7" in followup.content
    assert "you have 3 tokens" in followup.content
    await save("hand_after_buy", followup.attachments[0])
    board = channel_message(table.channel, board.id)
    assert "paid 1 token and drew a card" in board.embeds[0].description


async def test_the_joker_is_laid_and_taken_back(table, seed):
    seed(JOKER_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    await play_turn(table, board.id, joker=True)
    board = channel_message(table.channel, board.id)
    await save("board_joker", board.attachments[0])
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    assert "Take back the joker" in button_labels(hand)

    player, result = await play_turn(table, board.id, joker=True)

    assert "took the joker into your hand" in result.response.message.content
    board = channel_message(table.channel, board.id)
    assert "took back the joker" in board.embeds[0].description
    later = await open_hand(player, board)
    assert "Take back the joker" not in button_labels(later)


async def test_the_match_goes_on_after_a_restart(table, database, seed):
    seed(DEAL_SEED)
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new")
    await play_turn(table, board.id)
    board = channel_message(table.channel, board.id)
    player = mover(board, table.players)
    hand = await open_hand(player, board)  # opened before the restart, used after it

    await table.env.restart_bot(create_bot(database=database))

    assert channel_message(table.channel, board.id).embeds[0].footer.text == board.embeds[0].footer.text
    result = await place_from_hand(player, hand)
    assert result.response.message.content.startswith("You placed card")
    await play_turn(table, board.id)
    assert "move 3" in channel_message(table.channel, board.id).embeds[0].footer.text


async def test_nobody_sees_another_players_hand_in_the_channel_or_by_dm(table, seed):
    seed(JOKER_SEED)
    players = [table.alice, table.bob, table.carol]
    board = await open_and_start(table.channel, table.alice, players[1:], "triominos new")
    hands: dict[int, set[bytes]] = {p.user.id: set() for p in players}
    for _ in range(6):
        player, _result = await play_turn(table, board.id, joker=True)
        hand = await open_hand(player, channel_message(table.channel, board.id))
        hands[player.user.id].add(await hand.attachments[0].read())

    for member in players:
        others = set().union(*(images for user, images in hands.items() if user != member.user.id))
        seen = [m for m in table.channel.history(viewer=member)] + list(member.user.dm_channel.history())
        images = {await a.read() for m in seen for a in m.attachments}
        assert not images & others
        assert not any(select_named(m, "card") for m in table.channel.history(viewer=member) if m.author.bot)
    dms = list(table.alice.user.dm_channel.history())
    assert any("Your turn in **My First Triominos" in m.content and m.attachments for m in dms)


async def test_open_hands_are_listed_on_the_board_and_the_rules_are_short(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "triominos new", open_hands=True)
    assert "hand: " in board.embeds[0].description
    rules = await table.carol.slash(table.channel, "triominos rules")
    assert rules.ephemeral and "hexagon" in rules.response.embeds[0].description
    assert len(rules.response.embeds[0].description) <= 4096


def test_a_card_fitting_many_places_asks_for_the_place_then_the_turn():
    match = SimpleNamespace(id=1, turn=3)
    places = [{"label": str(n), "points": [[0, 1], [1, 0], [0, 0]]} for n in range(1, 11)]
    fits = [[str(n), r] for n in range(1, 11) for r in range(3)]
    view = {"hand": [{"values": [1, 2, 3]}], "fits": [fits], "places": places}

    steps = spot_items(match, view, 0)
    turns = rotation_items(match, view, 0, "4")

    assert [len(s.item.options) for s in steps if hasattr(s.item, "options")] == [10]
    assert ":place:0:" in steps[0].item.custom_id
    assert [o.label for o in turns[0].item.options] == [
        "Turned: top 1, lower right 2, lower left 3",
        "Turned: top 2, lower right 3, lower left 1",
        "Turned: top 3, lower right 1, lower left 2",
    ]
