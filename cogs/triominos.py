"""My First Triominos in Discord: a public table, and a private hand to play from.

The board message shows only the public table. Everything about a hand (its cards,
where each fits, the joker swap) lives in the player's ephemeral "My hand" reply:
choose a card, then where it goes and how it is turned; or buy, pass, take the joker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from ai.reasons import triominos as reasons
from ai.triominos import choose
from cogs.game import GameCog, Level, new_command, rules_from_files
from cogs.hints import Reasons
from games.base import Outcome
from games.feats import triominos as feats_of
from games.feats.triominos import feats
from games.triominos import ENGINE, HandCard, PlaceMove, TakeJokerMove, TriominosMove, TriominosView
from locales import N_, and_list, gettext, ngettext
from matches.achievements import feat
from matches.match import Match, PrivateReply, who
from matches.presentation import CONTROL_ROWS, SELECT_LIMIT, Choice, Form, Option, form_rows, grouped
from matches.spec import GameSpec
from render.triominos import board_image, narrate, prepare, render, render_hand, tokens
from render.triominos.explain import bridge_picture

CORNERS_UP = (N_("top {number}"), N_("lower right {number}"), N_("lower left {number}"))
CORNERS_DOWN = (N_("upper left {number}"), N_("upper right {number}"), N_("bottom {number}"))
EVENT_MARKS = {"start": "🎲", "place": "🔺", "take_joker": "🃏", "buy": "🪙", "pass": "⏭️", "resign": "🏳️"}
OWN_MOVES = ("place", "take_joker", "buy", "pass")  # told back to the seat that made them
NO_CARD = 99  # the first pick while no card is chosen
PLACING, SWAPPING = 0, 1  # the second pick: place the chosen card, or take back the joker
ACTIONS: dict[str, Option[TriominosMove]] = {
    "buy": Option(N_("Buy a card (1 token)"), style="primary"),
    "pass": Option(N_("Pass")),
}


def card_text(card: HandCard, lang: str) -> str:
    """A hand card in words: its three numbers, or "joker"."""
    return gettext(lang, "joker") if card.get("joker") else " · ".join(str(v) for v in card["values"])


def turned(view: TriominosView, move: PlaceMove | TakeJokerMove, lang: str) -> str:
    """Which number of the move's card lands in which corner, e.g. "top 3, lower right 1, ..."."""
    card = view["hand"][move["card"]]
    if card.get("joker"):
        return gettext(lang, "the joker takes the numbers around it")
    if move["type"] == "take_joker":
        points = next(cell["points"] for cell in view["table"] if cell["joker"])
    else:
        points = next(place["points"] for place in view["places"] if place["label"] == move["place"])
    up = points[0][1] != points[1][1]  # an up cell's apex is higher than its other corners
    return ", ".join(
        gettext(lang, corner, number=card["values"][(move["rotation"] + k) % 3])
        for k, corner in enumerate(CORNERS_UP if up else CORNERS_DOWN)
    )


def action(move: TriominosMove, lang: str) -> Option[TriominosMove]:
    """The button of a buy or a pass, in `lang`."""
    option = ACTIONS[move["type"]]
    return replace(option, label=gettext(lang, option.label), move=move)


