"""The feats a match's move log shows (games/feats/): each found where it happened, for the seat
that did it, and nowhere else. Matches are played through the engines' real moves, scripted
or seeded; a seeded feat is checked against a plain reading of the views."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from games.feats import FeatsBySeat, Logged
from games.feats import rookie as rookie_feats
from games.feats import sequence_numbers as sequence_feats
from games.feats import tetris_link as tetris_link_feats
from games.feats import tremember as tremember_feats
from games.feats import triominos as triominos_feats
from games.rookie import ENGINE as ROOKIE
from games.sequence_numbers import ENGINE as SEQUENCE_NUMBERS
from games.tetris_link import ENGINE as TETRIS_LINK
from games.tremember import ENGINE as TREMEMBER
from games.tremember import JOKERS, motif_of
from games.triominos import ENGINE as TRIOMINOS

Chooser = Callable[[Any, Any, int, list[Any], random.Random], Any]
"""`choose(engine, state, seat, legal, rng)`: a test player's move."""


class Played:
    """A match played move by move, keeping the spectator views and the log the bot would store."""

    def __init__(self, engine: Any, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
        self.engine = engine
        self.state = engine.new_game(players, seed, options or {})
        self.views = [engine.view(self.state, None)]
        self.log: list[Logged] = []

    @property
    def seat(self) -> int:
        return int(self.engine.current_seats(self.state)[0])

    @property
    def over(self) -> bool:
        return not self.engine.current_seats(self.state)

    def do(self, move: Any) -> None:
        seat = self.seat
        self.log.append((len(self.log), seat, move))
        self.state = self.engine.apply(self.state, seat, move)
        self.views.append(self.engine.view(self.state, None))

    def resign(self, seat: int) -> None:
        self.log.append((len(self.log), seat, {"type": "resign"}))
        self.state = self.engine.resign(self.state, seat)
        self.views.append(self.engine.view(self.state, None))

    def finish(self, rng: random.Random, choose: Chooser | None = None) -> None:
        while not self.over:
            legal = self.engine.legal_moves(self.state, self.seat)
            self.do(choose(self.engine, self.state, self.seat, legal, rng) if choose else rng.choice(legal))

    def feats(self, reader: Callable[[Sequence[Any], Sequence[Logged]], FeatsBySeat]) -> FeatsBySeat:
        return reader(self.views, self.log)


def has(found: FeatsBySeat, seat: int, key: str) -> bool:
    return key in found.get(seat, frozenset())


# --- Tremember: scripted turns ------------------------------------------------------------


def tremember_turn(match: Played, *, pair: bool, motif: str | None = None) -> None:
    """The seat to move takes a card, pushes it back and turns a pair (of `motif`, or of any
    picture) or two cards that differ."""
    match.do(match.engine.legal_moves(match.state, match.seat)[0])
    match.do(match.engine.legal_moves(match.state, match.seat)[0])
    board = match.views[-1]["board"]
    down = [r * 6 + c for r, line in enumerate(board) for c, shown in enumerate(line) if shown is None]
    motifs = {cell: motif_of(match.state.grid[cell]) for cell in down}
    if pair:
        wanted = [motif] if motif else [m for m in motifs.values() if m not in JOKERS]
        a = next(cell for cell in down if motifs[cell] in wanted)
        b = next(cell for cell in down if cell != a and motifs[cell] == motifs[a])
    else:
        a = down[0]
        b = next(cell for cell in down if motifs[cell] != motifs[a])
    for cell in (a, b):
        match.do({"type": "flip", "cell": list(divmod(cell, 6))})


def test_three_pairs_in_a_row_is_three_turns_each_finding_a_pair() -> None:
    match = Played(TREMEMBER, 2, seed=3)
    finder = match.seat
    for _ in range(3):
        tremember_turn(match, pair=True)
    assert match.seat == finder  # a pair earns another turn: three turns, three pairs
    assert has(match.feats(tremember_feats.feats), finder, tremember_feats.THREE_IN_A_ROW)


def test_a_miss_between_the_pairs_breaks_the_run() -> None:
    match = Played(TREMEMBER, 2, seed=3)
    finder = match.seat
    tremember_turn(match, pair=True)
    tremember_turn(match, pair=True)
    tremember_turn(match, pair=False)
    tremember_turn(match, pair=False)  # the other seat misses too
    tremember_turn(match, pair=True)
    assert match.seat == finder
    found = match.feats(tremember_feats.feats)
    assert not any(has(found, seat, tremember_feats.THREE_IN_A_ROW) for seat in (0, 1))


def test_a_joker_pair_and_both_joker_pairs() -> None:
    match = Played(TREMEMBER, 3, seed=5)
    finder = match.seat
    tremember_turn(match, pair=True)
    assert match.feats(tremember_feats.feats) == {}
    tremember_turn(match, pair=True, motif=JOKERS[0])
    found = match.feats(tremember_feats.feats)
    assert has(found, finder, tremember_feats.JOKER_PAIR)
    assert not has(found, finder, tremember_feats.BOTH_JOKERS)
    tremember_turn(match, pair=True, motif=JOKERS[1])
    assert has(match.feats(tremember_feats.feats), finder, tremember_feats.BOTH_JOKERS)


def test_nine_pairs_in_a_match_and_not_eight() -> None:
    match = Played(TREMEMBER, 2, seed=8)
    finder = match.seat
    for _ in range(8):
        tremember_turn(match, pair=True)
    assert not has(match.feats(tremember_feats.feats), finder, tremember_feats.NINE_PAIRS)
    tremember_turn(match, pair=True)
    assert has(match.feats(tremember_feats.feats), finder, tremember_feats.NINE_PAIRS)


# --- Tetris Link: a scripted link and seeded towers ---------------------------------------


def vertical_i(match: Played, column: int) -> dict[str, Any]:
    """The move that drops an I piece upright into `column`."""
    for move in match.engine.legal_moves(match.state, match.seat):
        if move["shape"] == "I" and move["column"] == column and move["rotation"] % 2 == 1:
            return dict(move)
    raise AssertionError(f"no upright I piece fits column {column + 1}")


def test_linking_two_groups_of_two_with_one_piece_is_a_master_link() -> None:
    match = Played(TETRIS_LINK, 2, seed=1, options={"dice": False})
    linker = match.seat
    for mine in (0, 1, 3, 4):
        match.do(vertical_i(match, mine))
        match.do(vertical_i(match, 9))  # the other seat stacks its pieces aside
    assert not has(match.feats(tetris_link_feats.feats), linker, tetris_link_feats.BIG_LINK)
    match.do(vertical_i(match, 2))  # column 3 joins the two pairs: five pieces score at once
    assert match.views[-1]["last_event"]["gained"] == 5
    assert has(match.feats(tetris_link_feats.feats), linker, tetris_link_feats.BIG_LINK)


def tetris_builder(engine: Any, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """Seat 0 links greedily and avoids gaps; the others play at random."""
    if seat != 0:
        return rng.choice(legal)

    def worth(move: Any) -> tuple[int, int]:
        event = engine.view(engine.apply(state, seat, move), None)["last_event"]
        return -event["gap_penalty"], event["group"]

    rng.shuffle(legal)
    return max(legal, key=worth)


def tetris_witnesses(views: Sequence[Any], log: Sequence[Logged], seat: int) -> dict[str, bool]:
    mine = [after["last_move"] for (_, mover, _), after in zip(log, views[1:], strict=True) if mover == seat]
    final = views[-1]
    return {
        tetris_link_feats.GROUP_12: final["largest_group"][seat] >= 12,
        tetris_link_feats.CLEAN_TOWER: final["winners"] is not None
        and seat not in final["resigned"]
        and 25 - sum(final["pieces_left"][seat].values()) >= 15
        and all(move["gap_penalty"] == 0 for move in mine),
    }


@pytest.mark.parametrize("key", [tetris_link_feats.GROUP_12, tetris_link_feats.CLEAN_TOWER])
def test_tetris_link_feats_agree_with_the_towers(key: str) -> None:
    seen = set()
    for seed in range(8):
        match = Played(TETRIS_LINK, 2, seed, {"dice": seed % 2 == 0})
        match.finish(random.Random(seed), tetris_builder)
        found = match.feats(tetris_link_feats.feats)
        for seat in (0, 1):
            happened = tetris_witnesses(match.views, match.log, seat)[key]
            assert has(found, seat, key) == happened, (seed, seat)
            seen.add(happened)
    assert seen == {True, False}


# --- seeded matches of the other games, checked against the views -----------------------


def rookie_witness(key: str, views: Sequence[Any], log: Sequence[Logged], seat: int) -> bool:
    kinds = [[event["type"] for event in after["events"]] for after in views[1:]]
    mine = [kind for (_, mover, _), kind in zip(log, kinds, strict=True) if mover == seat]
    if key == rookie_feats.SECURE_THREE:
        return sum(kind.count("secure") for kind in mine) >= 3
    if key == rookie_feats.ROOKIE:
        return any("rookie" in kind for kind in mine)
    if key == rookie_feats.LAST_PAIR:
        return views[-1]["last_event"]["type"] == "collect" and log[-1][1] == seat
    turns: list[int] = [0]
    for (_, mover, _), kind in zip(log, kinds, strict=True):
        if mover != seat or {"miss", "open", "resign"} & set(kind):
            turns.append(0)
        if mover == seat:
            turns[-1] += kind.count("pair")
    return max(turns) >= 5


def triominos_witness(key: str, views: Sequence[Any], log: Sequence[Logged], seat: int) -> bool:
    events = [
        after["last_event"] for (_, mover, _), after in zip(log, views[1:], strict=True) if mover == seat
    ]
    if key == triominos_feats.JOKER_BACK:
        return any(event["type"] == "take_joker" for event in events)
    places = [event for event in events if event["type"] == "place"]
    if key == triominos_feats.TWO_HEXAGONS:
        return any(event["hexagons"] > 1 for event in places)
    return any(1 + event["hexagons"] + event["bridge"] + event["last_card"] > 3 for event in places)


def sequence_witness(key: str, views: Sequence[Any], log: Sequence[Logged], seat: int) -> bool:
    team = sequence_feats.team_of(views[0], seat)
    winners = views[-1]["winners"] or []
    if key == sequence_feats.SHUTOUT:
        final = views[-1]
        return (
            seat in winners
            and final["sequences_to_win"] == 2
            and sum(final["sequences"]) == final["sequences"][team]
        )
    if key == sequence_feats.PLUS_WIN:
        last = views[-1]["last_event"]
        return seat in winners and log[-1][1] == seat and last["card"]["kind"] == "plus"
    if key == sequence_feats.DOUBLE:
        return any(
            after["sequences"][team] - before["sequences"][team] >= 2 and mover == seat
            for (_, mover, _), before, after in zip(log, views, views[1:], strict=False)
        )
    minus_plays = [
        (before, after["last_event"])
        for (_, mover, _), before, after in zip(log, views, views[1:], strict=False)
        if mover == seat and after["last_event"]["type"] == "remove"
    ]
    return seat in winners and any(
        sequence_feats.breaks_a_four(before, event) for before, event in minus_plays
    )


def greedy_triominos(engine: Any, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """Seat 0 plays the card that completes most hexagons; the others play at random."""
    if seat != 0:
        return rng.choice(legal)

    def worth(move: Any) -> tuple[bool, int, bool]:
        event = engine.view(engine.apply(state, seat, move), None)["last_event"]
        return event["type"] == "place", event.get("hexagons", 0), event.get("bridge", False)

    rng.shuffle(legal)
    return max(legal, key=worth)


SEEDED = [
    (ROOKIE, rookie_feats, 2, key, rookie_witness, None)
    for key in (
        rookie_feats.SECURE_THREE,
        rookie_feats.ROOKIE,
        rookie_feats.FIVE_PAIRS,
        rookie_feats.LAST_PAIR,
    )
] + [
    (TRIOMINOS, triominos_feats, 2, key, triominos_witness, greedy_triominos)
    for key in (triominos_feats.TWO_HEXAGONS, triominos_feats.FOUR_TOKENS, triominos_feats.JOKER_BACK)
]
SEEDED += [
    (SEQUENCE_NUMBERS, sequence_feats, players, key, sequence_witness, None)
    for players, key in (
        (2, sequence_feats.DOUBLE),
        (2, sequence_feats.PLUS_WIN),
        (4, sequence_feats.MINUS_WIN),
        (4, sequence_feats.SHUTOUT),
    )
]


@pytest.mark.parametrize(
    ("engine", "module", "players", "key", "witness", "choose"),
    SEEDED,
    ids=[case[3] for case in SEEDED],
)
def test_seeded_feats_are_found_exactly_where_they_happen(
    engine: Any, module: Any, players: int, key: str, witness: Any, choose: Chooser | None
) -> None:
    seen = set()
    for seed in range(20):
        match = Played(engine, players, seed)
        match.finish(random.Random(seed), choose)
        found = match.feats(module.feats)
        for seat in range(players):
            happened = witness(key, match.views, match.log, seat)
            assert has(found, seat, key) == happened, (seed, seat)
            seen.add(happened)
    assert seen == {True, False}, f"20 seeded matches show {key} {'always' if True in seen else 'never'}"


def test_a_team_match_won_by_resignations_is_no_clean_sheet() -> None:
    match = Played(SEQUENCE_NUMBERS, 4, seed=2)
    losers = match.views[0]["teams"][1]
    for seat in losers:
        match.resign(seat)
    assert match.over and match.views[-1]["winners"] == match.views[0]["teams"][0]
    assert match.feats(sequence_feats.feats) == {}


def sequence_board(chips: dict[tuple[int, int], int]) -> list[list[dict[str, Any]]]:
    """A Sequence Numbers board as views show it, with `chips` by (row, column) -> team."""
    corners = {(0, 0), (0, 9), (9, 0), (9, 9)}
    return [
        [
            {"number": None if (r, c) in corners else 1, "chip": chips.get((r, c)), "locked": False}
            for c in range(10)
        ]
        for r in range(10)
    ]


@pytest.mark.parametrize(
    ("chips", "breaks"),
    [
        ({(4, 2): 1, (4, 3): 1, (4, 4): 1, (4, 5): 1}, True),  # four in a row, an empty cell at an end
        ({(2, 4): 1, (3, 4): 1, (4, 4): 1, (6, 4): 1}, True),  # four of five in a column, a hole between
        ({(1, 1): 1, (2, 2): 1, (4, 4): 1}, True),  # the free corner A1 is the diagonal's fourth chip
        ({(4, 3): 1, (4, 4): 1, (4, 5): 1}, False),  # three: two chips short
        ({(4, 1): 0, (4, 2): 1, (4, 3): 1, (4, 4): 1, (4, 5): 1, (4, 6): 0}, False),  # blocked at both ends
    ],
)
def test_a_minus_card_breaks_a_line_only_when_it_was_one_chip_short(chips: Any, breaks: bool) -> None:
    before = {"board": sequence_board(chips)}
    assert sequence_feats.breaks_a_four(before, {"row": 4, "col": 4, "team": 1}) is breaks


def test_views_and_log_must_frame_each_other() -> None:
    match = Played(TREMEMBER, 2, seed=1)
    tremember_turn(match, pair=True)
    with pytest.raises(ValueError, match="one more view"):
        tremember_feats.feats(match.views[1:], match.log)
