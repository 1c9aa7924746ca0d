"""Knockout brackets (tables of two) and round robins (tables of two or more).

Knockout: players are seeded by rating (then the smaller id) into a bracket of the next power of
two, in the standard order (1 against N, the top seeds kept apart until the late rounds: for
eight, 1-8, 4-5, 2-7, 3-6); the places left empty are byes, so the top seeds have them. Each
next round pairs the winners of neighbouring matches in bracket order. A tied table is won by the
better seed.

Round robin: the circle method: the entrants in seeding order, one fixed and the others turning
one place per round, so that every two meet exactly once; with an odd number, the one facing
the empty place has a bye. The first seat alternates from round to round.

Round robin at tables of `seats` > 2: rounds are added until every two players have met. Each
round, the players left over (the count modulo `seats`) have a bye: those who have met everyone
already first, then those with the fewest byes, then the lower seeds, so byes are shared as
evenly as the count allows. The tables are filled one at a time: the player with the most
opponents still to meet opens it, then each next seat goes to whoever meets the most new
opponents at it (ties to the better seed).

Games of players who left are decided by forfeit as each round is made.
"""

from __future__ import annotations

from collections.abc import Sequence

from matches.tournament.model import Entrant, PlayerId, Round, Table, TournamentError
from matches.tournament.scoring import decide_forfeits

Slot = PlayerId | None  # an empty place of a bracket or of the circle


def seeding(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants by rating, then the smaller id."""
    return sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.id))


def bracket_order(size: int) -> list[int]:
    """The seeds (1 to `size`, a power of two) in their bracket positions."""
    order = [1]
    while len(order) < size:
        order = [seed for top in order for seed in (top, 2 * len(order) + 1 - top)]
    return order


def knockout_fields(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> list[list[Slot]]:
    """The players still in, in bracket order, before each round and after the last of `rounds`
    (each a decided round; `entrants` are all who started)."""
    seeds = [entrant.id for entrant in seeding(entrants)]
    size = 1 << max(len(seeds) - 1, 0).bit_length()
    fields: list[list[Slot]] = [
        [seeds[seed - 1] if seed <= len(seeds) else None for seed in bracket_order(size)]
    ]
    for round_ in rounds:
        field = fields[-1]
        fields.append([_advancing(field[i], field[i + 1], round_, seeds) for i in range(0, len(field), 2)])
    return fields


def _advancing(first: Slot, second: Slot, round_: Round, seeds: list[PlayerId]) -> Slot:
    if first is None or second is None:
        return first if second is None else second
    for table in round_.tables:
        if set(table.seats) == {first, second}:
            if table.ranks is None:
                raise TournamentError(f"Round {round_.number} is not finished yet.")
            best = min(table.ranks)
            winners = [player for player, rank in zip(table.seats, table.ranks, strict=True) if rank == best]
            return min(winners, key=seeds.index)
    raise TournamentError(f"Round {round_.number} has no match of {first} and {second}.")


def knockout_round(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> Round:
    """The next round of a knockout after the decided `rounds`."""
    field = knockout_fields(entrants, rounds)[-1]
    if len(field) < 2:
        raise TournamentError("The knockout is over: it has its winner.")
    return _round(len(rounds) + 1, list(zip(field[::2], field[1::2], strict=True)), entrants)


def _round(number: int, pairs: list[tuple[Slot, Slot]], entrants: Sequence[Entrant]) -> Round:
    """The round of `pairs`: a player against an empty place has a bye (unless they left), and
    games of players who left are forfeited."""
    playing = {entrant.id for entrant in entrants if entrant.plays_in(number)}
    tables = tuple(
        Table((first, second)) for first, second in pairs if first is not None and second is not None
    )
    byes = tuple(
        player
        for first, second in pairs
        if (first is None) != (second is None)
        for player in (first, second)
        if player is not None and player in playing
    )
    return decide_forfeits(Round(number, tables, byes), entrants)


def round_robin_rounds(entrants: Sequence[Entrant], seats: int = 2) -> int:
    """How many rounds a round robin of `entrants` at tables of `seats` has."""
    if seats > 2:
        return len(_multi_seat_schedule(tuple(entrant.id for entrant in seeding(entrants)), seats))
    return len(entrants) - 1 + len(entrants) % 2


def round_robin_round(entrants: Sequence[Entrant], number: int, seats: int = 2) -> Round:
    """Round `number` (from 1) of the round robin of `entrants` (all who started) at tables of
    `seats`."""
    if not 1 <= number <= round_robin_rounds(entrants, seats):
        raise TournamentError(f"A round robin of {len(entrants)} has no round {number}.")
    if seats > 2:
        return _multi_seat_round(entrants, number, seats)
    circle: list[Slot] = [entrant.id for entrant in seeding(entrants)]
    if len(circle) % 2:
        circle.append(None)
    turning = circle[1:]
    shift = (number - 1) % len(turning)
    places = [circle[0], *turning[len(turning) - shift :], *turning[: len(turning) - shift]]
    half = len(places) // 2
    pairs = list(zip(places[:half], places[::-1][:half], strict=True))
    return _round(number, [pair if number % 2 else (pair[1], pair[0]) for pair in pairs], entrants)


def _multi_seat_round(entrants: Sequence[Entrant], number: int, seats: int) -> Round:
    """Round `number` of the schedule at tables of `seats`: byes only for those still playing,
    tables with a player who left decided by forfeit."""
    tables, byes = _multi_seat_schedule(tuple(entrant.id for entrant in seeding(entrants)), seats)[number - 1]
    playing = {entrant.id for entrant in entrants if entrant.plays_in(number)}
    round_ = Round(number, tuple(Table(table) for table in tables), tuple(p for p in byes if p in playing))
    return decide_forfeits(round_, entrants)


Schedule = list[tuple[tuple[tuple[PlayerId, ...], ...], tuple[PlayerId, ...]]]  # (tables, byes) by round


def _multi_seat_schedule(seeds: tuple[PlayerId, ...], seats: int) -> Schedule:
    """The rounds (tables, byes) in which every two of `seeds` (best first) meet at tables of
    `seats`."""
    if len(seeds) < seats:
        raise TournamentError(f"A round robin at tables of {seats} needs at least {seats} players.")
    order = {player: index for index, player in enumerate(seeds)}
    unmet = {player: set(seeds) - {player} for player in seeds}  # whom each has still to meet
    byes = dict.fromkeys(seeds, 0)
    schedule: Schedule = []
    while any(unmet.values()):
        resting = sorted(
            reversed(seeds), key=lambda player: (bool(unmet[player]), byes[player], len(unmet[player]))
        )[: len(seeds) % seats]
        for player in resting:
            byes[player] += 1
        seated = [player for player in seeds if player not in resting]
        tables = []
        while seated:
            table = [max(seated, key=lambda player: (len(unmet[player]), -order[player]))]
            seated.remove(table[0])
            while len(table) < seats:
                best = max(
                    seated, key=lambda player: (len(unmet[player].intersection(table)), -order[player])
                )
                table.append(best)
                seated.remove(best)
            for player in table:
                unmet[player].difference_update(table)
            tables.append(tuple(table))
        schedule.append((tuple(tables), tuple(resting)))
    return schedule
