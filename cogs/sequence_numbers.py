"""Sequence Numbers in Discord: the hand in private; choose a card, then where it goes.

Cards are played from the private hand reply: the card menu, then the card's cells (answer
buttons; a cell menu, or row then column menus past 25 cells) and the dead-card trades.
The choice of which five lock, when a chip made more than five in a row, is public: its
"Lock A3–E3" buttons are on the board (which draws the runs) and in the mover's hand reply.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from ai.reasons import sequence_numbers as reasons
from ai.sequence_numbers import choose
from cogs.game import GameCog, Level, new_command, rules_from_files
from cogs.hints import Reasons
from games import Outcome
from games.feats import sequence_numbers as feats_of
from games.feats.sequence_numbers import feats
from games.sequence_numbers import (
    ENGINE,
    SIZE,
    LockMove,
    PlayMove,
    SequenceCard,
    SequenceMove,
    SequenceView,
    TradeMove,
    cell_name,
)
from locales import N_, gettext, ngettext
from matches.achievements import feat
from matches.match import SEAT_MARKS, Match, PrivateReply, seat_name
from matches.presentation import SELECT_LIMIT, Choice, Form, Option
from matches.spec import GameSpec
from render.sequence_numbers import board_image, narrate, prepare, render, render_hand, solo
from render.sequence_numbers.colours import team_colour

CARD_MENU = N_("Choose a card to play")
TO_DO = {
    "problem": N_("put your chip on a cell showing its answer"),
    "plus": N_("put your chip on any empty cell"),
    "minus": N_("remove an opponent chip that is not part of a sequence"),
}
LOCK_PROMPT = N_(
    "Your chip made more than five in a row: choose which five chips to lock — "
    "the board shows the runs. Your new card comes after the lock."
)
CARD_KINDS = {"plus": N_("plus card"), "minus": N_("minus card")}
PLAY_WILD = {  # a hint's words for playing a card that names no number
    "plus": N_("Play the **plus card** on **{cell}**"),
    "minus": N_("Play the **minus card** on **{cell}**"),
}


def card_name(card: SequenceCard, lang: str) -> str:
    """A card as players read it: its problem, or "plus card" / "minus card"."""
    kind = card["kind"]
    return card["text"] if kind == "problem" else gettext(lang, CARD_KINDS[kind])


def cell_of(move: PlayMove) -> str:
    return cell_name(move["row"] * SIZE + move["col"])


def card_hint(card: SequenceCard, moves: list[PlayMove], lang: str) -> str:
    """What a card of the hand can do now, under its name in the card menu."""
    if card["kind"] == "problem":
        if not moves:
            return gettext(lang, "dead: both of its cells are taken")
        return gettext(lang, "goes on {cells}", cells=gettext(lang, " or ").join(map(cell_of, moves)))
    if card["kind"] == "plus":
        return gettext(lang, "a chip on any empty cell") if moves else gettext(lang, "no empty cell left")
    if not moves:
        return gettext(lang, "no opponent chip to remove")
    return ngettext(lang, "remove one of {n} opponent chip", "remove one of {n} opponent chips", len(moves))


def unplayable(view: SequenceView, index: int, lang: str) -> str:
    """Why the chosen card cannot be played now."""
    card = view["hand"][index]
    if card["kind"] == "minus":
        return gettext(
            lang, "There is no opponent chip you may remove (chips in a sequence stay) — play another card."
        )
    if card["kind"] == "plus":
        return gettext(lang, "There is no empty cell left for a plus card — play another card.")
    if view["traded"]:
        return gettext(
            lang,
            "Card {card} ({problem}) is dead: both of its cells are taken, and you have traded a dead "
            "card this turn already — play another card.",
            card=index + 1,
            problem=card["text"],
        )
    return gettext(
        lang,
        "Card {card} ({problem}) is dead: both of its cells are taken — trade it with its **Trade** "
        "button, then play.",
        card=index + 1,
        problem=card["text"],
    )


def own_move(view: SequenceView, seat: int, lang: str) -> list[str]:
    """What the seat's own move just did, in the board's words, when the last event is theirs
    ("You" in English; other languages name the seat, as their sentences are third-person)."""
    event = view["last_event"]
    if event is None or event["type"] == "start" or event.get("seat") != seat:
        return []
    said = narrate(view, lambda other: "You" if other == seat and lang == "en" else seat_name(other), lang)
    return said[:1]


def cell_menu(view: SequenceView, placeholder: str, moves: list[PlayMove], lang: str) -> Choice[SequenceMove]:
    """A menu of cells, each saying what it shows, or whose chip is on it (a seat, or a team)."""
    options = []
    for move in moves:
        square = view["board"][move["row"]][move["col"]]
        team, hint = square["chip"], gettext(lang, "shows {number}", number=square["number"])
        if team is not None:
            if solo(view):
                owner = seat_name(view["teams"][team][0])
            else:
                owner = gettext(lang, "{mark} team {team}", mark=SEAT_MARKS[team], team=team + 1)
            hint = gettext(lang, "{owner} chip on {number}", owner=owner, number=square["number"])
        options.append(Option(cell_of(move), move=move, description=hint))
    return Choice(placeholder, tuple(options), select=True)


def places(
    view: SequenceView, card: int, moves: list[PlayMove], rest: tuple[int, ...], lang: str
) -> tuple[list[Choice[SequenceMove]], str]:
    """Where the chosen card can go — cell buttons, one cell menu, or a row menu (its pick:
    `rest[0]`) then that row's column menu — and the caption saying so (or why nowhere)."""
    chosen = view["hand"][card]
    if not moves:
        return [], unplayable(view, card, lang)
    to_do = TO_DO[chosen["kind"]]
    caption = gettext(
        lang,
        "Card {card}, **{name}**: {what}.",
        card=card + 1,
        name=card_name(chosen, lang),
        what=gettext(lang, to_do),
    )
    if chosen["kind"] == "problem":
        cells = tuple(Option(cell_of(move), move=move, style="success") for move in moves)
        return [Choice(gettext(lang, "Choose the cell"), cells)], caption
    if len(moves) <= SELECT_LIMIT:
        return [cell_menu(view, gettext(lang, "Choose the cell"), moves, lang)], caption
    rows = Counter(move["row"] for move in moves)
    row = rest[0] if rest and rest[0] in rows else None
    options: Iterator[Option[SequenceMove]] = (
        Option(
            gettext(lang, "Row {row}", row=r + 1),
            pick=r,
            description=ngettext(lang, "{n} cell", "{n} cells", n),
            selected=r == row,
        )
        for r, n in sorted(rows.items())
    )
    levels = [Choice(gettext(lang, "Choose the row"), tuple(options), select=True)]
    if row is None:
        return levels, gettext(lang, "{caption} Choose the row, then the column.", caption=caption)
    column = cell_menu(view, gettext(lang, "Choose the column"), [m for m in moves if m["row"] == row], lang)
    levels.append(column)
    return levels, gettext(lang, "{caption} Row {row}: choose the column.", caption=caption, row=row + 1)


