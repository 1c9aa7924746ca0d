"""The values storage speaks in, whatever the database behind it (SQLite today, PostgreSQL later)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
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
