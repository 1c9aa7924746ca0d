"""Reading stored match rows, the same for every storage backend: a row with a column the bot
cannot read is named, never a crash (see `data.repositories`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from data import ratings
from data.model import Departure, MatchRow, SetAside

if TYPE_CHECKING:
    from _typeshed import SupportsKeysAndGetItem

    StoredRow = SupportsKeysAndGetItem[str, Any]  # a row as a mapping

# The columns of a match as `match_row` reads them.
MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, message_id, host_id, status, seed, options, state, "
    "turn, ping_message_id, created_at, started_at, clock_s, deadline, reminded, timeouts, invited, "
    "board_stale, language, resumable, departures, moved_at"
)


def shown_ratings(change: tuple[ratings.Skill, ratings.Skill] | None) -> tuple[int | None, int | None]:
    """A seat's shown rating before and after, or nothing for an unrated match."""
    return (None, None) if change is None else (change[0].shown, change[1].shown)


class UnreadableColumn(ValueError):
    """A stored match has a column the bot cannot read (unreadable JSON, a wrong type, a time
    that is not ISO 8601 with its zone): the row is left out, or set aside when it runs."""

    def __init__(self, column: str, detail: str) -> None:
        super().__init__(f"{column}: {detail}")
        self.column = column
        self.detail = detail

    @property
    def reason(self) -> str:
        """Why the match cannot go on, as its note and its players read it."""
        label = _COLUMN_LABELS.get(self.column, f"{self.column.replace('_', ' ')} is")
        return f"its stored {label} unreadable"


_COLUMN_LABELS = {
    "options": "options are",
    "timeouts": "time-out counts are",
    "invited": "rematch invitations are",
    "departures": "departures are",
    "moved_at": "time of the last move is",
    "deadline": "turn deadline is",
    "started_at": "start time is",
    "state": "game state is",
}
# The plain columns of a match row and the Python types the database must have returned for them
# (SQLite stores any value in any column; the CHECK and NOT NULL constraints are all it enforces).
_SCALAR_TYPES: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "guild_id": (int,),
    "channel_id": (int,),
    "message_id": (int, type(None)),
    "host_id": (int,),
    "status": (str,),
    "seed": (int,),
    "state": (str, type(None)),
    "turn": (int,),
    "ping_message_id": (int, type(None)),
    "created_at": (str,),
    "clock_s": (int, type(None)),
    "reminded": (int,),
    "board_stale": (int,),
    "language": (str,),
    "resumable": (int,),
}


def shifted_by_outage(rows: Iterable[MatchRow], outage: timedelta) -> list[MatchRow]:
    """The running matches a bot outage of `outage` moves in time, moved (in memory): their
    deadline (a fresh reminder with it) and their last move's time, from which a claim counts —
    the time the bot was away counts against nobody."""
    shifted = [row for row in rows if row.deadline is not None or row.moved_at is not None]
    for row in shifted:
        if row.deadline is not None:
            row.deadline = (datetime.fromisoformat(row.deadline) + outage).isoformat()
            row.reminded = False
        if row.moved_at is not None:
            row.moved_at = (datetime.fromisoformat(row.moved_at) + outage).isoformat()
    return shifted


def departures_json(departures: Iterable[Departure]) -> str:
    """A match's departures as stored."""
    return json.dumps([departure.to_json() for departure in departures])


def player_rows(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """A player's tables as `LeagueRepository.player_ratings` returns them, from rows of
    (game, mu, sigma, wins, games, opponents)."""
    return [
        {
            "game": game,
            "rating": ratings.Skill(mu, sigma).shown,
            "wins": wins,
            "games": games,
            "opponents": opponents,
            "listed": ratings.listed(games, opponents),
        }
        for game, mu, sigma, wins, games, opponents in rows
    ]


def results_by_match(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Finished matches as `LeagueRepository.recent_results` returns them, from rows of
    (match_id, game, draw, abandoned, unrated, duration_s, finished_at, seat, user_id, score,
    winner, left_by, rating_before, rating_after), one a seat, grouped by match in their order."""
    results: dict[int, dict[str, Any]] = {}
    for m, g, d, a, unrated, duration, f, seat, user, score, won, left, before, after in rows:
        entry = results.setdefault(
            m,
            {
                "match_id": m,
                "game": g,
                "draw": bool(d),
                "abandoned": bool(a),
                "unrated": unrated,
                "duration_s": duration,
                "finished_at": f,
                "seats": [],
            },
        )
        entry["seats"].append(
            {
                "seat": seat,
                "user_id": user,
                "score": score,
                "winner": bool(won),
                "left": left,
                "change": None if before is None or after is None else after - before,
            }
        )
    return list(results.values())


def match_row(row: StoredRow, players: list[int]) -> MatchRow:
    """A stored match as the bot uses it; `UnreadableColumn` names the first column that is not."""
    values = dict(row)
    for column, types in _SCALAR_TYPES.items():
        if not isinstance(values[column], types):
            raise UnreadableColumn(column, f"{type(values[column]).__name__} {values[column]!r}")
    values["options"] = _parsed(values, "options", _json_object)
    values["timeouts"] = _parsed(values, "timeouts", _time_out_counts)
    values["invited"] = _parsed(values, "invited", _user_ids)
    values["departures"] = _parsed(values, "departures", _departures)
    _parsed(values, "deadline", _zoned_time)
    _parsed(values, "moved_at", _zoned_time)
    _parsed(values, "started_at", _zoned_time)
    values["reminded"] = bool(values["reminded"])
    values["board_stale"] = bool(values["board_stale"])
    values["resumable"] = bool(values["resumable"])
    return MatchRow(**values, players=players)


def _parsed(values: dict[str, Any], column: str, parse: Callable[[Any], Any]) -> Any:
    try:
        return parse(values[column])
    except (ValueError, TypeError) as error:
        raise UnreadableColumn(column, str(error) or type(error).__name__) from error


def _json_object(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"not a JSON object: {text[:80]!r}")
    return value


def _time_out_counts(text: str) -> dict[str, int]:
    counts = _json_object(text)
    if not all(type(count) is int for count in counts.values()):
        raise ValueError(f"not counts: {text[:80]!r}")
    return counts


def _user_ids(text: str | None) -> list[int] | None:
    if not text:
        return None
    users = json.loads(text)
    if not isinstance(users, list) or not all(type(user) is int for user in users):
        raise ValueError(f"not a list of user ids: {text[:80]!r}")
    return users


def _departures(text: str) -> list[Departure]:
    value = json.loads(text)
    if not isinstance(value, list):
        raise ValueError(f"not a list of departures: {text[:80]!r}")
    try:
        return [Departure.from_json(item) for item in value]
    except KeyError as error:
        raise ValueError(f"a departure without {error}: {text[:80]!r}") from error


def _zoned_time(text: str | None) -> str | None:
    """A stored time the bot computes with: ISO 8601 text with its time zone, or None."""
    if text is not None and datetime.fromisoformat(text).tzinfo is None:
        raise ValueError(f"no time zone in {text!r}")
    return text


def set_aside_notice(row: StoredRow, players: list[int], reason: str) -> SetAside:
    """What setting an unreadable match aside tells its players: plain columns, no JSON parsed."""
    return SetAside(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        board_message_id=row["message_id"],
        players=tuple(players),
        reason=reason,
        language=row["language"] if isinstance(row["language"], str) else "en",
    )
