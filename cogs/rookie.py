"""Rookie in Discord: flip cards from nine stacks, place pairs, rob neighbours, secure tops.

Nothing is secret, so every decision is offered on the board. The headline words events and
prompts as `render.rookie` does, naming seats with mentions, never a face-down card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from ai.reasons import rookie as reasons
from ai.rookie import choose
from cogs.game import GameCog, Level, new_command, rules_from_files
from cogs.hints import Reasons
from games.base import Outcome
from games.feats import rookie as feats_of
from games.feats.rookie import feats
from games.rookie import (
    ENGINE,
    ArrangeMove,
    PlaceMove,
    RookieMove,
    RookieStealChoice,
    RookieView,
    StealMove,
    secured_kind,
)
from locales import N_, gettext, ngettext
from matches.achievements import feat
from matches.match import Match, PrivateReply, seat_name, who
from matches.presentation import Choice, Form, Option
from matches.spec import GameSpec
from render.rookie import board_image, cards, narrate, prepare, prompt, render
from render.rookie.narration import colour

# What each kind of event is marked with in the headline.
ICONS = dict(start="🎲", flip="🃏", pair="🃏", miss="↩️", open="👀", turn_down="↩️", place="📥")
ICONS.update(secure="🔒", rookie="🎉", steal="🫳", arrange="🗂️", collect="🏁", resign="🏳️")
VARIANTS = {
    "standard": N_("standard rules"),
    "team": N_("teams of two, partners opposite (4 or 6 players)"),
    "kids": N_("kids: no X cards, every pair scores at once"),
}
DECKS = {"standard": N_("standard deck"), "pocket": N_("pocket deck (shorter)")}


def card_text(kind: str | None, lang: str) -> str:
    """A card as buttons and lines name it: its colour with its symbol ("red ●"), or X."""
    return colour(kind, lang) if kind else "—"


def gain(secures: bool, rookie: bool, lang: str) -> str:
    """What a placement or an arrangement wins, said after its label."""
    if rookie:
        return gettext(lang, " · Rookie!")
    return gettext(lang, " · secures") if secures else ""


def flip_grid(
    view: RookieView, legal: list[RookieMove], path: tuple[int, ...], lang: str
) -> Form[RookieMove]:
    """Nine buttons laid out like the table, a level per row; only face-down tops flip.
    With open cards at the start, level 3 turns them down or (pick 1) opens the grid to chase."""
    flips = {move["position"]: move for move in legal if move["type"] == "flip"}
    pending = view["pending"]
    starting = pending is not None and pending["kind"] == "start"
    chasing = starting and path[3:4] == (1,)
    grid = []
    for p, position in enumerate(view["positions"]):
        label = str(p + 1) if position["count"] else gettext(lang, "{position}: empty", position=p + 1)
        if position["top"]:
            label = f"{p + 1}: {card_text(position['top'], lang)}"
        live = p in flips and (chasing or not starting)
        style = "primary" if live else "secondary"
        flip = flips.get(p)
        grid.append(Option(label, move=None if flip is None else flip, style=style, disabled=not live))
    title = gettext(lang, "Flip a card")
    rows = tuple(Choice(title, tuple(grid[i : i + 3]), select=False) for i in range(0, 9, 3))
    if not starting:
        return Form(rows)
    turn_down = next(move for move in legal if move["type"] == "turn_down")
    chase: Option[RookieMove]
    if chasing:
        chase = Option(gettext(lang, "Chasing: flip one card above"), style="success", disabled=True)
    else:
        chase = Option(gettext(lang, "Chase"), pick=1, style="success", disabled=not flips)
    down = Option(gettext(lang, "Turn them down"), move=turn_down, style="primary")
    start = Choice(gettext(lang, "Open cards"), (down, chase), select=False)
    return Form((*rows, start), path=(0, 0, 0, int(chasing)))


def placements(view: RookieView, legal: list[PlaceMove], lang: str) -> Choice[RookieMove]:
    """One button per placement, three to a row: own stacks on rows 1–2, the partner's on 3–4."""
    pending = view["pending"]
    assert pending is not None and pending["kind"] == "place"
    effects = {(effect["seat"], tuple(effect["stacks"])): effect for effect in pending["choices"]}
    options = []
    for move in legal:
        owner, (first, second) = move["seat"], move["stacks"]
        top = view["seats"][owner]["stacks"][first]["top"]
        card = card_text(top, lang) if top else None
        if owner != view["turn"]:
            where = partner_place_text(seat_name(owner), first, second, card, lang)
        else:
            where = place_text(first, second, card, lang)
        effect = effects[owner, (first, second)]
        said = gain(effect["secures"], effect["rookie"], lang)
        options.append(Option(where + said, move=move, style="success" if said else "secondary"))
    return Choice(gettext(lang, "Place the pair"), tuple(options), select=False, columns=3)


