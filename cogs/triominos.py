"""My First Triominos in Discord: a public table, and a private hand to play from.

The board message shows only the public table. Everything about a hand (its cards,
where each fits, the joker swap) lives in the player's ephemeral "My hand" message:
choose a card, then where it goes and how it is turned; or buy, pass, take the joker.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.components import GameButton, GameSelect, items_view
from cogs.framework import GameCog
from cogs.match import CLOCK_CHOICES, CLOCK_HELP, Match, PrivateReply
from games.base import Outcome
from render.triominos import render, render_hand

if TYPE_CHECKING:
    from bot import GameBot

RULES = """\
**Cards:** triangles with a number 1–5 in each corner (1 red, 2 yellow, 3 blue, 4 green, \
5 purple, drawn with that many small triangles), and one joker.
**Start:** everyone gets 6 secret cards and 4 tokens; one card lies on the table.
**A turn — do one thing:**
• **Place** a card on a numbered place next to the table, turned so that every corner \
shows the same number as the cards touching it there. You gain 1 token, plus +1 for each \
**hexagon** you close (six cards round a point), +1 for a **bridge** (the card touches the \
table with one side and, at its far corner, with a point), +1 for your **last card**.
• **Buy:** pay 1 token and draw a card. With an empty pot or no tokens you **pass** instead.
• **Take back the joker:** put a card from your hand exactly in the joker's place and take \
the joker into your hand.
**Joker:** fits anywhere; on the table each corner takes the number of the cards around it.
**End:** whoever draws the last card starts the last round: everyone plays once more, \
ending with them. The game also ends when every player passes in a row. Most tokens wins.
**Play:** press **My hand** on the board to see your cards and play them.
**Options:** *open hands* shows every hand in the channel; *joker* off leaves it in the box."""

SELECT_LIMIT = 25  # options per select menu (Discord's limit)
SELECT_ROWS = 4  # rows for select menus; the last row keeps the buttons
CORNERS_UP = ("top", "lower right", "lower left")
CORNERS_DOWN = ("upper left", "upper right", "bottom")
HEXAGONS = {1: "a hexagon", 2: "two hexagons", 3: "three hexagons"}


# --- texts -----------------------------------------------------------------------------


def card_text(card: dict) -> str:
    """A hand card in words: its three numbers, or "joker"."""
    return "joker" if card.get("joker") else " · ".join(str(v) for v in card["values"])


def place_points(view: dict, label: str) -> list[list[int]]:
    return next(place["points"] for place in view["places"] if place["label"] == label)


def joker_points(view: dict) -> list[list[int]]:
    return next(card["points"] for card in view["table"] if card["joker"])


def turned_text(points: list[list[int]], card: dict, rotation: int) -> str:
    """Which number lands in which corner of a cell, e.g. "top 3, lower right 1, ..."."""
    if card.get("joker"):
        return "the joker takes the numbers around it"
    up = points[0][1] != points[1][1]  # an up cell's apex is higher than its other corners
    names = CORNERS_UP if up else CORNERS_DOWN
    values = card["values"]
    return ", ".join(f"{name} {values[(rotation + k) % 3]}" for k, name in enumerate(names))


def fits_summary(fits: list[list]) -> str:
    labels = sorted({label for label, _ in fits}, key=int)
    if not labels:
        return "fits nowhere yet"
    return f"fits place{'s' if len(labels) > 1 else ''} {', '.join(labels)}"


def can_buy(view: dict, seat: int) -> bool:
    return view["pot_size"] > 0 and view["scores"][seat] > 0


def bonus_text(bonus: dict) -> str:
    """The reasons a placement earned tokens, e.g. "card + two hexagons + bridge"."""
    reasons = ["card"]
    if bonus["hexagons"]:
        reasons.append(HEXAGONS.get(bonus["hexagons"], f"{bonus['hexagons']} hexagons"))
    if bonus["bridge"]:
        reasons.append("a bridge")
    if bonus["last_card"]:
        reasons.append("the last card")
    return " + ".join(reasons)


def tokens(count: int) -> str:
    return f"{count} token{'s' if count != 1 else ''}"


# --- components ------------------------------------------------------------------------


def chunks(options: list[discord.SelectOption]) -> Iterator[list[discord.SelectOption]]:
    """Options in groups a select menu can hold, at most SELECT_ROWS groups."""
    for start in range(0, min(len(options), SELECT_LIMIT * SELECT_ROWS), SELECT_LIMIT):
        yield options[start : start + SELECT_LIMIT]


def selects(
    match: Match, arg: str, options: list[discord.SelectOption], placeholder: str
) -> list[discord.ui.Item]:
    """One select menu per 25 options; the chunk number keeps their custom_ids apart."""
    groups = list(chunks(options))
    items: list[discord.ui.Item] = []
    for number, group in enumerate(groups):
        text = placeholder
        if len(groups) > 1:
            text = f"{placeholder} ({group[0].label.split(':')[0]} – {group[-1].label.split(':')[0]})"
        items.append(
            GameSelect(
                "triominos",
                match.id,
                match.turn,
                f"{arg}:{number}",
                options=group,
                placeholder=text,
                row=number,
            )
        )
    return items


def button(match: Match, arg: str, label: str, style: discord.ButtonStyle) -> GameButton:
    return GameButton("triominos", match.id, match.turn, arg, label=label, style=style, row=SELECT_ROWS)


def back_button(match: Match) -> GameButton:
    return button(match, "hand", "Back to my hand", discord.ButtonStyle.secondary)


def hand_items(match: Match, view: dict, seat: int) -> list[discord.ui.Item]:
    """The hand's controls on the player's turn: a card to place, buy or pass, the joker."""
    cards = view["hand"]
    options = [
        discord.SelectOption(
            label=f"Card {index + 1}: {card_text(card)}", value=str(index), description=fits_summary(fits)
        )
        for index, (card, fits) in enumerate(zip(cards, view["fits"], strict=True))
        if fits
    ]
    items = selects(match, "card", options, "Choose a card to place") if options else []
    if can_buy(view, seat):
        items.append(button(match, "buy", "Buy a card (1 token)", discord.ButtonStyle.primary))
    else:
        items.append(button(match, "pass", "Pass", discord.ButtonStyle.secondary))
    if view["swaps"]:
        items.append(button(match, "joker", "Take back the joker", discord.ButtonStyle.success))
    return items


def spot_items(match: Match, view: dict, index: int) -> list[discord.ui.Item]:
    """Where card `index` goes: one choice of place and turn, or the place first if too many."""
    card, fits = view["hand"][index], view["fits"][index]
    if len(fits) <= SELECT_LIMIT:
        options = [
            discord.SelectOption(
                label=f"Place {label}: {turned_text(place_points(view, label), card, rotation)}"[:100],
                value=f"{label}:{rotation}",
            )
            for label, rotation in fits
        ]
        return [*selects(match, f"spot:{index}", options, "Choose where it goes"), back_button(match)]
    labels = sorted({label for label, _ in fits}, key=int)
    options = [discord.SelectOption(label=f"Place {label}", value=label) for label in labels]
    return [*selects(match, f"place:{index}", options, "Choose a place"), back_button(match)]


def rotation_items(match: Match, view: dict, index: int, label: str) -> list[discord.ui.Item]:
    """How card `index` is turned on place `label`: only the ways that fit."""
    card = view["hand"][index]
    options = [
        discord.SelectOption(
            label=f"Turned: {turned_text(place_points(view, label), card, rotation)}"[:100],
            value=str(rotation),
        )
        for place, rotation in view["fits"][index]
        if place == label
    ]
    return [*selects(match, f"turn:{index}:{label}", options, "Choose how it is turned"), back_button(match)]


def swap_items(match: Match, view: dict) -> list[discord.ui.Item]:
    """Which card (turned which way) replaces the joker on the table."""
    options = [
        discord.SelectOption(
            label=f"Card {index + 1}: {card_text(view['hand'][index])}",
            value=f"{index}:{rotation}",
            description=turned_text(joker_points(view), view["hand"][index], rotation),
        )
        for index, rotation in view["swaps"]
    ]
    return [*selects(match, "swap", options, "Choose the card for the joker's place"), back_button(match)]


# --- the cog ---------------------------------------------------------------------------


class Triominos(GameCog, group_name="triominos", group_description="Play My First Triominos"):
    """`/triominos new`, `/triominos rules` and the hand's controls."""

    game = "triominos"
    private_label = "My hand"
    rules_text = RULES

    @app_commands.command(name="new", description="Open a My First Triominos lobby (2–4 players)")
    @app_commands.describe(
        open_hands="Show every player's hand in the channel (good for a first game)",
        joker="Play with the joker (off: the joker stays in the box)",
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        open_hands: bool = False,
        joker: bool = True,
        clock: int | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"open_hands": open_hands, "joker": joker}, clock)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        hands = "open hands (everyone sees every hand)" if options.get("open_hands") else "secret hands"
        joker = "with the joker" if options.get("joker", True) else "without the joker"
        return f"{hands}, {joker}"

    # -------------------------------------------------------------- the board

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def headline(self, match: Match, view: dict) -> list[str]:
        lines = [self._last_move_line(match, view)]
        if view["last_round"] and not view["over"]:
            lines.append("⏳ **Last round:** the pot is empty — everyone plays once more.")
        if "hands" in view:
            lines.extend(self._open_hand_lines(view))
        return lines

    def _last_move_line(self, match: Match, view: dict) -> str:
        move = view["last_move"]
        if move is None:
            return "The first card is on the table. Press **My hand** to see your cards."
        who = f"<@{match.players[move['seat']]}>"
        kind = move["type"]
        if kind == "buy":
            return f"🪙 {who} paid 1 token and drew a card."
        if kind == "pass":
            return f"⏭️ {who} passed."
        if kind == "take_joker":
            return f"🃏 {who} took back the joker and put a card in its place."
        bonus = view["last_bonus"]
        line = f"🔺 {who} placed a card: **+{tokens(bonus['paid'])}** ({bonus_text(bonus)})."
        if bonus["paid"] < bonus["earned"]:
            line += f" The bank held only {tokens(bonus['paid'])}."
        if bonus["earned"] > 1:
            line = f"🎉 {line}"
        return line

    def _open_hand_lines(self, view: dict) -> list[str]:
        return [
            f"{self.seat_label(view, seat)} hand: " + (", ".join(card_text(c) for c in hand) or "empty")
            for seat, hand in enumerate(view["hands"])
        ]

    def score_text(self, view: dict, seat: int) -> str:
        cards = view["hand_sizes"][seat]
        return f"{tokens(view['scores'][seat])}, {cards} card{'s' if cards != 1 else ''} in hand"

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        view = match.view(None)
        reason = "the last round is over" if view["last_round"] else "every player passed in a row"
        counts = ", ".join(f"{self.seat_label(view, s)} {tokens(n)}" for s, n in enumerate(outcome.scores))
        return [f"The game ended because {reason}. Tokens: {counts}."]

    # ----------------------------------------------------------------- the hand

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        image = render_hand(view)
        head = f"**{match.engine.title} #{match.id}** — you have {tokens(view['scores'][seat])}."
        if seat not in view["to_move"]:
            turn = " and ".join(f"<@{match.players[s]}>" for s in view["to_move"]) or "nobody"
            return PrivateReply(
                content=f"{head}\nIt is {turn}'s turn. When yours comes, press **My hand** on the board.",
                image=image,
            )
        return PrivateReply(
            content=f"{head}\n{self._turn_prompt(view, seat)}",
            image=image,
            items=hand_items(match, view, seat),
        )

    def _turn_prompt(self, view: dict, seat: int) -> str:
        fitting = sum(1 for fits in view["fits"] if fits)
        lines = ["**Your turn.** The numbered places are on the board."]
        if fitting:
            lines.append(f"{fitting} of your cards fit: choose one to place.")
        elif view["hand"]:
            lines.append("None of your cards fits a place yet.")
        if can_buy(view, seat):
            lines.append("You may buy a card instead (1 token).")
        else:
            lines.append("You cannot buy (the pot is empty or you have no tokens), so you may pass.")
        if view["swaps"]:
            lines.append("A card of yours fits the joker's place: you may take the joker back.")
        return " ".join(lines)

    # ----------------------------------------------------------------- clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        kind, *rest = arg.split(":")
        view = match.view(seat)
        if kind == "card":
            await self._choose_card(interaction, match, view, int(values[0]))
        elif kind == "spot":
            label, rotation = values[0].split(":")
            await self._place(interaction, match, seat, int(rest[0]), label, int(rotation))
        elif kind == "place":
            await self._choose_place(interaction, match, seat, view, int(rest[0]), values[0])
        elif kind == "turn":
            await self._place(interaction, match, seat, int(rest[0]), rest[1], int(values[0]))
        elif kind == "joker":
            await self._edit(
                interaction, "Choose the card that takes the joker's place.", swap_items(match, view)
            )
        elif kind == "swap":
            index, rotation = (int(v) for v in values[0].split(":"))
            await self._swap(interaction, match, seat, index, rotation)
        elif kind == "buy":
            await self._buy(interaction, match, seat)
        elif kind == "pass":
            move = {"type": "pass"}
            await self.service.play(
                interaction, match, seat, move, turn=match.turn, private_note="You passed."
            )
        else:  # "hand": back to the first step
            reply = await asyncio.to_thread(self.private_view, match, seat)
            await self._edit(interaction, reply.content, reply.items)

    async def _edit(
        self, interaction: discord.Interaction, content: str, items: list[discord.ui.Item]
    ) -> None:
        """Move the player's ephemeral message on one step; its hand picture stays."""
        await interaction.response.edit_message(content=content, view=items_view(items))

    async def _choose_card(
        self, interaction: discord.Interaction, match: Match, view: dict, index: int
    ) -> None:
        card = view["hand"][index]
        text = f"Card {index + 1} ({card_text(card)}): choose where it goes (see the numbered places)."
        await self._edit(interaction, text, spot_items(match, view, index))

    async def _choose_place(
        self, interaction: discord.Interaction, match: Match, seat: int, view: dict, index: int, label: str
    ) -> None:
        rotations = [rotation for place, rotation in view["fits"][index] if place == label]
        if len(rotations) == 1:
            await self._place(interaction, match, seat, index, label, rotations[0])
            return
        text = (
            f"Card {index + 1} ({card_text(view['hand'][index])}) on place {label}: choose how it is turned."
        )
        await self._edit(interaction, text, rotation_items(match, view, index, label))

    async def _place(
        self, interaction: discord.Interaction, match: Match, seat: int, index: int, label: str, rotation: int
    ) -> None:
        move = {"type": "place", "card": index, "place": label, "rotation": rotation}
        note = f"You placed card {index + 1} on place {label} — see the board."
        await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note)

    async def _swap(
        self, interaction: discord.Interaction, match: Match, seat: int, index: int, rotation: int
    ) -> None:
        move = {"type": "take_joker", "card": index, "rotation": rotation}
        note = f"You put card {index + 1} in the joker's place and took the joker into your hand."
        await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note)

    async def _buy(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        note = "You paid 1 token and drew a card."
        if not await self.service.play(
            interaction, match, seat, {"type": "buy"}, turn=match.turn, private_note=note
        ):
            return
        # The turn has passed on, so this is the refreshed hand to look at, not to play.
        reply = await asyncio.to_thread(self.private_view, match, seat)
        drawn = len(match.view(seat)["hand"])
        await interaction.followup.send(
            f"Your new card is card {drawn}.\n{reply.content}",
            file=discord.File(io.BytesIO(reply.image or b""), filename="hand.png"),
            view=items_view(reply.items),
            ephemeral=True,
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Triominos(bot))
