"""A diagnostic Sequence Numbers player that cheats, to bound what skill can win at all.

The oracle sees every hand and the order of the deck (and the seeded reshuffles after
it). For each of its `ORACLE_CANDIDATES` best moves by the hard evaluation it plays the
match on exactly as it will go, both seats by the greedy reference's evaluation, and
takes the move whose playout ends best. Knowing less, it plays the same moves out over
`SAMPLES` shuffles (the same for every move) of what it does not know: the deck and the
reshuffles ("hands": it still sees the other hands), or these and the other hands
("own": what an honest player knows, without reading the discards); it then leaves its
evaluation's best move only for one that is surely better (`MARGIN`). It is a measuring
instrument, never a computer level.

Against the greedy reference, seeded matches with the seats swapped (this machine):
knowing everything it wins 82.0% of 400 (95% bounds 77.9%–85.5%); seeing the other
hand but not the deck, 49.0% of 100 (39.4%–58.7%; 51.5% of 200 when it followed the
best playouts without a margin); knowing only its hand, 48.0% of 100 (38.5%–57.7%; 32%
of 100 without the margin: the playouts are mostly luck and would pick noise). What
the search wins comes from knowing the coming draws, which no honest player can; the
other hand alone is worth nothing measurable to it.

python -m benchmarks.references.sequence_numbers oracle [GAMES] [all|hands|own]
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from typing import Any, Literal

from ai.sequence_numbers import (
    HARD,
    KIND,
    OTHERS,
    WIN,
    Board,
    Style,
    dead,
    lock_value,
    move_value,
    targets,
)
from games.base import chance
from games.sequence_numbers import (
    ENGINE,
    RUN,
    SIZE,
    LockMove,
    SequenceMove,
    SequenceState,
    named_cell,
)

# The oracle weighs this many of its moves by the hard evaluation, each by one playout.
ORACLE_CANDIDATES = 8
# A playout stops after this many turns; a match still open then counts by the board.
HORIZON = 200
# Without the deck (or the other hands), the playouts run over this many shuffles of it.
SAMPLES = 16
# The playouts must favour a move by this many standard errors to overrule the evaluation.
MARGIN = 2.0
ORACLE_GAMES = 400

# What the oracle sees besides its hand: everything, the other hands, or nothing more.
Knows = Literal["all", "hands", "own"]
KNOWS: tuple[Knows, ...] = ("all", "hands", "own")


@dataclass
class Sim:
    """A whole match in the players' board form: every hand, the deck and the discards."""

    board: Board
    hands: list[list[int]]
    deck: list[int]
    discards: list[list[int]]
    seed: int
    step: int

    def copy(self) -> Sim:
        return Sim(
            self.board.copy(),
            [list(h) for h in self.hands],
            list(self.deck),
            [list(p) for p in self.discards],
            self.seed,
            self.step,
        )

    @classmethod
    def of(cls, state: SequenceState) -> Sim:
        board = Board(state.team_count, 1 if state.players <= 3 else 2)
        for cell, chip in enumerate(state.chips):
            if chip is not None:
                board.place(cell, chip)
        for team, runs in enumerate(state.sequences):
            for run in runs:
                board.lock(run, team)
        return cls(
            board,
            [list(h) for h in state.hands],
            list(state.deck),
            [list(p) for p in state.discards],
            state.seed,
            state.step,
        )

    def draw(self, seat: int) -> None:
        """As the engine draws: an empty deck is first rebuilt from the discards, seeded."""
        if not self.deck:
            pile = [card for seat_pile in self.discards for card in seat_pile]
            chance(self.seed, self.step).shuffle(pile)
            self.deck, self.discards, self.step = pile, [[] for _ in self.discards], self.step + 1
        if self.deck:
            self.hands[seat].append(self.deck.pop(0))

    def trade(self, seat: int) -> None:
        """Trade the first dead card of the hand, if any."""
        hand = self.hands[seat]
        for i, card in enumerate(hand):
            if dead(self.board, card):
                self.discards[seat].append(hand.pop(i))
                self.draw(seat)
                return

    def play(self, seat: int, card: int, cell: int) -> bool:
        """Play `card` on `cell` for the seat's team, lock, draw; whether the team won."""
        team = seat % self.board.teams
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        if KIND[card] == "minus":
            self.board.remove(cell)
        else:
            self.board.place(cell, team)
            for runs in self.board.full_runs(cell, team):
                if len(set(runs[0]) & set(runs[-1])) == 1:  # a line of nine: both ends lock
                    self.board.lock(runs[0], team)
                    self.board.lock(runs[-1], team)
                else:
                    self.board.lock(max(runs, key=lambda run: lock_value(self.board, run, team)), team)
            if len(self.board.sequences[team]) >= self.board.to_win:
                return True
        self.draw(seat)
        return False

    def greedy(self, seat: int, style: Style = OTHERS) -> tuple[int, int] | None:
        """The reference's move for the seat: its best card and cell, first of equals."""
        team, hand = seat % self.board.teams, self.hands[seat]
        best, found = -WIN * 10, None
        for card in dict.fromkeys(hand):
            for cell in targets(self.board, card, team):
                value = move_value(self.board, card, cell, team, style, hand)
                if value > best:
                    best, found = value, (card, cell)
        return found

    def turn(self, seat: int) -> bool | None:
        """One greedy turn: True if it won, None if the seat could not play."""
        self.trade(seat)
        move = self.greedy(seat)
        if move is None:
            return None
        return self.play(seat, *move)


