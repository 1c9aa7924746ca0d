"""Steps every end-to-end test takes: open a lobby, seat players, start, read the board."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import discord
from simcord.actors import _component_interaction, _visible_message
from simcord.results import ResponseMessage

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


# What a player reads on a message: its title, its body (the lines under the title), its named
# parts (the players, the ratings, a game's record…), its footer and its picture. Boards, lobbies
# and finished boards show them in a Components V2 card (text displays in a container), lists and
# rules in an embed; tests read them only through these helpers.


class Part(NamedTuple):
    """A named part of a message: the players, the ratings, one game's record in /stats…"""

    name: str
    value: str


@dataclass(frozen=True)
class Card:
    """The readable parts of a message, however it draws them."""

    title: str
    body: str
    fields: list[Part]
    footer: str


def as_message(message: Any) -> Any:
    """The `discord.Message` behind a message or an interaction's response (SimCord's
    `ResponseMessage` holds raw component dictionaries; its `.message` is the real thing)."""
    return message.message if isinstance(message, ResponseMessage) else message


def readable(message: Any) -> Card:
    """Title, body, named parts and footer of `message`: a message, an interaction's response, an
    embed, a message as SimCord stores it or a request's JSON (a message as Discord's JSON). All
    empty when the message shows only words."""
    return _card(message) or Card("", "", [], "")


def has_card(message: Any) -> bool:
    """Whether `message` shows a card (a board, a lobby, a list), not only words."""
    return _card(message) is not None


def _card(message: Any) -> Card | None:
    if isinstance(message, discord.Embed):
        return _embed_card(message)
    texts = text_displays(message)
    if texts and texts[0].startswith("#"):  # a card opens with its heading
        return _v2_card(texts)
    embeds = message.get("embeds") if isinstance(message, dict) else as_message(message).embeds
    if not embeds:
        return None
    embed = embeds[0]
    return _embed_card(embed if isinstance(embed, discord.Embed) else discord.Embed.from_dict(embed))


TEXT_DISPLAY, MEDIA_GALLERY = 10, 12  # component types of Components V2


def _components(message: Any) -> list[Any]:
    """The top-level components of a message, as discord.py's objects or Discord's JSON."""
    if isinstance(message, dict):
        return list(message.get("components") or [])
    return list(as_message(message).components or [])


def _walk_any(items: list[Any]) -> list[Any]:
    """Every component, nested ones after the one that holds them, objects or JSON alike."""
    found = []
    for item in items:
        found.append(item)
        if isinstance(item, dict):
            found += _walk_any(list(item.get("components") or []))
            if item.get("accessory") is not None:
                found += _walk_any([item["accessory"]])
        else:
            found += _walk_any(list(getattr(item, "children", [])))
            if getattr(item, "accessory", None) is not None:
                found += _walk_any([item.accessory])
    return found


def text_displays(message: Any) -> list[str]:
    """The texts of a V2 message's text displays, in order ([] for a message of another form)."""
    texts = []
    for item in _walk_any(_components(message)):
        if isinstance(item, dict) and item.get("type") == TEXT_DISPLAY:
            texts.append(item.get("content") or "")
        elif isinstance(item, discord.TextDisplay):
            texts.append(item.content)
    return texts


def card_size(message: Any) -> tuple[int, int]:
    """How many components a message holds (nested ones included, as Discord counts them for
    its limit of 40 in a V2 message) and how many characters its text displays hold (4,000)."""
    every = _walk_any(_components(message))
    return len(every), sum(len(text) for text in text_displays(message))


NAMED = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*\n(?P<value>.*)", re.DOTALL)  # "**Players**\nA · …"


def _v2_card(texts: list[str]) -> Card:
    """A card's parts from its text displays: a heading ("## title" and the lines under it),
    named parts ("**Players**" and their lines), a footer in small print ("-# …")."""
    first, *rest = texts
    title, body = "", first
    if first.startswith("#"):
        title, _, body = first.partition("\n")
        title = title.lstrip("#").strip()
    footer = ""
    if rest and rest[-1].startswith("-# "):
        footer = "\n".join(line.removeprefix("-# ") for line in rest.pop().splitlines())
    parts = []
    for text in rest:
        named = NAMED.fullmatch(text)
        if named is not None:
            parts.append(Part(named["name"], named["value"]))
        else:
            body = f"{body}\n{text}" if body else text
    return Card(title, body, parts, footer)


