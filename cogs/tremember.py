"""Tremember in Discord: take a card and peek, push it back in, turn two cards.

Memory stays honest: the channel only ever shows the spectator view on the board
message, which is edited in place, so a miss is visible until the next move and no
lasting message names a face-down card. The taken card is shown to its taker alone,
in their private replies — and only while it is in their hand: the framework redraws
a seat's private replies on screen after each of its moves (from the board, from a
private reply or by the clock), and once the card is pushed back in `private_view` no
longer shows it, so the player has to remember it, as at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from ai.reasons import tremember as reasons
from ai.tremember import choose
from cogs.game import GameCog, Level, new_command, rules_from_files
from cogs.hints import Reasons
from games.feats import tremember as feats_of
from games.feats.tremember import feats
from games.tremember import ENGINE, SIDES, FlipMove, Side, TakeMove, TrememberMove, TrememberView
from locales import N_, gettext, ngettext
from matches.achievements import feat
from matches.match import Match, PrivateReply
from matches.presentation import Choice, Form, Option
from matches.spec import GameSpec
from render.tremember import board_image, cell_name, motif_name, narrate, prepare, render, render_card
from render.tremember.explain import push_picture

ROW_GROUPS = ((0, 3), (3, 6))  # a menu of at most 18 cells per group of rows
ARROWS = {"left": "➡", "right": "⬅", "top": "⬇", "bottom": "⬆"}  # the end a card comes in from
ICONS = {"start": "🃏", "take": "✋", "push": "↔️", "flip": "👀", "miss": "❌", "pair": "🎉", "resign": "🏳️"}
NOTHING_SECRET = N_(
    "Nothing secret to show right now: when you take a card, its face is shown to you "
    "alone, here, until you push it back in."
)
PUSHED_BACK = N_(
    "Your card is back in the board, face down at **{cell}**: its face is no longer shown, so remember it!"
)
PUSH_HINT = N_("Push it back in with a button below or on the board.")
PUSHES = {  # the end a card comes in from: the line it moves, and which way
    "left": N_("{arrow} Push row {row} right"),
    "right": N_("{arrow} Push row {row} left"),
    "top": N_("{arrow} Push column {column} down"),
    "bottom": N_("{arrow} Push column {column} up"),
}


def push_label(side: Side, hole: list[int], lang: str) -> str:
    """`⬇ Push column B down` (the words of `line_moved`)."""
    return gettext(lang, PUSHES[side], arrow=ARROWS[side], row=hole[0] + 1, column="ABCDEF"[hole[1]])


@lru_cache(maxsize=64)
def peek_image(motif: str, lang: str) -> bytes:
    """The large private card in `lang`; there are only 18 motifs, so each is drawn once a language."""
    return render_card(motif, lang)


def push_choice(hole: list[int], legal: list[TrememberMove], lang: str) -> Choice[TrememberMove]:
    """A button per end of the hole's lines; the end at the hole is shown but disabled."""
    by_side = {move["from"]: move for move in legal if move["type"] == "push"}
    return Choice(
        gettext(lang, "Push the card back in"),
        tuple(
            Option(
                push_label(side, hole, lang),
                move=by_side.get(side),
                style="primary" if side in by_side else "secondary",
                disabled=side not in by_side,
            )
            for side in SIDES
        ),
        select=False,
    )


def cell_choices(
    view: TrememberView, legal: list[TrememberMove], lang: str
) -> tuple[Choice[TrememberMove], ...]:
    """The face-down cells to take or turn, in a menu per group of rows; empty groups are left out."""
    verb = N_("Take a card in rows {first}–{last}")
    if legal[0]["type"] != "take":
        verb = N_("Turn a card in rows {first}–{last}")
    if view["first_flip"]:
        verb = N_("Turn the second card in rows {first}–{last}")
    cell_moves: list[TakeMove | FlipMove] = [move for move in legal if move["type"] != "push"]
    choices: list[Choice[TrememberMove]] = []
    for top, bottom in ROW_GROUPS:
        cells: tuple[Option[TrememberMove], ...] = tuple(
            Option(cell_name(move["cell"]), move=move)
            for move in cell_moves
            if top <= move["cell"][0] < bottom
        )
        if cells:
            choices.append(Choice(gettext(lang, verb, first=top + 1, last=bottom), cells, select=True))
    return tuple(choices)


# What a hint says of why its move is good (ai/reasons/tremember.py).
# `n` is the move on which the seat saw the card.
HINT_REASONS = Reasons(
    counted={
        "pair_seen": lambda lang, n, values: ngettext(
            lang, "you saw its pair on move {n}", "you saw its pair on move {n}", n, **values
        ),
        "card_seen": lambda lang, n, values: ngettext(
            lang, "you saw this card on move {n}", "you saw this card on move {n}", n, **values
        ),
    },
    plain={
        "unseen": N_("you have not seen this card yet: it tells you something new"),
        "push": N_("moves as few of the cards you remember as it can"),
        "take_unseen": N_("a card you have not seen: you get to look at it"),
    },
)


