"""Points by place and the tiebreaks of the table, checked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from matches.tournament.model import Entrant, Round, Table, TournamentError
from matches.tournament.scoring import Scoring, decide_forfeits, forfeited, points, withdraw
from matches.tournament.standings import standings


def test_a_table_of_three_scores_three_one_nothing_and_ties_share_their_places():
    three = Scoring(3)

    assert three.table_points(Table((7, 8, 9), (2, 1, 3))) == {7: 1, 8: 3, 9: 0}
    assert three.table_points(Table((7, 8, 9), (1, 1, 3))) == {7: 2, 8: 2, 9: 0}
    assert three.table_points(Table((7, 8, 9), (1, 2, 2))) == {7: 3, 8: Fraction(1, 2), 9: Fraction(1, 2)}
    assert Scoring(4).table_points(Table((1, 2, 3, 4), (1, 2, 3, 4))) == {1: 3, 2: 2, 3: 1, 4: 0}
    assert three.table_points(Table((1, 2), (2, 1))) == {1: 0, 2: 3}  # a win is 3 at any table


def test_a_table_of_one_is_refused():
    with pytest.raises(TournamentError, match="two players or more"):
        Scoring(1)


def test_a_game_of_two_counts_a_win_one_and_a_draw_half_and_a_bye_a_win():
    two = Scoring(2)
    rounds = [Round(1, (Table((1, 2), (1, 1)),), byes=(3,)), Round(2, (Table((1, 3), (2, 1)),), byes=(2,))]

    assert points(rounds, two) == {1: Fraction(1, 2), 2: Fraction(3, 2), 3: 2}


def test_swiss_standings_break_ties_by_buchholz_then_sonneborn_berger_before_rating():
    entrants = [Entrant(player, 1600 if player == 2 else 1500) for player in range(1, 7)]
    rounds = [
        Round(1, (Table((1, 2), (1, 2)), Table((3, 4), (1, 2)), Table((5, 6), (1, 2)))),
        Round(2, (Table((1, 3), (1, 2)), Table((5, 2), (2, 1)), Table((4, 6), (1, 2)))),
        Round(3, (Table((1, 5), (1, 2)), Table((3, 6), (2, 1)), Table((2, 4), (2, 1)))),
    ]
    # points: 1 → 3; 4 → 2; 2, 3, 5 and 6 → 1
    # Buchholz: 2 met 1, 5, 4: 3 + 1 + 2 = 6; 3 met 4, 1, 6: 2 + 3 + 1 = 6; 5 met 6, 2, 1: 5; 6 met 5, 4, 3: 4
    # Sonneborn–Berger: 3 beat 4 (2 points) = 2; 2 beat 5 (1 point) = 1, despite 2's better rating
    table = standings("swiss", entrants, rounds, Scoring(2))

    assert [line.player for line in table] == [1, 4, 3, 2, 5, 6]
    assert [line.place for line in table] == [1, 2, 3, 4, 5, 6]
    assert {line.player: line.tiebreaks for line in table} == {
        1: (3, 3),
        4: (3, 2),
        3: (6, 2),
        2: (6, 1),
        5: (5, 1),
        6: (4, 1),
    }


def test_round_robin_standings_put_head_to_head_before_sonneborn_berger():
    entrants = [Entrant(player, 1500) for player in range(1, 5)]
    rounds = [
        Round(1, (Table((1, 2), (1, 2)), Table((3, 4), (1, 2)))),
        Round(2, (Table((1, 3), (1, 2)), Table((2, 4), (2, 1)))),
        Round(3, (Table((1, 4), (1, 1)), Table((2, 3), (1, 2)))),
    ]
    # 2 and 3 have a point each; 2 beat 3, although 3's win (over 4, 1½ points) is worth more
    table = standings("roundrobin", entrants, rounds, Scoring(2))

    assert [line.player for line in table] == [1, 4, 2, 3]
    assert [line.tiebreaks for line in table][2:] == [(1, 1), (0, Fraction(3, 2))]


def test_a_quitter_keeps_the_points_earned_and_opponents_keep_their_forfeit_wins():
    entrants = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1900)]
    first = Round(1, (Table((3, 1), (1, 2)),), byes=(2,))
    second = Round(2, (Table((2, 3)),), byes=(1,))
    entrants = list(withdraw(entrants, 3, current=2))
    second = decide_forfeits(second, entrants)

    assert second.tables == (Table((2, 3), (1, 2)),)
    table = standings("swiss", entrants, [first, second], Scoring(2))
    assert [(line.player, line.points, line.withdrawn) for line in table] == [
        (2, 2, False),
        (3, 1, True),
        (1, 1, False),  # as many points as 3, who has the better Buchholz (3 against 1)
    ]


def test_at_a_table_of_more_the_quitter_is_last_and_the_others_share_the_first_place():
    assert forfeited(Table((1, 2, 3)), {2}) == Table((1, 2, 3), (1, 3, 1))
    assert Scoring(3).table_points(forfeited(Table((1, 2, 3)), {2})) == {1: 2, 2: 0, 3: 2}
