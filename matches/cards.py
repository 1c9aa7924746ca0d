"""Cards: boards, lobbies and finished boards as Discord's Components V2 messages.

A card is one container with an accent colour: a heading (with the lines under it), the
picture in a media gallery (its description the alt text), named parts (the players, the
ratings), the controls in action rows inside it, and a footer in small print. Mentions in its
text displays render as names; whom they ping is the message's `allowed_mentions`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

ROW_WIDTH = 5  # a row holds five buttons, or one menu (as wide as five)
COMPONENT_LIMIT = 40  # components of one V2 message, nested ones included
TEXT_LIMIT = 4000  # characters of all the text displays of one V2 message


@dataclass(frozen=True)
class Card:
    """What a card shows; `picture` names the attached file its gallery shows, `alt` says it."""

    heading: str
    body: str = ""
    parts: tuple[tuple[str, str], ...] = ()
    footer: str = ""
    accent: discord.Colour | None = None
    picture: str | None = None
    alt: str | None = None
    items: Sequence[discord.ui.Item[Any]] = ()


def card_view(card: Card) -> discord.ui.LayoutView:
    """The card as a never-expiring layout view (its controls dynamic: nothing kept in memory)."""
    heading = f"## {card.heading}" + (f"\n{card.body}" if card.body else "")
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(heading)]
    if card.picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{card.picture}", description=card.alt or None)
        children.append(discord.ui.MediaGallery(item))
    children += [discord.ui.TextDisplay(f"**{name}**\n{value}") for name, value in card.parts]
    children += control_rows(card.items)
    if card.footer:  # small print, every line of it
        children.append(discord.ui.TextDisplay("\n".join(f"-# {line}" for line in card.footer.splitlines())))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children, accent_colour=card.accent))
    return view


def card_message(card: Card) -> dict[str, Any]:
    """The arguments of a message showing `card`: the people it names show as names, and nobody
    is pinged."""
    return {"view": card_view(card), "allowed_mentions": discord.AllowedMentions.none()}


def text_size(card: Card) -> int:
    """How many characters the text displays of `card` hold (a V2 message holds `TEXT_LIMIT`)."""
    view = card_view(card)
    return sum(len(item.content) for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay))


def note_view(text: str) -> discord.ui.LayoutView:
    """A message of words alone, as a card's message can still become (a board that moved)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    return view


def control_rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """The controls in rows: those that name a row in it (in the rows' order), then the others
    filling rows in turn."""
    placed: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in items:
        if item.row is not None:
            placed.setdefault(item.row, []).append(item)
    rows = [placed[row] for row in sorted(placed)]
    free: list[discord.ui.Item[Any]] = []
    for item in (item for item in items if item.row is None):
        if sum(each.width for each in free) + item.width > ROW_WIDTH:
            rows.append(free)
            free = []
        free.append(item)
    if free:
        rows.append(free)
    return [discord.ui.ActionRow(*row) for row in rows]


def colour(rgb: tuple[int, int, int]) -> discord.Colour:
    return discord.Colour.from_rgb(*rgb)
