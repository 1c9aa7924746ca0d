"""Replays: a finished match's move log played again into public views and drawn as one
animated image. A running match has none: it would tell secrets.

Replays are heavy, so they are bounded and shared fairly (`Workshop`): each is made once
per match and language and kept, by one worker thread of its own (board images, drawn in
the loop's default pool, never wait behind one); presses for a replay being made share
that production; a member may start `RATE_TIMES` productions per `RATE_SECONDS` (a replay
already made is free), and at most `MAX_WAITING` productions wait at a time."""

from __future__ import annotations

import asyncio
import io
import logging
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord

from data.repositories import Database
from games import GameError
from games.replay import replay_states
from locales import command, gettext, ngettext
from locales.audience import private_language, public_language
from matches.game_ui import AnyGameUI
from matches.match import alt_text, error_text, match_title, standing, tell
from matches.spec import AnyGameSpec
from render.replay import replay

log = logging.getLogger(__name__)
FINISHED = ("finished", "abandoned")
CACHE_BYTES = 64 * 2**20  # replays kept in memory, the least recently shown dropped first
RATE_TIMES, RATE_SECONDS = 3, 60.0  # new productions a member may start in that many seconds
MAX_WAITING = 8  # productions being made or waiting for the worker, from all members


@dataclass(frozen=True, slots=True)
class MadeReplay:
    """A replay ready to send: the file's bytes and name, and its description."""

    data: bytes
    filename: str
    description: str

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename, description=self.description)


@dataclass(frozen=True, slots=True)
class ReplayJob:
    """What a replay is made from: the game's spec (its engine and board image) and plain
    values, so the worker needs nothing of the bot."""

    game: AnyGameSpec
    match_id: int
    players: int
    seed: int
    options: Mapping[str, Any]
    log: list[tuple[int, int, dict[str, Any]]]
    lang: str


class RateLimited(Exception):
    """The member started too many productions lately; `wait` is the seconds until the next."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"Too many replays: the next in {wait:.0f} s.")
        self.wait = wait


class Busy(Exception):
    """Too many productions are waiting for the worker already."""


class RateLimit:
    """At most `times` events per member in any `per` seconds of `clock` (`time.monotonic`,
    looked up at each call, by default)."""

    def __init__(self, times: int, per: float, clock: Callable[[], float] | None = None) -> None:
        self.times, self.per = times, per
        self.clock = clock or (lambda: time.monotonic())
        self.recent: dict[int, deque[float]] = {}

    def wait(self, member: int) -> float:
        """The seconds until `member` may start another (0: now)."""
        now = self.clock()
        self._forget(now)
        recent = self.recent.get(member)
        return 0.0 if recent is None or len(recent) < self.times else recent[0] + self.per - now

    def take(self, member: int) -> None:
        self.recent.setdefault(member, deque()).append(self.clock())

    def _forget(self, now: float) -> None:
        """Drop the events older than the window, and members with none left."""
        for member in list(self.recent):
            recent = self.recent[member]
            while recent and recent[0] <= now - self.per:
                recent.popleft()
            if not recent:
                del self.recent[member]


class Workshop:
    """Makes replays in one worker thread, keeps the recent ones (an LRU of `capacity` bytes)
    and shares a production between everyone who asks for it while it is made."""

    def __init__(
        self,
        *,
        capacity: int = CACHE_BYTES,
        limit: RateLimit | None = None,
        max_waiting: int = MAX_WAITING,
        produce: Callable[[ReplayJob], MadeReplay] | None = None,
    ) -> None:
        self.capacity, self.max_waiting = capacity, max_waiting
        self.limit = limit or RateLimit(RATE_TIMES, RATE_SECONDS)
        self.produce = produce or make_replay
        self.kept: OrderedDict[Hashable, MadeReplay] = OrderedDict()
        self.making: dict[Hashable, asyncio.Task[MadeReplay]] = {}
        self.produced = 0  # productions finished: a replay asked for again is not among them
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")

    def ready(self, key: Hashable) -> bool:
        """Whether the replay `key` is kept or being made: asking for it costs nothing."""
        return key in self.kept or key in self.making

    async def get(self, key: Hashable, job: ReplayJob, member: int) -> MadeReplay:
        """The replay `key`: kept, being made, or made now for `member`.

        Raises `RateLimited` or `Busy` when a new production may not start; the error of
        the production (a `GameError` for a damaged log) otherwise."""
        if (made := self.kept.get(key)) is not None:
            self.kept.move_to_end(key)
            return made
        task = self.making.get(key)
        if task is None:
            self.may_start(member)
            self.limit.take(member)
            task = self.making[key] = asyncio.create_task(self._make(key, job))
        return await asyncio.shield(task)  # one asker giving up stops nobody else's

    def may_start(self, member: int) -> None:
        """Raise `RateLimited` or `Busy` if `member` may not start a new production now."""
        if (wait := self.limit.wait(member)) > 0:
            raise RateLimited(wait)
        if len(self.making) >= self.max_waiting:
            raise Busy()

    async def _make(self, key: Hashable, job: ReplayJob) -> MadeReplay:
        try:
            made = await asyncio.get_running_loop().run_in_executor(self.executor, self.produce, job)
            self.produced += 1
            self._keep(key, made)
            return made
        finally:
            del self.making[key]

    def _keep(self, key: Hashable, made: MadeReplay) -> None:
        self.kept[key] = made
        while sum(len(kept.data) for kept in self.kept.values()) > self.capacity and len(self.kept) > 1:
            self.kept.popitem(last=False)

    def close(self) -> None:
        """Stop the worker once the production under way ends; waiting ones are dropped."""
        self.executor.shutdown(wait=False, cancel_futures=True)


class Replays:
    """Answers `/replay` and the Replay button of a finished board."""

    def __init__(
        self, storage: Database, games: Mapping[str, AnyGameUI], workshop: Workshop | None = None
    ) -> None:
        self.storage = storage
        self.games = games
        self.workshop = workshop or Workshop()

    async def send(self, interaction: discord.Interaction, match_id: int, *, private: bool) -> None:
        """Answer with the replay of match `match_id` of this server, or say why there is none; a
        public replay is described in the server's language, a private one in the member's."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        mine = private_language(interaction)
        if row is None or game is None or row.guild_id != interaction.guild_id:
            history = f"`{command(mine, 'history')}`"
            text = gettext(
                mine,
                "There is no match #{id} to replay here — {history} lists them.",
                id=match_id,
                history=history,
            )
            await tell(interaction, text)
            return
        if row.status == "running":
            text = gettext(
                mine, "Match #{id} is still being played: its replay comes once it ends.", id=match_id
            )
            await tell(interaction, text)
            return
        if row.status not in FINISHED:
            await tell(
                interaction, gettext(mine, "Match #{id} never finished, so it has no replay.", id=match_id)
            )
            return
        lang = mine if private else await public_language(self.storage.settings, interaction)
        key = (row.id, lang)
        moves = await self.storage.matches.move_log(row.id)
        players = len(row.players)
        options = game.spec.options(row.options, players)
        job = ReplayJob(game.spec, row.id, players, row.seed, options, moves, lang)
        try:
            made = await self._made(interaction, key, job, private)
        except RateLimited as limited:
            await _refuse(interaction, rate_limited_text(mine, limited.wait), private)
        except Busy:
            busy = gettext(mine, "Many replays are being made right now — try again in a minute.")
            await _refuse(interaction, busy, private)
        except GameError as error:
            refusal = error_text(error, mine)
            text = gettext(mine, "Match #{id} cannot be replayed: {error}", id=match_id, error=refusal)
            await _refuse(interaction, text, private)
        else:
            await interaction.followup.send(file=made.file(), ephemeral=private)

    async def _made(
        self, interaction: discord.Interaction, key: tuple[int, str], job: ReplayJob, private: bool
    ) -> MadeReplay:
        """The replay, the interaction deferred (publicly for a public one) once it may be made."""
        if not self.workshop.ready(key):
            self.workshop.may_start(interaction.user.id)
        await interaction.response.defer(ephemeral=private, thinking=True)
        return await self.workshop.get(key, job, interaction.user.id)

    def close(self) -> None:
        self.workshop.close()


