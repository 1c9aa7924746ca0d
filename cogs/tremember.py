"""Tremember in Discord: take a card and peek, push it back in, turn two cards.

Memory stays honest: the channel only ever shows the spectator view on the board
message, which is edited in place, so a miss is visible until the next move and no
lasting message names a face-down card. The taken card is shown to its taker alone,
in ephemeral replies.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.components import GameButton, GameSelect, items_view
from cogs.framework import GameCog
from cogs.match import CLOCK_CHOICES, CLOCK_HELP, Match, PrivateReply
from games.tremember import SIDES, SIZE
from render.tremember import render, render_card

if TYPE_CHECKING:
    from bot import GameBot

RULES = """\
**Goal:** find the most pairs on a 6×6 board of 36 face-down cards (18 pairs, 2 of them \
joker pairs). Columns are A–F, rows 1–6.
**A turn:**
1. **Take** any face-down card. Only you see its face (privately, with **Show my card**).
2. **Push** it back in at one end of its row or column: the line slides one step toward \
the hole and your card lies face down at that end. The end where the hole is does not count.
3. **Turn two** face-down cards, one after the other, for everyone to see.
**Pair:** the cards stay face up and score by how they lie now: **3** side by side, \
**2** touching at a corner, **1** apart. Then you play again. A **joker pair** also turns \
the whole board 90° clockwise.
**No pair:** both cards turn face down again and the next player goes. The board shows \
them until the next move — remember them!
**End:** when every card is face up. Most points wins; equal top scores share a draw."""

ROW_GROUPS = ((0, 3), (3, 6))  # two selects of at most 18 cells each (Discord allows 25)
CELL_NAME = re.compile(r"^([A-F])([1-6])$")
PUSHES = {  # the end a card comes in from -> (arrow, how its line moves)
    "left": ("➡", "row {row} right"),
    "right": ("⬅", "row {row} left"),
    "top": ("⬇", "column {col} down"),
    "bottom": ("⬆", "column {col} up"),
}
NOTHING_SECRET = (
    "Nothing secret to show right now: when you take a card, its face is shown to you "
    "alone, here, until you push it back in."
)


def cell_name(cell: list[int]) -> str:
    """`B3` for [2, 1] (row, column)."""
    row, col = cell
    return f"{'ABCDEF'[col]}{row + 1}"


def parse_cell_name(text: str) -> list[int] | None:
    """[2, 1] for `B3`; None for anything else."""
    found = CELL_NAME.match(text)
    return None if found is None else [int(found[2]) - 1, "ABCDEF".index(found[1])]


def motif_name(motif: str) -> str:
    """The name players read: both joker motifs are simply "joker"."""
    return "joker" if motif.startswith("joker") else motif


def landing_cell(side: str, hole: list[int]) -> list[int]:
    """Where a card pushed in from `side` lies once the hole is closed."""
    row, col = hole
    return {
        "left": [row, 0],
        "right": [row, SIZE - 1],
        "top": [0, col],
        "bottom": [SIZE - 1, col],
    }[side]


def line_moved(side: str, hole: list[int]) -> str:
    """`column B down`: which line a push from `side` moves, and which way."""
    return PUSHES[side][1].format(row=hole[0] + 1, col="ABCDEF"[hole[1]])


def push_label(side: str, hole: list[int]) -> str:
    """`⬇ Push column B down`."""
    return f"{PUSHES[side][0]} Push {line_moved(side, hole)}"


def rotation_text(cells: list[list[int]]) -> str:
    """What a joker pair's turn did to the board, for players to find their bearings."""
    pair = " + ".join(cell_name(cell) for cell in cells)
    return (
        "↻ The whole board turned 90° clockwise: row 1 is now column F, column A is now "
        f"row 1, and the joker pair lies at {pair}."
    )


@lru_cache(maxsize=32)
def peek_image(motif: str) -> bytes:
    """The large private card; there are only 18 motifs, so each is drawn once."""
    return render_card(motif)


