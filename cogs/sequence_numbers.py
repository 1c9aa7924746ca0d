"""Sequence Numbers in Discord: the hand in private; choose a card, then where it goes.

Cards are played from the private hand reply: the card menu, then the card's cells (answer
buttons; a cell menu, or row then column menus past 25 cells) and the dead-card trades.
The choice of which five lock, when a chip made more than five in a row, is public: its
"Lock A3–E3" buttons are on the board (which draws the runs) and in the mover's hand reply.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs.game import GameCog, Level, new_command
from games import Outcome
from games.sequence_numbers import SIZE, cell_name
from matches.match import SEAT_MARKS, Match, PrivateReply, seat_name
from matches.presentation import SELECT_LIMIT, Choice, Form, Option, grouped
from render.sequence_numbers import narrate, render, render_hand, solo

if TYPE_CHECKING:
    from bot import GameBot

CARD_MENU = "Choose a card to play"
TO_DO = {
    "problem": "put your chip on a cell showing its answer",
    "plus": "put your chip on any empty cell",
    "minus": "remove an opponent chip that is not part of a sequence",
}
LOCK_PROMPT = (
    "Your chip made more than five in a row: choose which five chips to lock — "
    "the board shows the runs. Your new card comes after the lock."
)


def card_name(card: dict) -> str:
    """A card as players read it: its problem, or "plus card" / "minus card"."""
    return card["text"] if card["kind"] == "problem" else f"{card['kind']} card"


def cell_of(move: dict) -> str:
    return cell_name(move["row"] * SIZE + move["col"])


def card_hint(card: dict, moves: list[dict]) -> str:
    """What a card of the hand can do now, under its name in the card menu."""
    if card["kind"] == "problem":
        return f"goes on {' or '.join(map(cell_of, moves))}" if moves else "dead: both of its cells are taken"
    if card["kind"] == "plus":
        return "a chip on any empty cell" if moves else "no empty cell left"
    return f"remove one of {len(moves)} opponent chips" if moves else "no opponent chip to remove"


def unplayable(view: dict, index: int) -> str:
    """Why the chosen card cannot be played now."""
    card = view["hand"][index]
    if card["kind"] == "minus":
        return "There is no opponent chip you may remove (chips in a sequence stay) — play another card."
    if card["kind"] == "plus":
        return "There is no empty cell left for a plus card — play another card."
    dead = f"Card {index + 1} ({card['text']}) is dead: both of its cells are taken"
    if view["traded"]:
        return f"{dead}, and you have traded a dead card this turn already — play another card."
    return f"{dead} — trade it with its **Trade** button, then play."


def own_move(view: dict, seat: int) -> list[str]:
    """What the seat's own move just did, in the board's words, when the last event is theirs."""
    event = view["last_event"]
    if event is None or event["type"] == "start" or event.get("seat") != seat:
        return []
    return narrate(view, lambda other: "You" if other == seat else seat_name(other))[:1]


def cell_menu(view: dict, placeholder: str, moves: list[dict]) -> Choice:
    """A menu of cells, each saying what it shows, or whose chip is on it (a seat, or a team)."""
    options = []
    for move in moves:
        square = view["board"][move["row"]][move["col"]]
        team, hint = square["chip"], f"shows {square['number']}"
        if team is not None:
            owner = seat_name(view["teams"][team][0]) if solo(view) else f"{SEAT_MARKS[team]} team {team + 1}"
            hint = f"{owner} chip on {square['number']}"
        options.append(Option(cell_of(move), move=move, description=hint))
    return Choice(placeholder, tuple(options), select=True)


def places(view: dict, card: int, moves: list[dict], rest: tuple[int, ...]) -> tuple[list[Choice], str]:
    """Where the chosen card can go — cell buttons, one cell menu, or a row menu (its pick:
    `rest[0]`) then that row's column menu — and the caption saying so (or why nowhere)."""
    chosen = view["hand"][card]
    if not moves:
        return [], unplayable(view, card)
    caption = f"Card {card + 1}, **{card_name(chosen)}**: {TO_DO[chosen['kind']]}."
    if chosen["kind"] == "problem":
        cells = tuple(Option(cell_of(move), move=move, style="success") for move in moves)
        return [Choice("Choose the cell", cells)], caption
    if len(moves) <= SELECT_LIMIT:
        return [cell_menu(view, "Choose the cell", moves)], caption
    rows = Counter(move["row"] for move in moves)
    row = rest[0] if rest and rest[0] in rows else None
    options = (
        Option(f"Row {r + 1}", pick=r, description=f"{n} cells", selected=r == row)
        for r, n in sorted(rows.items())
    )
    levels = [Choice("Choose the row", tuple(options), select=True)]
    if row is None:
        return levels, f"{caption} Choose the row, then the column."
    levels.append(cell_menu(view, "Choose the column", [m for m in moves if m["row"] == row]))
    return levels, f"{caption} Row {row + 1}: choose the column."