def plays_by_card(legal: list[SequenceMove]) -> dict[int, list[PlayMove]]:
    """The play moves by the hand index of their card, in their order."""
    plays: dict[int, list[PlayMove]] = {}
    for move in legal:
        if move["type"] == "play":
            plays.setdefault(move["card"], []).append(move)
    return plays


def hand_form(
    view: SequenceView, legal: list[SequenceMove], path: tuple[int, ...], lang: str
) -> Form[SequenceMove]:
    """The card menu, the chosen card's cells and the trade buttons. Path: (card, row)."""
    hand = view["hand"]
    plays = plays_by_card(legal)
    card = path[0] if path and 0 <= path[0] < len(hand) else None
    cards: tuple[Option[SequenceMove], ...] = tuple(
        Option(
            f"{i + 1} · {card_name(c, lang)}",
            description=card_hint(c, plays.get(i, []), lang),
            selected=i == card,
        )
        for i, c in enumerate(hand)
    )
    if card is not None:
        levels, caption = places(view, card, plays.get(card, []), path[1:], lang)
    else:
        levels, caption = [], None
    choices = [Choice(gettext(lang, CARD_MENU), cards, select=True), *levels]
    shown = path[: 1 + (len(levels) == 2)] if card is not None else ()  # the card, and a row picked
    trades = tuple(trade_option(m, hand, lang) for m in legal if m["type"] == "trade")
    if trades:
        choices.append(Choice(gettext(lang, "Trade a dead card"), trades))
    return Form(tuple(choices), path=shown, caption=caption)


