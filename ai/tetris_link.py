"""Tetris Link players, from the newest view alone.

Tetris Link hides nothing but the rolls to come, so the newest view is the whole
position: the players read its `cells` into bit boards (one per seat, a bit per cell)
and simulate placements themselves. Which pieces have scored is not in the view, but
it follows from the board: a group grows only when its owner places a piece that
touches it, and that placement scores the whole group once it has three pieces, so a
piece has scored exactly when its group has three or more pieces.

- normal: the published one-ply heuristic (arXiv 2004.00377): every legal move is
  scored by a weighted sum of the points it makes, the links it makes to the player's
  own pieces, the opponents' pieces it touches (blocking), the empty cells it leaves
  under itself and its height; the highest sum is played.
- easy: sees only the points of the move and, now and then, takes a random one of
  its few best moves.
- hard: sampled lookahead. The normal evaluation proposes its best few moves; each is
  played out several moves ahead on sampled rolls of the die (the same rolls for
  every candidate, so they are compared on equal luck), every seat then playing as
  normal does, and the candidate whose playouts end with the best score margin (plus
  the groups about to score) wins. Weak candidates are dropped halfway so that the
  strong ones get more playouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.tetris_link import (
    ANY,
    COLUMNS,
    DIE_FACES,
    ROWS,
    SHAPES,
    TetrisLinkMove,
    TetrisLinkView,
    orientations,
)

# A bit per cell, row after row from the bottom, with an always empty column between
# rows so that shifting a board sideways never wraps a cell into the next row.
WIDTH = COLUMNS + 1

# The normal evaluation's weights, per point and per feature of a placement.
POINTS = 1.0
OWN_CONTACT = 0.3
BLOCK_CONTACT = 0.15
HOLE = 0.4
HEIGHT = 0.03
# The easy player's slips: how often, and among how many of its best moves.
SLIP_CHANCE = 0.35
SLIP_AMONG = 6
# The hard player's lookahead: candidates, playouts per candidate in each of the two
# rounds (the weaker half is dropped after the first), moves per playout, and what a
# group of two that has not scored yet is worth at the end of a playout.
CANDIDATES = 8
PLAYOUTS = (6, 10)
DEPTH = 8
PAIR = 0.5


@dataclass(frozen=True, slots=True)
class Fit:
    """One orientation of a shape, ready to drop."""

    shape: str
    rotation: int
    flip: bool
    columns: tuple[tuple[int, int], ...]  # per column it spans: (offset, its lowest row)
    tops: tuple[tuple[int, int], ...]  # per column it spans: (offset, one above its highest row)
    height: int  # rows it spans
    low_sum: int  # the sum of the lowest rows of its columns
    masks: tuple[int, ...]  # by leftmost column: its cells resting on the floor


def _fit(shape: str, rotation: int, flip: bool, cells: tuple[tuple[int, int], ...]) -> Fit:
    offsets = sorted({c for _, c in cells})
    width = 1 + offsets[-1]
    low = tuple((c, min(r for r, cc in cells if cc == c)) for c in offsets)
    tops = tuple((c, 1 + max(r for r, cc in cells if cc == c)) for c in offsets)
    shape_mask = sum(1 << (r * WIDTH + c) for r, c in cells)
    masks = tuple(shape_mask << column for column in range(COLUMNS - width + 1))
    height = 1 + max(r for r, _ in cells)
    return Fit(shape, rotation, flip, low, tops, height, sum(r for _, r in low), masks)


FITS: dict[str, tuple[Fit, ...]] = {
    shape: tuple(_fit(shape, rotation, flip, cells) for rotation, flip, cells in orientations(shape))
    for shape in SHAPES
}
FIT_OF: dict[tuple[str, int, bool], Fit] = {
    (fit.shape, fit.rotation, fit.flip): fit for fits in FITS.values() for fit in fits
}


@dataclass(slots=True)
class Board:
    """A position: heights, each seat's groups as cell masks, scores and pieces left.

    Mutable, for simulation: `copy` before trying a line of play.
    """

    heights: list[int]
    groups: list[list[int]]  # by seat
    scores: list[int]
    left: list[list[int]]  # by seat, counts in SHAPES order
    active: tuple[int, ...]  # seats still playing

    def copy(self) -> Board:
        return Board(
            list(self.heights),
            [list(g) for g in self.groups],
            list(self.scores),
            [list(n) for n in self.left],
            self.active,
        )

    def occupied(self, seat: int) -> int:
        """The cells of `seat`, as one mask."""
        cells = 0
        for group in self.groups[seat]:
            cells |= group
        return cells


@dataclass(frozen=True, slots=True)
class Placement:
    """What one placement does: where it goes and the features the evaluation weighs."""

    fit: Fit
    column: int
    mask: int
    gained: int
    penalty: int
    holes: int
    own_contacts: int
    block_contacts: int
    top: int

    def points(self) -> int:
        return self.gained - self.penalty

    def value(self) -> float:
        """The normal evaluation: a weighted sum of the placement's features."""
        return (
            POINTS * self.points()
            + OWN_CONTACT * self.own_contacts
            + BLOCK_CONTACT * self.block_contacts
            - HOLE * self.holes
            - HEIGHT * self.top
        )


