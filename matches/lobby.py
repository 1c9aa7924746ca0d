"""Lobbies: opening, joining, leaving, cancelling, starting, and rematches."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from ai import LEVELS
from data.model import MatchRow, RematchTaken, TooManyLobbies
from data.repositories import Database
from games import GameError
from locales import N_, command, gettext, ngettext, pgettext
from locales.audience import command_names, private_language, public_language
from matches.board import Board
from matches.cards import Card, card_view
from matches.clock import clock_for
from matches.components import REMOVE, lobby_items
from matches.deadlines import RunningMatches
from matches.game_ui import AnyGameUI
from matches.match import (
    MAX_OPEN_LOBBIES,
    Match,
    clock_text,
    computer_id,
    computer_level,
    error_text,
    help_text,
    humans,
    jump_url,
    later,
    level_name,
    match_title,
    mentions,
    players_text,
    seat_name,
    start_text,
    tell,
    who,
)
from matches.spec import Games

log = logging.getLogger(__name__)


class Lobby:
    """Seats players before a match and starts it (adding it to `running`)."""

    def __init__(
        self,
        storage: Database,
        running: RunningMatches,
        games: Mapping[str, AnyGameUI],
        specs: Games,
        board: Board,
    ) -> None:
        self.storage = storage
        self.running = running
        self.games = games
        self.specs = specs
        self.board = board

    async def open(
        self,
        interaction: discord.Interaction,
        game: AnyGameUI,
        options: Mapping[str, Any],
        clock: int | None = None,
        invited: list[int] | None = None,
        computers: tuple[str, ...] = (),
        rematch_of: int | None = None,
    ) -> None:
        """Post a lobby; `clock` is seconds per move (0: none; None: the server's default);
        `computers` the levels of the computer seats it starts with. Its public messages speak
        the server's language as it is now, for the whole match. A member who hosts
        `MAX_OPEN_LOBBIES` open lobbies on the server is shown them instead. With `rematch_of`,
        it is that match's rematch: `RematchTaken` if it has one already."""
        mine = private_language(interaction)
        if len(computers) >= game.engine.max_players or not set(computers) <= set(LEVELS):
            text = ngettext(
                mine,
                "{game} seats at most {n} computer beside you ({levels}) — try again with fewer.",
                "{game} seats at most {n} computers beside you, each {levels} — try again with fewer.",
                game.engine.max_players - 1,
                game=game.engine.title,
                levels=", ".join(level_name(level, mine) for level in LEVELS),
            )
            await tell(interaction, text)
            return
        if interaction.guild_id is None or interaction.channel_id is None:
            await tell(interaction, gettext(mine, "Matches are played in a server channel — use this there."))
            return
        missing = missing_permissions(interaction, mine)
        if missing:
            text = gettext(
                mine,
                "I need the {permissions} permission in this channel to host a match — "
                "ask a server admin to grant it, or use another channel.",
                permissions=missing,
            )
            await tell(interaction, text)
            return
        lang = await public_language(self.storage.settings, interaction)
        try:
            row = await self.storage.matches.open_lobby(
                game=game.game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                seed=random.SystemRandom().randrange(2**31),
                options=dict(options),
                clock_s=await clock_for(self.storage, interaction.guild_id, clock),
                invited=invited,
                language=lang,
                rematch_of=rematch_of,
                max_hosted=MAX_OPEN_LOBBIES,
            )
        except TooManyLobbies as refused:
            await tell(
                interaction,
                too_many_text(refused.lobbies, self.specs, mine, command_names(interaction)),
            )
            return
        for level in computers:
            await self.storage.matches.join_lobby(
                row.id, computer_id(row.players, level), game.engine.max_players
            )
            row = await self._reread(row)
        invitees = [user for user in invited or () if user != row.host_id]
        confirm = gettext(
            lang, "{players} — press **Join** to confirm the rematch.", players=mentions(invitees)
        )
        notes = [confirm] if invitees else []
        if await self._in_thread(interaction, game, row, notes):
            return
        lobby = self._opening(game, row, notes)
        try:
            await interaction.response.send_message(**lobby)
        except discord.HTTPException:
            await self.storage.matches.cancel_lobby(row.id)  # one nobody can see holds no place
            raise
        message = await interaction.original_response()
        await self.storage.matches.set_board_message(row.id, message.id)

    def _opening(self, game: AnyGameUI, row: MatchRow, notes: list[str]) -> dict[str, Any]:
        """A new lobby's message, `notes` atop its card; it pings only the players a rematch
        waits for (its card names the host and its seats too)."""
        waited = [discord.Object(user) for user in row.invited or () if user != row.host_id]
        return {**self._message(game, row, notes), "allowed_mentions": discord.AllowedMentions(users=waited)}

    async def _in_thread(
        self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow, notes: list[str]
    ) -> bool:
        """With `/settings threads on`, post the lobby in a thread of its own, leaving a line
        in the channel that links to it; False where threads are off or not possible here
        (where the bot may not create them, a note says so on the lobby)."""
        assert interaction.guild_id is not None
        if isinstance(interaction.channel, discord.Thread):
            return False  # a rematch inside a match's thread stays there
        if not (await self.storage.settings.for_guild(interaction.guild_id)).threads:
            return False
        lang = row.language
        title = match_title(game.engine.title, row.id, lang)
        note = gettext(
            lang,
            "(Threads are on, but I may not create threads here, so this match is played in the channel.)",
        )
        if not may_thread(interaction.app_permissions):  # no thread that would stay empty
            notes.append(note)
            return False
        await interaction.response.send_message(
            gettext(lang, "🧵 **{title}** — a new lobby, in its own thread.", title=title)
        )
        starter = await interaction.original_response()
        thread: discord.Thread | None = None
        try:
            thread = await starter.create_thread(name=title, auto_archive_duration=10080)
            message = await thread.send(**self._opening(game, row, notes))
        except discord.HTTPException as error:
            if thread is not None:
                await _discard(thread)
            await interaction.edit_original_response(**self._opening(game, row, [*notes, note]))
            log.info("Lobby %s stays in the channel: %s", row.id, error)
            await self.storage.matches.set_board_message(row.id, starter.id)
            return True
        await self.storage.matches.move_to_channel(row.id, thread.id)
        await self.storage.matches.set_board_message(row.id, message.id)
        await interaction.edit_original_response(
            content=gettext(
                lang, "🧵 **{title}** — a new lobby: join it in {thread}.", title=title, thread=thread.mention
            )
        )
        return True

    def _message(self, game: AnyGameUI, row: MatchRow, notes: Sequence[str] = ()) -> dict[str, Any]:
        """The lobby's card (`notes` atop its words) as the arguments of a message or an edit,
        which also turns a lobby drawn as an embed into a card."""
        engine, lang = game.engine, row.language
        host = gettext(lang, " (host)")
        seats = "\n".join(
            f"{seat_name(seat)} · {who(user, lang)}" + (host if user == row.host_id else "")
            for seat, user in enumerate(row.players)
        )
        if row.invited:
            waiting = ", ".join(who(user, lang) for user in row.invited if user not in row.players)
            how = gettext(
                lang,
                "A rematch: it starts when every player has pressed **Join** (waiting for {players}).",
                players=waiting,
            )
        else:
            how = gettext(
                lang,
                "Press **Join** to take a seat. The host may seat computers with the menu, and "
                "presses **Start** once {counts} players are seated.",
                counts=players_text(game.player_counts, lang),
            )
        seated = gettext(
            lang, "**Players ({seated}/{seats}):**", seated=len(row.players), seats=engine.max_players
        )
        setup = gettext(
            lang,
            "**Setup:** {options}; {clock}.",
            options=game.describe_options(row.options, lang),
            clock=clock_text(row.clock_s, lang),
        )
        body = "\n".join([*notes, seated, seats, "", setup, how])
        card = Card(
            heading=lobby_title(game, row),
            body=body,
            footer=gettext(lang, "match {id}", id=row.id),
            accent=discord.Colour.blurple(),
            items=lobby_items(row.id, lang),
        )
        return {"content": None, "embeds": [], "view": card_view(card)}

    async def _open_lobby(
        self, interaction: discord.Interaction, match_id: int, *, under_it: bool = True
    ) -> tuple[AnyGameUI, MatchRow] | None:
        """The open lobby a press belongs to — `under_it`, pressed under the lobby's own message
        (else from `/matches`) — or a private refusal."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        mine = private_language(interaction)
        if row is None or game is None or row.status != "lobby" or row.guild_id != interaction.guild_id:
            await tell(interaction, closed_text(mine, command_names(interaction)))
            return None
        if under_it and (interaction.message is None or interaction.message.id != row.message_id):
            text = gettext(mine, "These buttons belong under their lobby — use the lobby's own message.")
            await tell(interaction, text)
            return None
        return game, row

    async def on_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """Join / Leave / Start / Cancel pressed under a lobby."""
        found = await self._open_lobby(interaction, match_id)
        if found is None:
            return
        game, row = found
        user, mine = interaction.user.id, private_language(interaction)
        if action == "join":
            await self._join(interaction, game, row, user)
        elif action == "leave":
            await self._leave(interaction, game, row, user)
        elif user != row.host_id:
            await tell(interaction, gettext(mine, HOST_ONLY[action], host=who(row.host_id, mine)))
        elif action == "cancel":
            await self.storage.matches.cancel_lobby(match_id)
            await interaction.response.edit_message(**_cancelled(game, row))
            await self.board.close_thread(row.channel_id)
        else:
            await self._start(interaction, game, row)

    async def cancel_listed(self, interaction: discord.Interaction, match_id: int) -> None:
        """The host cancels a lobby from `/matches` — also one whose message was deleted, which
        would otherwise hold one of their places for good."""
        found = await self._open_lobby(interaction, match_id, under_it=False)
        if found is None:
            return
        game, row = found
        mine = private_language(interaction)
        if interaction.user.id != row.host_id:
            await tell(interaction, gettext(mine, HOST_ONLY["cancel"], host=who(row.host_id, mine)))
            return
        if not await self.storage.matches.cancel_lobby(match_id):  # started meanwhile
            await tell(interaction, closed_text(mine, command_names(interaction)))
            return
        await tell(interaction, gettext(mine, "Lobby #{id} is cancelled.", id=match_id))
        await self._edit_message(row, **_cancelled(game, row))
        await self.board.close_thread(row.channel_id)

    async def _edit_message(self, row: MatchRow, **payload: Any) -> None:
        """Edit a lobby's message from elsewhere than a press under it; one Discord refuses
        (deleted, out of reach) changes nothing of the lobby itself."""
        if row.message_id is None:
            return
        message = self.board.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        try:
            await message.edit(**payload)
        except discord.HTTPException as error:
            log.info("The message of lobby %s could not be redrawn: %s", row.id, error)

    async def on_computer(self, interaction: discord.Interaction, match_id: int, choice: str) -> None:
        """The host seats a computer at a level, or removes the last one seated."""
        found = await self._open_lobby(interaction, match_id)
        if found is None:
            return
        game, row = found
        computers = [user for user in row.players if computer_level(user)]
        mine = private_language(interaction)
        if interaction.user.id != row.host_id:
            text = gettext(
                mine, "Only the host, {host}, can seat computers in this lobby.", host=who(row.host_id, mine)
            )
            await tell(interaction, text)
        elif row.invited:
            text = gettext(
                mine, "A rematch keeps the seats of the last match — start a new one to change them."
            )
            await tell(interaction, text)
        elif choice == REMOVE and not computers:
            await tell(interaction, gettext(mine, "No computer is seated in this lobby."))
        elif choice == REMOVE:
            await self.storage.matches.leave_lobby(row.id, computers[-1])
            await self._redraw(interaction, game, row)
        elif choice not in LEVELS:
            await tell(
                interaction, gettext(mine, "That choice is no longer on offer — use the lobby's own menu.")
            )
        elif len(row.players) >= game.engine.max_players:
            text = gettext(
                mine,
                "This lobby is full — {game} seats {seats}.",
                game=game.engine.title,
                seats=game.engine.max_players,
            )
            await tell(interaction, text)
        elif await self.storage.matches.join_lobby(
            row.id, computer_id(row.players, choice), game.engine.max_players
        ):
            await self._redraw(interaction, game, row)
        else:
            await tell(interaction, gettext(mine, "This lobby just changed — try again."))

    async def _redraw(self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow) -> None:
        """Show the lobby's seats as stored now (the menu's pick cleared)."""
        await interaction.response.edit_message(**self._message(game, await self._reread(row)))

    async def _reread(self, row: MatchRow) -> MatchRow:
        """The lobby as stored now (as it was, should it no longer be readable)."""
        return await self.storage.matches.get(row.id) or row

    async def _join(
        self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow, user: int
    ) -> None:
        mine = private_language(interaction)
        start = start_text(game.start_command, command_names(interaction))
        if user in row.players:
            await tell(
                interaction, gettext(mine, "You already have a seat — wait for the host to press Start.")
            )
        elif row.invited and user not in row.invited:
            text = gettext(
                mine,
                "This rematch is for the players of the last match — start your own with {command}.",
                command=start,
            )
            await tell(interaction, text)
        elif len(row.players) >= game.engine.max_players:
            text = gettext(mine, "This lobby is full — start another match with {command}.", command=start)
            await tell(interaction, text)
        elif await self.storage.matches.join_lobby(row.id, user, game.engine.max_players):
            joined = await self.storage.matches.get(row.id)
            if joined is None:
                await tell(interaction, unreadable_text(mine, command_names(interaction)))
            elif joined.invited and set(humans(joined.players)) == set(joined.invited):
                await self._start(interaction, game, joined)
            else:
                await interaction.response.edit_message(**self._message(game, joined))
        else:
            await tell(interaction, gettext(mine, "This lobby just closed — start a new match."))

    async def _leave(
        self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow, user: int
    ) -> None:
        mine = private_language(interaction)
        if user == row.host_id:
            await tell(
                interaction, gettext(mine, "You are the host — press Cancel to close the lobby instead.")
            )
        elif await self.storage.matches.leave_lobby(row.id, user):
            left = await self.storage.matches.get(row.id)
            if left is None:
                await tell(interaction, unreadable_text(mine, command_names(interaction)))
            else:
                await interaction.response.edit_message(**self._message(game, left))
        else:
            await tell(interaction, gettext(mine, "You have no seat in this lobby."))

    async def _start(self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow) -> None:
        mine = private_language(interaction)
        try:
            players = len(row.players)
            state = game.engine.new_game(players, row.seed, game.spec.options(row.options, players))
        except GameError as error:
            refusal = error_text(error, mine)
            text = gettext(mine, "{error} Wait for more players to join, or Cancel.", error=refusal)
            await tell(interaction, text)
            return
        await interaction.response.defer()
        if not await self.storage.matches.start(row.id, game.engine.dump(state), later(row.clock_s)):
            text = gettext(mine, "This lobby already started or closed.")
            await interaction.followup.send(text, ephemeral=True)
            return
        row.status, row.turn, row.deadline = "running", 0, later(row.clock_s)
        match = Match(row=row, engine=game.engine, state=state)
        self.running.add(match)
        await self.board.publish(interaction, match, previous_seats=())

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """A new lobby with the same players and options; it starts once all confirmed."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        mine = private_language(interaction)
        if row is None or game is None or row.guild_id != interaction.guild_id:
            text = gettext(
                mine,
                "There is no such match here — start a new one (see {help}).",
                help=help_text(command_names(interaction)),
            )
            await tell(interaction, text)
            return
        if row.status not in ("finished", "abandoned"):
            await tell(interaction, gettext(mine, "A rematch can be asked for once the match is over."))
            return
        if interaction.user.id not in row.players:
            text = gettext(
                mine,
                "Only its players can ask for a rematch — start your own with {command}.",
                command=start_text(game.start_command, command_names(interaction)),
            )
            await tell(interaction, text)
            return
        levels = tuple(level for user in row.players if (level := computer_level(user)))
        people = humans(row.players)  # a match alone against computers needs nobody to confirm
        invited = people if len(people) > 1 else None
        taken = await self.storage.matches.rematch_of(row.id)  # asked for before, by anyone
        if taken is None:
            try:
                await self.open(
                    interaction,
                    game,
                    row.options,
                    row.clock_s or 0,
                    invited=invited,
                    computers=levels,
                    rematch_of=row.id,
                )
                return
            except RematchTaken as refused:  # asked for by another player at the same moment
                taken = refused.lobbies[0]
        await self._to_rematch(interaction, game, taken)

    async def _to_rematch(self, interaction: discord.Interaction, game: AnyGameUI, rematch: MatchRow) -> None:
        """A Rematch press on a match that has its rematch: join it, or be shown it."""
        mine, user = private_language(interaction), interaction.user.id
        link, command = (
            jump_url(rematch),
            start_text(game.start_command, command_names(interaction)),
        )
        if rematch.status == "running":
            text = gettext(mine, "This match's rematch is under way: {link}", link=link)
        elif rematch.status == "cancelled":
            text = gettext(
                mine,
                "This match's rematch was cancelled — start a new match with {command}.",
                command=command,
            )
        elif rematch.status != "lobby":
            text = gettext(
                mine, "This match has had its rematch — start a new match with {command}.", command=command
            )
        elif user in rematch.players or (rematch.invited is not None and user not in rematch.invited):
            text = gettext(mine, "This match's rematch is open: {link}", link=link)
        elif not await self.storage.matches.join_lobby(rematch.id, user, game.engine.max_players):
            text = gettext(mine, "This match's rematch just changed — see {link}", link=link)
        else:
            await self._joined_elsewhere(interaction, game, await self._reread(rematch))
            return
        await tell(interaction, text)

    async def _joined_elsewhere(
        self, interaction: discord.Interaction, game: AnyGameUI, row: MatchRow
    ) -> None:
        """A member joined a lobby by a press elsewhere (Rematch under the last board): the
        lobby's message shows their seat, or the match starts if they were the last to confirm."""
        mine = private_language(interaction)
        if row.invited and set(humans(row.players)) == set(row.invited):
            await self._start(interaction, game, row)
            if row.id in self.running:
                await tell(interaction, gettext(mine, "The rematch has begun: {link}", link=jump_url(row)))
            return
        await self._edit_message(row, **self._message(game, row))  # the seat is taken all the same
        await tell(interaction, gettext(mine, "You joined the rematch: {link}", link=jump_url(row)))


