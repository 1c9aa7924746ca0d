"""Knockout brackets seeded by rating and round robins by the circle method."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from matches.tournament.model import Entrant, Round, Table, TournamentError
from matches.tournament.schedules import bracket_order, knockout_round, round_robin_round, round_robin_rounds
from matches.tournament.scoring import Scoring, withdraw
from matches.tournament.standings import standings


def field(count: int) -> list[Entrant]:
    """Players 1 to `count`, listed in no particular order, rated so that 1 is the top seed."""
    return [Entrant(player, 2000 - 10 * player) for player in reversed(range(1, count + 1))]


def won_by(round_: Round, winners: set[int]) -> Round:
    for index, table in enumerate(round_.tables):
        round_ = round_.record(index, tuple(1 if player in winners else 2 for player in table.seats))
    return round_


def test_the_bracket_keeps_the_top_seeds_apart_until_the_end():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_a_knockout_of_six_gives_byes_to_seeds_one_and_two_and_pairs_winners_in_bracket_order():
    entrants = field(6)
    first = knockout_round(entrants, [])
    assert first.byes == (1, 2)
    assert first.tables == (Table((4, 5)), Table((3, 6)))

    first = won_by(first, {5, 3})
    semi = knockout_round(entrants, [first])
    assert semi.tables == (Table((1, 5)), Table((2, 3))) and semi.byes == ()

    semi = won_by(semi, {5, 2})
    final = knockout_round(entrants, [first, semi])
    assert final.tables == (Table((5, 2)),)

    final = won_by(final, {2})
    with pytest.raises(TournamentError, match="has its winner"):
        knockout_round(entrants, [first, semi, final])
    table = standings("knockout", entrants, [first, semi, final], Scoring(2))
    # winner, finalist, then the semi-finalists and the first round's losers, each by rating
    assert [line.player for line in table] == [2, 5, 1, 3, 4, 6]
    assert [line.tiebreaks for line in table] == [(4,), (3,), (2,), (2,), (1,), (1,)]


def test_a_tied_knockout_match_sends_the_better_seed_through():
    entrants = field(2)
    final = knockout_round(entrants, []).record(0, (1, 1))

    assert standings("knockout", entrants, [final], Scoring(2))[0].player == 1


def test_a_knockout_player_who_leaves_hands_the_next_match_to_the_opponent():
    entrants = field(4)
    first = won_by(knockout_round(entrants, []), {1, 2})  # 1-4, 2-3
    entrants = list(withdraw(entrants, 1, current=2))

    final = knockout_round(entrants, [first])
    assert final.tables == (Table((1, 2), (2, 1)),)


@pytest.mark.parametrize("count", [4, 5])
def test_a_round_robin_pairs_everyone_exactly_once(count):
    entrants = field(count)
    rounds = [round_robin_round(entrants, number) for number in range(1, round_robin_rounds(entrants) + 1)]

    assert len(rounds) == (3 if count == 4 else 5)
    met = Counter(frozenset(table.seats) for round_ in rounds for table in round_.tables)
    assert set(met) == {frozenset(pair) for pair in combinations(range(1, count + 1), 2)}
    assert set(met.values()) == {1}
    for round_ in rounds:
        assert sorted(round_.players) == list(range(1, count + 1))
    byes = [player for round_ in rounds for player in round_.byes]
    assert sorted(byes) == ([] if count == 4 else [1, 2, 3, 4, 5])


def test_a_round_robin_has_no_round_past_its_last():
    with pytest.raises(TournamentError):
        round_robin_round(field(4), 4)


def test_a_round_robin_player_who_leaves_forfeits_every_remaining_game():
    entrants = list(withdraw(field(4), 4, current=2))

    for number in (2, 3):
        (table,) = [table for table in round_robin_round(entrants, number).tables if 4 in table.seats]
        assert dict(zip(table.seats, table.ranks or (), strict=True))[4] == 2
    assert all(table.ranks is None for table in round_robin_round(entrants, 2).tables if 4 not in table.seats)


@pytest.mark.parametrize(("count", "seats"), [(4, 3), (6, 3), (7, 3), (8, 4), (9, 4), (12, 5)])
def test_a_multi_seat_round_robin_seats_every_two_players_together_and_shares_the_byes(count, seats):
    entrants = field(count)
    rounds = [
        round_robin_round(entrants, n, seats) for n in range(1, round_robin_rounds(entrants, seats) + 1)
    ]

    met = {
        frozenset(pair)
        for round_ in rounds
        for table in round_.tables
        for pair in combinations(table.seats, 2)
    }
    assert met == {frozenset(pair) for pair in combinations(range(1, count + 1), 2)}
    assert all(len(table.seats) == seats for round_ in rounds for table in round_.tables)
    assert all(len(round_.byes) == count % seats for round_ in rounds)
    byes = Counter(player for round_ in rounds for player in round_.byes)
    assert max(byes.values(), default=0) - min((byes[p] for p in range(1, count + 1)), default=0) <= 2


def test_a_round_robin_of_four_at_tables_of_three_has_three_rounds_each_with_one_bye():
    entrants = field(4)
    rounds = [round_robin_round(entrants, n, 3) for n in range(1, round_robin_rounds(entrants, 3) + 1)]

    assert [round_.byes for round_ in rounds] == [(4,), (3,), (2,)]  # the top seed plays every round
    with pytest.raises(TournamentError, match="has no round 4"):
        round_robin_round(entrants, 4, 3)
