"""The order of a tournament's table.

All formats count points first (see `scoring`), except knockout, which counts the round reached
(the winner's is one past the final). Then, Swiss: Buchholz (the sum of the points of every
opponent met), then Sonneborn–Berger (the points of each opponent beaten, half those of each
opponent tied with); round robin: head-to-head (the points the tied players took from one
another), then Sonneborn–Berger. Last of all the rating, then the smaller id, so no two players
share a place. At a table of more than two, every other player is an opponent, beaten when
placed behind. A bye has no opponent; a forfeited game counts as played. Players who left keep
their points and their place, marked as withdrawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from matches.tournament.model import Entrant, Format, PlayerId, Round, Table
from matches.tournament.schedules import knockout_fields
from matches.tournament.scoring import Scoring, points


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the table. `tiebreaks` are, in order: Swiss (Buchholz, Sonneborn–Berger);
    knockout (the round reached,); round robin (head-to-head, Sonneborn–Berger)."""

    place: int
    player: PlayerId
    points: Fraction
    tiebreaks: tuple[Fraction, ...]
    withdrawn: bool


def standings(
    format_: Format, entrants: Sequence[Entrant], rounds: Sequence[Round], scoring: Scoring
) -> list[Standing]:
    """The table after the decided games of `rounds`, first place first."""
    scored = points(rounds, scoring)
    breaks = tiebreaks(format_, entrants, rounds, scored, scoring)
    counted = scored if format_ != "knockout" else {}
    ordered = sorted(
        entrants,
        key=lambda entrant: (
            -counted.get(entrant.id, Fraction(0)),
            *(-value for value in breaks[entrant.id]),
            -entrant.rating,
            entrant.id,
        ),
    )
    return [
        Standing(
            place,
            entrant.id,
            scored.get(entrant.id, Fraction(0)),
            breaks[entrant.id],
            entrant.left is not None,
        )
        for place, entrant in enumerate(ordered, start=1)
    ]


def tiebreaks(
    format_: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    scored: dict[PlayerId, Fraction],
    scoring: Scoring,
) -> dict[PlayerId, tuple[Fraction, ...]]:
    """Each entrant's tiebreaks, in the order they count (see `Standing`)."""
    tables = [table for round_ in rounds for table in round_.tables if table.decided]
    if format_ == "knockout":
        reached = rounds_reached(entrants, rounds)
        return {entrant.id: (Fraction(reached[entrant.id]),) for entrant in entrants}
    first = buchholz if format_ == "swiss" else _head_to_head_of(entrants, scoring)
    return {
        entrant.id: (first(entrant.id, tables, scored), sonneborn_berger(entrant.id, tables, scored))
        for entrant in entrants
    }


def _opponents(player: PlayerId, table: Table) -> list[tuple[PlayerId, Fraction]]:
    """`player`'s opponents at a decided table they sat at, each with `player`'s result against
    them: 1 when placed ahead, ½ when tied, 0 when behind."""
    if player not in table.seats or table.ranks is None:
        return []
    ranks = dict(zip(table.seats, table.ranks, strict=True))
    mine = ranks[player]
    return [
        (other, Fraction(1) if mine < rank else Fraction(1, 2) if mine == rank else Fraction(0))
        for other, rank in ranks.items()
        if other != player
    ]


def buchholz(player: PlayerId, tables: Sequence[Table], scored: dict[PlayerId, Fraction]) -> Fraction:
    """The sum of the points of every opponent `player` met (once per game)."""
    return sum(
        (scored.get(other, Fraction(0)) for table in tables for other, _ in _opponents(player, table)),
        Fraction(0),
    )


def sonneborn_berger(player: PlayerId, tables: Sequence[Table], scored: dict[PlayerId, Fraction]) -> Fraction:
    """The points of each opponent beaten plus half those of each opponent tied with."""
    return sum(
        (
            result * scored.get(other, Fraction(0))
            for table in tables
            for other, result in _opponents(player, table)
        ),
        Fraction(0),
    )


def _head_to_head_of(
    entrants: Sequence[Entrant], scoring: Scoring
) -> Callable[[PlayerId, Sequence[Table], dict[PlayerId, Fraction]], Fraction]:
    def tiebreak(player: PlayerId, tables: Sequence[Table], scored: dict[PlayerId, Fraction]) -> Fraction:
        return head_to_head(player, entrants, tables, scored, scoring)

    return tiebreak


def head_to_head(
    player: PlayerId,
    entrants: Sequence[Entrant],
    tables: Sequence[Table],
    scored: dict[PlayerId, Fraction],
    scoring: Scoring,
) -> Fraction:
    """The points `player` took in games between players with as many points as theirs."""
    mine = scored.get(player, Fraction(0))
    tied = {entrant.id for entrant in entrants if scored.get(entrant.id, Fraction(0)) == mine}
    return sum(
        (
            scoring.table_points(table)[player]
            for table in tables
            if player in table.seats and set(table.seats) <= tied and len(table.seats) > 1
        ),
        Fraction(0),
    )


def rounds_reached(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> dict[PlayerId, int]:
    """The last knockout round each player was in (one past the last round for its winner);
    undecided rounds are left out."""
    decided = [round_ for round_ in rounds if round_.finished]
    reached = {entrant.id: 0 for entrant in entrants}
    for number, field in enumerate(knockout_fields(entrants, decided), start=1):
        for player in field:
            if player is not None:
                reached[player] = number
    return reached
