"""Sequence Numbers: solve a card's sum, claim the answer on the board, make five in a row.

Rules: `rules/sequence_numbers.md`. The board and the deck are fixed data in
`data/sequence_numbers/`. Moves (hand indices are 0-based, cells are 0-based
row/column as in `view()["board"]`; every text a player reads says card 1, cell A3):

- `{"type": "trade", "card": i}`: trade the dead card `i` for a new one (once a turn);
- `{"type": "play", "card": i, "row": r, "col": c}`: a problem or plus card puts a
  chip on the empty cell (r, c); a minus card removes the opponent chip there;
- `{"type": "lock", "from": "A3", "to": "E3"}`: when a chip made six or more in a row
  and more than one set of five could lock, the mover's follow-up decision of the same
  turn: which five lock (the view lists them as `lock_choices`). The draw and the next
  turn come after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict, TypeGuard, TypeVar

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

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "sequence_numbers"
SIZE = 10
COLUMNS = "ABCDEFGHIJ"
CORNERS = frozenset({0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1})
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
RUN = 5
Action = Literal["trade", "place", "remove", "lock", "resign"]
ACTIONS: tuple[Action, ...] = ("trade", "place", "remove", "lock", "resign")
CardKind = Literal["problem", "plus", "minus"]

Run = tuple[int, ...]  # the five cells of a sequence, in board order
T = TypeVar("T")


# --- what comes out (views) and goes in (moves) ----------------------------------------------


class SequenceCard(TypedDict):
    """A card as views show it: a problem has its `text` ("7 + 5") and `answer`."""

    kind: CardKind
    text: NotRequired[str]
    answer: NotRequired[int]


class SequenceEvent(TypedDict):
    """The last event: `type` and `seat`; a trade names its `card`; a chip placed, removed
    or locked adds `card`, its cell (`row`, `col`, `cell` named "C4") and `team` (the chip's
    team; None when a removal finds none), and a chip placed or locked the runs it `locked`."""

    type: Literal["start", "trade", "place", "remove", "lock", "resign"]
    seat: int | None
    card: NotRequired[SequenceCard]
    row: NotRequired[int]
    col: NotRequired[int]
    cell: NotRequired[str]
    team: NotRequired[int | None]
    locked: NotRequired[list[list[str]]]


class SequenceSquare(TypedDict):
    """A cell of the board: its `number` (None: a free corner), the team of its `chip`, and
    whether that chip is `locked` in a sequence."""

    number: int | None
    chip: int | None
    locked: bool


class SequenceView(CommonView[SequenceEvent]):
    """What a seat or a spectator sees; see `SequenceNumbers.view`."""

    board: list[list[SequenceSquare]]
    teams: list[list[int]]
    sequences: list[int]
    sequence_cells: list[list[list[list[int]]]]
    sequences_to_win: int
    lock_choices: list[list[str]]
    hand: list[SequenceCard]
    dead_cards: list[int]
    seat: int | None
    hand_sizes: list[int]
    deck_size: int
    discards: list[list[SequenceCard]]
    traded: bool
    skipped: list[int]


class TradeMove(TypedDict):
    """Trade the dead card at hand index `card` for a new one (once a turn)."""

    type: Literal["trade"]
    card: int


class PlayMove(TypedDict):
    """Play the card at hand index `card` on the cell at `row`, `col` (0-based)."""

    type: Literal["play"]
    card: int
    row: int
    col: int


# Lock the five chips of the run from cell `from` to cell `to` ("A3", "E3").
LockMove = TypedDict("LockMove", {"type": Literal["lock"], "from": str, "to": str})

SequenceMove = TradeMove | PlayMove | LockMove


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck: a problem with its answer, or a plus or minus card."""

    kind: CardKind
    text: str = ""
    answer: int = 0

    def public(self) -> SequenceCard:
        """The card as the view shows it."""
        if self.kind == "problem":
            return {"kind": "problem", "text": self.text, "answer": self.answer}
        return {"kind": self.kind}


def _load_board() -> tuple[int | None, ...]:
    rows = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))["rows"]
    return tuple(number for row in rows for number in row)