def hand_form(
    view: TriominosView, legal: list[TriominosMove], path: tuple[int, ...], lang: str
) -> Form[TriominosMove]:
    """The choices of the seat to move. Path: (card, mode, place). The fitting cards, then
    buy, pass and "Take back the joker" (mode SWAPPING); below them where the chosen card
    goes (see `spots`), or the cards that fit the joker's place."""
    hand = view["hand"]
    placing = grouped([m for m in legal if m["type"] == "place"], "card")
    swaps = [m for m in legal if m["type"] == "take_joker"]
    mode = SWAPPING if path[1:2] == (SWAPPING,) and swaps else PLACING
    card = path[0] if path and mode == PLACING and path[0] in placing else None
    labels = [
        gettext(lang, "Card {card}: {numbers}", card=i + 1, numbers=card_text(held, lang))
        for i, held in enumerate(hand)
    ]
    cards: tuple[Option[TriominosMove], ...] = tuple(
        Option(labels[i], pick=i, description=fits_text(ways, lang), selected=i == card)
        for i, ways in placing.items()
    )
    others = [action(m, lang) for m in legal if m["type"] in ACTIONS]
    if swaps:
        back = gettext(lang, "Take back the joker")
        others.append(Option(back, pick=SWAPPING, style="success", selected=mode == SWAPPING))
    details: Sequence[Choice[TriominosMove]] = ()
    place: tuple[int, ...] = ()
    if mode == SWAPPING:
        joker = tuple(Option(labels[m["card"]], move=m, description=turned(view, m, lang)) for m in swaps)
        details = (Choice(gettext(lang, "Choose the card for the joker's place"), joker, select=True),)
    elif card is not None:
        details, place = spots(view, placing[card], path[2:3], lang)
    pick_card = Choice(gettext(lang, "Choose a card to place"), cards, select=True)
    alternatives = gettext(lang, "Or")
    form = Form(
        (pick_card, Choice(alternatives, tuple(others)), *details),
        path=(NO_CARD if card is None else card, mode, *place),
    )
    if form_rows(form) > CONTROL_ROWS:  # never seen in play: a huge hand and table
        chosen = tuple(option for option in cards if option.selected) or cards
        form = replace(form, choices=(replace(pick_card, options=chosen), Choice(alternatives, ()), *details))
    return form


def fits_text(ways: list[PlaceMove], lang: str) -> str:
    labels = list(dict.fromkeys(move["place"] for move in ways))
    return ngettext(
        lang, "fits place {places}", "fits places {places}", len(labels), places=", ".join(labels)
    )


def spots(
    view: TriominosView, ways: list[PlaceMove], picked: tuple[int, ...], lang: str
) -> tuple[Sequence[Choice[PlaceMove]], tuple[int, ...]]:
    """Where one card goes: place and turn in one select or, past 25 ways, the place (one it
    fits one way places it at once), then how it is turned; and the place picked."""
    if len(ways) <= SELECT_LIMIT:
        options = tuple(
            Option(
                gettext(lang, "Place {place}: {turned}", place=m["place"], turned=turned(view, m, lang)),
                move=m,
            )
            for m in ways
        )
        return [Choice(gettext(lang, "Choose where it goes"), options, select=True)], ()
    places = grouped(ways, "place")
    at = str(picked[0]) if picked and len(places.get(str(picked[0]), ())) > 1 else None
    where = tuple(
        Option(
            gettext(lang, "Place {place}", place=p),
            move=fits[0] if len(fits) == 1 else None,
            pick=int(p),
            selected=p == at,
        )
        for p, fits in places.items()
    )
    levels = [Choice(gettext(lang, "Choose a place"), where, select=True)]
    if at is None:
        return levels, ()
    turns = tuple(
        Option(gettext(lang, "Turned: {turned}", turned=turned(view, m, lang)), move=m) for m in places[at]
    )
    return [*levels, Choice(gettext(lang, "Choose how it is turned"), turns, select=True)], (int(at),)


def turn_prompt(view: TriominosView, lang: str) -> str:
    """What the seat to move may do."""
    fitting = sum(1 for fits in view["fits"] if fits)
    why = gettext(lang, "the pot is empty") if not view["pot_size"] else gettext(lang, "you have no tokens")
    lines = [gettext(lang, "**Your turn.** The numbered places are on the board.")]
    if fitting:
        lines.append(
            ngettext(
                lang,
                "{n} of your cards fits: choose it to place.",
                "{n} of your cards fit: choose one to place.",
                fitting,
            )
        )
    elif view["hand"]:
        lines.append(gettext(lang, "None of your cards fits a place yet."))
    if view["can_buy"]:
        lines.append(gettext(lang, "You may buy a card instead (1 token)."))
    elif view["can_pass"]:
        lines.append(gettext(lang, "You cannot buy ({why}), so you pass.", why=why))
    else:
        lines.append(
            gettext(
                lang, "You cannot buy ({why}), so you place a card: not placing costs a purchase.", why=why
            )
        )
    if view["swaps"]:
        lines.append(gettext(lang, "A card of yours fits the joker's place: you may take the joker back."))
    return " ".join(lines)


