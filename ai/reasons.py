"""Why a move is good, from the deciding seat's own views: what a hint says besides the move.

A game's `explain(views, move)` returns a `Reason`: a key naming the kind of reason and the
numbers that fill it (the cogs word it in each language, counts through ngettext). Like the
computer players it reads only the seat's views, oldest first, the newest being the position
the move is made in. Standard library only (and the games' and players' pure helpers).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai import tetris_link as tetris_ai
from ai import tremember as tremember_ai
from ai import triominos as triominos_ai
from games.rookie import RookieMove, RookieView
from games.sequence_numbers import SequenceMove, SequenceView
from games.tetris_link import TetrisLinkMove, TetrisLinkView
from games.tremember import SIZE as TREMEMBER_SIZE
from games.tremember import TrememberMove, TrememberView
from games.triominos import TriominosMove, TriominosView


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move: `key` names the reason ("group", "pair_seen"…), `values` fill its words."""

    key: str
    values: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- Tetris Link


def tetris_link(views: Sequence[TetrisLinkView], move: TetrisLinkMove) -> Reason:
    """Points and the group they come from; else what the piece does for later groups."""
    view = views[-1]
    seat = view["to_move"][0]
    board = tetris_ai.read_board(view)
    placement = tetris_ai.place(board, seat, move)
    if placement is None:
        return Reason("low")
    if placement.gained:
        tetris_ai.put(board, seat, placement)
        group = next(g for g in board.groups[seat] if g & placement.mask)
        return Reason("group", {"size": group.bit_count() // 4, "n": placement.gained})
    if placement.penalty:
        return Reason("fewest_gaps", {"n": placement.holes})
    if placement.own_contacts:
        return Reason("joins")
    return Reason("blocks") if placement.block_contacts else Reason("low")


# ---------------------------------------------------------------- My First Triominos


def triominos(views: Sequence[TriominosView], move: TriominosMove) -> Reason:
    """The tokens a placement earns (a bonus, the last card), or why not to place."""
    if move["type"] != "place":
        return Reason({"take_joker": "joker"}.get(move["type"], move["type"]))
    knowledge = triominos_ai.read(views)
    option = next(o for o in triominos_ai.options(views[-1], [move]))
    assert option.cell is not None
    bonuses = knowledge.board.bonuses(option.cell)
    last = len(knowledge.hand) == 1
    earned = 1 + bonuses + int(last)
    return Reason("last_card" if last else "bonus" if bonuses else "tokens", {"n": earned})


# ---------------------------------------------------------------- Tremember


def tremember(views: Sequence[TrememberView], move: TrememberMove) -> Reason:
    """What the seat remembers of the card to take or turn (and when it saw it)."""
    if move["type"] == "push":
        return Reason("push")
    table = tremember_ai.read_table(views, "normal", random.Random(0))  # normal forgets nothing
    cell = move["cell"][0] * TREMEMBER_SIZE + move["cell"][1]
    motif = table.known.get(cell)
    if move["type"] == "take":
        return _seen(table, cell) if motif is not None else Reason("take_unseen")
    wanted = table.first_motif if table.first is not None else motif
    pair = [other for other, known in table.known.items() if known == wanted and other != cell]
    if table.first is not None and motif == wanted and motif is not None:
        return Reason("pair_seen", {"n": max(table.memory.seen[cell], 0)})
    if table.first is None and motif is not None and pair:
        return Reason("pair_seen", {"n": max(table.memory.seen[pair[0]], 0)})
    return _seen(table, cell) if motif is not None else Reason("unseen")


def _seen(table: tremember_ai.Table, cell: int) -> Reason:
    return Reason("card_seen", {"n": max(table.memory.seen[cell], 0)})


# ---------------------------------------------------------------- Rookie


def rookie(views: Sequence[RookieView], move: RookieMove) -> Reason:
    """What placing the pair secures, what a steal takes; the other steps by their kind."""
    pending = views[-1]["pending"]
    if move["type"] == "place" and pending is not None and pending["kind"] == "place":
        choice = next(
            (c for c in pending["choices"] if c["seat"] == move["seat"] and c["stacks"] == move["stacks"]),
            None,
        )
        if choice is not None and choice["rookie"]:
            return Reason("rookie")
        return Reason("secure" if choice is not None and choice["secures"] else "pair")
    if move["type"] == "steal" and pending is not None and pending["kind"] == "steal":
        cards = next((c["cards"] for c in pending["choices"] if c["from"] == move["from"]), 0)
        return Reason("steal", {"n": cards})
    return Reason(move["type"] if move["type"] in ("flip", "turn_down", "arrange") else "arrange")


# ---------------------------------------------------------------- Sequence Numbers

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def sequence_numbers(views: Sequence[SequenceView], move: SequenceMove) -> Reason:
    """What a chip does to the lines through its cell: a sequence, a longer line, a block."""
    view = views[-1]
    if move["type"] != "play":
        return Reason(move["type"])
    team = next(t for t, seats in enumerate(view["teams"]) if view["seat"] in seats)
    cell = (move["row"], move["col"])
    chip = view["board"][cell[0]][cell[1]]["chip"]
    if chip is not None:  # a minus card takes another team's chip away
        return Reason("remove", {"n": _line(view, cell, chip)})
    own = _line(view, cell, team)
    if own >= SEQUENCE:
        return Reason("sequence")
    others = max((_line(view, cell, t) for t in range(len(view["teams"])) if t != team), default=0)
    if others >= BLOCKING and others > own:
        return Reason("block", {"n": others - 1})
    return Reason("line", {"n": own}) if own > 1 else Reason("room")


SEQUENCE = 5  # chips in a row that make a sequence
BLOCKING = 4  # a line another team would have with a chip here (three of theirs) is worth blocking


def _line(view: SequenceView, cell: tuple[int, int], team: int) -> int:
    """The longest line of `team` through `cell` with a chip of theirs on it (free corners
    count for everyone)."""
    board = view["board"]
    size = len(board)

    def mine(row: int, col: int) -> bool:
        if not (0 <= row < size and 0 <= col < size):
            return False
        square = board[row][col]
        return square["number"] is None or square["chip"] == team

    longest = 1
    for dr, dc in DIRECTIONS:
        length = 1
        for sign in (1, -1):
            row, col = cell[0] + sign * dr, cell[1] + sign * dc
            while mine(row, col):
                length += 1
                row, col = row + sign * dr, col + sign * dc
        longest = max(longest, length)
    return longest
