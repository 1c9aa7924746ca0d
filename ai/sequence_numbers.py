"""Sequence Numbers players, from the seat's own views.

Every player reads the newest view into a `Board` that keeps, per team and per line of
five cells (a window), how many of the team's chips (free corners included) and how
many other teams' chips lie in it. Dead cards are traded first. Players play for their
team: partners' chips are their own, every other team's are the opponents'.

- normal: a sound casual player, one move deep. A chip is worth the longest line of
  its own it makes, and cutting another team's line of four (much) or three (some); a
  minus card is worth the longest line it breaks. Plus and minus cards are played like
  any other card, whenever they are the best move; ties are drawn at random, and where
  a chip made six or more in a row any five lock.
- easy: the same worth, but it sees only another team's fours and misses half of
  them, forgets to trade a dead card now and then and takes one of its few best moves
  at random (never missing a win).
- hard: every open window counts, by the team's chips in it (`WEIGHTS`), and a chip is
  worth what it adds to its team's windows and takes from the others'. It reads the
  cards it cannot see from its views: a window whose empty cell no card can fill any
  more (both cards of the number played, or held by this seat when it is another
  team's window) counts for nothing; plus and minus cards cost something to spend, so
  they are kept for the moves that matter; a line of four whose missing cell its hand
  can fill earns a bonus; it locks the five that leave the most open. Its best
  `CANDIDATES` moves are then checked by determinization: the hidden cards are dealt
  `SAMPLES` times consistently with its views, and each sample is played on to its next
  turn, the other seats moving by the same evaluation with their sampled hands; a loss
  on the way costs `LOSS`, a win within reach at its next turn earns `WIN_NEXT`.

The draw decides much of a two-player match: a line of four is rarely blockable
without the one card for its missing cell. What separates the levels is building:
hard's windows and card reading win about three matches in five against normal.
Against the greedy reference (which builds and blocks by the same windows) the draw
decides nearly everything: hard wins about half (51.5% of 400 seeded matches). Neither
other weights, costs of plus and minus cards, nor playing every candidate to the end
of the match over 48 deals with both seats greedy (51.7% of 400) did better; nor did a
bonus for lines of three whose two empty cells the hand can fill (50% of 100), keeping
the chips no unseen card can take for later (50.3–52.3% of 400), or weighing each
window by the chance that cards are left for its empty cells (50.8–52% of 400). Between
two greedy players the seat that starts wins 52% of 400; when both take one of their
three best moves at random three times in ten, 23 of 60 deals still go the same way
at least nine times in ten. A diagnostic player that cheats (benchmarks/sequence_oracle.py)
bounds what skill can win: playing each of its best moves out with both seats greedy, it
wins 82.0% of 400 against the reference when it knows every hand and the deck, but
49.0% of 100 (51.5% of 200 by a simpler rule) when it sees the other hand and not the
deck, and 48.0% of 100 knowing its own hand only. What search wins here is knowing the
coming draws; hard knows neither, so the 60% asked of it against the greedy reference
is out of reach of this kind of search.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from games.sequence_numbers import BOARD as BOARD_NUMBER
from games.sequence_numbers import (
    CARDS,
    CELLS_OF,
    CORNERS,
    DIRECTIONS,
    RUN,
    SIZE,
    LockMove,
    PlayMove,
    SequenceCard,
    SequenceMove,
    SequenceView,
    named_cell,
)

Run = tuple[int, ...]
Weights = tuple[float, ...]

EMPTY = -1
FREE = -2  # a free corner: a chip of every team
# What an open window is worth to a team by how many of its five cells the team holds.
WEIGHTS: Weights = (0.0, 1.0, 4.0, 16.0, 70.0, 1000.0)
WIN = 100_000.0
SEQUENCE = 5_000.0  # a sequence that does not yet win (teams of four or six)
# The weight of what a chip takes from the other teams, against what it gives its own.
BLOCK = 0.9
# What spending a plus or a minus card costs: hard keeps them for the moves that matter.
PLUS_COST = 20.0
MINUS_COST = 30.0
# Hard: per line of four whose missing cell its hand can fill.
HELD_THREAT = 60.0
# The hard player's search: candidate moves, samples of the hidden cards, and what a
# loss before its next turn and a win at it are worth against its evaluation.
CANDIDATES = 4
SAMPLES = 8
LOSS = 300.0
WIN_NEXT = 150.0
# The casual players (normal and easy): a chip is worth `LINE` per chip of the longest
# line of its own it makes, plus `CUT[n]` for cutting another team's line of n; a minus
# card `CUT[n]` for the longest line of n it breaks.
LINE = 10.0
CUT: Weights = (0.0, 0.0, 0.0, 40.0, 500.0, 0.0)
# Easy sees only fours, and misses half of them; it forgets to trade a dead card now
# and then and takes one of its few best moves at random (never missing a win).
EASY_CUT: Weights = (0.0, 0.0, 0.0, 0.0, 500.0, 0.0)
NO_CUT: Weights = (0.0,) * (RUN + 1)
EASY_MISSES_FOUR = 0.5
EASY_FORGETS_TRADE = 0.3
SLIP_AMONG = 6


def _windows() -> tuple[Run, ...]:
    found = []
    for start in range(SIZE * SIZE):
        row, col = divmod(start, SIZE)
        for dr, dc in DIRECTIONS:
            cells = [(row + k * dr, col + k * dc) for k in range(RUN)]
            if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                found.append(tuple(r * SIZE + c for r, c in cells))
    return tuple(found)


WINDOWS: tuple[Run, ...] = _windows()
WINDOWS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w, run in enumerate(WINDOWS) if cell in run) for cell in range(SIZE * SIZE)
)
PLAYABLE = tuple(cell for cell in range(SIZE * SIZE) if cell not in CORNERS)


def _canonical() -> tuple[int, ...]:
    """Card id -> the id standing for it: plus and minus cards are alike, problems differ."""
    first = {kind: next(i for i, c in enumerate(CARDS) if c.kind == kind) for kind in ("plus", "minus")}
    return tuple(first.get(card.kind, i) for i, card in enumerate(CARDS))


CANONICAL = _canonical()
CARD_ID: dict[tuple[str, str], int] = {(c.kind, c.text): CANONICAL[i] for i, c in enumerate(CARDS)}
KIND: tuple[str, ...] = tuple(c.kind for c in CARDS)
DECK: Counter[int] = Counter(CANONICAL)


def card_id(card: SequenceCard) -> int:
    """The canonical id of a card as a view shows it."""
    return CARD_ID[(card["kind"], card.get("text", ""))]


# ---------------------------------------------------------------- the board


class Board:
    """Chips, locks and per-team window counts, updated as chips come and go."""

    __slots__ = ("chips", "foreign", "locked", "own", "scored", "sequences", "teams", "to_win", "valid")

    def __init__(self, teams: int, to_win: int) -> None:
        self.teams = teams
        self.to_win = to_win
        self.chips = [FREE if cell in CORNERS else EMPTY for cell in range(SIZE * SIZE)]
        self.locked: set[int] = set()
        self.sequences: list[list[Run]] = [[] for _ in range(teams)]
        corners = [sum(cell in CORNERS for cell in run) for run in WINDOWS]
        self.own = [list(corners) for _ in range(teams)]
        self.foreign = [[0] * len(WINDOWS) for _ in range(teams)]
        self.valid = [[True] * len(WINDOWS) for _ in range(teams)]
        self.scored = [[True] * len(WINDOWS) for _ in range(teams)]

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.teams, other.to_win = self.teams, self.to_win
        other.chips, other.locked = list(self.chips), set(self.locked)
        other.sequences = [list(s) for s in self.sequences]
        other.own = [list(x) for x in self.own]
        other.foreign = [list(x) for x in self.foreign]
        other.valid = [list(x) for x in self.valid]
        other.scored = [list(x) for x in self.scored]
        return other

    def place(self, cell: int, team: int) -> None:
        self.chips[cell] = team
        for t in range(self.teams):
            counts = self.own[t] if t == team else self.foreign[t]
            for w in WINDOWS_AT[cell]:
                counts[w] += 1

    def remove(self, cell: int) -> None:
        team = self.chips[cell]
        self.chips[cell] = EMPTY
        for t in range(self.teams):
            counts = self.own[t] if t == team else self.foreign[t]
            for w in WINDOWS_AT[cell]:
                counts[w] -= 1

    def lock(self, run: Run, team: int) -> None:
        """`run` becomes a sequence of `team`: windows sharing two or more of its cells close."""
        self.sequences[team].append(run)
        self.locked.update(run)
        cells = set(run)
        valid, scored = self.valid[team], self.scored[team]
        for w, window in enumerate(WINDOWS):
            if len(cells.intersection(window)) >= 2:
                valid[w] = scored[w] = False

    def give_up(self, team: int, cells: set[int]) -> None:
        """The team's windows with an empty cell among `cells` (cells it cannot fill) count
        for nothing; they still lock if a chip lands there after all."""
        scored, chips = self.scored[team], self.chips
        for cell in cells:
            if chips[cell] == EMPTY:
                for w in WINDOWS_AT[cell]:
                    scored[w] = False

    def full_runs(self, cell: int, team: int) -> list[list[Run]]:
        """Per direction (those with any), the windows through `cell` the team could lock."""
        own, valid = self.own[team], self.valid[team]
        lines: dict[int, list[Run]] = {}
        for w in WINDOWS_AT[cell]:
            if own[w] == RUN and valid[w]:
                run = WINDOWS[w]
                lines.setdefault(_direction(run), []).append(run)
        return list(lines.values())

    def open_value(self, team: int, weights: Weights) -> float:
        """What the team's open windows are worth."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        return sum(weights[own[w]] for w in range(len(WINDOWS)) if valid[w] and not foreign[w])

    def fours(self, cell: int, team: int) -> bool:
        """Whether `cell` lies in a window where the team has four and nobody else a chip."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        return any(own[w] == RUN - 1 and valid[w] and not foreign[w] for w in WINDOWS_AT[cell])

    def gain(self, cell: int, team: int, weights: Weights) -> float:
        """What a chip of `team` on the empty `cell` adds to the team's open windows."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        total = 0.0
        for w in WINDOWS_AT[cell]:
            if valid[w] and not foreign[w]:
                n = own[w]
                total += weights[n + 1] - weights[n]
        return total

    def taken(self, cell: int, team: int, weights: Weights) -> float:
        """What a chip of another team on the empty `cell` takes from `team`."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        return sum(weights[own[w]] for w in WINDOWS_AT[cell] if valid[w] and not foreign[w])

    def freed(self, cell: int, team: int, weights: Weights) -> float:
        """What removing the other team's chip on `cell` gives back to `team`."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        return sum(weights[own[w]] for w in WINDOWS_AT[cell] if valid[w] and foreign[w] == 1)

    def lost(self, cell: int, team: int, weights: Weights) -> float:
        """What removing the team's own chip on `cell` takes from `team`."""
        own, foreign, valid = self.own[team], self.foreign[team], self.scored[team]
        total = 0.0
        for w in WINDOWS_AT[cell]:
            if valid[w] and not foreign[w]:
                n = own[w]
                total += weights[n] - weights[n - 1]
        return total


