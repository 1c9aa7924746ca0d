"""Sequence Numbers: solve a card's sum, claim the answer on the board, make five in a row.

Rules: `rules/sequence_numbers.md`. The board and the deck are fixed data in
`data/sequence_numbers/`. Moves (hand indices are 0-based, cells are 0-based
row/column as in `view()["board"]`):

- `{"type": "trade", "card": i}`: trade the dead card `i` for a new one (once a turn);
- `{"type": "play", "card": i, "row": r, "col": c}`: a problem or plus card puts a
  chip on the empty cell (r, c); a minus card removes the opponent chip there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from games.base import GameError, IllegalMove, Outcome, chance, check_players, check_seat

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "sequence_numbers"
SIZE = 10
COLUMNS = "ABCDEFGHIJ"
CORNERS = frozenset({0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1})
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
RUN = 5


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck: a problem with its answer, or a plus or minus card."""

    kind: str
    text: str = ""
    answer: int = 0

    def public(self) -> dict[str, Any]:
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


@dataclass(frozen=True, slots=True)
class SequenceState:
    """A whole match. Cells are `row * 10 + col`; cards are ids into `CARDS`."""

    players: int
    seed: int
    step: int  # chance events used so far
    team_count: int
    chips: tuple[int | None, ...]  # team per cell
    sequences: tuple[tuple[tuple[int, ...], ...], ...]  # per team: the 5 cells of each
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # drawn from the front
    discards: tuple[tuple[int, ...], ...]  # per seat, top card last
    turn: int
    traded: bool  # the seat to move has used this turn's dead-card trade
    resigned: tuple[bool, ...]
    skipped: tuple[int, ...]  # seats skipped since the last move, in order
    last_move: tuple[int, str, int, int, int | None] | None  # seat, action, card, cell, team
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


def _team_count(players: int, options: Mapping[str, Any]) -> int:
    unknown = set(options) - {"teams"}
    if unknown:
        raise GameError(f"Sequence Numbers has no option {', '.join(sorted(unknown))}.")
    if players == 5:
        raise GameError(
            "Sequence Numbers cannot be played by 5: teams must be of equal size — play with 2, 3, 4 or 6."
        )
    natural = {2: 2, 3: 3, 4: 2, 6: 2}[players]
    wanted = options.get("teams", natural)
    allowed = (2, 3) if players == 6 else (natural,)
    if isinstance(wanted, bool) or wanted not in allowed:
        choices = " or ".join(str(n) for n in allowed)
        raise GameError(f"With {players} players the number of teams must be {choices}.")
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


def _windows(cell: int, direction: tuple[int, int]) -> Iterator[tuple[int, ...]]:
    """Every run of five cells along `direction` that contains `cell`."""
    row, col = divmod(cell, SIZE)
    dr, dc = direction
    for back in range(RUN):
        start_r, start_c = row - back * dr, col - back * dc
        cells = [(start_r + k * dr, start_c + k * dc) for k in range(RUN)]
        if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
            yield tuple(r * SIZE + c for r, c in cells)


def _new_sequences(state: SequenceState, cell: int, team: int) -> list[tuple[int, ...]]:
    """The sequences the chip just put on `cell` completes.

    Sequences of one team share at most one cell pairwise, so a line of nine counts
    twice and a line of six once. Runs in different directions through `cell` share
    only `cell`, so each direction is decided on its own.
    """
    existing = state.sequences[team]

    def ours(x: int) -> bool:
        return x in CORNERS or state.chips[x] == team

    def fits(run: tuple[int, ...], others: tuple[tuple[int, ...], ...]) -> bool:
        return all(len(set(run) & set(other)) <= 1 for other in others)

    found: list[tuple[int, ...]] = []
    for direction in DIRECTIONS:
        chosen: tuple[tuple[int, ...], ...] = ()
        # Only the runs starting and ending at `cell` can both count (a line of nine),
        # and they come first and last, so taking every run that fits is the best choice.
        for run in _windows(cell, direction):
            if all(ours(x) for x in run) and fits(run, existing + chosen):
                chosen += (run,)
        found.extend(chosen)
    return found


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