def read_board(view: TetrisLinkView) -> Board:
    """The position of a view as a `Board`."""
    players = view["players"]
    heights = [0] * COLUMNS
    pieces: dict[int, tuple[int, int]] = {}  # piece id -> seat, cell mask
    for r, row in enumerate(view["cells"]):
        for c, entry in enumerate(row):
            if entry is not None:
                heights[c] = r + 1
                seat, pid = entry
                owner, mask = pieces.get(pid, (seat, 0))
                pieces[pid] = (owner, mask | 1 << (r * WIDTH + c))
    groups: list[list[int]] = [[] for _ in range(players)]
    for seat, mask in pieces.values():
        groups[seat] = _joined(groups[seat], mask)[0]
    scores = list(view["scores"])
    left = [[counts[s] for s in SHAPES] for counts in view["pieces_left"]]
    active = tuple(s for s in range(players) if s not in view["resigned"])
    return Board(heights, groups, scores, left, active)


def _ring(mask: int) -> int:
    """The cells beside `mask` (and some outside the tower, where nothing ever is)."""
    return (mask << WIDTH) | (mask >> WIDTH) | (mask << 1) | (mask >> 1)


def _joined(groups: list[int], mask: int) -> tuple[list[int], int]:
    """The groups once `mask` joins those it touches, and the group it is now in."""
    ring = _ring(mask)
    merged, kept = mask, []
    for group in groups:
        if group & ring:
            merged |= group
        else:
            kept.append(group)
    kept.append(merged)
    return kept, merged


def _contacts(mask: int, cells: int) -> int:
    """Cell sides of `mask` that touch `cells`."""
    return (
        ((mask << WIDTH) & cells).bit_count()
        + ((mask >> WIDTH) & cells).bit_count()
        + ((mask << 1) & cells).bit_count()
        + ((mask >> 1) & cells).bit_count()
    )


def place(board: Board, seat: int, move: TetrisLinkMove) -> Placement | None:
    """What the legal `move` of `seat` does on `board`; None if it does not fit."""
    return drop(board, seat, FIT_OF[move["shape"], move["rotation"], move["flip"]], move["column"])


def drop(board: Board, seat: int, fit: Fit, column: int) -> Placement | None:
    """`fit` dropped by `seat` with its leftmost cell in `column`; None if it sticks out."""
    heights = board.heights
    base = 0
    for offset, low in fit.columns:
        rest = heights[column + offset] - low
        if rest > base:
            base = rest
    if base + fit.height > ROWS:
        return None
    holes = 0
    for offset, low in fit.columns:
        holes += base + low - heights[column + offset]
    mask = fit.masks[column] << (base * WIDTH)
    ring = _ring(mask)
    own_contacts = block_contacts = 0
    pieces = unscored = 1
    for other, groups in enumerate(board.groups):
        for group in groups:
            if group & ring:
                if other != seat:
                    block_contacts += _contacts(mask, group)
                    continue
                own_contacts += _contacts(mask, group)
                size = group.bit_count() >> 2
                pieces += size
                if size < 3:
                    unscored += size
    gained = unscored if pieces >= 3 else 0
    top = base + fit.height - 1
    return Placement(fit, column, mask, gained, min(2, holes), holes, own_contacts, block_contacts, top)


def normal_placement(board: Board, seat: int, shapes: Sequence[str]) -> Placement | None:
    """The first of the placements normal values most, found without building the others."""
    heights, groups = board.heights, board.groups[seat]
    own = board.occupied(seat)
    others = 0
    for other, cells in enumerate(board.groups):
        if other != seat:
            for group in cells:
                others |= group
    # The piece touches a cell of `own` above it where it meets `own` shifted one row
    # down, and so on for the other three sides: one AND per side and board.
    mine = (own >> WIDTH, own << WIDTH, own >> 1, own << 1)
    theirs = (others >> WIDTH, others << WIDTH, others >> 1, others << 1)
    near_mine = mine[0] | mine[1] | mine[2] | mine[3]
    near_theirs = theirs[0] | theirs[1] | theirs[2] | theirs[3]
    best: tuple[Fit, int, int] | None = None
    best_value = -1e9
    for shape in shapes:
        for fit in FITS[shape]:
            columns, height = fit.columns, fit.height
            for column, floor_mask in enumerate(fit.masks):
                base = floor = 0
                for offset, low in columns:
                    under = heights[column + offset]
                    floor += under
                    if under - low > base:
                        base = under - low
                if base + height > ROWS:
                    continue
                holes = len(columns) * base + fit.low_sum - floor
                mask = floor_mask << (base * WIDTH)
                value = -HOLE * holes - HEIGHT * (base + height - 1) - POINTS * min(2, holes)
                if mask & near_mine:
                    value += OWN_CONTACT * (
                        (mask & mine[0]).bit_count()
                        + (mask & mine[1]).bit_count()
                        + (mask & mine[2]).bit_count()
                        + (mask & mine[3]).bit_count()
                    )
                    value += POINTS * _gained(groups, mask)
                if mask & near_theirs:
                    value += BLOCK_CONTACT * (
                        (mask & theirs[0]).bit_count()
                        + (mask & theirs[1]).bit_count()
                        + (mask & theirs[2]).bit_count()
                        + (mask & theirs[3]).bit_count()
                    )
                if value > best_value:
                    best, best_value = (fit, column, base), value
    return None if best is None else drop(board, seat, best[0], best[1])