def _direction(run: Run) -> int:
    """The step between neighbouring cells of a run: one per direction."""
    return run[1] - run[0]


def read_board(view: SequenceView) -> Board:
    """The board of a view."""
    teams = len(view["teams"])
    board = Board(teams, view["sequences_to_win"])
    for r, row in enumerate(view["board"]):
        for c, cell in enumerate(row):
            if cell["chip"] is not None:
                board.place(r * SIZE + c, cell["chip"])
    for team, runs in enumerate(view["sequence_cells"]):
        for run in runs:
            board.lock(tuple(r * SIZE + c for r, c in run), team)
    return board


# ---------------------------------------------------------------- moves and their worth


@dataclass(frozen=True, slots=True)
class Style:
    """How the hard player weighs a move."""

    weights: Weights  # an open window's worth by the team's chips in it
    block: float  # the weight of what a chip takes from the other teams
    plus_cost: float
    minus_cost: float
    held_threat: float  # per line of four whose missing cell the hand can fill


HARD = Style(WEIGHTS, BLOCK, PLUS_COST, MINUS_COST, HELD_THREAT)
# How hard imagines the other seats in its samples: the same, without reading hands.
OTHERS = Style(WEIGHTS, BLOCK, PLUS_COST, MINUS_COST, 0.0)


