"""The match framework: one lifecycle (lobby → turns → result) shared by every game.

A game's cog (a `GameCog`) adds only its commands, its board image and its move
components; everything else — seats, locks, persistence, the board message, pings,
DM notices, errors — happens here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.components import GameButton, items_view, lobby_view
from data.storage import MatchResult, MatchRow, SeatResult, Storage, now_iso
from games import ENGINES, Engine, GameError, Outcome
from render.common import SEAT_LETTERS

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)

SEAT_MARKS = ("🟦", "🟧", "🟩", "🟪", "⬜", "🟥")
# Framework-owned arguments of game buttons (game cogs use names without a leading "_").
PRIVATE, RESIGN, RESIGN_CONFIRM, REMATCH = "_private", "_resign", "_resign!", "_rematch"
ALIVE = "alive_at"
MAX_AUTO_MOVES = 50  # a turn of several decisions is played out, never forever
DEFAULT_CLOCK_S = 24 * 3600
DEFAULT_MAX_TIMEOUTS = 3
CLOCK_CHOICES = [
    app_commands.Choice(name="2 minutes (live play)", value=120),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="24 hours (play over days)", value=86400),
    app_commands.Choice(name="3 days", value=3 * 86400),
    app_commands.Choice(name="no clock", value=0),
]
CLOCK_HELP = "Time per move; when it runs out the move is played for you (default: the server's setting)"


def clock_text(seconds: int | None) -> str:
    """A turn clock as players read it."""
    if not seconds:
        return "no turn clock"
    for choice in CLOCK_CHOICES:
        if choice.value == seconds:
            return f"{choice.name.split(' (')[0]} per move"
    return f"{seconds // 60} minutes per move" if seconds < 7200 else f"{seconds // 3600} hours per move"


def later(seconds: int | None) -> str | None:
    """The deadline `seconds` from now, or None without a clock."""
    return (discord.utils.utcnow() + timedelta(seconds=seconds)).isoformat() if seconds else None


def seat_name(seat: int) -> str:
    """How a seat is shown in text: its colour square and letter, as on the boards."""
    return f"{SEAT_MARKS[seat]} {SEAT_LETTERS[seat]}"


@dataclass(slots=True)
class Match:
    """A running match in memory: the stored row plus the engine state and a lock."""

    row: MatchRow
    engine: Engine
    state: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dm_closed: set[int] = field(default_factory=set)
    # Said on the next board only (time-outs, removals); the board itself is the record.
    notes: list[str] = field(default_factory=list)
    rating_changes: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def turn(self) -> int:
        return self.row.turn

    @property
    def players(self) -> list[int]:
        return self.row.players

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    def view(self, seat: int | None = None) -> dict:
        return self.engine.view(self.state, seat)

    def jump_url(self) -> str:
        guild, channel, message = self.row.guild_id, self.row.channel_id, self.row.message_id
        return f"https://discord.com/channels/{guild}/{channel}/{message}"


@dataclass(slots=True)
class PrivateReply:
    """What a player alone sees: text, an optional image and the controls to act on it."""

    content: str
    image: bytes | None = None
    items: list[discord.ui.Item] = field(default_factory=list)


class GameCog(commands.GroupCog):
    """Base of every game's cog. Subclasses set `game` and override the hooks below."""

    game: str
    private_label = "My view"
    rules_text = ""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.engine: Engine = ENGINES[self.game]
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    async def cog_load(self) -> None:
        self.service.register(self)

    # ------------------------------------------------------------------ hooks

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """One line saying how the lobby's options set up the game."""
        return ", ".join(f"{key}: {value}" for key, value in options.items()) or "standard rules"

    def game_options(self, options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
        """The options the engine gets for `players` seats (some apply only to some counts)."""
        return options

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        """The PNG under the board message, from the spectator view."""
        raise NotImplementedError

    def headline(self, match: Match, view: dict) -> list[str]:
        """Lines announcing what just happened (skips, scores, bonuses)."""
        return []

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        """The move components of the board message for the seat(s) to move."""
        return []

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        """A seated player to move used one of this game's components."""
        raise NotImplementedError

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        """What the "private view" button shows the seat (and the DM notice carries).

        Called off the event loop, so it may render images.
        """
        return PrivateReply(content="This game has no secrets: everything is on the board.")

    def score_text(self, view: dict, seat: int) -> str:
        return f"{view['scores'][seat]} pts"

    def seat_label(self, view: dict, seat: int) -> str:
        """How a seat is marked in text; matches its colour and letter on the board."""
        return seat_name(seat)

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        """Extra lines for the final board (e.g. the tie-break)."""
        return [f"Decided by the tie-break: {outcome.tiebreak}."] if outcome.tiebreak else []

    # --------------------------------------------------------------- commands

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], clock: int | None = None
    ) -> None:
        """Post a lobby; `clock` is seconds per move (0: none; None: the server's default)."""
        await self.service.open_lobby(interaction, self, options, clock)

    @app_commands.command(name="rules", description="The rules of this game, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=f"{self.engine.title} — rules", description=self.rules_text)
        await interaction.response.send_message(embed=embed, ephemeral=True)


class MatchService:
    """Owns every match of the bot: the storage, the running matches and their locks."""

    def __init__(self, bot: GameBot, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage
        self.cogs: dict[str, GameCog] = {}
        self.running: dict[int, Match] = {}

    def register(self, cog: GameCog) -> None:
        self.cogs[cog.game] = cog

    async def resume(self) -> int:
        """Load every running match from the database; returns how many.

        Turn clocks are pushed back by the time the bot was away: an outage of the bot
        does not count against players.
        """
        outage = await self._outage()
        for row in await self.storage.load_running():
            engine = ENGINES.get(row.game)
            if engine is None or row.state is None:
                log.warning("Match %s of unknown game %r is not resumed", row.id, row.game)
                continue
            if row.deadline and outage > timedelta(0):
                row.deadline = (datetime.fromisoformat(row.deadline) + outage).isoformat()
                await self.storage.set_deadline(row.id, row.deadline)
            self.running[row.id] = Match(row=row, engine=engine, state=engine.load(row.state))
        await self.heartbeat()
        return len(self.running)

    async def _outage(self) -> timedelta:
        last = await self.storage.get_meta(ALIVE)
        if last is None:
            return timedelta(0)
        return max(timedelta(0), discord.utils.utcnow() - datetime.fromisoformat(last))

    async def heartbeat(self) -> None:
        """Note that the bot is up (the clock loop calls this), to measure outages."""
        await self.storage.set_meta(ALIVE, now_iso())

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        clock: int | None = None,
        invited: list[int] | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await _tell(interaction, "Matches are played in a server channel — use this there.")
            return
        missing = _missing_permissions(interaction)
        if missing:
            await _tell(
                interaction,
                f"I need the {missing} permission in this channel to host a match — "
                "ask a server admin to grant it, or use another channel.",
            )
            return
        row = await self.storage.create_lobby(
            game=cog.game,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            seed=random.SystemRandom().randrange(2**31),
            options=options,
            clock_s=await self._clock_for(interaction.guild_id, clock),
            invited=invited,
        )
        mentions = " ".join(f"<@{user}>" for user in invited or () if user != row.host_id)
        await interaction.response.send_message(
            f"{mentions} — press **Join** to confirm the rematch." if mentions else None,
            embed=self._lobby_embed(cog, row),
            view=lobby_view(row.id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        message = await interaction.original_response()
        await self.storage.set_message(row.id, message.id)

    async def _clock_for(self, guild_id: int, chosen: int | None) -> int | None:
        if chosen is None:
            default, _ = await self.storage.guild_settings(guild_id)
            chosen = DEFAULT_CLOCK_S if default is None else default
        return chosen or None

    async def max_timeouts(self, guild_id: int) -> int:
        _, chosen = await self.storage.guild_settings(guild_id)
        return chosen or DEFAULT_MAX_TIMEOUTS

    def _lobby_embed(self, cog: GameCog, row: MatchRow) -> discord.Embed:
        engine = cog.engine
        seats = "\n".join(
            f"{seat_name(seat)} · <@{user}>" + (" (host)" if user == row.host_id else "")
            for seat, user in enumerate(row.players)
        )
        if row.invited:
            waiting = [f"<@{user}>" for user in row.invited if user not in row.players]
            how = (
                f"A rematch: it starts when every player has pressed **Join** "
                f"(waiting for {', '.join(waiting)})."
            )
        else:
            how = (
                f"Press **Join** to take a seat. The host presses **Start** once "
                f"{engine.min_players}–{engine.max_players} players are seated."
            )
        embed = discord.Embed(
            title=f"{engine.title} — lobby #{row.id}",
            description=(
                f"**Players ({len(row.players)}/{engine.max_players}):**\n{seats}\n\n"
                f"**Setup:** {cog.describe_options(row.options)}; {clock_text(row.clock_s)}.\n{how}"
            ),
            colour=discord.Colour.blurple(),
        )
        embed.set_footer(text=f"match {row.id}")
        return embed

    async def on_lobby(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        row = await self.storage.get(match_id)
        if row is None or row.status != "lobby":
            await _tell(
                interaction,
                "This lobby is closed — start a new match with the game's `new` command.",
            )
            return
        cog = self.cogs[row.game]
        user = interaction.user.id
        if action == "join":
            await self._join(interaction, cog, row, user)
        elif action == "leave":
            await self._leave(interaction, cog, row, user)
        elif user != row.host_id:
            await _tell(interaction, f"Only the host, <@{row.host_id}>, can {action} this lobby.")
        elif action == "cancel":
            await self.storage.cancel(match_id)
            embed = discord.Embed(
                title=f"{cog.engine.title} — lobby #{row.id}",
                description="The host cancelled this match.",
            )
            await interaction.response.edit_message(embed=embed, view=None)
        else:
            await self._start(interaction, cog, row)

    async def _join(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow, user: int) -> None:
        if user in row.players:
            await _tell(interaction, "You already have a seat — wait for the host to press Start.")
        elif row.invited and user not in row.invited:
            await _tell(
                interaction, "This rematch is for the players of the last match — start your own with `new`."
            )
        elif len(row.players) >= cog.engine.max_players:
            await _tell(interaction, "This lobby is full — start another match with the `new` command.")
        elif await self.storage.join(row.id, user):
            row = await self.storage.get(row.id)
            assert row is not None
            if row.invited and set(row.players) == set(row.invited):
                await self._start(interaction, cog, row)
            else:
                await interaction.response.edit_message(embed=self._lobby_embed(cog, row))
        else:
            await _tell(interaction, "This lobby just closed — start a new match.")

    async def _leave(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow, user: int) -> None:
        if user == row.host_id:
            await _tell(interaction, "You are the host — press Cancel to close the lobby instead.")
        elif await self.storage.leave(row.id, user):
            await self._refresh_lobby(interaction, cog, row.id)
        else:
            await _tell(interaction, "You have no seat in this lobby.")

    async def _refresh_lobby(self, interaction: discord.Interaction, cog: GameCog, match_id: int) -> None:
        row = await self.storage.get(match_id)
        assert row is not None
        await interaction.response.edit_message(embed=self._lobby_embed(cog, row))

    async def _start(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow) -> None:
        try:
            players = len(row.players)
            state = cog.engine.new_game(players, row.seed, cog.game_options(row.options, players))
        except GameError as error:
            await _tell(interaction, f"{error} Wait for more players to join, or Cancel.")
            return
        await interaction.response.defer()
        if not await self.storage.start(row.id, cog.engine.dump(state), later(row.clock_s)):
            await interaction.followup.send("This lobby already started or closed.", ephemeral=True)
            return
        row.status, row.turn, row.deadline = "running", 0, later(row.clock_s)
        match = Match(row=row, engine=cog.engine, state=state)
        self.running[row.id] = match
        await self._publish(interaction, match, previous_seats=())

    # ---------------------------------------------------------------- turns

    async def on_component(
        self,
        interaction: discord.Interaction,
        game: str,
        match_id: int,
        turn: int,
        arg: str,
        values: list[str],
    ) -> None:
        """Route a click: refuse politely what is not allowed, then hand it to the game."""
        match = self.running.get(match_id)
        if arg == REMATCH:
            await self._rematch(interaction, game, match_id)
            return
        if match is None:
            await _tell(interaction, "This match is over — start a new one with the game's `new` command.")
            return
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            await _tell(
                interaction,
                "You are not playing in this match — start your own with the game's `new` command.",
            )
            return
        if arg == PRIVATE:
            await self._show_private(interaction, match, seat)
        elif arg == RESIGN:
            await self._resign(interaction, match, seat, confirmed=False)
        elif turn != match.turn:
            await _tell(interaction, "This board is out of date — use the buttons on the latest board.")
        elif arg == RESIGN_CONFIRM:
            await self._resign(interaction, match, seat, confirmed=True)
        elif seat not in match.engine.current_seats(match.state):
            await _tell(interaction, f"It is not your turn — {self._to_move_text(match)} to move.")
        else:
            await self.cogs[game].on_component(interaction, match, seat, arg, values)

    async def play(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        move: dict[str, Any],
        *,
        turn: int,
        private_note: str | None = None,
    ) -> bool:
        """Apply, commit and show one move made at `turn`; False when it was refused."""
        await interaction.response.defer()
        async with match.lock:
            if turn != match.turn:
                await _tell(interaction, "Another move came first — use the latest board.")
                return False
            previous_seats = match.engine.current_seats(match.state)
            try:
                state = match.engine.apply(match.state, seat, move)
            except GameError as error:
                await _tell(interaction, str(error))
                return False
            if not await self._commit(match, seat, interaction.user.id, move, state):
                await _tell(interaction, "Another move came first — use the latest board.")
                return False
        if private_note is not None:
            await interaction.edit_original_response(content=private_note, attachments=[], view=None)
        await self._publish(interaction, match, previous_seats=previous_seats)
        return True

    async def _commit(
        self,
        match: Match,
        seat: int,
        user_id: int | None,
        move: dict[str, Any],
        state: Any,
        *,
        timeouts: dict[str, int] | None = None,
    ) -> bool:
        """Store the move in one transaction; only then does memory follow.

        `user_id` is None for a move the turn clock made; a player's own move clears
        their count of time-outs in a row.
        """
        outcome = match.engine.outcome(state)
        abandoned = move.get("reason") == "timeout"
        result = self._result(match, state, outcome, abandoned=abandoned) if outcome else None
        if timeouts is None:
            timeouts = {key: n for key, n in match.row.timeouts.items() if key != str(seat)}
        deadline = later(match.row.clock_s) if outcome is None else None
        saved = await self.storage.save_move(
            match.id,
            turn=match.turn,
            seat=seat,
            user_id=user_id,
            move=move,
            state=match.engine.dump(state),
            result=result,
            deadline=deadline,
            timeouts=timeouts,
        )
        if not saved:
            await self._reload(match)
            return False
        match.state = state
        match.row.turn += 1
        match.row.deadline, match.row.reminded, match.row.timeouts = deadline, False, timeouts
        if outcome is not None:
            match.row.status = "abandoned" if abandoned else "finished"
            match.rating_changes = await self.storage.rating_changes(match.id)
            self.running.pop(match.id, None)
        return True

    async def _reload(self, match: Match) -> None:
        """Another process moved first: take the stored state as the truth."""
        row = await self.storage.get(match.id)
        if row is None or row.state is None:
            return
        match.row, match.state = row, match.engine.load(row.state)
        if row.status != "running":
            self.running.pop(match.id, None)

    def _result(self, match: Match, state: Any, outcome: Outcome, *, abandoned: bool) -> MatchResult:
        teams = outcome.teams or tuple((seat,) for seat in range(len(match.players)))
        team_of = {seat: index for index, team in enumerate(teams) for seat in team}
        resigned = set(match.engine.view(state, None).get("resigned", ()))
        return MatchResult(
            draw=outcome.draw,
            abandoned=abandoned,
            tiebreak=outcome.tiebreak,
            seats=tuple(
                SeatResult(
                    seat=seat,
                    user_id=user,
                    team=team_of.get(seat, seat),
                    score=outcome.scores[seat],
                    winner=seat in outcome.winners,
                    resigned=seat in resigned,
                )
                for seat, user in enumerate(match.players)
            ),
        )

    async def show(self, interaction: discord.Interaction, match: Match, ui: Mapping[str, Any]) -> None:
        """Redraw the board with a UI state (e.g. a ghost piece) without making a move."""
        await interaction.response.defer()
        await self._edit_board(interaction, match, ui)

    async def _resign(
        self, interaction: discord.Interaction, match: Match, seat: int, *, confirmed: bool
    ) -> None:
        if not confirmed:
            confirm = GameButton(
                match.row.game,
                match.id,
                match.turn,
                RESIGN_CONFIRM,
                label="Yes, resign",
                style=discord.ButtonStyle.danger,
            )
            await interaction.response.send_message(
                f"Resign from {match.engine.title} #{match.id}? You cannot take it back.",
                view=items_view([confirm]),
                ephemeral=True,
            )
            return
        await interaction.response.defer()
        async with match.lock:
            previous_seats = match.engine.current_seats(match.state)
            try:
                state = match.engine.resign(match.state, seat)
            except GameError as error:
                await _tell(interaction, str(error))
                return
            move = {"type": "resign"}
            if not await self._commit(match, seat, interaction.user.id, move, state):
                await _tell(interaction, "The match changed meanwhile — try again.")
                return
        await interaction.edit_original_response(content="You resigned.", view=None)
        await self._publish(interaction, match, previous_seats=previous_seats)

    async def _show_private(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        reply = await asyncio.to_thread(self.cogs[match.row.game].private_view, match, seat)
        await interaction.response.send_message(**_private_payload(reply), ephemeral=True)

    async def _rematch(self, interaction: discord.Interaction, game: str, match_id: int) -> None:
        """A new lobby with the same players and options; it starts once all confirmed."""
        row = await self.storage.get(match_id)
        if row is None or row.status not in ("finished", "abandoned"):
            await _tell(interaction, "A rematch can be asked for once the match is over.")
            return
        if interaction.user.id not in row.players:
            await _tell(interaction, "Only its players can ask for a rematch — start your own with `new`.")
            return
        await self.open_lobby(
            interaction, self.cogs[game], row.options, row.clock_s or 0, invited=row.players
        )

    # ------------------------------------------------------------ the turn clock

    async def remind(self, match: Match) -> None:
        """DM the players due that their time runs out soon (closed DMs: said in the channel)."""
        match.row.reminded = True
        await self.storage.set_reminded(match.id)
        due = int(datetime.fromisoformat(match.row.deadline).timestamp()) if match.row.deadline else 0
        for seat in match.engine.current_seats(match.state):
            text = (
                f"⏰ Your time in **{match.engine.title} #{match.id}** runs out <t:{due}:R>: "
                f"{match.jump_url()}"
            )
            await self._dm(match, seat, {"content": text})

    async def time_out(self, match: Match) -> None:
        """The clock ran out: play the turn as the rules allow, or remove a player who keeps timing out."""
        limit = await self.max_timeouts(match.row.guild_id)
        async with match.lock:
            seats = match.engine.current_seats(match.state)
            deadline = match.row.deadline
            # A move made while this waited for the lock has already reset the clock.
            if not seats or deadline is None or discord.utils.utcnow() < datetime.fromisoformat(deadline):
                return
            seat = seats[0]
            timeouts = {**match.row.timeouts, str(seat): match.row.timeouts.get(str(seat), 0) + 1}
            mention = f"<@{match.players[seat]}>"
            if timeouts[str(seat)] >= limit:
                state = match.engine.resign(match.state, seat)
                move = {"type": "resign", "reason": "timeout"}
                note = f"⏰ {mention} ran out of time {limit} times in a row and was removed as resigned."
                if not await self._commit(match, seat, None, move, state, timeouts=timeouts):
                    return
            else:
                note = f"⏰ {mention} ran out of time: " + await self._auto_play(match, seat, timeouts)
            match.notes.append(note)
        await self._publish(None, match, previous_seats=seats)

    async def _auto_play(self, match: Match, seat: int, timeouts: dict[str, int]) -> str:
        """Play the seat's turn for them: a pass or skip where there is one, else the first legal move."""
        played = []
        for _ in range(MAX_AUTO_MOVES):
            if seat not in match.engine.current_seats(match.state):
                break
            moves = match.engine.legal_moves(match.state, seat)
            move = next((m for m in moves if m.get("type") in ("pass", "skip")), moves[0])
            state = match.engine.apply(match.state, seat, move)
            if not await self._commit(match, seat, None, {**move, "by": "clock"}, state, timeouts=timeouts):
                break
            played.append(move.get("type", "move"))
        kinds = ", ".join(dict.fromkeys(played)) or "nothing"
        return f"the turn was played for them ({kinds})."

    # ------------------------------------------------------------- the board

    async def _publish(
        self,
        interaction: discord.Interaction | None,
        match: Match,
        *,
        previous_seats: tuple[int, ...],
    ) -> None:
        """After a move: redraw the board, then ping and notify a newly due player."""
        await self._edit_board(interaction, match, {})
        match.notes.clear()
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        due = [seat for seat in seats if seat not in previous_seats]
        if due:
            await self._ping(match, due)
            for seat in due:
                await self._notify(match, seat)
        elif not seats:
            await self._clear_ping(match)

    async def _edit_board(
        self, interaction: discord.Interaction | None, match: Match, ui: Mapping[str, Any]
    ) -> None:
        payload = await self.board_payload(match, ui)
        on_board = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == match.row.message_id
        )
        if on_board:
            await interaction.edit_original_response(**payload)
        else:
            channel = self.bot.get_partial_messageable(match.row.channel_id)
            await channel.get_partial_message(match.row.message_id).edit(**payload)

    async def board_payload(self, match: Match, ui: Mapping[str, Any]) -> dict[str, Any]:
        """Embed, image and components of the board message, rendered off the event loop."""
        cog = self.cogs[match.row.game]
        view = match.view(None)
        image = await asyncio.to_thread(cog.board_image, view, ui)
        embed = self._board_embed(cog, match, view)
        embed.set_image(url="attachment://board.png")
        if match.row.status == "running":
            items = [*cog.controls(match, view, ui), *self._framework_buttons(cog, match)]
        else:
            items = [self._rematch_button(match)]
        return {
            "content": None,
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(image), filename="board.png")],
            "view": items_view(items),
        }

    def _framework_buttons(self, cog: GameCog, match: Match) -> list[discord.ui.Item]:
        game, turn = match.row.game, match.turn
        return [
            GameButton(game, match.id, turn, PRIVATE, label=cog.private_label, row=4),
            GameButton(
                game,
                match.id,
                turn,
                RESIGN,
                label="Resign",
                style=discord.ButtonStyle.danger,
                row=4,
            ),
        ]

    def _rematch_button(self, match: Match) -> discord.ui.Item:
        return GameButton(
            match.row.game, match.id, match.turn, REMATCH, label="Rematch", style=discord.ButtonStyle.primary
        )

    def _board_embed(self, cog: GameCog, match: Match, view: dict) -> discord.Embed:
        lines = [*match.notes, *cog.headline(match, view)]
        outcome = match.engine.outcome(match.state)
        if outcome is None:
            lines.append(f"**Turn {match.turn + 1}:** {self._to_move_text(match, view)} to move.")
            if match.row.deadline:
                due = int(datetime.fromisoformat(match.row.deadline).timestamp())
                lines.append(f"⏰ Time runs out <t:{due}:R> ({clock_text(match.row.clock_s)}).")
            colour = discord.Colour.blurple()
        else:
            lines.append(self._winner_text(match, outcome))
            lines.extend(cog.result_lines(match, outcome))
            colour = discord.Colour.gold()
        players = "\n".join(
            f"{cog.seat_label(view, seat)} · <@{user}> — {cog.score_text(view, seat)}"
            for seat, user in enumerate(match.players)
        )
        embed = discord.Embed(
            title=f"{match.engine.title} #{match.id}",
            description="\n".join(lines),
            colour=colour,
        )
        embed.add_field(name="Players", value=players, inline=False)
        if match.rating_changes:
            embed.add_field(name="Ratings", value=self._rating_text(match), inline=False)
        embed.set_footer(text=f"match {match.id} · move {match.turn}")
        return embed

    def _rating_text(self, match: Match) -> str:
        return "\n".join(
            f"<@{match.players[seat]}> {before} → {after} ({after - before:+d})"
            for seat, (before, after) in sorted(match.rating_changes.items())
        )

    def _to_move_text(self, match: Match, view: dict | None = None) -> str:
        view = view if view is not None else match.view(None)
        label = self.cogs[match.row.game].seat_label
        seats = match.engine.current_seats(match.state)
        return " and ".join(f"<@{match.players[seat]}> ({label(view, seat)})" for seat in seats)

    def _winner_text(self, match: Match, outcome: Outcome) -> str:
        names = ", ".join(f"<@{match.players[seat]}>" for seat in outcome.winners)
        if not outcome.winners:
            return "**Game over** — nobody wins."
        if outcome.draw:
            return f"**Game over** — a draw between {names}."
        return f"**Game over** — {names} {'win' if len(outcome.winners) > 1 else 'wins'}!"

    # ------------------------------------------------------- pings and DMs

    async def _ping(self, match: Match, seats: list[int]) -> None:
        """Mention the players now due (an edit pings nobody), replacing the last ping."""
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        mentions = " ".join(f"<@{match.players[seat]}>" for seat in seats)
        try:
            message = await channel.send(
                f"{mentions} — your turn in **{match.engine.title} #{match.id}**: {match.jump_url()}",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            log.warning("Could not ping in match %s: %s", match.id, error)
            return
        await self._clear_ping(match)
        match.row.ping_message_id = message.id
        await self.storage.set_ping_message(match.id, message.id)

    async def _clear_ping(self, match: Match) -> None:
        old = match.row.ping_message_id
        if old is None:
            return
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
            await channel.get_partial_message(old).delete()
        if match.row.ping_message_id == old:
            match.row.ping_message_id = None
            await self.storage.set_ping_message(match.id, None)

    async def _notify(self, match: Match, seat: int) -> None:
        """DM the player whose turn it is; closed DMs are said in the channel, once."""
        reply = await asyncio.to_thread(self.cogs[match.row.game].private_view, match, seat)
        notice = f"Your turn in **{match.engine.title} #{match.id}**: {match.jump_url()}"
        payload = _private_payload(reply, interactive=False)
        payload["content"] = f"{notice}\n{payload['content']}"
        await self._dm(match, seat, payload)

    async def _dm(self, match: Match, seat: int, payload: dict[str, Any]) -> None:
        user_id = match.players[seat]
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**payload)
        except discord.Forbidden:
            await self._dms_closed(match, seat)
        except discord.HTTPException as error:
            log.warning("Could not DM user %s: %s", user_id, error)

    async def _dms_closed(self, match: Match, seat: int) -> None:
        user_id = match.players[seat]
        if user_id in match.dm_closed:
            return
        match.dm_closed.add(user_id)
        cog = self.cogs[match.row.game]
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        await channel.send(
            f"<@{user_id}>, I cannot send you direct messages, so your turn notices come here. "
            f"Use the **{cog.private_label}** button on the board to see what only you may see.",
            allowed_mentions=discord.AllowedMentions(users=True),
        )


def _private_payload(reply: PrivateReply, *, interactive: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {"content": reply.content}
    if reply.image is not None:
        payload["file"] = discord.File(io.BytesIO(reply.image), filename="private.png")
    if interactive and reply.items:
        payload["view"] = items_view(reply.items)
    return payload


def _missing_permissions(interaction: discord.Interaction) -> str | None:
    permissions = interaction.app_permissions
    needed = {
        "View Channel": permissions.view_channel,
        "Send Messages": permissions.send_messages,
        "Embed Links": permissions.embed_links,
        "Attach Files": permissions.attach_files,
    }
    missing = [name for name, granted in needed.items() if not granted]
    return ", ".join(missing) if missing else None


async def _tell(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
