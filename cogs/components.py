"""Restart-proof components: every custom_id carries what its click needs.

Game controls: `g:<game>:<match>:<turn>:<arg>` (buttons) and `gs:...` (selects).
Lobby buttons: `lobby:<match>:<action>`. The framework routes them to the match service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from cogs.framework import MatchService

CUSTOM_ID_LIMIT = 100
_GAME_ID = r"(?P<game>[a-z_]+):(?P<match>\d+):(?P<turn>\d+):(?P<arg>.*)"


def game_custom_id(prefix: str, game: str, match_id: int, turn: int, arg: str) -> str:
    custom_id = f"{prefix}:{game}:{match_id}:{turn}:{arg}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id longer than Discord allows: {custom_id!r}")
    return custom_id


def _service(interaction: discord.Interaction) -> MatchService:
    return interaction.client.matches  # type: ignore[attr-defined]


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"g:{_GAME_ID}"):
    """A button of a match; `arg` says what it does (the game cog reads it)."""

    def __init__(
        self,
        game: str,
        match_id: int,
        turn: int,
        arg: str,
        *,
        label: str | None = None,
        emoji: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.game, self.match_id, self.turn, self.arg = game, match_id, turn, arg
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                disabled=disabled,
                custom_id=game_custom_id("g", game, match_id, turn, arg),
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GameButton:
        return cls(match["game"], int(match["match"]), int(match["turn"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _service(interaction).on_component(
            interaction, self.game, self.match_id, self.turn, self.arg, []
        )


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=rf"gs:{_GAME_ID}"):
    """A select menu of a match; the chosen values go to the game cog with `arg`."""

    def __init__(
        self,
        game: str,
        match_id: int,
        turn: int,
        arg: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.game, self.match_id, self.turn, self.arg = game, match_id, turn, arg
        super().__init__(
            discord.ui.Select(
                custom_id=game_custom_id("gs", game, match_id, turn, arg),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> GameSelect:
        return cls(match["game"], int(match["match"]), int(match["turn"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values: list[Any] = list((interaction.data or {}).get("values", []))
        await _service(interaction).on_component(
            interaction, self.game, self.match_id, self.turn, self.arg, values
        )


LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lobby:(?P<match>\d+):(?P<action>join|leave|start|cancel)",
):
    """Join / Leave / Start / Cancel under a lobby."""

    def __init__(self, match_id: int, action: str) -> None:
        self.match_id, self.action = match_id, action
        label, style = LOBBY_ACTIONS[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"lobby:{match_id}:{action}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["match"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _service(interaction).on_lobby(interaction, self.match_id, self.action)


def lobby_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(match_id, action))
    return view


def items_view(items: list[discord.ui.Item]) -> discord.ui.View:
    """A never-expiring view holding `items` (all dynamic, so nothing is kept in memory)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


DYNAMIC_ITEMS = (GameButton, GameSelect, LobbyButton)