def _gained(groups: list[int], mask: int) -> int:
    """The points a piece at `mask` scores by linking the groups it touches."""
    ring = _ring(mask)
    pieces = unscored = 1
    for group in groups:
        if group & ring:
            size = group.bit_count() >> 2
            pieces += size
            if size < 3:
                unscored += size
    return unscored if pieces >= 3 else 0


def put(board: Board, seat: int, placement: Placement) -> None:
    """Play `placement` of `seat` on `board`."""
    fit, column = placement.fit, placement.column
    base = placement.top + 1 - fit.height
    for offset, top in fit.tops:
        board.heights[column + offset] = base + top
    board.groups[seat] = _joined(board.groups[seat], placement.mask)[0]
    board.scores[seat] += placement.points()
    board.left[seat][SHAPES.index(fit.shape)] -= 1


# ---------------------------------------------------------------- the levels


def choose(
    level: str, views: Sequence[TetrisLinkView], legal: list[TetrisLinkMove], rng: random.Random
) -> TetrisLinkMove:
    """The move of a Tetris Link computer seat at `level` (see the module docstring)."""
    view = views[-1]
    seat = view["to_move"][0]
    board = read_board(view)
    found = [place(board, seat, move) for move in legal]
    if any(p is None for p in found):
        raise ValueError("A legal move does not fit the newest view — pass the views of the seat to move.")
    options = [p for p in found if p is not None]
    if level == "easy":
        return legal[_easy(options, rng)]
    if level == "normal":
        return legal[_best([p.value() for p in options], rng)]
    return legal[_hard(board, seat, options, view["dice"], rng)]


def _best(values: list[float], rng: random.Random) -> int:
    """The index of a highest value; ties drawn with `rng`."""
    top = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= top - 1e-9])


def _easy(options: list[Placement], rng: random.Random) -> int:
    """Points only, lower pieces first; now and then one of the few best at random."""
    keys = [(p.points(), -p.top, rng.random()) for p in options]
    ranked = sorted(range(len(options)), key=lambda i: keys[i], reverse=True)
    if rng.random() < SLIP_CHANCE:
        return rng.choice(ranked[:SLIP_AMONG])
    return ranked[0]


def _hard(board: Board, seat: int, options: list[Placement], dice: bool, rng: random.Random) -> int:
    """Sampled lookahead over the normal evaluation's best candidates."""
    values = [p.value() for p in options]
    ranked = sorted(range(len(options)), key=lambda i: values[i], reverse=True)[:CANDIDATES]
    if len(ranked) == 1 or len(board.active) < 2:
        return ranked[0]
    totals = dict.fromkeys(ranked, 0.0)
    alive = list(ranked)
    # Without dice nothing is left to chance: one playout per candidate says it all.
    for round_index, playouts in enumerate(PLAYOUTS if dice else (1,)):
        if round_index:
            alive.sort(key=lambda i: totals[i], reverse=True)
            alive = alive[: max(2, len(alive) // 2)]
        for _ in range(playouts):
            faces = [rng.choice(DIE_FACES) if dice else ANY for _ in range(4 * DEPTH)]
            for i in alive:
                line = board.copy()
                put(line, seat, options[i])
                totals[i] += _playout(line, seat, faces)
    return max(alive, key=lambda i: (totals[i], values[i]))


def _playout(board: Board, seat: int, faces: list[str]) -> float:
    """`DEPTH` more placements from `seat`'s move on, every seat playing as normal does:
    `seat`'s margin over its best opponent at the end, counting pairs about to score."""
    mover, moves = seat, 0
    for face in faces:
        mover = _next(board, mover)
        shapes = SHAPES if face == ANY else (face,)
        best = normal_placement(board, mover, [s for s in shapes if board.left[mover][SHAPES.index(s)]])
        if best is None:
            continue
        put(board, mover, best)
        moves += 1
        if moves == DEPTH:
            break
    return _margin(board, seat)


def _next(board: Board, seat: int) -> int:
    players = len(board.groups)
    seat = (seat + 1) % players
    while seat not in board.active:
        seat = (seat + 1) % players
    return seat


def _margin(board: Board, seat: int) -> float:
    """`seat`'s score less its best opponent's, each with its unscored pairs."""
    worth = {
        s: board.scores[s] + PAIR * sum(1 for g in board.groups[s] if g.bit_count() == 8)
        for s in board.active
    }
    mine = worth.pop(seat, 0.0)
    return mine - max(worth.values(), default=0.0)