def place_text(first: int, second: int, top: str | None, lang: str) -> str:
    """Where a pair goes: "Stacks 1+2", "Stack 2 (on red ●)", "Stack 3 (empty)"."""
    if first != second:
        return gettext(lang, "Stacks {first}+{second}", first=first + 1, second=second + 1)
    if top:
        return gettext(lang, "Stack {stack} (on {card})", stack=first + 1, card=top)
    return gettext(lang, "Stack {stack} (empty)", stack=first + 1)


def partner_place_text(partner: str, first: int, second: int, top: str | None, lang: str) -> str:
    """Where a pair goes on the partner's stacks: "Partner 🟧 B: stack 2 (on red ●)"."""
    if first != second:
        return gettext(
            lang, "Partner {seat}: stacks {first}+{second}", seat=partner, first=first + 1, second=second + 1
        )
    if top:
        return gettext(
            lang, "Partner {seat}: stack {stack} (on {card})", seat=partner, stack=first + 1, card=top
        )
    return gettext(lang, "Partner {seat}: stack {stack} (empty)", seat=partner, stack=first + 1)


STEAL_SIDES = {"before": N_("Before me: {seat} · {cards}"), "after": N_("After me: {seat} · {cards}")}


def steal(move: StealMove, side: RookieStealChoice, lang: str) -> Option[RookieMove]:
    whose = STEAL_SIDES[side["side"]]
    label = gettext(lang, whose, seat=seat_name(move["from"]), cards=cards(side["cards"], lang))
    return Option(label, move=move, style="primary")


def arrangement(
    view: RookieView, legal: list[ArrangeMove], path: tuple[int, ...], lang: str
) -> Form[RookieMove]:
    """The arrangement chosen so far (the engine's default first) and a select per stack.

    Every level's pick is the chosen arrangement's index in `legal`: a pick in a stack's
    select names the whole new arrangement, so the other stacks keep theirs."""
    pending = view["pending"]
    assert pending is not None and pending["kind"] == "arrange"
    at = path[-1] if path and 0 <= path[-1] < len(legal) else 0
    index = {tuple(move["tops"]): i for i, move in enumerate(legal)}
    chosen = tuple(legal[at]["tops"])
    current = [stack["top"] for stack in view["seats"][pending["seat"]]["stacks"]]
    buttons = [arranged(legal[at], current, "success", lang)]
    if at:
        buttons.append(arranged(legal[0], current, "secondary", lang))
    choices = [Choice(gettext(lang, "Arrange the cards taken"), tuple(buttons), select=False)]
    for stack in range(3):
        options: list[Option[RookieMove]] = []
        for top in (None, *pending["cards"]):
            tops = (*chosen[:stack], top, *chosen[stack + 1 :])
            if tops not in index:  # more of a kind than was taken, or nothing anywhere
                continue
            label, taken = top_option(stack, top, current[stack], pending["cards"], lang)
            options.append(Option(label, pick=index[tops], description=taken, selected=top == chosen[stack]))
        title = gettext(lang, "Top of stack {stack}", stack=stack + 1)
        choices.append(Choice(title, tuple(options), select=True))
    return Form(tuple(choices), path=(at,) * len(choices))


def top_option(
    stack: int, top: str | None, current: str | None, taken: Mapping[str, int], lang: str
) -> tuple[str, str | None]:
    """The label and description of one choice of a stack's new top (None: no card taken on it)."""
    if top is not None:
        label = gettext(lang, "Stack {stack}: {card} on top", stack=stack + 1, card=card_text(top, lang))
        return label, ngettext(lang, "{n} taken", "{n} taken", taken[top])
    if current:
        keeps = gettext(lang, "keeps {card}", card=card_text(current, lang))
    else:
        keeps = gettext(lang, "stays empty")
    return gettext(lang, "Stack {stack}: nothing ({keeps})", stack=stack + 1, keeps=keeps), None