# What a hint says of why its move is good (ai/reasons/triominos.py).
HINT_REASONS = Reasons(
    counted={
        "tokens": lambda lang, n, values: ngettext(
            lang,
            "fits, matching the numbers: +{n} token",
            "fits, matching the numbers: +{n} tokens",
            n,
            **values,
        ),
        "bonus": lambda lang, n, values: ngettext(
            lang,
            "closes a hexagon or a bridge: +{n} token",
            "closes a hexagon or a bridge: +{n} tokens",
            n,
            **values,
        ),
        "last_card": lambda lang, n, values: ngettext(
            lang, "places your last card: +{n} token", "places your last card: +{n} tokens", n, **values
        ),
    },
    plain={
        "joker": N_("takes the joker back into your hand"),
        "buy": N_("none of your cards fits: buy one"),
        "pass": N_("you can neither place nor buy a card: pass"),
    },
)


class Triominos(
    GameCog[TriominosView, TriominosMove],
    group_name="triominos",
    group_description=locale_str("Play My First Triominos"),
):
    """`/triominos new`, `/triominos rules` and the hand's choices."""

    private_label = N_("My hand")
    hint_reasons = HINT_REASONS

    @new_command(
        locale_str("Open a My First Triominos lobby (2–4 players)"),
        open_hands=locale_str("Show every player's hand in the channel (good for a first game)"),
        joker=locale_str("Play with the joker (off: the joker stays in the box)"),
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

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        if options.get("open_hands"):
            hands = gettext(lang, "open hands (everyone sees every hand)")
        else:
            hands = gettext(lang, "secret hands")
        if options.get("joker", True):
            return gettext(lang, "{hands}, with the joker", hands=hands)
        return gettext(lang, "{hands}, without the joker", hands=hands)

    def present(
        self,
        view: TriominosView,
        legal: list[TriominosMove],
        path: tuple[int, ...],
        *,
        private: bool,
        lang: str,
    ) -> Form[TriominosMove]:
        """Nothing on the board (hands are secret): every move is chosen in "My hand"."""
        return hand_form(view, legal, path, lang) if private and legal else Form()

    def board_image(self, view: TriominosView, ui: Mapping[str, Any], lang: str) -> bytes:
        return render(view, lang=lang)

    def describe_move(self, view: TriominosView, move: TriominosMove, lang: str) -> str:
        """ "Card 2 (3 · 1 · 4) on place 5: top 3, lower right 1, lower left 4"; buying, passing."""
        if move["type"] == "buy" or move["type"] == "pass":
            return f"**{gettext(lang, ACTIONS[move['type']].label)}**"
        card = card_text(view["hand"][move["card"]], lang)
        if move["type"] == "take_joker":
            text = N_("Take back the joker with card {card} ({numbers}): {turned}")
            return gettext(lang, text, card=move["card"] + 1, numbers=card, turned=turned(view, move, lang))
        return gettext(
            lang,
            "Card **{card}** ({numbers}) on place **{place}**: {turned}",
            card=move["card"] + 1,
            numbers=card,
            place=move["place"],
            turned=turned(view, move, lang),
        )

    def headline(self, match: Match, view: TriominosView, lang: str) -> list[str]:
        """The last move in the renderer's words, marked with its kind; then the last round
        and, with open hands, every hand."""
        event = view["last_event"]
        assert event is not None  # every view of this game has one, from the start on
        kind = event["type"]
        said = " ".join(narrate(view, self.named(match, view, lang), lang))
        if kind == "start":
            said += " " + gettext(lang, "Press **My hand** to see your cards.")
        cheer = "🎉 " if kind == "place" and event["earned"] > 1 else ""
        lines = [f"{cheer}{EVENT_MARKS.get(kind, '')} {said}"]
        if view["last_round"] and view["to_move"]:
            lines.append(gettext(lang, "⏳ **Last round:** the pot is empty — everyone plays once more."))
        for seat, hand in enumerate(view.get("hands", [])):
            cards = ", ".join(card_text(card, lang) for card in hand) or gettext(lang, "empty")
            lines.append(
                gettext(lang, "{seat} hand: {cards}", seat=self.seat_label(view, seat, lang), cards=cards)
            )
        return lines

    def score_text(self, view: TriominosView, seat: int, lang: str) -> str:
        return ngettext(
            lang,
            "{tokens}, {n} card in hand",
            "{tokens}, {n} cards in hand",
            view["hand_sizes"][seat],
            tokens=tokens(view["scores"][seat], lang),
        )

    def result_lines(self, match: Match, outcome: Outcome, lang: str) -> list[str]:
        view = self.view(match)
        if view["players"] - len(view["resigned"]) < 2:
            reason = N_("The game ended because only one player is left. Tokens: {counts}.")
        elif view["last_round"]:
            reason = N_("The game ended because the last round is over. Tokens: {counts}.")
        else:
            reason = N_("The game ended because every player passed in a row. Tokens: {counts}.")
        counts = ", ".join(
            f"{self.seat_label(view, s, lang)} {tokens(n, lang)}" for s, n in enumerate(outcome.scores)
        )
        return [gettext(lang, reason, counts=counts)]

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        view = self.view(match, seat)
        have = tokens(view["scores"][seat], lang)
        lines = [
            gettext(
                lang,
                "**{game} #{id}** — you have {tokens}.",
                game=match.engine.title,
                id=match.id,
                tokens=have,
            )
        ]
        event = view["last_event"]
        if event is not None and event["seat"] == seat and event["type"] in OWN_MOVES:  # told back
            # "You" reads in English only: other languages name the seat (their verbs are third-person).
            said = narrate(view, (lambda _: "You") if lang == "en" else self.named(match, view, lang), lang)
            if event["type"] == "buy":  # the drawn card joins the end of the hand
                said.append(gettext(lang, "Your new card is card {card}.", card=len(view["hand"])))
            lines.append(" ".join(said))
        if seat in view["to_move"]:
            lines.append(turn_prompt(view, lang))
        elif view["to_move"]:
            turn = and_list(lang, [who(match.players[s], lang) for s in view["to_move"]])
            lines.append(
                gettext(
                    lang,
                    "It is {players}'s turn. When yours comes, press **My hand** on the board.",
                    players=turn,
                )
            )
        else:
            lines.append(gettext(lang, "The game is over — see the board."))
        return PrivateReply(content="\n".join(lines), image=render_hand(view, lang=lang))


# What a match of this game may earn (read from its move log by games/feats/triominos.py).
ACHIEVEMENTS = (
    feat(
        "triominos",
        feats_of.TWO_HEXAGONS,
        N_("Double hexagon"),
        N_("Complete two hexagons with one card in Triominos."),
        "⬡",
    ),
    feat(
        "triominos",
        feats_of.FOUR_TOKENS,
        N_("Top of the table"),
        N_("Play one card worth 4 tokens or more in Triominos."),
        "🪙",
    ),
    feat(
        "triominos",
        feats_of.JOKER_BACK,
        N_("Joker back"),
        N_("Take the joker back from the table in Triominos."),
        "🔄",
    ),
)


SPEC = GameSpec(
    achievements=ACHIEVEMENTS,
    engine=ENGINE,
    render=render,
    board=board_image,
    narrate=narrate,
    presentation=Triominos,
    rules=rules_from_files("triominos"),
    choose=choose,
    prepare=prepare,
    rules_picture=bridge_picture,
    explain=reasons.explain,
    feats=feats,
)
