"""Swiss rounds: score groups, byes, no repeat pairing, tables of several seats."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from matches.tournament.model import Entrant, Round, Table, TournamentError
from matches.tournament.pairing import swiss_round, table_sizes
from matches.tournament.scoring import Scoring, decide_forfeits, join_late, withdraw
from matches.tournament.standings import standings

PAIRS = Scoring(2)


def field(count: int) -> list[Entrant]:
    """Players 1 to `count`, rated in that order (1 is the highest)."""
    return [Entrant(player, 2000 - 10 * player) for player in range(1, count + 1)]


def played(round_: Round, rng: random.Random) -> Round:
    """`round_` with a random result at each table of two: a win, a loss or a draw."""
    for index in range(len(round_.tables)):
        round_ = round_.record(index, rng.choice(((1, 2), (2, 1), (1, 1))))
    return round_


def first_seat_wins(round_: Round) -> Round:
    for index, table in enumerate(round_.tables):
        round_ = round_.record(index, tuple(range(1, len(table.seats) + 1)))
    return round_


def meetings(rounds: list[Round]) -> Counter[frozenset[int]]:
    return Counter(frozenset(table.seats) for round_ in rounds for table in round_.tables)


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    round_ = swiss_round(field(8), [], PAIRS)

    assert sorted(frozenset(table.seats) for table in round_.tables) == sorted(
        frozenset(pair) for pair in ((1, 5), (2, 6), (3, 7), (4, 8))
    )
    assert round_.byes == ()


def test_swiss_of_five_over_three_rounds_has_a_new_bye_each_round_and_no_repeat_pairing():
    entrants, rounds = field(5), []
    for _ in range(3):
        round_ = swiss_round(entrants, rounds, PAIRS)
        seated = [player for table in round_.tables for player in table.seats]
        assert len(round_.byes) == 1 and sorted([*seated, *round_.byes]) == [1, 2, 3, 4, 5]
        rounds.append(first_seat_wins(round_))

    byes = [round_.byes[0] for round_ in rounds]
    assert len(set(byes)) == 3
    assert max(meetings(rounds).values()) == 1
    assert byes[0] == 5  # the lowest-ranked player sits out first


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    entrants = field(5)
    one = Round(1, (Table((1, 2), (1, 2)), Table((3, 4), (1, 2))), byes=(5,))

    assert swiss_round(entrants, [one], PAIRS).byes == (4,)  # 4 and 2 have no points, 4 rated lower


def test_a_top_pairing_is_given_up_when_it_leaves_the_rest_only_repeats():
    entrants = field(5)
    rounds = [
        Round(1, (Table((1, 3), (1, 2)), Table((2, 4), (1, 2))), byes=(5,)),
        Round(2, (Table((1, 2), (1, 2)), Table((5, 3), (1, 2))), byes=(4,)),
    ]
    # By points 1 and 5 lead and have not met, but then 2 and 4 would play again
    third = swiss_round(entrants, rounds, PAIRS)

    assert third.byes == (3,)
    assert frozenset((1, 5)) not in {frozenset(table.seats) for table in third.tables}
    assert max(meetings([*rounds, third]).values()) == 1


def test_a_repeat_is_allowed_only_when_every_pairing_repeats_a_game():
    entrants = field(4)
    rounds = [
        Round(1, (Table((1, 2), (1, 2)), Table((3, 4), (1, 2)))),
        Round(2, (Table((1, 3), (1, 2)), Table((2, 4), (1, 2)))),
        Round(3, (Table((1, 4), (1, 2)), Table((2, 3), (1, 2)))),
    ]
    fourth = swiss_round(entrants, rounds, PAIRS)

    assert sorted(player for table in fourth.tables for player in table.seats) == [1, 2, 3, 4]


def test_swiss_of_64_over_six_rounds_never_repeats_a_pairing():
    entrants, rounds, rng = field(64), [], random.Random(64)
    for _ in range(6):
        round_ = swiss_round(entrants, rounds, PAIRS)
        assert sorted(player for table in round_.tables for player in table.seats) == list(range(1, 65))
        rounds.append(played(round_, rng))

    assert max(meetings(rounds).values()) == 1


def test_the_first_seat_goes_to_who_had_it_less_often():
    entrants = field(2)
    one = Round(1, (Table((1, 2), (1, 2)),))

    assert swiss_round(entrants, [one], PAIRS).tables[0].seats == (2, 1)


@pytest.mark.parametrize(
    ("players", "seats", "minimum", "maximum", "sizes"),
    [
        (7, 3, 2, 4, (4, 3)),  # one table away from three seats rather than two (3 + 2 + 2)
        (7, 3, 2, 3, (3, 2, 2)),  # the game seats three at most
        (8, 3, 2, 4, (3, 3, 2)),
        (9, 3, 2, 4, (3, 3, 3)),
        (6, 4, 2, 4, (3, 3)),
        (7, 3, 3, 3, None),  # a bye is needed
    ],
)
def test_tables_keep_to_the_chosen_size_and_the_games_limits(players, seats, minimum, maximum, sizes):
    assert table_sizes(players, seats, minimum, maximum) == sizes


def test_seven_players_at_three_seats_sit_by_standings_at_tables_of_four_and_three():
    entrants, scoring = field(7), Scoring(3)
    first = swiss_round(entrants, [], scoring, minimum=2, maximum=4)
    assert first.tables == (Table((1, 2, 3, 4)), Table((5, 6, 7)))

    first = first.record(0, (4, 3, 2, 1)).record(1, (1, 2, 3))
    second = swiss_round(entrants, [first], scoring, minimum=2, maximum=4)
    # points: 4 and 5 → 3, 3 → 2, 2 and 6 → 1, 1 and 7 → 0 (the rating orders each pair)
    assert second.tables == (Table((4, 5, 3, 2)), Table((6, 1, 7)))


def test_a_game_of_exactly_three_gives_a_bye_to_the_lowest_ranked_player_without_one():
    entrants, scoring = field(7), Scoring(3)
    first = swiss_round(entrants, [], scoring, minimum=3, maximum=3)
    assert first.tables == (Table((1, 2, 3)), Table((4, 5, 6))) and first.byes == (7,)

    second = swiss_round(entrants, [first_seat_wins(first)], scoring, minimum=3, maximum=3)
    assert second.byes == (6,)  # 7 has the bye's 3 points; 6 is last without one


def test_a_player_who_left_forfeits_their_game_and_is_paired_no_more():
    entrants, rounds = field(6), []
    first = swiss_round(entrants, rounds, PAIRS)  # 1-4, 2-5, 3-6
    entrants = list(withdraw(entrants, 6, current=1))
    first = decide_forfeits(first.record(0, (1, 2)).record(1, (1, 2)), entrants)

    assert Table((3, 6), (1, 2)) in first.tables  # 3 wins by forfeit
    second = swiss_round(entrants, [first], PAIRS)
    assert 6 not in second.players and second.byes != ()
    table = standings("swiss", entrants, [first], PAIRS)
    assert [line.withdrawn for line in table if line.player == 6] == [True]


def test_a_late_entrant_joins_before_round_two_with_zero_points():
    entrants, rounds = field(4), []
    first = first_seat_wins(swiss_round(entrants, rounds, PAIRS))
    entrants = list(join_late(entrants, 9, rating=2500, paired=1))

    table = {line.player: line.points for line in standings("swiss", entrants, [first], PAIRS)}
    assert table[9] == 0
    second = swiss_round(entrants, [first], PAIRS)
    # 1 and 2 won round 1; 9 ranks first of those with no point (by rating), 4 last, with the bye
    assert {frozenset(table.seats) for table in second.tables} == {frozenset((1, 2)), frozenset((9, 3))}
    assert second.byes == (4,)

    with pytest.raises(TournamentError, match="late entries close"):
        join_late(entrants, 10, rating=1500, paired=2)
