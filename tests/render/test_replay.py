"""Animated replays (render/replay.py): one captioned frame per public view kept (a long
match condensed to its scoring moves, its end and an even sample), on one canvas, under
Discord's upload limit, drawn from spectator views only."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import replay as replay_module
from render.replay import (
    HOLD_MS,
    MAX_BYTES,
    MAX_FRAMES,
    MOVE_MS,
    START_MS,
    Replay,
    caption_text,
    keyframes,
    replay,
)
from tests.registry import ENGINES, HOSTED, TWINS

BOARDS = {name: spec.board for name, spec in HOSTED.items()}
# The longest of twelve seeded random matches of each game at 2, 4 or the most seats
# (moves: Tremember 1976, Rookie 609, Sequence Numbers 104, Triominos 58, Tetris Link 31).
LONGEST = {
    "tremember": (2, 0),
    "tetris_link": (2, 2),
    "rookie": (2, 6),
    "triominos": (2, 0),
    "sequence_numbers": (6, 1),
}


def playout(name: str, players: int, seed: int) -> Iterator[Any]:
    """Every state of one seeded random match, from the start to the end."""
    engine = ENGINES[name]
    state = engine.new_game(players, seed)
    rng = random.Random(seed)
    yield state
    while seats := engine.current_seats(state):
        seat = rng.choice(seats)
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        yield state


def spectator_views(name: str, players: int = 2, seed: int = 1, moves: int | None = None) -> list[dict]:
    engine = ENGINES[name]
    states = list(playout(name, players, seed))
    return [engine.view(state, None) for state in states[: None if moves is None else moves + 1]]


def frames(made: Replay) -> list[Image.Image]:
    image = Image.open(io.BytesIO(made.data))
    decoded = []
    for index in range(image.n_frames):
        image.seek(index)
        decoded.append(image.convert("RGB"))
    return decoded


def durations(made: Replay) -> list[int]:
    image = Image.open(io.BytesIO(made.data))
    shown = []
    for index in range(image.n_frames):
        image.seek(index)
        image.load()
        shown.append(image.info["duration"])
    return shown


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_replay_is_a_looping_animated_webp_with_one_frame_per_view(name):
    views = spectator_views(name, moves=8)
    made = replay(BOARDS[name], views, title="Match #7")
    image = Image.open(io.BytesIO(made.data))
    assert (image.format, made.filename) == ("WEBP", "replay.webp")
    assert image.is_animated
    assert image.n_frames == made.frames == len(views) == 9
    assert image.size == made.size
    assert image.info["loop"] == 0
    assert durations(made) == [START_MS, *[MOVE_MS] * 7, HOLD_MS]


@pytest.mark.parametrize("name", list(ENGINES))
def test_consecutive_frames_differ_so_no_move_is_merged_away(name):
    views = spectator_views(name, moves=8)
    shown = frames(replay(BOARDS[name], views, title="Match #7"))
    for before, after in itertools.pairwise(shown):
        assert ImageChops.difference(before, after).getbbox() is not None


def test_even_a_move_that_changes_nothing_on_the_board_gets_its_frame():
    view = spectator_views("tetris_link", moves=0)[0]
    made = replay(BOARDS["tetris_link"], [view, view, view], title="Match #7")
    assert Image.open(io.BytesIO(made.data)).n_frames == 3


@pytest.mark.parametrize("name", list(ENGINES))
def test_each_frame_shows_the_board_of_its_view_under_the_caption(name):
    views = spectator_views(name, moves=6)
    shown = frames(replay(BOARDS[name], views, title="Match #7"))
    for view, frame in zip(views, shown, strict=True):
        board = BOARDS[name](view).convert("RGB")
        left, top = (frame.width - board.width) // 2, frame.height - max_board_height(name, views)
        seen = frame.crop((left, top, left + board.width, top + board.height))
        assert far_off_share(seen, board) < 0.001  # the palette moves colours by a few levels at most


def max_board_height(name: str, views: list[dict]) -> int:
    return max(BOARDS[name](view).height for view in views)


def far_off_share(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels where some channel differs by more than 32 levels."""
    difference = ImageChops.difference(a, b)
    far = [band.point(lambda level: 255 if level > 32 else 0) for band in difference.split()]
    mask = ImageChops.lighter(ImageChops.lighter(far[0], far[1]), far[2])
    return mask.histogram()[255] / (a.width * a.height)


def test_the_caption_counts_the_moves_from_the_start_to_the_end():
    assert [caption_text(move, 3) for move in range(4)] == [
        "start · 3 moves",
        "move 1/3",
        "move 2/3",
        "move 3/3 · end",
    ]
    assert caption_text(153, 372) == "move 153/372"
    assert caption_text(0, 1) == "start · 1 move"


def test_a_growing_triominos_table_shares_one_canvas_the_size_of_the_largest_board():
    views = spectator_views("triominos", players=2, seed=6)
    boards = [BOARDS["triominos"](view) for view in views]
    assert len({board.size for board in boards}) > 1
    made = replay(BOARDS["triominos"], views, title="Match #7")
    assert made.size[0] == max(board.width for board in boards)
    assert made.size[1] > max(board.height for board in boards)
    assert {frame.size for frame in frames(made)} == {made.size}


