"""The values storage speaks in, whatever the database behind it (SQLite today, PostgreSQL later)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import discord


class StorageError(RuntimeError):
    """The database cannot be used; the message says what to fix."""


class StorageUnavailable(StorageError):
    """The database refused a call for now (busy past the wait, full, read-only, or a disk
    error): nothing of the call was saved. The message is for the player; `__cause__` holds
    the database's own error."""

    MESSAGE = (
        "The game's database is busy or out of space right now — nothing was saved; try again in a moment."
    )

    def __init__(self, message: str = MESSAGE) -> None:
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Shards:
    """The guilds whose matches this process runs (their clocks, boards and computer seats):
    with `count` set, those of the shards `ids` (Discord's rule: a guild belongs to shard
    `(guild_id >> 22) % count`); without, every guild."""

    count: int | None = None
    ids: tuple[int, ...] = ()

    def owns(self, guild_id: int) -> bool:
        return self.count is None or (guild_id >> 22) % self.count in self.ids

    def condition(self, column: str = "guild_id") -> str:
        """The SQL condition (the same in every dialect) that a row's guild is owned."""
        if self.count is None:
            return "TRUE"
        ids = ", ".join(str(int(shard)) for shard in self.ids)
        return f"(({column} >> 22) % {int(self.count)}) IN ({ids})"

    @property
    def name(self) -> str:
        """e.g. "shards 0,1 of 4", for logs and the per-process notes in the database."""
        if self.count is None:
            return "all shards"
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


ALL_SHARDS = Shards()


def is_computer(user_id: int) -> bool:
    """Whether a seat's stored user id is a computer's: those are negative, Discord's ids positive."""
    return user_id < 0


@dataclass(slots=True)
class MatchRow:
    """One match as stored: plain values, the engine state as its dumped text."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    status: str
    seed: int
    options: dict[str, Any]
    state: str | None
    turn: int
    ping_message_id: int | None
    created_at: str
    started_at: str | None
    clock_s: int | None = None
    deadline: str | None = None
    reminded: bool = False
    timeouts: dict[str, int] = field(default_factory=dict)
    invited: list[int] | None = None
    board_stale: bool = False  # the board message shows an older turn (its redraw failed)
    players: list[int] = field(default_factory=list)
    language: str = "en"  # of its public messages, fixed when its lobby opened
    resumable: bool = False  # set aside for a place the bot lost: its players may resume it
    departures: list[Departure] = field(default_factory=list)  # people who left it, in order
    moved_at: str | None = None  # when its last move was made (or it started)

    @property
    def paused(self) -> bool:
        """Set aside for a place the bot lost, until one of its players resumes it."""
        return self.status == "set_aside" and self.resumable


class LobbyRefused(Exception):
    """A lobby that may not open; `lobbies` are the ones in its way, oldest first."""

    def __init__(self, lobbies: list[MatchRow]) -> None:
        super().__init__(", ".join(f"#{row.id}" for row in lobbies))
        self.lobbies = lobbies


class TooManyLobbies(LobbyRefused):
    """The host holds the most open lobbies a member may on that server (`lobbies`: those)."""


class RematchTaken(LobbyRefused):
    """The match has its rematch already (`lobbies`: that one, whatever became of it)."""


@dataclass(frozen=True, slots=True)
class SetAside:
    """A running match taken out of play because its stored row cannot be read: what the bot
    needs to tell its players. The row keeps its state and moves for an operator to repair."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    board_message_id: int | None
    players: tuple[int, ...]  # in seat order
    reason: str  # e.g. "its stored options are unreadable"
    language: str = "en"  # of the match's public messages


# How a person left a running match before its end (`Departure.reason`, `SeatResult.left`):
# they resigned; the clock handed their seat to a computer after time-outs; the bot resigned
# them when they were no longer on the server; the others claimed the match after days without
# a move of theirs. Each is a resignation: they rank below everyone who stayed.
RESIGNED, TIMED_OUT, DEPARTED, CLAIMED = "resigned", "timeout", "departed", "claimed"
LEFT_BY = (RESIGNED, TIMED_OUT, DEPARTED, CLAIMED)
# Why a finished match changed no rating (`results.unrated`).
WITH_COMPUTERS, ABANDONED, REPEATED, HINTED = "computers", "abandoned", "repeat", "hints"