class Tremember(GameCog, group_name="tremember", group_description="Play Tremember"):
    """`/tremember new`, `/tremember rules` and the take, push and flip controls."""

    game = "tremember"
    private_label = "Show my card"
    rules_text = RULES

    @app_commands.command(name="new", description="Open a Tremember lobby (2–6 players)")
    @app_commands.describe(clock=CLOCK_HELP)
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(self, interaction: discord.Interaction, clock: int | None = None) -> None:
        await self.open_lobby(interaction, {}, clock)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        return "36 cards in 18 pairs (2 joker pairs) on a 6×6 board"

    # -------------------------------------------------------------- the board

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def score_text(self, view: dict, seat: int) -> str:
        pairs = sum(row.count(seat) for row in view["found"]) // 2
        return f"{view['scores'][seat]} pts · {pairs} pair{'' if pairs == 1 else 's'}"

    def headline(self, match: Match, view: dict) -> list[str]:
        lines = self._event_lines(match, view)
        if view["phase"] != "over":
            lines.append(self._instruction(view))
        return lines

    def _event_lines(self, match: Match, view: dict) -> list[str]:
        """What the last move did, without ever naming a face-down card."""
        move = view["last_move"]
        if move is None:
            return ["🃏 36 cards lie face down. Find the pairs — the board keeps moving!"]
        who = f"<@{match.players[move['seat']]}>"
        kind = move["type"]
        if kind == "resign":
            return [f"🏳️ {who} resigned; their points stay on the board."]
        if kind == "take":
            return [f"✋ {who} took the card at **{cell_name(move['cell'])}** — only they saw it."]
        if kind == "push":
            line = line_moved(move["from"], move["cell"])
            lands = cell_name(landing_cell(move["from"], move["cell"]))
            return [f"↔️ {who} pushed {line}; the taken card lies face down at **{lands}** now."]
        if view["phase"] == "flip":
            return [f"👀 {who} turned the card at **{cell_name(move['cell'])}**."]
        return self._second_flip_lines(who, view)

    def _second_flip_lines(self, who: str, view: dict) -> list[str]:
        first, second = view["last_flip"]
        cells = f"**{cell_name(first['cell'])}** + **{cell_name(second['cell'])}**"
        if first["motif"] != second["motif"]:
            return [
                f"❌ No pair at {cells}: both cards are face down again. "
                "The board shows them only until the next move."
            ]
        pair = view["last_pair"]
        touch = {3: "side by side", 2: "touching at a corner", 1: "apart"}[pair["points"]]
        lines = [
            f"🎉 {who} found a **{motif_name(pair['motif'])}** pair at {cells}: "
            f"**+{pair['points']}** ({touch})."
        ]
        if pair["rotated"]:
            lines.append(rotation_text(pair["cells_now"]))
        if view["phase"] != "over":
            lines.append(f"{who} plays again.")
        return lines

    def _instruction(self, view: dict) -> str:
        if view["phase"] == "take":
            return "Next: **take** a face-down card with a menu below — only the taker sees its face."
        if view["phase"] == "push":
            return "Next: **push** the card back in with a button below; the line slides toward the hole."
        if view["first_flip"]:
            return "Next: turn a **second** face-down card."
        return "Next: turn **two** face-down cards, one after the other."

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        if view["phase"] == "push":
            return self._push_buttons(match, view)
        if view["phase"] in ("take", "flip"):
            return self._cell_selects(match, view)
        return []

    def _cell_selects(self, match: Match, view: dict) -> list[discord.ui.Item]:
        """A select per row group with its face-down cells; empty groups are left out."""
        kind = "t" if view["phase"] == "take" else "f"
        verb = "Take a card" if kind == "t" else "Turn a card"
        if view["first_flip"]:
            verb = "Turn the second card"
        items: list[discord.ui.Item] = []
        for index, (top, bottom) in enumerate(ROW_GROUPS):
            names = [
                cell_name([row, col])
                for row in range(top, bottom)
                for col in range(SIZE)
                if view["board"][row][col] is None
            ]
            if not names:
                continue
            items.append(
                GameSelect(
                    self.game,
                    match.id,
                    match.turn,
                    f"{kind}:{index}",
                    options=[discord.SelectOption(label=name, value=name) for name in names],
                    placeholder=f"{verb} in rows {top + 1}–{bottom}",
                    row=len(items),
                )
            )
        return items

    def _push_buttons(self, match: Match, view: dict) -> list[discord.ui.Item]:
        """One button per end; the end at the hole is shown but disabled."""
        hole, legal = view["hole"], view["legal_pushes"]
        return [
            GameButton(
                self.game,
                match.id,
                match.turn,
                f"p:{side}",
                label=push_label(side, hole),
                style=discord.ButtonStyle.primary if side in legal else discord.ButtonStyle.secondary,
                disabled=side not in legal,
                row=0,
            )
            for side in SIDES
        ]

    # ----------------------------------------------------------------- clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        kind, _, rest = arg.partition(":")
        if kind == "p":
            await self._push(interaction, match, seat, rest)
            return
        cell = parse_cell_name(values[0]) if kind in ("t", "f") and values else None
        if cell is None:
            await interaction.response.send_message(
                "Choose a cell such as B3 in one of the menus on the latest board.", ephemeral=True
            )
            return
        move = {"type": "take" if kind == "t" else "flip", "cell": cell}
        if await self.service.play(interaction, match, seat, move, turn=match.turn) and kind == "t":
            await self._send_peek(interaction, match, seat)

    async def _push(self, interaction: discord.Interaction, match: Match, seat: int, side: str) -> None:
        """Push from the board or from the taker's private card reply."""
        from_board = interaction.message is not None and interaction.message.id == match.row.message_id
        note = None if from_board else "You pushed your card back in — now turn two cards on the board."
        move = {"type": "push", "from": side}
        await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note)

    async def _send_peek(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        """Right after a take: the card's face, to the taker alone."""
        reply = self.private_view(match, seat)
        if reply.image is None:  # a quick push from the board came first: nothing to peek at
            return
        await interaction.followup.send(
            reply.content,
            file=discord.File(io.BytesIO(reply.image), filename="card.png"),
            view=items_view(reply.items),
            ephemeral=True,
        )

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        motif = view["peek"]
        if motif is None:
            return PrivateReply(content=NOTHING_SECRET)
        return PrivateReply(
            content=(
                f"Your card from **{cell_name(view['hole'])}**: **{motif_name(motif)}**. Only you can "
                "see it. Push it back in with a button below or on the board."
            ),
            image=peek_image(motif),
            items=self._push_buttons(match, view),
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Tremember(bot))
