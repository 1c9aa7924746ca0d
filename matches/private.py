"""A seat's private reply: what it alone sees, with its choices when it is to move, kept
current on screen — after the seat's move (its own or the clock's) its private reply still on
screen is redrawn, so nothing it no longer holds (a card pushed back, a card played) stays in
view. A seat has one private reply per match on screen: a choice, a move or a refusal made in it
redraws it in place, and a new one (a press of the private button) deletes the older one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import discord

from locales import gettext
from locales.audience import private_language
from matches.components import form_items
from matches.game_ui import AnyGameUI
from matches.hints import hint_button, offers_hints
from matches.match import Match, PrivateReply, private_payload, standing, token_alive

log = logging.getLogger(__name__)
REFUSED = "⚠️"  # opens the line that says why a press in a private reply was refused


def private_reply(
    game: AnyGameUI, match: Match, seat: int, lang: str, path: tuple[int, ...] = ()
) -> PrivateReply:
    """What the seat alone sees, in `lang`, with its choices when it is to move (runs off the
    event loop)."""
    reply = described(match, seat, game.private_view(match, seat, lang), lang)
    if match.row.status != "running" or seat not in match.engine.current_seats(match.state):
        return reply
    if offers_hints(game, match):
        reply = replace(reply, items=[*reply.items, hint_button(match, lang)])
    legal = match.engine.legal_moves(match.state, seat)
    form = game.present(match.view(seat), legal, path, private=True, lang=lang)
    if not form.choices:
        return reply
    content = f"{reply.content}\n{form.caption}" if form.caption else reply.content
    return replace(reply, content=content, items=[*form_items(match.id, match.turn, "p", form), *reply.items])


def described(match: Match, seat: int, reply: PrivateReply, lang: str) -> PrivateReply:
    """The reply with its image described for screen readers: what the reply says (the seat's
    own, as only it sees the reply) and whose turn it is."""
    if reply.image is None or reply.alt:
        return reply
    alt = gettext(
        lang,
        "{game} #{id}, your private view: {content} {turn}",
        game=match.engine.title,
        id=match.id,
        content=reply.content,
        turn=standing(match.engine, match.state, lang, seat),
    )
    return replace(reply, alt=alt)


@dataclass(slots=True)
class Shown:
    """An ephemeral message on a player's screen (`message_id`), edited through `interaction`:
    the message it answered with, a follow-up of it, or the message it was pressed in."""

    interaction: discord.Interaction
    message_id: int | None
    followup: bool = False

    @classmethod
    def pressed(cls, interaction: discord.Interaction) -> Shown:
        """The private reply a press was made in: its response edits that message."""
        return cls(interaction, interaction.message.id if interaction.message is not None else None)

    async def edit(self, payload: dict[str, Any]) -> None:
        if self.followup and self.message_id is not None:
            await self.interaction.followup.edit_message(self.message_id, **payload)
        else:
            await self.interaction.edit_original_response(**payload)

    async def delete(self) -> None:
        if self.followup and self.message_id is not None:
            await self.interaction.followup.delete_message(self.message_id)
        else:
            await self.interaction.delete_original_response()


class PrivateReplies:
    """Sends private replies and remembers the one still on each seat's screen, to keep it
    current; it is forgotten before its interaction's token expires (no edit is tried after 14
    minutes: the next press in it or of the private button shows it anew), when Discord refuses
    to edit it (dismissed) or when its match ends."""

    def __init__(self, games: Mapping[str, AnyGameUI]) -> None:
        self.games = games
        self.shown: dict[tuple[int, int], list[Shown]] = {}

    def _remember(self, match: Match, seat: int, shown: Shown) -> None:
        """`shown` is the seat's reply on screen now: a press in it edits it in place."""
        kept = [old for old in self._on_screen(match, seat) if old.message_id != shown.message_id]
        self.shown[match.id, seat] = [*kept, shown]

    def _on_screen(self, match: Match, seat: int) -> list[Shown]:
        """The seat's replies still on screen that Discord lets the bot edit, forgetting them all:
        past their token's 15 minutes an edit would only be refused (the next press shows anew)."""
        return [shown for shown in self.shown.pop((match.id, seat), []) if token_alive(shown.interaction)]

    async def reply(self, match: Match, seat: int, lang: str, path: tuple[int, ...] = ()) -> PrivateReply:
        return await asyncio.to_thread(private_reply, self.games[match.row.game], match, seat, lang, path)

    async def send(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        """Answer a press of the private button with the seat's reply, in place of the older one."""
        turn, mine = match.turn, private_language(interaction)
        payload = private_payload(await self.reply(match, seat, mine), mine)
        sent = await interaction.response.send_message(**payload, ephemeral=True)
        await self._replace(match, seat, Shown(interaction, sent.message_id), turn)

    async def _replace(self, match: Match, seat: int, shown: Shown, turn: int) -> None:
        """A new reply of the seat is on screen: the older ones go (deleted, while Discord lets the
        bot); if a move came while it was on its way, it is redrawn."""
        for old in self._on_screen(match, seat):
            if old.message_id == shown.message_id:
                continue
            try:
                await old.delete()
            except discord.HTTPException as error:  # dismissed already
                log.info("An older private reply of match %s could not be deleted: %s", match.id, error)
        self.shown[match.id, seat] = [shown]
        if match.turn != turn:
            await self.refresh(match, seat)

    async def navigate(
        self, interaction: discord.Interaction, match: Match, seat: int, path: tuple[int, ...]
    ) -> None:
        """A choice in the private reply led one level deeper: redraw it there."""
        mine = private_language(interaction)
        payload = private_payload(await self.reply(match, seat, mine, path), mine, attachments=True)
        await interaction.response.edit_message(**payload)
        self._remember(match, seat, Shown.pressed(interaction))

    async def refuse(self, interaction: discord.Interaction, match: Match, seat: int, text: str) -> None:
        """A press in the seat's private reply was refused: redraw the reply in place, as it
        stands now (its menus ready to pick again), with why at its top."""
        mine = private_language(interaction)
        reply = await self.reply(match, seat, mine)
        said = replace(reply, content=f"{REFUSED} {text}\n{reply.content}")
        payload = private_payload(said, mine, attachments=True)
        if interaction.response.is_done():
            await interaction.edit_original_response(**payload)
        else:
            await interaction.response.edit_message(**payload)
        self._remember(match, seat, Shown.pressed(interaction))

    async def after_move(
        self, interaction: discord.Interaction, match: Match, seat: int, *, where: str
    ) -> None:
        """The seat moved: redraw its reply on screen; after a board move that leaves it more
        to decide in private (a card taken to peek at), show that privately."""
        if where == "p":
            self._remember(match, seat, Shown.pressed(interaction))
        await self.refresh(match, seat)
        if where == "b" and await self._has_private_choices(match, seat):
            turn, mine = match.turn, private_language(interaction)
            payload = private_payload(await self.reply(match, seat, mine), mine)
            message = await interaction.followup.send(**payload, ephemeral=True, wait=True)
            await self._replace(match, seat, Shown(interaction, message.id, followup=True), turn)

    async def refresh(self, match: Match, seat: int) -> None:
        """Redraw the seat's private replies still on screen; forget those Discord refuses."""
        shown = self._on_screen(match, seat)
        payloads: dict[str, dict[str, Any]] = {}  # by language: a member's replies speak theirs
        kept = []
        for message in shown:
            lang = private_language(message.interaction)
            if lang not in payloads:
                payloads[lang] = private_payload(await self.reply(match, seat, lang), lang, attachments=True)
            try:
                await message.edit(payloads[lang])
            except discord.HTTPException as error:  # dismissed
                log.info("A private reply of match %s could not be redrawn: %s", match.id, error)
            else:
                kept.append(message)
        if match.row.status != "running":
            self.forget(match)
        elif kept:
            self.shown[match.id, seat] = kept

    async def release(self, match: Match, seat: int, text: Callable[[str], str]) -> None:
        """The seat's player left it: their replies still on screen say `text` (in the reply's
        language) instead, and show nothing of the seat any more."""
        for message in self._on_screen(match, seat):
            said = text(private_language(message.interaction))
            try:
                await message.edit({"content": said, "attachments": [], "view": None})
            except discord.HTTPException as error:
                log.info("A private reply of match %s could not be cleared: %s", match.id, error)

    def forget(self, match: Match) -> None:
        for key in [key for key in self.shown if key[0] == match.id]:
            del self.shown[key]

    async def _has_private_choices(self, match: Match, seat: int) -> bool:
        if match.row.status != "running" or seat not in match.engine.current_seats(match.state):
            return False
        game = self.games[match.row.game]
        legal = match.engine.legal_moves(match.state, seat)
        form = game.present(match.view(seat), legal, (), private=True, lang="en")  # only counted
        return bool(form.choices)