@dataclass(frozen=True, slots=True)
class Departure:
    """A person who left a running match at `turn` (see RESIGNED…), from `seat`. `early`: some
    person's seat had not made two moves of its own by then, so the match is abandoned, unrated."""

    seat: int
    user_id: int
    turn: int
    reason: str
    early: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "user": self.user_id,
            "turn": self.turn,
            "reason": self.reason,
            "early": self.early,
        }

    @classmethod
    def from_json(cls, value: Any) -> Departure:
        """A stored departure; ValueError (or TypeError) when it is not one."""
        if not isinstance(value, dict):
            raise ValueError(f"not a departure: {value!r}")
        departure = cls(value["seat"], value["user"], value["turn"], value["reason"], value["early"])
        if not all(type(n) is int for n in (departure.seat, departure.user_id, departure.turn)):
            raise ValueError(f"not a departure: {value!r}")
        if departure.reason not in LEFT_BY or type(departure.early) is not bool:
            raise ValueError(f"not a departure: {value!r}")
        return departure


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a match; `left`: how its person left before the end (RESIGNED…)."""

    seat: int
    user_id: int
    team: int
    score: int
    winner: bool
    resigned: bool = False
    left: str | None = None
    left_at: int | None = None  # the turn they left at (ranks who left later above who left sooner)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What a finished (or abandoned) match stores for leaderboards and history. `abandoned`:
    a person left before every person's seat made two moves of its own; unrated for everyone."""

    draw: bool
    seats: tuple[SeatResult, ...]
    abandoned: bool = False
    tiebreak: str | None = None


class GuildSettings(NamedTuple):
    """A server's choices; None where it kept the bot's default."""

    clock_s: int | None = None  # the default turn clock of new matches, in seconds
    max_timeouts: int | None = None  # time-outs in a row before a player is removed
    threads: bool = False  # whether each new lobby gets its own thread


def now_iso() -> str:
    """The current time as stored: ISO 8601 UTC, following the bot's clock."""
    return discord.utils.utcnow().isoformat()


def seconds_between(start: str | None, end: str) -> float:
    """Seconds from one stored time to another (0 when the first is unknown)."""
    if start is None:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


# What became of a request to take a move back (`Takeback.status`): still asked; accepted by
# everyone asked (the move is taken back); declined by one of them; lapsed when the next move
# (or the turn clock) came first.
ASKED, ACCEPTED, DECLINED, LAPSED = "asked", "accepted", "declined", "lapsed"
TAKEBACK_STATUSES = (ASKED, ACCEPTED, DECLINED, LAPSED)


@dataclass(frozen=True, slots=True)
class Takeback:
    """A request of `user_id` to take back their move of `turn` (its seat, move and time, kept
    here when it leaves the move log), asking the people `asked`; `accepted`: those who did.
    `message_id`: the public request, once posted."""

    id: int
    match_id: int
    turn: int
    seat: int
    user_id: int
    move: dict[str, Any]
    moved_at: str
    asked: tuple[int, ...]
    accepted: tuple[int, ...]
    status: str
    asked_at: str
    message_id: int | None = None
    answered_by: int | None = None

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The people asked who have not accepted yet."""
        return tuple(user for user in self.asked if user not in self.accepted)


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One rated match of a player, as their rating history reads it: the game, when it ended,
    their shown rating in the game before and after it, and whether they won it (`won`) or
    shared the win (`drew`)."""

    game: str
    finished_at: str
    before: int
    after: int
    won: bool
    drew: bool


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """What two members' matches against each other in one game came to (abandoned ones left
    out): how many, how many each won alone, how many they drew (a draw, or both among the
    winners) and when the last one ended; the rest were won by someone else at the table."""

    game: str
    played: int
    wins: int
    losses: int
    draws: int
    last_played: str

    @property
    def others(self) -> int:
        """Matches of the two that neither won (a third player did)."""
        return self.played - self.wins - self.losses - self.draws


