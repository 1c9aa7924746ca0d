"""What the match framework needs of a game's user interface (its cog implements it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from games import Engine, Outcome
from matches.match import Match, PrivateReply
from matches.presentation import Form


class GameUI(Protocol):
    """A game as players meet it in Discord: its engine plus how its matches look."""

    game: str
    engine: Engine
    private_label: str
    start_command: str  # how players open a lobby, e.g. "`/rookie new`"
    player_counts: tuple[int, ...]  # the seat counts a match can start with

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """One line saying how the lobby's options set up the game."""
        ...

    def game_options(self, options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
        """The options the engine gets for `players` seats."""
        ...

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        """The PNG under the board message, from the spectator view (`ui`: a form's preview)."""
        ...

    def present(self, view: dict, legal: list[dict], path: tuple[int, ...], *, private: bool) -> Form:
        """How the legal moves of the seat to move are offered (see matches/presentation.py):
        on the board from the spectator view, or (`private`) in the seat's own reply from its view."""
        ...

    def narrator(self, view: dict, name: Callable[[int], str]) -> list[str]:
        """The renderer's words for what just happened, seats named by `name`."""
        ...

    def headline(self, match: Match, view: dict) -> list[str]:
        """Lines announcing what just happened."""
        ...

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        """What the seat alone sees (called off the event loop)."""
        ...

    def score_text(self, view: dict, seat: int) -> str: ...

    def seat_label(self, view: dict, seat: int) -> str: ...

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]: ...