def playout(sim: Sim, players: int, seat: int, team: int) -> float:
    """The match from `seat`'s turn on, every seat greedy: 1 if `team` wins, 0 if another
    does, else the board's lean (a half, moved by the open lines)."""
    stuck = 0
    for _ in range(HORIZON):
        result = sim.turn(seat)
        if result:
            return 1.0 if seat % sim.board.teams == team else 0.0
        stuck = stuck + 1 if result is None else 0
        if stuck >= players:
            return 0.5
        seat = (seat + 1) % players
    mine = sim.board.open_value(team, HARD.weights)
    theirs = max(sim.board.open_value(t, HARD.weights) for t in range(sim.board.teams) if t != team)
    return 0.5 + 0.4 * (mine - theirs) / (abs(mine) + abs(theirs) + 1.0)


def oracle(
    state: SequenceState, seat: int, rng: random.Random, know: Knows = "all", samples: int = SAMPLES
) -> SequenceMove:
    """The cheating player's move: each of its best moves played out greedily, exactly when
    it knows the deck, else over `samples` shuffles of what it does not know."""
    legal = ENGINE.legal_moves(state, seat)
    team = seat % state.team_count
    if state.choices:
        board = Sim.of(state).board
        locks = [m for m in legal if m["type"] == "lock"]
        return max(locks, key=lambda m: lock_value(board, _run(m), team))
    trades = [m for m in legal if m["type"] == "trade"]
    if trades:
        return trades[0]
    plays = [m for m in legal if m["type"] == "play"]
    board, hand = Sim.of(state).board, list(state.hands[seat])
    values = [move_value(board, hand[m["card"]], _cell(m), team, HARD, hand) for m in plays]
    ranked = sorted(range(len(plays)), key=lambda i: values[i], reverse=True)
    if values[ranked[0]] >= WIN or len(ranked) == 1:
        return plays[ranked[0]]
    worlds = [_hidden(Sim.of(state), seat, rng, know) for _ in range(1 if know == "all" else samples)]
    results: dict[int, list[float]] = {}
    for i in ranked[:ORACLE_CANDIDATES]:
        results[i] = []
        for world in worlds:  # the same worlds for every candidate: their differences tell
            sim = world.copy()
            if sim.play(seat, hand[plays[i]["card"]], _cell(plays[i])):
                return plays[i]
            results[i].append(playout(sim, state.players, (seat + 1) % state.players, team))
    return plays[_surely_better(results, ranked[0])]


def _surely_better(results: dict[int, list[float]], first: int) -> int:
    """The candidate whose playouts beat those of `first` (the best by the evaluation) by
    the most, when by more than `MARGIN` standard errors of the paired differences; else
    `first`. Playouts are mostly luck: without the margin the search would follow noise."""
    best, best_gain = first, 0.0
    for i, outcomes in results.items():
        diffs = [a - b for a, b in zip(outcomes, results[first], strict=True)]
        gain = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        if gain > MARGIN * error and gain > best_gain:
            best, best_gain = i, gain
    return best


def _hidden(sim: Sim, seat: int, rng: random.Random, know: Knows) -> Sim:
    """`sim` with what the seat does not know shuffled: nothing (know "all"), the deck and
    the reshuffles (know "hands"), or these and the other hands too (know "own")."""
    if know == "all":
        return sim
    sim.seed = rng.randrange(2**30)
    others = [s for s in range(len(sim.hands)) if s != seat]
    pool = sim.deck + [c for s in others for c in sim.hands[s]] if know == "own" else sim.deck
    rng.shuffle(pool)
    if know == "own":
        for s in others:
            size = len(sim.hands[s])
            sim.hands[s], pool = pool[:size], pool[size:]
    sim.deck = pool
    return sim


def _cell(move: SequenceMove) -> int:
    assert move["type"] == "play"
    return int(move["row"]) * SIZE + int(move["col"])


def _run(move: LockMove) -> tuple[int, ...]:
    first, last = named_cell(move["from"]), named_cell(move["to"])
    step = (last - first) // (RUN - 1)
    return tuple(first + k * step for k in range(RUN))


def oracle_wins(reference: Any, games: int, know: Knows = "all", samples: int = SAMPLES) -> float:
    """The share of seeded two-player matches the oracle wins against `reference` (a view
    player), the oracle taking the first seat in turn, as in `ai.arena.first_wins`."""
    won = 0.0
    for seed in range(games):
        me = seed % 2
        state = ENGINE.new_game(2, seed)
        views: list[Any] = [ENGINE.view(state, 1 - me)]
        rng = random.Random(seed)
        while seats := ENGINE.current_seats(state):
            seat = seats[0]
            if seat == me:
                move = oracle(state, seat, rng, know, samples)
            else:
                move = reference("normal", views, ENGINE.legal_moves(state, seat), rng)
            state = ENGINE.apply(state, seat, move)
            views.append(ENGINE.view(state, 1 - me))
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        if me in outcome.winners:
            won += 1 / len(outcome.winners)
    return won / games