def _load_cards() -> tuple[Card, ...]:
    cards = json.loads((DATA_DIR / "deck.json").read_text(encoding="utf-8"))["cards"]
    return tuple(Card(**card) for card in cards)


BOARD: tuple[int | None, ...] = _load_board()  # cell index (row * 10 + col) -> number
CARDS: tuple[Card, ...] = _load_cards()  # card id -> card
CELLS_OF: dict[int, tuple[int, ...]] = {
    number: tuple(cell for cell, n in enumerate(BOARD) if n == number) for number in range(1, 49)
}


def cell_name(cell: int) -> str:
    """`C4` for row index 3, column index 2."""
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


def named_cell(name: str) -> int:
    """The cell a name such as `C4` names (the inverse of `cell_name`)."""
    return (int(name[1:]) - 1) * SIZE + COLUMNS.index(name[0])


def run_name(run: Run) -> str:
    """`A3–E3`: a run by its first and last cell in board order."""
    return f"{cell_name(run[0])}–{cell_name(run[-1])}"


@dataclass(frozen=True, slots=True)
class SequenceState:
    """A whole match. Cells are `row * 10 + col`; cards are ids into `CARDS`."""

    players: int
    seed: int
    step: int  # chance events used so far
    team_count: int
    first: int  # the seat drawn by lot to start
    chips: tuple[int | None, ...]  # team per cell
    sequences: tuple[tuple[Run, ...], ...]  # per team: the 5 cells of each
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # drawn from the front
    discards: tuple[tuple[int, ...], ...]  # per seat, top card last
    turn: int
    traded: bool  # the seat to move has used this turn's dead-card trade
    resigned: tuple[bool, ...]
    skipped: tuple[int, ...]  # seats skipped since the last move, in order
    last: tuple[Action, int, int, int, int | None] | None  # action, seat, card, cell, team; None: start
    locked_now: tuple[Run, ...] = ()  # the runs the last move locked
    choices: tuple[Run, ...] = ()  # the runs the mover chooses one of to lock, before the draw
    pending: tuple[int, int] | None = None  # card and cell of the chip awaiting that choice
    winner: int | None = None  # team
    draw: bool = False
    reason: str | None = None  # why the game ended


def team_of(state: SequenceState, seat: int) -> int:
    """Team members sit alternately, so seat s plays for team s mod the team count."""
    return seat % state.team_count


def teams(state: SequenceState) -> tuple[tuple[int, ...], ...]:
    """The seats of each team."""
    return tuple(tuple(range(team, state.players, state.team_count)) for team in range(state.team_count))


def locked_cells(state: SequenceState) -> frozenset[int]:
    """Cells whose chip belongs to a completed sequence."""
    return frozenset(cell for team in state.sequences for seq in team for cell in seq)


def sequences_to_win(players: int) -> int:
    """One sequence with 2–3 players, two with 4–6."""
    return 1 if players <= 3 else 2


def _natural_teams(players: int) -> int:
    return {2: 2, 3: 3, 4: 2, 6: 2}[players]


def _team_count(players: int, options: Mapping[str, Any]) -> int:
    unknown = set(options) - {"teams"}
    if unknown:
        raise GameError("Sequence Numbers has no option {options}.", options=", ".join(sorted(unknown)))
    if players == 5:
        raise GameError(
            "Sequence Numbers cannot be played by 5: teams must be of equal size — play with 2, 3, 4 or 6."
        )
    natural = _natural_teams(players)
    wanted = options.get("teams", natural)
    allowed = (2, 3) if players == 6 else (natural,)
    if isinstance(wanted, bool) or wanted not in allowed:
        if len(allowed) == 1:
            raise GameError(
                "With {players} players the number of teams must be {teams}.", players=players, teams=natural
            )
        raise GameError(
            "With {players} players the number of teams must be {one} or {other}.",
            players=players,
            one=allowed[0],
            other=allowed[-1],
        )
    return int(wanted)


def _dead(state: SequenceState, card: int) -> bool:
    """A problem card whose two answer cells are both taken."""
    c = CARDS[card]
    return c.kind == "problem" and all(state.chips[x] is not None for x in CELLS_OF[c.answer])


