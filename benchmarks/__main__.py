"""Speed and memory figures against the budgets in DESIGN.md.

python -m benchmarks            # everything
python -m benchmarks render     # board renders: median time and PNG size, every game
python -m benchmarks first      # the first board of each game in a fresh process, prepared at start-up or not
python -m benchmarks engine     # engine moves per second in random playouts
python -m benchmarks bot        # one move through the whole bot in the SimCord harness
python -m benchmarks resume     # 1,000 running matches: resume time and memory
python -m benchmarks storage    # committed moves on a real file: synchronous NORMAL against FULL
python -m benchmarks replay     # animated replays: build time and file size, long and 60-move matches
python -m benchmarks flood      # a board render alone and while 8 replays of 370-move matches are made
python -m benchmarks ai         # computer players: decision times by level, level-against-level win rates
python -m benchmarks levels     # the level table: each level against the one below, hard against the
                                #   game's reference, each level's decision times
python -m benchmarks clock      # the turn clock's beat with 10,000 and 100,000 running matches
python -m benchmarks pairing    # Swiss pairing: one round of 5 to 128 players
python -m benchmarks card       # the /stats player card: drawing it, and its queries for a heavy player
python -m benchmarks achievements   # 5,000 stored matches awarded their achievements at the first start

python -m benchmarks.storage_backends [POSTGRES_URL]   # SQLite and PostgreSQL side by side:
    # a committed move, resume of 10,000 and 100,000 running matches, 50 concurrent matches
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.levels import bench_levels
from benchmarks.player_card import bench_card
from benchmarks.tournament import bench_pairing
from cogs.registry import GAMES
from locales import LANGUAGES

if TYPE_CHECKING:
    from render.replay import Replay


def playout(name: str, seed: int, players: int) -> Iterator[Any]:
    """Every state of one seeded random game, from the first to the last."""
    for _, _, state in played(name, seed, players):
        yield state


def played(name: str, seed: int, players: int) -> Iterator[tuple[int, dict[str, Any] | None, Any]]:
    """One seeded random game as (seat, move, state after it): the first state comes with no move."""
    engine = GAMES[name].engine
    state = engine.new_game(players, seed)
    chooser = random.Random(seed)
    yield 0, None, state
    while seats := engine.current_seats(state):
        seat = seats[0]
        move = chooser.choice(engine.legal_moves(state, seat))
        state = engine.apply(state, seat, move)
        yield seat, move, state


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _encode_ms(png: bytes) -> float:
    """The bare PNG encode of the very image a render produced (decoded, encoded again)."""
    from PIL import Image

    from render.common import to_png

    image = Image.open(io.BytesIO(png))
    image.load()
    samples = []
    for _ in range(3):
        start = time.perf_counter()
        to_png(image)
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def bench_render() -> None:
    print("Board renders by language (budget: median <= 25 ms, <= 1.5x the bare PNG encode, PNG <= 300 KB)")
    for name in GAMES:
        render = GAMES[name].render
        engine = GAMES[name].engine
        states = list(playout(name, seed=1, players=GAMES[name].bench_players))
        views = [engine.view(s, None) for s in states[:: max(1, len(states) // 40)]] + [
            engine.view(states[-1], None)
        ]
        GAMES[name].prepare()  # what a running bot has done at start-up
        for lang in LANGUAGES:
            render(views[0], lang=lang)  # warm the caches of static layers, as a running bot has
            times, sizes, encodes = [], [], []
            for view in views:
                start = time.perf_counter()
                png = render(view, lang=lang)
                times.append(time.perf_counter() - start)
                sizes.append(len(png))
                encodes.append(_encode_ms(png))
            ratio = median_ms(times) / statistics.median(encodes)
            print(
                f"  {name:17s} {lang}  median {median_ms(times):5.1f} ms  max {max(times) * 1000:5.1f} ms  "
                f"encode {statistics.median(encodes):4.1f} ms  ratio {ratio:4.2f}x  "
                f"PNG max {max(sizes) / 1024:5.1f} KB  ({len(views)} boards)"
            )


def first_board(name: str, prepared: bool) -> tuple[float, float]:
    """In this (fresh) process: the CPU seconds of `prepare()` (0 when not `prepared`) and of the
    first board of `name` then, a mid-game spectator's board."""
    spec = GAMES[name]
    states = list(playout(name, seed=1, players=spec.bench_players))
    view = spec.engine.view(states[len(states) // 2], None)
    start = time.process_time()
    if prepared:
        spec.prepare()
    ready = time.process_time()
    spec.render(view)
    return ready - start, time.process_time() - ready


def bench_first() -> None:
    import json
    import subprocess

    print("The first board of each game in a fresh process (budget: <= 100 ms of CPU, after start-up)")
    for name in GAMES:
        for prepared in (True, False):
            code = (
                "import json, benchmarks.__main__ as b; "
                f"print(json.dumps(b.first_board({name!r}, {prepared!r})))"
            )
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            preparing, board = json.loads(run.stdout)
            how = f"after prepare() ({1000 * preparing:6.1f} ms at start-up)" if prepared else "unprepared"
            print(f"  {name:17s} first board {1000 * board:6.1f} ms CPU  {how}")


def bench_engine() -> None:
    print("Engine moves per second (seeded random playouts, legal_moves + apply)")
    for name in GAMES:
        moves, start = 0, time.perf_counter()
        for seed in range(5):
            moves += sum(1 for _ in playout(name, seed, GAMES[name].bench_players)) - 1
        elapsed = time.perf_counter() - start
        print(f"  {name:17s} {moves / elapsed:8.0f} moves/s  ({moves} moves in {elapsed:.2f} s)")


async def _tetris_moves(count: int) -> list[float]:
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(database=Path(folder) / "bench.db")
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild("Bench")
                channel = guild.create_text_channel("games")
                alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
                opened = await alice.slash(channel, "tetrislink new", dice=False)
                assert opened.response is not None
                lobby = opened.response.message
                await bob.click(lobby, label="Join")
                await alice.click(lobby, label="Start")
                members = {alice.user.id: alice, bob.user.id: bob}
                return await _time_drops(env, channel, lobby.id, members, count)
        finally:  # SimCord detaches the bot without closing it: its database thread would stay
            await bot.storage.close()


async def _time_drops(
    env: Any, channel: Any, board_id: int, members: dict[int, Any], count: int
) -> list[float]:
    match = env.bot.matches.running[next(iter(env.bot.matches.running))]
    times: list[float] = []
    while len(times) < count and board_id and match.row.status == "running":
        board = next(m for m in channel.history() if m.id == board_id)
        player = members[match.players[match.engine.current_seats(match.state)[0]]]
        buttons = _buttons(board.components)
        shape = next((c for c in buttons if c.label.startswith("I ×") and not c.disabled), None)
        shape = shape or next(c for c in buttons if "×" in c.label and not c.disabled)
        await player.click(board, custom_id=shape.custom_id)  # steering only: not timed
        board = next(m for m in channel.history() if m.id == board_id)
        drop = next(c for c in _buttons(board.components) if (c.label or "").startswith("Drop"))
        start = time.perf_counter()
        await player.click(board, custom_id=drop.custom_id)
        times.append(time.perf_counter() - start)
    return times


def _buttons(components: list[Any]) -> list[Any]:
    """The buttons of a message, in its rows or in the rows of its card."""
    found = []
    for component in components:
        children = getattr(component, "children", None)
        if children is not None:
            found += _buttons(list(children))
        elif getattr(component, "label", None) is not None:
            found.append(component)
    return found


def bench_bot() -> None:
    print("One move through the whole bot in SimCord (budget: median <= 25 ms)")
    times = asyncio.run(_tetris_moves(30))
    print(
        f"  tetris_link Drop   median {median_ms(times):5.1f} ms  max {max(times) * 1000:5.1f} ms  "
        f"({len(times)} moves: interaction, engine, commit, render, edit, ping, DM)"
    )


async def _seed_matches(database: Path, count: int) -> None:
    from data.storage import Storage

    storage = await Storage.open(database)
    names = list(GAMES)
    for index in range(count):
        name = names[index % len(names)]
        engine = GAMES[name].engine
        states = list(playout(name, seed=index, players=2))
        state = states[len(states) // 2]
        row = await storage.matches.open_lobby(
            game=name, guild_id=1, channel_id=2, host_id=100, seed=index, options={}
        )
        await storage.matches.join_lobby(row.id, 200, 2)
        await storage.matches.start(row.id, engine.dump(state))
    await storage.close()


async def _resume(database: Path) -> tuple[float, int]:
    from bot import create_bot
    from data.storage import Storage
    from matches import MatchService

    bot = create_bot(database=database)  # the games' modules are imported untimed: no part of resuming
    start = time.perf_counter()
    storage = await Storage.open(database)
    bot.storage, bot.matches = storage, MatchService(bot, storage, GAMES)
    resumed = await bot.matches.resume()
    elapsed = time.perf_counter() - start
    await storage.close()
    return elapsed, resumed


def bench_resume(count: int = 1000) -> None:
    print(f"{count} running matches in one process (budget: resume <= 3 s, memory <= 300 MB)")
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "resume.db"
        asyncio.run(_seed_matches(database, count))
        before = _rss_mb()
        elapsed, resumed = asyncio.run(_resume(database))
        after = _rss_mb()
        print(
            f"  resumed {resumed} matches in {elapsed:.2f} s; process RSS {after:.0f} MB "
            f"({after - before:+.0f} MB for the matches)"
        )


async def _commit_moves(database: Path, game: str, synchronous: str, count: int) -> list[float]:
    """The time of each of `count` moves committed with `record_move` (a move of `game` and its
    whole dumped state, as the bot stores them) on a new database file."""
    from data.storage import Storage

    engine = GAMES[game].engine
    moves = [(seat, move, engine.dump(state)) for seat, move, state in played(game, 1, 4) if move]
    storage = await Storage.open(database)
    await storage.on_sqlite(lambda connection: connection.execute(f"PRAGMA synchronous={synchronous}"))
    row = await storage.matches.open_lobby(
        game=game, guild_id=1, channel_id=2, host_id=100, seed=1, options={}
    )
    for user in (200, 300, 400):
        await storage.matches.join_lobby(row.id, user, 4)
    await storage.matches.start(row.id, moves[0][2])
    times = []
    for turn in range(count):
        seat, move, state = moves[turn % len(moves)]
        start = time.perf_counter()
        saved = await storage.matches.record_move(
            row.id, turn=turn, seat=seat, user_id=100 * (seat + 1), move=move or {}, state=state
        )
        times.append(time.perf_counter() - start)
        assert saved
    await storage.close()
    return times


def bench_storage(count: int = 500) -> None:
    print(
        f"Committed moves on a real file: record_move, one transaction each ({count} moves a line;"
        " synchronous=FULL is what the bot uses)"
    )
    for game in ("tetris_link", "sequence_numbers"):
        size = max(len(GAMES[game].engine.dump(state)) for state in playout(game, 1, 4))
        for synchronous in ("NORMAL", "FULL"):
            with tempfile.TemporaryDirectory() as folder:
                times = asyncio.run(_commit_moves(Path(folder) / "moves.db", game, synchronous, count))
            p99 = statistics.quantiles(times, n=100)[98] * 1000
            print(
                f"  {game:17s} synchronous={synchronous:6s}  median {median_ms(times):6.2f} ms  "
                f"p99 {p99:6.2f} ms  max {max(times) * 1000:6.2f} ms  (state up to {size / 1024:.1f} KB)"
            )


def _log(name: str, seed: int, players: int) -> list[tuple[int, int, dict[str, Any]]]:
    """One seeded random match as the bot stores it: (turn, seat, move), oldest first."""
    moves = ((seat, move) for seat, move, _ in played(name, seed, players) if move is not None)
    return [(turn, seat, move) for turn, (seat, move) in enumerate(moves)]


def _build_replay(
    name: str, players: int, seed: int, log: list[tuple[int, int, dict[str, Any]]]
) -> tuple[Replay, float, float]:
    """A replay made as the bot makes one, from the stored log: the replay, the seconds the
    states and views took, and the seconds the frames and the encode took."""
    from games.replay import replay_states
    from render.replay import replay

    engine = GAMES[name].engine
    start = time.perf_counter()
    views = [engine.view(state, None) for state in replay_states(engine, players, seed, {}, log)]
    middle = time.perf_counter()
    made = replay(GAMES[name].board, views, title=f"{engine.title} #{seed}")
    return made, middle - start, time.perf_counter() - middle


def _encodes(made: Replay) -> tuple[float, int, float]:
    """The replay's own frames encoded again, as WebP (the seconds) and as GIF (bytes, seconds)."""
    from PIL import Image

    from render.replay import durations, encode

    image = Image.open(io.BytesIO(made.data))
    frames = []
    for index in range(made.frames):
        image.seek(index)
        frames.append(image.convert("RGB"))
    palette = frames[-1].quantize(255, method=Image.Quantize.FASTOCTREE)
    mapped = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    start = time.perf_counter()
    encode(mapped)
    webp_s = time.perf_counter() - start
    buffer, start = io.BytesIO(), time.perf_counter()
    mapped[0].save(
        buffer, format="GIF", save_all=True, append_images=mapped[1:], duration=durations(made.frames), loop=0
    )
    return webp_s, len(buffer.getvalue()), time.perf_counter() - start


def bench_replay() -> None:
    print(
        "Animated replays from a stored move log: states + views, then frames + encode; the longest of "
        "six seeded matches at 2 and 4 seats (budget: any match <= 3 s and <= 10 MiB, <= 120 frames)"
    )
    for name in GAMES:
        for players in (2, GAMES[name].bench_players):
            seed = max(range(6), key=lambda seed: len(_log(name, seed, players)))  # the longest of six
            log = _log(name, seed, players)
            _build_replay(name, players, seed, log[:2])  # warm the renderers' caches, as a running bot has
            for moves in (log, log[:60]) if len(log) > 60 else (log,):
                made, states_s, render_s = _build_replay(name, players, seed, moves)
                webp_s, gif_size, gif_s = _encodes(made)
                print(
                    f"  {name:17s} {players}p {len(moves):5d} moves {made.frames:4d} frames  "
                    f"{states_s + render_s:5.2f} s (states+views {states_s:4.2f} s)  "
                    f"{len(made.data) / 2**20:5.2f} MiB  {made.size[0]}x{made.size[1]}  | encode only: "
                    f"WebP {webp_s:4.2f} s, GIF {gif_s:4.2f} s {gif_size / 2**20:5.2f} MiB"
                )


FLOOD_MOVES, FLOOD_REPLAYS = 370, 8


def _flood_jobs(lang: str = "en") -> list[Any]:
    """Eight finished 4-seat Rookie matches of 370 moves, as the replay worker gets them."""
    from matches.replays import ReplayJob

    seeds = (seed for seed in range(100) if len(_log("rookie", seed, 4)) >= FLOOD_MOVES)
    return [
        ReplayJob(GAMES["rookie"], seed, 4, seed, {}, _log("rookie", seed, 4)[:FLOOD_MOVES], lang)
        for seed, _ in zip(seeds, range(FLOOD_REPLAYS), strict=False)
    ]


def _every_frame(job: Any) -> Any:
    """A replay as it was made before long matches were condensed: a frame for every move."""
    from games.replay import replay_states
    from render.replay import replay

    engine = job.game.engine
    states = replay_states(engine, job.players, job.seed, job.options, job.log)
    return replay(
        job.game.board, [engine.view(state, None) for state in states], title="#1", limit=len(states)
    )


class _Boards:
    """Board renders as the bot draws them (in the loop's default pool), one game after another."""

    def __init__(self) -> None:
        self.renders = [spec.render for spec in GAMES.values()]
        self.views = []
        for name in GAMES:
            states = list(playout(name, seed=1, players=GAMES[name].bench_players))
            self.views.append(GAMES[name].engine.view(states[len(states) // 2], None))
        for render, view in zip(self.renders, self.views, strict=True):
            render(view, lang="en")  # warm the caches of static layers, as a running bot has

    async def latencies(
        self, count: int | None = None, until: asyncio.Future[Any] | None = None
    ) -> list[float]:
        """The seconds each render took from its request to its image: `count` of them, or as many
        as fit before `until` is done."""
        times: list[float] = []
        while (count is not None and len(times) < count) or (until is not None and not until.done()):
            index = len(times) % len(self.renders)
            start = time.perf_counter()
            await asyncio.to_thread(self.renders[index], self.views[index], lang="en")
            times.append(time.perf_counter() - start)
        return times


def _latency_line(label: str, times: list[float], alone: float, took: float | None = None) -> str:
    p90 = statistics.quantiles(times, n=10)[-1] * 1000 if len(times) > 1 else times[0] * 1000
    line = (
        f"  {label:44s} median {median_ms(times):6.1f} ms ({median_ms(times) / alone:4.1f}x)  "
        f"mean {statistics.mean(times) * 1000:6.1f} ms  "
        f"p90 {p90:6.1f} ms  max {max(times) * 1000:6.1f} ms  ({len(times)} renders)"
    )
    return line if took is None else f"{line}  replays done in {took:5.2f} s"


async def _flood() -> None:
    from matches.replays import Workshop

    boards, jobs = _Boards(), _flood_jobs()
    alone = await boards.latencies(count=60)
    base = median_ms(alone)
    print(_latency_line("alone", alone, base))
    start = time.perf_counter()
    before = asyncio.gather(*(asyncio.to_thread(_every_frame, job) for job in jobs))
    times = await boards.latencies(until=before)
    print(_latency_line("before: 8 in the same pool, every frame", times, base, time.perf_counter() - start))
    for label, members in (
        ("now: 8 matches, 8 members", range(len(jobs))),
        ("now: 1 match pressed 8 times", None),
    ):
        workshop = Workshop()
        start = time.perf_counter()
        asked = [
            workshop.get((job.match_id, job.lang), job, member)
            for job, member in (
                zip(jobs, members, strict=True) if members else ((jobs[0], m) for m in range(8))
            )
        ]
        flood = asyncio.gather(*asked)
        times = await boards.latencies(until=flood)
        print(_latency_line(label, times, base, time.perf_counter() - start) + f", {workshop.produced} made")
        workshop.close()


def bench_flood() -> None:
    print(
        f"A board render (the five games in turn) alone and while {FLOOD_REPLAYS} replays of "
        f"{FLOOD_MOVES}-move Rookie matches are asked for (budget: median <= 2x alone)"
    )
    asyncio.run(_flood())


def _rss_mb() -> float:
    """The resident memory of this process now (Linux), in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 2**20


def bench_ai(games: int = 40) -> None:
    import ai
    from ai.arena import first_wins

    print(
        "Computer players, per game (budget: easy and normal median <= 50 ms,"
        " hard median <= 1 s, max <= 3 s); two-player matches, seats alternating"
    )
    pairs = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))
    for spec in GAMES.values():
        if spec.choose is None:
            continue
        times: dict[str, list[float]] = {level: [] for level in ai.LEVELS}

        def timer(level: str, seconds: float, times: dict[str, list[float]] = times) -> None:
            times[level].append(seconds)

        print(f"  {spec.title}")
        for first, second in pairs:
            won = first_wins(spec.engine, spec.choose, first, second, games, timer=timer)
            print(f"    {first:6s} against {second:6s} {100 * won:5.1f}% won  ({games} games)")
        for level in ai.LEVELS:
            samples = times[level]
            print(
                f"    {level:6s} median {median_ms(samples):7.2f} ms  max {1000 * max(samples):7.1f} ms"
                f"  ({len(samples)} decisions)"
            )


async def _clock_beats(count: int, beats: int) -> list[float]:
    """The turn clock's beats (tick and the question whether any clock runs, as matches/beats.py
    asks them) over `count` running matches with 24-hour clocks, none of them due yet."""
    from datetime import UTC, datetime, timedelta

    import discord

    from data.model import MatchRow
    from data.storage import Storage
    from matches import MatchService
    from matches.match import Match

    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "clock.db")
        try:
            service = MatchService(discord.Client(intents=discord.Intents.none()), storage, GAMES)
            engine = GAMES["tremember"].engine
            state, now, spread = engine.new_game(2, 1), datetime.now(UTC), random.Random(1)
            for match_id in range(1, count + 1):
                deadline = now + timedelta(hours=2, seconds=spread.uniform(0, 86400))
                row = MatchRow(
                    id=match_id,
                    game="tremember",
                    guild_id=1,
                    channel_id=2,
                    message_id=3,
                    host_id=11,
                    status="running",
                    seed=match_id,
                    options={},
                    state=None,
                    turn=0,
                    ping_message_id=None,
                    created_at=now.isoformat(),
                    started_at=now.isoformat(),
                    clock_s=86400,
                    deadline=deadline.isoformat(),
                    players=[11, 22],
                )
                service.running.add(Match(row=row, engine=engine, state=state))
            samples = []
            for beat in range(beats):
                start = time.perf_counter()
                await service.clock.tick(now + timedelta(seconds=15 * beat))
                samples.append(time.perf_counter() - start)
            return samples
        finally:
            await storage.close()


def bench_clock(beats: int = 40) -> None:
    print("the turn clock's beat: how long it holds the event loop (budget: <= 5 ms at 100,000 matches)")
    for count in (10_000, 100_000):
        samples = asyncio.run(_clock_beats(count, beats))
        print(
            f"  {count:>7,} running matches  median {median_ms(samples):7.3f} ms  "
            f"max {1000 * max(samples):7.3f} ms  ({beats} beats, none due)"
        )


def bench_awards() -> None:
    """The achievements of 5,000 stored matches (benchmarks/achievements.py; on PostgreSQL too
    when TEST_DATABASE_URL names a server). Imported here: it builds on this module's playouts."""
    from benchmarks.achievements import bench_achievements

    bench_achievements(os.environ.get("TEST_DATABASE_URL"))


BENCHES: dict[str, Callable[[], None]] = {
    "render": bench_render,
    "first": bench_first,
    "engine": bench_engine,
    "bot": bench_bot,
    "resume": bench_resume,
    "storage": bench_storage,
    "replay": bench_replay,
    "flood": bench_flood,
    "ai": bench_ai,
    "levels": bench_levels,
    "clock": bench_clock,
    "pairing": bench_pairing,
    "card": bench_card,
    "achievements": bench_awards,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("which", nargs="*", choices=[*BENCHES, []], default=[])
    chosen = parser.parse_args(argv).which or list(BENCHES)
    for name in chosen:
        BENCHES[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
