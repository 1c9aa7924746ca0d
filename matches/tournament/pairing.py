"""Swiss rounds: who meets whom, from the standings so far.

Two seats (after FIDE's Dutch system): players are ranked by points, then rating, then the
smaller id. The highest unpaired player meets a player of their own score group, the top half of
the group against the bottom half (1st against the first of the lower half); a player left over
floats down to the nearest lower group. Repeat pairings are avoided by a search that backtracks
(remembering the sets of players known not to pair), so no pairing repeats a game while any
pairing without a repeat exists; only then are repeats allowed, fewest earlier meetings first.
With an odd number of players the lowest-ranked player without a bye sits out, with a win;
avoiding repeats comes first, so someone with a bye already may get another only when every
other choice forces a repeat. The first seat goes to the player who has had it less often.

More seats: the ranked players sit at tables in order, the leaders together (see `table_sizes`
for the sizes); a player left over (fewer than the game allows) has a bye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from matches.tournament.model import Entrant, PlayerId, Round, Table, TournamentError
from matches.tournament.scoring import Scoring, points


def table_sizes(players: int, seats: int, minimum: int, maximum: int) -> tuple[int, ...] | None:
    """The sizes of the tables for `players` when the chosen size is `seats` and the game takes
    `minimum` to `maximum` players, largest first, or None when no split fits.

    The tables differ by one seat at most; of the numbers of tables that fit, the one with the
    fewest tables away from the chosen size wins (7 at 3 seats: 4 + 3 rather than 3 + 2 + 2;
    8 at 3: 3 + 3 + 2), and on a tie the one with more, smaller tables."""
    best: tuple[int, ...] | None = None
    for count in range(1, players + 1):
        small, extra = divmod(players, count)
        sizes = (small + 1,) * extra + (small,) * (count - extra)
        if minimum <= sizes[-1] and sizes[0] <= maximum:
            away = sum(1 for size in sizes if size != seats)
            if best is None or away <= sum(1 for size in best if size != seats):
                best = sizes
    return best


def ranking(entrants: Sequence[Entrant], rounds: Sequence[Round], scoring: Scoring) -> list[Entrant]:
    """The order of pairing: points, then rating, then the smaller id."""
    scored = points(rounds, scoring)
    return sorted(entrants, key=lambda entrant: (-scored.get(entrant.id, 0), -entrant.rating, entrant.id))


def swiss_round(
    entrants: Sequence[Entrant], rounds: Sequence[Round], scoring: Scoring, minimum: int = 2, maximum: int = 2
) -> Round:
    """The next round of a Swiss tournament after `rounds`, for the entrants who play in it."""
    number = len(rounds) + 1
    players = ranking([entrant for entrant in entrants if entrant.plays_in(number)], rounds, scoring)
    if len(players) < max(2, minimum):
        raise TournamentError("Too few players are left for another round.")
    ids = [entrant.id for entrant in players]
    byes = Counter(player for round_ in rounds for player in round_.byes)
    if scoring.seats == 2:
        return _pairs_round(number, ids, rounds, scoring, byes)
    return _tables_round(number, ids, scoring.seats, minimum, maximum, byes)


def _bye_order(ids: Sequence[PlayerId], byes: Counter[PlayerId]) -> list[PlayerId]:
    """Who sits out first: fewest byes, then lowest ranked."""
    return sorted(reversed(ids), key=lambda player: byes[player])


def _tables_round(
    number: int, ids: list[PlayerId], seats: int, minimum: int, maximum: int, byes: Counter[PlayerId]
) -> Round:
    sitting_out: list[PlayerId] = []
    sizes = table_sizes(len(ids), seats, minimum, maximum)
    for player in _bye_order(ids, byes):
        if sizes is not None:
            break
        sitting_out.append(player)
        sizes = table_sizes(len(ids) - len(sitting_out), seats, minimum, maximum)
    if sizes is None:
        raise TournamentError("Too few players are left for another round.")
    seated = [player for player in ids if player not in sitting_out]
    tables, start = [], 0
    for size in sizes:
        tables.append(Table(tuple(seated[start : start + size])))
        start += size
    return Round(number, tuple(tables), tuple(sitting_out))


def _pairs_round(
    number: int, ids: list[PlayerId], rounds: Sequence[Round], scoring: Scoring, byes: Counter[PlayerId]
) -> Round:
    met = Counter(
        frozenset(pair) for round_ in rounds for table in round_.tables for pair in _pairs_at(table.seats)
    )
    scored = points(rounds, scoring)
    candidates = _bye_order(ids, byes) if len(ids) % 2 else [None]
    for bye in candidates:
        rest = [player for player in ids if player != bye]
        pairs = _pair(rest, scored, lambda a, b: not met[frozenset((a, b))])
        if pairs is not None:
            return _round(number, pairs, bye, rounds)
    bye = candidates[0]
    rest = [player for player in ids if player != bye]
    pairs = _pair(rest, scored, lambda a, b: True, lambda a, b: met[frozenset((a, b))])
    assert pairs is not None  # any two players may meet again
    return _round(number, pairs, bye, rounds)


def _pairs_at(seats: tuple[PlayerId, ...]) -> list[tuple[PlayerId, PlayerId]]:
    return [(a, b) for index, a in enumerate(seats) for b in seats[index + 1 :]]


def _round(
    number: int, pairs: list[tuple[PlayerId, PlayerId]], bye: PlayerId | None, rounds: Sequence[Round]
) -> Round:
    """The round of `pairs`, the first seat to whoever had it less often (the higher-ranked on a tie)."""
    firsts = Counter(table.seats[0] for round_ in rounds for table in round_.tables if len(table.seats) == 2)
    tables = tuple(Table((b, a) if firsts[b] < firsts[a] else (a, b)) for a, b in pairs)
    return Round(number, tables, () if bye is None else (bye,))


def _pair(
    ranked: list[PlayerId],
    scored: dict[PlayerId, Fraction],
    allowed: Callable[[PlayerId, PlayerId], bool],
    cost: Callable[[PlayerId, PlayerId], int] = lambda a, b: 0,
) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pairs of all of `ranked` (an even number, best first) that are all `allowed`, or None.

    Depth first, the highest-ranked unpaired player first, their candidates by `cost` (the
    earlier meetings, when repeats are allowed), then in the Dutch order; a set of unpaired
    players known not to pair is never searched twice, which keeps 64 players fast."""
    failed: set[frozenset[PlayerId]] = set()

    def search(remaining: tuple[PlayerId, ...]) -> list[tuple[PlayerId, PlayerId]] | None:
        if not remaining:
            return []
        key = frozenset(remaining)
        if key in failed or not _everyone_has_a_partner(remaining, allowed):
            failed.add(key)
            return None
        top, rest = remaining[0], remaining[1:]
        for partner in sorted(_dutch_order(top, rest, scored), key=lambda other: cost(top, other)):
            if allowed(top, partner):
                found = search(tuple(player for player in rest if player != partner))
                if found is not None:
                    return [(top, partner), *found]
        failed.add(key)
        return None

    return search(tuple(ranked))


def _everyone_has_a_partner(
    remaining: tuple[PlayerId, ...], allowed: Callable[[PlayerId, PlayerId], bool]
) -> bool:
    return all(any(allowed(player, other) for other in remaining if other != player) for player in remaining)


def _dutch_order(
    top: PlayerId, rest: tuple[PlayerId, ...], scored: dict[PlayerId, Fraction]
) -> list[PlayerId]:
    """`top`'s opponents in the order tried: their score group's lower half from its top, then its
    upper half from the bottom, then the lower groups in ranking order."""
    score = scored.get(top, Fraction(0))
    group = [player for player in rest if scored.get(player, Fraction(0)) == score]
    start = (len(group) + 1) // 2 - 1  # the lower half's first, the group counted with `top`
    lower = [player for player in rest if player not in group]
    return group[start:] + group[:start][::-1] + lower
