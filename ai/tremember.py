"""Tremember players, with a memory made only of what the seat's views showed.

Every card a seat has seen face up is in one of its views: a peeked card in the
taker's view right after the take (`peek`), a first flip on the board until the
second, and both cards of the second flip in `last_flip` / `last_event`.
`read_memory` replays the views' events (take, push, flip, miss, pair and its joker
turn), so each remembered card follows the pushes and turns of the board. It also
keeps, for every card, which seats have seen it: all seats for a flip, the taker
alone for a peek (everybody sees *where* the peeked card lands, nobody else its face).

- easy: a child who forgets. Each remembered card is recalled with a chance that
  halves every `HALF_LIFE` moves since it was seen and drops again for every push
  that moved it (drawn afresh at each decision, so it may also recall a card it had
  let slip). It takes and pushes at random, turns a pair it recalls, else a card it
  does not recall, then the twin of its first card if it recalls it.
- normal: remembers everything. It peeks at a card it does not know, pushes so that
  a pair it knows lies as close as possible, turns a known pair, else a new card and
  its twin if known, else another new card.
- hard: remembers everything and weighs each choice by its expected points less
  what it gives away. It tracks which seats have seen each face-down card; turning a
  card up tells every seat that had not seen it, and costs the chance that one of
  them holds its twin. So it turns first the unknown card with the best expected
  value (a hit on a twin it knows, scored by where the two lie; cards only an
  opponent has peeked at cost nothing to reveal to that opponent), follows a miss
  with a new card or a card everybody has seen already, and, when every such gamble
  costs more than it may gain, turns two cards everybody knows and reveals nothing.
  Before it turns a pair, it takes and pushes so that the pair lies side by side for
  3 points, weighing that against the value of peeking at a new card (it peeks at
  cards no other seat has seen, for knowledge of its own).

The views already carry all of this, so the engine's view needed nothing new.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from games.tremember import (
    SIZE,
    Side,
    TrememberMove,
    TrememberView,
    legal_push_sides,
    pair_points,
    push_line,
)

CELLS = SIZE * SIZE
T = TypeVar("T")
ALL = -1  # the knowers mask of a card every seat has seen

# easy: the chance of recalling a card halves every HALF_LIFE moves since it was
# seen, and is multiplied by SHIFT_RECALL for every push that moved it since.
HALF_LIFE = 20.0
SHIFT_RECALL = 0.8
# hard: the value of a turn more after a pair; the points an opponent is taken to
# make with a pair it completes; the cost of telling the next seats a new card
# (they use it first) and of telling them a card only this seat knew; the value of
# peeking at a card, and its change for each other seat that has seen that card; the
# value of a known pair left for a later turn.
AGAIN = 2.0
OPPONENT_PAIR = 2.5
REVEAL_NEW = 0.1
REVEAL_OWN = 0.45
PEEK = 0.5
PEEK_SEEN = -0.05
LATER_PAIR = 2.5


@dataclass(slots=True)
class Memory:
    """What one seat has seen, by cell of the board as it lies now."""

    seat: int
    motif: list[str | None]  # the card's motif if the seat has seen it
    knowers: list[int]  # bitmask of the seats that have seen the card (ALL: every seat)
    seen: list[int]  # index of the view in which the seat last saw the card
    shifted: list[int]  # pushes that moved the card since then


def pushed_to(hole: int, side: Side) -> dict[int, int]:
    """Where the push moves each card of the line: every card one step toward the hole,
    the taken card (at the hole) to the far end."""
    line = push_line(hole, side)
    moves = {outer: inner for inner, outer in pairwise(line)}
    moves[hole] = line[-1]
    return moves


def turned(cell: int) -> int:
    """Where a card at `cell` lies after the board turns 90° clockwise."""
    row, col = divmod(cell, SIZE)
    return col * SIZE + (SIZE - 1 - row)


def _cell(rc: Sequence[int]) -> int:
    return rc[0] * SIZE + rc[1]


def read_memory(views: Sequence[TrememberView], seat: int) -> Memory:
    """Everything `seat`'s views showed about the cards, moved along with the board."""
    memory = Memory(seat, [None] * CELLS, [0] * CELLS, [-1] * CELLS, [0] * CELLS)
    for index, view in enumerate(views[1:], 1):
        _replay(memory, index, view)
    board = views[-1]["board"]
    for cell in range(CELLS):
        face = board[cell // SIZE][cell % SIZE]
        if face is not None:
            memory.motif[cell], memory.knowers[cell] = face, ALL
    return memory


def _replay(memory: Memory, index: int, view: TrememberView) -> None:
    """Bring `memory` up to `view` by the event that led to it."""
    event = view["last_event"]
    if event is None:
        return
    if event["type"] == "take":
        cell, peek = _cell(event["cell"]), view.get("peek")
        memory.knowers[cell] |= 1 << event["seat"]
        if event["seat"] == memory.seat and peek is not None:
            _saw(memory, cell, peek, index, everyone=False)
    elif event["type"] == "push":
        _move(memory, pushed_to(_cell(event["cell"]), event["from"]), shift=True)
    elif event["type"] == "flip":
        _saw(memory, _cell(event["cell"]), event["motif"], index, everyone=True)
    elif event["type"] in ("miss", "pair"):
        motifs = event["motifs"] if event["type"] == "miss" else [event["motif"]] * 2
        for rc, motif in zip(event["cells"], motifs, strict=True):
            _saw(memory, _cell(rc), motif, index, everyone=True)
        if event["type"] == "pair" and event["rotated"]:
            _move(memory, {cell: turned(cell) for cell in range(CELLS)}, shift=False)


def _saw(memory: Memory, cell: int, motif: str, index: int, everyone: bool) -> None:
    memory.motif[cell], memory.seen[cell], memory.shifted[cell] = motif, index, 0
    memory.knowers[cell] = ALL if everyone else memory.knowers[cell] | 1 << memory.seat


def _permuted(values: list[T], moves: dict[int, int]) -> list[T]:
    moved = list(values)
    for source, target in moves.items():
        moved[target] = values[source]
    return moved


def _move(memory: Memory, moves: dict[int, int], shift: bool) -> None:
    """Carry what is known about each card from its old cell to its new one."""
    memory.motif = _permuted(memory.motif, moves)
    memory.knowers = _permuted(memory.knowers, moves)
    memory.seen = _permuted(memory.seen, moves)
    memory.shifted = _permuted(memory.shifted, moves)
    if shift:
        for target in moves.values():
            memory.shifted[target] += 1


@dataclass(slots=True)
class Table:
    """One decision: the face-down cards and what the seat recalls of them."""

    seat: int
    players: int
    memory: Memory
    down: list[int]  # the face-down cards that may be taken or turned now
    known: dict[int, str]  # face-down cell -> motif the seat recalls
    first: int | None  # the card turned first this turn, face up
    first_motif: str | None

    def unknown(self) -> list[int]:
        return [cell for cell in self.down if cell not in self.known]

    def pairs(self) -> list[tuple[int, int]]:
        """Known pairs of face-down cards, best points first."""
        by_motif: dict[str, list[int]] = {}
        for cell, motif in self.known.items():
            by_motif.setdefault(motif, []).append(cell)
        found = [(cells[0], cells[1]) for cells in by_motif.values() if len(cells) == 2]
        return sorted(found, key=lambda p: -pair_points(*p))

    def singles(self) -> dict[str, int]:
        """Known face-down cards whose twin is face down where the seat does not know."""
        counts: dict[str, list[int]] = {}
        for cell, motif in self.known.items():
            counts.setdefault(motif, []).append(cell)
        return {motif: cells[0] for motif, cells in counts.items() if len(cells) == 1}


def recall(memory: Memory, now: int, level: str, rng: random.Random) -> dict[int, str]:
    """The cards the seat recalls, by cell: all it saw, except that easy forgets."""
    known = {cell: motif for cell, motif in enumerate(memory.motif) if motif is not None}
    if level != "easy":
        return known
    kept = {}
    for cell, motif in known.items():
        chance = 0.5 ** ((now - memory.seen[cell]) / HALF_LIFE) * SHIFT_RECALL ** memory.shifted[cell]
        if rng.random() < chance:
            kept[cell] = motif
    return kept


def read_table(views: Sequence[TrememberView], level: str, rng: random.Random) -> Table:
    view = views[-1]
    seat = view["to_move"][0]
    memory = read_memory(views, seat)
    board = view["board"]
    hole = None if view["hole"] is None else _cell(view["hole"])
    first = None if view["first_flip"] is None else _cell(view["first_flip"])
    down = [c for c in range(CELLS) if board[c // SIZE][c % SIZE] is None and c != hole]
    recalled = recall(memory, len(views) - 1, level, rng)
    known = {cell: recalled[cell] for cell in down if cell in recalled}
    peek = view.get("peek")
    if hole is not None and peek is not None:
        known[hole] = peek  # the card in hand
    first_motif = None if first is None else board[first // SIZE][first % SIZE]
    return Table(seat, view["players"], memory, down, known, first, first_motif)


def choose(
    level: str, views: Sequence[TrememberView], legal: list[TrememberMove], rng: random.Random
) -> TrememberMove:
    """The move of a seat at `level` (easy, normal or hard) from its views."""
    table = read_table(views, level, rng)
    view = views[-1]
    if view["hole"] is not None:  # the push phase
        hole = _cell(view["hole"])
        pushes = [move for move in legal if move["type"] == "push"]
        sides = [move["from"] for move in pushes]
        side = rng.choice(sides) if level == "easy" else _best_push(table, hole, sides, rng)
        return next(move for move in pushes if move["from"] == side)
    if view["phase"] == "take":
        cell = _take(level, table, rng)
    elif table.first is None:
        cell = _first_flip(level, table, rng)
    else:
        cell = _second_flip(level, table, rng)
    return next(move for move in legal if move["type"] != "push" and _cell(move["cell"]) == cell)


# --- taking and pushing -----------------------------------------------------------------


def _pairs_value(pairs: list[tuple[int, int]]) -> float:
    """What known pairs are worth: the best scores now, the others on later turns."""
    if not pairs:
        return 0.0
    return max(pair_points(a, b) for a, b in pairs) + LATER_PAIR * (len(pairs) - 1)


def _moved(pairs: list[tuple[int, int]], moves: dict[int, int]) -> list[tuple[int, int]]:
    return [(moves.get(a, a), moves.get(b, b)) for a, b in pairs]


def _best_push(table: Table, hole: int, sides: list[Side], rng: random.Random) -> Side:
    """The push that leaves the known pairs lying best; ties at random."""
    pairs = table.pairs()
    values = {side: _pairs_value(_moved(pairs, pushed_to(hole, side))) for side in sides}
    best = max(values.values())
    return rng.choice([side for side in sides if values[side] == best])


def _take(level: str, table: Table, rng: random.Random) -> int:
    unknown = table.unknown()
    if level == "easy" or (level == "normal" and not unknown):
        return rng.choice(table.down)
    if level == "normal":
        return rng.choice(unknown)
    return _hard_take(table, unknown, rng)


def _hard_take(table: Table, unknown: list[int], rng: random.Random) -> int:
    """The take (and its best push to come) worth most: a peek, or moving a known card."""
    pairs, singles = table.pairs(), list(table.singles().values())
    count = len(unknown)
    values: dict[int, float] = {}
    for cell in table.down:
        sides = legal_push_sides(cell)
        moves = [pushed_to(cell, side) for side in sides]
        if cell in table.known:
            values[cell] = max(_pairs_value(_moved(pairs, m)) for m in moves)
            continue
        # A peek: the card is the twin of each single with chance 1/count, else new.
        assert count, "an unknown card was found, so there is one"
        value = (count - len(singles)) / count * max(_pairs_value(_moved(pairs, m)) for m in moves)
        for single in singles:
            value += max(_pairs_value(_moved([*pairs, (cell, single)], m)) for m in moves) / count
        seen_by = bin(table.memory.knowers[cell] & ~(1 << table.seat)).count("1")
        values[cell] = value + PEEK + PEEK_SEEN * seen_by
    best = max(values.values())
    return rng.choice([cell for cell in table.down if values[cell] >= best - 1e-9])


# --- turning ------------------------------------------------------------------------------


def _first_flip(level: str, table: Table, rng: random.Random) -> int:
    pairs = table.pairs()
    if pairs:
        best = pair_points(*pairs[0])
        return rng.choice([p[0] for p in pairs if pair_points(*p) == best])
    return _flip_unknown(level, table, rng, _hard_first_flip)


def _second_flip(level: str, table: Table, rng: random.Random) -> int:
    assert table.first is not None
    twins = [cell for cell, motif in table.known.items() if motif == table.first_motif]
    if twins:
        return twins[0]
    return _flip_unknown(level, table, rng, _hard_second_flip)


def _flip_unknown(
    level: str, table: Table, rng: random.Random, hard: Callable[[Table, list[int]], int]
) -> int:
    """A card this player does not know: any of them below hard, `hard`'s pick at hard (any
    face-down card when it knows them all)."""
    unknown = table.unknown()
    if not unknown:
        return rng.choice(table.down)
    if level != "hard":
        return rng.choice(unknown)
    return hard(table, unknown)


def _risk(table: Table, unknown: list[int]) -> dict[int, float]:
    """The expected cost of turning up each face-down card (and then leaving the turn).

    A seat that had not seen the card learns it: if that seat has peeked at the card's
    twin it completes a pair (chance: the cells it alone knows among the unknown ones),
    and otherwise it gets to use the news first (REVEAL_NEW). A card this seat alone
    knew also gives away its advantage (REVEAL_OWN)."""
    memory, me = table.memory, table.seat
    opponents = [s for s in range(table.players) if s != me]
    secret = {s: [c for c in unknown if memory.knowers[c] & (1 << s)] for s in opponents}
    pool = max(1, len(unknown) - 1)
    costs: dict[int, float] = {}
    for cell in table.down:
        mask = memory.knowers[cell]
        if mask == ALL:
            costs[cell] = 0.0
            continue
        own = cell in table.known
        cost = 0.0
        for s in opponents:
            if mask & (1 << s):
                continue
            holds = sum(1 for c in secret[s] if c != cell)
            cost += holds / pool * OPPONENT_PAIR + (REVEAL_OWN if own else REVEAL_NEW)
        costs[cell] = cost
    return costs


def _hard_first_flip(table: Table, unknown: list[int]) -> int:
    """The new card with the best expected value, or two known cards that reveal least."""
    singles = list(table.singles().values())
    costs = _risk(table, unknown)
    count = len(unknown)
    safest = sorted(table.known, key=lambda c: (costs[c], c))
    follow_known = -costs[safest[0]] if safest else float("-inf")
    best_cell, best_value = -1, float("-inf")
    for u in unknown:
        # A hit on a twin the seat knows scores and plays again; a miss reveals `u`, then
        # the best second card: a new one that may be its twin, or the safest known one.
        hit = sum(pair_points(u, s) + AGAIN for s in singles) / count
        miss = 1 - len(singles) / count
        follow = follow_known
        if count > 1:
            chance = 1 / (count - 1)
            follow = max(
                follow,
                max(
                    (pair_points(u, v) + AGAIN) * chance - (1 - chance) * costs[v] for v in unknown if v != u
                ),
            )
        value = hit + miss * ((0.0 if follow == float("-inf") else follow) - costs[u])
        if value > best_value + 1e-9:
            best_cell, best_value = u, value
    if len(safest) >= 2 and -(costs[safest[0]] + costs[safest[1]]) > best_value:
        return safest[0]
    return best_cell


def _hard_second_flip(table: Table, unknown: list[int]) -> int:
    """After the first card missed what the seat knows: a new card, which may be its twin,
    or the known card that reveals least."""
    assert table.first is not None
    costs = _risk(table, unknown)
    chance = 1 / len(unknown)
    options = {c: -costs[c] for c in table.known}
    for v in unknown:
        options[v] = (pair_points(table.first, v) + AGAIN) * chance - (1 - chance) * costs[v]
    best = max(options.values())
    return min(c for c, value in options.items() if value >= best - 1e-9)
