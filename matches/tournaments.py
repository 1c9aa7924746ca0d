"""Tournaments on Discord: the sign-up message, the rounds (each table a match of the match
framework, rated like any other), the standings picture and the end.

The rules of pairing, scoring and standings are the pure `matches.tournament`; this module reads
and writes the storage and Discord. Every step that must happen once is claimed in the database
(the start, each new round, each table's result, the end), and only the process that owns the
tournament's server acts on it: the round after the last match of a round ends starts there, on
the match's end, when that process catches up with another's, or when it starts again."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from data.model import RESIGNED, Shards, TableRow, TournamentRow
from data.repositories import Database
from games import GameError
from locales import N_, gettext, ngettext
from locales.audience import private_language, public_language
from matches.achievements import Placing
from matches.awards import Awards, earned_line
from matches.board import Board
from matches.cards import Card, card_message
from matches.clock import clock_for
from matches.deadlines import RunningMatches
from matches.game_ui import AnyGameUI
from matches.lobby import may_thread, missing_permissions
from matches.match import (
    Match,
    clock_text,
    computer_id,
    computer_level,
    later,
    match_title,
    tell,
    who,
)
from matches.tournament.model import Entrant, Format, Round, TournamentError
from matches.tournament.pairing import swiss_round
from matches.tournament.schedules import knockout_round, round_robin_round, round_robin_rounds
from matches.tournament.scoring import Scoring
from matches.tournament_pictures import (
    entrants_of,
    podium_picture,
    round_done,
    rounds_of,
    standings_of,
    standings_picture,
    tournament_title,
)
from matches.turns import Turns

log = logging.getLogger(__name__)
MAX_ENTRANTS = 64  # a tournament's most players
STARTING_RATING = 1000.0  # the seeding rating of a player without a rating in the game
COMPUTER_RATING = STARTING_RATING - 1  # computers are seeded after members of the same rating
MESSAGE_LIMIT = 2000  # Discord's longest message
COMPUTER_LEVEL = "normal"  # the level of the computers an organizer adds
REMOVED = N_("{player} was removed from tournament #{id}: their remaining games are forfeited.")
LEFT = N_("{player} left tournament #{id}: their remaining games are forfeited.")
ORGANIZER_ONLY = {
    "start": N_("Only the organizer, {organizer}, or a server manager can start this tournament."),
    "cancel": N_("Only the organizer, {organizer}, or a server manager can cancel this tournament."),
    "computer": N_("Only the organizer, {organizer}, can add computers to this tournament."),
    "remove": N_(
        "Only the organizer, {organizer}, or a server manager can remove players from this tournament."
    ),
}


def scoring_text(seats: int, lang: str) -> str:
    """How results score, in `lang`: "a win 1, a draw ½, a loss 0" or "3-1-0 by place"."""
    if seats == 2:
        return gettext(lang, "**Scoring:** a win is 1 point, a draw ½, a loss 0; a bye counts as a win.")
    places = "-".join(str(int(points)) for points in Scoring(seats).place_points(seats))
    return gettext(
        lang,
        "**Scoring:** at each table of {seats}, points by place: {places} (players tied for places "
        "share their points); a bye counts as a win.",
        seats=seats,
        places=places,
    )


def tiebreak_text(format_: str, lang: str) -> str:
    """The order of the table after points, in `lang`."""
    if format_ == "swiss":
        return gettext(lang, "**Ties:** Buchholz, then Sonneborn–Berger, then rating.")
    if format_ == "knockout":
        return gettext(lang, "**Order:** the round reached, then rating.")
    return gettext(lang, "**Ties:** head-to-head, then Sonneborn–Berger, then rating.")


def ranks_of(outcomes: list[tuple[bool, bool, int]]) -> tuple[int, ...]:
    """Each seat's place from (winner, resigned, score): winners first, then who stayed, by score;
    equal places are a tie."""
    keys = [(not winner, resigned, -score) for winner, resigned, score in outcomes]
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def messages(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """`lines` as few messages as Discord's length limit allows, never splitting a line."""
    found: list[str] = []
    for line in lines:
        if found and len(found[-1]) + 1 + len(line) <= limit:
            found[-1] += "\n" + line
        else:
            found.append(line[:limit])
    return found


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tourney:(?P<id>\d{1,12}):(?P<action>join|leave|start|cancel|computer)",
):
    """Join / Leave / Start / Cancel / Add a computer under a tournament's sign-up."""

    LABELS: Mapping[str, tuple[str, discord.ButtonStyle]] = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
        "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
        "computer": (N_("Add a computer"), discord.ButtonStyle.secondary),
    }

    def __init__(self, tournament_id: int, action: str, lang: str) -> None:
        self.tournament_id, self.action = tournament_id, action
        label, style = self.LABELS[action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=gettext(lang, label), style=style, custom_id=f"tourney:{tournament_id}:{action}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(int(match["id"]), match["action"], "en")  # the label is not shown again

    async def callback(self, interaction: discord.Interaction) -> None:
        service: Any = interaction.client
        await service.matches.tournaments.on_button(interaction, self.tournament_id, self.action)


def signup_items(row: TournamentRow, lang: str) -> list[TournamentButton]:
    """The sign-up's controls while the tournament is open or running; none once it is over."""
    if row.status not in ("signup", "running"):
        return []
    actions = ["join", "leave", "start", "cancel"] + (["computer"] if row.format == "knockout" else [])
    return [TournamentButton(row.id, action, lang) for action in actions]


class Tournaments:
    """Runs the tournaments of the servers this process owns (`shards`)."""

    def __init__(
        self,
        bot: discord.Client,
        storage: Database,
        games: Mapping[str, AnyGameUI],
        running: RunningMatches,
        board: Board,
        turns: Turns,
        shards: Shards,
        awards: Awards,
    ) -> None:
        self.awards = awards
        self.bot = bot
        self.storage = storage
        self.games = games
        self.running = running
        self.board = board
        self.turns = turns
        self.shards = shards
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ----------------------------------------------------------------- sign-up

    async def open(
        self,
        interaction: discord.Interaction,
        game: AnyGameUI,
        format_: str,
        *,
        rounds: int | None,
        clock: int | None,
        seats: int,
        options: dict[str, Any],
    ) -> None:
        """Post a sign-up for a tournament of `game` in the channel."""
        mine = private_language(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await tell(interaction, gettext(mine, "Tournaments are played on a server — use this there."))
            return
        missing = missing_permissions(interaction, mine)
        refusal = self._setup_refusal(game, format_, seats, mine) or (
            None
            if missing is None
            else gettext(
                mine,
                "I need the {permissions} permission in this channel to run a tournament — ask a server "
                "admin to grant it, or use another channel.",
                permissions=missing,
            )
        )
        if refusal is not None:
            await tell(interaction, refusal)
            return
        lang = await public_language(self.storage.settings, interaction)
        opened = await self.storage.tournaments.open(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            organizer_id=interaction.user.id,
            game=game.game,
            format=format_,
            seats=seats,
            rounds=rounds,
            clock_s=await clock_for(self.storage, interaction.guild_id, clock),
            options=options,
            language=lang,
        )
        if isinstance(opened, int):
            text = gettext(
                mine,
                "Tournament #{id} is open for sign-up in this channel — start or cancel it before "
                "opening another here.",
                id=opened,
            )
            await tell(interaction, text)
            return
        await self.storage.tournaments.join(
            opened.id,
            interaction.user.id,
            rating=STARTING_RATING,
            joined=1,
            max_entrants=MAX_ENTRANTS,
            name=interaction.user.display_name,
        )
        row = await self.storage.tournaments.get(opened.id) or opened
        await interaction.response.send_message(**self._signup(row))
        message = await interaction.original_response()
        await self.storage.tournaments.set_message(row.id, message.id)

    def _setup_refusal(self, game: AnyGameUI, format_: str, seats: int, lang: str) -> str | None:
        engine = game.engine
        if seats not in game.player_counts:
            counts = ", ".join(str(count) for count in game.player_counts)
            return gettext(
                lang,
                "{game} is played at tables of {counts} — choose one of those for `seats`.",
                game=engine.title,
                counts=counts,
            )
        if format_ == "knockout" and seats != 2:
            return gettext(
                lang,
                "A knockout is played at tables of two — choose `seats: 2`, or the Swiss or round "
                "robin format for tables of {seats}.",
                seats=seats,
            )
        return None

    def _signup(self, row: TournamentRow) -> dict[str, Any]:
        """The sign-up message as a card: who is in, the set-up, the scoring, and its controls."""
        lang = row.language
        game = self.games[row.game]
        organizer = gettext(lang, " (organizer)")
        players = "\n".join(
            f"{index}. {who(entrant.user_id, lang)}"
            + (organizer if entrant.user_id == row.organizer_id else "")
            for index, entrant in enumerate(row.entrants, start=1)
        )
        seated = gettext(lang, "**Players ({count}/{most}):**", count=len(row.entrants), most=MAX_ENTRANTS)
        setup = gettext(
            lang,
            "**Setup:** {options}; tables of {seats}; {clock}.",
            options=game.describe_options(row.options, lang),
            seats=row.seats,
            clock=clock_text(row.clock_s, lang),
        )
        how = gettext(
            lang,
            "Press **Join** to play. The organizer presses **Start** when everyone is in; each round's "
            "matches are posted here, and the next round starts when the last match of a round ends.",
        )
        if row.format == "knockout":
            how += " " + gettext(lang, "The organizer may fill the bracket with **Add a computer**.")
        if row.format == "swiss":
            how += " " + gettext(lang, "Latecomers may join until round 2 starts, with zero points.")
        description = "\n".join(
            [
                seated,
                players or "—",
                "",
                setup,
                scoring_text(row.seats, lang),
                tiebreak_text(row.format, lang),
                how,
            ]
        )
        card = Card(
            heading=tournament_title(row, game.engine.title, lang),
            body=description,
            footer=gettext(lang, "Started — see each round below.") if row.status == "running" else "",
            accent=discord.Colour.gold(),
            items=signup_items(row, lang),
        )
        return card_message(card)

    async def on_button(self, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
        """A press under a sign-up."""
        mine = private_language(interaction)
        row = await self.storage.tournaments.get(tournament_id)
        if row is None or row.guild_id != interaction.guild_id or row.status not in ("signup", "running"):
            await tell(interaction, gettext(mine, "This tournament is over or was cancelled."))
            return
        user = interaction.user.id
        if action == "join":
            await self._join(interaction, row, user)
        elif action == "leave":
            await self.leave(interaction, row)
        elif row.status != "signup":
            await tell(interaction, gettext(mine, "This tournament has started already."))
        elif action == "computer":
            await self._add_computer(interaction, row)
        elif not self._may_manage(interaction, row):
            await tell(
                interaction, gettext(mine, ORGANIZER_ONLY[action], organizer=who(row.organizer_id, mine))
            )
        elif action == "cancel":
            if await self.storage.tournaments.close(row.id, "cancelled", was="signup"):
                card = Card(
                    heading=tournament_title(row, self.games[row.game].engine.title, row.language),
                    body=gettext(row.language, "This tournament was cancelled."),
                    accent=discord.Colour.dark_grey(),
                )
                await interaction.response.edit_message(**card_message(card))
            else:
                await tell(interaction, gettext(mine, "This tournament has started already."))
        else:
            await self._start(interaction, row)

    def _may_manage(self, interaction: discord.Interaction, row: TournamentRow) -> bool:
        permissions = getattr(interaction.user, "guild_permissions", None)
        return interaction.user.id == row.organizer_id or bool(permissions and permissions.manage_guild)

    async def _join(self, interaction: discord.Interaction, row: TournamentRow, user: int) -> None:
        mine = private_language(interaction)
        if any(entrant.user_id == user for entrant in row.entrants):
            await tell(interaction, gettext(mine, "You are in this tournament already."))
            return
        late = row.status == "running"
        if late and (row.format != "swiss" or row.round >= 2):
            text = (
                gettext(mine, "Entries are closed: round 2 has started.")
                if row.format == "swiss"
                else gettext(mine, "Entries are closed: this tournament has started.")
            )
            await tell(interaction, text)
            return
        joined = row.round + 1 if late else 1
        if not await self.storage.tournaments.join(
            row.id,
            user,
            rating=await self._rating(row, user),
            joined=joined,
            max_entrants=MAX_ENTRANTS,
            name=interaction.user.display_name,
        ):
            await tell(
                interaction,
                gettext(mine, "This tournament is full ({most} players) or closed.", most=MAX_ENTRANTS),
            )
            return
        if not late:
            await self._redraw(interaction, row)
            return
        text = gettext(
            row.language,
            "{player} joins tournament #{id} late: they play from round {round}, with zero points.",
            player=who(user, row.language),
            id=row.id,
            round=joined,
        )
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    async def _redraw(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        current = await self.storage.tournaments.get(row.id) or row
        await interaction.response.edit_message(**self._signup(current))

    async def _add_computer(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        mine = private_language(interaction)
        if interaction.user.id != row.organizer_id:
            await tell(
                interaction, gettext(mine, ORGANIZER_ONLY["computer"], organizer=who(row.organizer_id, mine))
            )
            return
        players = [entrant.user_id for entrant in row.entrants]
        robot = computer_id(players, COMPUTER_LEVEL)
        if not await self.storage.tournaments.join(
            row.id, robot, rating=STARTING_RATING, joined=1, max_entrants=MAX_ENTRANTS
        ):
            await tell(
                interaction,
                gettext(mine, "This tournament is full ({most} players) or closed.", most=MAX_ENTRANTS),
            )
            return
        await self._redraw(interaction, row)

    async def _rating(self, row: TournamentRow, user: int) -> float:
        if computer_level(user) is not None:
            return COMPUTER_RATING
        for entry in await self.storage.league.player_ratings(row.guild_id, user):
            if entry["game"] == row.game:
                return float(entry["rating"])
        return STARTING_RATING

    async def _start(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        mine = private_language(interaction)
        entrants = len(row.entrants)
        if entrants < max(row.seats, 2):
            text = ngettext(
                mine,
                "A tournament at tables of {seats} needs at least {n} player — wait for more to join.",
                "A tournament at tables of {seats} needs at least {n} players — wait for more to join.",
                max(row.seats, 2),
                seats=row.seats,
            )
            await tell(interaction, text)
            return
        ratings = {entrant.user_id: await self._rating(row, entrant.user_id) for entrant in row.entrants}
        planned = self._planned_rounds(row, ratings)
        await interaction.response.defer()
        if not await self.storage.tournaments.start(row.id, ratings, planned):
            await interaction.followup.send(
                gettext(mine, "This tournament has started already."), ephemeral=True
            )
            return
        started = await self.storage.tournaments.get(row.id)
        if started is None:
            return
        await interaction.edit_original_response(**self._signup(started))
        async with self._lock(row.id):
            await self._next_round(started)

    def _planned_rounds(self, row: TournamentRow, ratings: dict[int, float]) -> int:
        count = len(row.entrants)
        if row.format == "knockout":
            return max(1, math.ceil(math.log2(count)))
        if row.format == "roundrobin":
            entrants = [Entrant(user, rating) for user, rating in ratings.items()]
            return round_robin_rounds(entrants, row.seats)
        return row.rounds or max(1, math.ceil(math.log2(count)))

    # ------------------------------------------------------------------ rounds

    def _next(self, row: TournamentRow) -> Round | None:
        """The next round by the rules, None when the tournament is over."""
        entrants, rounds = entrants_of(row), rounds_of(row)
        number = row.round + 1
        format_: Format = row.format  # type: ignore[assignment]
        try:
            if format_ == "knockout":
                return knockout_round(entrants, rounds)
            if row.rounds is not None and number > row.rounds:
                return None
            if format_ == "roundrobin":
                return round_robin_round(entrants, number, row.seats)
            spec = self.games[row.game].engine
            return swiss_round(entrants, rounds, Scoring(row.seats), spec.min_players, spec.max_players)
        except TournamentError as reason:
            log.info("Tournament %s ends: %s", row.id, reason)
            return None

    async def _next_round(self, row: TournamentRow) -> None:
        """Start the next round of a running tournament (under its lock), or end it."""
        while True:
            round_ = self._next(row)
            if round_ is None:
                await self._finish(row)
                return
            tables = [(table.seats, table.ranks) for table in round_.tables]
            if not await self.storage.tournaments.add_round(row.id, round_.number, tables, round_.byes):
                return  # another press or process started it
            fresh = await self.storage.tournaments.get(row.id)
            if fresh is None:
                return
            row = fresh
            await self._play_round(row, round_)
            if not round_done(row):
                return

    async def _play_round(self, row: TournamentRow, round_: Round) -> None:
        """Create the round's matches, post their boards, then announce the round in the
        tournament's channel with a link to each match, pinging their players."""
        lang = row.language
        game = self.games[row.game]
        lines = []
        for table in row.tables:
            if table.round != round_.number:
                continue
            versus = self._versus(table.seats, lang)
            if table.ranks is not None:
                lines.append(gettext(lang, "{players}: decided by forfeit.", players=versus))
                continue
            match = await self._create_match(row, game, table)
            if match is None:
                continue
            await self._show(match)
            title = match_title(game.engine.title, match.id, lang)
            lines.append(
                gettext(lang, "{players}: {title} {link}", players=versus, title=title, link=match.jump_url())
            )
        if round_.byes:
            lines.append(
                gettext(lang, "Bye (a win): {players}", players=", ".join(who(p, lang) for p in round_.byes))
            )
        heading = gettext(
            lang,
            "**Tournament #{id} — round {round}** ({game})",
            id=row.id,
            round=round_.number,
            game=game.engine.title,
        )
        people = [player for table in round_.tables if table.ranks is None for player in table.seats]
        pinged = discord.AllowedMentions(users=[discord.Object(p) for p in people if p > 0])
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            for text in messages([heading, *lines]):
                await channel.send(text, allowed_mentions=pinged)
        except discord.HTTPException as error:
            log.warning("Round %s of tournament %s could not be announced: %s", round_.number, row.id, error)

    def _versus(self, seats: tuple[int, ...], lang: str) -> str:
        return gettext(lang, " vs ").join(who(player, lang) for player in seats)

    async def _create_match(self, row: TournamentRow, game: AnyGameUI, table: TableRow) -> Match | None:
        """Seat a table's players in a new running match of the tournament's game."""
        seed = random.SystemRandom().randrange(2**31)
        lobby = await self.storage.matches.open_lobby(
            game=row.game,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=table.seats[0],
            seed=seed,
            options=dict(row.options),
            clock_s=row.clock_s,
            language=row.language,
        )
        for player in table.seats[1:]:
            await self.storage.matches.join_lobby(lobby.id, player, game.engine.max_players)
        players = len(table.seats)
        try:
            state = game.engine.new_game(players, seed, game.spec.options(row.options, players))
        except GameError as error:
            log.warning("Tournament %s could not start a table: %s", row.id, error)
            await self.storage.matches.cancel_lobby(lobby.id)
            return None
        await self.storage.tournaments.set_match(row.id, table.round, table.position, lobby.id)
        if not await self.storage.matches.start(lobby.id, game.engine.dump(state), later(row.clock_s)):
            return None
        started = await self.storage.matches.get(lobby.id)
        if started is None:
            return None
        match = Match(row=started, engine=game.engine, state=state)
        self.running.add(match)
        return match

    async def _show(self, match: Match) -> None:
        """Post a tournament match's board (in a thread of its own when threads are on), then
        ping whoever is to move."""
        if (await self.storage.settings.for_guild(match.row.guild_id)).threads:
            await self._into_thread(match)
        if await self.board.repost(match):
            await self.board.announce(match, previous_seats=())

    async def _into_thread(self, match: Match) -> None:
        """Move a new match into a thread of its own, opened from a line in the channel (where
        no thread can be made there, the match stays in the channel)."""
        lang = match.language
        title = match_title(self.games[match.row.game].engine.title, match.id, lang)
        try:
            channel = self.bot.get_channel(match.row.channel_id) or await self.bot.fetch_channel(
                match.row.channel_id
            )
            me = channel.guild.me if isinstance(channel, discord.TextChannel) else None
            if (
                not isinstance(channel, discord.TextChannel)
                or me is None
                or not may_thread(channel.permissions_for(me))
            ):
                return
            line = gettext(lang, "🧵 **{title}** — a tournament match, in its own thread.", title=title)
            starter = await channel.send(line)
            thread = await starter.create_thread(name=title, auto_archive_duration=10080)
        except discord.HTTPException as error:
            log.info("Match %s stays in the channel: %s", match.id, error)
            return
        await self.storage.matches.move_to_channel(match.id, thread.id)
        match.row.channel_id = thread.id

    async def match_ended(self, match: Match) -> None:
        """A match ended: if it is a tournament's, record its table and go on."""

        async def record(row: TournamentRow, table: TableRow) -> None:
            await self._record(row, table, match.id)
            await self._advance(row.id)

        await self._at_table(match, record)

    async def match_gone(self, match: Match) -> None:
        """A match was set aside for good (its channel deleted): if it is a tournament's, its
        table counts as a draw for everyone at it, and the tournament goes on — unless the
        tournament's own channel is gone, which cancels it (nothing could be posted there)."""

        async def draw(row: TournamentRow, table: TableRow) -> None:
            if self.bot.get_channel(row.channel_id) is None:
                await self.storage.tournaments.close(row.id, "cancelled", was="running")
                return
            await self.storage.tournaments.record(
                row.id, table.round, table.position, (1,) * len(table.seats)
            )
            said = gettext(
                row.language,
                "{match} was played in a channel that was deleted: its table counts as a draw for "
                "everyone at it.",
                match=match_title(self.games[row.game].engine.title, match.id, row.language),
            )
            await self._say(row, said)
            await self._advance(row.id)

        await self._at_table(match, draw)

    async def _at_table(
        self, match: Match, act: Callable[[TournamentRow, TableRow], Awaitable[None]]
    ) -> None:
        """`act` on the undecided table `match` is played for, if it belongs to a running
        tournament of this process's servers (under the tournament's lock)."""
        found = await self.storage.tournaments.table_of(match.id)
        if found is None:
            return
        tournament_id, number, position = found
        async with self._lock(tournament_id):
            row = await self.storage.tournaments.get(tournament_id)
            if row is None or row.status != "running" or not self.shards.owns(row.guild_id):
                return
            table = next((t for t in row.tables if (t.round, t.position) == (number, position)), None)
            if table is not None and table.ranks is None:
                await act(row, table)

    async def _record(self, row: TournamentRow, table: TableRow, match_id: int) -> bool:
        outcome = await self.storage.tournaments.outcome(match_id)
        if outcome is None:
            return False
        by_user = dict(
            zip(
                (seat.user_id for seat in outcome),
                ranks_of([(seat.winner, seat.resigned, seat.score) for seat in outcome]),
                strict=True,
            )
        )
        ranks = tuple(by_user.get(player, len(table.seats)) for player in table.seats)
        return await self.storage.tournaments.record(row.id, table.round, table.position, ranks)

    async def _advance(self, tournament_id: int) -> None:
        """The next round once every table of the current one is decided (under the lock)."""
        row = await self.storage.tournaments.get(tournament_id)
        if row is not None and row.status == "running" and round_done(row):
            await self._next_round(row)

    async def resume(self) -> None:
        """At start-up and when catching up: record the tables whose matches ended while this
        process was away, and start the rounds that are due."""
        for tournament_id in await self.storage.tournaments.running(self.shards):
            async with self._lock(tournament_id):
                row = await self.storage.tournaments.get(tournament_id)
                if row is None:
                    continue
                for table in row.tables:
                    if table.round == row.round and table.ranks is None and table.match_id is not None:
                        await self._record(row, table, table.match_id)
                await self._advance(tournament_id)

    # ----------------------------------------------------------------- leaving

    async def leave(
        self, interaction: discord.Interaction, row: TournamentRow | None = None, member: int | None = None
    ) -> None:
        """The member withdraws from their tournament on this server (or the organizer or a server
        manager removes `member`): off the sign-up, or out of a running one, forfeiting their
        remaining games (a match under way is resigned)."""
        mine = private_language(interaction)
        user = interaction.user.id if member is None else member
        if row is None and interaction.guild_id is not None:
            found = await self.storage.tournaments.latest(interaction.guild_id, user)
            row = await self.storage.tournaments.get(found) if found is not None else None
        if row is None or all(
            entrant.user_id != user or entrant.left is not None for entrant in row.entrants
        ):
            text = (
                gettext(mine, "You are not playing in a tournament here.")
                if user == interaction.user.id
                else gettext(mine, "{player} is not playing in a tournament here.", player=who(user, mine))
            )
            await tell(interaction, text)
            return
        removed = user != interaction.user.id
        if removed and not self._may_manage(interaction, row):
            await tell(
                interaction, gettext(mine, ORGANIZER_ONLY["remove"], organizer=who(row.organizer_id, mine))
            )
            return
        if row.status == "signup":
            await self._leave_signup(interaction, row, user)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._lock(row.id):
            await self.storage.tournaments.withdraw(row.id, user, left=max(row.round, 1))
        said = (
            gettext(
                mine,
                "{player} is out of tournament #{id}: their remaining games are forfeited.",
                player=who(user, mine),
                id=row.id,
            )
            if removed
            else gettext(mine, "You left tournament #{id}: your remaining games are forfeited.", id=row.id)
        )
        await interaction.followup.send(said, ephemeral=True)
        template = REMOVED if removed else LEFT
        note = gettext(row.language, template, player=who(user, row.language), id=row.id)
        await self._say(row, note)
        await self._forfeit_current(row, user, by=None if removed else user)

    async def _leave_signup(self, interaction: discord.Interaction, row: TournamentRow, user: int) -> None:
        mine = private_language(interaction)
        if user == row.organizer_id:
            text = gettext(
                mine, "The organizer cannot leave — press Cancel to call the tournament off instead."
            )
            await tell(interaction, text)
            return
        await self.storage.tournaments.withdraw(row.id, user, left=None)
        if interaction.message is not None and interaction.message.id == row.message_id:
            await self._redraw(interaction, row)
            return
        if user == interaction.user.id:
            await tell(interaction, gettext(mine, "You left tournament #{id}.", id=row.id))
        else:
            text = gettext(
                mine, "{player} is off the sign-up of tournament #{id}.", player=who(user, mine), id=row.id
            )
            await tell(interaction, text)
        await self._edit_signup(row)

    async def _forfeit_current(self, row: TournamentRow, user: int, *, by: int | None) -> None:
        """Resign the leaver's match of the current round (its end records the table), or decide
        a table that has no match by forfeit."""
        for table in row.tables:
            if table.round != row.round or table.ranks is not None or user not in table.seats:
                continue
            match = self.running.get(table.match_id) if table.match_id is not None else None
            if match is None:
                async with self._lock(row.id):
                    ranks = tuple(len(table.seats) if p == user else 1 for p in table.seats)
                    await self.storage.tournaments.record(row.id, table.round, table.position, ranks)
                    await self._advance(row.id)
                continue
            seat = match.seat_of(user)
            if seat is None:
                continue
            async with match.lock:
                previous = match.engine.current_seats(match.state)
                try:
                    left = await self.turns.leave(match, seat, RESIGNED, by=by)
                except GameError as error:
                    log.info("Match %s: the leaver could not resign: %s", match.id, error)
                    continue
            if left:
                await self.board.publish(None, match, previous_seats=previous)

    async def _edit_signup(self, row: TournamentRow) -> None:
        """Redraw the sign-up message as stored now (its controls gone once it is over)."""
        if row.message_id is None:
            return
        current = await self.storage.tournaments.get(row.id) or row
        message = self.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        try:
            await message.edit(**self._signup(current))
        except discord.HTTPException as error:
            log.info("The sign-up of tournament %s could not be redrawn: %s", row.id, error)

    async def _say(self, row: TournamentRow, text: str, **payload: Any) -> None:
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none(), **payload)
        except discord.HTTPException as error:
            log.warning("Tournament %s could not post in its channel: %s", row.id, error)

    # ---------------------------------------------------------------- standings

    async def show_standings(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        mine = private_language(interaction)
        if tournament_id is None and interaction.guild_id is not None:
            tournament_id = await self.storage.tournaments.latest(interaction.guild_id)
        row = await self.storage.tournaments.get(tournament_id) if tournament_id is not None else None
        if row is None or row.guild_id != interaction.guild_id:
            await tell(interaction, gettext(mine, "There is no such tournament on this server."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture, _ = await asyncio.to_thread(standings_picture, row, self.games[row.game].engine.title, mine)
        await interaction.followup.send(file=picture, ephemeral=True)

    async def _finish(self, row: TournamentRow) -> None:
        """The tournament is over: its final standings and the result line in its channel."""
        if not await self.storage.tournaments.close(row.id, "finished", was="running"):
            return
        row.status = "finished"
        lang = row.language
        table = standings_of(row)
        top = [line.player for line in table[:3]]
        places = [N_("🥇 {player}"), N_("🥈 {player}"), N_("🥉 {player}")]
        said = ", ".join(
            gettext(lang, place, player=who(player, lang)) for place, player in zip(places, top, strict=False)
        )
        text = gettext(
            lang,
            "🏆 **Tournament #{id} ({game}) is over:** {podium}.",
            id=row.id,
            game=self.games[row.game].engine.title,
            podium=said,
        )
        ended = discord.utils.utcnow()
        if table:  # the winner's achievement
            first = table[0]
            earned = await self.awards.award_placings(
                row.guild_id, first.player, [Placing("tournament", ended, first.place)]
            )
            if earned:
                text += "\n" + earned_line(first.player, earned, lang)
        title = self.games[row.game].engine.title
        picture, _ = await asyncio.to_thread(standings_picture, row, title, lang)
        podium = await asyncio.to_thread(podium_picture, row, title, table, lang)
        await self._say(row, text, files=[podium, picture])
        await self._edit_signup(row)
