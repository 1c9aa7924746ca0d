"""Sequence Numbers through the real bot in SimCord: the hand in private, cards to cells.

Every move is made the way a player makes it: "My hand" on the board, the card in the
menu, then a cell button or menu. The engine state behind a board is read only to
decide which legal choice to click (or, in a few tests, to set up a position); every
assertion is about what a member sees.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from bot import create_bot
from cogs.sequence_numbers import parse_cell
from games.sequence_numbers import CARDS, CELLS_OF, CORNERS, DIRECTIONS, SIZE, _windows, cell_name, team_of
from tests.e2e.helpers import button_labels, channel_message, components, mover, open_and_start

MY_HAND = "My hand"
CARD_MENU = "Choose a card to play"
PROBLEM = re.compile(r"\d+ [+-] \d+")
PLUS = next(i for i, card in enumerate(CARDS) if card.kind == "plus")
MINUS = next(i for i, card in enumerate(CARDS) if card.kind == "minus")


# ------------------------------------------------------------------ choosing a move


def match_of(table: Any, board: Any) -> Any:
    """The running match behind a board: read to decide what to click, never to assert."""
    match_id = int(board.embeds[0].footer.text.split()[1])
    return table.env.bot.matches.running[match_id]


def _line_strength(chips: tuple, cell: int, team: int) -> int:
    """The most chips of `team` (corners included) in an open line of five through `cell`."""
    best = 0
    for window in (w for direction in DIRECTIONS for w in _windows(cell, direction)):
        if any(chips[x] not in (None, team) for x in window if x not in CORNERS):
            continue
        best = max(best, sum(x in CORNERS or chips[x] == team for x in window))
    return best


def greedy(match: Any, seat: int) -> dict:
    """Trade a dead card first; else the play that builds (or breaks) the strongest line."""
    state, engine = match.state, match.engine
    moves = engine.legal_moves(state, seat)
    trades = [m for m in moves if m["type"] == "trade"]
    if trades:
        return trades[0]
    team = team_of(state, seat)

    def value(move: dict) -> float:
        cell = move["row"] * SIZE + move["col"]
        if CARDS[state.hands[seat][move["card"]]].kind == "minus":
            return _line_strength(state.chips, cell, state.chips[cell]) - 0.5
        return _line_strength(state.chips, cell, team)

    return max(moves, key=value)


# ------------------------------------------------------------------ clicking it


def menu(message: Any, placeholder: str) -> Any | None:
    return next((c for c in components(message) if getattr(c, "placeholder", None) == placeholder), None)


def card_menu_id(message: Any) -> str:
    return menu(message, CARD_MENU).custom_id


def seen(table: Any, message: Any, viewer: Any) -> Any:
    """A message as `viewer` sees it now (ephemeral replies included)."""
    return channel_message(table.channel, message.id, viewer=viewer)


async def open_hand(player: Any, board: Any) -> Any:
    result = await player.click(board, label=MY_HAND)
    assert result.ephemeral and result.response.attachments
    return result.response.message


async def make_move(table: Any, player: Any, hand: Any, move: dict) -> Any:
    """Click `move` in the hand message: trade button, or card menu then the cell."""
    if move["type"] == "trade":
        trade = next(
            label for label in button_labels(hand) if label.startswith(f"Trade dead card {move['card'] + 1} ")
        )
        await player.click(hand, label=trade)
        return seen(table, hand, player)
    await player.select(hand, [str(move["card"])], custom_id=card_menu_id(hand))
    hand = seen(table, hand, player)
    cell = cell_name(move["row"] * SIZE + move["col"])
    if cell in button_labels(hand):
        await player.click(hand, label=cell)
    elif (cells := menu(hand, "Choose the cell")) is not None:
        await player.select(hand, [cell], custom_id=cells.custom_id)
    else:
        await player.select(hand, [str(move["row"])], custom_id=menu(hand, "Choose the row").custom_id)
        hand = seen(table, hand, player)
        await player.select(hand, [cell], custom_id=menu(hand, "Choose the column").custom_id)
    return seen(table, hand, player)


async def take_turn(table: Any, board_id: int, members: list[Any]) -> Any:
    """The member the board names plays the greedy move through the UI; returns the board."""
    board = channel_message(table.channel, board_id)
    player = mover(board, members)
    match = match_of(table, board)
    move = greedy(match, match.seat_of(player.user.id))
    hand = await open_hand(player, board)
    note = await make_move(table, player, hand, move)
    assert not note.components or move["type"] == "trade"
    return channel_message(table.channel, board_id)


async def play_to_the_end(table: Any, board: Any, members: list[Any], turns: int = 200) -> Any:
    for _ in range(turns):
        if "**Game over**" in board.embeds[0].description:
            return board
        board = await take_turn(table, board.id, members)
    raise AssertionError(f"the match did not end in {turns} turns")


def set_position(table: Any, board: Any, **changes: Any) -> None:
    """Load a built position into the running match (setup only, never an assertion)."""
    match = match_of(table, board)
    match.state = replace(match.state, **changes)


def with_hand(state: Any, seat: int, cards: list[int]) -> dict[str, tuple]:
    """Hands and deck with `cards` swapped into the seat's first hand slots."""
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    for slot, card in enumerate(cards):
        old = hands[seat][slot]
        for pile in (*hands, deck):
            if card in pile:
                pile[pile.index(card)] = old
        hands[seat][slot] = card
    return {"hands": tuple(map(tuple, hands)), "deck": tuple(deck)}


