"""Restart-proof components: every custom_id carries what its click needs.

Move choices: `m:<match>:<turn>:<where>:<level>:<path>:<index>` (see matches/presentation.py;
selects end in `s<first index>` and carry the index as their value).
The framework's own buttons (private view, resign, rematch): `g:<game>:<match>:<turn>:<arg>`;
`g:`/`gs:` ids with other args are game controls of boards drawn by an earlier version of the
bot, answered by drawing the current board.
Lobby buttons: `lobby:<match>:<action>`; the host's computer menu: `lobbyc:<match>`. The framework
routes them to the match service.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Protocol

import discord

from locales import N_, gettext
from matches.presentation import (
    CONTROL_ROWS,
    STYLES,
    Choice,
    Form,
    as_select,
    decode_path,
    encode_path,
    page_placeholder,
    rows_needed,
    select_pages,
)

CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80  # characters of a button's label
SELECT_TEXT_LIMIT = 100  # characters of a select option's label or description
MARKDOWN_ESCAPE = re.compile(r"\\([\\*_~`|>#-])")  # a backslash before a character markdown uses
_GAME_ID = r"(?P<game>[a-z_]{1,32}):(?P<match>\d{1,12}):(?P<turn>\d{1,6}):(?P<arg>[^\s]{0,80})"


def game_custom_id(prefix: str, game: str, match_id: int, turn: int, arg: str) -> str:
    custom_id = f"{prefix}:{game}:{match_id}:{turn}:{arg}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id longer than Discord allows: {custom_id!r}")
    return custom_id


class Presses(Protocol):
    """What the components hand their presses to: the bot's match service."""

    async def on_component(
        self, interaction: discord.Interaction, match_id: int, turn: int, arg: str
    ) -> None: ...

    async def on_choice(
        self,
        interaction: discord.Interaction,
        *,
        match_id: int,
        turn: int,
        where: str,
        level: int,
        path: tuple[int, ...],
        index: int,
    ) -> None: ...

    async def on_lobby(self, interaction: discord.Interaction, match_id: int, action: str) -> None: ...

    async def on_lobby_computer(
        self, interaction: discord.Interaction, match_id: int, choice: str
    ) -> None: ...


def _service(interaction: discord.Interaction) -> Presses:
    service: Presses = interaction.client.matches  # type: ignore[attr-defined]
    return service


class GameButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=rf"g:{_GAME_ID}"):
    """A framework button of a match; `arg` says what it does."""

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
        self.match_id, self.turn, self.arg = match_id, turn, arg
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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        return cls(match["game"], int(match["match"]), int(match["turn"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _service(interaction).on_component(interaction, self.match_id, self.turn, self.arg)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=rf"gs:{_GAME_ID}"):
    """A game's select menu on a board drawn by an earlier version of the bot (see above)."""

    def __init__(self, game: str, match_id: int, turn: int, arg: str) -> None:
        self.match_id, self.turn, self.arg = match_id, turn, arg
        custom_id = game_custom_id("gs", game, match_id, turn, arg)
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="-")]))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameSelect:
        return cls(match["game"], int(match["match"]), int(match["turn"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _service(interaction).on_component(interaction, self.match_id, self.turn, self.arg)


_CHOICE = (
    r"m:(?P<match>\d{1,12}):(?P<turn>\d{1,6}):(?P<where>[bp]):(?P<level>\d{1,2}):"
    r"(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,15})?):"
)
_CHOICE_BUTTON = _CHOICE + r"(?P<index>\d{1,3})"  # the option's index
_CHOICE_SELECT = _CHOICE + r"s(?P<index>\d{1,3})"  # the index of the page's first option


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=_CHOICE_BUTTON):
    """One option of a move choice, as a button."""

    def __init__(self, custom_id: str, *, label: str | None = None, **button: Any) -> None:
        self.custom_id_ = custom_id
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route_choice(interaction, _CHOICE_BUTTON, self.custom_id_, None)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=_CHOICE_SELECT):
    """One page (at most 25 options) of a move choice, as a select menu."""

    def __init__(self, custom_id: str, **select: Any) -> None:
        self.custom_id_ = custom_id
        super().__init__(discord.ui.Select(custom_id=custom_id, **select))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceSelect:
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or [""]
        await _route_choice(interaction, _CHOICE_SELECT, self.custom_id_, str(values[0]))


async def _route_choice(
    interaction: discord.Interaction, template: str, custom_id: str, value: str | None
) -> None:
    parts = re.fullmatch(template, custom_id)
    assert parts is not None  # discord.py matched the template before calling back
    index = value if value is not None else parts["index"]
    await _service(interaction).on_choice(
        interaction,
        match_id=int(parts["match"]),
        turn=int(parts["turn"]),
        where=parts["where"],
        level=int(parts["level"]),
        path=decode_path(parts["path"]),
        index=int(index) if index.isascii() and index.isdigit() and len(index) <= 3 else -1,
    )


def form_items(match_id: int, turn: int, where: str, form: Form[object]) -> list[discord.ui.DynamicItem[Any]]:
    """The components of a form, level by level, in at most `CONTROL_ROWS` rows."""
    items: list[discord.ui.DynamicItem[Any]] = []
    path = encode_path(form.path)
    row = 0
    for level, choice in enumerate(form.choices):
        prefix = f"m:{match_id}:{turn}:{where}:{level}:{path}"
        select = as_select(choice) or row + rows_needed(choice) > CONTROL_ROWS
        needed = rows_needed(replace(choice, select=select))
        if row + needed > CONTROL_ROWS:
            raise ValueError(f"The choices of match {match_id} need more than {CONTROL_ROWS} rows")
        items += _select(prefix, choice, row) if select else _buttons(prefix, choice, row)
        row += needed
    return items


def plain(text: str, limit: int) -> str:
    """`text` as a label shows it: Discord renders no markdown there, so an escape would show
    its backslash; cut to `limit` characters with an ellipsis."""
    text = MARKDOWN_ESCAPE.sub(r"\1", text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _buttons(prefix: str, choice: Choice[object], row: int) -> list[discord.ui.DynamicItem[Any]]:
    return [
        ChoiceButton(
            f"{prefix}:{index}",
            label=plain(option.label, BUTTON_LABEL_LIMIT),
            emoji=option.emoji,
            style=STYLES["primary"] if option.selected else STYLES[option.style],
            disabled=option.disabled,
            row=row + index // choice.columns,
        )
        for index, option in enumerate(choice.options)
    ]


def _select(prefix: str, choice: Choice[object], row: int) -> list[discord.ui.DynamicItem[Any]]:
    pages = [(start, page) for start, page in select_pages(choice) if any(not o.disabled for o in page)]
    return [
        ChoiceSelect(
            f"{prefix}:s{start}",
            placeholder=page_placeholder(choice, page, len(pages)),
            options=[
                discord.SelectOption(
                    label=plain(option.label, SELECT_TEXT_LIMIT),
                    value=str(start + offset),
                    description=plain(option.description, SELECT_TEXT_LIMIT) if option.description else None,
                    emoji=option.emoji,
                    default=option.selected,
                )
                for offset, option in enumerate(page)
                if not option.disabled
            ],
            row=row + number,
        )
        for number, (start, page) in enumerate(pages)
    ]


LOBBY_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}
COMPUTER_LEVELS = {
    "easy": (N_("Add a computer (easy)"), N_("Makes mistakes, as a beginner does")),
    "normal": (N_("Add a computer (normal)"), N_("Plays soundly")),
    "hard": (N_("Add a computer (hard)"), N_("Plays as well as it can")),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"lobby:(?P<match>\d{1,12}):(?P<action>join|leave|start|cancel)",
):
    """Join / Leave / Start / Cancel under a lobby."""

    def __init__(self, match_id: int, action: str, lang: str) -> None:
        self.match_id, self.action = match_id, action
        label, style = LOBBY_ACTIONS[action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=gettext(lang, label), style=style, custom_id=f"lobby:{match_id}:{action}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["match"]), match["action"], "en")  # the label is not shown again

    async def callback(self, interaction: discord.Interaction) -> None:
        await _service(interaction).on_lobby(interaction, self.match_id, self.action)


REMOVE = "remove"  # the lobby menu's choice that takes the last computer off its seat


class LobbyComputers(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"lobbyc:(?P<match>\d{1,12})"
):
    """The host's menu under a lobby: seat a computer at a level, or remove one."""

    def __init__(self, match_id: int, lang: str) -> None:
        self.match_id = match_id
        options = [
            discord.SelectOption(
                label=gettext(lang, label), value=level, emoji="🤖", description=gettext(lang, about)
            )
            for level, (label, about) in COMPUTER_LEVELS.items()
        ]
        remove = gettext(lang, "Remove a computer")
        options.append(discord.SelectOption(label=remove, value=REMOVE, emoji="➖"))
        placeholder = gettext(lang, "🤖 Add a computer…")
        super().__init__(
            discord.ui.Select(custom_id=f"lobbyc:{match_id}", placeholder=placeholder, options=options)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyComputers:
        return cls(int(match["match"]), "en")  # the options are not shown again

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await _service(interaction).on_lobby_computer(interaction, self.match_id, values[0] if values else "")


def lobby_items(match_id: int, lang: str) -> list[discord.ui.DynamicItem[Any]]:
    """The lobby's buttons and the host's computer menu, in `lang`."""
    buttons: list[discord.ui.DynamicItem[Any]] = [
        LobbyButton(match_id, action, lang) for action in LOBBY_ACTIONS
    ]
    return [*buttons, LobbyComputers(match_id, lang)]


def items_view(items: list[discord.ui.DynamicItem[Any]]) -> discord.ui.View:
    """A never-expiring view holding `items` (all dynamic, so nothing is kept in memory)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


DYNAMIC_ITEMS = (ChoiceButton, ChoiceSelect, GameButton, GameSelect, LobbyButton, LobbyComputers)


def answered_by(items: tuple[type[discord.ui.DynamicItem[Any]], ...], custom_id: str) -> bool:
    """Whether one of the dynamic `items` takes a press of `custom_id`."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)
