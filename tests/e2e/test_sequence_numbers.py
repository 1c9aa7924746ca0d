"""Sequence Numbers through the real bot in SimCord: the hand in private, cards to cells,
the first seat drawn by lot, and the mover's choice of which five lock.

Every move is made the way a player makes it: "My hand" on the board, the card in the
menu, then a cell button or menu (or a "Lock A3–E3" button); menus are read by their
options' labels (a value is only the option's index). The engine state behind a board is read only to
decide which legal choice to click (or, in a few tests, to set up a position); every
assertion is about what a member sees.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

from PIL import Image

from bot import create_bot
from games.sequence_numbers import CARDS, CELLS_OF, CORNERS, DIRECTIONS, SIZE, _windows, cell_name, team_of
from matches.match import seat_name
from render.sequence_numbers import CHOICE, cell_centre, parse_cell
from tests.e2e.helpers import (
    all_text,
    board_image,
    body,
    button_labels,
    channel_message,
    components,
    field,
    footer,
    forge,
    mover,
    open_and_start,
    roster,
    title,
    told,
)

MY_HAND = "My hand"
CARD_MENU = "Choose a card to play"
PROBLEM = re.compile(r"\d+ [+-] \d+")
PLUS = next(i for i, card in enumerate(CARDS) if card.kind == "plus")
MINUS = next(i for i, card in enumerate(CARDS) if card.kind == "minus")


# ------------------------------------------------------------------ choosing a move


def match_of(table: Any, board: Any) -> Any:
    """The running match behind a board: read to decide what to click, never to assert."""
    match_id = int(footer(board).split()[1])
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
    """Lock the first run offered; trade a dead card first; else the play that builds (or
    breaks) the strongest line."""
    state, engine = match.state, match.engine
    moves = engine.legal_moves(state, seat)
    if moves[0]["type"] == "lock":
        return moves[0]
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


def menu(message: Any, placeholder: str) -> Any:
    """The select menu with `placeholder` in `message`, or None."""
    return next((c for c in components(message) if getattr(c, "placeholder", None) == placeholder), None)


def card_menu_id(message: Any) -> str:
    return menu(message, CARD_MENU).custom_id


async def pick(player: Any, message: Any, placeholder: str, label: str) -> Any:
    """Choose the option labelled `label` (a card: by its number) in the menu with `placeholder`."""
    found = menu(message, placeholder)
    value = next(o.value for o in found.options if label in (o.label, o.label.split(" · ")[0]))
    return await player.select(message, [value], custom_id=found.custom_id)


def first_line(message: Any) -> str:
    """The hand reply's first line: after a move of the seat's own, what that move did."""
    return message.content.split("\n", 1)[0]


def seen(table: Any, message: Any, viewer: Any) -> Any:
    """A message as `viewer` sees it now (ephemeral replies included)."""
    return channel_message(table.channel, message.id, viewer=viewer)


async def open_hand(player: Any, board: Any) -> Any:
    result = await player.click(board, label=MY_HAND)
    assert result.ephemeral and result.response.attachments
    return result.response.message


async def make_move(table: Any, player: Any, hand: Any, move: dict) -> Any:
    """Click `move` in the hand message: lock or trade button, or card menu then the cell."""
    if move["type"] == "lock":
        await player.click(hand, label=f"Lock {move['from']}–{move['to']}")
        return seen(table, hand, player)
    if move["type"] == "trade":
        trade = next(
            label for label in button_labels(hand) if label.startswith(f"Trade dead card {move['card'] + 1} ")
        )
        await player.click(hand, label=trade)
        return seen(table, hand, player)
    await pick(player, hand, CARD_MENU, str(move["card"] + 1))
    hand = seen(table, hand, player)
    cell = cell_name(move["row"] * SIZE + move["col"])
    if cell in button_labels(hand):
        await player.click(hand, label=cell)
    elif menu(hand, "Choose the cell") is not None:
        await pick(player, hand, "Choose the cell", cell)
    else:
        await pick(player, hand, "Choose the row", f"Row {move['row'] + 1}")
        hand = seen(table, hand, player)
        await pick(player, hand, "Choose the column", cell)
    return seen(table, hand, player)


async def take_turn(table: Any, board_id: int, members: list[Any]) -> Any:
    """The member the board names plays the greedy move through the UI; returns the board."""
    board = channel_message(table.channel, board_id)
    player = mover(board, members)
    assert player is not None
    match = match_of(table, board)
    move = greedy(match, match.seat_of(player.user.id))
    hand = await open_hand(player, board)
    note = await make_move(table, player, hand, move)
    # The hand message keeps controls only after a trade, or for the lock choice a chip made.
    assert not components(note) or move["type"] == "trade" or "choose which five" in note.content
    return channel_message(table.channel, board_id)


async def play_to_the_end(table: Any, board: Any, members: list[Any], turns: int = 200) -> Any:
    for _ in range(turns):
        if "**Game over**" in body(board):
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
    """Every word of a message a member can read: its text and its controls."""
    parts = [all_text(message)]
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


# ------------------------------------------------------------------ seats


def at(name: str) -> int:
    """The cell index of a `C4`-style name."""
    row, col = parse_cell(name)
    return row * SIZE + col


def seat_of(table: Any, member: Any) -> int:
    """Seats stay as the members sat down: the host first, then the guests as they joined."""
    return table.players.index(member)


def named(table: Any, member: Any, players: int = 2) -> str:
    """How the board's headline names a member: mention and seat, and with four players
    (two teams, partners opposite) the team."""
    seat = seat_of(table, member)
    team = f" · team {seat % 2 + 1}" if players == 4 else ""
    return f"<@{member.user.id}> ({seat_name(seat)}{team})"


def the_other(table: Any, member: Any) -> Any:
    return table.bob if member is table.alice else table.alice


# ------------------------------------------------------------------ tests


async def test_two_players_play_through_the_hand_messages_to_a_win(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    assert title(board).startswith("Sequence Numbers #")
    assert (await board_image(board).read()).startswith(b"\x89PNG")
    assert button_labels(board) == [MY_HAND, "Resign"]
    players = roster(board)
    assert f"🟦 A · <@{table.alice.user.id}>" in players and f"🟧 B · <@{table.bob.user.id}>" in players
    assert "sequences 0/1" in players
    first = mover(board, table.players)
    second = the_other(table, first)

    board = await take_turn(table, board.id, table.players)
    headline = body(board)
    played = rf"{re.escape(named(table, first))} played (\d+ [+-] \d+|a plus card) on [A-J]\d+\."
    assert re.search(played, headline)
    assert f"**Turn 2:** {named(table, second)} to move." in headline

    board = await play_to_the_end(table, board, table.players)

    text = body(board)
    # The winning chip may complete two sequences at once (two lines through it).
    won = re.search(r"completed (?:a sequence|2 sequences) \(([12])/1\): [A-J]\d+–[A-J]\d+[ .]", text)
    assert won and re.search(r"<@\d+> wins!", text)
    assert f"sequences {won[1]}/1" in roster(board)
    assert MY_HAND not in button_labels(board)  # nothing left to play


async def test_the_first_board_says_who_was_drawn_to_start_and_pings_them(table):
    board = await open_and_start(table.channel, table.alice, table.players[1:], "sequence new")

    first = mover(board, table.players)
    headline = body(board)
    seat = seat_of(table, first)
    label = f"<@{first.user.id}> ({seat_name(seat)} · team {seat % 2 + 1})"  # four players: two teams
    assert f"{label} was drawn to start." in headline
    assert f"**Turn 1:** {label} to move." in headline
    ping = table.channel.history()[-1]
    assert ping.content.startswith(f"<@{first.user.id}> — your turn")
    assert first.user.dm_channel.history()[-1].content.startswith("Your turn in **Sequence Numbers #")
    for member in table.players:
        if member is not first:
            assert not member.user.dm_channel.history()


async def test_the_hand_is_private_and_playable_only_on_your_turn(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    other = the_other(table, player)

    waiting = await other.click(board, label=MY_HAND)
    assert waiting.ephemeral and waiting.response.attachments
    assert f"your hand ({seat_name(seat_of(table, other))})" in waiting.response.content
    assert "when it is your turn" in waiting.response.content
    assert not components(waiting.response)
    outsider = await table.carol.click(board, label=MY_HAND)
    assert "not playing in this match" in told(outsider)

    hand = await open_hand(player, board)
    options = menu(hand, CARD_MENU).options
    assert [o.label.split(" · ")[0] for o in options] == ["1", "2", "3", "4", "5"]
    card = next(o for o in options if o.description.startswith("goes on "))
    await player.select(hand, [card.value], custom_id=card_menu_id(hand))
    hand = seen(table, hand, player)
    cells = [label for label in button_labels(hand) if re.fullmatch(r"[A-J]\d+", label)]
    assert 1 <= len(cells) <= 2 and cells == card.description.removeprefix("goes on ").split(" or ")
    assert f"Card {int(card.value) + 1}, **" in hand.content
    assert [o.label for o in menu(hand, CARD_MENU).options if o.default] == [card.label]

    await player.click(hand, label=cells[0])

    hand = seen(table, hand, player)  # redrawn: the new hand, without the card played
    assert first_line(hand).startswith("You played ") and first_line(hand).endswith(f" on {cells[0]}.")
    assert not components(hand) and "when it is your turn" in hand.content
    assert not shows_card(hand.content.split("):", 1)[1], card.label.split(" · ")[1])
    board = channel_message(table.channel, board.id)
    assert f"on {cells[0]}." in body(board)
    notice = other.user.dm_channel.history()[-1]
    assert notice.content.startswith("Your turn in **Sequence Numbers #")
    assert f"your hand ({seat_name(seat_of(table, other))})" in notice.content and notice.attachments
    assert not [m for m in table.channel.history(viewer=other) if m.id == hand.id]


async def test_teammates_never_see_each_others_cards(table):
    members = table.players
    board = await open_and_start(table.channel, table.alice, members[1:], "sequence new")
    players = roster(board).splitlines()
    assert ["team 1" in p for p in players] == [True, False, True, False]
    assert [p.split(" · ")[0] for p in players] == ["🟦 A", "🟧 B", "🟩 C", "🟪 D"]
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
    player = mover(board, table.players)
    seat = seat_of(table, player)
    chips = [None] * (SIZE * SIZE)
    for name, team in (("D7", 1 - seat), ("E7", 1 - seat), ("F2", seat)):
        chips[at(name)] = team
    set_position(table, board, chips=tuple(chips), **with_hand(match_of(table, board).state, seat, [MINUS]))

    hand = await open_hand(player, board)
    card = menu(hand, CARD_MENU).options[0]
    assert card.label == "1 · minus card" and card.description == "remove one of 2 opponent chips"
    await player.select(hand, ["0"], custom_id=card_menu_id(hand))
    hand = seen(table, hand, player)
    assert "remove an opponent chip" in hand.content
    cells = menu(hand, "Choose the cell").options
    assert [o.label for o in cells] == ["D7", "E7"]  # not the player's own chip on F2
    assert all(o.description.startswith(f"{seat_name(1 - seat)} chip on ") for o in cells)
    before = await board_image(board).read()

    await pick(player, hand, "Choose the cell", "D7")

    assert first_line(seen(table, hand, player)) == "You removed a chip from D7 with a minus card."
    board = channel_message(table.channel, board.id)
    assert f"{named(table, player)} removed a chip from D7 with a minus card." in body(board)
    assert await board_image(board).read() != before


async def test_a_plus_card_picks_a_row_then_a_column(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    set_position(table, board, **with_hand(match_of(table, board).state, seat_of(table, player), [PLUS]))

    hand = await open_hand(player, board)
    await player.select(hand, ["0"], custom_id=card_menu_id(hand))
    hand = seen(table, hand, player)
    rows = menu(hand, "Choose the row").options
    assert [o.label for o in rows] == [f"Row {n}" for n in range(1, 11)]
    assert rows[0].description == "8 cells" and rows[4].description == "10 cells"  # no corners
    await pick(player, hand, "Choose the row", "Row 5")
    hand = seen(table, hand, player)
    columns = menu(hand, "Choose the column").options
    assert [o.label for o in columns] == [f"{c}5" for c in "ABCDEFGHIJ"]

    await pick(player, hand, "Choose the column", "C5")

    assert first_line(seen(table, hand, player)) == "You played a plus card on C5."
    board = channel_message(table.channel, board.id)
    assert f"{named(table, player)} played a plus card on C5." in body(board)


async def test_a_dead_card_is_traded_once_and_refused_when_played(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    seat = seat_of(table, player)
    first, second, *others = (problem_card(n) for n in (1, 2, 10, 20, 30))
    chips = [None] * (SIZE * SIZE)
    for cell in CELLS_OF[1] + CELLS_OF[2]:
        chips[cell] = 1 - seat
    hand = with_hand(match_of(table, board).state, seat, [first, second, *others])
    set_position(table, board, chips=tuple(chips), **hand)
    dead_texts = [CARDS[first].text, CARDS[second].text]

    hand = await open_hand(player, board)
    assert [label for label in button_labels(hand) if label.startswith("Trade")] == [
        f"Trade dead card 1 ({dead_texts[0]})",
        f"Trade dead card 2 ({dead_texts[1]})",
    ]
    assert menu(hand, CARD_MENU).options[0].description == "dead: both of its cells are taken"
    await player.select(hand, ["0"], custom_id=card_menu_id(hand))
    hand = seen(table, hand, player)  # the card cannot be played: the reply says why, no cell
    assert f"Card 1 ({dead_texts[0]}) is dead" in hand.content and not menu(hand, "Choose the cell")

    await player.click(hand, label=f"Trade dead card 1 ({dead_texts[0]})")

    hand = seen(table, hand, player)
    assert first_line(hand) == f"You traded a dead card ({dead_texts[0]})."
    assert not [label for label in button_labels(hand) if label.startswith("Trade")]  # once a turn
    assert not shows_card(hand.content.split("\n", 1)[1], dead_texts[0])
    dead = next(o for o in menu(hand, CARD_MENU).options if o.label == f"1 · {dead_texts[1]}")
    await player.select(hand, [dead.value], custom_id=card_menu_id(hand))
    assert "traded a dead card this turn already" in seen(table, hand, player).content
    board = channel_message(table.channel, board.id)
    assert f"{named(table, player)} traded a dead card ({dead_texts[0]})." in body(board)
    assert mover(board, table.players) is player  # the turn goes on after a trade


# --------------------------------------------------------- the mover chooses which five lock


async def six_in_a_row(table: Any, **options: Any) -> tuple[Any, Any, Any]:
    """Four players; the member to move holds 11 + 19 (30, on C3) and their team has
    chips on A3, B3, D3, E3 and F3. They play C3 through the hand message.
    Returns (board, mover, hand message)."""
    members = table.players
    board = await open_and_start(table.channel, table.alice, members[1:], "sequence new", **options)
    player = mover(board, members)
    seat = seat_of(table, player)
    chips: list[int | None] = [None] * (SIZE * SIZE)
    for name in ("A3", "B3", "D3", "E3", "F3"):
        chips[at(name)] = seat % 2
    set_position(table, board, chips=tuple(chips), **with_hand(match_of(table, board).state, seat, [THIRTY]))
    hand = await open_hand(player, board)
    hand = await make_move(table, player, hand, {"type": "play", "card": 0, "row": 2, "col": 2})
    return channel_message(table.channel, board.id), player, hand


THIRTY = problem_card(30)
LOCKS = ["Lock A3–E3", "Lock B3–F3"]


async def test_six_in_a_row_lets_the_mover_choose_which_five_lock_and_a_restart_keeps_the_choice(
    table, target
):
    board, player, hand = await six_in_a_row(table)
    seat = seat_of(table, player)

    assert hand.content.startswith(f"You played {CARDS[THIRTY].text} on C3.")
    assert "choose which five chips to lock" in hand.content
    assert button_labels(hand) == [*LOCKS, "Hint"]
    headline = body(board)
    assert (
        f"{named(table, player, 4)} made more than five in a row and chooses which five chips to lock: "
        "A3–E3 or B3–F3." in headline
    )
    assert mover(board, table.players) is player  # the same turn goes on
    # The chip has drawn nothing yet (the draw follows the lock): it may still be taken back.
    assert button_labels(board) == [*LOCKS, MY_HAND, "Resign", "Take back"]
    picture = Image.open(io.BytesIO(await board_image(board).read())).convert("RGB")
    x, y = cell_centre(2, 2)
    assert all(abs(a - b) <= 40 for a, b in zip(picture.getpixel((x, y - 25)), CHOICE, strict=True))
    partner = table.players[(seat + 2) % 4]
    refused = await partner.click(board, label="Lock A3–E3")
    assert f"It is not your turn — <@{player.user.id}>" in told(refused)

    await table.env.restart_bot(create_bot(database=target))

    board = channel_message(table.channel, board.id)
    assert button_labels(board) == [*LOCKS, MY_HAND, "Resign", "Take back"]
    chosen = await player.click(board, label="Lock A3–E3")

    assert chosen.acknowledged and not chosen.ephemeral
    board = channel_message(table.channel, board.id)
    headline = body(board)
    assert f"{named(table, player, 4)} played {CARDS[THIRTY].text} on C3 and chose to lock A3–E3." in headline
    assert f"Team {seat % 2 + 1} completed a sequence (1/2): A3–E3." in headline
    assert mover(board, table.players) is table.players[(seat + 1) % 4]
    assert button_labels(board) == [MY_HAND, "Resign"]
    scores = roster(board).splitlines()
    assert all(("sequences 1/2" in line) == (index % 2 == seat % 2) for index, line in enumerate(scores))


async def test_the_lock_choice_can_be_made_from_the_hand_message(table):
    board, player, hand = await six_in_a_row(table)
    reopened = await open_hand(player, board)  # in place of the first
    assert button_labels(reopened) == [*LOCKS, "Hint"]
    assert "choose which five chips to lock" in reopened.content
    assert hand.id not in [message.id for message in table.channel.history(viewer=player)]

    await player.click(reopened, label="Lock B3–F3")

    assert (
        first_line(seen(table, reopened, player))
        == f"You played {CARDS[THIRTY].text} on C3 and chose to lock B3–F3."
    )
    board = channel_message(table.channel, board.id)
    assert "chose to lock B3–F3." in body(board)
    assert "completed a sequence (1/2): B3–F3." in body(board)
    assert mover(board, table.players) is not player


async def test_when_time_runs_out_during_the_lock_choice_the_first_run_is_locked(table):
    board, player, _ = await six_in_a_row(table, clock=120)

    await table.env.advance_time(150)

    board = channel_message(table.channel, board.id)
    headline = body(board)
    assert f"⏰ <@{player.user.id}> ran out of time: the turn was played for them (lock)." in headline
    assert "chose to lock A3–E3." in headline
    assert mover(board, table.players) is table.players[(seat_of(table, player) + 1) % 4]


# ------------------------------------------------------------------ forged and outdated choices


async def test_a_forged_choice_is_refused_privately_and_moves_nothing(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    cards = card_menu_id(hand)  # m:<match>:<turn>:p:<level>:<path>:s<first>
    match_id, turn = cards.split(":")[1:3]
    forged = [
        (cards, ["7"]),  # a card past the hand
        (cards, ["x"]),  # not an index at all
        (f"m:{match_id}:{turn}:p:0::9", None),  # an index the level does not have
        (f"m:{match_id}:{turn}:p:3::0", None),  # a level the form does not have
        (f"m:{match_id}:{turn}:p:1:9:0", None),  # a path naming no card: no cells to click
        (f"m:{match_id}:{turn}:b:0::0", None),  # the board offers no card of the hand
    ]

    for custom_id, values in forged:
        refused = await forge(player, hand, custom_id, values)
        assert "no longer on offer" in told(refused), custom_id

    board = channel_message(table.channel, board.id)
    assert footer(board).endswith("move 0") and mover(board, table.players) is player
    assert not [m for m in table.channel.history(viewer=the_other(table, player)) if "on offer" in m.content]
    await take_turn(table, board.id, table.players)  # the real controls still work


async def test_an_outdated_choice_is_refused_privately(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    old = await open_hand(player, board)
    card = next(o for o in menu(old, CARD_MENU).options if o.description.startswith("goes on "))
    await player.select(old, [card.value], custom_id=card_menu_id(old))
    old = seen(table, old, player)
    cell = card.description.removeprefix("goes on ").split(" or ")[0]
    # A restarted bot no longer holds that reply, so it cannot redraw its buttons away.
    await table.env.restart_bot(create_bot(database=target))
    board = await take_turn(table, board.id, table.players)  # played from a second hand message

    late = await player.click(old, label=cell)

    assert told(late) == "The game moved on — this is how it stands now."  # said in the reply, redrawn
    assert not components(seen(table, old, player))  # no longer their turn
    board = channel_message(table.channel, board.id)
    assert footer(board).endswith("move 1") and mover(board, table.players) is not player


async def test_a_restart_in_the_middle_of_a_choice_keeps_the_hand_message_working(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    player = mover(board, table.players)
    hand = await open_hand(player, board)
    first, second = [o for o in menu(hand, CARD_MENU).options if o.description.startswith("goes on ")][:2]
    await player.select(hand, [first.value], custom_id=card_menu_id(hand))

    await table.env.restart_bot(create_bot(database=target))

    hand = seen(table, hand, player)
    cells = first.description.removeprefix("goes on ").split(" or ")
    assert [label for label in button_labels(hand) if label in cells] == cells
    await player.select(hand, [second.value], custom_id=card_menu_id(hand))  # picks still lead on
    hand = seen(table, hand, player)
    cell = second.description.removeprefix("goes on ").split(" or ")[-1]
    await player.click(hand, label=cell)
    played = second.label.split(" · ")[1]
    assert first_line(seen(table, hand, player)) == f"You played {played} on {cell}."
    board = channel_message(table.channel, board.id)
    assert f"{named(table, player)} played {played} on {cell}." in body(board)


# --------------------------------------------------------------------- restarts, DMs, seats


async def test_the_match_and_an_open_hand_message_survive_a_restart(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    board = await take_turn(table, board.id, table.players)
    player = mover(board, table.players)
    match = match_of(table, board)
    move = greedy(match, match.seat_of(player.user.id))
    hand = await open_hand(player, board)
    seen_footer = footer(board)

    await table.env.restart_bot(create_bot(database=target))

    assert footer(channel_message(table.channel, board.id)) == seen_footer
    note = await make_move(table, player, hand, move)  # the hand message opened before
    assert note.content.startswith(("You played", "You put", "You removed", "You traded"))
    board = channel_message(table.channel, board.id)
    assert footer(board) != seen_footer
    seen_footer = footer(board)
    board = await take_turn(table, board.id, table.players)
    assert footer(board) != seen_footer


async def test_closed_dms_are_said_in_the_channel_without_any_card(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    waiting = the_other(table, mover(board, table.players))
    dm = waiting.user.dm_channel
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007)

    board = await take_turn(table, board.id, table.players)  # the other's turn comes: the DM fails

    notices = [m for m in table.channel.history() if "cannot send you direct messages" in m.content]
    assert len(notices) == 1
    assert f"<@{waiting.user.id}>" in notices[0].content and "**My hand**" in notices[0].content
    assert not notices[0].attachments
    cards = await own_cards(waiting, board)
    assert cards and not any(shows_card(notices[0].content, card) for card in cards)
    seen_footer = footer(board)
    board = await take_turn(table, board.id, table.players)  # they play from the button
    assert footer(board) != seen_footer


async def test_six_players_may_play_in_three_teams_and_five_are_refused(table):
    erin, frank = (table.guild.add_member(table.env.create_user(n)) for n in ("erin", "frank"))
    lobby = (await table.alice.slash(table.channel, "sequence new", teams=3)).response.message
    assert "6 play in three teams of two" in body(lobby)
    for guest in (table.bob, table.carol, table.dave, erin):
        await guest.click(lobby, label="Join")
    five = await table.alice.click(lobby, label="Start")
    assert "cannot be played by 5" in told(five)
    await frank.click(lobby, label="Join")

    await table.alice.click(lobby, label="Start")

    players = roster(channel_message(table.channel, lobby.id)).splitlines()
    assert [p.split(" · ")[1] for p in players] == ["team 1", "team 2", "team 3"] * 2


async def test_the_rules_are_told_privately(table):
    result = await table.alice.slash(table.channel, "sequence rules")
    assert result.ephemeral
    text = body(result.response)
    assert "sequence" in text and "dead card" in text.lower() and "minus card" in text
    assert "drawn by lot" in text and "more than five in a row" in text


async def test_a_player_who_resigned_is_said_to_have_resigned_once_on_the_final_board(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "sequence new")
    quitter = mover(board, [table.alice, table.bob])
    asked = await quitter.click(board, label="Resign")
    await quitter.click(asked.response.message, label="Yes, resign")

    final = channel_message(table.channel, board.id)
    players = field(final, "Players")
    [line] = [line for line in players.splitlines() if f"<@{quitter.user.id}>" in line]
    assert line.count("resigned") == 1, line
