"""`GameCog`: the base of every game's cog — its commands and how its matches look.

A game's cog implements the `matches.game_ui.GameUI` hooks below, typed by its game's view
and move types (`class Rookie(GameCog[RookieView, RookieMove], group_name="rookie")`), and
is its spec's `presentation`: the match framework makes it from the spec (`GameCog(bot, spec)`)
and does everything else: seats, locks, persistence, the board message, pings, DM notices, clocks
and errors.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable, Coroutine, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from ai.reasons import Reason
from cogs.hints import Reasons
from games import Outcome
from games.base import CommonView
from locales import N_, gettext, ngettext
from locales.audience import private_language
from matches import MatchService
from matches.match import CLOCK_CHOICES, CLOCK_HELP, Match, PrivateReply, seat_name, who
from matches.presentation import Form
from matches.spec import GameSpec
from render.common import SEAT_COLOURS

if TYPE_CHECKING:
    from bot import GameBot


Level = Literal["easy", "normal", "hard"]  # ai.LEVELS, as a command option
COMPUTERS_HELP = locale_str("How many seats computer players take (you can also add them in the lobby)")
TIEBREAKS = {"largest group": N_("the largest group")}  # what decided a tie, as engines name it
RULES_PICTURE = "rules.png"  # the file name of the picture under the rules
LEVEL_HELP = locale_str("How well the computers play: easy, normal (the default) or hard")
NewCallback = TypeVar("NewCallback", bound=Callable[..., Coroutine[Any, Any, None]])
ViewT = TypeVar("ViewT", bound=CommonView[Any])  # the game's view type
MoveT = TypeVar("MoveT")  # the game's move type


def new_command(
    description: locale_str, **options: locale_str
) -> Callable[[NewCallback], app_commands.Command[Any, ..., None]]:
    """Declare a game's `/<game> new`: its description, the help of its options, and the
    options every game's `new` takes: the turn clock (`clock: int | None = None`) and its
    computer seats (`computers: app_commands.Range[int, 0, max - 1] = 0`, `level: Level = "normal"`)."""

    def declare(callback: NewCallback) -> app_commands.Command[Any, ..., None]:
        callback = app_commands.choices(clock=CLOCK_CHOICES)(callback)
        callback = app_commands.describe(
            clock=CLOCK_HELP, computers=COMPUTERS_HELP, level=LEVEL_HELP, **options
        )(callback)
        return app_commands.command(name="new", description=description)(callback)

    return declare


class GameCog(commands.GroupCog, Generic[ViewT, MoveT]):
    """Base of every game's cog, made from its game's spec. Subclasses override the hooks below;
    each hook reads the game's own view (`ViewT`) and offers its own moves (`MoveT`)."""

    private_label = N_("My view")
    hint_reasons = Reasons()  # the words for why a hint's move is good, by reason key

    def __init__(self, bot: GameBot, spec: GameSpec[ViewT, MoveT]) -> None:
        self.bot = bot
        self.spec = spec
        self.game = spec.name
        self.engine = spec.engine
        self.player_counts = spec.player_counts
        super().__init__()
        self.start_command = f"`/{self.__cog_group_name__} new`"

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    def view(self, match: Match, seat: int | None = None) -> ViewT:
        """The match's view for `seat` (None: a spectator's), as this game's view type."""
        return self.engine.view(match.state, seat)

    def narrator(self, view: ViewT, name: Callable[[int], str], lang: str) -> list[str]:
        """The renderer's words for what just happened (the spec's `narrate`)."""
        return self.spec.narrate(view, name, lang)

    # ------------------------------------------------------------------ hooks

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        """One line saying how the lobby's options set up the game."""
        return ", ".join(f"{key}: {value}" for key, value in options.items()) or gettext(
            lang, "standard rules"
        )

    def board_image(self, view: ViewT, ui: Mapping[str, Any], lang: str) -> bytes:
        """The PNG under the board message, from the spectator view (`ui`: a form's preview, which
        only some games draw), its words in `lang`."""
        return self.spec.render(view, lang=lang)

    def present(
        self, view: ViewT, legal: list[MoveT], path: tuple[int, ...], *, private: bool, lang: str
    ) -> Form[MoveT]:
        """How the seat to move's legal moves are offered (see matches/presentation.py), in `lang`."""
        return Form()

    def headline(self, match: Match, view: ViewT, lang: str) -> list[str]:
        """Lines announcing what just happened (skips, scores, bonuses)."""
        return []

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        """What the "private view" button shows the seat (and the DM notice carries), in `lang`.

        Called off the event loop, so it may render images.
        """
        return PrivateReply(content=gettext(lang, "This game has no secrets: everything is on the board."))

    def hint_text(self, view: ViewT, move: MoveT, reason: Reason | None, lang: str) -> str:
        """A hint in `lang`: the move in the game's words, then why (`hint_reasons`)."""
        said = self.describe_move(view, move, lang)
        why = self.hint_reasons.text(reason, lang) if reason is not None else None
        return gettext(lang, "{move} — {why}", move=said, why=why) if why else said

    def describe_move(self, view: ViewT, move: MoveT, lang: str) -> str:
        """A move of the seat to move in words, as its controls name it: by default the label
        of the option that makes it."""
        form = self.present(view, [move], (), private=False, lang=lang)
        labels = [option.label for choice in form.choices for option in choice.options if option.move == move]
        return f"**{labels[0]}**" if labels else gettext(lang, "the move on offer")

    def score_text(self, view: ViewT, seat: int, lang: str) -> str:
        return ngettext(lang, "{n} point", "{n} points", view["scores"][seat])

    def seat_colour(self, view: ViewT, seat: int) -> tuple[int, int, int]:
        """The seat's colour on the board image (by default, the seat colours in turn)."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def seat_label(self, view: ViewT, seat: int, lang: str) -> str:
        """How a seat is marked in text, as on the board: its letter, and its team when
        the view has teams of more than one seat."""
        teams = teams_of(view)
        team = next((t for t, seats in enumerate(teams) if seat in seats), None)
        if team is None or all(len(seats) == 1 for seats in teams):
            return seat_name(seat)
        return gettext(lang, "{seat} · team {team}", seat=seat_name(seat), team=team + 1)

    def named(self, match: Match, view: ViewT, lang: str) -> Callable[[int], str]:
        """How messages name a seat: its player's mention and its label, as the board shows it."""
        return lambda seat: f"{who(match.players[seat], lang)} ({self.seat_label(view, seat, lang)})"

    def result_lines(self, match: Match, outcome: Outcome, lang: str) -> list[str]:
        """Extra lines for the final board (e.g. the tie-break)."""
        if not outcome.tiebreak:
            return []
        tiebreak = TIEBREAKS.get(outcome.tiebreak, outcome.tiebreak)
        tiebreak = gettext(lang, tiebreak) if tiebreak in TIEBREAKS.values() else tiebreak
        return [gettext(lang, "Decided by the tie-break: {tiebreak}.", tiebreak=tiebreak)]

    # --------------------------------------------------------------- commands

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        clock: int | None = None,
        computers: int = 0,
        level: str = "normal",
    ) -> None:
        """Post a lobby; `clock` is seconds per move (0: none; None: the server's default),
        with `computers` computer seats at `level`."""
        await self.service.open_lobby(interaction, self, options, clock, (level,) * computers)

    @app_commands.command(name="rules", description=locale_str("The rules of this game, short and clear"))
    async def rules(self, interaction: discord.Interaction) -> None:
        lang = private_language(interaction)
        title = gettext(lang, "{game} — rules", game=self.engine.title)
        embed = discord.Embed(title=title, description=self.spec.rules(lang))
        if self.spec.rules_picture is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        png, alt = await asyncio.to_thread(self.spec.rules_picture, lang)
        picture = discord.File(io.BytesIO(png), filename=RULES_PICTURE, description=alt)
        embed.set_image(url=f"attachment://{RULES_PICTURE}")
        await interaction.response.send_message(embed=embed, file=picture, ephemeral=True)


def rules_file(game: str, lang: str) -> Traversable:
    """Where the rules of `game` in `lang` are written (the English ones where there are none)."""
    translated = resources.files("locales") / lang / "rules" / f"{game}.md"
    return translated if translated.is_file() else resources.files("cogs") / "rules" / f"{game}.md"


def rules_from_files(game: str) -> Callable[[str], str]:
    """A spec's `rules` read from files: locales/<lang>/rules/<game>.md, else the English ones
    (cogs/rules/<game>.md)."""
    return functools.partial(_read_rules, game)


def _read_rules(game: str, lang: str) -> str:
    return rules_file(game, lang).read_text(encoding="utf-8").strip()


def teams_of(view: Mapping[str, object]) -> list[list[int]]:
    """The seats of each team, for the views of games with teams (`teams`); [] otherwise."""
    teams = view.get("teams")
    return list(teams) if isinstance(teams, list | tuple) else []