HOST_ONLY = {  # what only the host may do with a lobby's buttons
    "start": N_("Only the host, {host}, can start this lobby."),
    "cancel": N_("Only the host, {host}, can cancel this lobby."),
}


def too_many_text(lobbies: list[MatchRow], specs: Games, lang: str, names: str) -> str:
    """Why a member may not open another lobby, with links to those they hold (the commands
    named in `names`)."""
    held = "\n".join(
        pgettext(
            lang,
            "list line",
            "**{title}** — {link}",
            title=match_title(specs.title_of(row.game), row.id, lang),
            link=jump_url(row),
        )
        for row in lobbies
    )
    listed = gettext(
        lang, "`{matches}` lists them, each with a button to cancel it.", matches=command(names, "matches")
    )
    return (
        ngettext(
            lang,
            "You already host {n} open lobby on this server — start or cancel it before you open "
            "another:\n{lobbies}",
            "You already host {n} open lobbies on this server — start or cancel one of them before you open "
            "another:\n{lobbies}",
            len(lobbies),
            lobbies=held,
        )
        + f"\n{listed}"
    )


def _cancelled(game: AnyGameUI, row: MatchRow) -> dict[str, Any]:
    """A cancelled lobby's card, without controls, as the arguments of an edit."""
    said = gettext(row.language, "The host cancelled this match.")
    card = Card(heading=lobby_title(game, row), body=said, accent=discord.Colour.dark_grey())
    return {"content": None, "embeds": [], "view": card_view(card)}


