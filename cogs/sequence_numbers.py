"""Sequence Numbers in Discord: the hand in private; choose a card, then where it goes.

The board message carries "My hand" and "Resign". Everything a move needs happens in
the player's ephemeral hand message: a select of the cards (numbered as in the hand
image), then the card's cells — answer buttons for a problem card, a cell menu (or a
row menu, then a column menu, when more than 25 cells qualify) for a plus or minus
card — and a trade button for each dead card while a trade is allowed.

When a chip makes more than five in a row and the mover must choose which five lock,
the choice is a follow-up decision of the same turn: "Lock A3–E3" buttons on the board
(where the candidate runs are drawn) and in the mover's hand message.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs.game import GameCog
from games import Outcome
from games.sequence_numbers import COLUMNS, SIZE, cell_name
from matches.components import GameButton, GameSelect, items_view
from matches.match import CLOCK_CHOICES, CLOCK_HELP, SEAT_MARKS, Match, PrivateReply, seat_name, tell
from render.sequence_numbers import narrate, render, render_hand, run_name, solo, team_of

if TYPE_CHECKING:
    from bot import GameBot

MENU_LIMIT = 25  # the most options Discord allows in one select menu
LOCK_PROMPT = (
    "Your chip made more than five in a row: choose which five chips to lock — "
    "the board shows the runs. Your new card comes after the lock."
)

RULES = """\
**Goal:** a **sequence** is five of your chips in a line: a row, a column or a diagonal. \
The four **FREE** corners count as a chip of every colour. With 2 or 3 players one \
sequence wins; with 4 or 6 players, who play in teams, a team needs **two**. \
Who starts is drawn by lot; play then goes round the seats.
**Your hand is secret:** press **My hand** on the board. On your turn choose a card, then:
• a **problem card** (like 17 + 5): put a chip on an empty cell showing the answer — \
each number is on the board twice;
• a **plus card**: put a chip on any empty cell;
• a **minus card**: remove one opponent chip that is not part of a sequence.
You draw a new card automatically.
**Dead card:** a problem card whose two cells are both taken. Once per turn you may \
trade one for a new card before you play.
**Teams:** 4 players play two against two; 6 players three against three, or three teams \
of two with the `teams` option. Team members take turns alternately and do not see each \
other's cards. 5 players cannot form equal teams.
**Sequences are locked:** their chips can never be removed. Two sequences of one team may \
share one chip. When your chip makes **more than five in a row**, you choose which five lock \
(the **Lock** buttons; the board shows the runs) — the choice can keep a second sequence \
along the same line possible. A player who cannot play is skipped; if nobody can play for a whole round, \
the game is a draw."""


def card_name(card: dict) -> str:
    """A card as players read it: its problem, or "plus card" / "minus card"."""
    return card["text"] if card["kind"] == "problem" else f"{card['kind']} card"


def chip_owner(view: dict, team: int) -> str:
    """Whose chip it is: the player's seat when players play alone, else the team."""
    if solo(view):
        return seat_name(view["teams"][team][0])
    return f"{SEAT_MARKS[team]} team {team + 1}"


def parse_index(text: str, size: int) -> int | None:
    """`text` as an index below `size`; None for anything else."""
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 0 <= value < size else None


def parse_cell(name: str) -> int | None:
    """`C4` -> 32 (row 3 * 10 + column 2); None for anything that is not a cell of the board."""
    column, row = name[:1].upper(), parse_index(name[1:], SIZE + 1)
    if not column or column not in COLUMNS or not row:
        return None
    return (row - 1) * SIZE + COLUMNS.index(column)


