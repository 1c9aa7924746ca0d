"""Hints: the move the normal computer would make for the player to move, shown to them alone.

A hint is decided like a computer seat's move (matches/computers.py): off the event loop, from
the seat's own views only — the earlier ones rebuilt from the move log, the newest from the
match as it stands — with a generator seeded by the match's seed, the turn and the seat, so
the same position always gives the same hint. It is decided once per turn and seat: presses
while it is being decided wait for that decision, later ones get it again, and count once.

Hints are counted per seat (stored with the seats, then with the result). A match in which a
player used hints is unrated unless every seat that used them loses (data/ratings.py): in a
match that is still rated, a player's first hint asks to confirm that first.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

import ai
from ai.reasons import Reason
from data.repositories import Database
from games import GameError
from locales import N_, gettext, ngettext
from locales.audience import private_language
from matches.components import GameButton, items_view
from matches.game_ui import AnyGameUI
from matches.match import HINT, HINT_CONFIRM, Match, humans, tell, who

log = logging.getLogger(__name__)
HINT_LEVEL = "normal"  # the computer whose move a hint shows
HINT_EMOJI = "💡"
Key = tuple[int, int, int]  # (match, turn, seat)
KEPT = 1000  # decided hints kept in memory at most


@dataclass(frozen=True, slots=True)
class Hint:
    """A decided hint: the move, why, and the seat's view it was decided in (to word it)."""

    move: Any
    reason: Reason | None
    view: Any


def hint_button(match: Match, lang: str, *, row: int | None = 4) -> GameButton:
    """The "💡 Hint" button of the match's turn, in `lang`."""
    label = gettext(lang, "Hint")
    return GameButton(match.row.game, match.id, match.turn, HINT, label=label, emoji=HINT_EMOJI, row=row)


def offers_hints(game: AnyGameUI, match: Match) -> bool:
    """Whether the match is running and its game has a computer player to ask."""
    return match.row.status == "running" and game.spec.choose is not None


def rated_so_far(match: Match) -> bool:
    """Whether the match may still be rated: only people play it (computers make it unrated)."""
    return len(humans(match.players)) == len(match.players)


def used_lines(match: Match, lang: str) -> list[str]:
    """How many hints each player used, for the final board ("Alice used 2 hints.")."""
    return [
        ngettext(
            lang,
            "{player} used {n} hint.",
            "{player} used {n} hints.",
            count,
            player=who(match.players[seat], lang),
        )
        for seat, count in sorted(match.hints.items())
        if count > 0
    ]


def refusal(game: AnyGameUI, match: Match, seat: int, lang: str) -> str | None:
    """Why the player of `seat` gets no hint now, in `lang`; None if they may have one."""
    if not offers_hints(game, match):
        return gettext(lang, "This game has no computer player to give hints.")
    if seat not in match.engine.current_seats(match.state):
        text = N_("It is not your turn — hints are for the player to move. Press Hint when your turn comes.")
        return gettext(lang, text)
    return None


def decide(
    game: AnyGameUI, match: Match, seat: int, state: Any, log_rows: list[tuple[int, int, dict[str, Any]]]
) -> Hint:
    """The normal computer's move for `seat` in `state` (the match's at the turn after `log_rows`)
    and why, from the seat's views (off the event loop): the earlier ones rebuilt from the move
    log, the newest from `state`."""
    spec, engine, turn = game.spec, match.engine, len(log_rows)
    earlier = spec.states(len(match.players), match.row.seed, match.row.options, log_rows)[:-1]
    views = [engine.view(state, seat) for state in earlier]
    views.append(engine.view(state, seat))
    legal = engine.legal_moves(state, seat)
    rng = random.Random(f"{match.row.seed}:{turn}:{seat}")
    move = ai.choose(spec.choose, HINT_LEVEL, views, legal, rng)
    reason = spec.explain(views, move) if spec.explain is not None else None
    return Hint(move, reason, views[-1])


