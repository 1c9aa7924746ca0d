"""Rookie through the real bot in SimCord: whole matches, steals, teams, kids, a restart.

The driver clicks only what the board offers. To steer towards pairs, X pairs or open
cards it peeks at the running engine state (`bot.matches.running`) — only to choose which
offered button to click, never to assert.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import create_bot
from games.rookie import RookieState
from tests.e2e.helpers import (
    board_image,
    body,
    button_labels,
    card_size,
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

CARD_WORDS = re.compile(r"\b(red|yellow|green|blue|purple)\b|✖")
Flips = tuple[int, int | None]  # None: choose the second card once the first is seen


# --- reading the board ---------------------------------------------------------------------


def match_id(board) -> int:
    return int(title(board).rsplit("#", 1)[1])


def peek(table, board) -> RookieState | None:
    """The engine state, to choose a click; None once the match is over."""
    match = table.env.bot.matches.running.get(match_id(board))
    return None if match is None else match.state


def control(board, label: str):
    """The button with this label (e.g. "5", "Turn them down", "Chase")."""
    return next(c for c in components(board) if getattr(c, "label", None) == label)


def menu(board, placeholder: str):
    """The select with this placeholder (e.g. "Top of stack 1")."""
    return next(c for c in components(board) if getattr(c, "placeholder", None) == placeholder)


def placements(board) -> list:
    return labelled(board, "Stack") + labelled(board, "Partner")


def labelled(board, prefix: str) -> list:
    return [c for c in components(board) if (getattr(c, "label", None) or "").startswith(prefix)]


async def snapshot(board, name: str) -> None:
    """Keep the board image for a look (set ROOKIE_PNG_DIR to a folder)."""
    folder = os.environ.get("ROOKIE_PNG_DIR")
    if folder:
        Path(folder, f"rookie_e2e_{name}.png").write_bytes(await board_image(board).read())


# --- choosing flips from the peeked table ----------------------------------------------------


def face_down_tops(state: RookieState) -> dict[int, str]:
    up = set(state.open) | set(state.flipped)
    return {p: stack[-1] for p, stack in enumerate(state.table) if stack and p not in up}


def a_pair(state: RookieState, kinds: Callable[[str], bool] = lambda kind: True) -> Flips | None:
    seen: dict[str, int] = {}
    for p, kind in face_down_tops(state).items():
        if kinds(kind) and kind in seen:
            return seen[kind], p
        seen.setdefault(kind, p)
    return None


def a_miss(state: RookieState, rng: random.Random) -> Flips:
    """Two different colours if the table has them (the turn passes), else any two cards."""
    tops = face_down_tops(state)
    colours = [
        (p, q) for p in tops for q in tops if p < q and tops[p] != tops[q] and "X" not in (tops[p], tops[q])
    ]
    if colours:
        return rng.choice(colours)
    if len(tops) > 1:
        first, second = rng.sample(sorted(tops), 2)
        return first, second
    only = next(iter(tops))
    return only, only


def an_open_pair(state: RookieState) -> Flips | None:
    """A colour and an X: they stay open."""
    tops = face_down_tops(state)
    x = next((p for p, kind in tops.items() if kind == "X"), None)
    colour = next((p for p, kind in tops.items() if kind != "X"), None)
    return None if x is None or colour is None else (colour, x)


def a_chase(state: RookieState) -> int | None:
    """A face-down top that matches an open card."""
    open_kinds = {state.table[p][-1] for p in state.open}
    return next((p for p, kind in face_down_tops(state).items() if kind in open_kinds), None)


# --- playing ---------------------------------------------------------------------------------


class Driver:
    """Makes the decisions of whoever the board names, through the board's controls."""

    def __init__(self, table, board, *, seed: int = 0, pair_rate: float = 0.7, partner: bool = False):
        self.table, self.board_id = table, board.id
        self.rng = random.Random(seed)
        self.pair_rate, self.partner = pair_rate, partner
        self.headlines: list[str] = []
        self.sizes: list[tuple[int, int]] = []  # each board's components and characters

    @property
    def board(self):
        return channel_message(self.table.channel, self.board_id)

    async def click(self, component) -> None:
        board = self.board
        player = mover(board, self.table.players)
        assert player is not None, "the game is over: nobody is to move"
        result = await player.click(board, custom_id=component.custom_id)
        assert result.acknowledged and not result.ephemeral, result.followups
        self.headlines.append(body(self.board))
        self.sizes.append(card_size(self.board))

    async def flip(self, *positions: int) -> None:
        for position in positions:
            await self.click(control(self.board, str(position + 1)))

    def flips(self, state: RookieState) -> Flips:
        """Mostly a pair, sometimes a miss; with no pair in sight, dig into a tall stack."""
        pair = a_pair(state)
        if pair and self.rng.random() < self.pair_rate:
            return pair
        tall = [p for p in face_down_tops(state) if len(state.table[p]) > 1]
        if not pair and tall and not all(state.table):
            return tall[0], None
        return a_miss(state, self.rng)

    async def step(self, choose_flips: Callable[[RookieState], Flips] | None = None) -> bool:
        """One decision of the player to move; False once the game is over."""
        board, state = self.board, peek(self.table, self.board)
        if state is None:
            return False
        if state.phase == "start":
            await self.start(state)
        elif state.phase == "chase":
            target = a_chase(state)
            await self.flip(target if target is not None else next(iter(face_down_tops(state))))
        elif state.phase == "flip" and state.flipped:
            first = state.table[state.flipped[0]][-1]
            tops = face_down_tops(state)
            await self.flip(next((p for p, kind in tops.items() if kind == first), next(iter(tops))))
        elif state.phase == "flip":
            await self.flip(*(p for p in (choose_flips or self.flips)(state) if p is not None))
        elif state.phase == "place":
            await self.click(self.placement(board))
        elif state.phase == "steal":
            await self.click(self.rng.choice(labelled(board, "Before me") + labelled(board, "After me")))
        else:
            await self.click(labelled(board, "Arrange:")[0])
        return True

    async def start(self, state: RookieState) -> None:
        """Open cards: chase when a match is known, else turn them down."""
        target = a_chase(state)
        if target is None:
            await self.click(control(self.board, "Turn them down"))
            return
        await self.click(control(self.board, "Chase"))
        await self.flip(target)

    def placement(self, board):
        """A placement that secures if there is one; the partner's stacks when asked for."""
        buttons = placements(board)
        securing = [c for c in buttons if c.label.endswith(("secures", "Rookie!"))]
        partner = [c for c in buttons if c.label.startswith("Partner")]
        return (securing or (self.partner and partner) or [self.rng.choice(buttons)])[0]

    async def play_to_the_end(self, limit: int = 2000):
        for _ in range(limit):
            if not await self.step():
                return self.board
        raise AssertionError(f"the match did not end in {limit} decisions")


