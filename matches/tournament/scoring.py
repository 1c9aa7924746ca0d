"""What results are worth, and how leaving a tournament decides games.

Points by place: at a tournament of two seats a win is 1, a draw ½ each and a loss 0 (chess's
convention, so Buchholz and Sonneborn–Berger read as players know them). At a tournament of more
seats a win is 3 at any table and every other place 1 per player finished behind: 3-0 at a table
of two, 3-1-0 at three, 3-2-1-0 at four. Players tied for places share them: each gets the
average of the points of the places they share (two tied winners of three get (3 + 1) / 2 = 2).
A bye is worth a win.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from matches.tournament.model import Entrant, PlayerId, Round, Table, TournamentError


@dataclass(frozen=True, slots=True)
class Scoring:
    """The points of a tournament whose tables have `seats` seats (the chosen size)."""

    seats: int = 2

    def __post_init__(self) -> None:
        if self.seats < 2:
            raise TournamentError(f"A table seats two players or more, not {self.seats}.")

    @property
    def win(self) -> Fraction:
        return Fraction(1 if self.seats == 2 else 3)

    def place_points(self, size: int) -> tuple[Fraction, ...]:
        """The points of places 1 to `size` at a table of `size` players."""
        return (self.win, *(Fraction(0 if self.seats == 2 else size - place) for place in range(2, size + 1)))

    def table_points(self, table: Table) -> dict[PlayerId, Fraction]:
        """Each player's points at a decided table, tied places shared."""
        if table.ranks is None:
            raise TournamentError(f"The table {table.seats} has no result yet.")
        points = self.place_points(len(table.seats))
        shares: dict[PlayerId, Fraction] = {}
        for player, rank in zip(table.seats, table.ranks, strict=True):
            ahead = sum(1 for other in table.ranks if other < rank)
            tied = sum(1 for other in table.ranks if other == rank)
            shares[player] = sum(points[ahead : ahead + tied], Fraction(0)) / tied
        return shares


def points(rounds: Iterable[Round], scoring: Scoring) -> dict[PlayerId, Fraction]:
    """Each player's points from the decided tables and the byes of `rounds` (players without
    any are missing: they have zero)."""
    totals: dict[PlayerId, Fraction] = {}
    for round_ in rounds:
        for player in round_.byes:
            totals[player] = totals.get(player, Fraction(0)) + scoring.win
        for table in round_.tables:
            if table.decided:
                for player, share in scoring.table_points(table).items():
                    totals[player] = totals.get(player, Fraction(0)) + share
    return totals


def forfeited(table: Table, gone: Iterable[PlayerId]) -> Table:
    """`table` decided because the players `gone` left: they share the last place and the others
    share the first (at a table of two, the opponent wins)."""
    leaving = set(gone) & set(table.seats)
    if not leaving:
        return table
    last = len(table.seats) - len(leaving) + 1
    return table.decide(tuple(last if player in leaving else 1 for player in table.seats))


def decide_forfeits(round_: Round, entrants: Iterable[Entrant]) -> Round:
    """`round_` with every undecided table at which a player no longer plays decided by forfeit
    (called when a player leaves, and on each new round of a fixed schedule)."""
    gone = {entrant.id for entrant in entrants if not entrant.plays_in(round_.number)}
    tables = tuple(
        forfeited(table, gone) if not table.decided and gone & set(table.seats) else table
        for table in round_.tables
    )
    return Round(round_.number, tables, round_.byes)


def withdraw(entrants: Iterable[Entrant], player: PlayerId, current: int) -> tuple[Entrant, ...]:
    """The entrants after `player` left during round `current`: they play no more games from it on
    (their undecided games of that round are forfeited by `decide_forfeits`)."""
    updated = []
    for entrant in entrants:
        if entrant.id == player:
            if entrant.left is not None:
                raise TournamentError("That player already left the tournament.")
            entrant = Entrant(entrant.id, entrant.rating, entrant.joined, max(current, entrant.joined))
        updated.append(entrant)
    if all(entrant.id != player for entrant in updated):
        raise TournamentError("That player is not in the tournament.")
    return tuple(updated)


def join_late(
    entrants: Iterable[Entrant], newcomer: PlayerId, rating: float, paired: int
) -> tuple[Entrant, ...]:
    """The entrants of a Swiss tournament with `newcomer`, joining after `paired` rounds were
    paired: allowed before round 2 is paired, with zero points for what they missed."""
    present = tuple(entrants)
    if any(entrant.id == newcomer for entrant in present):
        raise TournamentError("That player is already in the tournament.")
    if paired >= 2:
        raise TournamentError("Round 2 has started: late entries close when it is paired.")
    return (*present, Entrant(newcomer, rating, joined=paired + 1))
