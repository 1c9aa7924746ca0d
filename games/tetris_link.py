"""Tetris Link: drop tetrominoes into a 10 × 20 tower and link groups of your colour.

The binding rules are in `rules/tetris_link.md`. Coordinates are (row, column) with
row 0 at the bottom of the tower. Die rolls come from `chance(seed, step)` with the
step counter kept in the state, so a seed and a move list replay a match exactly.
The seat that begins the starting rolls (with the no-dice option: the starter) is
drawn by `first_seat`.

Views and moves are JSON-able dicts typed below: `TetrisLinkView`, `TetrisLinkEvent` (its
`last_event`), `FollowUp` (its `events`) and `TetrisLinkMove`; `TetrisLinkEngine.view`
documents every key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, Literal, TypedDict

from games.base import (
    CommonView,
    Engine,
    GameError,
    IllegalMove,
    Outcome,
    chance,
    check_players,
    check_seat,
    common_view,
    first_seat,
    load_json,
)

ROWS = 20
COLUMNS = 10
PIECES_PER_SHAPE = 5
SHAPES = ("I", "O", "T", "S", "L")
ANY = "any"
DIE_FACES = (*SHAPES, ANY)
FORMAT_VERSION = 2  # 1: before the start and placement events; `load` upgrades it

# Rotation 0 of each shape lies flat side down, so it can go in without a gap.
_BASE_CELLS: dict[str, tuple[tuple[int, int], ...]] = {
    "I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "S": ((0, 0), (0, 1), (1, 1), (1, 2)),
    "L": ((0, 0), (0, 1), (1, 0), (2, 0)),
}

NO_SHAPE_LEFT = "no piece of that shape left"
NO_PIECE_LEFT = "no piece left"
NO_FIT = "no piece fits"
SKIP_REASONS = (NO_SHAPE_LEFT, NO_PIECE_LEFT, NO_FIT)
END_REASONS = ("resignations", "every piece played", "tower full", "no piece fits")

Cell = tuple[int, int]
Board = tuple[tuple[int | None, ...], ...]  # [row][column] -> piece id or None


# ---------------------------------------------------------------- views and moves
# What leaves the engine, as JSON-able dicts. A cell is `[row, column]`, row 0 at the
# bottom; a shape is a letter of `SHAPES`; a die face is a shape or `ANY` (the logo).


class PlaceMove(TypedDict):
    """Drop `shape`, mirrored if `flip` then turned `rotation` quarter turns clockwise, with
    its leftmost cell in `column` (0-based)."""

    type: Literal["place"]
    shape: str
    rotation: int
    flip: bool
    column: int


TetrisLinkMove = PlaceMove


class StartEvent(TypedDict):
    """The start: `rolls` are the starting rolls as `[seat, face]` in order (none without
    dice), until `seat` rolled the logo (without dice: `seat` was drawn to start)."""

    type: Literal["start"]
    seat: int
    rolls: list[list[int | str]]


class PlaceEvent(TypedDict):
    """`seat` placed `shape` on `cells`: `gained` points for linking a group of `group`
    pieces, less `gap_penalty` for the empty cells under it."""

    type: Literal["place"]
    seat: int
    shape: str
    cells: list[list[int]]
    gained: int
    gap_penalty: int
    group: int


class ResignEvent(TypedDict):
    """`seat` resigned."""

    type: Literal["resign"]
    seat: int


TetrisLinkEvent = StartEvent | PlaceEvent | ResignEvent


class SkipEvent(TypedDict):
    """`seat`'s turn was skipped: it rolled `die` (None without dice) and `reason` is one of
    `SKIP_REASONS`."""

    type: Literal["skip"]
    seat: int
    die: str | None
    reason: str


class EndEvent(TypedDict):
    """The game ended; `reason` is one of `END_REASONS`."""

    type: Literal["end"]
    seat: None
    reason: str


FollowUp = SkipEvent | EndEvent
"""What followed the last decision without anyone deciding."""


class LastMove(TypedDict):
    """The last placed piece (still outlined after a resignation)."""

    seat: int
    shape: str
    cells: list[list[int]]
    gained: int
    gap_penalty: int


class TetrisLinkView(CommonView[TetrisLinkEvent]):
    """The position as every seat and spectator sees it: keys on `TetrisLinkEngine.view`."""

    cells: list[list[list[int] | None]]
    die: str | None
    dice: bool
    pieces_left: list[dict[str, int]]
    last_move: LastMove | None
    events: list[FollowUp]
    largest_group: list[int]


@dataclass(frozen=True, slots=True)
class TetrisLinkState:
    """A whole match; `pieces[piece_id]` is (seat, shape, cells) of a placed piece."""

    players: int
    seed: int
    dice: bool
    rolls: int  # chance steps used so far
    board: Board
    pieces: tuple[tuple[int, str, tuple[Cell, ...]], ...]
    scored: tuple[bool, ...]  # by piece id
    left: tuple[tuple[int, ...], ...]  # by seat, counts in SHAPES order
    scores: tuple[int, ...]
    to_move: int | None  # None once the game is over
    die: str | None
    resigned: tuple[int, ...]
    last_move: tuple[int, str, tuple[Cell, ...], int, int] | None  # seat, shape, cells, +, -
    # What the last decision did: first ("start", rolls, seat), ("place", seat, shape,
    # cells, gained, penalty, group) or ("resign", seat); then any ("skip", seat, die,
    # reason) and ("end", reason). See `_event_json`.
    events: tuple[tuple[Any, ...], ...]


# ---------------------------------------------------------------- piece geometry


def _normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    low = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - low, c - left) for r, c in cells))


@lru_cache(maxsize=64)
def piece_cells(shape: str, rotation: int, flip: bool) -> tuple[Cell, ...]:
    """The cells of `shape`, mirrored if `flip`, then turned `rotation` quarter turns
    clockwise; normalised so the lowest row and leftmost column are 0."""
    if shape not in _BASE_CELLS:
        raise IllegalMove(
            "There is no shape {shape} — choose one of {shapes}.", shape=repr(shape), shapes=", ".join(SHAPES)
        )
    cells = [(r, -c) if flip else (r, c) for r, c in _BASE_CELLS[shape]]
    for _ in range(rotation % 4):
        # Clockwise with rows pointing up: (x, y) -> (y, -x), i.e. column <- row.
        cells = [(-c, r) for r, c in cells]
    return _normalise(cells)


@lru_cache(maxsize=8)
def orientations(shape: str) -> tuple[tuple[int, bool, tuple[Cell, ...]], ...]:
    """The distinct (rotation, flip, cells) of `shape`, first of each in move order."""
    seen: set[tuple[Cell, ...]] = set()
    found = []
    for rotation in range(4):
        for flip in (False, True):
            cells = piece_cells(shape, rotation, flip)
            if cells not in seen:
                seen.add(cells)
                found.append((rotation, flip, cells))
    return tuple(found)


def column_heights(cells: Sequence[Sequence[Any]]) -> tuple[int, ...]:
    """Per column, one more than its highest filled row (0 when empty)."""
    heights = [0] * COLUMNS
    for row_index, row in enumerate(cells):
        for column, entry in enumerate(row):
            if entry is not None:
                heights[column] = row_index + 1
    return tuple(heights)


def _land(heights: Sequence[int], shape_cells: tuple[Cell, ...], column: int) -> int | None:
    """The row the piece's bottom comes to rest on, or None if it cannot go in there."""
    width = 1 + max(c for _, c in shape_cells)
    if column < 0 or column + width > COLUMNS:
        return None
    # A straight drop stops at the first column whose top meets the piece's underside.
    base = max(heights[column + c] - r for r, c in shape_cells)
    top = base + max(r for r, _ in shape_cells)
    return base if top < ROWS else None


