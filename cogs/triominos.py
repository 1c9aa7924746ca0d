"""My First Triominos in Discord: a public table, and a private hand to play from.

The board message shows only the public table. Everything about a hand (its cards,
where each fits, the joker swap) lives in the player's ephemeral "My hand" reply:
choose a card, then where it goes and how it is turned; or buy, pass, take the joker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.game import GameCog, Level, new_command
from games.base import Outcome
from matches.match import Match, PrivateReply, who
from matches.presentation import CONTROL_ROWS, SELECT_LIMIT, Choice, Form, Option, form_rows, grouped
from render.triominos import narrate, render, render_hand, tokens

if TYPE_CHECKING:
    from bot import GameBot


CORNERS_UP = ("top", "lower right", "lower left")
CORNERS_DOWN = ("upper left", "upper right", "bottom")
EVENT_MARKS = {"start": "🎲", "place": "🔺", "take_joker": "🃏", "buy": "🪙", "pass": "⏭️", "resign": "🏳️"}
OWN_MOVES = ("place", "take_joker", "buy", "pass")  # told back to the seat that made them
NO_CARD = 99  # the first pick while no card is chosen
PLACING, SWAPPING = 0, 1  # the second pick: place the chosen card, or take back the joker
ACTIONS = {"buy": Option("Buy a card (1 token)", style="primary"), "pass": Option("Pass")}


def card_text(card: dict) -> str:
    """A hand card in words: its three numbers, or "joker"."""
    return "joker" if card.get("joker") else " · ".join(str(v) for v in card["values"])


def turned(view: dict, move: dict) -> str:
    """Which number of the move's card lands in which corner, e.g. "top 3, lower right 1, ..."."""
    card = view["hand"][move["card"]]
    if card.get("joker"):
        return "the joker takes the numbers around it"
    if move["type"] == "take_joker":
        points = next(cell["points"] for cell in view["table"] if cell["joker"])
    else:
        points = next(cell["points"] for cell in view["places"] if cell["label"] == move["place"])
    up = points[0][1] != points[1][1]  # an up cell's apex is higher than its other corners
    return ", ".join(
        f"{name} {card['values'][(move['rotation'] + k) % 3]}"
        for k, name in enumerate(CORNERS_UP if up else CORNERS_DOWN)
    )


def hand_form(view: dict, legal: list[dict], path: tuple[int, ...]) -> Form:
    """The choices of the seat to move. Path: (card, mode, place). The fitting cards, then
    buy, pass and "Take back the joker" (mode SWAPPING); below them where the chosen card
    goes (see `spots`), or the cards that fit the joker's place."""
    hand, kinds = view["hand"], grouped(legal, "type")
    placing, swaps = grouped(kinds.get("place", []), "card"), kinds.get("take_joker", [])
    mode = SWAPPING if path[1:2] == (SWAPPING,) and swaps else PLACING
    card = path[0] if path and mode == PLACING and path[0] in placing else None
    labels = [f"Card {i + 1}: {card_text(held)}" for i, held in enumerate(hand)]
    cards = tuple(
        Option(labels[i], pick=i, description=fits_text(ways), selected=i == card)
        for i, ways in placing.items()
    )
    others = [replace(ACTIONS[m["type"]], move=m) for m in legal if m["type"] in ACTIONS]
    if swaps:
        others.append(
            Option("Take back the joker", pick=SWAPPING, style="success", selected=mode == SWAPPING)
        )
    details: list[Choice] = []
    place: tuple[int, ...] = ()
    if mode == SWAPPING:
        joker = tuple(Option(labels[m["card"]], move=m, description=turned(view, m)) for m in swaps)
        details = [Choice("Choose the card for the joker's place", joker, select=True)]
    elif card is not None:
        details, place = spots(view, placing[card], path[2:3])
    pick_card = Choice("Choose a card to place", cards, select=True)
    form = Form(
        (pick_card, Choice("Or", tuple(others)), *details),
        path=(NO_CARD if card is None else card, mode, *place),
    )
    if form_rows(form) > CONTROL_ROWS:  # never seen in play: a huge hand and table
        chosen = tuple(option for option in cards if option.selected) or cards
        form = replace(form, choices=(replace(pick_card, options=chosen), Choice("Or", ()), *details))
    return form


def fits_text(ways: list[dict]) -> str:
    labels = list(dict.fromkeys(move["place"] for move in ways))
    return f"fits place{'s' if len(labels) > 1 else ''} {', '.join(labels)}"


