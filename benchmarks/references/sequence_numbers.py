"""A greedy Sequence Numbers player, the reference the hard level must beat.

It is the strongest of the simple strategies: it trades a dead card, wins when a card
completes five, blocks the other team's line of four (with a chip or a minus card),
and otherwise plays the chip that adds most to its own open lines and takes most from
the other team's, weighing every line of five by the chips in it. It reads nothing of
the hidden cards and looks no further than its own move; the level is ignored.

python -m benchmarks.references.sequence_numbers [GAMES]   # hard against it, seats swapped
python -m benchmarks.references.sequence_numbers oracle [GAMES] [all|hands|own]
    # a player that cheats against it: what skill could win at all (benchmarks/sequence_oracle.py)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

import ai.sequence_numbers
from ai.sequence_numbers import OTHERS, Board, card_id, lock_value, move_value, read_board
from benchmarks.references import report, wilson_low
from benchmarks.sequence_oracle import KNOWS, ORACLE_GAMES, oracle_wins
from games.sequence_numbers import ENGINE, RUN, SIZE, LockMove, SequenceMove, SequenceView, named_cell

# Hard plays this many seeded matches against the reference.
REFERENCE_GAMES = 200


def choose(
    level: str, views: Sequence[SequenceView], legal: list[SequenceMove], rng: random.Random
) -> SequenceMove:
    """The greedy move of the seat to move, whatever `level`."""
    view = views[-1]
    seat = view["seat"]
    if seat is None:
        raise ValueError("Pass the views of the seat to move, not a spectator's.")
    board = read_board(view)
    team = seat % len(view["teams"])
    locks = [m for m in legal if m["type"] == "lock"]
    if locks:
        return locks[_best([_lock_worth(board, move, team) for move in locks], rng)]
    trades = [m for m in legal if m["type"] == "trade"]
    if trades:
        return trades[0]
    plays = [m for m in legal if m["type"] == "play"]
    if not plays:
        return legal[0]
    hand = [card_id(c) for c in view["hand"]]
    cells = [int(m["row"]) * SIZE + int(m["col"]) for m in plays]
    values = [
        move_value(board, hand[m["card"]], cell, team, OTHERS, hand)
        for m, cell in zip(plays, cells, strict=True)
    ]
    return plays[_best(values, rng)]


def _lock_worth(board: Board, move: LockMove, team: int) -> float:
    """What the team's open lines are worth after locking the five of `move`."""
    first, last = named_cell(move["from"]), named_cell(move["to"])
    step = (last - first) // (RUN - 1)
    return lock_value(board, tuple(first + k * step for k in range(RUN)), team)


def _best(values: list[float], rng: random.Random) -> int:
    """The index of a highest value; ties drawn with `rng`."""
    top = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= top - 1e-9])


def report_oracle(args: Sequence[str]) -> None:
    """Print the share of seeded matches the cheating oracle wins against the reference."""
    games = int(args[0]) if args else ORACLE_GAMES
    know = next((k for k in KNOWS if k == (args[1] if len(args) > 1 else "all")), None)
    if know is None:
        raise SystemExit(f"The oracle knows one of: {', '.join(KNOWS)}.")
    won = oracle_wins(choose, games, know)
    print(
        f"Sequence Numbers oracle (knows {know}) against the reference: {100 * won:.1f}% won of {games} "
        f"(95% bounds {100 * wilson_low(won, games):.1f}%–{100 - 100 * wilson_low(1 - won, games):.1f}%)"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["oracle"]:
        report_oracle(sys.argv[2:])
    else:
        report(ENGINE, ai.sequence_numbers.choose, choose, REFERENCE_GAMES)