def arranged(move: ArrangeMove, current: list[str | None], style: str, lang: str) -> Option[RookieMove]:
    """The button making arrangement `move`: the tops it puts on the stacks, and whether they secure."""
    final = [top or old for top, old in zip(move["tops"], current, strict=True)]
    parts = ", ".join(f"{i + 1} {card_text(top, lang)}" for i, top in enumerate(move["tops"]))
    kind = secured_kind(final)
    label = gettext(lang, "Arrange: {tops}", tops=parts) + gain(kind is not None, kind == "X", lang)
    return Option(label, move=move, style=style)


def stacks_line(view: RookieView, seat: int, lang: str, partner: bool = False) -> str:
    """A seat's point stack and (unless kids) its discard stacks, for the private reply: the
    seat's own, or (`partner`) its partner's."""
    player = view["seats"][seat]
    count = cards(player["points"], lang)
    if partner:
        points = gettext(lang, "Partner {seat}'s point stack: {cards}.", seat=seat_name(seat), cards=count)
    else:
        points = gettext(lang, "Your point stack: {cards}.", cards=count)
    if view["variant"] == "kids":
        return points
    stacks = " · ".join(
        gettext(
            lang,
            "{stack}: {card} on top, {cards}",
            stack=i + 1,
            card=card_text(stack["top"], lang),
            cards=cards(stack["count"], lang),
        )
        if stack["count"]
        else gettext(lang, "{position}: empty", position=i + 1)
        for i, stack in enumerate(player["stacks"])
    )
    return gettext(lang, "{points} Discard stacks — {stacks}.", points=points, stacks=stacks)


# What a hint says of why its move is good (ai/reasons/rookie.py).
HINT_REASONS = Reasons(
    counted={
        "steal": lambda lang, n, values: ngettext(
            lang, "takes {n} unsecured card", "takes {n} unsecured cards", n, **values
        ),
    },
    plain={
        "rookie": N_("Rookie: secures your stacks and takes every other player's unsecured cards"),
        "secure": N_("your three stacks show one colour on top: they are secured"),
        "pair": N_("the best place for the pair"),
        "flip": N_("it may make a pair"),
        "turn_down": N_("nothing better on the table: end your turn"),
        "arrange": N_("puts the cards taken where they serve you best"),
    },
)


