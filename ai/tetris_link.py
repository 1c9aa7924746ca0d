"""Tetris Link players, from the newest view alone.

Tetris Link hides nothing but the rolls to come, so the newest view is the whole
position: the players read its `cells` and simulate placements themselves. Which
pieces have scored is not in the view, but it follows from the board: a group grows
only when its owner places a piece that touches it, and that placement scores the
whole group once it has three pieces, so a piece has scored exactly when its group
has three or more pieces.

- normal: a one-ply heuristic in the spirit of the published player (arXiv
  2004.00377): every legal move is scored by a weighted sum of the points it makes,
  the links it makes to the player's own pieces, the opponents' pieces it touches
  (blocking), the empty cells it leaves under itself and its height.
- easy: sees only the points of the move and, now and then, takes a random one of
  its few best moves.
- hard: for the most promising moves by the normal evaluation, that evaluation less
  the next seat's best reply averaged over the faces of the die it will roll
  (expectimax over two plies), plus half its own best next placement on the board it
  leaves, likewise averaged over its own next roll.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.tetris_link import ANY, COLUMNS, DIE_FACES, ROWS, SHAPES, orientations, piece_cells

Cell = tuple[int, int]

# The normal evaluation's weights, per point and per feature of a placement.
POINTS = 1.0
OWN_CONTACT = 0.3
BLOCK_CONTACT = 0.15
HOLE = 0.4
HEIGHT = 0.03
# The easy player's slips: how often, and among how many of its best moves.
SLIP_CHANCE = 0.35
SLIP_AMONG = 6
# The hard player's search: candidates looked at two plies deep, and the weight of its
# own best next placement on the board it leaves.
CANDIDATES = 12
FOLLOW_UP = 0.5


@dataclass(frozen=True, slots=True)
class Position:
    """A board read from a view: per cell the owning seat and piece id, or None."""

    owner: tuple[tuple[int | None, ...], ...]
    piece: tuple[tuple[int | None, ...], ...]
    heights: tuple[int, ...]
    group_size: dict[int, int]  # piece id -> pieces in its group
    group_of: dict[int, int]  # piece id -> a representative piece id of its group


def read_position(view: dict) -> Position:
    """The board of a view as a `Position`."""
    owner = tuple(tuple(None if e is None else e[0] for e in row) for row in view["cells"])
    piece = tuple(tuple(None if e is None else e[1] for e in row) for row in view["cells"])
    return _position(owner, piece)


def _position(
    owner: tuple[tuple[int | None, ...], ...], piece: tuple[tuple[int | None, ...], ...]
) -> Position:
    heights = [0] * COLUMNS
    for r in range(ROWS):
        for c in range(COLUMNS):
            if piece[r][c] is not None:
                heights[c] = r + 1
    parent: dict[int, int] = {}

    def root(pid: int) -> int:
        while parent[pid] != pid:
            parent[pid] = parent[parent[pid]]
            pid = parent[pid]
        return pid

    for r in range(ROWS):
        for c in range(COLUMNS):
            pid = piece[r][c]
            if pid is None:
                continue
            parent.setdefault(pid, pid)
            for nr, nc in ((r - 1, c), (r, c - 1)):
                if nr >= 0 and nc >= 0 and owner[nr][nc] == owner[r][c] and piece[nr][nc] != pid:
                    other = piece[nr][nc]
                    assert other is not None
                    parent[root(other)] = root(pid)
    group_of = {pid: root(pid) for pid in parent}
    sizes: dict[int, int] = {}
    for top in group_of.values():
        sizes[top] = sizes.get(top, 0) + 1
    return Position(owner, piece, tuple(heights), {p: sizes[g] for p, g in group_of.items()}, group_of)


@dataclass(frozen=True, slots=True)
class Placement:
    """What one placement does: its cells and the features the evaluation weighs."""

    shape: str
    cells: tuple[Cell, ...]
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


def place(position: Position, seat: int, move: dict) -> Placement | None:
    """Simulate `move` by `seat` on `position`; None if it does not fit."""
    shape_cells = piece_cells(move["shape"], move["rotation"], move["flip"])
    return _drop(position, seat, move["shape"], shape_cells, move["column"])


def _drop(
    position: Position, seat: int, shape: str, shape_cells: tuple[Cell, ...], column: int
) -> Placement | None:
    heights = position.heights
    if column + max(c for _, c in shape_cells) >= COLUMNS:
        return None
    base = max(heights[column + c] - r for r, c in shape_cells)
    top = base + max(r for r, _ in shape_cells)
    if top >= ROWS:
        return None
    cells = tuple((base + r, column + c) for r, c in shape_cells)
    lowest: dict[int, int] = {}
    for r, c in cells:
        lowest[c] = min(r, lowest.get(c, r))
    holes = sum(r - heights[c] for c, r in lowest.items())
    touched: set[int] = set()
    own = block = 0
    for r, c in cells:
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < ROWS and 0 <= nc < COLUMNS and (nr, nc) not in cells:
                who = position.owner[nr][nc]
                if who == seat:
                    own += 1
                    pid = position.piece[nr][nc]
                    assert pid is not None
                    touched.add(position.group_of[pid])
                elif who is not None:
                    block += 1
    sizes = [position.group_size[g] for g in touched]
    gained = 1 + sum(s for s in sizes if s < 3) if 1 + sum(sizes) >= 3 else 0
    return Placement(shape, cells, gained, min(2, holes), holes, own, block, top)


def after(position: Position, seat: int, placement: Placement) -> Position:
    """The position once `placement` of `seat` is in."""
    pid = 1 + max(position.group_of, default=-1)
    owner = [list(row) for row in position.owner]
    piece = [list(row) for row in position.piece]
    for r, c in placement.cells:
        owner[r][c], piece[r][c] = seat, pid
    return _position(tuple(map(tuple, owner)), tuple(map(tuple, piece)))


# ---------------------------------------------------------------- the levels


def choose(level: str, views: Sequence[dict], legal: list[dict], rng: random.Random) -> dict:
    """The move of a Tetris Link computer seat at `level` (see the module docstring)."""
    view = views[-1]
    seat = view["to_move"][0]
    position = read_position(view)
    placements = [place(position, seat, move) for move in legal]
    if any(p is None for p in placements):
        raise ValueError("A legal move does not fit the newest view — pass the views of the seat to move.")
    found = [p for p in placements if p is not None]
    if level == "easy":
        return legal[_easy(found, rng)]
    if level == "normal":
        return legal[_best([p.value() for p in found], rng)]
    return legal[_hard(position, view, seat, found, rng)]


def _best(values: list[float], rng: random.Random) -> int:
    """The index of a highest value; ties drawn with `rng`."""
    top = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= top - 1e-9])


def _easy(found: list[Placement], rng: random.Random) -> int:
    """Points only, lower pieces first; now and then one of the few best at random."""
    keys = [(p.points(), -p.top, rng.random()) for p in found]
    ranked = sorted(range(len(found)), key=lambda i: keys[i], reverse=True)
    if rng.random() < SLIP_CHANCE:
        return rng.choice(ranked[:SLIP_AMONG])
    return ranked[0]


def _hard(position: Position, view: dict, seat: int, found: list[Placement], rng: random.Random) -> int:
    """Two-ply expectimax over the next seat's die for the best normal candidates."""
    values = [p.value() for p in found]
    ranked = sorted(range(len(found)), key=lambda i: values[i], reverse=True)[:CANDIDATES]
    following = _next_seat(view, seat)
    if following is None:
        return ranked[0]
    theirs, mine, dice = view["pieces_left"][following], dict(view["pieces_left"][seat]), view["dice"]
    scores = []
    for i in ranked:
        mine[found[i].shape] -= 1
        later = after(position, seat, found[i])
        reply = _expected_reply(later, following, theirs, dice)
        follow_up = _expected_reply(later, seat, mine, dice)
        mine[found[i].shape] += 1
        scores.append(values[i] - reply + FOLLOW_UP * follow_up)
    return ranked[_best(scores, rng)]


def _next_seat(view: dict, seat: int) -> int | None:
    players: int = view["players"]
    for step in range(1, players):
        other = (seat + step) % players
        if other not in view["resigned"]:
            return other
    return None


def _expected_reply(position: Position, seat: int, left: dict[str, int], dice: bool) -> float:
    """The next seat's best normal value, averaged over its roll (or its free choice)."""
    best = {shape: _best_reply(position, seat, shape) for shape in SHAPES if left[shape]}
    free = max(best.values(), default=0.0)
    if not dice:
        return free
    faces = [free if face == ANY else best.get(face, 0.0) for face in DIE_FACES]
    return sum(faces) / len(faces)


def _best_reply(position: Position, seat: int, shape: str) -> float:
    values = [
        placement.value()
        for _, _, cells in orientations(shape)
        for column in range(COLUMNS)
        if (placement := _drop(position, seat, shape, cells, column)) is not None
    ]
    return max(values, default=0.0)
