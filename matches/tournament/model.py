"""The values a tournament is made of: its entrants, its rounds and their tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PlayerId = int
Format = Literal["swiss", "knockout", "roundrobin"]


class TournamentError(ValueError):
    """A request the tournament's rules refuse; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament. `joined` is the first round they play (2 for a late entrant of
    a Swiss tournament); `left` the first round they no longer play, once they left or were
    removed."""

    id: PlayerId
    rating: float
    joined: int = 1
    left: int | None = None

    def plays_in(self, number: int) -> bool:
        """Whether the entrant is paired in round `number`."""
        return self.joined <= number and (self.left is None or number < self.left)


@dataclass(frozen=True, slots=True)
class Table:
    """One match of a round: its players in seat order and, once decided, each seat's place
    (1 is best; equal places are a tie, e.g. `(1, 1, 3)`)."""

    seats: tuple[PlayerId, ...]
    ranks: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats):
            raise TournamentError(f"A player sits twice at the table {self.seats}.")
        if self.ranks is not None and len(self.ranks) != len(self.seats):
            raise TournamentError(f"The table {self.seats} needs one place per seat, not {self.ranks}.")

    @property
    def decided(self) -> bool:
        return self.ranks is not None

    def decide(self, ranks: tuple[int, ...]) -> Table:
        """This table with its result."""
        return Table(self.seats, ranks)


@dataclass(frozen=True, slots=True)
class Round:
    """A round: its tables and the players who have a bye (a bye counts as a win)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()

    def __post_init__(self) -> None:
        players = [player for table in self.tables for player in table.seats] + list(self.byes)
        if len(set(players)) != len(players):
            raise TournamentError(f"Round {self.number} has a player twice.")

    @property
    def players(self) -> frozenset[PlayerId]:
        return frozenset(player for table in self.tables for player in table.seats) | set(self.byes)

    @property
    def finished(self) -> bool:
        return all(table.decided for table in self.tables)

    def record(self, index: int, ranks: tuple[int, ...]) -> Round:
        """This round with the result of its table `index`."""
        tables = list(self.tables)
        tables[index] = tables[index].decide(ranks)
        return Round(self.number, tuple(tables), self.byes)