class Rookie(
    GameCog[RookieView, RookieMove], group_name="rookie", group_description=locale_str("Play Rookie")
):
    """`/rookie new`, `/rookie rules` and the choices of every decision of a turn."""

    private_label = N_("My stacks")
    hint_reasons = HINT_REASONS

    @new_command(
        locale_str("Open a Rookie lobby (2–6 players)"),
        variant=locale_str(
            "standard; team: pairs of partners, 4 or 6 players; kids: no X cards, pairs score at once"
        ),
        deck=locale_str("standard: 108 cards; pocket: 72 cards for a shorter game"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        variant: Literal["standard", "team", "kids"] = "standard",
        deck: Literal["standard", "pocket"] = "standard",
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(interaction, {"variant": variant, "deck": deck}, clock, computers, level)

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        variant = VARIANTS.get(options.get("variant", "standard"), VARIANTS["standard"])
        deck = DECKS.get(options.get("deck", "standard"), DECKS["standard"])
        return f"{gettext(lang, variant)}, {gettext(lang, deck)}"

    def board_image(self, view: RookieView, ui: Mapping[str, Any], lang: str) -> bytes:
        return render(view, lang=lang)

    def present(
        self, view: RookieView, legal: list[RookieMove], path: tuple[int, ...], *, private: bool, lang: str
    ) -> Form[RookieMove]:
        """Nothing in Rookie is secret, so every decision is offered on the board."""
        if private or not legal:
            return Form()
        pending = view["pending"]
        assert pending is not None  # moves are legal only while the game runs
        if pending["kind"] in ("start", "flip", "chase"):
            return flip_grid(view, legal, path, lang)
        if pending["kind"] == "place":
            return Form((placements(view, [m for m in legal if m["type"] == "place"], lang),))
        if pending["kind"] == "steal":
            sides = {side["from"]: side for side in pending["choices"]}
            options = tuple(steal(m, sides[m["from"]], lang) for m in legal if m["type"] == "steal")
            return Form((Choice(gettext(lang, "Whose cards to take"), options),))
        return arrangement(view, [m for m in legal if m["type"] == "arrange"], path, lang)

    def describe_move(self, view: RookieView, move: RookieMove, lang: str) -> str:
        """A flip by its position ("Flip the card at position 6"); the rest as the buttons say."""
        if move["type"] == "flip":
            return gettext(lang, "Flip the card at position **{position}**", position=move["position"] + 1)
        return super().describe_move(view, move, lang)

    def score_text(self, view: RookieView, seat: int, lang: str) -> str:
        player = view["seats"][seat]
        points = ngettext(lang, "{n} point", "{n} points", player["points"])
        if view["variant"] == "kids":
            return points
        unsecured = sum(stack["count"] for stack in player["stacks"])
        return ngettext(
            lang, "{points} · {n} unsecured card", "{points} · {n} unsecured cards", unsecured, points=points
        )

    def result_lines(self, match: Match, outcome: Outcome, lang: str) -> list[str]:
        if not outcome.teams:
            return []
        scores = outcome.details["team_scores"]
        return [
            ngettext(
                lang,
                "Team {team} ({seats}): {n} point.",
                "Team {team} ({seats}): {n} points.",
                scores[t],
                team=t + 1,
                seats=", ".join(seat_name(s) for s in seats),
            )
            for t, seats in enumerate(outcome.teams)
        ]

    def headline(self, match: Match, view: RookieView, lang: str) -> list[str]:
        """What just happened and what is asked now, worded as on the board image."""

        def name(seat: int) -> str:  # before the mention, as the narration says "A <@…>'s stacks"
            return f"{seat_name(seat)} {who(match.players[seat], lang)}"

        told = narrate(view, name, lang)
        lines = [f"{ICONS[event['type']]} {line}" for event, line in zip(view["events"], told, strict=True)]
        asked = prompt(view, name, lang)
        return [*lines, f"👉 {asked}"] if asked else lines

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        view = self.view(match, seat)
        you = self.seat_label(view, seat, lang)
        lines = [gettext(lang, "**Rookie #{id}** — you are {seat}.", id=match.id, seat=you)]
        lines.append(stacks_line(view, seat, lang))
        teams = view.get("teams") or ()
        partner = next((s for team in teams if seat in team for s in team if s != seat), None)
        if partner is not None:
            lines.append(stacks_line(view, partner, lang, partner=True))
            points = view["scores"][seat] + view["scores"][partner]
            lines.append(ngettext(lang, "Your team: {n} point.", "Your team: {n} points.", points))
        return PrivateReply(content="\n".join(lines))


# What a match of this game may earn (read from its move log by games/feats/rookie.py).
ACHIEVEMENTS = (
    feat(
        "rookie",
        feats_of.SECURE_THREE,
        N_("Safe keeper"),
        N_("Secure your stacks three times in one Rookie match."),
        "🔒",
    ),
    feat(
        "rookie",
        feats_of.ROOKIE,
        N_("Rookie!"),
        N_("Secure three X cards and take everyone's unsecured cards in Rookie."),
        "❌",
    ),
    feat(
        "rookie",
        feats_of.FIVE_PAIRS,
        N_("Lucky streak"),
        N_("Take 5 pairs in one turn in Rookie."),
        "🍀",
    ),
    feat(
        "rookie",
        feats_of.LAST_PAIR,
        N_("Last but not least"),
        N_("Take the last pair on the table in Rookie, and every unsecured card with it."),
        "🧹",
    ),
)


SPEC = GameSpec(
    achievements=ACHIEVEMENTS,
    engine=ENGINE,
    render=render,
    board=board_image,
    narrate=narrate,
    presentation=Rookie,
    rules=rules_from_files("rookie"),
    choose=choose,
    prepare=prepare,
    explain=reasons.explain,
    feats=feats,
    secrets=False,
)
