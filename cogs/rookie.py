"""Rookie in Discord: flip cards from nine stacks, place pairs, rob neighbours, secure tops.

Every decision the engine asks for (`view["pending"]`) gets its own controls: a 3×3 grid
of flip buttons, one button per placement of a pair, "before me" / "after me" after an X
pair, and an arrangement of taken cards (a default button plus one select per stack).
Text never names a card that is face down: misses are told without their colours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs.components import GameButton, GameSelect
from cogs.framework import GameCog
from cogs.match import CLOCK_CHOICES, CLOCK_HELP, Match, PrivateReply, seat_name
from games.base import Outcome
from render.rookie import render

if TYPE_CHECKING:
    from bot import GameBot

RULES = """\
**Goal:** have the most cards in your point stack at the end.
**Table:** all cards lie face down in nine stacks (positions 1–9). Only a stack's top \
card can be flipped. Each player has three discard stacks (unsecured) and a point stack.
**A turn:** flip two cards.
• **Same colour:** place the pair on one or two of your discard stacks and flip two more.
• **Two X:** place them, then take every unsecured card of the player before **or** after \
you (you choose) and spread them over your stacks, choosing each top. Flip two more.
• **Two colours:** both go face down again; your turn ends.
• **A colour and an X:** both stay face up as *open* cards; your turn ends.
**Open cards at your start:** **Turn them down** and flip two, or **Chase**: flip one card. \
It matches an open colour → take the pair and chase again while open cards remain; an X \
matching an open X → take both and the unsecured cards of the player before you, then flip \
two; no match → it stays open and your turn ends.
**Securing:** when your three discard stacks show the same colour on top, all three go to \
your point stack for good. Three **X** on top is a **Rookie**: secure them and take the \
unsecured cards of every other player.
**End:** whoever takes the last pair puts it, and every unsecured card on the table (theirs \
included), onto their point stack. Most points wins; equal counts share the win.
**Team** (4 or 6 players): partners sit opposite; a pair may go on your partner's stacks; \
team scores add up. **Kids:** no X cards, no discard stacks — every pair scores at once.
**Pocket deck:** 72 cards instead of 108, for a shorter game."""

CARD_TEXT = {
    "red": "red ●",
    "yellow": "yellow ▲",
    "green": "green ■",
    "blue": "blue ◆",
    "purple": "purple ★",
    "X": "X ✖",
}
# One letter per kind keeps an arrangement inside a custom_id; "-" is a stack left out.
CODES = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "purple": "p", "X": "x"}
KINDS_OF = {code: kind for kind, code in CODES.items()}
NOTHING = "-"
VARIANTS = {
    "standard": "standard rules",
    "team": "teams of two, partners opposite (4 or 6 players)",
    "kids": "kids: no X cards, every pair scores at once",
}
DECKS = {"standard": "standard deck", "pocket": "pocket deck (shorter)"}

Tops = list[str | None]


def card_text(kind: str | None) -> str:
    return CARD_TEXT[kind] if kind else "—"


def cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def encode(tops: Tops) -> str:
    return "".join(CODES[top] if top else NOTHING for top in tops)


def decode(code: str) -> Tops:
    return [KINDS_OF[letter] if letter != NOTHING else None for letter in code]


def stacks_text(stacks: list[int]) -> str:
    first, second = (index + 1 for index in stacks)
    return f"stack {first}" if first == second else f"stacks {first} and {second}"


def taken_text(event: dict) -> str:
    """Whose unsecured cards a Rookie or the last pair took, and how many."""
    taken = ", ".join(f"{cards(count)} from {seat_name(seat)}" for seat, count in event["taken"])
    return taken or "there were none"


def securing(tops: Tops) -> str:
    """What three final tops do: " · Rookie!", " · secures" or nothing."""
    if tops[0] is None or any(top != tops[0] for top in tops):
        return ""
    return " · Rookie!" if tops[0] == "X" else " · secures"


class Rookie(GameCog, group_name="rookie", group_description="Play Rookie"):
    """`/rookie new`, `/rookie rules` and the controls for every decision of a turn."""

    game = "rookie"
    private_label = "My stacks"
    rules_text = RULES

    @app_commands.command(name="new", description="Open a Rookie lobby (2–6 players)")
    @app_commands.describe(
        variant="standard; team: pairs of partners, 4 or 6 players; kids: no X cards, pairs score at once",
        deck="standard: 108 cards; pocket: 72 cards for a shorter game",
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: Literal["standard", "team", "kids"] = "standard",
        deck: Literal["standard", "pocket"] = "standard",
        clock: int | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"variant": variant, "deck": deck}, clock)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        variant = VARIANTS.get(options.get("variant", "standard"), "standard rules")
        return f"{variant}, {DECKS.get(options.get('deck', 'standard'), 'standard deck')}"

    # ------------------------------------------------------------- the board

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)

    def seat_label(self, view: dict, seat: int) -> str:
        team = next((t for t, seats in enumerate(view.get("teams") or ()) if seat in seats), None)
        return seat_name(seat) if team is None else f"{seat_name(seat)} · team {team + 1}"

    def score_text(self, view: dict, seat: int) -> str:
        player = view["players"][seat]
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
        lines = [self._event_line(view, event) for event in view["events"]]
        if view["to_move"]:
            lines.append(self._pending_line(view))
        return lines

    def _event_line(self, view: dict, event: dict) -> str:
        who = self.seat_label(view, event["seat"])
        kind = event["type"]
        if kind == "pair":
            scored = ": 2 cards onto the point stack" if view["variant"] == "kids" else ""
            return f"🃏 {who} turned up a pair of **{card_text(event['card'])}**{scored}."
        if kind == "miss":
            return f"↩️ {who} turned up two different colours: both are face down again."
        if kind == "open":
            shown = " and ".join(f"**{card_text(card)}**" for card in event["cards"])
            if len(event["cards"]) == 2:
                return f"👀 {who} turned up {shown} — a colour beside an X, so both stay open."
            return f"👀 {who} chased with {shown}, which matches no open card, so it stays open too."
        if kind == "turn_down":
            return f"↩️ {who} turned the {cards(event['count'])} left open face down."
        if kind == "place":
            owner = "" if event["owner"] == event["seat"] else f"partner {seat_name(event['owner'])}'s "
            return (
                f"📥 {who} put the {card_text(event['card'])} pair on {owner}{stacks_text(event['stacks'])}."
            )
        if kind == "secure":
            return (
                f"🔒 {who} secured three **{card_text(event['card'])}** tops: "
                f"{cards(event['count'])} onto the point stack."
            )
        if kind == "rookie":
            taken = taken_text(event)
            return f"🎉 **Rookie!** {who} takes every other player's unsecured cards: {taken}."
        if kind == "steal":
            victim = seat_name(event["from"])
            return f"🫳 {who} took {cards(event['count'])} from {victim}'s discard stacks."
        if kind == "arrange":
            tops = ", ".join(f"{i + 1} {card_text(top)}" for i, top in enumerate(event["tops"]))
            receiver = seat_name(event["seat"])
            return f"🗂️ The {cards(event['count'])} taken went onto {receiver}'s stacks (new tops: {tops})."
        if kind == "collect":
            return (
                f"🏁 {who} took the last pair and collects every unsecured card: "
                f"{cards(event['count'])} onto the point stack ({taken_text(event)})."
            )
        return f"🏳️ {who} resigned."

    def _pending_line(self, view: dict) -> str:
        pending = view["pending"]
        kind = pending["kind"]
        if kind == "start":
            return (
                "👉 Open cards lie on the table: **Turn them down** and flip two, "
                "or **Chase** them with one card."
            )
        if kind == "flip":
            return "👉 Flip a second card." if pending["flipped"] else "👉 Flip two cards."
        if kind == "chase":
            return "👉 Chase: flip one more card to match an open card."
        if kind == "place":
            where = "yours or your partner's" if "teams" in view else "yours"
            then = " Then you take a neighbour's unsecured cards." if pending["then_steal"] else ""
            pair = card_text(pending["card"])
            return f"👉 Place the {pair} pair on one or two discard stacks ({where}).{then}"
        if kind == "steal":
            return "👉 Take the unsecured cards of the player before you or after you."
        taken = ", ".join(f"{n} × {card_text(kind)}" for kind, n in pending["cards"].items())
        whose = seat_name(pending["seat"])
        return (
            f"👉 Spread the {cards(pending['count'])} taken ({taken}) on {whose}'s stacks: choose the tops."
        )

    # ---------------------------------------------------------- the controls

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        if not view["to_move"]:
            return []
        kind = view["pending"]["kind"]
        if kind == "start":
            chasing = bool(ui.get("chase"))
            return [*self._flip_grid(match, view, enabled=chasing), *self._start_buttons(match, chasing)]
        if kind in ("flip", "chase"):
            return self._flip_grid(match, view, enabled=True)
        if kind == "place":
            return self._place_buttons(match, view)
        if kind == "steal":
            return self._steal_buttons(match, view)
        return self._arrange_controls(match, view, ui)

    def _button(self, match: Match, arg: str, label: str, **kwargs: Any) -> GameButton:
        return GameButton(self.game, match.id, match.turn, arg, label=label, **kwargs)

    def _flip_grid(self, match: Match, view: dict, *, enabled: bool) -> list[discord.ui.Item]:
        """Nine buttons laid out like the table; only face-down tops can be flipped."""
        grid = []
        for p, position in enumerate(view["positions"]):
            if not position["count"]:
                label, flippable = f"{p + 1}: empty", False
            elif position["top"]:
                label, flippable = f"{p + 1}: {card_text(position['top'])}", False
            else:
                label, flippable = str(p + 1), True
            style = discord.ButtonStyle.primary if flippable and enabled else discord.ButtonStyle.secondary
            grid.append(
                self._button(
                    match, f"f:{p}", label, style=style, disabled=not (flippable and enabled), row=p // 3
                )
            )
        return grid

    def _start_buttons(self, match: Match, chasing: bool) -> list[discord.ui.Item]:
        chase_label = "Chasing: flip one card above" if chasing else "Chase"
        return [
            self._button(match, "d", "Turn them down", style=discord.ButtonStyle.primary, row=3),
            self._button(match, "c", chase_label, style=discord.ButtonStyle.success, disabled=chasing, row=3),
        ]

    def _place_buttons(self, match: Match, view: dict) -> list[discord.ui.Item]:
        """One button per placement: own stacks on rows 0–1, the partner's on rows 2–3."""
        mover = view["turn"]
        items = []
        for index, choice in enumerate(view["pending"]["choices"]):
            owner, stacks = choice["seat"], choice["stacks"]
            first, second = stacks
            if first == second:
                top = view["players"][owner]["stacks"][first]["top"]
                where = f"Stack {first + 1} (on {card_text(top)})" if top else f"Stack {first + 1} (empty)"
            else:
                where = f"Stacks {first + 1}+{second + 1}"
            if owner != mover:
                where = f"Partner {seat_name(owner)}: {where[0].lower()}{where[1:]}"
            effect = " · Rookie!" if choice["rookie"] else " · secures" if choice["secures"] else ""
            style = discord.ButtonStyle.success if effect else discord.ButtonStyle.secondary
            items.append(
                self._button(match, f"p:{owner}:{first}{second}", where + effect, style=style, row=index // 3)
            )
        return items

    def _steal_buttons(self, match: Match, view: dict) -> list[discord.ui.Item]:
        return [
            self._button(
                match,
                f"s:{choice['from']}",
                f"{choice['side'].capitalize()} me: {seat_name(choice['from'])} · {cards(choice['cards'])}",
                style=discord.ButtonStyle.primary,
                row=0,
            )
            for choice in view["pending"]["choices"]
        ]

    def _arrange_controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        """The arrangement chosen so far (the engine's default first), and a select per stack."""
        pending = view["pending"]
        default: Tops = pending["default"]
        chosen: Tops = list(ui.get("tops") or default)
        current = [stack["top"] for stack in view["players"][pending["seat"]]["stacks"]]
        items: list[discord.ui.Item] = [
            self._button(
                match,
                f"a:{encode(chosen)}",
                self._arrangement_label(chosen, current),
                style=discord.ButtonStyle.success,
                row=0,
            )
        ]
        if chosen != default:
            items.append(
                self._button(match, f"a:{encode(default)}", self._arrangement_label(default, current), row=0)
            )
        for index in range(3):
            items.append(self._top_select(match, pending["cards"], chosen, current, index))
        return items

    @staticmethod
    def _arrangement_label(tops: Tops, current: Tops) -> str:
        final = [top or old for top, old in zip(tops, current, strict=True)]
        parts = ", ".join(f"{i + 1} {card_text(top)}" for i, top in enumerate(tops))
        return f"Arrange: {parts}{securing(final)}"

    def _top_select(
        self, match: Match, loot: dict[str, int], chosen: Tops, current: Tops, index: int
    ) -> GameSelect:
        """The kinds this stack may get on top, given what the other stacks already take."""
        others = Counter(top for i, top in enumerate(chosen) if i != index and top)
        options = []
        if any(top for i, top in enumerate(chosen) if i != index):
            keeps = f"keeps {card_text(current[index])}" if current[index] else "stays empty"
            options.append(
                discord.SelectOption(
                    label=f"Stack {index + 1}: nothing ({keeps})",
                    value=NOTHING,
                    default=chosen[index] is None,
                )
            )
        for kind, count in loot.items():
            if others[kind] < count:
                options.append(
                    discord.SelectOption(
                        label=f"Stack {index + 1}: {card_text(kind)} on top",
                        value=CODES[kind],
                        description=f"{count} taken",
                        default=chosen[index] == kind,
                    )
                )
        return GameSelect(
            self.game,
            match.id,
            match.turn,
            f"t:{index}:{encode(chosen)}",
            options=options,
            placeholder=f"Top of stack {index + 1}",
            row=index + 1,
        )

    # ---------------------------------------------------------------- clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        kind, _, rest = arg.partition(":")
        if kind == "c":
            await self.service.show(interaction, match, {"chase": True})
        elif kind == "t":
            index, code = rest.split(":")
            tops = decode(code)
            tops[int(index)] = decode(values[0])[0] if values else None
            await self.service.show(interaction, match, {"tops": tops})
        else:
            await self.service.play(interaction, match, seat, self._move(kind, rest), turn=match.turn)

    @staticmethod
    def _move(kind: str, rest: str) -> dict[str, Any]:
        """The engine move a button stands for; the engine refuses anything out of place."""
        if kind == "f":
            return {"type": "flip", "position": int(rest)}
        if kind == "d":
            return {"type": "turn_down"}
        if kind == "p":
            owner, stacks = rest.split(":")
            return {"type": "place", "seat": int(owner), "stacks": [int(stacks[0]), int(stacks[1])]}
        if kind == "s":
            return {"type": "steal", "from": int(rest)}
        return {"type": "arrange", "tops": decode(rest)}

    # --------------------------------------------------------- private view

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        view = match.view(seat)
        lines = [f"**Rookie #{match.id}** — you are {self.seat_label(view, seat)}."]
        lines.append(self._stacks_line(view, seat, "Your"))
        partner = next(
            (s for team in view.get("teams") or () if seat in team for s in team if s != seat), None
        )
        if partner is not None:
            lines.append(self._stacks_line(view, partner, f"Partner {seat_name(partner)}'s"))
            lines.append(f"Your team: {view['scores'][seat] + view['scores'][partner]} points.")
        return PrivateReply(content="\n".join(lines))

    def _stacks_line(self, view: dict, seat: int, whose: str) -> str:
        player = view["players"][seat]
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


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Rookie(bot))