def _targets(state: SequenceState, seat: int, card: int) -> list[int]:
    """The cells the card may be played on, in board order."""
    c = CARDS[card]
    if c.kind == "problem":
        return [x for x in CELLS_OF[c.answer] if state.chips[x] is None]
    if c.kind == "plus":
        return [x for x in range(SIZE * SIZE) if x not in CORNERS and state.chips[x] is None]
    locked = locked_cells(state)
    own = team_of(state, seat)
    return [x for x, chip in enumerate(state.chips) if chip is not None and chip != own and x not in locked]


def _can_play(state: SequenceState, seat: int) -> bool:
    return any(_targets(state, seat, card) for card in state.hands[seat])


def _can_act(state: SequenceState, seat: int) -> bool:
    """Whether the seat has a playable card or a dead card to trade now."""
    if _can_play(state, seat):
        return True
    return not state.traded and any(_dead(state, card) for card in state.hands[seat])


def _windows(cell: int, direction: tuple[int, int]) -> Iterator[Run]:
    """Every run of five cells along `direction` that contains `cell`: first the run
    starting at `cell`, last the run ending there."""
    row, col = divmod(cell, SIZE)
    dr, dc = direction
    for back in range(RUN):
        start_r, start_c = row - back * dr, col - back * dc
        cells = [(start_r + k * dr, start_c + k * dc) for k in range(RUN)]
        if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
            yield tuple(r * SIZE + c for r, c in cells)


def _fitting_runs(state: SequenceState, cell: int, team: int) -> list[list[Run]]:
    """Per direction (those with any), the runs through the chip on `cell` that could lock:
    five of the team's chips (free corners count) sharing at most one chip with each of
    the team's sequences."""
    existing = state.sequences[team]

    def ours(x: int) -> bool:
        return x in CORNERS or state.chips[x] == team

    def fits(run: Run) -> bool:
        return all(ours(x) for x in run) and all(len(set(run) & set(other)) <= 1 for other in existing)

    found = [[run for run in _windows(cell, direction) if fits(run)] for direction in DIRECTIONS]
    return [runs for runs in found if runs]


def _most_in_line(runs: list[Run]) -> list[Run]:
    """The most runs of one line through a chip that can lock together: all of them share
    that chip, so only the run starting there and the run ending there (a line of nine)."""
    first, last = runs[0], runs[-1]
    return [first, last] if len(set(first) & set(last)) == 1 else [first]


def _lock_plan(state: SequenceState, cell: int, team: int) -> tuple[list[Run], tuple[Run, ...]]:
    """What the chip just put on `cell` locks: (runs locked now, runs to choose from).

    Runs in different directions share only `cell`, so each direction is decided on its
    own. The mover chooses when one line offers several sets of five that cannot both
    lock; where the most the move can lock wins the game, the choice is moot and the
    engine locks that. (Two directions, or a line of nine, make two sequences: that wins
    with every seat count, so a choice is only ever within one line.)
    """
    lines = _fitting_runs(state, cell, team)
    most = [run for runs in lines for run in _most_in_line(runs)]
    wins = len(state.sequences[team]) + len(most) >= sequences_to_win(state.players)
    if wins or len(lines) != 1 or len(lines[0]) == 1:
        return most, ()
    return [], tuple(sorted(lines[0]))


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _draw(state: SequenceState, seat: int) -> SequenceState:
    """The seat draws one card; an empty deck is first rebuilt from every discard pile."""
    deck, discards, step = state.deck, state.discards, state.step
    if not deck:
        pile = [card for seat_pile in discards for card in seat_pile]
        chance(state.seed, step).shuffle(pile)
        deck, discards, step = tuple(pile), tuple(() for _ in discards), step + 1
    if not deck:  # cannot happen with 100 cards and at most 30 in hands; be safe anyway
        return replace(state, deck=deck, discards=discards, step=step)
    hands = _with(state.hands, seat, state.hands[seat] + deck[:1])
    return replace(state, deck=deck[1:], discards=discards, step=step, hands=hands)