def lobby_title(game: AnyGameUI, row: MatchRow) -> str:
    return gettext(row.language, "{game} — lobby #{id}", game=game.engine.title, id=row.id)


def closed_text(lang: str, names: str) -> str:
    return gettext(lang, "This lobby is closed — start a new match (see {help}).", help=help_text(names))


def unreadable_text(lang: str, names: str) -> str:
    return gettext(
        lang, "This lobby can no longer be read — start a new match (see {help}).", help=help_text(names)
    )


def may_thread(permissions: discord.Permissions) -> bool:
    """Whether the bot may open a match's thread in a channel and post in it."""
    return permissions.create_public_threads and permissions.send_messages_in_threads


async def _discard(thread: discord.Thread) -> None:
    """Take away a thread the lobby could not be posted in: delete it, else archive it."""
    try:
        await thread.delete()
    except discord.HTTPException:
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as error:
            log.info("The empty thread %s could not be taken away: %s", thread.id, error)


def missing_permissions(interaction: discord.Interaction, lang: str) -> str | None:
    """The permissions the bot lacks in the channel, named as Discord names them in `lang`."""
    permissions = interaction.app_permissions
    needed = {
        N_("View Channel"): permissions.view_channel,
        N_("Send Messages"): permissions.send_messages,
        N_("Embed Links"): permissions.embed_links,
        N_("Attach Files"): permissions.attach_files,
    }
    missing = [gettext(lang, name) for name, granted in needed.items() if not granted]
    return ", ".join(missing) if missing else None