def drop(
    cells: Sequence[Sequence[Any]], shape: str, rotation: int, flip: bool, column: int
) -> tuple[Cell, ...] | None:
    """Where the piece lands when dropped with its leftmost cell in `column`.

    `cells` is a 20 × 10 grid, row 0 at the bottom, `None` for empty (a view's `cells`
    or the engine's board). Returns None if the piece sticks out of the tower.
    """
    shape_cells = piece_cells(shape, rotation, flip)
    base = _land(column_heights(cells), shape_cells, column)
    if base is None:
        return None
    return tuple(sorted((base + r, column + c) for r, c in shape_cells))


def _gap_cells(heights: Sequence[int], landed: tuple[Cell, ...]) -> int:
    """Empty cells between the piece's lowest cell in each column and what is below."""
    lowest: dict[int, int] = {}
    for r, c in landed:
        lowest[c] = min(r, lowest.get(c, r))
    return sum(r - heights[c] for c, r in lowest.items())


def _fits_anywhere(heights: Sequence[int], shape: str) -> bool:
    return any(
        _land(heights, cells, column) is not None
        for _, _, cells in orientations(shape)
        for column in range(COLUMNS)
    )


# ---------------------------------------------------------------- groups


def _groups(state: TetrisLinkState, seat: int) -> list[set[int]]:
    """The groups (sets of piece ids) of `seat`: pieces linked along cell sides."""
    parent = {pid: pid for pid, piece in enumerate(state.pieces) if piece[0] == seat}

    def root(pid: int) -> int:
        while parent[pid] != pid:
            parent[pid] = parent[parent[pid]]
            pid = parent[pid]
        return pid

    board = state.board
    for pid in parent:
        for r, c in state.pieces[pid][2]:
            for nr, nc in ((r + 1, c), (r, c + 1)):
                if nr < ROWS and nc < COLUMNS:
                    other = board[nr][nc]
                    if other is not None and other != pid and other in parent:
                        parent[root(other)] = root(pid)
    groups: dict[int, set[int]] = {}
    for pid in parent:
        groups.setdefault(root(pid), set()).add(pid)
    return list(groups.values())


