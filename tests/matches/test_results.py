"""What a finished match counts as for the league when people left it before the end."""

from __future__ import annotations

from games import Outcome
from matches.turns import stayers_winning


def test_when_a_stand_in_computer_won_the_best_of_those_who_stayed_wins_for_the_league():
    outcome = Outcome(scores=(12, 3, 30, 12), winners=(2,))  # seat 2's computer played it since
    teams = ((0,), (1,), (2,), (3,))

    assert stayers_winning(outcome, teams, gone={2}) == {0, 3}
    assert stayers_winning(outcome, teams, gone=set()) == {2}
    assert stayers_winning(Outcome(scores=(1, 1), winners=()), ((0,), (1,)), gone={1}) == set()