@pytest.mark.parametrize("name", list(ENGINES))
def test_the_longest_seeded_match_fits_discord_s_upload_limit_in_at_most_120_frames(name):
    players, seed = LONGEST[name]
    views = spectator_views(name, players, seed)
    made = replay(BOARDS[name], views, title=f"{ENGINES[name].title} #12345 · a long title of player names")
    assert len(made.data) <= MAX_BYTES
    assert Image.open(io.BytesIO(made.data)).n_frames == made.frames == min(len(views), MAX_FRAMES)
    assert made.moves == len(views) - 1


def scoring_moves(views: list[dict]) -> list[int]:
    return [move for move in range(1, len(views)) if views[move]["scores"] != views[move - 1]["scores"]]


@pytest.mark.parametrize(("name", "players", "seed"), [("tremember", 2, 0), ("rookie", 2, 6)])
def test_a_long_match_keeps_its_start_its_end_every_scoring_move_and_an_even_sample(name, players, seed):
    views = spectator_views(name, players, seed)
    last = len(views) - 1
    kept = keyframes(views)
    assert len(kept) == MAX_FRAMES < len(views)
    assert kept == sorted(set(kept)) and kept[0] == 0 and kept[-1] == last
    assert set(scoring_moves(views)) <= set(kept)
    gaps = [b - a for a, b in itertools.pairwise(kept)]
    assert max(gaps) <= 2 * last / MAX_FRAMES  # no long stretch left out


def test_when_the_scoring_moves_alone_are_too_many_they_are_sampled_evenly_too():
    views = spectator_views("triominos", 2, 0)  # nearly every move scores
    scoring = scoring_moves(views)
    kept = keyframes(views, limit=20)
    assert len(scoring) > 20 and len(kept) == 20
    assert kept[0] == 0 and kept[-1] == len(views) - 1 and set(kept[1:-1]) <= set(scoring)


def test_a_condensed_replay_shows_each_kept_move_as_the_full_replay_does_with_its_real_number():
    views = spectator_views("sequence_numbers", 6, 1)  # 104 moves: the full replay is not shrunk
    full = frames(replay(BOARDS["sequence_numbers"], views, title="Match #7"))
    made = replay(BOARDS["sequence_numbers"], views, title="Match #7", limit=30)
    condensed = frames(made)
    kept = keyframes(views, limit=30)
    assert (made.frames, made.moves, len(condensed)) == (30, len(views) - 1, 30)
    assert kept[-1] == len(views) - 1  # the last move, its caption "move 104/104 · end"
    for frame, move in zip(condensed, kept, strict=True):
        assert far_off_share(frame, full[move]) < 0.001  # the caption names the real move
    assert durations(made) == [START_MS, *[MOVE_MS] * 28, HOLD_MS]


def test_a_replay_over_the_limit_is_made_again_with_smaller_frames(monkeypatch):
    views = spectator_views("sequence_numbers", moves=20)
    full = replay(BOARDS["sequence_numbers"], views, title="Match #7")
    monkeypatch.setattr(replay_module, "MAX_BYTES", len(full.data) // 3)
    smaller = replay(BOARDS["sequence_numbers"], views, title="Match #7")
    assert len(smaller.data) <= len(full.data) // 3
    assert smaller.size[0] < full.size[0]
    assert Image.open(io.BytesIO(smaller.data)).n_frames == len(views)


def test_a_long_match_shrinks_its_frames_to_keep_them_in_memory(monkeypatch):
    views = spectator_views("rookie", moves=20)
    full = replay(BOARDS["rookie"], views, title="Match #7")
    monkeypatch.setattr(replay_module, "PIXEL_BUDGET", len(views) * full.size[0] * full.size[1] // 4)
    shrunk = replay(BOARDS["rookie"], views, title="Match #7")
    assert full.size[0] * 0.45 <= shrunk.size[0] <= full.size[0] * 0.55  # a quarter of the pixels
    assert Image.open(io.BytesIO(shrunk.data)).n_frames == len(views)


@pytest.mark.parametrize("name", list(ENGINES))
def test_hidden_twins_give_the_same_replay_bytes(name):
    """States that differ only in what no spectator sees (hands, the deck, rolls to come)
    give the same spectator views, so the same replay: nothing hidden can reach one."""
    engine = ENGINES[name]
    states = list(playout(name, 3 if engine.max_players >= 3 else 2, 5))[:13]
    rng = random.Random(3)
    twins = [TWINS[name](state, None, rng) for state in states]
    assert any(engine.dump(a) != engine.dump(b) for a, b in zip(states, twins, strict=True))
    made = replay(BOARDS[name], [engine.view(state, None) for state in states], title="Match #7")
    twin = replay(BOARDS[name], [engine.view(state, None) for state in twins], title="Match #7")
    assert made.data == twin.data


def test_one_view_makes_a_still_image():
    made = replay(BOARDS["rookie"], spectator_views("rookie", moves=0), title="Match #7")
    image = Image.open(io.BytesIO(made.data))
    assert (image.format, made.frames, getattr(image, "n_frames", 1)) == ("WEBP", 1, 1)


def test_a_replay_without_views_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="at least one view"):
        replay(BOARDS["rookie"], [], title="Match #7")