def targets(board: Board, card: int, team: int) -> Iterator[int]:
    """The cells a card may be played on by `team`."""
    kind = KIND[card]
    chips = board.chips
    if kind == "problem":
        yield from (x for x in CELLS_OF[CARDS[card].answer] if chips[x] == EMPTY)
    elif kind == "plus":
        yield from (x for x in PLAYABLE if chips[x] == EMPTY)
    else:
        yield from (x for x in PLAYABLE if chips[x] >= 0 and chips[x] != team and x not in board.locked)


def dead(board: Board, card: int) -> bool:
    """A problem card whose two cells are taken."""
    return KIND[card] == "problem" and all(board.chips[x] != EMPTY for x in CELLS_OF[CARDS[card].answer])


def _nine(runs: list[Run]) -> bool:
    """Whether the first and last run of one line share one chip: a line of nine."""
    return len(set(runs[0]) & set(runs[-1])) == 1


def _made(lines: list[list[Run]]) -> int:
    """The most sequences the lines through one chip can lock."""
    return sum(2 if _nine(runs) else 1 for runs in lines)


def place_value(board: Board, cell: int, team: int, style: Style, rest: Sequence[int] = ()) -> float:
    """The worth of a chip of `team` on the empty `cell`; `rest`: the hand left after."""
    board.place(cell, team)
    made = _made(board.full_runs(cell, team))
    threats = _held_threats(board, cell, team, rest) if style.held_threat else 0
    board.remove(cell)
    if made and len(board.sequences[team]) + made >= board.to_win:
        return WIN
    value = board.gain(cell, team, style.weights) + made * SEQUENCE + threats * style.held_threat
    others = [t for t in range(board.teams) if t != team]
    return value + style.block * sum(board.taken(cell, t, style.weights) for t in others)