# --- tests ---------------------------------------------------------------------------------


async def test_a_two_player_standard_match_is_played_to_the_end(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "rookie new", deck="pocket")
    assert title(board).startswith("Rookie #")
    assert {"My stacks", "Resign"} <= set(button_labels(board))
    assert button_labels(board)[:9] == [str(p) for p in range(1, 10)]
    starter = mover(board, table.players)
    assert f"<@{starter.user.id}> was drawn to start." in body(board)
    assert "Flip two cards" in body(board)
    await snapshot(board, "start")

    driver = Driver(table, board, seed=1)
    board = await driver.play_to_the_end()

    await snapshot(board, "two_player_end")
    text = body(board)
    # "… and collects every unsecured card" only when someone still had some.
    assert "**Game over**" in text and "took the last pair" in text
    assert "points" in roster(board)
    assert all(":_" in c.custom_id for c in components(board))  # only the framework's buttons
    assert any("turned up a pair of" in line for line in driver.headlines)
    assert any("face down again" in line for line in driver.headlines)
    # Memory stays honest: pings and DM notices never name a card.
    pings = [m.content for m in table.channel.history() if m.id != board.id]
    dms = [m.content for member in (table.alice, table.bob) for m in member.user.dm_channel.history()]
    assert dms and not any(CARD_WORDS.search(text.split("\n")[0]) for text in pings + dms)
    assert all("point stack" in text for text in dms)


async def test_a_pair_is_placed_by_buttons_and_my_stacks_shows_it(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "rookie new")
    driver = Driver(table, board)
    state = peek(table, board)
    await driver.flip(*a_pair(state, lambda kind: kind != "X"))
    board = driver.board
    await snapshot(board, "place")
    assert [c.label for c in placements(board)] == [
        "Stack 1 (empty)",
        "Stack 2 (empty)",
        "Stack 3 (empty)",
        "Stacks 1+2",
        "Stacks 1+3",
        "Stacks 2+3",
    ]
    assert "Place the" in body(board)

    await driver.click(labelled(board, "Stacks 1+3")[0])

    assert "pair on stacks 1 and 3" in body(driver.board)
    player = mover(driver.board, table.players)
    mine = await player.click(driver.board, label="My stacks")
    assert "1: " in told(mine) and "on top, 1 card" in mine.response.content
    assert "3: " in mine.response.content and "2: empty" in mine.response.content


