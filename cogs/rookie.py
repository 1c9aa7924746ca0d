"""Rookie in Discord: flip cards from nine stacks, place pairs, rob neighbours, secure tops.

Nothing is secret, so every decision is offered on the board. The headline words events and
prompts as `render.rookie` does, naming seats with mentions, never a face-down card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs.game import GameCog, Level, new_command
from games.base import Outcome
from matches.match import Match, PrivateReply, seat_name, who
from matches.presentation import Choice, Form, Option
from render.rookie import cards, narrate, prompt, render

if TYPE_CHECKING:
    from bot import GameBot


CARD_TEXT = dict(red="red ●", yellow="yellow ▲", green="green ■", blue="blue ◆", purple="purple ★", X="X ✖")
# What each kind of event is marked with in the headline.
ICONS = dict(start="🎲", flip="🃏", pair="🃏", miss="↩️", open="👀", turn_down="↩️", place="📥")
ICONS.update(secure="🔒", rookie="🎉", steal="🫳", arrange="🗂️", collect="🏁", resign="🏳️")
VARIANTS = {
    "standard": "standard rules",
    "team": "teams of two, partners opposite (4 or 6 players)",
    "kids": "kids: no X cards, every pair scores at once",
}
DECKS = {"standard": "standard deck", "pocket": "pocket deck (shorter)"}


def card_text(kind: str | None) -> str:
    return CARD_TEXT[kind] if kind else "—"


def gain(secures: bool, rookie: bool) -> str:
    """What a placement or an arrangement wins, said after its label."""
    return " · Rookie!" if rookie else " · secures" if secures else ""


def flip_grid(view: dict, legal: list[dict], path: tuple[int, ...]) -> Form:
    """Nine buttons laid out like the table, a level per row; only face-down tops flip.
    With open cards at the start, level 3 turns them down or (pick 1) opens the grid to chase."""
    flips = {move["position"]: move for move in legal if move["type"] == "flip"}
    starting = view["pending"]["kind"] == "start"
    chasing = starting and path[3:4] == (1,)
    grid = []
    for p, position in enumerate(view["positions"]):
        label = str(p + 1) if position["count"] else f"{p + 1}: empty"
        if position["top"]:
            label = f"{p + 1}: {card_text(position['top'])}"
        live = p in flips and (chasing or not starting)
        style = "primary" if live else "secondary"
        grid.append(Option(label, move=flips.get(p), style=style, disabled=not live))
    rows = tuple(Choice("Flip a card", tuple(grid[i : i + 3]), select=False) for i in range(0, 9, 3))
    if not starting:
        return Form(rows)
    turn_down = next(move for move in legal if move["type"] == "turn_down")
    if chasing:
        chase = Option("Chasing: flip one card above", style="success", disabled=True)
    else:
        chase = Option("Chase", pick=1, style="success", disabled=not flips)
    start = Choice(
        "Open cards", (Option("Turn them down", move=turn_down, style="primary"), chase), select=False
    )
    return Form((*rows, start), path=(0, 0, 0, int(chasing)))


def placements(view: dict, legal: list[dict]) -> Choice:
    """One button per placement, three to a row: own stacks on rows 1–2, the partner's on 3–4."""
    effects = {(effect["seat"], tuple(effect["stacks"])): effect for effect in view["pending"]["choices"]}
    options = []
    for move in legal:
        owner, (first, second) = move["seat"], move["stacks"]
        top = view["seats"][owner]["stacks"][first]["top"]
        if first != second:
            where = f"Stacks {first + 1}+{second + 1}"
        else:
            where = f"Stack {first + 1} ({f'on {card_text(top)}' if top else 'empty'})"
        if owner != view["turn"]:
            where = f"Partner {seat_name(owner)}: {where[0].lower()}{where[1:]}"
        effect = effects[owner, (first, second)]
        said = gain(effect["secures"], effect["rookie"])
        options.append(Option(where + said, move=move, style="success" if said else "secondary"))
    return Choice("Place the pair", tuple(options), select=False, columns=3)


def steal(move: dict, side: dict) -> Option:
    label = f"{side['side'].capitalize()} me: {seat_name(move['from'])} · {cards(side['cards'])}"
    return Option(label, move=move, style="primary")