def _held_threats(board: Board, cell: int, team: int, hand: Sequence[int]) -> int:
    """Lines of four through `cell` whose missing cell a card in `hand` can fill."""
    own, foreign, valid = board.own[team], board.foreign[team], board.scored[team]
    missing: set[int] = set()
    for w in WINDOWS_AT[cell]:
        if own[w] == RUN - 1 and not foreign[w] and valid[w]:
            missing.update(x for x in WINDOWS[w] if board.chips[x] == EMPTY)
    if not missing:
        return 0
    if any(KIND[card] == "plus" for card in hand):
        return len(missing)
    reach = {x for card in hand if KIND[card] == "problem" for x in CELLS_OF[CARDS[card].answer]}
    return len(missing & reach)


def remove_value(board: Board, cell: int, team: int, style: Style) -> float:
    """The worth of `team` removing the other team's chip on `cell`."""
    owner, weights = board.chips[cell], style.weights
    others = [t for t in range(board.teams) if t not in (team, owner)]
    value = style.block * board.lost(cell, owner, weights) + board.freed(cell, team, weights)
    return value - style.block * sum(board.freed(cell, t, weights) for t in others)


def move_value(board: Board, card: int, cell: int, team: int, style: Style, hand: Sequence[int]) -> float:
    """The worth of playing `card` from `hand` on `cell`, less what spending the card costs."""
    kind = KIND[card]
    if kind == "minus":
        return remove_value(board, cell, team, style) - style.minus_cost
    rest = list(hand)
    rest.remove(card)
    value = place_value(board, cell, team, style, rest)
    return value - style.plus_cost if kind == "plus" and value < WIN else value