def _discard(state: SequenceState, seat: int, index: int) -> SequenceState:
    card = state.hands[seat][index]
    hand = state.hands[seat][:index] + state.hands[seat][index + 1 :]
    return replace(
        state,
        hands=_with(state.hands, seat, hand),
        discards=_with(state.discards, seat, state.discards[seat] + (card,)),
    )


def _active_teams(state: SequenceState) -> set[int]:
    return {team_of(state, s) for s in range(state.players) if not state.resigned[s]}


def _advance(state: SequenceState) -> SequenceState:
    """Pass the turn on, skipping resigned seats and seats that cannot act.

    Skipping changes nothing, so once every active seat is skipped in a row the game
    can never move again: that is the draw of the rules.
    """
    active = sum(not r for r in state.resigned)
    seat, skipped = state.turn, list[int]()
    state = replace(state, traded=False)
    while True:
        seat = (seat + 1) % state.players
        if state.resigned[seat]:
            continue
        if _can_act(state, seat):
            return replace(state, turn=seat, skipped=tuple(skipped))
        skipped.append(seat)
        if len(skipped) >= active:
            return replace(state, turn=seat, skipped=tuple(skipped), draw=True, reason="stuck")


def _over(state: SequenceState) -> bool:
    return state.winner is not None or state.draw