def _with(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


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
    seat, skipped = state.turn, []
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


class SequenceNumbers:
    """The engine; see the module docstring for the move formats."""

    name = "sequence_numbers"
    title = "Sequence Numbers"
    min_players = 2
    max_players = 6

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> SequenceState:
        """Shuffle, deal 5 cards each (4 with four or more players), seat 0 begins."""
        check_players(self, players)
        team_count = _team_count(players, options or {})
        deck = list(range(len(CARDS)))
        chance(seed, 0).shuffle(deck)
        size = 5 if players <= 3 else 4
        hands = tuple(tuple(deck[seat::players][:size]) for seat in range(players))
        state = SequenceState(
            players=players,
            seed=seed,
            step=1,
            team_count=team_count,
            chips=(None,) * (SIZE * SIZE),
            sequences=((),) * team_count,
            hands=hands,
            deck=tuple(deck[players * size :]),
            discards=((),) * players,
            turn=0,
            traded=False,
            resigned=(False,) * players,
            skipped=(),
            last_move=None,
        )
        if _can_act(state, 0):
            return state
        return _advance(replace(state, turn=players - 1))

    def is_over(self, state: SequenceState) -> bool:
        return state.winner is not None or state.draw

    def current_seats(self, state: SequenceState) -> tuple[int, ...]:
        return () if self.is_over(state) else (state.turn,)

    def legal_moves(self, state: SequenceState, seat: int) -> list[dict]:
        if seat not in self.current_seats(state):
            return []
        hand = state.hands[seat]
        moves: list[dict] = []
        if not state.traded:
            moves += [{"type": "trade", "card": i} for i, c in enumerate(hand) if _dead(state, c)]
        for i, card in enumerate(hand):
            for cell in _targets(state, seat, card):
                row, col = divmod(cell, SIZE)
                moves.append({"type": "play", "card": i, "row": row, "col": col})
        return moves

    def apply(self, state: SequenceState, seat: int, move: dict) -> SequenceState:
        if self.is_over(state):
            raise IllegalMove("This game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        if not isinstance(move, Mapping):
            raise IllegalMove("A move must say what to do — pick one from the buttons.")
        if move.get("type") == "trade":
            return self._trade(state, seat, self._card_index(state, seat, move))
        if move.get("type") == "play":
            index = self._card_index(state, seat, move)
            return self._play(state, seat, index, self._cell(move))
        raise IllegalMove("Choose a card to play, or trade a dead card.")

    @staticmethod
    def _card_index(state: SequenceState, seat: int, move: Mapping) -> int:
        index, size = move.get("card"), len(state.hands[seat])
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < size:
            raise IllegalMove(f"Pick a card from your hand, 1 to {size}.")
        return index

    @staticmethod
    def _cell(move: Mapping) -> int:
        row, col = move.get("row"), move.get("col")
        for value in (row, col):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SIZE:
                raise IllegalMove("Pick a cell on the board: columns A–J, rows 1–10.")
        return row * SIZE + col

    def _trade(self, state: SequenceState, seat: int, index: int) -> SequenceState:
        card = state.hands[seat][index]
        if state.traded:
            raise IllegalMove("You have already traded a dead card this turn — play a card.")
        if not _dead(state, card):
            raise IllegalMove("Only a dead card (both of its cells taken) can be traded — play this one.")
        state = _draw(_discard(state, seat, index), seat)
        state = replace(state, traded=True, skipped=(), last_move=(seat, "trade", card, -1, None))
        return state if _can_play(state, seat) else _advance(state)

    def _play(self, state: SequenceState, seat: int, index: int, cell: int) -> SequenceState:
        card = state.hands[seat][index]
        self._check_target(state, seat, card, cell)
        team = team_of(state, seat)
        state = _discard(state, seat, index)
        if CARDS[card].kind == "minus":
            removed = state.chips[cell]
            chips = _with(state.chips, cell, None)
            state = replace(state, chips=chips, last_move=(seat, "remove", card, cell, removed))
        else:
            state = replace(
                state,
                chips=_with(state.chips, cell, team),
                last_move=(seat, "place", card, cell, team),
            )
            found = _new_sequences(state, cell, team)
            if found:
                sequences = _with(state.sequences, team, state.sequences[team] + tuple(found))
                state = replace(state, sequences=sequences)
            if len(state.sequences[team]) >= sequences_to_win(state.players):
                return replace(state, winner=team, reason="sequences", skipped=())
        return _advance(replace(_draw(state, seat), skipped=()))

    @staticmethod
    def _check_target(state: SequenceState, seat: int, card: int, cell: int) -> None:
        if cell in _targets(state, seat, card):
            return
        c, name = CARDS[card], cell_name(cell)
        if c.kind == "minus":
            if cell in locked_cells(state):
                raise IllegalMove(f"The chip on {name} is part of a sequence and stays.")
            raise IllegalMove(f"There is no opponent chip on {name} — a minus removes one.")
        if cell in CORNERS:
            raise IllegalMove(f"{name} is a free corner: it counts for everyone and takes no chip.")
        if state.chips[cell] is not None:
            raise IllegalMove(f"{name} is taken — choose an empty cell.")
        cells = " or ".join(cell_name(x) for x in CELLS_OF[c.answer])
        raise IllegalMove(f"{c.text} is {c.answer}, and {name} shows {BOARD[cell]} — try {cells}.")

    def resign(self, state: SequenceState, seat: int) -> SequenceState:
        """The seat leaves; its team plays on while a partner remains."""
        if self.is_over(state):
            raise IllegalMove("This game is over already.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalMove("You are not playing in this game any more.")
        state = replace(state, resigned=_with(state.resigned, seat, True))
        remaining = _active_teams(state)
        if len(remaining) < 2:
            return replace(state, winner=min(remaining), reason="resignation")
        return _advance(state) if state.turn == seat else state

    def outcome(self, state: SequenceState) -> Outcome | None:
        if not self.is_over(state):
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

    def view(self, state: SequenceState, seat: int | None) -> dict:
        """What `seat` may know (`None`: a spectator): never another seat's hand or the deck."""
        own = seat is not None and 0 <= seat < state.players
        hand = state.hands[seat] if own else ()
        locked = locked_cells(state)
        return {
            "scores": self._scores(state),
            "to_move": list(self.current_seats(state)),
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
            "hand": [CARDS[c].public() for c in hand],
            "dead_cards": [i for i, c in enumerate(hand) if _dead(state, c)],
            "seat": seat if own else None,
            "hand_sizes": [len(h) for h in state.hands],
            "deck_size": len(state.deck),
            "discards": [[CARDS[c].public() for c in pile] for pile in state.discards],
            "traded": state.traded,
            "resigned": [seat for seat, gone in enumerate(state.resigned) if gone],
            "skipped": list(state.skipped),
            "last_move": self._last_move(state),
            "finished": self.is_over(state),
            "winners": list(teams(state)[state.winner]) if state.winner is not None else [],
            "winning_team": state.winner,
            "draw": state.draw,
        }

    @staticmethod
    def _last_move(state: SequenceState) -> dict | None:
        if state.last_move is None:
            return None
        seat, action, card, cell, team = state.last_move
        move: dict[str, Any] = {"seat": seat, "type": action, "card": CARDS[card].public()}
        if cell >= 0:
            move.update(row=cell // SIZE, col=cell % SIZE, cell=cell_name(cell), team=team)
        return move

    def dump(self, state: SequenceState) -> str:
        return json.dumps(asdict(state), separators=(",", ":"))

    def load(self, text: str) -> SequenceState:
        data = json.loads(text)
        return SequenceState(**{f.name: _tuples(data[f.name]) for f in fields(SequenceState)})


def _tuples(value: Any) -> Any:
    """JSON lists back into the tuples the state is made of."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


ENGINE = SequenceNumbers()
