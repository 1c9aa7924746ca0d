"""Messages to players outside the board: the ping of whoever is due, DM notices and
reminders, and the note in the channel when a player's DMs are closed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import discord

from data.model import SetAside, StorageUnavailable, is_computer
from data.repositories import Database, SettingsRepository
from locales import DEFAULT, command, gettext, pgettext
from locales.audience import REMEMBERED_MEMBERS, dm_language, picker_language
from matches.game_ui import AnyGameUI
from matches.match import Match, help_text, humans, mentions, private_payload
from matches.private import private_reply
from matches.refusals import DELETED, REMOVED, lost_place, resumable
from matches.spec import Games

log = logging.getLogger(__name__)
CANNOT_DM = 50007  # Discord: "Cannot send messages to this user" (closed DMs, or a block)


class ClosedDms:
    """Members whose DMs Discord refused (50007): none is sent another until they next use one of
    the bot's commands (a press under a board, made every turn, is no sign they opened them). Kept
    in the database (it outlasts matches and restarts) and, once read, in memory."""

    def __init__(self, settings: SettingsRepository, capacity: int = REMEMBERED_MEMBERS) -> None:
        self.settings = settings
        self.capacity = capacity
        self.known: dict[int, bool] = {}  # user id → closed, the least recently noted first

    async def closed(self, user_id: int) -> bool:
        if user_id not in self.known:
            self._note(user_id, await self.settings.dms_closed(user_id))
        return self.known[user_id]

    async def close(self, user_id: int) -> None:
        await self.settings.set_dms_closed(user_id, True)
        self._note(user_id, True)

    async def used_bot(self, user_id: int) -> None:
        """The member used the bot: their DMs are tried again. A database fault is logged."""
        try:
            if await self.closed(user_id):
                await self.settings.set_dms_closed(user_id, False)
                self._note(user_id, False)
        except StorageUnavailable as error:
            log.warning("Could not open the DMs of member %s again: %s", user_id, error)

    def _note(self, user_id: int, closed: bool) -> None:
        self.known.pop(user_id, None)
        self.known[user_id] = closed
        if len(self.known) > self.capacity:
            del self.known[next(iter(self.known))]


class Notices:
    """Pings in the channel and DMs to players."""

    def __init__(
        self, bot: discord.Client, storage: Database, games: Mapping[str, AnyGameUI], specs: Games
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.games = games
        self.specs = specs
        self.closed_dms = ClosedDms(storage.settings)

    async def due(self, match: Match, seats: list[int]) -> None:
        """Ping the players newly due and DM them their notice — once per turn: a turn published
        again (a redraw, a repost, a restart, a seat handed to a computer) pings nobody twice."""
        if not humans([match.players[seat] for seat in seats]):
            await self.clear_ping(match)  # a computer's turn pings nobody: the last ping goes
            return
        try:
            if not await self.storage.matches.claim_ping(match.id, turn=match.turn):
                return
        except StorageUnavailable as error:  # rather a turn without a ping than pings without end
            log.warning("The players due in match %s are not pinged: %s", match.id, error)
            return
        await self._ping(match, seats)
        for seat in seats:
            await self.notify(match, seat)

    async def _ping(self, match: Match, seats: list[int]) -> None:
        """Mention the people now due (an edit pings nobody), replacing the last ping.
        Only through `due`, which claims the turn's one ping."""
        due = mentions([match.players[seat] for seat in seats])
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        try:
            text = gettext(
                match.language,
                "{players} — your turn in **{game} #{id}**: {link}",
                players=due,
                game=match.engine.title,
                id=match.id,
                link=match.jump_url(),
            )
            message = await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            if lost_place(error):
                raise  # the match is set aside: nothing more goes to its channel
            log.warning("Could not ping in match %s: %s", match.id, error)
            return
        await self.clear_ping(match)
        match.row.ping_message_id = message.id
        await self.storage.matches.set_ping_message(match.id, message.id)

    async def clear_ping(self, match: Match) -> None:
        old = match.row.ping_message_id
        if old is None:
            return
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
            await channel.get_partial_message(old).delete()
        if match.row.ping_message_id == old:
            match.row.ping_message_id = None
            await self.storage.matches.set_ping_message(match.id, None)

    async def notify(self, match: Match, seat: int) -> None:
        """DM the player whose turn it is, with their private view (a computer needs none)."""
        if is_computer(match.players[seat]):
            return
        lang = await self._dm_language(match.players[seat])
        reply = await asyncio.to_thread(private_reply, self.games[match.row.game], match, seat, lang)
        notice = gettext(
            lang,
            "Your turn in **{game} #{id}**: {link}",
            game=match.engine.title,
            id=match.id,
            link=match.jump_url(),
        )
        payload = private_payload(reply, lang, interactive=False)
        payload["content"] = f"{notice}\n{payload['content']}"
        await self.dm(match, seat, payload)

    async def remind(self, match: Match) -> None:
        """DM the players due that their time runs out soon."""
        due = int(datetime.fromisoformat(match.row.deadline).timestamp()) if match.row.deadline else 0
        for seat in match.engine.current_seats(match.state):
            if is_computer(match.players[seat]):
                continue
            text = gettext(
                await self._dm_language(match.players[seat]),
                "⏰ Your time in **{game} #{id}** runs out <t:{due}:R>: {link}",
                game=match.engine.title,
                id=match.id,
                due=due,
                link=match.jump_url(),
            )
            await self.dm(match, seat, {"content": text})

    async def _dm_language(self, user_id: int) -> str:
        """The language of a member's DMs; English while the database cannot say."""
        try:
            return await dm_language(self.storage.settings, user_id)
        except StorageUnavailable as error:
            log.warning("The language of member %s is unknown for now: %s", user_id, error)
            return DEFAULT

    async def dm(self, match: Match, seat: int, payload: dict[str, Any]) -> None:
        """Send a DM (none to a computer); closed DMs are said in the channel, once per
        player and match."""
        user_id = match.players[seat]
        if is_computer(user_id) or await self._refused_before(user_id):
            return
        refused = await self._send_dm(user_id, payload)
        if isinstance(refused, discord.Forbidden):
            await self._dms_closed(match, seat)
        elif refused is not None:
            log.warning("Could not DM user %s: %s", user_id, refused)

    async def _send_dm(self, user_id: int, payload: dict[str, Any]) -> discord.HTTPException | None:
        """DM a member; Discord's refusal if it refused (closed DMs, 50007, are remembered)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**payload)
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden) and error.code == CANNOT_DM:
                await self._close_dms(user_id)
            return error
        return None

    async def _refused_before(self, user_id: int) -> bool:
        """Whether Discord refused the member's DMs since they last used the bot (not known while
        the database cannot say: then the DM is tried)."""
        try:
            return await self.closed_dms.closed(user_id)
        except StorageUnavailable as error:
            log.warning("Whether member %s takes DMs is unknown for now: %s", user_id, error)
            return False

    async def _close_dms(self, user_id: int) -> None:
        try:
            await self.closed_dms.close(user_id)
        except StorageUnavailable as error:
            log.warning("Could not note the closed DMs of member %s: %s", user_id, error)

    async def set_aside(self, aside: SetAside) -> None:
        """Tell the players of a match that could not be resumed what became of it."""
        lang = aside.language
        text = gettext(
            lang,
            "{players} — **{game} #{id}** could not be resumed after a restart ({reason}), so it is "
            "set aside: its moves are kept, the match ends here unrated. Start a new one any time "
            "(see {help}).",
            players=mentions(aside.players),
            game=self.specs.title_of(aside.game),
            id=aside.id,
            reason=gettext(lang, aside.reason),
            help=help_text(picker_language(self.bot, lang)),
        )
        channel = self.bot.get_partial_messageable(aside.channel_id)
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            log.warning("Could not tell the players of set-aside match %s: %s", aside.id, error)

    async def place_lost(self, aside: SetAside) -> None:
        """Tell each person of a match set aside for a place the bot lost (`aside.reason`) what
        became of it, once, by DM in their language; those the bot cannot DM are told in the
        match's channel if it still exists (a permission lost there may not be the one to post)."""
        unreached = []
        for user_id in humans(list(aside.players)):
            if await self._refused_before(user_id):
                unreached.append(user_id)
                continue
            text = _paused_text(
                aside, self.specs.title_of(aside.game), await self._dm_language(user_id), self.bot
            )
            if (refused := await self._send_dm(user_id, {"content": text})) is not None:
                log.info("Could not tell member %s of set-aside match %s: %s", user_id, aside.id, refused)
                unreached.append(user_id)
        if not unreached or aside.reason in (DELETED, REMOVED):
            return
        paused = _paused_text(aside, self.specs.title_of(aside.game), aside.language, self.bot)
        text = pgettext(
            aside.language,
            "mentions before a notice",
            "{players} — {notice}",
            players=mentions(unreached),
            notice=paused,
        )
        channel = self.bot.get_partial_messageable(aside.channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException as error:
            log.info("Could not tell the players of set-aside match %s in its channel: %s", aside.id, error)

    async def _dms_closed(self, match: Match, seat: int) -> None:
        user_id = match.players[seat]
        if user_id in match.dm_closed:
            return
        match.dm_closed.add(user_id)
        lang = match.language
        text = gettext(
            lang,
            "{player}, I cannot send you direct messages, so your turn notices come here. "
            "Use the **{button}** button on the board to see what only you may see.",
            player=f"<@{user_id}>",
            button=gettext(lang, self.games[match.row.game].private_label),
        )
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        try:  # named, not pinged: the turn's one ping went out already
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            if lost_place(error):
                raise  # the match is set aside: nothing more goes to its channel
            log.warning("Could not say in match %s that member %s takes no DMs: %s", match.id, user_id, error)


def _paused_text(aside: SetAside, game: str, lang: str, client: discord.Client) -> str:
    """What became of a match (of the game titled `game`) set aside for a place the bot lost, in `lang`."""
    reason = gettext(lang, aside.reason)
    if not resumable(aside.reason):
        return gettext(
            lang,
            "**{game} #{id}** ends here: {reason}. Its moves are kept; the match is unrated.",
            game=game,
            id=aside.id,
            reason=reason,
        )
    return gettext(
        lang,
        "⏸️ **{game} #{id}** is paused: {reason}. Its moves are kept and its clock is stopped. Once I "
        "may post in its channel again, any of its players can resume it with `{matches}` → **Board ↓**.",
        game=game,
        id=aside.id,
        reason=reason,
        matches=command(picker_language(client, lang), "matches"),
    )
