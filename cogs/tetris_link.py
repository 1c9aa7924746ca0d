"""Tetris Link in Discord: choose a shape, steer a ghost piece, drop it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import discord
from discord import app_commands

from cogs.components import GameButton
from cogs.framework import GameCog
from cogs.match import CLOCK_CHOICES, CLOCK_HELP, Match, PrivateReply, seat_name
from games.tetris_link import ANY, COLUMNS, SHAPES, drop, orientations
from render.tetris_link import render

if TYPE_CHECKING:
    from bot import GameBot

RULES = """\
**Goal:** link pieces of your colour. Pieces touching along a side form a group.
**A turn:** the die shows the shape you must play; the logo lets you choose. Turn and flip \
the piece, pick a column and **Drop**: it falls straight down. No piece of that shape left, \
or none fits? Your turn is skipped.
**Scoring:** when your new piece's group has 3 or more pieces, every piece in it that has \
not scored yet gives +1 (linking three gives +3, each further piece +1). Empty cells left \
under the new piece cost −1 for one, −2 for two or more.
**Start:** players roll until someone rolls the logo; that player begins.
**End:** when nobody can place a piece they still have. Most points wins; a tie goes to \
the largest group; if that ties too, it is a draw.
**No dice** (option): choose any shape every turn — pure strategy."""

SHAPE_NAMES = {"I": "I", "O": "O", "T": "T", "S": "S/Z", "L": "L/J", ANY: "logo (free choice)"}
SKIP_REASONS = {
    "no piece of that shape left": "has no piece of that shape left",
    "no piece left": "has no pieces left",
    "no piece fits": "cannot fit that piece anywhere",
}


class Ghost(NamedTuple):
    """The piece a player is steering: where it would go if dropped now."""

    shape: str
    rotation: int
    flip: bool
    column: int

    @property
    def arg(self) -> str:
        return f"{self.shape}:{self.rotation}:{int(self.flip)}:{self.column}"

    @classmethod
    def parse(cls, text: str) -> Ghost:
        shape, rotation, flip, column = text.split(":")
        return cls(shape, int(rotation), flip == "1", int(column))


def legal_columns(cells: list, shape: str, rotation: int, flip: bool) -> list[int]:
    return [c for c in range(COLUMNS) if drop(cells, shape, rotation, flip, c) is not None]


def nearest(columns: list[int], target: int) -> int:
    return min(columns, key=lambda column: (abs(column - target), column))


def first_ghost(cells: list, shape: str, near: int = COLUMNS // 2 - 1) -> Ghost | None:
    """The first orientation of `shape` that fits, in the legal column nearest `near`."""
    for rotation, flip, _ in orientations(shape):
        columns = legal_columns(cells, shape, rotation, flip)
        if columns:
            return Ghost(shape, rotation, flip, nearest(columns, near))
    return None


def turned(cells: list, ghost: Ghost, *, flip: bool) -> Ghost | None:
    """The ghost rotated (or turned over), in the legal column nearest where it was."""
    options = orientations(ghost.shape)
    if flip:
        candidates = [o for o in options if o[1] != ghost.flip]
        candidates.sort(key=lambda o: o[0] != ghost.rotation)
    else:
        same_side = [o for o in options if o[1] == ghost.flip]
        start = next(i for i, o in enumerate(same_side) if o[0] == ghost.rotation)
        candidates = same_side[start + 1 :] + same_side[:start]
    for rotation, side, _ in candidates:
        columns = legal_columns(cells, ghost.shape, rotation, side)
        if columns:
            return Ghost(ghost.shape, rotation, side, nearest(columns, ghost.column))
    return None


def shifted(cells: list, ghost: Ghost, step: int) -> Ghost | None:
    """The ghost moved to the next legal column left (step −1) or right (+1)."""
    columns = legal_columns(cells, ghost.shape, ghost.rotation, ghost.flip)
    ahead = [c for c in columns if (c - ghost.column) * step > 0]
    if not ahead:
        return None
    return ghost._replace(column=min(ahead, key=lambda c: abs(c - ghost.column)))


class TetrisLink(GameCog, group_name="tetrislink", group_description="Play Tetris Link"):
    """`/tetrislink new`, `/tetrislink rules` and the placing controls."""

    game = "tetris_link"
    private_label = "My pieces"
    rules_text = RULES

    @app_commands.command(name="new", description="Open a Tetris Link lobby (2–4 players)")
    @app_commands.describe(
        dice="Roll the shape die each turn (off: choose any shape, pure strategy)", clock=CLOCK_HELP
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self, interaction: discord.Interaction, dice: bool = True, clock: int | None = None
    ) -> None:
        await self.open_lobby(interaction, {"dice": dice}, clock)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        if options.get("dice", True):
            return "with the shape die (the logo lets you choose)"
        return "no dice: free choice of shape every turn"

    # -------------------------------------------------------------- the board

    def _ghost(self, view: dict, ui: Mapping[str, Any]) -> Ghost | None:
        if "ghost" in ui:
            return ui["ghost"]
        if view["die"] in SHAPES:
            return first_ghost(view["cells"], view["die"])
        return None

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        ghost = self._ghost(view, ui) if view["to_move"] else None
        if ghost is None:
            return render(view)
        landed = drop(view["cells"], *ghost)
        seat = view["to_move"][0]
        return render(view, ghost={"seat": seat, "cells": [list(c) for c in landed or ()]})

    def headline(self, match: Match, view: dict) -> list[str]:
        lines = [self._event_line(match, event) for event in view["events"]]
        die = view["die"]
        if die is not None and view["to_move"]:
            lines.append(f"🎲 The die shows **{SHAPE_NAMES[die]}**.")
        return [line for line in lines if line]

    def _event_line(self, match: Match, event: dict) -> str:
        kind = event["type"]
        if kind == "start":
            rolls = ", ".join(f"{seat_name(s)} {SHAPE_NAMES[face]}" for s, face in event["rolls"])
            return f"🎲 Starting rolls: {rolls} — <@{match.players[event['seat']]}> starts."
        if kind == "skip":
            reason = SKIP_REASONS.get(event["reason"], event["reason"])
            return (
                f"⏭️ <@{match.players[event['seat']]}> rolled {SHAPE_NAMES[event['die']]} and "
                f"{reason}: turn skipped."
            )
        if kind == "score":
            parts = []
            if event["gained"]:
                parts.append(f"+{event['gained']} for a group of {event['group']}")
            if event["gap_penalty"]:
                parts.append(f"−{event['gap_penalty']} for gaps")
            return f"✨ <@{match.players[event['seat']]}>: {', '.join(parts)}."
        if kind == "resign":
            return f"🏳️ <@{match.players[event['seat']]}> resigned; their turns are skipped."
        return ""

    def result_lines(self, match: Match, outcome: Any) -> list[str]:
        if not outcome.tiebreak:
            return []
        sizes = outcome.details["largest_group"]
        tied = ", ".join(f"{seat_name(s)} {sizes[s]}" for s in range(len(match.players)))
        return [f"Tied on points — the largest group decided ({tied} pieces)."]

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        if not view["to_move"]:
            return []
        ghost = self._ghost(view, ui)
        items = self._shape_buttons(match, view, ghost)
        if ghost is not None:
            items += self._steering_buttons(match, view, ghost)
        return items

    def _shape_buttons(self, match: Match, view: dict, ghost: Ghost | None) -> list[discord.ui.Item]:
        if view["die"] in SHAPES:
            return []
        left = view["pieces_left"][view["to_move"][0]]
        return [
            GameButton(
                self.game,
                match.id,
                match.turn,
                f"s:{shape}",
                label=f"{shape} ×{left[shape]}",
                style=discord.ButtonStyle.primary
                if ghost and ghost.shape == shape
                else discord.ButtonStyle.secondary,
                disabled=not left[shape] or first_ghost(view["cells"], shape) is None,
                row=0,
            )
            for shape in SHAPES
        ]

    def _steering_buttons(self, match: Match, view: dict, ghost: Ghost) -> list[discord.ui.Item]:
        cells = view["cells"]
        moves = [
            ("◀", shifted(cells, ghost, -1), "Move left"),
            ("▶", shifted(cells, ghost, +1), "Move right"),
            ("⟳", turned(cells, ghost, flip=False), "Rotate"),
            ("⇋", turned(cells, ghost, flip=True), "Flip"),
        ]
        items: list[discord.ui.Item] = []
        for index, (emoji, target, _) in enumerate(moves):
            items.append(
                GameButton(
                    self.game,
                    match.id,
                    match.turn,
                    # A unique dummy arg keeps disabled buttons' custom_ids distinct.
                    f"p:{target.arg}" if target else f"x:{index}",
                    label=emoji,
                    disabled=target is None,
                    row=1,
                )
            )
        items.append(
            GameButton(
                self.game,
                match.id,
                match.turn,
                f"d:{ghost.arg}",
                label=f"Drop in column {ghost.column + 1}",
                style=discord.ButtonStyle.success,
                row=1,
            )
        )
        return items

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
        view = match.view(seat)
        if kind == "s":
            ghost = first_ghost(view["cells"], rest)
            if ghost is None:
                await interaction.response.send_message(
                    f"No {SHAPE_NAMES[rest]} piece fits anywhere — choose another shape.",
                    ephemeral=True,
                )
                return
            await self.service.show(interaction, match, {"ghost": ghost})
        elif kind == "p":
            await self.service.show(interaction, match, {"ghost": Ghost.parse(rest)})
        elif kind == "d":
            ghost = Ghost.parse(rest)
            move = {
                "type": "place",
                "shape": ghost.shape,
                "rotation": ghost.rotation,
                "flip": ghost.flip,
                "column": ghost.column,
            }
            await self.service.play(interaction, match, seat, move, turn=match.turn)
        else:
            await interaction.response.send_message(
                "That button does nothing here — use the arrows, rotate, flip or Drop.",
                ephemeral=True,
            )

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        left = view["pieces_left"][seat]
        pieces = ", ".join(f"{SHAPE_NAMES[s]} ×{n}" for s, n in left.items())
        return PrivateReply(
            content=(
                f"**Tetris Link #{match.id}** — you are {seat_name(seat)}, "
                f"{view['scores'][seat]} points.\nPieces left: {pieces}."
            )
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TetrisLink(bot))