class SequenceNumbers:
    """The engine. Views are `SequenceView`s (every key, its type and meaning, and what only
    the seat sees: `view`); moves are `SequenceMove`s (see the module docstring)."""

    name = "sequence_numbers"
    title = "Sequence Numbers"
    min_players = 2
    max_players = 6

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> SequenceState:
        """Shuffle, deal 5 cards each (4 with four or more players); the seat drawn by lot
        begins and play goes on in seat order (teams stay as seated)."""
        check_players(self, players)
        team_count = _team_count(players, options or {})
        deck = list(range(len(CARDS)))
        chance(seed, 0).shuffle(deck)
        size = 5 if players <= 3 else 4
        hands = tuple(tuple(deck[seat::players][:size]) for seat in range(players))
        start = first_seat(seed, players)
        state = SequenceState(
            players=players,
            seed=seed,
            step=1,
            team_count=team_count,
            first=start,
            chips=(None,) * (SIZE * SIZE),
            sequences=((),) * team_count,
            hands=hands,
            deck=tuple(deck[players * size :]),
            discards=((),) * players,
            turn=start,
            traded=False,
            resigned=(False,) * players,
            skipped=(),
            last=None,
        )
        if _can_act(state, start):
            return state
        return _advance(replace(state, turn=(start - 1) % players))

    def current_seats(self, state: SequenceState) -> tuple[int, ...]:
        return () if _over(state) else (state.turn,)

    def legal_moves(self, state: SequenceState, seat: int) -> list[SequenceMove]:
        if seat not in self.current_seats(state):
            return []
        if state.choices:
            return [self._lock_move(run) for run in state.choices]
        hand = state.hands[seat]
        moves: list[SequenceMove] = []
        if not state.traded:
            moves += [{"type": "trade", "card": i} for i, c in enumerate(hand) if _dead(state, c)]
        for i, card in enumerate(hand):
            for cell in _targets(state, seat, card):
                row, col = divmod(cell, SIZE)
                moves.append({"type": "play", "card": i, "row": row, "col": col})
        return moves

    @staticmethod
    def _lock_move(run: Run) -> LockMove:
        return {"type": "lock", "from": cell_name(run[0]), "to": cell_name(run[-1])}

    def timeout_move(self, state: SequenceState, seat: int) -> SequenceMove:
        """The move for a seat whose time ran out: the least an absent player can do.

        In order of preference, the first legal move (hand order, then board order) of:
        1. a problem card whose chip completes no sequence — the card would be played
           anyway, and the chip scores nothing;
        2. the trade of a dead card — it touches no chip; the clock then asks again;
        3. a plus card whose chip completes no sequence — a plus is worth keeping, so it
           comes after the problem cards;
        4. a chip that completes a sequence, only when no card can avoid it;
        5. a minus card, only when nothing else is legal: it would undo another team's
           work on the absent player's behalf.
        A pending lock choice takes the first run in board order: the chips are on the
        board either way, and the engine makes no judgement for the absent player.
        """
        check_seat(self.current_seats(state), seat)
        moves = self.legal_moves(state, seat)
        if state.choices:
            return moves[0]
        team = team_of(state, seat)

        def rank(move: SequenceMove) -> int:
            if move["type"] != "play":  # a trade: lock moves were answered above
                return 2
            kind = CARDS[state.hands[seat][move["card"]]].kind
            if kind == "minus":
                return 5
            cell = move["row"] * SIZE + move["col"]
            placed = replace(state, chips=_with(state.chips, cell, team))
            if _fitting_runs(placed, cell, team):
                return 4
            return 1 if kind == "problem" else 3

        return min(moves, key=rank)

    def apply(self, state: SequenceState, seat: int, move: SequenceMove) -> SequenceState:
        """`move` as sent: checked key by key, whatever it holds."""
        if _over(state):
            raise IllegalMove("This game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        sent: object = move
        if not isinstance(sent, Mapping):
            raise IllegalMove("A move must say what to do — pick one from the buttons.")
        if state.choices:
            return self._lock(state, seat, self._chosen_run(state, sent))
        if sent.get("type") == "trade":
            return self._trade(state, seat, self._card_index(state, seat, sent))
        if sent.get("type") == "play":
            index = self._card_index(state, seat, sent)
            return self._play(state, seat, index, self._cell(sent))
        if sent.get("type") == "lock":
            raise IllegalMove("There is nothing to lock now — play a card.")
        raise IllegalMove("Choose a card to play, or trade a dead card.")

    @staticmethod
    def _card_index(state: SequenceState, seat: int, move: Mapping[str, object]) -> int:
        index, size = move.get("card"), len(state.hands[seat])
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < size:
            raise IllegalMove("Pick a card from your hand, 1 to {size}.", size=size)
        return index

    @staticmethod
    def _cell(move: Mapping[str, object]) -> int:
        row, col = move.get("row"), move.get("col")
        if _is_int(row, 0, SIZE) and _is_int(col, 0, SIZE):
            return row * SIZE + col
        raise IllegalMove("Pick a cell on the board: columns A–J, rows 1–10.")

    @staticmethod
    def _chosen_run(state: SequenceState, move: Mapping[str, object]) -> Run:
        if move.get("type") == "lock":
            for run in state.choices:
                if (move.get("from"), move.get("to")) == (cell_name(run[0]), cell_name(run[-1])):
                    return run
        runs = tuple(run_name(run) for run in state.choices)
        raise IllegalMove("First choose which five chips to lock: {runs}.", runs=runs)

    def _trade(self, state: SequenceState, seat: int, index: int) -> SequenceState:
        card = state.hands[seat][index]
        if state.traded:
            raise IllegalMove("You have already traded a dead card this turn — play a card.")
        if not _dead(state, card):
            raise IllegalMove("Only a dead card (both of its cells taken) can be traded — play this one.")
        state = _draw(_discard(state, seat, index), seat)
        state = replace(state, traded=True, skipped=(), last=("trade", seat, card, -1, None), locked_now=())
        return state if _can_play(state, seat) else _advance(state)

    def _play(self, state: SequenceState, seat: int, index: int, cell: int) -> SequenceState:
        card = state.hands[seat][index]
        self._check_target(state, seat, card, cell)
        team = team_of(state, seat)
        state = replace(_discard(state, seat, index), skipped=(), locked_now=())
        if CARDS[card].kind == "minus":
            removed: tuple[Action, int, int, int, int | None] = (
                "remove",
                seat,
                card,
                cell,
                state.chips[cell],
            )
            state = replace(state, chips=_with(state.chips, cell, None), last=removed)
            return _advance(_draw(state, seat))
        state = replace(state, chips=_with(state.chips, cell, team), last=("place", seat, card, cell, team))
        runs, choices = _lock_plan(state, cell, team)
        if choices:  # the mover decides which five lock; the draw waits for it
            return replace(state, choices=choices, pending=(card, cell))
        return self._finish(state, seat, team, runs)

    def _lock(self, state: SequenceState, seat: int, run: Run) -> SequenceState:
        """The mover's choice of which five lock; then the turn ends as after any chip."""
        assert state.pending is not None  # a lock choice follows the chip that made it
        card, cell = state.pending
        team = team_of(state, seat)
        state = replace(state, choices=(), pending=None, last=("lock", seat, card, cell, team))
        return self._finish(state, seat, team, [run])

    @staticmethod
    def _finish(state: SequenceState, seat: int, team: int, runs: list[Run]) -> SequenceState:
        """Lock `runs` for the team; the game is won, or the seat draws and the turn passes."""
        if runs:
            runs = sorted(runs)
            sequences = _with(state.sequences, team, state.sequences[team] + tuple(runs))
            state = replace(state, sequences=sequences, locked_now=tuple(runs))
        if len(state.sequences[team]) >= sequences_to_win(state.players):
            return replace(state, winner=team, reason="sequences")
        return _advance(_draw(state, seat))

    @staticmethod
    def _check_target(state: SequenceState, seat: int, card: int, cell: int) -> None:
        if cell in _targets(state, seat, card):
            return
        c, name = CARDS[card], cell_name(cell)
        if c.kind == "minus":
            if cell in locked_cells(state):
                raise IllegalMove("The chip on {cell} is part of a sequence and stays.", cell=name)
            raise IllegalMove("There is no opponent chip on {cell} — a minus removes one.", cell=name)
        if cell in CORNERS:
            raise IllegalMove("{cell} is a free corner: it counts for everyone and takes no chip.", cell=name)
        if state.chips[cell] is not None:
            raise IllegalMove("{cell} is taken — choose an empty cell.", cell=name)
        first, second = (cell_name(x) for x in CELLS_OF[c.answer])  # every number is on two cells
        raise IllegalMove(
            "{problem} is {answer}, and {cell} shows {shown} — try {first} or {second}.",
            problem=c.text,
            answer=c.answer,
            cell=name,
            shown=str(BOARD[cell]),
            first=first,
            second=second,
        )

    def reveals(self, state: SequenceState, seat: int, move: SequenceMove, after: SequenceState) -> bool:
        """A turn ends with a draw, which shows the mover a new card; only a chip whose lock
        choice is still to make has drawn nothing yet."""
        return (after.deck, after.step) != (state.deck, state.step)

    def resign(self, state: SequenceState, seat: int) -> SequenceState:
        """The seat leaves; its team plays on while a partner remains.

        A seat leaving in the middle of its lock choice first locks as the clock would.
        """
        if _over(state):
            raise IllegalMove("This game is over already.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalMove("You are not playing in this game any more.")
        if state.choices and state.turn == seat:
            state = self._lock(state, seat, state.choices[0])
            if _over(state):
                return state
        state = replace(
            state,
            resigned=_with(state.resigned, seat, True),
            skipped=(),
            last=("resign", seat, -1, -1, None),
            locked_now=(),
        )
        remaining = _active_teams(state)
        if len(remaining) < 2:
            return replace(state, winner=min(remaining), reason="resignation")
        return _advance(state) if state.turn == seat else state

    def outcome(self, state: SequenceState) -> Outcome | None:
        if not _over(state):
            return None
        winners = () if state.winner is None else teams(state)[state.winner]
        return Outcome(
            scores=tuple(self._scores(state)),
            winners=winners,
            draw=state.draw,
            teams=teams(state),
            details={"reason": state.reason},
        )

    @staticmethod
    def _scores(state: SequenceState) -> list[int]:
        return [len(state.sequences[team_of(state, s)]) for s in range(state.players)]

    def view(self, state: SequenceState, seat: int | None) -> SequenceView:
        """What `seat` may know (`None`: a spectator): never another seat's hand or the deck.

        Cells are 0-based (row, column) in `board`, named "C4" (column letter, row from 1)
        in runs; teams are indexes, seat s playing for team s mod the team count. Besides
        the common keys (`scores`: each seat's team's sequences; `last_event`: see
        `SequenceEvent`):
        `board`             list[list[SequenceSquare]], ten rows of ten: each cell's
                            `number` (None: a free corner), `chip` (team or None), `locked`
        `teams`             list[list[int]]: the seats of each team
        `sequences`         list[int]: each team's sequences
        `sequence_cells`    list (by team) of the team's sequences, each five [row, col]
        `sequences_to_win`  int: 1 with 2–3 players, 2 with 4–6
        `lock_choices`      list[list[str]]: the runs (five cell names) the mover chooses
                            one of to lock, [] unless that choice is pending
        `hand`              list[SequenceCard]: the seat's own hand, in hand order — a
                            spectator's (`seat` None) is empty, and no view shows
                            another seat's hand or the deck's order
        `dead_cards`        list[int]: hand indexes of the seat's dead cards ([] for a
                            spectator)
        `seat`              int | None: whose view this is (None: a spectator)
        `hand_sizes`        list[int]: every seat's number of cards (public)
        `deck_size`         int: cards left to draw
        `discards`          list[list[SequenceCard]]: every seat's discard pile, top last
        `traded`            bool: the seat to move has traded a dead card this turn
        `skipped`           list[int]: the seats skipped (no card to play) since the last move
        """
        own = seat is not None and 0 <= seat < state.players
        hand = state.hands[seat] if own and seat is not None else ()
        locked = locked_cells(state)
        common = common_view(
            players=state.players,
            to_move=self.current_seats(state),
            scores=self._scores(state),
            last_event=self._event(state),
            outcome=self.outcome(state),
            resigned=[s for s, gone in enumerate(state.resigned) if gone],
        )
        return {
            "players": common["players"],
            "to_move": common["to_move"],
            "scores": common["scores"],
            "last_event": common["last_event"],
            "winners": common["winners"],
            "resigned": common["resigned"],
            "board": [
                [
                    {
                        "number": BOARD[r * SIZE + c],
                        "chip": state.chips[r * SIZE + c],
                        "locked": r * SIZE + c in locked,
                    }
                    for c in range(SIZE)
                ]
                for r in range(SIZE)
            ],
            "teams": [list(t) for t in teams(state)],
            "sequences": [len(s) for s in state.sequences],
            "sequence_cells": [
                [[list(divmod(x, SIZE)) for x in seq] for seq in team] for team in state.sequences
            ],
            "sequences_to_win": sequences_to_win(state.players),
            "lock_choices": [] if _over(state) else [[cell_name(x) for x in run] for run in state.choices],
            "hand": [CARDS[c].public() for c in hand],
            "dead_cards": [i for i, c in enumerate(hand) if _dead(state, c)],
            "seat": seat if own else None,
            "hand_sizes": [len(h) for h in state.hands],
            "deck_size": len(state.deck),
            "discards": [[CARDS[c].public() for c in pile] for pile in state.discards],
            "traded": state.traded,
            "skipped": list(state.skipped),
        }

    @staticmethod
    def _event(state: SequenceState) -> SequenceEvent:
        """The last event: the start (naming the seat drawn to start), a trade, a chip
        placed (with the runs it locked), a chip removed, a lock chosen, a resignation."""
        if state.last is None:
            return {"type": "start", "seat": state.first}
        action, seat, card, cell, team = state.last
        event: SequenceEvent = {"type": action, "seat": seat}
        if card >= 0:
            event["card"] = CARDS[card].public()
        if cell >= 0:
            event.update({"row": cell // SIZE, "col": cell % SIZE, "cell": cell_name(cell), "team": team})
        if action in ("place", "lock"):
            event["locked"] = [[cell_name(x) for x in run] for run in state.locked_now]
        return event

    def dump(self, state: SequenceState) -> str:
        return json.dumps(asdict(state), separators=(",", ":"))

    def load(self, text: str) -> SequenceState:
        return load_json(text, _build, self.title)


# --- reading a saved state -----------------------------------------------------------


def _tuples(value: Any) -> Any:
    """JSON lists back into the tuples the state is made of."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _is_int(value: object, low: int, high: int) -> TypeGuard[int]:
    """An int (not a bool) with low <= value < high."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value < high


def _is_tuple(value: Any, length: int | None = None) -> bool:
    return isinstance(value, tuple) and (length is None or len(value) == length)


def _is_run(value: Any) -> bool:
    return _is_tuple(value, RUN) and all(_is_int(x, 0, SIZE * SIZE) for x in value)


def _is_event(last: Any, players: int, team_count: int) -> bool:
    """The stored last event: (action, seat, card or -1, cell or -1, team or None)."""
    return (
        _is_tuple(last, 5)
        and last[0] in ACTIONS
        and _is_int(last[1], 0, players)
        and _is_int(last[2], -1, len(CARDS))
        and _is_int(last[3], -1, SIZE * SIZE)
        and (last[4] is None or _is_int(last[4], 0, team_count))
    )


def _build(data: Any) -> SequenceState:
    """A state from its dump, every field checked, so a damaged save fails here."""
    if not isinstance(data, dict):
        raise GameError("This saved Sequence Numbers game cannot be read (not a game state).")
    missing = [f.name for f in fields(SequenceState) if f.name not in data]
    if missing:
        raise GameError("This saved Sequence Numbers game cannot be read (no {field}).", field=missing[0])
    state = SequenceState(**{f.name: _tuples(data[f.name]) for f in fields(SequenceState)})
    bad = next((name for name, ok in _checks(state) if not ok), None)
    if bad is not None:
        raise GameError("This saved Sequence Numbers game cannot be read (bad {field}).", field=bad)
    return state


def _checks(s: SequenceState) -> Iterator[tuple[str, bool]]:
    """(field, whether it is sound), in an order where each check may rely on the ones before."""
    yield "players", _is_int(s.players, 2, 7) and s.players != 5
    yield "seed", isinstance(s.seed, int) and not isinstance(s.seed, bool)
    yield "step", _is_int(s.step, 0, 2**31)
    yield "team_count", s.team_count in ((2, 3) if s.players == 6 else (_natural_teams(s.players),))
    cells, team_count = SIZE * SIZE, s.team_count
    yield "first", _is_int(s.first, 0, s.players)
    yield "turn", _is_int(s.turn, 0, s.players)
    yield "chips", _is_tuple(s.chips, cells) and all(c is None or _is_int(c, 0, team_count) for c in s.chips)
    yield (
        "sequences",
        _is_tuple(s.sequences, team_count)
        and all(_is_tuple(runs) and all(_is_run(run) for run in runs) for runs in s.sequences),
    )
    piles = (s.hands, s.discards)
    yield "hands", all(_is_tuple(p, s.players) and all(_is_tuple(h) for h in p) for p in piles)
    yield "deck", _is_tuple(s.deck)
    cards = [c for pile in (*s.hands, s.deck, *s.discards) for c in pile]
    yield "cards", all(_is_int(c, 0, len(CARDS)) for c in cards) and sorted(cards) == list(range(len(CARDS)))
    yield "traded", isinstance(s.traded, bool) and isinstance(s.draw, bool)
    yield "resigned", _is_tuple(s.resigned, s.players) and all(isinstance(r, bool) for r in s.resigned)
    yield "skipped", _is_tuple(s.skipped) and all(_is_int(x, 0, s.players) for x in s.skipped)
    yield "last", s.last is None or _is_event(s.last, s.players, team_count)
    yield "locked_now", _is_tuple(s.locked_now) and all(_is_run(run) for run in s.locked_now)
    yield "choices", _is_tuple(s.choices) and all(_is_run(run) for run in s.choices)
    yield "winner", s.winner is None or _is_int(s.winner, 0, team_count)
    yield "reason", s.reason is None or isinstance(s.reason, str)
    pending = s.pending is None or (
        _is_tuple(s.pending, 2) and _is_int(s.pending[0], 0, len(CARDS)) and _is_int(s.pending[1], 0, cells)
    )
    yield "pending", pending and (s.pending is None) == (not s.choices)


ENGINE: Engine[SequenceState, SequenceView, SequenceMove] = SequenceNumbers()