def casual_value(board: Board, card: int, cell: int, team: int, cut: Weights) -> float:
    """A casual player's worth of a move: the longest line of its own the chip makes,
    and the longest line of another team it cuts (`cut` by its length); a minus card is
    worth the longest line it breaks. Plus and minus cards are played like any other."""
    if KIND[card] == "minus":
        return cut[_longest(board, cell, board.chips[cell])]
    board.place(cell, team)
    made = _made(board.full_runs(cell, team))
    board.remove(cell)
    if made and len(board.sequences[team]) + made >= board.to_win:
        return WIN
    value = LINE * (_longest(board, cell, team) + 1) + made * SEQUENCE
    return value + max(cut[_longest(board, cell, t)] for t in range(board.teams) if t != team)


def _longest(board: Board, cell: int, team: int) -> int:
    """The most chips `team` has in an open window through `cell`."""
    own, foreign, valid = board.own[team], board.foreign[team], board.valid[team]
    return max((own[w] for w in WINDOWS_AT[cell] if valid[w] and not foreign[w]), default=0)


def lock_value(board: Board, run: Run, team: int) -> float:
    """The worth to `team` of locking `run`: what its open windows are worth after."""
    after = board.copy()
    after.lock(run, team)
    return after.open_value(team, WEIGHTS)


# ---------------------------------------------------------------- knowledge from the views


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the seat knows of the cards it cannot see.

    `unseen`: every such card (other hands and the deck); `held`: those of them known to
    be in other hands (they were not in the deck rebuilt from the discards); `held_by`:
    per seat, how many of `held` it has.
    """

    unseen: Counter[int]
    held: Counter[int]
    held_by: dict[int, int]


def knowledge(views: Sequence[SequenceView]) -> Knowledge:
    """The seat's knowledge of the hidden cards, from its views oldest first."""
    held: Counter[int] = Counter()
    held_by: dict[int, int] = {}
    for before, view in itertools.pairwise(views):
        event = view["last_event"]
        mover = None if event is None else event["seat"]
        played = event is not None and event["type"] in ("trade", "place", "remove")
        card = card_id(event["card"]) if event is not None and played else None
        if card is not None and mover is not None and held[card] and held_by.get(mover, 0):
            held[card] -= 1
            held_by[mover] -= 1
        if view["deck_size"] > before["deck_size"]:  # the discards became the new deck
            pile = Counter(card_id(c) for p in before["discards"] for c in p)
            if card is not None:
                pile[card] += 1
            held, held_by = _after_reshuffle(before, view, pile, mover)
    last = views[-1]
    seen = Counter(card_id(c) for c in last["hand"]) + Counter(
        card_id(c) for p in last["discards"] for c in p
    )
    unseen = DECK - seen
    return Knowledge(unseen, +(held & unseen), held_by)


def _after_reshuffle(
    before: SequenceView, view: SequenceView, pile: Counter[int], drawer: int | None
) -> tuple[Counter[int], dict[int, int]]:
    """Right after a reshuffle, the cards neither in the new deck nor in the seat's hand
    are in the other hands: all each seat holds, but the one card the drawer drew."""
    seat = view["seat"]
    mine = Counter(card_id(c) for c in view["hand"])
    if drawer == seat:  # the card drawn came from the new deck
        mine -= Counter(card_id(c) for c in view["hand"]) - Counter(card_id(c) for c in before["hand"])
    held = DECK - pile - mine
    sizes = view["hand_sizes"]
    held_by = {s: sizes[s] - (s == drawer) for s in range(view["players"]) if s != seat}
    return held, held_by


def deal(view: SequenceView, known: Knowledge, rng: random.Random) -> tuple[dict[int, list[int]], list[int]]:
    """One sample of the other hands and the deck order, consistent with `known`."""
    seat = view["seat"]
    others = [s for s in range(view["players"]) if s != seat]
    held = list(known.held.elements())
    rng.shuffle(held)
    rest = list((known.unseen - known.held).elements())
    rng.shuffle(rest)
    hands: dict[int, list[int]] = {}
    for s in others:
        count = min(known.held_by.get(s, 0), view["hand_sizes"][s], len(held))
        hands[s], held = held[:count], held[count:]
    rest += held  # none left when the views are consistent
    rng.shuffle(rest)
    for s in others:
        need = view["hand_sizes"][s] - len(hands[s])
        hands[s], rest = hands[s] + rest[:need], rest[need:]
    return hands, rest


