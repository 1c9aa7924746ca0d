"""Steps every end-to-end test takes: open a lobby, seat players, start, read the board."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord
from simcord.actors import _component_interaction, _visible_message

SETTLE_S = 30.0  # wall-clock seconds SimCord waits for the bot to settle (its default: 5)

# "**Turn 3:** <@1> …", "**Zug 3:** <@1> …", "**Tour 3 :** à <@1> …"
TO_MOVE = re.compile(r"\*\*\w+ \d+\s?:\*\* (?:à )?<@(\d+)>")


async def open_and_start(channel: Any, host: Any, guests: list[Any], command: str, **options: Any):
    """`/<command>` by the host, Join by each guest, Start by the host; returns the board."""
    result = await host.slash(channel, command, **options)
    lobby = result.response.message
    for guest in guests:
        joined = await guest.click(lobby, label="Join")
        assert joined.acknowledged and not joined.ephemeral
    started = await host.click(lobby, label="Start")
    assert started.acknowledged
    return channel_message(channel, lobby.id)


def channel_message(channel: Any, message_id: int, viewer: Any = None) -> Any:
    """The current state of one message in the channel."""
    history = channel.history(viewer=viewer) if viewer is not None else channel.history()
    return next(m for m in history if m.id == message_id)


def components(message: Any) -> list[Any]:
    return [child for row in message.components for child in row.children]


def button_labels(message: Any) -> list[str]:
    return [child.label for child in components(message) if isinstance(child, discord.Button)]


REFUSED = "⚠️ "  # opens the line of a private reply that says why a press in it was refused


def told(result: Any) -> str:
    """What a press was answered privately: its ephemeral reply, its ephemeral follow-ups (a
    refused pick in a menu first redraws the menu, clearing the pick, then says why), or the
    refusal atop the private reply it was made in, redrawn in place."""
    response = result.response
    texts = [response.content] if result.ephemeral and response is not None else []
    if not result.ephemeral and response is not None and response.ephemeral:
        texts += [
            line.removeprefix(REFUSED)
            for line in response.content.splitlines()[:1]
            if line.startswith(REFUSED)
        ]
    texts += [message.content for message in result.followups if message.ephemeral]
    return "\n".join(texts)


def ephemerals(channel: Any, member: Any) -> list[Any]:
    """The ephemeral messages `member` sees in the channel (only theirs can be seen)."""
    return [message for message in channel.history(viewer=member) if message.flags.ephemeral]


def token_of(result: Any) -> str:
    """The token of the interaction behind a SimCord result (SimCord offers no public accessor)."""
    return result._interaction.token


def footer_move(board: Any) -> int:
    """The move number a board's footer shows."""
    return int(re.findall(r"\d+", board.embeds[0].footer.text)[-1])  # "match 1 · move 3", "partie 1 · coup 3"


async def play_on_board(member: Any, channel: Any, board_id: int) -> None:
    """Make one move for `member` on the board: at the deepest level of its form, the last
    option on offer (in Tetris Link, the drop of the piece as it stands)."""
    start = footer_move(channel_message(channel, board_id))
    for _ in range(10):
        board = channel_message(channel, board_id)
        if footer_move(board) != start:
            return
        offered = [c for c in components(board) if (c.custom_id or "").startswith("m:") and not c.disabled]
        deepest = max(int(c.custom_id.split(":")[4]) for c in offered)
        choice = [c for c in offered if int(c.custom_id.split(":")[4]) == deepest][-1]
        if isinstance(choice, discord.SelectMenu):
            result = await member.select(board, [choice.options[0].value], custom_id=choice.custom_id)
        else:
            result = await member.click(board, custom_id=choice.custom_id)
        assert result.acknowledged and not told(result), told(result)
    raise AssertionError("no move was made")


def mover(board: Any, members: list[Any]) -> Any | None:
    """The member the board names as the one to move, or None when the game is over."""
    found = TO_MOVE.search(board.embeds[0].description or "")
    if found is None:
        return None
    return next(m for m in members if m.user.id == int(found[1]))


async def forge(player: Any, message: Any, custom_id: str, values: list[str] | None = None) -> Any:
    """A press a modified client could send from `message`: any custom_id, any values.

    Discord.py takes a press only for a component the message holds, so the forged one rides
    on the message the press carries; SimCord's actors press only real components, hence its
    dispatch is used directly."""
    stored = _visible_message(player, message)
    if values is None:
        component = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
    else:
        options = [{"label": value, "value": value} for value in values]
        component = {"type": 3, "custom_id": custom_id, "options": options}
    rows = [dict(row, components=list(row["components"])) for row in stored.components]
    if len(rows) < 5:
        rows.append({"type": 1, "components": [component]})
    else:  # a message holds five rows at most: the forged press rides in the last one
        rows[-1]["components"] = [component]
    carried = replace(stored, components=rows)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    return await _component_interaction(player, carried, data)