class Hints:
    """Answers presses of "💡 Hint": decides each turn's hint once, counts it once, and asks a
    player of a rated match to confirm their first."""

    def __init__(self, storage: Database, games: Mapping[str, AnyGameUI]) -> None:
        self.storage = storage
        self.games = games
        self.deciding: dict[Key, asyncio.Task[Hint]] = {}
        self.given: dict[Key, Hint] = {}  # hints of the matches' current turns

    async def press(
        self, interaction: discord.Interaction, match: Match, seat: int, *, confirmed: bool
    ) -> None:
        """A press of Hint (or of its confirmation) by the player of `seat`."""
        mine = private_language(interaction)
        game = self.games[match.row.game]
        if (refused := refusal(game, match, seat, mine)) is not None:
            await tell(interaction, refused)
            return
        key = (match.id, match.turn, seat)
        if not confirmed and key not in self.given and rated_so_far(match) and await self._first(match, seat):
            await self._ask(interaction, match, mine)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            hint = await self._hint(game, match, seat)
        except GameError:
            await tell(
                interaction,
                gettext(mine, "I cannot work out a hint for this match — its move log is damaged."),
            )
            return
        if hint is None or match.turn != key[1]:
            await tell(
                interaction, gettext(mine, "The game moved on meanwhile — press Hint again for a fresh hint.")
            )
            return
        await self._count(match, key)
        await interaction.followup.send(self._text(game, match, hint, mine), ephemeral=True)

    async def _first(self, match: Match, seat: int) -> bool:
        """Whether the seat's player has used no hint in this match yet."""
        return (await self.storage.matches.hints(match.id)).get(seat, 0) == 0

    async def _ask(self, interaction: discord.Interaction, match: Match, lang: str) -> None:
        """Ask a player of a rated match to confirm their first hint."""
        show = GameButton(
            match.row.game,
            match.id,
            match.turn,
            HINT_CONFIRM,
            label=gettext(lang, "Show the hint"),
            emoji=HINT_EMOJI,
            style=discord.ButtonStyle.primary,
        )
        text = gettext(lang, "A hint makes this match unrated unless you lose it. Show the hint?")
        await interaction.response.send_message(text, view=items_view([show]), ephemeral=True)

    async def _hint(self, game: AnyGameUI, match: Match, seat: int) -> Hint | None:
        """The turn's hint for the seat: decided once, whoever presses meanwhile waits for it.
        None when the match moved on while the move log was read."""
        key = (match.id, match.turn, seat)
        if (hint := self.given.get(key)) is not None:
            return hint
        task = self.deciding.get(key)
        if task is None:
            task = asyncio.create_task(self._decide(game, match, seat, key), name=f"hint in match {match.id}")
            self.deciding[key] = task
            task.add_done_callback(lambda _: self.deciding.pop(key, None))
        try:
            return await asyncio.shield(task)
        except _MovedOn:
            return None

    async def _decide(self, game: AnyGameUI, match: Match, seat: int, key: Key) -> Hint:
        log_rows = await self.storage.matches.move_log(match.id)
        if len(log_rows) != key[1] or match.turn != key[1]:
            raise _MovedOn
        try:
            hint = await asyncio.to_thread(decide, game, match, seat, match.state, log_rows)
        except GameError as error:  # a damaged move log: the seat's views cannot be rebuilt
            log.warning("No hint for match %s: %s", match.id, error)
            raise
        self._forget_older(match.id, key[1])
        self.given[key] = hint
        return hint

    def forget(self, match_id: int) -> None:
        """Drop the match's hints: its move was taken back, so its next turn may differ."""
        for key in [key for key in self.given if key[0] == match_id]:
            del self.given[key]

    def _forget_older(self, match_id: int, turn: int) -> None:
        """Keep only the hints of the match's current turn, and at most `KEPT` in all (the
        oldest of matches that ended go)."""
        for key in [key for key in self.given if key[0] == match_id and key[1] != turn]:
            del self.given[key]
        for key in list(self.given)[: max(0, len(self.given) - KEPT)]:
            del self.given[key]

    async def _count(self, match: Match, key: Key) -> None:
        """Count the seat's hint of this turn, once (the database keeps which turn was counted)."""
        await self.storage.matches.count_hint(match.id, key[2], turn=key[1])

    def _text(self, game: AnyGameUI, match: Match, hint: Hint, lang: str) -> str:
        """The hint as its player reads it: the move, why, and what it does to the rating."""
        said = game.hint_text(hint.view, hint.move, hint.reason, lang)
        lines = [gettext(lang, "{emoji} **Hint:** {hint}", emoji=HINT_EMOJI, hint=said)]
        if rated_so_far(match):
            lines.append(gettext(lang, "This match is unrated now unless you lose it."))
        return "\n".join(lines)


class _MovedOn(Exception):
    """The match moved on while a hint was being decided."""
