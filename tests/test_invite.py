"""The README's invite asks Discord for every permission the bot uses, threads included."""

from __future__ import annotations

import re
from pathlib import Path

import discord

README = Path(__file__).resolve().parent.parent / "README.md"
# What the bot does in a match's channel: read and post boards with images, and with
# `/settings threads on` open a thread per match and post in it.
NEEDED = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
NAMES = (
    "View Channels",
    "Send Messages",
    "Embed Links",
    "Attach Files",
    "Read Message History",
    "Create Public Threads",
    "Send Messages in Threads",
)


def test_the_readmes_permission_integer_and_invite_url_grant_what_the_bot_needs():
    text = " ".join(README.read_text(encoding="utf-8").split())

    found = re.findall(r"permission integer `(\d+)`|permissions=(\d+)", text)
    integers = {int(number) for pair in found for number in pair if number}

    assert integers == {NEEDED.value}
    listed = re.search(r"the bot permissions \*\*(.+?)\*\*", text)
    assert listed is not None and tuple(listed[1].split(", ")) == NAMES