class Tremember(
    GameCog[TrememberView, TrememberMove],
    group_name="tremember",
    group_description=locale_str("Play Tremember"),
):
    """`/tremember new`, `/tremember rules` and the take, push and flip choices."""

    private_label = N_("Show my card")
    hint_reasons = HINT_REASONS

    @new_command(locale_str("Open a Tremember lobby (2–6 players)"))
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(interaction, {}, clock, computers, level)

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        return gettext(lang, "36 cards in 18 pairs (2 joker pairs) on a 6×6 board")

    # -------------------------------------------------------------- the board

    def board_image(self, view: TrememberView, ui: Mapping[str, Any], lang: str) -> bytes:
        return render(view, lang=lang)

    def present(
        self,
        view: TrememberView,
        legal: list[TrememberMove],
        path: tuple[int, ...],
        *,
        private: bool,
        lang: str,
    ) -> Form[TrememberMove]:
        """Take and turn: cell menus on the board. Push: the arrow buttons, on the board and
        beside the taker's peeked card in their private reply. Nothing needs a path."""
        if not legal:
            return Form()
        if view["hole"] is not None and legal[0]["type"] == "push":
            return Form((push_choice(view["hole"], legal, lang),), caption=gettext(lang, PUSH_HINT))
        return Form() if private else Form(cell_choices(view, legal, lang))

    def describe_move(self, view: TrememberView, move: TrememberMove, lang: str) -> str:
        """ "Take the card at B3", "Turn the card at E6", "⬇ Push column B down"."""
        if move["type"] == "push":
            assert view["hole"] is not None
            return f"**{push_label(move['from'], view['hole'], lang)}**"
        text = (
            N_("Take the card at **{cell}**") if move["type"] == "take" else N_("Turn the card at **{cell}**")
        )
        return gettext(lang, text, cell=cell_name(move["cell"]))

    def score_text(self, view: TrememberView, seat: int, lang: str) -> str:
        pairs = sum(row.count(seat) for row in view["found"]) // 2
        points = ngettext(lang, "{n} point", "{n} points", view["scores"][seat])
        return ngettext(lang, "{points} · {n} pair", "{points} · {n} pairs", pairs, points=points)

    def headline(self, match: Match, view: TrememberView, lang: str) -> list[str]:
        """What just happened, in the board image's words (`narrate`), and what to do now."""
        lines = narrate(view, self.named(match, view, lang), lang)
        event = view["last_event"]
        if lines and event is not None:
            lines[0] = f"{ICONS.get(event['type'], '•')} {lines[0]}"
        if view["winners"] is None:
            lines.append(gettext(lang, self._instruction(view)))
        return lines

    def _instruction(self, view: TrememberView) -> str:
        if view["phase"] == "take":
            return N_("Next: **take** a face-down card with a menu below — only the taker sees its face.")
        if view["phase"] == "push":
            return N_("Next: **push** the card back in with a button below; the line slides toward the hole.")
        if view["first_flip"]:
            return N_("Next: turn a **second** face-down card.")
        return N_("Next: turn **two** face-down cards, one after the other.")

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        """The taken card while it is in the seat's hand; after its push, where it went."""
        view = self.view(match, seat)
        motif, event = view["peek"], view["last_event"]
        if motif is not None and view["hole"] is not None:
            text = gettext(
                lang,
                "Your card from **{cell}**: **{motif}**. Only you can see it, and only until it is back "
                "in the board: remember it!",
                cell=cell_name(view["hole"]),
                motif=motif_name(motif, lang),
            )
            return PrivateReply(content=text, image=peek_image(motif, lang))
        nothing = gettext(lang, NOTHING_SECRET)
        if event is not None and event["type"] == "push" and event["seat"] == seat:
            pushed = gettext(lang, PUSHED_BACK, cell=cell_name(event["lands"]))
            return PrivateReply(content=f"{pushed}\n{nothing}")
        return PrivateReply(content=nothing)


# What a match of this game may earn (read from its move log by games/feats/tremember.py).
ACHIEVEMENTS = (
    feat(
        "tremember",
        feats_of.THREE_IN_A_ROW,
        N_("Total recall"),
        N_("Find three pairs in a row, without a miss between, in Tremember."),
        "🧠",
    ),
    feat(
        "tremember",
        feats_of.JOKER_PAIR,
        N_("Joker's wild"),
        N_("Find a joker pair in Tremember and turn the board."),
        "🃏",
    ),
    feat(
        "tremember",
        feats_of.BOTH_JOKERS,
        N_("Double joker"),
        N_("Find both joker pairs in one Tremember match."),
        "🎭",
    ),
    feat(
        "tremember",
        feats_of.NINE_PAIRS,
        N_("Half the board"),
        N_("Find 9 pairs or more in one Tremember match."),
        "🗂️",
    ),
)


SPEC = GameSpec(
    achievements=ACHIEVEMENTS,
    engine=ENGINE,
    render=render,
    board=board_image,
    narrate=narrate,
    presentation=Tremember,
    rules=rules_from_files("tremember"),
    choose=choose,
    prepare=prepare,
    rules_picture=push_picture,
    explain=reasons.explain,
    feats=feats,
)
