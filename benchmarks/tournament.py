"""Swiss pairing: how long a round takes to pair, with seeded random results, for the field
sizes a server plays and past the usual number of rounds (where repeats grow scarce); and how
long a round robin at tables of several seats takes to schedule, with how many rounds it needs."""

from __future__ import annotations

import random
import statistics
import time

from matches.tournament.model import Entrant, Round
from matches.tournament.pairing import swiss_round
from matches.tournament.schedules import round_robin_round, round_robin_rounds
from matches.tournament.scoring import Scoring


def _swiss(players: int, rounds: int, seed: int) -> list[float]:
    """The time to pair each round of one seeded Swiss tournament."""
    rng = random.Random(seed)
    entrants = [Entrant(player, rng.randint(1000, 2000)) for player in range(players)]
    played: list[Round] = []
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        round_ = swiss_round(entrants, played, Scoring(2))
        samples.append(time.perf_counter() - start)
        for index in range(len(round_.tables)):
            round_ = round_.record(index, rng.choice(((1, 2), (2, 1), (1, 1))))
        played.append(round_)
    return samples


def bench_pairing(seeds: int = 5) -> None:
    print("Swiss pairing: the time to pair one round (seeded random results)")
    for players, rounds in ((5, 3), (16, 5), (64, 6), (64, 12), (128, 8)):
        samples = [sample for seed in range(seeds) for sample in _swiss(players, rounds, seed)]
        median = 1000 * statistics.median(samples)
        print(
            f"  {players:>3} players, {rounds:>2} rounds  median {median:7.2f} ms  "
            f"max {1000 * max(samples):7.2f} ms  ({seeds} tournaments)"
        )
    print("Round robin at tables of several seats: the time to schedule every round (once per round)")
    for players, seats in ((4, 3), (12, 3), (16, 4), (64, 4)):
        entrants = [Entrant(player, 1000 + player) for player in range(players)]
        start = time.perf_counter()
        count = round_robin_rounds(entrants, seats)
        round_robin_round(entrants, count, seats)
        spent = 1000 * (time.perf_counter() - start) / 2
        least = -(-(players - 1) // (seats - 1))  # each round meets at most seats - 1 new players
        print(
            f"  {players:>3} players at tables of {seats}: {count:>3} rounds (at least {least})  "
            f"{spent:7.2f} ms per round"
        )