# ---------------------------------------------------------------- the levels


def choose(
    level: str, views: Sequence[SequenceView], legal: list[SequenceMove], rng: random.Random
) -> SequenceMove:
    """The move of a Sequence Numbers computer seat at `level` (see the module docstring)."""
    view = views[-1]
    seat = view["seat"]
    if seat is None or not view["teams"]:
        raise ValueError("Pass the views of the seat to move, not a spectator's.")
    board = read_board(view)
    team = seat % len(view["teams"])
    locks = [m for m in legal if m["type"] == "lock"]
    if locks:  # a lock choice is all there is to decide
        return _lock_choice(board, locks, team, level, rng)
    trades = [m for m in legal if m["type"] == "trade"]
    if trades and not (level == "easy" and rng.random() < EASY_FORGETS_TRADE):
        return trades[0]
    plays = [m for m in legal if m["type"] == "play"]
    if not plays:
        return legal[0]
    hand = [card_id(c) for c in view["hand"]]
    if level == "easy":
        cut = EASY_CUT if rng.random() >= EASY_MISSES_FOUR else NO_CUT
        values = [casual_value(board, hand[m["card"]], _target(m), team, cut) for m in plays]
        return plays[_easy(values, rng)]
    if level == "normal":
        values = [casual_value(board, hand[m["card"]], _target(m), team, CUT) for m in plays]
        return plays[_best(values, rng)]
    known = knowledge(views)
    _give_up_dead(board, known.unseen, hand, team)
    values = [move_value(board, hand[m["card"]], _target(m), team, HARD, hand) for m in plays]
    if max(values) >= WIN:
        return plays[_best(values, rng)]
    return plays[_hard(view, known, board, plays, values, hand, team, rng)]


def _give_up_dead(board: Board, unseen: Counter[int], hand: list[int], team: int) -> None:
    """Mark the cells no card can fill any more: for the other teams, those whose number's
    cards are all played or in this hand; for this team, those it holds no card for
    either (a plus card in hand fills anything)."""
    live = {CARDS[card].answer for card in unseen if KIND[card] == "problem"}
    mine = {CARDS[card].answer for card in hand if KIND[card] == "problem"}
    gone = {cell for cell in PLAYABLE if BOARD_NUMBER[cell] not in live}
    for t in range(board.teams):
        if t != team:
            board.give_up(t, gone)
        elif not any(KIND[card] == "plus" for card in hand):
            board.give_up(t, {cell for cell in gone if BOARD_NUMBER[cell] not in mine})


def _target(move: PlayMove) -> int:
    return int(move["row"]) * SIZE + int(move["col"])


def _lock_choice(board: Board, legal: list[LockMove], team: int, level: str, rng: random.Random) -> LockMove:
    """Easy and normal lock any five; hard the five that leave the team the most."""
    if level != "hard":
        return rng.choice(legal)
    return legal[_best([lock_value(board, _run_of(move), team) for move in legal], rng)]


def _run_of(move: LockMove) -> Run:
    first, last = (named_cell(move[key]) for key in ("from", "to"))
    step = (last - first) // (RUN - 1)
    return tuple(first + k * step for k in range(RUN))


def _best(values: list[float], rng: random.Random) -> int:
    """The index of a highest value; ties drawn with `rng`."""
    top = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= top - 1e-9])


def _easy(values: list[float], rng: random.Random) -> int:
    """One of the few best moves at random, but a win when there is one."""
    ranked = sorted(range(len(values)), key=lambda i: (values[i], rng.random()), reverse=True)
    if values[ranked[0]] >= WIN:
        return ranked[0]
    return rng.choice(ranked[:SLIP_AMONG])