class SequenceNumbers(GameCog, group_name="sequence", group_description="Play Sequence Numbers"):
    """`/sequence new`, `/sequence rules`, the board and the hand controls."""

    game = "sequence_numbers"
    private_label = "My hand"
    rules_text = RULES

    @app_commands.command(name="new", description="Open a Sequence Numbers lobby (2, 3, 4 or 6 players)")
    @app_commands.describe(
        teams="Only with 6 players: 2 teams of three, or 3 teams of two (default 2)", clock=CLOCK_HELP
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self, interaction: discord.Interaction, teams: Literal[2, 3] = 2, clock: int | None = None
    ) -> None:
        await self.open_lobby(interaction, {"teams": teams}, clock)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        six = "three teams of two" if options.get("teams", 2) == 3 else "two teams of three"
        return (
            f"2 or 3 players play alone, 4 play two against two, 6 play in {six} (5 cannot form equal teams)"
        )

    def game_options(self, options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
        # The team count is a choice only with six players; other counts have one seating.
        return {"teams": options.get("teams", 2)} if players == 6 else {}

    # -------------------------------------------------------------- the board

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def seat_label(self, view: dict, seat: int) -> str:
        if solo(view):
            return seat_name(seat)
        return f"{seat_name(seat)} · team {team_of(view, seat) + 1}"

    def score_text(self, view: dict, seat: int) -> str:
        text = f"sequences {view['scores'][seat]}/{view['sequences_to_win']}"
        return f"{text} · resigned" if seat in view["resigned"] else text

    def headline(self, match: Match, view: dict) -> list[str]:
        return narrate(view, lambda seat: f"<@{match.players[seat]}> ({seat_name(seat)})")

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        """The lock choice, when the mover has one, is on the board too: beside its picture."""
        return self._lock_buttons(match, view)

    def _lock_buttons(self, match: Match, view: dict) -> list[discord.ui.Item]:
        """One "Lock A3–E3" button per run the mover may lock (none without a choice)."""
        return [
            GameButton(
                self.game,
                match.id,
                match.turn,
                f"l:{run[0]}:{run[-1]}",
                label=f"Lock {run_name(run)}",
                style=discord.ButtonStyle.success,
                row=0,
            )
            for run in view["lock_choices"]
        ]

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        if outcome.details.get("reason") == "stuck":
            return ["Nobody could play a card for a whole round, so the game is a draw."]
        return []

    # --------------------------------------------------------------- the hand

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        dead = set(view["dead_cards"])
        cards = ", ".join(
            f"{index + 1} · {card_name(card)}" + (" (dead)" if index in dead else "")
            for index, card in enumerate(view["hand"])
        )
        head = f"**{match.engine.title} #{match.id}** — your hand ({self.seat_label(view, seat)}): {cards}."
        image = render_hand(view)
        if seat not in view["to_move"]:
            return PrivateReply(f"{head}\nYou play from here when it is your turn.", image)
        if view["lock_choices"]:
            return PrivateReply(f"{head}\n{LOCK_PROMPT}", image, self._lock_buttons(match, view))
        return PrivateReply(head, image, self._hand_items(match, view, self._targets(match, seat)))

    def _targets(self, match: Match, seat: int) -> dict[int, list[int]]:
        """The cells (`row * 10 + col`) each card of the hand may go on now; none: unplayable."""
        targets: dict[int, list[int]] = {}
        for move in self.engine.legal_moves(match.state, seat):
            if move["type"] == "play":
                targets.setdefault(move["card"], []).append(move["row"] * SIZE + move["col"])
        return targets

    def _hand_items(
        self,
        match: Match,
        view: dict,
        targets: dict[int, list[int]],
        card: int | None = None,
        row: int | None = None,
    ) -> list[discord.ui.Item]:
        """The card menu, the chosen card's cells (if any) and the trade buttons."""
        options = [
            discord.SelectOption(
                label=f"{index + 1} · {card_name(hand_card)}",
                value=str(index),
                description=self._card_hint(hand_card, targets.get(index, [])),
                default=index == card,
            )
            for index, hand_card in enumerate(view["hand"])
        ]
        items: list[discord.ui.Item] = [
            GameSelect(
                self.game,
                match.id,
                match.turn,
                "c",
                options=options,
                placeholder="Choose a card to play",
                row=0,
            )
        ]
        if card is not None:
            items += self._cell_items(match, view, card, targets.get(card, []), row)
        if not view["traded"]:
            items += [
                GameButton(
                    self.game,
                    match.id,
                    match.turn,
                    f"t:{index}",
                    label=f"Trade dead card {index + 1} ({card_name(view['hand'][index])})",
                    style=discord.ButtonStyle.danger,
                    row=3,
                )
                for index in view["dead_cards"]
            ]
        return items

    @staticmethod
    def _card_hint(card: dict, cells: list[int]) -> str:
        names = " or ".join(map(cell_name, cells))
        if card["kind"] == "problem":
            return f"goes on {names}" if cells else "dead: both of its cells are taken"
        if card["kind"] == "plus":
            return "a chip on any empty cell" if cells else "no empty cell left"
        return f"remove one of {len(cells)} opponent chips" if cells else "no opponent chip to remove"

    def _cell_items(
        self, match: Match, view: dict, card: int, cells: list[int], row: int | None
    ) -> list[discord.ui.Item]:
        """Where the chosen card can go: buttons, one cell menu, or a row menu then a column menu."""
        game, turn, arg = self.game, match.turn, f"p:{card}"
        if view["hand"][card]["kind"] == "problem":
            return [
                GameButton(
                    game,
                    match.id,
                    turn,
                    f"{arg}:{cell_name(cell)}",
                    label=cell_name(cell),
                    style=discord.ButtonStyle.success,
                    row=1,
                )
                for cell in cells
            ]
        if len(cells) <= MENU_LIMIT:
            options = self._cell_options(view, cells)
            return [
                GameSelect(game, match.id, turn, arg, options=options, placeholder="Choose the cell", row=1)
            ]
        per_row = Counter(cell // SIZE for cell in cells)
        row_options = [
            discord.SelectOption(
                label=f"Row {r + 1}", value=str(r), description=f"{count} cells", default=r == row
            )
            for r, count in sorted(per_row.items())
        ]
        items: list[discord.ui.Item] = [
            GameSelect(
                game, match.id, turn, f"r:{card}", options=row_options, placeholder="Choose the row", row=1
            )
        ]
        if row is not None:
            options = self._cell_options(view, [cell for cell in cells if cell // SIZE == row])
            items.append(
                GameSelect(game, match.id, turn, arg, options=options, placeholder="Choose the column", row=2)
            )
        return items

    @staticmethod
    def _cell_options(view: dict, cells: list[int]) -> list[discord.SelectOption]:
        options = []
        for cell in cells:
            square = view["board"][cell // SIZE][cell % SIZE]
            hint = f"shows {square['number']}"
            if square["chip"] is not None:
                hint = f"{chip_owner(view, square['chip'])} chip on {square['number']}"
            options.append(
                discord.SelectOption(label=cell_name(cell), value=cell_name(cell), description=hint)
            )
        return options

    # ----------------------------------------------------------------- clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        view = match.view(seat)
        size = len(view["hand"])
        kind, _, rest = arg.partition(":")
        index_text, _, cell_text = rest.partition(":")
        if kind == "l":
            await self._lock(interaction, match, seat, index_text, cell_text)
            return
        card = parse_index(values[0] if kind == "c" and values else index_text, size)
        if card is None:
            await tell(interaction, "That card is not in your hand any more — press **My hand** again.")
        elif kind == "c":
            await self._choose(interaction, match, seat, view, card)
        elif kind == "r":
            row = parse_index(values[0] if values else "", SIZE)
            if row is None:
                await tell(interaction, "Choose a row from the menu.")
            else:
                await self._choose(interaction, match, seat, view, card, row)
        elif kind == "p":
            cell = parse_cell(cell_text or (values[0] if values else ""))
            if cell is None:
                await tell(interaction, "Choose a cell from the buttons or the menu.")
            else:
                await self._play(interaction, match, seat, view, card, cell)
        elif kind == "t":
            await self._trade(interaction, match, seat, view, card)
        else:
            await tell(interaction, "That control does nothing here — choose a card from your hand.")

    async def _choose(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        view: dict,
        card: int,
        row: int | None = None,
    ) -> None:
        """Show where the chosen card can go, or say why it cannot be played."""
        chosen = view["hand"][card]
        targets = self._targets(match, seat)
        cells = targets.get(card, [])
        if not cells:
            await tell(interaction, self._unplayable(view, card))
            return
        if row is not None and all(cell // SIZE != row for cell in cells):
            await tell(interaction, "Choose a row from the menu: it lists the rows you can use.")
            return
        name = f"Card {card + 1}, **{card_name(chosen)}**"
        if chosen["kind"] == "problem":
            prompt = f"{name}: put your chip on a cell showing its answer."
        elif chosen["kind"] == "plus":
            prompt = f"{name}: put your chip on any empty cell."
        else:
            prompt = f"{name}: remove an opponent chip that is not part of a sequence."
        if len(cells) > MENU_LIMIT:
            prompt += (
                " Choose the row, then the column." if row is None else f" Row {row + 1}: choose the column."
            )
        items = self._hand_items(match, view, targets, card, row)
        await interaction.response.edit_message(content=prompt, view=items_view(items))

    @staticmethod
    def _unplayable(view: dict, card: int) -> str:
        chosen = view["hand"][card]
        if chosen["kind"] == "minus":
            return "There is no opponent chip you may remove (chips in a sequence stay) — play another card."
        if chosen["kind"] == "plus":
            return "There is no empty cell left for a plus card — play another card."
        if view["traded"]:
            return (
                f"Card {card + 1} ({chosen['text']}) is dead: both of its cells are taken, and you "
                "have traded a dead card this turn already — play another card."
            )
        return (
            f"Card {card + 1} ({chosen['text']}) is dead: both of its cells are taken — "
            "trade it with its **Trade** button, then play."
        )

    async def _play(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        view: dict,
        card: int,
        cell: int,
    ) -> None:
        name, chosen = cell_name(cell), view["hand"][card]
        if chosen["kind"] == "minus":
            note = f"You removed the chip on {name} with a minus card."
        elif chosen["kind"] == "plus":
            note = f"You put a chip on {name} with a plus card."
        else:
            note = f"You played {chosen['text']} on {name}."
        row, col = divmod(cell, SIZE)
        move = {"type": "play", "card": card, "row": row, "col": col}
        if not await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note):
            return
        view = match.view(seat)
        if view["lock_choices"] and seat in view["to_move"]:
            await interaction.edit_original_response(
                content=f"{note}\n{LOCK_PROMPT}", view=items_view(self._lock_buttons(match, view))
            )

    async def _lock(
        self, interaction: discord.Interaction, match: Match, seat: int, first: str, last: str
    ) -> None:
        """Lock the chosen five; the hand message (or the board) then says so."""
        if parse_cell(first) is None or parse_cell(last) is None:
            await tell(interaction, "Choose the five chips to lock with one of the **Lock** buttons.")
            return
        move = {"type": "lock", "from": first, "to": last}
        on_board = interaction.message is not None and interaction.message.id == match.row.message_id
        note = None if on_board else f"You locked {first}–{last}."
        await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note)

    async def _trade(
        self, interaction: discord.Interaction, match: Match, seat: int, view: dict, card: int
    ) -> None:
        """Trade a dead card; the hand message then shows the new hand, or says the turn ended."""
        traded = card_name(view["hand"][card])
        move = {"type": "trade", "card": card}
        if not await self.service.play(interaction, match, seat, move, turn=match.turn):
            return
        if seat not in self.engine.current_seats(match.state):
            await interaction.edit_original_response(
                content=f"You traded {traded}. No card in your hand can be played now, so your turn ends.",
                attachments=[],
                view=None,
            )
            return
        reply = await asyncio.to_thread(self.private_view, match, seat)
        await interaction.edit_original_response(
            content=f"You traded {traded} for a new card.\n{reply.content}",
            attachments=[discord.File(io.BytesIO(reply.image or b""), filename="private.png")],
            view=items_view(reply.items),
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(SequenceNumbers(bot))