def trade_option(move: TradeMove, hand: list[SequenceCard], lang: str) -> Option[SequenceMove]:
    """The button trading a dead card of the hand."""
    label = gettext(
        lang,
        "Trade dead card {card} ({name})",
        card=move["card"] + 1,
        name=card_name(hand[move["card"]], lang),
    )
    return Option(label, move=move, style="danger")


def lock_option(move: LockMove, lang: str) -> Option[SequenceMove]:
    """The button locking the run from `from` to `to`."""
    label = gettext(lang, "Lock {first}–{last}", first=move["from"], last=move["to"])
    return Option(label, move=move, style="success")


# What a hint says of why its move is good (ai/reasons/sequence_numbers.py).
HINT_REASONS = Reasons(
    counted={
        "line": lambda lang, n, values: ngettext(
            lang, "makes a line of {n} of your chips", "makes a line of {n} of your chips", n, **values
        ),
        "block": lambda lang, n, values: ngettext(
            lang, "blocks a line of {n} of another team", "blocks a line of {n} of another team", n, **values
        ),
        "remove": lambda lang, n, values: ngettext(
            lang,
            "takes away a chip of another team that stands alone",
            "takes a chip out of a line of {n}",
            n,
            **values,
        ),
    },
    plain={
        "sequence": N_("completes a sequence"),
        "lock": N_("locks the sequence that serves you best"),
        "room": N_("takes a cell where a line of yours can still grow"),
        "trade": N_("this card is dead: both its cells are taken"),
    },
)


