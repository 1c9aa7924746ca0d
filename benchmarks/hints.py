"""How long a hint takes to decide, every game: the seat's views rebuilt from the move log, the
normal computer's move and its reason (`matches.hints.decide`, which runs off the event loop).

python -m benchmarks.hints [MATCHES]

Seeded two-player matches played by the normal computer; a hint is decided for the seat to
move after every move, as a press would at that turn. Prints the median and the longest
decision per game, against the normal computer's budget (median ≤ 50 ms): a hint is that
decision plus the replay of the move log.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from types import SimpleNamespace
from typing import Any

import ai
from cogs.registry import GAMES
from data.model import MatchRow
from matches.hints import decide
from matches.match import Match

BUDGET_MS = 50.0
MAX_MOVES = 400


def hint_times(name: str, seed: int) -> list[float]:
    """Seconds per hint over one seeded match between two normal computers."""
    spec = GAMES[name]
    engine = spec.engine
    options = spec.options({}, 2)
    state = engine.new_game(2, seed, options)
    row = MatchRow(seed, name, 1, 1, None, 1, "running", seed, {}, None, 0, None, "", None, players=[1, 2])
    game: Any = SimpleNamespace(spec=spec)
    log: list[tuple[int, int, dict[str, Any]]] = []
    views: dict[int, list[Any]] = {seat: [engine.view(state, seat)] for seat in (0, 1)}
    chooser = random.Random(seed)
    times = []
    while (seats := engine.current_seats(state)) and len(log) < MAX_MOVES:
        seat = seats[0]
        match = Match(row=row, engine=engine, state=state)
        start = time.perf_counter()
        decide(game, match, seat, state, log)
        times.append(time.perf_counter() - start)
        move = ai.choose(spec.choose, "normal", views[seat], engine.legal_moves(state, seat), chooser)
        state = engine.apply(state, seat, move)
        log.append((len(log), seat, move))
        for other in views:
            views[other].append(engine.view(state, other))
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", nargs="?", type=int, default=3, help="seeded matches per game")
    matches = parser.parse_args(argv).matches
    print(f"{'game':<18}{'hints':>7}{'median ms':>11}{'max ms':>9}  budget: median ≤ {BUDGET_MS:.0f} ms")
    for name in GAMES:
        times = [t for seed in range(matches) for t in hint_times(name, seed)]
        median, longest = statistics.median(times) * 1000, max(times) * 1000
        verdict = "ok" if median <= BUDGET_MS else "OVER"
        print(f"{name:<18}{len(times):>7}{median:>11.1f}{longest:>9.1f}  {verdict}")


if __name__ == "__main__":
    main()