def largest_groups(state: TetrisLinkState) -> tuple[int, ...]:
    """Per seat, the size in pieces of its largest group (0 with no piece placed)."""
    return tuple(max((len(g) for g in _groups(state, seat)), default=0) for seat in range(state.players))


# ---------------------------------------------------------------- turns


def _reason_to_skip(heights: Sequence[int], left: Sequence[int], face: str) -> str | None:
    """Why a seat with `left` pieces must pass on `face`, or None if it can place."""
    if face == ANY:
        shapes = [s for s, n in zip(SHAPES, left, strict=True) if n]
        if not shapes:
            return NO_PIECE_LEFT
    else:
        if not left[SHAPES.index(face)]:
            return NO_SHAPE_LEFT
        shapes = [face]
    return None if any(_fits_anywhere(heights, s) for s in shapes) else NO_FIT


def _active(state: TetrisLinkState) -> list[int]:
    return [seat for seat in range(state.players) if seat not in state.resigned]


def _end_reason(state: TetrisLinkState, heights: Sequence[int]) -> str | None:
    """Why the game is over at this point, or None if somebody can still place."""
    active = _active(state)
    if len(active) < 2:
        return "resignations"
    if not any(any(state.left[seat]) for seat in active):
        return "every piece played"
    if all(_reason_to_skip(heights, state.left[seat], ANY) for seat in active):
        return "tower full" if min(heights) == ROWS else "no piece fits"
    return None


def _roll(state: TetrisLinkState) -> tuple[str, TetrisLinkState]:
    face = chance(state.seed, state.rolls).choice(DIE_FACES)
    return face, replace(state, rolls=state.rolls + 1)


def _hand_turn(state: TetrisLinkState, seat: int, events: list[tuple[Any, ...]]) -> TetrisLinkState:
    """Give the turn to `seat` or the next seat that can place, skipping as the die says.

    Ends the game if nobody can place; so the loop below always finds a mover.
    """
    heights = column_heights(state.board)
    reason = _end_reason(state, heights)
    if reason is not None:
        events.append(("end", reason))
        return replace(state, to_move=None, die=None, events=tuple(events))
    while True:
        if seat not in state.resigned:
            face = ANY
            if state.dice:
                face, state = _roll(state)
            skip = _reason_to_skip(heights, state.left[seat], face)
            if skip is None:
                die = face if state.dice else None
                return replace(state, to_move=seat, die=die, events=tuple(events))
            events.append(("skip", seat, face if state.dice else None, skip))
        seat = (seat + 1) % state.players