def hand_form(view: dict, legal: list[dict], path: tuple[int, ...]) -> Form:
    """The card menu, the chosen card's cells and the trade buttons. Path: (card, row)."""
    hand = view["hand"]
    plays = grouped([move for move in legal if move["type"] == "play"], "card")
    card = path[0] if path and 0 <= path[0] < len(hand) else None
    cards = tuple(
        Option(f"{i + 1} · {card_name(c)}", description=card_hint(c, plays.get(i, [])), selected=i == card)
        for i, c in enumerate(hand)
    )
    levels, caption = places(view, card, plays.get(card, []), path[1:]) if card is not None else ([], None)
    choices = [Choice(CARD_MENU, cards, select=True), *levels]
    shown = path[: 1 + (len(levels) == 2)] if card is not None else ()  # the card, and a row picked
    trades = tuple(
        Option(f"Trade dead card {m['card'] + 1} ({card_name(hand[m['card']])})", move=m, style="danger")
        for m in legal
        if m["type"] == "trade"
    )
    if trades:
        choices.append(Choice("Trade a dead card", trades))
    return Form(tuple(choices), path=shown, caption=caption)


class SequenceNumbers(GameCog, group_name="sequence", group_description="Play Sequence Numbers"):
    """`/sequence new`, `/sequence rules`, the board and the hand."""

    game = "sequence_numbers"
    narrator = staticmethod(narrate)
    private_label = "My hand"

    @new_command(
        "Open a Sequence Numbers lobby (2, 3, 4 or 6 players)",
        teams="Only with 6 players: 2 teams of three, or 3 teams of two (default 2)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        teams: Literal[2, 3] = 2,
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(interaction, {"teams": teams}, clock, computers, level)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        six = "three teams of two" if options.get("teams", 2) == 3 else "two teams of three"
        return (
            f"2 or 3 players play alone, 4 play two against two, 6 play in {six} (5 cannot form equal teams)"
        )

    def game_options(self, options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
        # The team count is a choice only with six players; other counts have one seating.
        return {"teams": options.get("teams", 2)} if players == 6 else {}

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def present(self, view: dict, legal: list[dict], path: tuple[int, ...], *, private: bool) -> Form:
        """The lock choice (public: on the board and in the hand reply), else the hand (private only)."""
        locks = tuple(
            Option(f"Lock {m['from']}–{m['to']}", move=m, style="success")
            for m in legal
            if m["type"] == "lock"
        )
        if locks:
            return Form((Choice("Choose which five chips to lock", locks),), caption=LOCK_PROMPT)
        return hand_form(view, legal, path) if private and legal else Form()

    def score_text(self, view: dict, seat: int) -> str:
        text = f"sequences {view['scores'][seat]}/{view['sequences_to_win']}"
        return f"{text} · resigned" if seat in view["resigned"] else text

    def headline(self, match: Match, view: dict) -> list[str]:
        return narrate(view, self.named(match, view))

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        if outcome.details.get("reason") == "stuck":
            return ["Nobody could play a card for a whole round, so the game is a draw."]
        return []

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        """The seat's last move (when the last event is theirs), its hand and what to do."""
        view = match.view(seat)
        dead = set(view["dead_cards"])
        cards = ", ".join(
            f"{index + 1} · {card_name(card)}" + (" (dead)" if index in dead else "")
            for index, card in enumerate(view["hand"])
        )
        lines = own_move(view, seat)
        lines.append(
            f"**{match.engine.title} #{match.id}** — your hand ({self.seat_label(view, seat)}): {cards}."
        )
        if view["winners"] is not None:
            lines.append("The game is over.")
        elif seat not in view["to_move"]:
            lines.append("You play from here when it is your turn.")
        return PrivateReply("\n".join(lines), render_hand(view))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(SequenceNumbers(bot))