def arrangement(view: dict, legal: list[dict], path: tuple[int, ...]) -> Form:
    """The arrangement chosen so far (the engine's default first) and a select per stack.

    Every level's pick is the chosen arrangement's index in `legal`: a pick in a stack's
    select names the whole new arrangement, so the other stacks keep theirs."""
    pending = view["pending"]
    at = path[-1] if path and 0 <= path[-1] < len(legal) else 0
    index = {tuple(move["tops"]): i for i, move in enumerate(legal)}
    chosen = tuple(legal[at]["tops"])
    current = [stack["top"] for stack in view["seats"][pending["seat"]]["stacks"]]
    buttons = [arranged(legal[at], current, "success")]
    if at:
        buttons.append(arranged(legal[0], current, "secondary"))
    choices = [Choice("Arrange the cards taken", tuple(buttons), select=False)]
    for stack in range(3):
        options = []
        for top in (None, *pending["cards"]):
            tops = (*chosen[:stack], top, *chosen[stack + 1 :])
            if tops not in index:  # more of a kind than was taken, or nothing anywhere
                continue
            if top is None:
                keeps = f"keeps {card_text(current[stack])}" if current[stack] else "stays empty"
                label, taken = f"Stack {stack + 1}: nothing ({keeps})", None
            else:
                label, taken = f"Stack {stack + 1}: {card_text(top)} on top", f"{pending['cards'][top]} taken"
            options.append(Option(label, pick=index[tops], description=taken, selected=top == chosen[stack]))
        choices.append(Choice(f"Top of stack {stack + 1}", tuple(options), select=True))
    return Form(tuple(choices), path=(at,) * len(choices))


def arranged(move: dict, current: list[str | None], style: str) -> Option:
    """The button making arrangement `move`: the tops it puts on the stacks, and whether they secure."""
    final = [top or old for top, old in zip(move["tops"], current, strict=True)]
    parts = ", ".join(f"{i + 1} {card_text(top)}" for i, top in enumerate(move["tops"]))
    secures = final[0] is not None and all(top == final[0] for top in final)
    return Option(f"Arrange: {parts}{gain(secures, secures and final[0] == 'X')}", move=move, style=style)


def stacks_line(view: dict, seat: int, whose: str) -> str:
    """A seat's point stack and (unless kids) its discard stacks, for the private reply."""
    player = view["seats"][seat]
    points = f"{whose} point stack: {cards(player['points'])}."
    if view["variant"] == "kids":
        return points
    stacks = " · ".join(
        f"{i + 1}: {card_text(stack['top'])} on top, {cards(stack['count'])}"
        if stack["count"]
        else f"{i + 1}: empty"
        for i, stack in enumerate(player["stacks"])
    )
    return f"{points} Discard stacks — {stacks}."


class Rookie(GameCog, group_name="rookie", group_description="Play Rookie"):
    """`/rookie new`, `/rookie rules` and the choices of every decision of a turn."""

    game = "rookie"
    narrator = staticmethod(narrate)
    private_label = "My stacks"

    @new_command(
        "Open a Rookie lobby (2–6 players)",
        variant="standard; team: pairs of partners, 4 or 6 players; kids: no X cards, pairs score at once",
        deck="standard: 108 cards; pocket: 72 cards for a shorter game",
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

    def describe_options(self, options: Mapping[str, Any]) -> str:
        variant = VARIANTS.get(options.get("variant", "standard"), "standard rules")
        return f"{variant}, {DECKS.get(options.get('deck', 'standard'), 'standard deck')}"

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def present(self, view: dict, legal: list[dict], path: tuple[int, ...], *, private: bool) -> Form:
        """Nothing in Rookie is secret, so every decision is offered on the board."""
        if private or not legal:
            return Form()
        kind = view["pending"]["kind"]
        if kind in ("start", "flip", "chase"):
            return flip_grid(view, legal, path)
        if kind == "place":
            return Form((placements(view, legal),))
        if kind == "steal":
            sides = {side["from"]: side for side in view["pending"]["choices"]}
            return Form((Choice("Whose cards to take", tuple(steal(m, sides[m["from"]]) for m in legal)),))
        return arrangement(view, legal, path)

    def score_text(self, view: dict, seat: int) -> str:
        player = view["seats"][seat]
        points = f"{player['points']} points"
        if view["variant"] == "kids":
            return points
        return f"{points} · {sum(stack['count'] for stack in player['stacks'])} unsecured"

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        if not outcome.teams:
            return []
        scores = outcome.details["team_scores"]
        return [
            f"Team {t + 1} ({', '.join(seat_name(s) for s in seats)}): {scores[t]} points."
            for t, seats in enumerate(outcome.teams)
        ]

    def headline(self, match: Match, view: dict) -> list[str]:
        """What just happened and what is asked now, worded as on the board image."""

        def name(seat: int) -> str:  # before the mention, as the narration says "A <@…>'s stacks"
            return f"{seat_name(seat)} {who(match.players[seat])}"

        told = narrate(view, name)
        lines = [f"{ICONS[event['type']]} {line}" for event, line in zip(view["events"], told, strict=True)]
        asked = prompt(view, name)
        return [*lines, f"👉 {asked}"] if asked else lines

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        lines = [f"**Rookie #{match.id}** — you are {self.seat_label(view, seat)}."]
        lines.append(stacks_line(view, seat, "Your"))
        teams = view.get("teams") or ()
        partner = next((s for team in teams if seat in team for s in team if s != seat), None)
        if partner is not None:
            lines.append(stacks_line(view, partner, f"Partner {seat_name(partner)}'s"))
            lines.append(f"Your team: {view['scores'][seat] + view['scores'][partner]} points.")
        return PrivateReply(content="\n".join(lines))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Rookie(bot))
