"""Steps every end-to-end test takes: open a lobby, seat players, start, read the board."""

from __future__ import annotations

from typing import Any


async def open_and_start(channel: Any, host: Any, guests: list[Any], command: str, **options: Any):
    """`/<command>` by the host, Join by each guest, Start by the host; returns the board message."""
    result = await host.slash(channel, command, **options)
    lobby = result.response.message
    for guest in guests:
        joined = await guest.click(lobby, label="Join")
        assert joined.acknowledged and not joined.ephemeral
    started = await host.click(lobby, label="Start")
    assert started.acknowledged
    return channel_message(channel, lobby.id)


def channel_message(channel: Any, message_id: int) -> Any:
    """The current state of one message in the channel."""
    return next(m for m in channel.history() if m.id == message_id)


def button_labels(message: Any) -> list[str]:
    return [child.label for row in message.components for child in row.children]


def custom_ids(message: Any) -> list[str]:
    return [child.custom_id for row in message.components for child in row.children]