# ---------------------------------------------------------------- the hard level


def _hard(
    view: SequenceView,
    known: Knowledge,
    board: Board,
    plays: list[PlayMove],
    values: list[float],
    hand: list[int],
    team: int,
    rng: random.Random,
) -> int:
    """The best candidates by the hard evaluation, each corrected by the round that
    follows it in samples of the hidden cards: a loss before the seat's next turn, or
    a win at it."""
    ranked = sorted(range(len(plays)), key=lambda i: values[i], reverse=True)[:CANDIDATES]
    if len(ranked) == 1:
        return ranked[0]
    totals = [0.0] * len(ranked)
    for _ in range(SAMPLES):
        hands, deck = deal(view, known, rng)
        for k, i in enumerate(ranked):
            sample = {seat: list(cards) for seat, cards in hands.items()}
            totals[k] += _round(board, view, sample, list(deck), hand, plays[i], team)
    scores = [values[i] + totals[k] / SAMPLES for k, i in enumerate(ranked)]
    return ranked[_best(scores, rng)]


def _seat_order(view: SequenceView) -> list[int]:
    """The other seats in the order they move after this one, resigned seats left out."""
    seat, players = view["seat"], view["players"]
    assert seat is not None  # `choose` refuses a spectator's views
    order = [(seat + k) % players for k in range(1, players)]
    return [s for s in order if s not in view["resigned"]]


def _round(
    board: Board,
    view: SequenceView,
    hands: dict[int, list[int]],
    deck: list[int],
    hand: list[int],
    move: PlayMove,
    team: int,
) -> float:
    """Play `move`, then every other seat by the normal evaluation with its sampled hand
    until this seat's next turn: `-LOSS` if another team wins on the way, `WIN_NEXT` if
    this seat can then win with the card it drew, else 0."""
    sim = board.copy()
    mine = list(hand)
    card = mine.pop(move["card"])
    cell = _target(move)
    if KIND[card] == "minus":
        sim.remove(cell)
    else:
        sim.place(cell, team)
        _settle(sim, cell, team)
    if deck:
        mine.append(deck.pop(0))
    for seat in _seat_order(view):
        if _greedy_turn(sim, seat % sim.teams, hands[seat], deck):
            return WIN_NEXT if seat % sim.teams == team else -LOSS
    return WIN_NEXT if _can_win(sim, team, mine) else 0.0


def _settle(board: Board, cell: int, team: int) -> bool:
    """Lock what the chip on `cell` completes (the first five per line, or both ends of a
    line of nine); whether that wins."""
    for runs in board.full_runs(cell, team):
        board.lock(runs[0], team)
        if _nine(runs):
            board.lock(runs[-1], team)
    return len(board.sequences[team]) >= board.to_win


def _greedy_turn(board: Board, team: int, hand: list[int], deck: list[int]) -> bool:
    """One turn of a seat by the normal evaluation, trading a dead card first; whether it won."""
    for i, card in enumerate(hand):
        if dead(board, card) and deck:
            hand[i] = deck.pop(0)
            break
    best, best_card, best_cell = -WIN * 10, -1, -1
    for card in set(hand):
        for cell in targets(board, card, team):
            value = move_value(board, card, cell, team, OTHERS, hand)
            if value > best:
                best, best_card, best_cell = value, card, cell
    if best_card < 0:
        return False
    hand.remove(best_card)
    if KIND[best_card] == "minus":
        board.remove(best_cell)
    else:
        board.place(best_cell, team)
        if _settle(board, best_cell, team):
            return True
    if deck:
        hand.append(deck.pop(0))
    return False


def _can_win(board: Board, team: int, hand: list[int]) -> bool:
    """Whether a card in `hand` completes what the team still needs to win."""
    needed = board.to_win - len(board.sequences[team])
    for card in set(hand):
        if KIND[card] == "minus":
            continue
        for cell in targets(board, card, team):
            board.place(cell, team)
            made = _made(board.full_runs(cell, team))
            board.remove(cell)
            if made >= needed:
                return True
    return False
