"""Tetris Link in Discord: choose a shape, steer a ghost piece, drop it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from ai.reasons import tetris_link as reasons
from ai.tetris_link import choose
from cogs.game import GameCog, Level, new_command, rules_from_files
from cogs.hints import Reasons
from games.feats import tetris_link as feats_of
from games.feats.tetris_link import feats
from games.tetris_link import COLUMNS, ENGINE, SHAPES, TetrisLinkMove, TetrisLinkView, drop, orientations
from locales import N_, gettext, ngettext
from matches.achievements import feat
from matches.match import Match, PrivateReply, seat_name
from matches.presentation import Choice, Form, Option
from matches.spec import GameSpec
from render.tetris_link import FACE_NAMES, Ghost, board_image, face_name, narrate, prepare, render
from render.tetris_link.narration import FIGURES

Placement = tuple[int, int]  # (index in `orientations(shape)`, column)


def nearest(columns: list[int], target: int) -> int:
    return min(columns, key=lambda column: (abs(column - target), column))


# What a hint says of why its move is good (ai/reasons/tetris_link.py).
HINT_REASONS = Reasons(
    counted={
        "group": lambda lang, n, values: ngettext(
            lang, "makes a group of {size}: +{n} point", "makes a group of {size}: +{n} points", n, **values
        ),
        "fewest_gaps": lambda lang, n, values: ngettext(
            lang,
            "leaves only {n} gap; wherever it goes, at least one is left",
            "leaves only {n} gaps; wherever it goes, at least one is left",
            n,
            **values,
        ),
    },
    plain={
        "joins": N_("touches your own pieces, so a group can grow here"),
        "blocks": N_("gets in the way of another player's pieces"),
        "low": N_("keeps the stack low, without gaps"),
    },
)


class Steering:
    """Where the ghost of `shape` may go, learnt from the legal moves: ◀ ▶ ⟳ ⇋ and Drop."""

    def __init__(self, legal: list[TetrisLinkMove], shape: str) -> None:
        self.shape = shape
        self.orientations = orientations(shape)
        order = {(rotation, flip): index for index, (rotation, flip, _) in enumerate(self.orientations)}
        self.columns: dict[int, list[int]] = {}
        for move in legal:
            if move["shape"] == shape:
                self.columns.setdefault(order[move["rotation"], move["flip"]], []).append(move["column"])

    def start(self) -> Placement | None:
        """The first orientation that fits, in the legal column nearest the middle."""
        if not self.columns:
            return None
        first = min(self.columns)
        return first, nearest(self.columns[first], COLUMNS // 2 - 1)

    def parse(self, pick: int) -> Placement | None:
        orientation, column = divmod(pick, COLUMNS)
        return (orientation, column) if column in self.columns.get(orientation, ()) else None

    def shifted(self, at: Placement, step: int) -> Placement | None:
        """The next legal column left (step −1) or right (+1)."""
        ahead = [c for c in self.columns[at[0]] if (c - at[1]) * step > 0]
        return (at[0], min(ahead, key=lambda c: abs(c - at[1]))) if ahead else None

    def turned(self, at: Placement, *, flip: bool) -> Placement | None:
        """Rotated (the next orientation on the same side) or turned over (the same rotation
        where it fits), in the legal column nearest where it was."""
        count = len(self.orientations)
        rotation, side, _ = self.orientations[at[0]]
        if flip:
            order = sorted(range(count), key=lambda o: self.orientations[o][0] != rotation)
        else:
            order = [(at[0] + step) % count for step in range(1, count)]
        for target in order:
            if (self.orientations[target][1] != side) == flip and target in self.columns:
                return target, nearest(self.columns[target], at[1])
        return None

    def move(self, at: Placement) -> TetrisLinkMove:
        rotation, flip, _ = self.orientations[at[0]]
        return {"type": "place", "shape": self.shape, "rotation": rotation, "flip": flip, "column": at[1]}

    def ghost(self, view: TetrisLinkView, at: Placement) -> Ghost:
        """The preview the board draws: the cells the piece would land on."""
        rotation, flip, _ = self.orientations[at[0]]
        landed = drop(view["cells"], self.shape, rotation, flip, at[1]) or ()
        return {"seat": view["to_move"][0], "cells": [list(cell) for cell in landed]}


def pick(at: Placement) -> int:
    return at[0] * COLUMNS + at[1]


class TetrisLink(
    GameCog[TetrisLinkView, TetrisLinkMove],
    group_name="tetrislink",
    group_description=locale_str("Play Tetris Link"),
):
    """`/tetrislink new`, `/tetrislink rules` and the placing controls."""

    private_label = N_("My pieces")
    hint_reasons = HINT_REASONS

    @new_command(
        locale_str("Open a Tetris Link lobby (2–4 players)"),
        dice=locale_str("Roll the shape die each turn, as the rulebook says (off: house variant, any shape)"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        dice: bool = True,
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(interaction, {"dice": dice}, clock, computers, level)

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        if options.get("dice", True):
            return gettext(lang, "rulebook game: the shape die every turn (the logo lets you choose)")
        return gettext(lang, "house variant without dice: free choice of shape every turn")

    # -------------------------------------------------------------- the board

    def board_image(self, view: TetrisLinkView, ui: Mapping[str, Any], lang: str) -> bytes:
        return render(view, ghost=ui.get("ghost"), lang=lang)

    def present(
        self,
        view: TetrisLinkView,
        legal: list[TetrisLinkMove],
        path: tuple[int, ...],
        *,
        private: bool,
        lang: str,
    ) -> Form[TetrisLinkMove]:
        """Shape buttons (with the logo, or without dice), then the ghost's steering row.

        The path is (shape index, placement) with a free shape, else (placement,)."""
        if private or not legal:
            return Form()
        choices: list[Choice[TetrisLinkMove]] = []
        die = view["die"]
        shape: str | None
        if die is not None and die in SHAPES:
            shape, rest = die, path
        else:
            shape = SHAPES[path[0]] if path and path[0] < len(SHAPES) else None
            choices.append(self._shapes(view, legal, shape, lang))
            if shape is None:
                return Form(tuple(choices))
            rest = path[1:]
        steering = Steering(legal, shape)
        at = (steering.parse(rest[0]) if rest else None) or steering.start()
        if at is None:  # a shape that fits nowhere: choose another
            return Form(tuple(choices), path=path[:1])
        targets = [
            ("◀", steering.shifted(at, -1)),
            ("▶", steering.shifted(at, +1)),
            ("⟳", steering.turned(at, flip=False)),
            ("⇋", steering.turned(at, flip=True)),
        ]
        steer: list[Option[TetrisLinkMove]] = [
            Option(label, pick=pick(to) if to else None, disabled=to is None) for label, to in targets
        ]
        drop_here = gettext(lang, "Drop in column {column}", column=at[1] + 1)
        steer.append(Option(drop_here, move=steering.move(at), style="success"))
        choices.append(Choice(gettext(lang, "Steer the piece"), tuple(steer), select=False))
        kept = path[: len(choices) - 1]
        return Form(tuple(choices), path=(*kept, pick(at)), preview={"ghost": steering.ghost(view, at)})

    def _shapes(
        self, view: TetrisLinkView, legal: list[TetrisLinkMove], chosen: str | None, lang: str
    ) -> Choice[TetrisLinkMove]:
        left = view["pieces_left"][view["to_move"][0]]
        fits = {move["shape"] for move in legal}
        return Choice(
            gettext(lang, "Shape"),
            tuple(
                Option(f"{shape} ×{left[shape]}", selected=shape == chosen, disabled=shape not in fits)
                for shape in SHAPES
            ),
        )

    def describe_move(self, view: TetrisLinkView, move: TetrisLinkMove, lang: str) -> str:
        """ "Drop an L in column 7, turned over and turned by 270°"."""
        figure, degrees = gettext(lang, FIGURES[move["shape"]]), 90 * move["rotation"]
        if move["flip"]:
            text = N_("Drop **{figure}** in column **{column}**, turned over and turned by {degrees}°")
        elif degrees:
            text = N_("Drop **{figure}** in column **{column}**, turned by {degrees}°")
        else:
            text = N_("Drop **{figure}** in column **{column}**, unturned")
        return gettext(lang, text, figure=figure, column=move["column"] + 1, degrees=degrees)

    def headline(self, match: Match, view: TetrisLinkView, lang: str) -> list[str]:
        lines = narrate(view, self.named(match, view, lang), lang)
        die = view["die"]
        if die is not None and view["to_move"]:
            face = face_name(die, lang)
            if die in SHAPES:
                lines.append(gettext(lang, "🎲 The die shows **{face}**.", face=face))
            else:
                lines.append(gettext(lang, "🎲 The die shows **{face}** (free choice).", face=face))
        return lines

    def result_lines(self, match: Match, outcome: Any, lang: str) -> list[str]:
        if not outcome.tiebreak:
            return []
        sizes = outcome.details["largest_group"]
        tied = ", ".join(
            ngettext(lang, "{seat}: {n} piece", "{seat}: {n} pieces", sizes[s], seat=seat_name(s))
            for s in range(len(match.players))
        )
        return [gettext(lang, "Tied on points — the largest group decided ({sizes}).", sizes=tied)]

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        view = self.view(match, seat)
        left = view["pieces_left"][seat]
        pieces = ", ".join(f"{FACE_NAMES[s]} ×{n}" for s, n in left.items())
        text = ngettext(
            lang,
            "**Tetris Link #{id}** — you are {seat}, {n} point.\nPieces left: {pieces}.",
            "**Tetris Link #{id}** — you are {seat}, {n} points.\nPieces left: {pieces}.",
            view["scores"][seat],
            id=match.id,
            seat=seat_name(seat),
            pieces=pieces,
        )
        return PrivateReply(content=text)


# What a match of this game may earn (read from its move log by games/feats/tetris_link.py).
ACHIEVEMENTS = (
    feat(
        "tetris_link",
        feats_of.GROUP_12,
        N_("Tower of strength"),
        N_("Link a group of 12 pieces or more in Tetris Link."),
        "🧱",
    ),
    feat(
        "tetris_link",
        feats_of.BIG_LINK,
        N_("Master link"),
        N_("Gain 5 points or more with one piece in Tetris Link."),
        "🔗",
    ),
    feat(
        "tetris_link",
        feats_of.CLEAN_TOWER,
        N_("No gaps"),
        N_("Finish a Tetris Link match with 15 pieces or more placed and no gap penalty."),
        "📐",
    ),
)


SPEC = GameSpec(
    achievements=ACHIEVEMENTS,
    engine=ENGINE,
    render=render,
    board=board_image,
    narrate=narrate,
    presentation=TetrisLink,
    rules=rules_from_files("tetris_link"),
    choose=choose,
    prepare=prepare,
    explain=reasons.explain,
    feats=feats,
    secrets=False,
)
