"""Tremember feats: three pairs in a row, a joker pair, both joker pairs, nine pairs in a match.

A turn in Tremember holds at most one pair (a pair earns another turn), so "three pairs in one
go" is three turns of one seat in a row, each finding a pair: no miss between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.feats import FeatsBySeat, Logged, by_seat, steps
from games.tremember import JOKERS, TrememberView

THREE_IN_A_ROW = "tremember.three_in_a_row"  # three pairs in a row, no miss between them
JOKER_PAIR = "tremember.joker_pair"  # a joker pair found
BOTH_JOKERS = "tremember.both_jokers"  # both joker pairs found by one seat in a match
NINE_PAIRS = "tremember.nine_pairs"  # half the pairs of the board found by one seat
RUN = 3
MANY_PAIRS = 9


def feats(views: Sequence[TrememberView], log: Sequence[Logged]) -> FeatsBySeat:
    """The Tremember feats each seat achieved in a finished match."""
    earned: list[tuple[int, str]] = []
    pairs = [0] * views[0]["players"]
    jokers: list[set[str]] = [set() for _ in pairs]
    runner, run = None, 0
    for _, _, _, after in steps(views, log):
        event: Any = after["last_event"]
        if event is None:
            continue
        if event["type"] == "miss":
            runner, run = None, 0
        elif event["type"] == "pair":
            seat = event["seat"]
            run = run + 1 if runner == seat else 1
            runner = seat
            pairs[seat] += 1
            if run >= RUN:
                earned.append((seat, THREE_IN_A_ROW))
            if event["motif"] in JOKERS:
                jokers[seat].add(event["motif"])
                earned.append((seat, JOKER_PAIR))
    earned += [(seat, BOTH_JOKERS) for seat, found in enumerate(jokers) if len(found) == len(JOKERS)]
    earned += [(seat, NINE_PAIRS) for seat, count in enumerate(pairs) if count >= MANY_PAIRS]
    return by_seat(earned)
