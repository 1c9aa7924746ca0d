"""What a finished match's move log shows each seat achieved: its feats, one module per game.

A game's `feats(views, log)` reads the spectator views of every state of a match (`views[0]`
the start, `views[i + 1]` after the log's entry `i`, as `games.replay.replay_states` rebuilds
them) and the log itself (`(turn, seat, move)` entries), and returns the keys of the feats each
seat achieved. Spectator views only: a feat never tells what a seat could not see. A move the
turn clock played for an absent seat counts as that seat's move, as it does on the board (the
clock picks the least consequential move, so it hardly ever makes a feat).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Logged = tuple[int, int, Mapping[str, Any]]
"""One entry of a move log: (turn, seat, move)."""
FeatsBySeat = dict[int, frozenset[str]]
"""The keys of the feats each seat achieved (seats without any are left out)."""
Kind = Literal["league", "feat"]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: its stable `key` (stored, never renamed), its English `name` and one-line
    `description` (marked for translation), its `emoji`, its `kind` and, for a feat, its `game`."""

    key: str
    name: str
    description: str
    emoji: str
    kind: Kind
    game: str | None = None


def steps(views: Sequence[Any], log: Sequence[Logged]) -> Iterator[tuple[int, Mapping[str, Any], Any, Any]]:
    """Each logged move as (seat, move, view before, view after)."""
    if len(views) != len(log) + 1:
        raise ValueError(f"{len(views)} views do not frame a log of {len(log)} moves: give one more view.")
    for index, (_, seat, move) in enumerate(log):
        yield seat, move, views[index], views[index + 1]


def by_seat(earned: Iterable[tuple[int, str]]) -> FeatsBySeat:
    """(seat, key) pairs gathered by seat."""
    found: dict[int, set[str]] = {}
    for seat, key in earned:
        found.setdefault(seat, set()).add(key)
    return {seat: frozenset(keys) for seat, keys in sorted(found.items())}


def winners(views: Sequence[Any]) -> list[int]:
    """The winning seats of the finished match the views end with ([] while it runs)."""
    return list(views[-1]["winners"] or [])