def spots(view: dict, ways: list[dict], picked: tuple[int, ...]) -> tuple[list[Choice], tuple[int, ...]]:
    """Where one card goes: place and turn in one select or, past 25 ways, the place (one it
    fits one way places it at once), then how it is turned; and the place picked."""
    if len(ways) <= SELECT_LIMIT:
        options = tuple(Option(f"Place {m['place']}: {turned(view, m)}", move=m) for m in ways)
        return [Choice("Choose where it goes", options, select=True)], ()
    places = grouped(ways, "place")
    at = str(picked[0]) if picked and len(places.get(str(picked[0]), ())) > 1 else None
    where = tuple(
        Option(f"Place {p}", move=fits[0] if len(fits) == 1 else None, pick=int(p), selected=p == at)
        for p, fits in places.items()
    )
    levels = [Choice("Choose a place", where, select=True)]
    if at is None:
        return levels, ()
    turns = tuple(Option(f"Turned: {turned(view, m)}", move=m) for m in places[at])
    return [*levels, Choice("Choose how it is turned", turns, select=True)], (int(at),)


def turn_prompt(view: dict) -> str:
    """What the seat to move may do."""
    fitting = sum(1 for fits in view["fits"] if fits)
    why = "the pot is empty" if not view["pot_size"] else "you have no tokens"
    lines = ["**Your turn.** The numbered places are on the board."]
    if fitting:
        lines.append(f"{fitting} of your cards fit: choose one to place.")
    elif view["hand"]:
        lines.append("None of your cards fits a place yet.")
    if view["can_buy"]:
        lines.append("You may buy a card instead (1 token).")
    elif view["can_pass"]:
        lines.append(f"You cannot buy ({why}), so you pass.")
    else:
        lines.append(f"You cannot buy ({why}), so you place a card: not placing costs a purchase.")
    if view["swaps"]:
        lines.append("A card of yours fits the joker's place: you may take the joker back.")
    return " ".join(lines)


class Triominos(GameCog, group_name="triominos", group_description="Play My First Triominos"):
    """`/triominos new`, `/triominos rules` and the hand's choices."""

    game = "triominos"
    narrator = staticmethod(narrate)
    private_label = "My hand"

    @new_command(
        "Open a My First Triominos lobby (2–4 players)",
        open_hands="Show every player's hand in the channel (good for a first game)",
        joker="Play with the joker (off: the joker stays in the box)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        open_hands: bool = False,
        joker: bool = True,
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(
            interaction, {"open_hands": open_hands, "joker": joker}, clock, computers, level
        )

    def describe_options(self, options: Mapping[str, Any]) -> str:
        hands = "open hands (everyone sees every hand)" if options.get("open_hands") else "secret hands"
        joker = "with the joker" if options.get("joker", True) else "without the joker"
        return f"{hands}, {joker}"

    def present(self, view: dict, legal: list[dict], path: tuple[int, ...], *, private: bool) -> Form:
        """Nothing on the board (hands are secret): every move is chosen in "My hand"."""
        return hand_form(view, legal, path) if private and legal else Form()

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def headline(self, match: Match, view: dict) -> list[str]:
        """The last move in the renderer's words, marked with its kind; then the last round
        and, with open hands, every hand."""
        kind = view["last_event"]["type"]
        said = " ".join(narrate(view, self.named(match, view)))
        if kind == "start":
            said += " Press **My hand** to see your cards."
        cheer = "🎉 " if kind == "place" and view["last_event"]["earned"] > 1 else ""
        lines = [f"{cheer}{EVENT_MARKS.get(kind, '')} {said}"]
        if view["last_round"] and view["to_move"]:
            lines.append("⏳ **Last round:** the pot is empty — everyone plays once more.")
        for seat, hand in enumerate(view.get("hands", [])):
            cards = ", ".join(card_text(card) for card in hand) or "empty"
            lines.append(f"{self.seat_label(view, seat)} hand: {cards}")
        return lines

    def score_text(self, view: dict, seat: int) -> str:
        cards = view["hand_sizes"][seat]
        return f"{tokens(view['scores'][seat])}, {cards} card{'s' if cards != 1 else ''} in hand"

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        view = match.view(None)
        if view["players"] - len(view["resigned"]) < 2:
            reason = "only one player is left"
        elif view["last_round"]:
            reason = "the last round is over"
        else:
            reason = "every player passed in a row"
        counts = ", ".join(f"{self.seat_label(view, s)} {tokens(n)}" for s, n in enumerate(outcome.scores))
        return [f"The game ended because {reason}. Tokens: {counts}."]

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        lines = [f"**{match.engine.title} #{match.id}** — you have {tokens(view['scores'][seat])}."]
        event = view["last_event"]
        if event.get("seat") == seat and event["type"] in OWN_MOVES:  # its own move, told back
            said = narrate(view, lambda _: "You")
            if event["type"] == "buy":  # the drawn card joins the end of the hand
                said.append(f"Your new card is card {len(view['hand'])}.")
            lines.append(" ".join(said))
        if seat in view["to_move"]:
            lines.append(turn_prompt(view))
        elif view["to_move"]:
            turn = " and ".join(who(match.players[s]) for s in view["to_move"])
            lines.append(f"It is {turn}'s turn. When yours comes, press **My hand** on the board.")
        else:
            lines.append("The game is over — see the board.")
        return PrivateReply(content="\n".join(lines), image=render_hand(view))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Triominos(bot))
