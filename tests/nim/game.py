"""Nim, a sixth game that lives only in the tests: two players take 1–3 stones in turn from
one heap; whoever takes the last stone wins. Engine, computer player, renderer, presentation
and spec in one module, registered through its spec alone."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from PIL import Image, ImageDraw

from cogs.game import GameCog, Level, new_command
from games import base
from games.base import GameError, IllegalMove, Outcome
from locales import gettext
from matches.presentation import Choice, Form, Option
from matches.spec import GameSpec
from render.common import BACKGROUND, HIGHLIGHT, to_png

HEAP = 11
Move = dict[str, Any]


@dataclass(frozen=True, slots=True)
class NimState:
    heap: int
    to_move: int | None
    event: dict[str, Any]  # the last move's: type, seat, count
    resigned: tuple[int, ...] = ()


class NimEngine:
    name, title, min_players, max_players = "nim", "Nim", 2, 2

    def new_game(self, players: int, seed: int, options: Any = None) -> NimState:
        base.check_players(self, players)
        first = base.first_seat(seed, players)
        return NimState(HEAP, first, {"type": "start", "seat": first, "count": 0})

    def current_seats(self, state: NimState) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    def legal_moves(self, state: NimState, seat: int) -> list[Move]:
        return (
            [{"type": "take", "count": n} for n in range(1, min(3, state.heap) + 1)]
            if seat == state.to_move
            else []
        )

    def apply(self, state: NimState, seat: int, move: Move) -> NimState:
        base.check_seat(self.current_seats(state), seat)
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("Take one, two or three stones.")
        heap = state.heap - move["count"]
        return replace(state, heap=heap, to_move=1 - seat if heap else None, event={**move, "seat": seat})

    def timeout_move(self, state: NimState, seat: int) -> Move:
        return {"type": "take", "count": 1}

    def reveals(self, state: NimState, seat: int, move: Move, after: NimState) -> bool:
        """Nim has no secrets."""
        return False

    def resign(self, state: NimState, seat: int) -> NimState:
        if state.to_move is None:
            raise GameError("The game is already over.")
        return replace(
            state, to_move=None, resigned=(seat,), event={"type": "resign", "seat": seat, "count": 0}
        )

    def outcome(self, state: NimState) -> Outcome | None:
        if state.to_move is not None:
            return None
        winner = 1 - state.resigned[0] if state.resigned else state.event["seat"]
        return Outcome(scores=tuple(int(seat == winner) for seat in range(2)), winners=(winner,))

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        done = self.outcome(state)
        scores, to_move = done.scores if done else (0, 0), self.current_seats(state)
        common = base.common_view(
            players=2,
            to_move=to_move,
            scores=scores,
            last_event=state.event,
            outcome=done,
            resigned=state.resigned,
        )
        return {**common, "heap": state.heap}

    def dump(self, state: NimState) -> str:
        return json.dumps(asdict(state), sort_keys=True)

    def load(self, text: str) -> NimState:
        def build(data: Any) -> NimState:
            if data["to_move"] not in (None, 0, 1):
                raise ValueError("no such seat")
            resigned = tuple(int(seat) for seat in data["resigned"])
            return NimState(int(data["heap"]), data["to_move"], dict(data["event"]), resigned)

        return base.load_json(text, build, self.title)


ENGINE = NimEngine()


def choose(level: str, views: Sequence[Any], legal: list[Move], rng: random.Random) -> Move:
    """Leave a multiple of four stones when it can (not at easy); else any move."""
    best = [move for move in legal if (views[-1]["heap"] - move["count"]) % 4 == 0]
    return best[0] if best and level != "easy" else rng.choice(legal)


def board_image(view: dict[str, Any], viewer: int | None = None, lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (24 * HEAP + 8, 32), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for stone in range(view["heap"]):
        draw.ellipse((8 + 24 * stone, 8, 24 + 24 * stone, 24), fill=HIGHLIGHT)
    return image


def render(view: dict[str, Any], *, lang: str = "en") -> bytes:
    return to_png(board_image(view, lang=lang))


def narrate(view: dict[str, Any], name: Callable[[int], str], lang: str) -> list[str]:
    event = view["last_event"]
    if event["type"] != "take":
        return []
    return [gettext(lang, "{player} took {count}.", player=name(event["seat"]), count=event["count"])]


class Nim(GameCog, group_name="nim", group_description=locale_str("Play Nim")):
    @new_command(locale_str("Open a Nim lobby (2 players)"))
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        computers: app_commands.Range[int, 0, 1] = 0,
        level: Level = "normal",
    ) -> None:
        await self.open_lobby(interaction, {}, clock, computers, level)

    def present(
        self, view: dict, legal: list[dict], path: tuple[int, ...], *, private: bool, lang: str
    ) -> Form:
        options = tuple(Option(f"Take {move['count']}", move=move) for move in legal)
        return Form() if private or not legal else Form((Choice("Take", options),))


def rules(lang: str) -> str:
    return "Take one, two or three stones in turn; whoever takes the last stone wins."


SPEC = GameSpec(ENGINE, render, board_image, narrate, presentation=Nim, rules=rules, choose=choose)


def hidden_twin(state: NimState, seat: int | None, rng: random.Random) -> NimState:
    """Nim hides nothing: a state's only twin is itself."""
    return state