def _starting_rolls(
    state: TetrisLinkState, seat: int
) -> tuple[int, TetrisLinkState, tuple[tuple[int, str], ...]]:
    """Seats roll in order from `seat` until one rolls the logo; that seat starts."""
    rolls = []
    while True:
        face, state = _roll(state)
        rolls.append((seat, face))
        if face == ANY:
            return seat, state, tuple(rolls)
        seat = (seat + 1) % state.players


# ---------------------------------------------------------------- the engine


class TetrisLinkEngine:
    """The Tetris Link engine; see the module docstring."""

    name = "tetris_link"
    title = "Tetris Link"
    min_players = 2
    max_players = 4

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> TetrisLinkState:
        check_players(self, players)
        options = dict(options or {})
        unknown = set(options) - {"dice"}
        if unknown:
            raise GameError("Tetris Link has no option {options}.", options=", ".join(sorted(unknown)))
        dice = options.get("dice", True)
        if not isinstance(dice, bool):
            raise GameError("The dice option is true or false.")
        state = TetrisLinkState(
            players=players,
            seed=seed,
            dice=dice,
            rolls=0,
            board=((None,) * COLUMNS,) * ROWS,
            pieces=(),
            scored=(),
            left=((PIECES_PER_SHAPE,) * len(SHAPES),) * players,
            scores=(0,) * players,
            to_move=None,
            die=None,
            resigned=(),
            last_move=None,
            events=(),
        )
        drawn = first_seat(seed, players)
        if not dice:
            return _hand_turn(state, drawn, [("start", (), drawn)])
        # The drawn seat begins the starting rolls; whoever rolls the logo starts and
        # then rolls for the first turn like everyone else.
        starter, state, rolls = _starting_rolls(state, drawn)
        return _hand_turn(state, starter, [("start", rolls, starter)])

    def current_seats(self, state: TetrisLinkState) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    def legal_moves(self, state: TetrisLinkState, seat: int) -> list[TetrisLinkMove]:
        if seat != state.to_move:
            return []
        heights = column_heights(state.board)
        moves: list[TetrisLinkMove] = []
        for shape in self._allowed_shapes(state):
            for rotation, flip, cells in orientations(shape):
                for column in range(COLUMNS):
                    if _land(heights, cells, column) is not None:
                        moves.append(
                            {
                                "type": "place",
                                "shape": shape,
                                "rotation": rotation,
                                "flip": flip,
                                "column": column,
                            }
                        )
        return moves

    def apply(self, state: TetrisLinkState, seat: int, move: TetrisLinkMove) -> TetrisLinkState:
        if state.to_move is None:
            raise IllegalMove("The game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        shape, rotation, flip, column = _parse_move(move)
        if shape not in self._allowed_shapes(state):
            if state.die not in (None, ANY) and shape != state.die:
                raise IllegalMove("You rolled {shape} — place a {shape} piece.", shape=state.die)
            raise IllegalMove("You have no {shape} pieces left — choose another shape.", shape=shape)
        landed = drop(state.board, shape, rotation, flip, column)
        if landed is None:
            raise IllegalMove(
                "That piece does not fit there — it would stick out of the tower. "
                "Choose another column or turn it."
            )
        state, events = _place(state, seat, shape, landed)
        return _hand_turn(state, (seat + 1) % state.players, events)

    def reveals(
        self, state: TetrisLinkState, seat: int, move: TetrisLinkMove, after: TetrisLinkState
    ) -> bool:
        """With the die, a placement rolls it for the next seat; without, nothing is hidden."""
        return after.rolls != state.rolls

    def resign(self, state: TetrisLinkState, seat: int) -> TetrisLinkState:
        if state.to_move is None:
            raise GameError("The game is already over.")
        if not 0 <= seat < state.players or seat in state.resigned:
            raise GameError("That seat is not playing any more.")
        state = replace(state, resigned=(*state.resigned, seat))
        events: list[tuple[Any, ...]] = [("resign", seat)]
        if seat != state.to_move:
            reason = _end_reason(state, column_heights(state.board))
            if reason is None:
                return replace(state, events=tuple(events))
            events.append(("end", reason))
            return replace(state, to_move=None, die=None, events=tuple(events))
        return _hand_turn(state, (seat + 1) % state.players, events)

    def timeout_move(self, state: TetrisLinkState, seat: int) -> TetrisLinkMove:
        """The placement of least consequence, for a seat whose time ran out.

        The rules force a placement (a turn is skipped only when nothing fits), so the
        absent player places a piece, chosen by, in order:
        1. the fewest points gained: never a placement that scores for them while one
           that does not score exists;
        2. the smallest gap penalty: where possible a placement that leaves their
           score as it was;
        3. the fewest cell sides touching placed pieces (any colour): it neither builds
           their groups nor blocks anyone else's;
        4. the lowest top row: it leaves the most room in the tower;
        5. the first in `legal_moves` order, so the choice is deterministic.
        With the logo or without dice the shape is chosen by the same order.
        """
        check_seat(self.current_seats(state), seat)
        heights = column_heights(state.board)
        groups = _groups(state, seat)
        group_of = {pid: index for index, group in enumerate(groups) for pid in group}
        unscored = [sum(not state.scored[pid] for pid in group) for group in groups]

        def consequence(indexed: tuple[int, TetrisLinkMove]) -> tuple[int, ...]:
            index, move = indexed
            shape_cells = piece_cells(move["shape"], move["rotation"], move["flip"])
            base = _land(heights, shape_cells, move["column"])
            assert base is not None  # a legal move fits
            landed = tuple((base + r, move["column"] + c) for r, c in shape_cells)
            touched: set[int] = set()
            contacts = 0
            for r, c in landed:
                for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= nr < ROWS and 0 <= nc < COLUMNS and (nr, nc) not in landed:
                        pid = state.board[nr][nc]
                        if pid is not None:
                            contacts += 1
                            if pid in group_of:
                                touched.add(group_of[pid])
            size = 1 + sum(len(groups[g]) for g in touched)
            gained = 1 + sum(unscored[g] for g in touched) if size >= 3 else 0
            penalty = min(2, _gap_cells(heights, landed))
            return gained, penalty, contacts, max(r for r, _ in landed), index

        _, move = min(enumerate(self.legal_moves(state, seat)), key=consequence)
        return move

    def view(self, state: TetrisLinkState, seat: int | None) -> TetrisLinkView:
        """The position (a `TetrisLinkView`); no hidden information but the rolls to come,
        so every seat and every spectator sees the same.

        Besides the common keys of `games.base` (`players`, `to_move`, `scores`,
        `last_event`, `winners`, `resigned`), cells as `[row, column]` with row 0 at the
        bottom:

        `cells`          20 × 10 list by [row][column]: `[seat, piece id]` of the piece on the
                         cell, or None when empty
        `die`            str or None: the face the seat to move rolled (a shape, or "any" for
                         the logo: a free choice); None without dice and once the game is over
        `dice`           bool: whether the shape die is rolled (the rulebook game)
        `pieces_left`    by seat, {shape: pieces still in hand}
        `last_move`      the last placed piece, {"seat", "shape", "cells", "gained",
                         "gap_penalty"}, still outlined after a resignation; None before one
        `events`         what followed `last_event` without anyone deciding: skipped turns
                         {"type": "skip", "seat", "die", "reason"} and the end
                         {"type": "end", "seat": None, "reason"}
        `largest_group`  by seat, the size in pieces of its largest group

        `last_event` is the last decision: {"type": "start", "seat", "rolls": [[seat, face],
        ...]} (no rolls without dice), {"type": "place", "seat", "shape", "cells", "gained",
        "gap_penalty", "group"} or {"type": "resign", "seat"}.
        """
        first, *rest = state.events
        view: CommonView[TetrisLinkEvent] = common_view(
            players=state.players,
            to_move=self.current_seats(state),
            scores=state.scores,
            last_event=_decision_json(first),
            outcome=self.outcome(state),
            resigned=state.resigned,
        )
        return {
            **view,
            "cells": [
                [None if pid is None else [state.pieces[pid][0], pid] for pid in row] for row in state.board
            ],
            "die": state.die,
            "dice": state.dice,
            "pieces_left": [dict(zip(SHAPES, counts, strict=True)) for counts in state.left],
            "last_move": _last_move_json(state.last_move),
            "events": [_follow_up_json(event) for event in rest],
            "largest_group": list(largest_groups(state)),
        }

    def outcome(self, state: TetrisLinkState) -> Outcome | None:
        if state.to_move is not None:
            return None
        largest = largest_groups(state)
        candidates = _active(state)
        best = max(state.scores[s] for s in candidates)
        winners = [s for s in candidates if state.scores[s] == best]
        tiebreak = None
        if len(winners) > 1:
            tiebreak = "largest group"
            biggest = max(largest[s] for s in winners)
            winners = [s for s in winners if largest[s] == biggest]
        return Outcome(
            scores=state.scores,
            winners=tuple(winners),
            draw=len(winners) > 1,
            tiebreak=tiebreak,
            details={"largest_group": list(largest), "resigned": sorted(state.resigned)},
        )

    def dump(self, state: TetrisLinkState) -> str:
        data = {f.name: getattr(state, f.name) for f in fields(state)}
        return json.dumps({"version": FORMAT_VERSION, **data}, separators=(",", ":"))

    def load(self, text: str) -> TetrisLinkState:
        return load_json(text, _build, self.title)

    @staticmethod
    def _allowed_shapes(state: TetrisLinkState) -> list[str]:
        left = state.left[state.to_move] if state.to_move is not None else ()
        choices = SHAPES if state.die in (None, ANY) else (state.die,)
        return [s for s in choices if left and left[SHAPES.index(s)]]


def _parse_move(move: Any) -> tuple[str, int, bool, int]:
    """Check a move's form and return (shape, rotation, flip, column)."""
    if not isinstance(move, Mapping) or move.get("type") != "place":
        raise IllegalMove("A Tetris Link move places a piece — choose a shape and a column.")
    shape, rotation = move.get("shape"), move.get("rotation", 0)
    flip, column = move.get("flip", False), move.get("column")
    if shape not in SHAPES:
        raise IllegalMove("Choose a shape: one of {shapes}.", shapes=", ".join(SHAPES))
    if type(rotation) is not int or not 0 <= rotation <= 3:
        raise IllegalMove("Turn the piece 0 to 3 quarter turns.")
    if not isinstance(flip, bool):
        raise IllegalMove("Say whether the piece is turned over (true or false).")
    if type(column) is not int or not 0 <= column < COLUMNS:
        raise IllegalMove("Choose a column from 1 to {columns}.", columns=COLUMNS)
    return shape, rotation, flip, column


def _place(
    state: TetrisLinkState, seat: int, shape: str, landed: tuple[Cell, ...]
) -> tuple[TetrisLinkState, list[tuple[Any, ...]]]:
    """Put the piece in, score it, and return the new state with its events."""
    penalty = min(2, _gap_cells(column_heights(state.board), landed))
    pid = len(state.pieces)
    rows = [list(row) for row in state.board]
    for r, c in landed:
        rows[r][c] = pid
    left = list(state.left)
    counts = list(left[seat])
    counts[SHAPES.index(shape)] -= 1
    left[seat] = tuple(counts)
    state = replace(
        state,
        board=tuple(tuple(row) for row in rows),
        pieces=(*state.pieces, (seat, shape, landed)),
        scored=(*state.scored, False),
        left=tuple(left),
    )
    group = next(g for g in _groups(state, seat) if pid in g)
    scored = list(state.scored)
    gained = 0
    if len(group) >= 3:
        gained = sum(not scored[p] for p in group)
        for p in group:
            scored[p] = True
    scores = list(state.scores)
    scores[seat] += gained - penalty
    events: list[tuple[Any, ...]] = [("place", seat, shape, landed, gained, penalty, len(group))]
    state = replace(
        state,
        scored=tuple(scored),
        scores=tuple(scores),
        last_move=(seat, shape, landed, gained, penalty),
    )
    return state, events


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _last_move_json(last: tuple[int, str, tuple[Cell, ...], int, int] | None) -> LastMove | None:
    if last is None:
        return None
    seat, shape, cells, gained, penalty = last
    return {
        "seat": seat,
        "shape": shape,
        "cells": [list(cell) for cell in cells],
        "gained": gained,
        "gap_penalty": penalty,
    }


def _decision_json(event: tuple[Any, ...]) -> TetrisLinkEvent:
    """The first of the state's events (the last decision) as the view shows it."""
    kind = event[0]
    if kind == "start":
        return {"type": "start", "seat": event[2], "rolls": [list(r) for r in event[1]]}
    if kind == "place":
        _, seat, shape, cells, gained, penalty, group = event
        return {
            "type": "place",
            "seat": seat,
            "shape": shape,
            "cells": [list(cell) for cell in cells],
            "gained": gained,
            "gap_penalty": penalty,
            "group": group,
        }
    return {"type": "resign", "seat": event[1]}


def _follow_up_json(event: tuple[Any, ...]) -> FollowUp:
    """A skip or the end, as the view shows it."""
    if event[0] == "skip":
        return {"type": "skip", "seat": event[1], "die": event[2], "reason": event[3]}
    return {"type": "end", "seat": None, "reason": event[1]}


# ---------------------------------------------------------------- loading


def _require(condition: bool) -> None:
    """Refuse a saved game that contradicts itself or the rules."""
    if not condition:
        raise GameError("This saved Tetris Link game is damaged.")


def _is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """An int (not a bool) in `low..high-1` where given."""
    return type(value) is int and (low is None or value >= low) and (high is None or value < high)


def _is_cells(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 4
        and all(
            isinstance(cell, tuple)
            and len(cell) == 2
            and _is_int(cell[0], 0, ROWS)
            and _is_int(cell[1], 0, COLUMNS)
            for cell in value
        )
    )


def _build(data: Any) -> TetrisLinkState:
    """A state from parsed JSON, checked so that a damaged save fails here, not later."""
    if not isinstance(data, dict):
        raise GameError("This is not a saved Tetris Link game.")
    version = data.pop("version", None)
    if version not in (1, FORMAT_VERSION):
        raise GameError("This saved Tetris Link game is from an unknown version.")
    names = [f.name for f in fields(TetrisLinkState)]
    _require(sorted(data) == sorted(names))
    # JSON turns every tuple into a list; the state holds tuples only.
    values = {name: _tuples(data[name]) for name in names}
    if version == 1:
        values["events"] = _upgraded_events(values)
    state = TetrisLinkState(**values)
    _check(state)
    if version == 1 and state.events[0][0] == "place":
        state = replace(state, events=(_place_event(state), *state.events[1:]))
    return state


def _upgraded_events(values: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    """Version 1 had no placement event (only a "score" one when points changed) and
    no start event without dice: make the first event say what the last decision did."""
    events = values["events"]
    _require(isinstance(events, tuple) and all(isinstance(e, tuple) and e for e in events))
    rest = tuple(e for e in events if e[0] != "score")
    if rest and rest[0][0] in ("start", "resign"):
        return rest
    last = values["last_move"]
    if last is None:
        return (("start", (), values["to_move"]), *rest)
    # The group size (1 here) is counted once the state is checked: `_place_event`.
    return (("place", *last, 1), *rest)


def _place_event(state: TetrisLinkState) -> tuple[Any, ...]:
    """The placement event of `state.last_move` (for saves of version 1)."""
    assert state.last_move is not None
    seat, shape, cells, gained, penalty = state.last_move
    pid = state.board[cells[0][0]][cells[0][1]]
    group = next(g for g in _groups(state, seat) if pid in g)
    return ("place", seat, shape, cells, gained, penalty, len(group))


def _check(state: TetrisLinkState) -> None:
    players = state.players
    _require(_is_int(players, 2, 5) and _is_int(state.seed) and isinstance(state.dice, bool))
    _require(_is_int(state.rolls, 0))
    pieces = state.pieces
    _require(isinstance(pieces, tuple))
    for piece in pieces:
        _require(isinstance(piece, tuple) and len(piece) == 3)
        _require(_is_int(piece[0], 0, players) and piece[1] in SHAPES and _is_cells(piece[2]))
    board = state.board
    _require(isinstance(board, tuple) and len(board) == ROWS)
    _require(all(isinstance(row, tuple) and len(row) == COLUMNS for row in board))
    _require(all(pid is None or _is_int(pid, 0, len(pieces)) for row in board for pid in row))
    _require(all(board[r][c] == pid for pid, piece in enumerate(pieces) for r, c in piece[2]))
    _require(sum(pid is not None for row in board for pid in row) == 4 * len(pieces))
    _require(isinstance(state.scored, tuple) and len(state.scored) == len(pieces))
    _require(all(isinstance(flag, bool) for flag in state.scored))
    _require(isinstance(state.left, tuple) and len(state.left) == players)
    for seat, counts in enumerate(state.left):
        _require(isinstance(counts, tuple) and len(counts) == len(SHAPES))
        for shape, count in zip(SHAPES, counts, strict=True):
            placed = sum(piece[0] == seat and piece[1] == shape for piece in pieces)
            _require(_is_int(count, 0) and count + placed == PIECES_PER_SHAPE)
    _require(isinstance(state.scores, tuple) and len(state.scores) == players)
    _require(all(_is_int(score) for score in state.scores))
    resigned = state.resigned
    _require(isinstance(resigned, tuple) and len(set(resigned)) == len(resigned))
    _require(all(_is_int(seat, 0, players) for seat in resigned))
    _require(state.to_move is None or (_is_int(state.to_move, 0, players) and state.to_move not in resigned))
    if state.to_move is None or not state.dice:
        _require(state.die is None)
    else:
        _require(state.die in DIE_FACES)
    last = state.last_move
    if last is not None:
        _require(isinstance(last, tuple) and len(last) == 5)
        _require(_is_int(last[0], 0, players) and last[1] in SHAPES and _is_cells(last[2]))
        _require(_is_int(last[3], 0) and _is_int(last[4], 0, 3) and last[:3] in pieces)
    _check_events(state.events, players)


def _check_events(events: Any, players: int) -> None:
    _require(isinstance(events, tuple) and bool(events))
    for index, event in enumerate(events):
        _require(isinstance(event, tuple) and bool(event))
        kind = event[0]
        _require((kind in ("start", "place", "resign")) == (index == 0))
        if kind == "start":
            _require(len(event) == 3 and _is_int(event[2], 0, players) and isinstance(event[1], tuple))
            for roll in event[1]:
                _require(isinstance(roll, tuple) and len(roll) == 2)
                _require(_is_int(roll[0], 0, players) and roll[1] in DIE_FACES)
        elif kind == "place":
            _require(len(event) == 7 and _is_int(event[1], 0, players))
            _require(event[2] in SHAPES and _is_cells(event[3]))
            _require(_is_int(event[4], 0) and _is_int(event[5], 0, 3) and _is_int(event[6], 1))
        elif kind == "skip":
            _require(len(event) == 4 and _is_int(event[1], 0, players))
            _require((event[2] is None or event[2] in DIE_FACES) and event[3] in SKIP_REASONS)
        elif kind == "resign":
            _require(len(event) == 2 and _is_int(event[1], 0, players))
        else:
            _require(kind == "end" and len(event) == 2 and event[1] in END_REASONS)


ENGINE: Engine[TetrisLinkState, TetrisLinkView, TetrisLinkMove] = TetrisLinkEngine()