class SequenceNumbers(
    GameCog[SequenceView, SequenceMove],
    group_name="sequence",
    group_description=locale_str("Play Sequence Numbers"),
):
    """`/sequence new`, `/sequence rules`, the board and the hand."""

    private_label = N_("My hand")
    hint_reasons = HINT_REASONS

    @new_command(
        locale_str("Open a Sequence Numbers lobby (2, 3, 4 or 6 players)"),
        teams=locale_str("Only with 6 players: 2 teams of three, or 3 teams of two (default 2)"),
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

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        if options.get("teams", 2) == 3:
            six = gettext(lang, "three teams of two")
        else:
            six = gettext(lang, "two teams of three")
        return gettext(
            lang,
            "2 or 3 players play alone, 4 play two against two, 6 play in {teams} "
            "(5 cannot form equal teams)",
            teams=six,
        )

    def board_image(self, view: SequenceView, ui: Mapping[str, Any], lang: str) -> bytes:
        return render(view, lang=lang)

    def present(
        self,
        view: SequenceView,
        legal: list[SequenceMove],
        path: tuple[int, ...],
        *,
        private: bool,
        lang: str,
    ) -> Form[SequenceMove]:
        """The lock choice (public: on the board and in the hand reply), else the hand (private only)."""
        locks = tuple(lock_option(m, lang) for m in legal if m["type"] == "lock")
        if locks:
            choice = Choice(gettext(lang, "Choose which five chips to lock"), locks)
            return Form((choice,), caption=gettext(lang, LOCK_PROMPT))
        return hand_form(view, legal, path, lang) if private and legal else Form()

    def describe_move(self, view: SequenceView, move: SequenceMove, lang: str) -> str:
        """ "Play 3 + 45 on C4", "Play the plus card on A8", "Trade 42 − 40", "Lock A3–E3"."""
        if move["type"] == "lock":
            return gettext(lang, "Lock **{first}–{last}**", first=move["from"], last=move["to"])
        card = view["hand"][move["card"]]
        if move["type"] == "trade":
            return gettext(lang, "Trade **{card}** for a new card", card=card_name(card, lang))
        if card["kind"] in PLAY_WILD:
            return gettext(lang, PLAY_WILD[card["kind"]], cell=cell_of(move))
        return gettext(lang, "Play **{card}** on **{cell}**", card=card["text"], cell=cell_of(move))

    def seat_colour(self, view: SequenceView, seat: int) -> tuple[int, int, int]:
        """The colour of the seat's team, as its chips show it."""
        return team_colour(next(team for team, seats in enumerate(view["teams"]) if seat in seats))

    def score_text(self, view: SequenceView, seat: int, lang: str) -> str:
        return gettext(
            lang, "sequences {count}/{needed}", count=view["scores"][seat], needed=view["sequences_to_win"]
        )

    def headline(self, match: Match, view: SequenceView, lang: str) -> list[str]:
        return narrate(view, self.named(match, view, lang), lang)

    def result_lines(self, match: Match, outcome: Outcome, lang: str) -> list[str]:
        if outcome.details.get("reason") == "stuck":
            return [gettext(lang, "Nobody could play a card for a whole round, so the game is a draw.")]
        return []

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        """The seat's last move (when the last event is theirs), its hand and what to do."""
        view = self.view(match, seat)
        dead = set(view["dead_cards"])
        named = [f"{index + 1} · {card_name(card, lang)}" for index, card in enumerate(view["hand"])]
        cards = ", ".join(
            gettext(lang, "{card} (dead)", card=name) if index in dead else name
            for index, name in enumerate(named)
        )
        lines = own_move(view, seat, lang)
        lines.append(
            gettext(
                lang,
                "**{game} #{id}** — your hand ({seat}): {cards}.",
                game=match.engine.title,
                id=match.id,
                seat=self.seat_label(view, seat, lang),
                cards=cards,
            )
        )
        if view["winners"] is not None:
            lines.append(gettext(lang, "The game is over."))
        elif seat not in view["to_move"]:
            lines.append(gettext(lang, "You play from here when it is your turn."))
        return PrivateReply("\n".join(lines), render_hand(view, lang))


def engine_options(options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
    """The team count is a choice only with six players; other counts have one seating."""
    return {"teams": options.get("teams", 2)} if players == 6 else {}


# What a match of this game may earn (read from its move log by games/feats/sequence_numbers.py).
ACHIEVEMENTS = (
    feat(
        "sequence_numbers",
        feats_of.DOUBLE,
        N_("Double sequence"),
        N_("Make two sequences with one move in Sequence Numbers."),
        "✌️",
    ),
    feat(
        "sequence_numbers",
        feats_of.MINUS_WIN,
        N_("Saved by the minus"),
        N_("In Sequence Numbers, break a line one chip short of a sequence with a minus card, then win."),
        "➖",
    ),
    feat(
        "sequence_numbers",
        feats_of.PLUS_WIN,
        N_("Plus for the win"),
        N_("Lay the winning chip of a Sequence Numbers match with a plus card."),
        "➕",
    ),
    feat(
        "sequence_numbers",
        feats_of.SHUTOUT,
        N_("Clean sheet"),
        N_("Win a two-sequence team match of Sequence Numbers before any other team has a sequence."),
        "🧤",
    ),
)


SPEC = GameSpec(
    achievements=ACHIEVEMENTS,
    engine=ENGINE,
    render=render,
    board=board_image,
    narrate=narrate,
    presentation=SequenceNumbers,
    rules=rules_from_files("sequence_numbers"),
    choose=choose,
    options=engine_options,
    prepare=prepare,
    explain=reasons.explain,
    feats=feats,
)