async def _refuse(interaction: discord.Interaction, text: str, private: bool) -> None:
    """Say privately why there is no replay — also after a public "thinking…", which a follow-up
    would otherwise replace in public: it goes first."""
    if interaction.response.is_done() and not private:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("A replay's thinking message could not be taken away: %s", error)
    await tell(interaction, text)


def rate_limited_text(lang: str, wait: float) -> str:
    """What a member who asked for too many new replays is told, in `lang`."""
    return ngettext(
        lang,
        "You asked for {limit} new replays within a minute — you may ask for another in {n} second. "
        "Replays already made come at once.",
        "You asked for {limit} new replays within a minute — you may ask for another in {n} seconds. "
        "Replays already made come at once.",
        max(1, math.ceil(wait)),
        limit=RATE_TIMES,
    )


def make_replay(job: ReplayJob) -> MadeReplay:
    """The replay of a finished match from its log, described for screen readers in the job's
    language (runs in the worker). Raises `GameError` when the log does not replay."""
    engine, lang = job.game.engine, job.lang
    states = replay_states(engine, job.players, job.seed, job.options, job.log)
    title = match_title(engine.title, job.match_id, lang)
    made = replay(job.game.board, [engine.view(state, None) for state in states], title=title, lang=lang)
    result = standing(engine, states[-1], lang)
    if made.condensed:
        alt = ngettext(
            lang,
            "Animated replay of {title}: {n} move in {frames} frames, every scoring move and the end kept. "
            "{result}",
            "Animated replay of {title}: {n} moves in {frames} frames, every scoring move and the end kept. "
            "{result}",
            made.moves,
            title=title,
            frames=made.frames,
            result=result,
        )
    else:
        alt = ngettext(
            lang,
            "Animated replay of {title}, one frame per move: {n} move. {result}",
            "Animated replay of {title}, one frame per move: {n} moves. {result}",
            made.moves,
            title=title,
            result=result,
        )
    return MadeReplay(made.data, made.filename, alt_text(alt, lang))
