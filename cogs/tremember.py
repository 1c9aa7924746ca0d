"""Tremember in Discord: take a card and peek, push it back in, turn two cards.

Memory stays honest: the channel only ever shows the spectator view on the board
message, which is edited in place, so a miss is visible until the next move and no
lasting message names a face-down card. The taken card is shown to its taker alone,
in ephemeral replies — and only while it is in their hand: once it is pushed back in
(from the board, from a private reply, or by the turn clock), every reply that showed
it is edited to hide it, so the player has to remember it, as at the table.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import GameCog
from games.tremember import SIDES, SIZE
from matches.components import GameButton, GameSelect, items_view
from matches.match import CLOCK_CHOICES, CLOCK_HELP, PRIVATE, Match, PrivateReply, seat_name
from render.tremember import cell_name, line_moved, motif_name, narrate, render, render_card

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)

RULES = """\
**Goal:** find the most pairs on a 6×6 board of 36 face-down cards (18 pairs, 2 of them \
joker pairs). Columns are A–F, rows 1–6.
**A turn:**
1. **Take** any face-down card. Only you see its face (privately, with **Show my card**), \
until you push it back in — then remember it!
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
ARROWS = {"left": "➡", "right": "⬅", "top": "⬇", "bottom": "⬆"}  # the end a card comes in from
ICONS = {"start": "🃏", "take": "✋", "push": "↔️", "flip": "👀", "miss": "❌", "pair": "🎉", "resign": "🏳️"}
SHOW_MY_CARD = re.compile(rf"g:tremember:(?P<match>\d+):\d+:{re.escape(PRIVATE)}")
NOTHING_SECRET = (
    "Nothing secret to show right now: when you take a card, its face is shown to you "
    "alone, here, until you push it back in."
)
PUSHED_BACK = "Your card is back in the board, face down: its face is no longer shown here, so remember it!"


def parse_cell_name(text: str) -> list[int] | None:
    """[2, 1] for `B3`; None for anything else."""
    found = CELL_NAME.match(text)
    return None if found is None else [int(found[2]) - 1, "ABCDEF".index(found[1])]


def push_label(side: str, hole: list[int]) -> str:
    """`⬇ Push column B down`."""
    return f"{ARROWS[side]} Push {line_moved(side, hole)}"


@lru_cache(maxsize=32)
def peek_image(motif: str) -> bytes:
    """The large private card; there are only 18 motifs, so each is drawn once."""
    return render_card(motif)


@dataclass(slots=True)
class PeekReply:
    """A private reply that shows the taken card: the take's follow-up (`message_id`)
    or a "Show my card" reply (the interaction's own response)."""

    seat: int
    turn: int  # the match's turn while the card was in the hand
    interaction: discord.Interaction
    message_id: int | None = None

    async def forget(self) -> None:
        """Edit the reply so it no longer shows the card (its image, name and buttons)."""
        payload: dict[str, Any] = {"content": PUSHED_BACK, "attachments": [], "view": None}
        try:
            if self.message_id is None:
                await self.interaction.edit_original_response(**payload)
            else:
                await self.interaction.followup.edit_message(self.message_id, **payload)
        except discord.HTTPException as error:
            # Dismissed by the player, or older than the 15 minutes Discord lets a reply
            # be edited: nothing is left to hide, or nothing can be done.
            log.info("A private Tremember reply could not be edited: %s", error)


class Tremember(GameCog, group_name="tremember", group_description="Play Tremember"):
    """`/tremember new`, `/tremember rules` and the take, push and flip controls."""

    game = "tremember"
    private_label = "Show my card"
    rules_text = RULES

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self._peeks: dict[int, list[PeekReply]] = {}  # by match: the replies showing a taken card
        self._tasks: set[asyncio.Task[None]] = set()

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
        """What just happened, in the board image's words (`narrate`), and what to do now.

        The framework asks for it once per new board, whoever moved (a player, the
        clock, a resignation): so this is also where a taken card that left the hand is
        hidden from the private replies that showed it.
        """
        if self._peeks.get(match.id):
            self._spawn(self._forget_pushed_cards(match))

        def name(seat: int) -> str:
            return f"<@{match.players[seat]}> ({seat_name(seat)})"

        lines = narrate(view, name)
        event = view["last_event"]
        if lines and event is not None:
            lines[0] = f"{ICONS.get(event['type'], '•')} {lines[0]}"
        if view["winners"] is None:
            lines.append(self._instruction(view))
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
        if view["winners"] is not None:
            return []
        if view["phase"] == "push":
            return self._push_buttons(match, view)
        return self._cell_selects(match, view)

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
        """Push from the board or from the taker's private card reply (which then says so)."""
        from_board = interaction.message is not None and interaction.message.id == match.row.message_id
        move = {"type": "push", "from": side}
        note = None if from_board else PUSHED_BACK
        await self.service.play(interaction, match, seat, move, turn=match.turn, private_note=note)

    async def _send_peek(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        """Right after a take: the card's face, to the taker alone, kept to be hidden later."""
        turn = match.turn
        reply = await asyncio.to_thread(self.private_view, match, seat)
        if reply.image is None:  # a quick push from the board came first: nothing to peek at
            return
        message = await interaction.followup.send(
            reply.content,
            file=discord.File(io.BytesIO(reply.image), filename="card.png"),
            view=items_view(reply.items),
            ephemeral=True,
            wait=True,
        )
        self._peeks.setdefault(match.id, []).append(PeekReply(seat, turn, interaction, message.id))
        await self._forget_pushed_cards(match)  # pushed while this was on its way: hide it now

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Keep each "Show my card" click that shows the taken card (the framework answers
        it), so that its reply can be edited once the card is pushed back in."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        found = SHOW_MY_CARD.fullmatch(str(interaction.data.get("custom_id", "")))
        match = self.service.running.get(int(found["match"])) if found else None
        seat = match.seat_of(interaction.user.id) if match else None
        if match is None or seat is None or match.view(seat)["peek"] is None:
            return
        self._peeks.setdefault(match.id, []).append(PeekReply(seat, match.turn, interaction))

    async def _forget_pushed_cards(self, match: Match) -> None:
        """Hide the card in every reply that showed it, once it is no longer in the hand."""
        replies = self._peeks.pop(match.id, [])
        running = match.row.status == "running"
        due = [reply for reply in replies if reply.turn != match.turn or not running]
        if kept := [reply for reply in replies if reply not in due]:
            self._peeks[match.id] = kept
        for reply in due:
            await reply.forget()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the caller, keeping a reference until it is done."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # called from a worker thread: the bot's loop does the work
            asyncio.run_coroutine_threadsafe(work, self.bot.loop)
            return
        task = loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        motif = view["peek"]
        if motif is None:
            return PrivateReply(content=NOTHING_SECRET)
        return PrivateReply(
            content=(
                f"Your card from **{cell_name(view['hole'])}**: **{motif_name(motif)}**. Only you can "
                "see it, and only until it is back in the board: remember it! Push it back in with "
                "a button below or on the board."
            ),
            image=peek_image(motif),
            items=self._push_buttons(match, view),
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Tremember(bot))
