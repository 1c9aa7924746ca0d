"""A greedy Rookie player with a perfect memory, the reference the hard level must beat.

It is the strongest of the simple strategies: it forgets no card the table has shown
(which is what wins Rookie) and takes what it can now. It turns a pair it knows, else
a card it does not know and then that card's match if it knows it, else another
unknown card; with open cards on the table it chases when it knows a match for one
and otherwise turns them down; it places a pair, steals and arranges taken cards for
the most points now, then for the most tops of one kind, and steals the most cards.
It weighs nothing of what a turned card shows the next player; the level is ignored.

python -m benchmarks.references.rookie [GAMES]   # hard against it, seats swapped (pocket deck)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import ai.rookie
from ai.rookie import Table, read_memory, read_table, sample_state
from benchmarks.references import best, report
from games.rookie import ENGINE, RookieMove, RookieState, RookieView, discard_tops

# Hard plays this many seeded matches against the reference, with the pocket deck.
REFERENCE_GAMES = 100
OPTIONS = {"deck": "pocket"}


def choose(
    level: str, views: Sequence[RookieView], legal: list[RookieMove], rng: random.Random
) -> RookieMove:
    """The greedy move of the seat to move, whatever `level`."""
    if len(legal) == 1:
        return legal[0]
    view = views[-1]
    seat = view["turn"]
    if seat is None:
        raise ValueError("Pass the views of the seat to move while the game runs.")
    memory = read_memory(views)
    state = sample_state(view, memory, rng)  # the cards it has not seen dealt at random
    if state.phase in ("place", "steal", "arrange"):
        return legal[best([_banked(state, seat, move) for move in legal], rng)]
    table = read_table(state, seat, set(memory.seen))
    position = _flip(state, table, rng)
    move: RookieMove = {"type": "turn_down"} if position is None else {"type": "flip", "position": position}
    return move if move in legal else legal[0]


def _flip(state: RookieState, table: Table, rng: random.Random) -> int | None:
    """The position to turn up; None to turn the open cards down."""
    if state.phase in ("start", "chase") and state.open:
        for position in state.open:
            if match := table.where(state.table[position][-1]):
                return match[0]
        if state.phase == "start":
            return None
    elif state.flipped:
        if match := table.where(state.table[state.flipped[0]][-1]):
            return match[0]
    elif pairs := [kind for kind, count in Counter(table.known.values()).items() if count >= 2]:
        return table.where(pairs[0])[0]
    return rng.choice(table.unknown) if table.unknown else min(table.known)


def _banked(state: RookieState, seat: int, move: RookieMove) -> float:
    """Points of the seat after `move`, then cards taken, then its most tops of one kind."""
    after = ENGINE.apply(state, seat, move)
    held = sum(map(len, after.discards[seat])) + (len(after.loot) if after.receiver == seat else 0)
    tops = Counter(top for top in discard_tops(after, seat) if top is not None)
    return 100 * after.points[seat] + held + max(tops.values(), default=0) / 10


if __name__ == "__main__":
    report(ENGINE, ai.rookie.choose, choose, REFERENCE_GAMES, OPTIONS)
