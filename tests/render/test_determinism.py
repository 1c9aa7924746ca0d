"""Every game draws the same pixels for the same view in any process: whatever Python's
string hashing (`PYTHONHASHSEED`) and whatever was drawn before in the process."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from locales import LANGUAGES
from tests.registry import HOSTED
from tests.render.golden import pixels

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ("0", "1", "12345")


def states(game: str, seed: int = 7) -> list[Any]:
    """The start, a middle and the end of a seeded random game of `game`."""
    spec = HOSTED[game]
    engine = spec.engine
    state = engine.new_game(3 if 3 in spec.player_counts else 2, seed)
    rng = random.Random(seed)
    seen = [state]
    while seats := engine.current_seats(state):
        state = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))
        seen.append(state)
    return [seen[0], seen[len(seen) // 2], seen[-1]]


def pictures(game: str) -> dict[str, Callable[[], bytes]]:
    """The pictures of `game` compared: the spectator's board at the start, in the middle
    (in every language) and at the end, and in the middle seat A's own board (and hand)."""
    engine = HOSTED[game].engine
    module = importlib.import_module(f"render.{game}")
    start, middle, end = states(game)
    made: dict[str, Callable[[], bytes]] = {
        "start": lambda: module.render(engine.view(start, None)),
        "end": lambda: module.render(engine.view(end, None)),
        "middle, seat A": lambda: module.render(engine.view(middle, 0), viewer=0),
    }
    for lang in LANGUAGES:
        made[f"middle, {lang}"] = lambda lang=lang: module.render(engine.view(middle, None), lang=lang)
    if hasattr(module, "render_hand"):  # a game that draws a seat's own hand apart
        made["middle, seat A's hand"] = lambda: module.render_hand(engine.view(middle, 0))
    return made


def digests() -> dict[str, str]:
    """The sha256 of the decoded pixels (and the size) of every picture of every game."""
    found = {}
    for game in HOSTED:
        for name, make in pictures(game).items():
            size, digest = pixels(make())
            found[f"{game}: {name}"] = f"{size} {digest}"
    return found


def test_every_game_draws_the_same_pixels_whatever_the_hash_seed_and_the_process():
    code = "import json, tests.render.test_determinism as t; print(json.dumps(t.digests()))"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed in SEEDS
    ]
    here = digests()
    assert {name.split(":")[0] for name in here} == set(HOSTED)
    assert len(here) >= len(HOSTED) * (3 + len(LANGUAGES))
    for seed, run in zip(SEEDS, runs, strict=True):
        out, _ = run.communicate(timeout=600)
        assert run.returncode == 0, f"PYTHONHASHSEED={seed}: the renders failed"
        assert json.loads(out) == here, f"PYTHONHASHSEED={seed}"
