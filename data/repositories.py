"""The storage interface: what the bot asks of a database, whichever one it is.

`Database` is what the bot holds (`bot.storage`); it exposes three repositories split by
responsibility. `data.storage.Storage` implements them on SQLite; a PostgreSQL backend
implements the same protocols (tests/data/test_interface.py checks an implementation's
signatures against them). Every backend keeps these guarantees:

- Every accepted move is one transaction: the new state, the move-log row and the turn
  number (`turn = turn + 1` only where the turn is still the one the move was made at),
  and with the final move the result and the ratings. So a move is applied at most once,
  whichever process or click gets there first.
- Reads never run a query per row (no N+1): a list of matches, results or ratings costs
  a fixed number of queries however long it is.
- Times are ISO 8601 UTC text (`data.model.now_iso`) at this interface.
- A stored match with a column the backend cannot read (unreadable JSON, a wrong type, a
  time without its zone) never stops a call: lists leave it out with a warning, `get`
  returns None for it, and resuming sets it aside (status 'set_aside', with a note why).
- A database that refuses a call for now (busy past its wait, full, read-only, a disk
  error) raises `data.model.StorageUnavailable`, whose message a player can read, with the
  call's transaction rolled back whole: nothing of it was saved.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Protocol

from data.model import (
    ALL_SHARDS,
    Departure,
    GuildSettings,
    HeadToHead,
    MatchResult,
    MatchRow,
    RatedResult,
    SetAside,
    Shards,
    Takeback,
)


class MatchRepository(Protocol):
    """Lobbies, seats, the move log, running matches, their deadlines and ping messages."""

    async def open_lobby(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seed: int,
        options: dict[str, Any],
        clock_s: int | None = None,
        invited: list[int] | None = None,
        language: str = "en",
        rematch_of: int | None = None,
        max_hosted: int | None = None,
    ) -> MatchRow:
        """Store a new lobby with the host in seat 0 (`invited`: a rematch's players; `language`:
        that of its public messages). With `rematch_of`, the lobby is that match's one rematch:
        `RematchTaken` (with it) if it has one already. With `max_hosted`, `TooManyLobbies` (with
        them) if the host holds that many open lobbies on the server already. The checks and the
        new lobby are one transaction, so lobbies opened at the same time never pass them together."""
        ...

    async def join_lobby(self, match_id: int, user_id: int, max_players: int) -> bool:
        """Seat `user_id` in the lobby; False if it is not a lobby, it has `max_players`
        seated already, or they sit already. The count and the new seat are one transaction,
        so joins racing for the last seat (from any process) fill it once."""
        ...

    async def leave_lobby(self, match_id: int, user_id: int) -> bool:
        """Unseat `user_id` from the lobby, closing the gap; False if they were not seated."""
        ...

    async def cancel_lobby(self, match_id: int) -> bool:
        """Cancel a lobby (cancelled matches store no result); False if it already started."""
        ...

    async def start(self, match_id: int, state: str, deadline: str | None = None) -> bool:
        """Turn a lobby into a running match at turn 0; False if it is no longer a lobby."""
        ...

    async def record_move(
        self,
        match_id: int,
        *,
        turn: int,
        seat: int,
        user_id: int | None,
        move: dict[str, Any],
        state: str,
        result: MatchResult | None = None,
        deadline: str | None = None,
        timeouts: dict[str, int] | None = None,
        departures: list[Departure] | None = None,
    ) -> bool:
        """Commit one accepted move made at `turn` in one transaction: state, log row, turn
        number, the clock, the time of the move and (given) the match's departures now; with
        `result` the match ends, its result and the ratings stored in the same transaction
        (by the rules of `data.ratings`). False, changing nothing, when the match is not
        running at `turn` any more (another click or process got there first)."""
        ...

    async def move_to_channel(self, match_id: int, channel_id: int) -> None:
        """Move a lobby (and the match it becomes) to another channel: its own thread."""
        ...

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        """Remember the message that shows the lobby or board."""
        ...

    async def set_ping_message(self, match_id: int, message_id: int | None) -> None:
        """Remember (or forget, with None) the message that pings whose turn it is."""
        ...

    async def mark_board_stale(self, match_id: int, stale: bool) -> None:
        """Note that the board message shows an older turn (its redraw failed), or no longer does."""
        ...

    async def claim_ping(self, match_id: int, *, turn: int) -> bool:
        """Claim the pings of `turn`: True for the one caller that notes it, False if the players
        due at that turn (or a later one) were pinged already, by this process or another."""
        ...

    async def mark_reminded(self, match_id: int, *, turn: int) -> bool:
        """Claim the reminder of `turn`: True for the one caller that notes it, False if the
        match is past that turn or someone (another process) already reminded."""
        ...

    async def replace_player(
        self,
        match_id: int,
        seat: int,
        user_id: int,
        timeouts: dict[str, int],
        *,
        replacing: int,
        departures: list[Departure],
    ) -> bool:
        """Seat `user_id` (a computer) in a running match's `seat` instead of its player
        `replacing`, with the time-out counts `timeouts` and the match's `departures` now (the
        player's among them); False if the match is not running or the seat is no longer that
        player's (another process replaced them first)."""
        ...

    async def own_moves(self, match_id: int) -> dict[int, int]:
        """How many turns each seat's person played themselves, by seat: a turn of several
        decisions (take, push, flip, flip) is one, begun by its person (not the clock playing
        for them, nor a computer); a seat without any is missing."""
        ...

    async def count_hint(self, match_id: int, seat: int, *, turn: int) -> bool:
        """Count the hint `seat`'s player asked for at `turn`, once: False if that turn's hint
        was counted already (by any process)."""
        ...

    async def hints(self, match_id: int) -> dict[int, int]:
        """How many hints each seat's player asked for in the match, by seat (none: missing)."""
        ...

    async def get(self, match_id: int) -> MatchRow | None:
        """One match with its players, or None."""
        ...

    async def running(self) -> list[MatchRow]:
        """Every running match with its players, oldest first."""
        ...

    async def resume_running(
        self, outage: timedelta, shards: Shards = ALL_SHARDS
    ) -> tuple[list[MatchRow], list[SetAside]]:
        """In one transaction, for the running matches of the guilds `shards` owns: push every
        readable running match's deadline back by `outage`
        (the time the bot was away does not count against players) and set aside every
        running match whose row cannot be read. Returns the readable ones, oldest first, with
        the deadlines as now stored, and the ones set aside, oldest first, to tell their players."""
        ...

    async def set_aside(self, match_id: int, reason: str, *, resumable: bool = False) -> SetAside | None:
        """Take a running match out of play (status 'set_aside', `reason` as its note, its clock
        stopped), keeping its state and moves for an operator to repair or, `resumable`, for its
        players to resume; returns what to tell its players, or None if it was not running (so
        they are told once, whichever process sets it aside)."""
        ...

    async def set_aside_guild(self, guild_id: int, reason: str) -> list[SetAside]:
        """Set aside, resumable, every running match of a server (the bot was removed from it),
        in one transaction; returns what to tell their players, oldest first."""
        ...

    async def resume_set_aside(self, match_id: int, deadline: str | None) -> bool:
        """Put a resumable set-aside match back in play with a fresh `deadline` (a fresh clock
        for whoever is to move, who is pinged again: the pause was news; the time it was paused
        counts as no one's silence for a claim); False if it is not one (resumed already, or never
        resumable)."""
        ...

    async def turns_since(self, since: str, shards: Shards = ALL_SHARDS) -> dict[int, tuple[int, str]]:
        """The turn and status of every match of the guilds `shards` owns written at or after
        `since` (a stored time), by id: how a process learns what another one played."""
        ...

    async def lobbies(self) -> list[MatchRow]:
        """Every open lobby with its players, oldest first."""
        ...

    async def active_for(self, user_id: int, guild_id: int) -> list[MatchRow]:
        """The lobbies, running matches and resumable set-aside matches `user_id` sits in on one
        server, newest first."""
        ...

    async def rematch_of(self, match_id: int) -> MatchRow | None:
        """The lobby opened as the rematch of `match_id` (or the match it became), or None."""
        ...

    async def move_log(self, match_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The move log of a match as (turn, seat, move), in order."""
        ...


class LeagueRepository(Protocol):
    """Results, ratings and what is read from them: leaderboards, stats and history.

    Results and ratings are written by `MatchRepository.record_move` with the final move."""

    async def rating_changes(self, match_id: int) -> dict[int, tuple[int, int]]:
        """Each seat's shown rating (in the match's game) before and after a finished match."""
        ...

    async def unrated_reason(self, match_id: int) -> str | None:
        """Why a finished match changed no rating (`data.model.WITH_COMPUTERS`…), or None."""
        ...

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> list[dict[str, Any]]:
        """One page of a server's table of its listed members (`data.ratings.listed`), best
        first: dicts of user_id, rating, wins, games."""
        ...

    async def rated_players(self, guild_id: int, game: str) -> int:
        """How many members a server's table of `game` lists."""
        ...

    async def player_ratings(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        """A player's game, rating, wins, games (rated), opponents (different members met in
        them) and listed (on the leaderboard, else provisional) for every game they were
        rated in on a server."""
        ...

    async def recent_results(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """A server's latest finished matches, newest first: dicts of match_id, game, draw,
        abandoned, unrated (why it was not rated, or None), duration_s, finished_at and seats
        (seat, user_id, score, winner, left: how they left before the end or None, change:
        None where the match changed no rating)."""
        ...

    async def computer_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """How many finished matches with computer seats a player played on a server, and won."""
        ...

    async def hints_used(self, guild_id: int, user_id: int) -> int:
        """How many hints a player asked for in the finished matches they played on a server."""
        ...

    async def rating_history(self, guild_id: int, user_id: int, *, limit: int) -> list[RatedResult]:
        """A player's rated matches on a server, the latest `limit` of each game at most, oldest
        first: the shown rating in the match's game before and after each, and how it ended."""
        ...

    async def head_to_head(self, guild_id: int, user_id: int, other_id: int) -> list[HeadToHead]:
        """The matches two members played against each other on a server (on different teams, not
        abandoned), per game in the order of their names, counted from `user_id`'s side."""
        ...


class SettingsRepository(Protocol):
    """The servers' settings and the bot's own facts (meta key/values)."""

    async def for_guild(self, guild_id: int) -> GuildSettings:
        """A server's settings (None where it kept the default)."""
        ...

    async def set_default_clock(self, guild_id: int, seconds: int) -> None:
        """The turn clock new matches of a server get when the host chooses none."""
        ...

    async def set_max_timeouts(self, guild_id: int, count: int) -> None:
        """How many time-outs in a row remove a player on a server."""
        ...

    async def set_threads(self, guild_id: int, on: bool) -> None:
        """Whether each new lobby of a server gets its own thread."""
        ...

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server's managers chose for its public messages ("en", "de", "fr"…),
        or None: the server's own."""
        ...

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose a server's public language (None: follow the server's own)."""
        ...

    async def member_locale(self, user_id: int) -> str | None:
        """The Discord locale a member last used with the bot, or None if never seen."""
        ...

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord locale a member uses, for their DMs."""
        ...

    async def dms_closed(self, user_id: int) -> bool:
        """Whether Discord refused a DM to the member since they last used the bot."""
        ...

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Note that Discord refused a DM to the member (True), or that they used the bot since."""
        ...

    async def get_meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (e.g. when it was last up), or None."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact the bot keeps about itself."""
        ...


class TakebackRepository(Protocol):
    """Requests to take a player's last move back by consent, and the moves taken back.

    A request is open while it is asked and its match is still at the turn after the move it
    asks about: the next move (a player's, the clock's, a computer's) lapses it."""

    async def ask(self, match_id: int, *, turn: int, user_id: int, asked: list[int]) -> Takeback | None:
        """Store the request of `user_id` to take back their move of `turn`, asking the people
        `asked`; None, storing nothing, unless it is the running match's last move, made by
        them (not a resignation), and not asked back before (one request per move)."""
        ...

    async def get(self, takeback_id: int) -> Takeback | None:
        """One request, whatever became of it, or None."""
        ...

    async def pending(self) -> list[Takeback]:
        """The requests still asked in running matches, oldest first (to resume them)."""
        ...

    async def set_message(self, takeback_id: int, message_id: int) -> None:
        """Remember the message that shows the request."""
        ...

    async def accept(self, takeback_id: int, user_id: int) -> Takeback | None:
        """Note the Accept of `user_id`, one of those asked; the request as it is now, or None
        when it is not open or does not ask them."""
        ...

    async def close(self, takeback_id: int, status: str, user_id: int | None) -> bool:
        """End an asked request as `status` (declined by `user_id`, or lapsed: None); False if
        it was not asked any more."""
        ...

    async def take_back(self, takeback_id: int, *, user_id: int, state: str, deadline: str | None) -> bool:
        """In one transaction, at the last Accept (by `user_id`): the move leaves the move log
        (the request keeps it), the match returns to `state` at the move's turn with a fresh
        `deadline`, the hints counted for the turns after it count anew when those turns come
        again, and the request is accepted. False, changing nothing, if it is not open."""
        ...

    async def count(self, guild_id: int, user_id: int) -> int:
        """How many moves a player took back in the matches of a server."""
        ...


class Database(Protocol):
    """An open database: its repositories and how to close it."""

    @property
    def matches(self) -> MatchRepository: ...

    @property
    def league(self) -> LeagueRepository: ...

    @property
    def settings(self) -> SettingsRepository: ...

    @property
    def takebacks(self) -> TakebackRepository: ...

    async def close(self) -> None: ...
