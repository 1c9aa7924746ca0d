"""What the match framework needs of a game's user interface (its cog implements it).

Every hook that produces text takes `lang`, the language it speaks ("en", "de", "fr"): the
match's own for what the channel sees, the member's for their private replies and DMs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from ai.reasons import Reason
from games import Outcome
from games.base import AnyEngine
from matches.match import Match, PrivateReply
from matches.presentation import Form
from matches.spec import AnyGameSpec

View_contra = TypeVar("View_contra", contravariant=True)
Move = TypeVar("Move")


class GameUI(Protocol[View_contra, Move]):
    """A game as players meet it in Discord: its engine plus how its matches look. Its hooks
    read the game's own view type (`View_contra`) and offer its own moves (`Move`); the
    framework holds every game as `AnyGameUI` and hands each the views its engine made."""

    game: str
    spec: AnyGameSpec  # what the game is: its engine, computer player, renderer, options
    private_label: str  # English, marked with `N_`: the framework translates it where shown
    start_command: str  # how players open a lobby, e.g. "`/rookie new`"
    player_counts: tuple[int, ...]  # the seat counts a match can start with

    @property
    def engine(self) -> AnyEngine: ...

    def describe_options(self, options: Mapping[str, Any], lang: str) -> str:
        """One line saying how the lobby's options set up the game."""
        ...

    def board_image(self, view: View_contra, ui: Mapping[str, Any], lang: str) -> bytes:
        """The PNG under the board message, from the spectator view (`ui`: a form's preview), its
        words in `lang` (the match's language)."""
        ...

    def present(
        self, view: View_contra, legal: list[Move], path: tuple[int, ...], *, private: bool, lang: str
    ) -> Form[Move]:
        """How the legal moves of the seat to move are offered (see matches/presentation.py):
        on the board from the spectator view, or (`private`) in the seat's own reply from its view."""
        ...

    def narrator(self, view: View_contra, name: Callable[[int], str], lang: str) -> list[str]:
        """The renderer's words for what just happened in `lang`, seats named by `name` (as the
        images write them)."""
        ...

    def headline(self, match: Match, view: View_contra, lang: str) -> list[str]:
        """Lines announcing what just happened."""
        ...

    def private_view(self, match: Match, seat: int, lang: str) -> PrivateReply:
        """What the seat alone sees (called off the event loop)."""
        ...

    def hint_text(self, view: View_contra, move: Move, reason: Reason | None, lang: str) -> str:
        """A hint in `lang`: `move` (made in the seat's `view`) in the game's words, and why."""
        ...

    def score_text(self, view: View_contra, seat: int, lang: str) -> str: ...

    def seat_label(self, view: View_contra, seat: int, lang: str) -> str: ...

    def seat_colour(self, view: View_contra, seat: int) -> tuple[int, int, int]:
        """The colour the board image gives the seat (its card's accent while it is to move)."""
        ...

    def result_lines(self, match: Match, outcome: Outcome, lang: str) -> list[str]: ...


AnyGameUI = GameUI[Any, Any]
"""A game's user interface as the framework holds them all (as it holds their engines)."""
