"""Steps every end-to-end test takes: open a lobby, seat players, start, read the board."""

from __future__ import annotations

import re
from typing import Any

import discord

TO_MOVE = re.compile(r"\*\*Turn \d+:\*\* <@(\d+)>")


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


def mover(board: Any, members: list[Any]) -> Any | None:
    """The member the board names as the one to move, or None when the game is over."""
    found = TO_MOVE.search(board.embeds[0].description or "")
    if found is None:
        return None
    return next(m for m in members if m.user.id == int(found[1]))