def _content(message: Any) -> str:
    """A message's words outside a card: its content, or the text displays of a V2 message that
    shows no card (an old board pointing to the new one)."""
    if isinstance(message, discord.Embed):
        return ""
    content = message.get("content") if isinstance(message, dict) else as_message(message).content
    texts = text_displays(message)
    return content or ("\n".join(texts) if texts and not texts[0].startswith("#") else "")


def _embed_card(embed: discord.Embed) -> Card:
    parts = [Part(field.name or "", field.value or "") for field in embed.fields]
    return Card(embed.title or "", embed.description or "", parts, embed.footer.text or "")


def title(message: Any) -> str:
    """The heading: the game and the match's number, a lobby's name, a list's name."""
    return readable(message).title


def body(message: Any) -> str:
    """The lines under the heading: notes, whose turn it is, the clock, the result."""
    return readable(message).body


def fields(message: Any) -> list[Part]:
    """The named parts, in order."""
    return readable(message).fields


def field(message: Any, name: str) -> str:
    """The text of the part called `name` ("Players", "Ratings", a game's name in /stats…)."""
    parts = dict(fields(message))
    assert name in parts, f"no part called {name!r}; there are {list(parts)}"
    return parts[name]


def roster(message: Any) -> str:
    """A board's list of players and scores, in any language (its first named part)."""
    parts = fields(message)
    return parts[0].value if parts else ""


def footer(message: Any) -> str:
    """The small print at the bottom: the match's number and its move, a page number."""
    return readable(message).footer


def all_text(message: Any) -> str:
    """Everything `message` says in words, its content first, one part a line."""
    shown = readable(message)
    parts = [part for named in shown.fields for part in named]
    texts = (_content(message), shown.title, shown.body, *parts, shown.footer)
    return "\n".join(text for text in texts if text)


@dataclass(frozen=True)
class Picture:
    """The image a message shows, with its description (alt text)."""

    attachment: discord.Attachment
    description: str | None

    @property
    def filename(self) -> str:
        return self.attachment.filename

    async def read(self) -> bytes:
        """The uploaded PNG's bytes."""
        return await self.attachment.read()


def board_image(message: Any) -> Picture:
    """The image of a board (its card's gallery, or a private reply's attachment) and its
    description (the gallery item's: the alt text a screen reader reads)."""
    shown = as_message(message)
    assert shown.attachments, f"message {shown.id} shows no image"
    galleries = [item for item in _walk(shown.components) if isinstance(item, discord.MediaGalleryComponent)]
    if not galleries:
        attachment = shown.attachments[0]
        return Picture(attachment, attachment.description)
    [item] = galleries[0].items
    url = item.media.url
    attachment = next(
        (a for a in shown.attachments if a.url == url or url.endswith(f"/{a.filename}")), shown.attachments[0]
    )
    return Picture(attachment, item.description)


def channel_message(channel: Any, message_id: int, viewer: Any = None) -> Any:
    """The current state of one message in the channel."""
    history = channel.history(viewer=viewer) if viewer is not None else channel.history()
    return next(m for m in history if m.id == message_id)


def components(message: Any) -> list[Any]:
    """The buttons and menus of a message, wherever they sit (rows, or the rows and sections of a
    card)."""
    interactive = (discord.Button, discord.SelectMenu)
    return [item for item in _walk(as_message(message).components) if isinstance(item, interactive)]


def _walk(items: list[Any]) -> list[Any]:
    """Every component in display order, nested ones after the one that holds them."""
    found = []
    for item in items:
        found.append(item)
        found += _walk(list(getattr(item, "children", [])))
        if getattr(item, "accessory", None) is not None:
            found += _walk([item.accessory])
    return found


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
    return int(re.findall(r"\d+", footer(board))[-1])  # "match 1 · move 3", "partie 1 · coup 3"


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
    found = TO_MOVE.search(body(board))
    if found is None:
        return None
    return next(m for m in members if m.user.id == int(found[1]))


CONTAINER = 17  # the component type of a Components V2 card


def _with_press(rows: list[dict[str, Any]], component: dict[str, Any]) -> list[dict[str, Any]]:
    """The message's components (as Discord's JSON) with `component` added in a row of its own:
    inside the card when the message is one, else below the others, or in the last of five."""
    rows = [dict(row, components=list(row.get("components", []))) for row in rows]
    card = next((row for row in rows if row.get("type") == CONTAINER), None)
    if card is not None:
        card["components"].append({"type": 1, "components": [component]})
    elif len(rows) < 5:
        rows.append({"type": 1, "components": [component]})
    else:  # a message holds five rows at most: the forged press rides in the last one
        rows[-1]["components"] = [component]
    return rows


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
    carried = replace(stored, components=_with_press(stored.components, component))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    return await _component_interaction(player, carried, data)