async def test_an_x_pair_lets_the_player_rob_the_neighbour_before_or_after(table, target):
    guests = [table.bob, table.carol]
    board = await open_and_start(table.channel, table.alice, guests, "rookie new")
    driver = Driver(table, board)

    def build_up(state: RookieState) -> Flips:
        """Everyone gets unsecured cards; then the next player digs for an X pair to rob with."""
        cards = [sum(map(len, stacks)) for stacks in state.discards]
        x_pair = a_pair(state, lambda kind: kind == "X")
        colour_pair = a_pair(state, lambda kind: kind != "X")
        neighbours_have = all(cards[(state.turn + step) % state.players] for step in (-1, 1))
        if x_pair and (neighbours_have or not colour_pair):
            return x_pair
        if colour_pair and (neighbours_have or not cards[state.turn]):
            return colour_pair
        return a_miss(state, driver.rng) if colour_pair else driver.flips(state)

    for _ in range(200):
        state = peek(table, driver.board)
        if state.phase == "steal":
            break
        await driver.step(build_up)
    board = driver.board
    await snapshot(board, "steal")
    before, after = labelled(board, "Before me: "), labelled(board, "After me: ")
    assert len(before) == len(after) == 1
    assert re.search(r"Before me: \S+ [ABC] · \d+ cards?$", before[0].label)
    assert "Take the unsecured cards of the player before you (" in body(board)
    # The side with cards to take (an X pair dug up early may find one neighbour empty).
    side = max([after[0], before[0]], key=lambda button: int(button.label.split(" · ")[1].split()[0]))
    victim = side.label.split(": ")[1].split(" · ")[0]

    await driver.click(side)

    board = driver.board
    assert f"from {victim}" in body(board)
    await snapshot(board, "arrange")
    default = labelled(board, "Arrange:")
    assert len(default) == 1 and "Spread the" in body(board)
    # Choosing a top by hand offers that arrangement beside the default.
    select = menu(board, "Top of stack 1")
    choice = next(o for o in select.options if not o.default)
    await mover(board, table.players).select(board, [choice.value], custom_id=select.custom_id)
    board = driver.board
    arrangements = labelled(board, "Arrange:")
    assert len(arrangements) == 2 and arrangements[0].label != default[0].label
    first_top = arrangements[0].label.split(", ")[0]
    assert menu(board, "Top of stack 1").options[int(choice.value)].default
    # A restart in the middle of the choice: the board's controls go on working, and a top
    # chosen for another stack keeps the first stack's.
    await table.env.restart_bot(create_bot(database=target))
    board = driver.board
    other = [o for o in menu(board, "Top of stack 3").options if not o.default]
    if other:
        select = menu(board, "Top of stack 3")
        await mover(board, table.players).select(board, [other[0].value], custom_id=select.custom_id)
        board = driver.board
        assert labelled(board, "Arrange:")[0].label.split(", ")[0] == first_top
    chosen = labelled(board, "Arrange:")[0]

    await driver.click(chosen)

    assert "taken went onto" in body(driver.board)


async def test_a_team_match_places_pairs_on_the_partners_stacks_to_the_end(table):
    guests = [table.bob, table.carol, table.dave]
    board = await open_and_start(
        table.channel, table.alice, guests, "rookie new", variant="team", deck="pocket"
    )
    assert "· team 1" in roster(board)
    driver = Driver(table, board, seed=2, partner=True)
    while peek(table, driver.board).phase != "place":
        await driver.step()
    board = driver.board
    await snapshot(board, "team_place")
    labels = [c.label for c in placements(board)]
    assert len(labels) == 12 and sum(label.startswith("Partner") for label in labels) == 6
    assert "Your partner's stacks count too." in body(board)

    board = await driver.play_to_the_end()

    await snapshot(board, "team_end")
    assert any(re.search(r"pair on partner \S+ [A-D] <@\d+>'s stack", line) for line in driver.headlines)
    # The fullest boards there are (four players, five rows of controls) fit Discord's V2 limits.
    assert max(components for components, _ in driver.sizes) <= 40
    assert max(characters for _, characters in driver.sizes) <= 4000
    assert "**Game over**" in body(board) and "Team 2 (" in body(board)


async def test_a_kids_match_scores_every_pair_at_once(table):
    board = await open_and_start(
        table.channel, table.alice, [table.bob, table.carol], "rookie new", variant="kids"
    )
    board = await Driver(table, board, seed=3).play_to_the_end()

    await snapshot(board, "kids_end")
    assert "**Game over**" in body(board)
    assert "unsecured" not in roster(board)