# How often a server's seasons end (`/settings seasons`): at the start of each month or quarter, UTC.
MONTHLY, QUARTERLY = "monthly", "quarterly"
SEASON_KINDS = (MONTHLY, QUARTERLY)


def next_boundary(kind: str, after: datetime) -> datetime:
    """The first start of a month (`MONTHLY`) or a quarter (`QUARTERLY`), UTC, strictly after
    `after`: where a season under way at `after` ends."""
    step = 3 if kind == QUARTERLY else 1
    month = (after.month - 1) // step * step + step  # months since January at the next boundary
    return datetime(after.year + month // 12, month % 12 + 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season: under way (`ended_at` None) until `ends_at`, or ended (its final
    tables archived). `kind`: `MONTHLY` or `QUARTERLY`."""

    id: int
    guild_id: int
    kind: str
    started_at: str
    ends_at: str
    ended_at: str | None = None

    @property
    def period(self) -> datetime:
        """A moment inside the month or quarter the season ends with (it is named after it)."""
        return datetime.fromisoformat(self.ends_at) - timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in a season's final table: `rank` (shared by equal ratings and wins),
    the rating shown at the end, and the season's rated games and wins."""

    user_id: int
    rank: int
    rating: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """What a season's end did: the season ended, the one that follows, the top of its table
    across all games, and where its matches were played (`channels`: channel or thread, its
    matches in the season and the time of its last one, most played first)."""

    season: Season
    following: Season
    podium: tuple[Standing, ...]
    channels: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True, slots=True)
class Award:
    """An achievement (`key`) a member earned on a server, when, and the match that earned it
    (None for a placing)."""

    guild_id: int
    user_id: int
    key: str
    earned_at: str
    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    """How one seat ended a finished match, as achievements read it: its person (a computer's
    negative id), whether it won, whether its person left before the end (and how: `left`,
    RESIGNED…), the hints they asked."""

    seat: int
    user_id: int
    winner: bool
    resigned: bool
    hints: int
    left: str | None = None


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished (or abandoned) match as stored, with what replays it: its seed, options and
    move log (turn, seat, move), and why it changed no rating (`unrated`, or None)."""

    match_id: int
    game: str
    guild_id: int
    finished_at: str
    draw: bool
    abandoned: bool
    unrated: str | None
    seed: int
    options: dict[str, Any]
    seats: tuple[PlayedSeat, ...]
    log: tuple[tuple[int, int, dict[str, Any]], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One finished match of a player (`seat`: theirs), with the ids of its computer seats."""

    match_id: int
    game: str
    finished_at: str
    draw: bool
    abandoned: bool
    unrated: str | None
    seat: PlayedSeat
    computers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A player of a tournament: their rating when it started, the first round they play in and
    the first they no longer play in (None: still in)."""

    user_id: int
    rating: float
    joined: int = 1
    left: int | None = None
    name: str | None = None  # the member's name when they joined (None: a computer)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table of a round: its players in seat order, its places once decided, its match."""

    round: int
    position: int
    seats: tuple[int, ...]
    ranks: tuple[int, ...] | None
    match_id: int | None


@dataclass(slots=True)
class TournamentRow:
    """A stored tournament with its entrants (in sign-up order), tables and byes by round."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organizer_id: int
    game: str
    format: str
    seats: int
    rounds: int | None
    clock_s: int | None
    options: dict[str, Any]
    language: str
    status: str
    round: int
    entrants: list[EntrantRow] = field(default_factory=list)
    tables: list[TableRow] = field(default_factory=list)
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How a seat of a finished match ended, as its tournament table reads it."""

    seat: int
    user_id: int
    winner: bool
    score: int
    resigned: bool
