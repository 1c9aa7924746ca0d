"""Rookie feats: secure three times, a Rookie (three X tops), five pairs in one turn, the last pair.

A feat goes to the seat that made the move, also when the stacks secured are its partner's.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.feats import FeatsBySeat, Logged, by_seat, steps
from games.rookie import RookieView

SECURE_THREE = "rookie.secure_three"  # three securings in one match
ROOKIE = "rookie.rookie"  # three X tops: secure them and take every other player's unsecured cards
FIVE_PAIRS = "rookie.five_pairs"  # five pairs (colour or X) in one turn
LAST_PAIR = "rookie.last_pair"  # the last pair on the table, and every unsecured card with it
SECURINGS = 3
PAIRS_IN_A_TURN = 5
TURN_ENDS = ("miss", "open", "resign")


def feats(views: Sequence[RookieView], log: Sequence[Logged]) -> FeatsBySeat:
    """The Rookie feats each seat achieved in a finished match."""
    earned: list[tuple[int, str]] = []
    securings = [0] * views[0]["players"]
    runner, run = None, 0
    for seat, _, _, after in steps(views, log):
        for event in after["events"]:
            kind = event["type"]
            if kind in TURN_ENDS:
                runner, run = None, 0
            elif kind == "pair":
                run = run + 1 if runner == seat else 1
                runner = seat
                if run >= PAIRS_IN_A_TURN:
                    earned.append((seat, FIVE_PAIRS))
            elif kind == "secure":
                securings[seat] += 1
                if securings[seat] >= SECURINGS:
                    earned.append((seat, SECURE_THREE))
            elif kind == "rookie":
                earned.append((seat, ROOKIE))
            elif kind == "collect":
                earned.append((seat, LAST_PAIR))
    return by_seat(earned)
