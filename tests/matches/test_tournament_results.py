"""A finished match read as a tournament table's places (winners first, then those who stayed by
score, then those who resigned; equal results share a place), and a round's announcement split
within Discord's message limit."""

from __future__ import annotations

from matches.tournaments import messages, ranks_of


def test_winners_come_first_then_who_stayed_by_score_then_who_resigned():
    # (winner, resigned, score) by seat
    assert ranks_of([(False, True, 9), (True, False, 5), (False, False, 3)]) == (3, 1, 2)


def test_equal_results_share_a_place_and_a_draw_ties_everyone():
    assert ranks_of([(True, False, 7), (False, False, 4), (False, False, 4)]) == (1, 2, 2)
    assert ranks_of([(False, False, 6), (False, False, 6)]) == (1, 1)


def test_a_long_round_announcement_is_split_between_lines_within_discords_limit():
    lines = ["**Round 1**", *(f"table {n} " + "x" * 90 for n in range(40))]

    sent = messages(lines)

    assert len(sent) == 3 and all(len(text) <= 2000 for text in sent)
    assert "\n".join(sent).split("\n") == lines