async def test_open_cards_survive_a_restart_in_the_middle_of_a_chase(table, target):
    board = await open_and_start(table.channel, table.alice, [table.bob], "rookie new")
    driver = Driver(table, board)

    def leave_open(state: RookieState) -> Flips:
        return an_open_pair(state) or a_pair(state) or a_miss(state, driver.rng)

    while peek(table, driver.board).phase != "start":
        await driver.step(leave_open)
    board = driver.board
    assert "stay open" in body(board) and "turn them down and flip two" in body(board)
    chaser = mover(board, table.players)
    await driver.click(control(board, "Chase"))
    board = driver.board
    assert labelled(board, "Chasing")
    await snapshot(board, "chase")
    seen_footer = footer(board)

    await table.env.restart_bot(create_bot(database=target))

    board = driver.board
    assert footer(board) == seen_footer
    state = peek(table, board)
    target = a_chase(state)
    await driver.flip(target if target is not None else next(iter(face_down_tops(state))))
    assert footer(driver.board) != seen_footer
    for _ in range(20):
        await driver.step()
    assert mover(driver.board, table.players) is not None or "Game over" in body(driver.board)
    assert chaser in table.players


async def test_a_forged_or_outdated_choice_is_refused_privately_and_changes_nothing(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "rookie new")
    player = mover(board, table.players)
    flip = control(board, "1")
    prefix, level, path, index = flip.custom_id.rsplit(":", 3)
    seen_footer = footer(board)
    forged = [
        f"{prefix}:{level}:{path}:99",  # an option the form does not have
        f"{prefix}:7:{path}:{index}",  # a level the form does not have
        f"{prefix}:{level}:{path}:{int(index) + 3}",  # "4" is in the second row, not the first
    ]
    for custom_id in forged:
        refused = await forge(player, board, custom_id)
        assert "no longer on offer" in told(refused), custom_id
    other = next(m for m in (table.alice, table.bob) if m is not player)
    assert not any("no longer on offer" in (m.content or "") for m in table.channel.history(viewer=other))
    # A forged path falls back to the default choices: the click names the same card.
    await forge(player, board, f"{prefix}:{level}:9.9.9.9.9:{index}")
    board = channel_message(table.channel, board.id)
    assert "at position 1." in body(board) and footer(board) != seen_footer

    outdated = await forge(player, board, flip.custom_id)

    assert "out of date" in told(outdated)
    assert footer(channel_message(table.channel, board.id)) == footer(board)
    assert "Flip a second card." in body(channel_message(table.channel, board.id))


async def test_rules_options_and_a_team_of_two_refused(table):
    rules = await table.alice.slash(table.channel, "rookie rules")
    assert rules.ephemeral and "Rookie" in body(rules.response)
    lobby = (await table.alice.slash(table.channel, "rookie new", variant="team")).response.message
    assert "teams of two" in body(lobby)
    await table.bob.click(lobby, label="Join")

    refused = await table.alice.click(lobby, label="Start")

    assert "4 or 6 players" in told(refused)


# A card turned up as a screen reader hears the board: its colour and the symbol its cards show.
NAMED_CARDS = {
    "en": {
        "red": "a red ● card",
        "yellow": "a yellow ▲ card",
        "green": "a green ■ card",
        "blue": "a blue ◆ card",
        "purple": "a purple ★ card",
    },
    "de": {
        "red": "eine rote ● Karte",
        "yellow": "eine gelbe ▲ Karte",
        "green": "eine grüne ■ Karte",
        "blue": "eine blaue ◆ Karte",
        "purple": "eine lila ★ Karte",
    },
    "fr": {
        "red": "une carte rouge ●",
        "yellow": "une carte jaune ▲",
        "green": "une carte verte ■",
        "blue": "une carte bleue ◆",
        "purple": "une carte violette ★",
    },
}
LOBBY_BUTTONS = {"en": ("Join", "Start"), "de": ("Beitreten", "Starten"), "fr": ("Rejoindre", "Commencer")}
BETWEEN_SCORES = {"en": "; ", "de": "; ", "fr": " ; "}  # descriptions use plain spaces
TURNED_UP = {"en": "{seat} turned up {card}", "de": "{seat} hat {card}", "fr": "{seat} a retourné {card}"}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
async def test_the_board_s_description_names_a_turned_card_by_its_colour_and_symbol(
    simcord_env, client_locales, lang
):
    guild = simcord_env.create_guild("Cards", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    join, start = LOBBY_BUTTONS[lang]
    lobby = (await alice.slash(channel, "rookie new")).response.message
    await bob.click(lobby, label=join)
    await alice.click(lobby, label=start)
    board = channel_message(channel, lobby.id)
    (match,) = simcord_env.bot.matches.running.values()
    position, kind = next((p, kind) for p, kind in face_down_tops(match.state).items() if kind != "X")
    (seat,) = match.engine.current_seats(match.state)
    player = next(member for member in (alice, bob) if member.user.id == match.players[seat])

    await player.click(board, custom_id=control(board, str(position + 1)).custom_id)

    described = board_image(channel_message(channel, board.id)).description
    assert TURNED_UP[lang].format(seat="AB"[seat], card=NAMED_CARDS[lang][kind]) in described
    assert f"{BETWEEN_SCORES[lang]}B " in described  # the scores listed as the language writes lists