def problem_card(answer: int) -> int:
    return next(i for i, card in enumerate(CARDS) if card.kind == "problem" and card.answer == answer)


# ------------------------------------------------------------------ what members see


def texts(message: Any) -> str:
    """Every word of a message a member can read: content, embeds, controls."""
    parts = [message.content or ""]
    parts += [json.dumps(embed.to_dict(), ensure_ascii=False) for embed in message.embeds]
    for component in components(message):
        parts += [getattr(component, "label", None) or "", getattr(component, "placeholder", None) or ""]
        for option in getattr(component, "options", []):
            parts += [option.label, option.description or ""]
    return "\n".join(parts)


def everything_seen_by(table: Any, member: Any) -> str:
    messages = [*table.channel.history(viewer=member), *member.user.dm_channel.history()]
    return "\n".join(texts(m) for m in messages)


def shows_card(text: str, card: str) -> bool:
    return re.search(rf"(?<!\d){re.escape(card)}(?!\d)", text) is not None


async def own_cards(player: Any, board: Any) -> list[str]:
    """The problem cards a member reads in their own hand message."""
    hand = await open_hand(player, board)
    return PROBLEM.findall(hand.content.split("):", 1)[1])


# ------------------------------------------------------------------ tests


async def test_two_players_play_through_the_hand_messages_to_a_win(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    assert board.embeds[0].title.startswith("Sequence Numbers #")
    assert (await board.attachments[0].read()).startswith(b"\x89PNG")
    assert button_labels(board) == [MY_HAND, "Resign"]
    players = board.embeds[0].fields[0].value
    assert "P1 · team A" in players and "P2 · team B" in players and "sequences 0/1" in players

    board = await take_turn(table, board.id, table.players)
    headline = board.embeds[0].description
    assert re.search(rf"<@{table.alice.user.id}> played (\d+ [+-] \d+|a plus card) on [A-J]\d+", headline)
    assert f"**Turn 2:** <@{table.bob.user.id}> (🟧 P2 · team B) to move." in headline

    board = await play_to_the_end(table, board, table.players)

    text = board.embeds[0].description
    assert "completed a sequence (1/1)" in text
    assert re.search(r"<@\d+> wins!", text)
    assert "sequences 1/1" in board.embeds[0].fields[0].value
    assert MY_HAND not in button_labels(board)  # nothing left to play


async def test_the_hand_is_private_and_playable_only_on_your_turn(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")

    waiting = await table.bob.click(board, label=MY_HAND)
    assert waiting.ephemeral and waiting.response.attachments
    assert "your hand (🟧 P2 · team B)" in waiting.response.content
    assert "when it is your turn" in waiting.response.content
    assert not waiting.response.components
    outsider = await table.carol.click(board, label=MY_HAND)
    assert outsider.ephemeral and "not playing in this match" in outsider.response.content

    hand = await open_hand(table.alice, board)
    options = menu(hand, CARD_MENU).options
    assert [o.label.split(" · ")[0] for o in options] == ["1", "2", "3", "4", "5"]
    card = next(o for o in options if o.description.startswith("goes on "))
    await table.alice.select(hand, [card.value], custom_id=card_menu_id(hand))
    hand = seen(table, hand, table.alice)
    cells = [label for label in button_labels(hand) if re.fullmatch(r"[A-J]\d+", label)]
    assert 1 <= len(cells) <= 2 and cells == card.description.removeprefix("goes on ").split(" or ")
    assert f"Card {int(card.value) + 1}, **" in hand.content
    stale = await open_hand(table.alice, board)  # a second hand message, soon out of date

    await table.alice.click(hand, label=cells[0])

    hand = seen(table, hand, table.alice)
    assert hand.content.startswith("You played ") and hand.content.endswith(f" on {cells[0]}.")
    assert not hand.components and not hand.attachments
    board = channel_message(table.channel, board.id)
    assert f"on {cells[0]}." in board.embeds[0].description
    refused = await table.alice.select(stale, ["0"], custom_id=card_menu_id(stale))
    assert refused.ephemeral and "out of date" in refused.response.content
    notice = table.bob.user.dm_channel.history()[-1]
    assert notice.content.startswith("Your turn in **Sequence Numbers #")
    assert "your hand (🟧 P2 · team B)" in notice.content and notice.attachments
    assert not [m for m in table.channel.history(viewer=table.bob) if m.id in (hand.id, stale.id)]


async def test_teammates_never_see_each_others_cards(table):
    members = table.players
    board = await open_and_start(table.channel, table.alice, members[1:], "sequence new")
    players = board.embeds[0].fields[0].value.splitlines()
    assert ["team A" in p for p in players] == [True, False, True, False]
    assert "sequences 0/2" in players[0]

    for _ in range(8):
        board = await take_turn(table, board.id, members)
    hands = {member: await own_cards(member, board) for member in members}

    assert sum(map(len, hands.values())) >= 12  # 16 cards in hands; the deck has 4 plus/minus
    for member in members:
        visible = everything_seen_by(table, member)
        assert all(shows_card(visible, card) for card in hands[member])
        for other in members:
            if other is not member:
                leaked = [card for card in hands[other] if shows_card(visible, card)]
                assert not leaked, f"{member.user.name} sees {other.user.name}'s {leaked}"
        dms = member.user.dm_channel.history()
        assert dms and all(m.content.startswith("Your turn in **Sequence") and m.attachments for m in dms)


async def test_a_minus_card_removes_an_opponent_chip_from_a_menu(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    chips = [None] * (SIZE * SIZE)
    for name, team in (("D7", 1), ("E7", 1), ("F2", 0)):
        chips[parse_cell(name)] = team
    set_position(table, board, chips=tuple(chips), **with_hand(match_of(table, board).state, 0, [MINUS]))

    hand = await open_hand(table.alice, board)
    card = menu(hand, CARD_MENU).options[0]
    assert card.label == "1 · minus card" and card.description == "remove one of 2 opponent chips"
    await table.alice.select(hand, ["0"], custom_id=card_menu_id(hand))
    hand = seen(table, hand, table.alice)
    assert "remove an opponent chip" in hand.content
    cells = menu(hand, "Choose the cell").options
    assert [o.label for o in cells] == ["D7", "E7"]  # not Alice's own chip on F2
    assert all(o.description.startswith("🟧 team B chip on ") for o in cells)
    before = await board.attachments[0].read()

    await table.alice.select(hand, ["D7"], custom_id=menu(hand, "Choose the cell").custom_id)

    assert seen(table, hand, table.alice).content == "You removed the chip on D7 with a minus card."
    board = channel_message(table.channel, board.id)
    assert (
        f"<@{table.alice.user.id}> removed a chip from D7 with a minus card." in board.embeds[0].description
    )
    assert await board.attachments[0].read() != before


async def test_a_plus_card_picks_a_row_then_a_column(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    set_position(table, board, **with_hand(match_of(table, board).state, 0, [PLUS]))

    hand = await open_hand(table.alice, board)
    await table.alice.select(hand, ["0"], custom_id=card_menu_id(hand))
    hand = seen(table, hand, table.alice)
    rows = menu(hand, "Choose the row").options
    assert [o.label for o in rows] == [f"Row {n}" for n in range(1, 11)]
    assert rows[0].description == "8 cells" and rows[4].description == "10 cells"  # no corners
    await table.alice.select(hand, ["4"], custom_id=menu(hand, "Choose the row").custom_id)
    hand = seen(table, hand, table.alice)
    columns = menu(hand, "Choose the column").options
    assert [o.label for o in columns] == [f"{c}5" for c in "ABCDEFGHIJ"]

    await table.alice.select(hand, ["C5"], custom_id=menu(hand, "Choose the column").custom_id)

    assert seen(table, hand, table.alice).content == "You put a chip on C5 with a plus card."
    board = channel_message(table.channel, board.id)
    assert f"<@{table.alice.user.id}> played a plus card on C5." in board.embeds[0].description


async def test_a_dead_card_is_traded_once_and_refused_when_played(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    first, second, *others = (problem_card(n) for n in (1, 2, 10, 20, 30))
    chips = [None] * (SIZE * SIZE)
    for cell in CELLS_OF[1] + CELLS_OF[2]:
        chips[cell] = 1
    hand = with_hand(match_of(table, board).state, 0, [first, second, *others])
    set_position(table, board, chips=tuple(chips), **hand)
    dead_texts = [CARDS[first].text, CARDS[second].text]

    hand = await open_hand(table.alice, board)
    assert [label for label in button_labels(hand) if label.startswith("Trade")] == [
        f"Trade dead card 1 ({dead_texts[0]})",
        f"Trade dead card 2 ({dead_texts[1]})",
    ]
    assert menu(hand, CARD_MENU).options[0].description == "dead: both of its cells are taken"
    refused = await table.alice.select(hand, ["0"], custom_id=card_menu_id(hand))
    assert refused.ephemeral and refused.response.content.startswith(f"Card 1 ({dead_texts[0]}) is dead")

    await table.alice.click(hand, label=f"Trade dead card 1 ({dead_texts[0]})")

    hand = seen(table, hand, table.alice)
    assert hand.content.startswith(f"You traded {dead_texts[0]} for a new card.")
    assert not [label for label in button_labels(hand) if label.startswith("Trade")]  # once a turn
    assert not shows_card(hand.content.split("\n", 1)[1], dead_texts[0])
    dead = next(o for o in menu(hand, CARD_MENU).options if o.label == f"1 · {dead_texts[1]}")
    refused = await table.alice.select(hand, [dead.value], custom_id=card_menu_id(hand))
    assert "traded a dead card this turn already" in refused.response.content
    board = channel_message(table.channel, board.id)
    assert f"<@{table.alice.user.id}> traded a dead card ({dead_texts[0]})." in board.embeds[0].description
    assert mover(board, table.players) is table.alice  # the turn goes on after a trade


async def test_the_match_and_an_open_hand_message_survive_a_restart(table, database):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    board = await take_turn(table, board.id, table.players)
    player = mover(board, table.players)
    match = match_of(table, board)
    move = greedy(match, match.seat_of(player.user.id))
    hand = await open_hand(player, board)
    footer = board.embeds[0].footer.text

    await table.env.restart_bot(create_bot(database=database))

    assert channel_message(table.channel, board.id).embeds[0].footer.text == footer
    note = await make_move(table, player, hand, move)  # the hand message opened before
    assert note.content.startswith(("You played", "You put", "You removed", "You traded"))
    board = channel_message(table.channel, board.id)
    assert board.embeds[0].footer.text != footer
    footer = board.embeds[0].footer.text
    board = await take_turn(table, board.id, table.players)
    assert board.embeds[0].footer.text != footer


async def test_closed_dms_are_said_in_the_channel_without_any_card(table):
    dm = table.bob.user.dm_channel
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007)

    board = await take_turn(table, board.id, table.players)  # Bob's turn comes: his DM fails

    notices = [m for m in table.channel.history() if "cannot send you direct messages" in m.content]
    assert len(notices) == 1
    assert f"<@{table.bob.user.id}>" in notices[0].content and "**My hand**" in notices[0].content
    assert not notices[0].attachments
    cards = await own_cards(table.bob, board)
    assert cards and not any(shows_card(notices[0].content, card) for card in cards)
    footer = board.embeds[0].footer.text
    board = await take_turn(table, board.id, table.players)  # Bob plays from the button
    assert board.embeds[0].footer.text != footer


async def test_six_players_may_play_in_three_teams_and_five_are_refused(table):
    erin, frank = (table.guild.add_member(table.env.create_user(n)) for n in ("erin", "frank"))
    lobby = (await table.alice.slash(table.channel, "sequence new", teams=3)).response.message
    assert "6 play in three teams of two" in lobby.embeds[0].description
    for guest in (table.bob, table.carol, table.dave, erin):
        await guest.click(lobby, label="Join")
    five = await table.alice.click(lobby, label="Start")
    assert five.ephemeral and "cannot be played by 5" in five.response.content
    await frank.click(lobby, label="Join")

    await table.alice.click(lobby, label="Start")

    players = channel_message(table.channel, lobby.id).embeds[0].fields[0].value.splitlines()
    assert [p.split(" · ")[1] for p in players] == ["team A", "team B", "team C"] * 2


async def test_the_rules_are_told_privately(table):
    result = await table.alice.slash(table.channel, "sequence rules")
    assert result.ephemeral
    text = result.response.embeds[0].description
    assert "sequence" in text and "dead card" in text.lower() and "minus card" in text
