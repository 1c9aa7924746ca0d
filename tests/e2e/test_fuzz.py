"""Fuzzing the components: thousands of random and forged presses on real messages.

Component ids and select values are data from the client. A seeded generator (its seed and
step are in every failure, so a failure replays) presses the real ids and values of all
five games and mutations of them — other matches, stale and future turns, swapped board
and reply, levels, paths and indexes out of range, garbage and truncated ids, ids fitting
no template, select values that are no index — as a seated player, a member who does not
play, a member of another server and a user in their DMs, on boards, private replies,
lobbies, finished boards and unrelated messages. Legal presses in between move the
matches on, to their end and their rematch.

Every press must be answered and log no error; every public message stays what it was (a
board stays the board of its match) and never shows a private reply; no lobby seats more
players than its game takes or anyone from another server; and no press from another
server changes a match.
"""

from __future__ import annotations

import logging
import random
import re
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
from simcord.actors import _component_interaction, _visible_message
from simcord.components import walk_components
from simcord.env import Env
from simcord.results import ResponseMessage

from cogs.league import LeaderboardPage
from data.storage import MatchRow
from locales import LANGUAGES, gettext
from matches.components import DYNAMIC_ITEMS
from matches.match import BOARD, PRIVATE, REMATCH, RESIGN, RESIGN_CONFIRM, WATCH
from tests.e2e.helpers import (
    TO_MOVE,
    all_text,
    body,
    forge,
    has_card,
    open_and_start,
    roster,
    title,
)
from tests.registry import ENGINES

ROWS_LIMIT = 5  # action rows a message holds

GAMES = ("tremember", "tetris_link", "rookie", "triominos", "sequence_numbers")
NEW = {
    "tremember": "tremember new",
    "tetris_link": "tetrislink new",
    "rookie": "rookie new",
    "triominos": "triominos new",
    "sequence_numbers": "sequence new",
}
SEEDS = {game: 7100 + number for number, game in enumerate(GAMES)}
PRESSES = 450  # per game: 2,250 in all
LEGAL_SHARE = 0.3  # of the presses: real moves and lobby buttons by who may press them
CUSTOM_ID_LIMIT = 100  # what Discord carries

# Words only a seat's private reply says (its title line, the hand, the peek) and its image.
PRIVATE_WORDS = (
    "— you are ",  # Tetris Link, Rookie: "**<Game> #n** — you are 🟦 A"
    "— you have ",  # My First Triominos: "— you have 3 tokens"
    "— your hand (",  # Sequence Numbers
    "Only you can see it",  # Tremember's peek
    "Nothing secret to show right now",  # Tremember
    "Your card is back in the board",  # Tremember
    "You play from here when it is your turn",  # Sequence Numbers
)
PRIVATE_IMAGE = "private.png"

TEMPLATES = {
    item.__name__: item.__discord_ui_compiled_template__ for item in (*DYNAMIC_ITEMS, LeaderboardPage)
}
TITLE = re.compile(r"(?P<game>.+?)(?: — lobby)? #(?P<match>\d+)")
HOST = re.compile(r"<@(\d+)> \(host\)")
MENTION = re.compile(r"<@(\d+)>")
MATCH_OF_ID = re.compile(r"(?:m|lobby):(\d{1,18})(?::|$)|gs?:[^:]*:(\d{1,18})(?::|$)")
STORED_ID_LIMIT = 2**62  # ids past this cannot be a stored match
# What an old board message says once its board was posted again, in every language.
MOVED, MOVED_BOARD = (
    "a board that moved",
    {gettext(lang, "This board moved: {link}", link="") for lang in LANGUAGES},
)

FOREIGN_MATCH_IDS = ("0", "999999", str(10**30), "-1", "", "00", "٣", "１")
GARBAGE = (
    "",
    "x",
    "-1",
    "007",
    "²",
    "٣",
    "💥",
    "a:b",
    " ",
    "%s",
    "{0}",
    "9" * 30,
    "None",
    "s",
    "s-1",
    "1..2",
)
GAME_NAMES = (*GAMES, "nope", "", "TREMEMBER", "lb", "*")
ARGS = (
    PRIVATE,
    RESIGN,
    RESIGN_CONFIRM,
    REMATCH,
    BOARD,
    WATCH,
    "",
    "x",
    "_PRIVATE",
    " _private",
    "drop",
    "0",
    "_",
)
LOBBY_ACTIONS = ("join", "leave", "start", "cancel", "JOIN", "kick", "")
PATHS = (
    "",
    "0",
    "9",
    "0.0",
    "1.2",
    "999.999",
    ".".join(["1"] * 16),
    ".".join(["0"] * 17),
    "1..2",
    "-1",
    "0.",
)
INDEXES = ("0", "1", "2", "7", "24", "25", "999", "1000", "s0", "s25", "s999", "s", "sx", "-1")
LEVELS = ("0", "1", "2", "3", "7", "99", "100", "")
PAGES = ("0", "1", "-1", "-99", "99", str(10**30), "x", "")
BAD_VALUES: tuple[list[str], ...] = (
    ["abc"],
    [""],
    ["-1"],
    ["999"],
    ["1" * 100],
    ["9" * 400],
    ["²"],
    ["٣"],
    ["０"],
    ["0", "1"],
    [],
    [" 1"],
    ["1e3"],
    ["0x1"],
    ["3.0"],
    [str(10**30)],
)
NOISE = (
    "",
    "x",
    "m:",
    "g:",
    "gs:",
    "lobby:",
    "lb:",
    ":::",
    "m::::::",
    "🎲" * 10,
    "lobby:1",
    "g:tremember:1",
    "m:1:0:b:0::",
    "\n",
)


# ------------------------------------------------------------------ who presses, and where


@dataclass(frozen=True)
class Actor:
    """Someone pressing: a member of a server, or a user in their DMs (`guild_id` None)."""

    name: str
    handle: Any
    user_id: int
    guild_id: int | None


@dataclass(frozen=True)
class Press:
    """One press as it was generated: enough to replay it by hand."""

    game: str
    seed: int
    step: int
    actor: str
    where: str
    message_id: int
    custom_id: str
    values: list[str] | None
    legal: bool

    def __str__(self) -> str:
        values = "" if self.values is None else f" values={self.values!r}"
        kind = "legal press" if self.legal else "forged press"
        return (
            f"[{self.game} seed={self.seed} step={self.step}] {kind}: {self.actor} pressed "
            f"{self.custom_id!r}{values} on {self.where} (message {self.message_id})"
        )


@dataclass(frozen=True)
class Failure:
    """What went wrong on a press; failures of one kind and key are one class in the report."""

    kind: str
    key: str
    detail: str
    press: Press


@dataclass
class Seen:
    """What the fuzz reached: a test of it must have pressed every kind of place and actor."""

    presses: int = 0
    legal: int = 0
    moves: int = 0
    places: Counter = field(default_factory=Counter)
    actors: Counter = field(default_factory=Counter)
    families: Counter = field(default_factory=Counter)


def family(custom_id: str) -> str:
    """Which component template an id fits, if any (as discord.py routes it)."""
    fits = [name for name, template in TEMPLATES.items() if template.fullmatch(custom_id)]
    return f"{custom_id.split(':', 1)[0]}: fits {fits[0]}" if fits else "fits no template"


def identity(stored: Any) -> str:
    """What a public message is: the lobby and board of match n are one message, `<Game> #n`;
    a board posted again below (Board ↓) leaves a pointer in its old message."""
    if not has_card(stored):
        moved = any(all_text(stored).startswith(prefix) for prefix in MOVED_BOARD)
        return MOVED if moved else "a message without a card"
    heading = title(stored)
    if heading.startswith("Leaderboard — "):
        return "a leaderboard"
    found = TITLE.fullmatch(heading)
    return f"{found['game']} #{found['match']}" if found else f"a card titled {heading!r}"


def shows_private(stored: Any) -> list[str]:
    """The marks of a private reply a message shows: its words, its image."""
    words = [word for word in PRIVATE_WORDS if word in all_text(stored)]
    return words + [a["filename"] for a in stored.attachments if a.get("filename") == PRIVATE_IMAGE]


def controls(stored: Any) -> list[dict]:
    return [c for c in walk_components(stored.components) if c.get("custom_id")]


def _custom_ids(rows: list[dict]) -> list[str]:
    return [c["custom_id"] for c in walk_components(rows) if c.get("custom_id")]


def place(stored: Any) -> str:
    """The kind of message a press rides on, as the failure report names it."""
    if stored.is_ephemeral:
        return "a private reply" if shows_private(stored) else "a note"
    ids = [c["custom_id"] for c in controls(stored)]
    what = identity(stored)
    if any(i.startswith("lobby:") for i in ids):
        return "a lobby"
    if any(i.endswith(f":{REMATCH}") for i in ids):
        return "a finished board"
    if any(i.endswith(f":{PRIVATE}") for i in ids):
        return "a board"
    return "a leaderboard" if what == "a leaderboard" else "another message"


def traceback_head(record: logging.LogRecord) -> str:
    """The logged message, the exception and where it was raised."""
    lines = [record.getMessage()]
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            last = frames[-1]
            lines.append(f"  at {'/'.join(last.filename.rsplit('/', 2)[-2:])}:{last.lineno} in {last.name}")
        lines.append(f"  {type(error).__name__}: {error}")
    return "\n".join(lines)


def normalised(text: str) -> str:
    return re.sub(r"\d+", "N", text)[:160]


# ------------------------------------------------------------------ the generator of ids


class Forger:
    """Custom ids and values: the real ones seen on any message so far, and mutations."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: dict[str, list[str] | None] = {}  # custom_id -> select option values
        self.match_ids: list[str] = []

    def learn(self, stored: Any) -> None:
        for component in controls(stored):
            options = component.get("options")
            values = [o["value"] for o in options] if options is not None else None
            self.seen[component["custom_id"]] = values

    def learn_match(self, match_id: int) -> None:
        if str(match_id) not in self.match_ids:
            self.match_ids.append(str(match_id))

    def press(self) -> tuple[str, list[str] | None]:
        """A custom id and select values a modified client could send."""
        roll = self.rng.random()
        known = list(self.seen)
        if roll < 0.2 and known:
            custom_id = self.rng.choice(known)
        elif roll < 0.7 and known:
            custom_id = self.mutate(self.rng.choice(known))
            if self.rng.random() < 0.3:
                custom_id = self.mutate(custom_id)
        elif roll < 0.88:
            custom_id = self.synthesise()
        else:
            custom_id = self.noise()
        return custom_id[:CUSTOM_ID_LIMIT], self.values(custom_id)

    def values(self, custom_id: str) -> list[str] | None:
        real = self.seen.get(custom_id)
        is_select = bool(re.search(r":s[^:]*$", custom_id)) or real is not None
        roll = self.rng.random()
        if is_select and real and roll < 0.6:
            return [self.rng.choice(real)]
        if is_select and roll < 0.9:
            return list(self.rng.choice(BAD_VALUES))
        if not is_select and roll < 0.15:
            return list(self.rng.choice(BAD_VALUES))  # values on a button's id
        return None if not is_select else [str(self.rng.randrange(60))]

    def match_id(self) -> str:
        pool = self.match_ids + list(FOREIGN_MATCH_IDS)
        return self.rng.choice(pool)

    def turn(self, turn: str) -> str:
        number = int(turn) if turn.isdecimal() and len(turn) < 12 else 0
        return str(self.rng.choice((number - 1, number + 1, number + 100, 0, 10**12, -1)))

    def mutate(self, custom_id: str) -> str:
        parts = custom_id.split(":")
        fields = {
            "m": {"match": 1, "turn": 2, "where": 3, "level": 4, "path": 5, "index": 6},
            "g": {"game": 1, "match": 2, "turn": 3, "arg": 4},
            "gs": {"game": 1, "match": 2, "turn": 3, "arg": 4},
            "lobby": {"match": 1, "action": 2},
            "lb": {"game": 1, "page": 2},
        }.get(parts[0], {})
        changes = [name for name, index in fields.items() if index < len(parts)]
        change = self.rng.choice([*changes, *changes, "garbage", "truncate", "append", "drop", "prefix"])
        if change in fields:
            index = fields[change]
            parts[index] = self.field(change, parts[index])
        elif change == "garbage":
            parts[self.rng.randrange(len(parts))] = self.rng.choice(GARBAGE)
        elif change == "truncate":
            return custom_id[: self.rng.randrange(len(custom_id) + 1)]
        elif change == "append":
            parts.append(self.rng.choice(GARBAGE))
        elif change == "drop" and len(parts) > 1:
            del parts[self.rng.randrange(len(parts))]
        else:
            parts[0] = self.rng.choice(("m", "g", "gs", "lobby", "lb", "M", ""))
        return ":".join(parts)

    def field(self, name: str, current: str) -> str:
        choose = self.rng.choice
        table: dict[str, Any] = {
            "match": self.match_id,
            "turn": lambda: self.turn(current),
            "where": lambda: {"b": "p", "p": "b"}.get(current, choose("bpx")),
            "level": lambda: choose(LEVELS),
            "path": lambda: choose(PATHS),
            "index": lambda: choose(INDEXES),
            "game": lambda: choose(GAME_NAMES),
            "arg": lambda: choose(ARGS),
            "action": lambda: choose(LOBBY_ACTIONS),
            "page": lambda: choose(PAGES),
        }
        return str(table[name]())

    def synthesise(self) -> str:
        """An id built from a template with made-up fields."""
        choose = self.rng.choice
        match_id, turn = self.match_id(), str(self.rng.randrange(6))
        shapes = (
            lambda: f"m:{match_id}:{turn}:{choose('bp')}:{choose(LEVELS)}:{choose(PATHS)}:{choose(INDEXES)}",
            lambda: f"g:{choose(GAME_NAMES)}:{match_id}:{turn}:{choose(ARGS)}",
            lambda: f"gs:{choose(GAME_NAMES)}:{match_id}:{turn}:{choose(ARGS)}",
            lambda: f"lobby:{match_id}:{choose(LOBBY_ACTIONS)}",
            lambda: f"lb:{choose(GAME_NAMES)}:{choose(PAGES)}",
        )
        return choose(shapes)()

    def noise(self) -> str:
        if self.rng.random() < 0.5:
            return self.rng.choice(NOISE)
        alphabet = "abcglmpsx:0123456789._-* é💥"
        return "".join(self.rng.choice(alphabet) for _ in range(self.rng.randrange(1, CUSTOM_ID_LIMIT + 1)))


# ------------------------------------------------------------------ the run


class Fuzz:
    """Two servers, matches of one game (and one of another), and a seeded stream of presses."""

    def __init__(self, table: Any, game: str, caplog: Any) -> None:
        self.table = table
        self.env = table.env
        self.game = game
        self.seed = SEEDS[game]
        self.rng = random.Random(self.seed)
        self.forger = Forger(random.Random(self.seed + 1))
        self.caplog = caplog
        self.failures: list[Failure] = []
        self.seen = Seen()
        self.identities: dict[int, str] = {}
        self.leaked: set[int] = set()
        self.changed: set[tuple[int, str]] = set()
        self.ephemerals: dict[str, list[tuple[int, int]]] = {}  # actor -> (channel, message)
        self.actors: list[tuple[Actor, int]] = []
        self.members: dict[int, set[int]] = {}
        self.channels: list[Any] = []
        self.step = 0

    # -------------------------------------------------------------- setting the table

    async def set_up(self) -> None:
        table = self.table
        guild_one = table.guild
        extra = [guild_one.add_member(self.env.create_user(name)) for name in ("erin", "frank", "gina")]
        other = self.env.create_guild("Elsewhere")
        other_channel = other.create_text_channel("games")
        mallory = other.add_member(self.env.create_user("mallory"))
        alice_elsewhere = other.add_member(table.alice.user)
        erin, frank, gina = extra
        seated = [table.alice, table.bob, table.carol, table.dave, erin]
        members_one = [*seated, frank, gina]
        for member in members_one:
            self.add_actor(member.user.name, member, guild_one.id, 3 if member in seated[:2] else 2)
        self.add_actor("mallory (another server)", mallory, other.id, 3)
        self.add_actor("alice (another server)", alice_elsewhere, other.id, 2)
        self.add_actor("alice (in DMs)", table.alice.user, None, 1)
        self.add_actor("bob (in DMs)", table.bob.user, None, 1)
        self.members = {
            guild_one.id: {m.user.id for m in members_one},
            other.id: {mallory.user.id, table.alice.user.id},
        }
        self.channels = [table.channel, other_channel]

        other_game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        await open_and_start(table.channel, table.alice, [table.bob], NEW[self.game])
        await open_and_start(table.channel, table.carol, [table.dave, erin], NEW[self.game])
        await open_and_start(table.channel, gina, [table.dave], NEW[other_game])
        await frank.slash(table.channel, NEW[self.game])
        await mallory.slash(other_channel, NEW[self.game])
        await table.alice.slash(table.channel, "leaderboard")
        await mallory.slash(other_channel, "leaderboard")
        self.survey()

    def add_actor(self, name: str, handle: Any, guild_id: int | None, weight: int) -> None:
        self.actors.append((Actor(name, handle, handle.user.id if guild_id else handle.id, guild_id), weight))

    # -------------------------------------------------------------- what is on screen

    def stored_messages(self, channel_id: int) -> list[Any]:
        return list(self.env.backend.messages.get(channel_id, {}).values())

    def replies_of(self, actor: Actor, last: int) -> list[Any]:
        """The last private replies and notes `actor` got that are still there."""
        kept = [
            self.env.backend.messages.get(channel_id, {}).get(message_id)
            for channel_id, message_id in self.ephemerals.get(actor.name, [])[-last:]
        ]
        return [stored for stored in kept if stored is not None]

    def public_messages(self) -> Iterator[tuple[Any, Any]]:
        for channel in self.channels:
            for stored in self.stored_messages(channel.id):
                if not stored.is_ephemeral:
                    yield channel, stored

    def survey(self) -> list[tuple[Any, str]]:
        """Learn every public message's ids; return what is wrong with them now."""
        wrong = []
        for _, stored in self.public_messages():
            self.forger.learn(stored)
            now = identity(stored)
            found = TITLE.fullmatch(title(stored))
            if found:
                self.forger.learn_match(int(found["match"]))
            first = self.identities.setdefault(stored.id, now)
            moved = now == MOVED and TITLE.fullmatch(first) is not None  # a board that moved on
            if first != now and not moved and (stored.id, now) not in self.changed:
                self.changed.add((stored.id, now))
                wrong.append((stored, f"message {stored.id} was {first}, now shows {now}"))
            leak = shows_private(stored)
            if leak and stored.id not in self.leaked:
                self.leaked.add(stored.id)
                wrong.append((stored, f"public message {stored.id} ({now}) shows a private reply: {leak}"))
        return wrong

    def actor_for(self, user_id: int, guild_id: int | None) -> Actor | None:
        return next((a for a, _ in self.actors if a.user_id == user_id and a.guild_id == guild_id), None)

    def guild_of(self, channel_id: int) -> int | None:
        return self.env.backend.get_channel(channel_id).guild_id

    def messages_for(self, actor: Actor) -> list[Any]:
        """The messages `actor` could press on: public ones in their server (or their DMs),
        and the private replies and notes they got."""
        if actor.guild_id is None:
            channel_id = self.env.backend.dm_channels.get(actor.user_id)
            return self.stored_messages(channel_id) if channel_id is not None else []
        channel = next(c for c in self.channels if self.guild_of(c.id) == actor.guild_id)
        public = [
            s
            for _, s in self.public_messages()
            if s.channel_id == channel.id and s.author_id != actor.user_id
        ]
        return public + self.replies_of(actor, 30)

    # -------------------------------------------------------------- pressing

    async def run(self, presses: int) -> None:
        ended = False
        while self.seen.presses < presses:
            self.step += 1
            if not ended and self.seen.presses >= presses // 3:
                await self.end_a_match()  # finished boards and rematches get pressed too
                ended = True
            elif self.rng.random() < LEGAL_SHARE:
                await self.legal()
            else:
                await self.forged()

    async def forged(self) -> None:
        actor = self.rng.choices([a for a, _ in self.actors], [w for _, w in self.actors])[0]
        messages = self.messages_for(actor)
        if not messages:
            return
        by_place: dict[str, list[Any]] = {}
        for stored in messages:
            by_place.setdefault(place(stored), []).append(stored)
        stored = self.rng.choice(by_place[self.rng.choice(sorted(by_place))])
        self.forger.learn(stored)
        custom_id, values = self.forger.press()
        swapped = self.swapped(actor) if self.rng.random() < 0.25 else None
        if swapped is not None:
            stored, custom_id, values = swapped
        await self.press(actor, stored, custom_id, values, legal=False)

    def swapped(self, actor: Actor) -> tuple[Any, str, list[str] | None] | None:
        """A live choice of the actor pressed in the wrong place: from their private reply or
        a board where they are to move, on any other message they see (in any server or DM)."""
        live = [c for r in self.replies_of(actor, 5) for c in controls(r) if c["custom_id"].startswith("m:")]
        for _, board in self.public_messages():
            found = TO_MOVE.search(body(board))
            if found and int(found[1]) == actor.user_id:
                live += [c for c in controls(board) if c["custom_id"].startswith("m:")]
        targets = self.messages_for(actor)
        if not live or not targets:
            return None
        component = self.rng.choice(live)
        options = component.get("options")
        values = None if options is None else [self.rng.choice(options)["value"]]
        return self.rng.choice(targets), component["custom_id"], values

    async def legal(self) -> None:
        """A press a real player makes: a move, the private reply, a lobby button, a rematch."""
        boards, lobbies, finished = [], [], []
        for channel, stored in self.public_messages():
            kind = place(stored)
            if kind == "a board":
                boards.append((channel, stored))
            elif kind == "a lobby":
                lobbies.append((channel, stored))
            elif kind == "a finished board":
                finished.append((channel, stored))
        roll = self.rng.random()
        if boards and (roll < 0.7 or not (lobbies or finished)):
            await self.move(*self.rng.choice(boards))
        elif lobbies and (roll < 0.93 or not finished):
            await self.lobby(*self.rng.choice(lobbies))
        elif finished:
            await self.rematch(*self.rng.choice(finished))
        if not lobbies:
            opener = self.rng.choice([a for a, _ in self.actors if a.guild_id == self.table.guild.id])
            await self.open_lobby(opener)

    async def move(self, channel: Any, board: Any) -> None:
        found = TO_MOVE.search(body(board))
        guild_id = self.guild_of(channel.id)
        mover = self.actor_for(int(found[1]), guild_id) if found and guild_id else None
        if mover is None:
            return
        ids = [c for c in controls(board) if not c.get("disabled")]
        moves = [c for c in ids if c["custom_id"].startswith("m:")]
        resign = [c for c in ids if c["custom_id"].endswith(f":{RESIGN}")]
        private = [c for c in ids if c["custom_id"].endswith(f":{PRIVATE}")]
        roll = self.rng.random()
        if resign and roll < 0.04:
            await self.resign(mover, board, resign[0])
        elif moves and roll < 0.7:
            drops = [c for c in moves if (c.get("label") or "").startswith("Drop")]
            await self.real(mover, board, self.rng.choice(drops if drops and roll < 0.4 else moves))
        elif private:
            result = await self.real(mover, board, private[0])
            await self.follow(mover, result, lambda c: c["custom_id"].startswith("m:"), 4)

    async def resign(self, actor: Actor, board: Any, button: dict) -> None:
        result = await self.real(actor, board, button)
        await self.follow(actor, result, lambda c: c["custom_id"].endswith(f":{RESIGN_CONFIRM}"), 1)

    async def end_a_match(self) -> None:
        """The player to move on a board of two resigns."""
        for channel, board in self.public_messages():
            found = TO_MOVE.search(body(board))
            players = MENTION.findall(roster(board))
            resign = [c for c in controls(board) if c["custom_id"].endswith(f":{RESIGN}")]
            mover = self.actor_for(int(found[1]), self.table.guild.id) if found else None
            if mover is not None and len(players) == 2 and resign and channel is self.table.channel:
                await self.resign(mover, board, resign[0])
                return

    async def follow(self, actor: Actor, result: Any, wanted: Any, clicks: int) -> None:
        """Press up to `clicks` real controls, one after another, on a private reply."""
        reply = result.response if result is not None else None
        for _ in range(clicks):
            if reply is None or not reply.ephemeral:
                return
            stored = self.env.backend.messages.get(reply.channel_id, {}).get(reply.id)
            offered = [c for c in controls(stored) if not c.get("disabled") and wanted(c)] if stored else []
            if not offered:
                return
            await self.real(actor, stored, self.rng.choice(offered))

    async def lobby(self, channel: Any, lobby: Any) -> None:
        guild_id = self.guild_of(channel.id)
        text = body(lobby)
        seated = [int(user) for user in MENTION.findall(text.split("**Setup:**")[0])]
        host = HOST.search(text)
        action = self.rng.choices(("join", "start", "leave", "cancel"), (10, 4, 2, 0.3))[0]
        candidates = [a for a, _ in self.actors if a.guild_id == guild_id]
        if action == "join":
            waiting = [a for a in candidates if a.user_id not in seated]
            actor = self.rng.choice(waiting or candidates)
        elif action in ("start", "cancel") and host:
            actor = self.actor_for(int(host[1]), guild_id) or self.rng.choice(candidates)
        else:
            actor = self.rng.choice(candidates)
        button = next((c for c in controls(lobby) if c["custom_id"].endswith(f":{action}")), None)
        if button is not None:
            await self.real(actor, lobby, button)

    async def rematch(self, channel: Any, board: Any) -> None:
        guild_id = self.guild_of(channel.id)
        players = roster(board)
        users = [int(user) for user in MENTION.findall(players)]
        actors = (
            [a for a in (self.actor_for(u, guild_id) for u in users) if a is not None] if guild_id else []
        )
        button = next((c for c in controls(board) if c["custom_id"].endswith(f":{REMATCH}")), None)
        if actors and button is not None:
            await self.real(self.rng.choice(actors), board, button)

    async def real(self, actor: Actor, stored: Any, component: dict) -> Any:
        options = component.get("options")
        values = None if options is None else [self.rng.choice(options)["value"]]
        return await self.press(actor, stored, component["custom_id"], values, legal=True)

    async def open_lobby(self, actor: Actor) -> None:
        command = NEW[self.game]
        press = Press(self.game, self.seed, self.step, actor.name, "a channel", 0, f"/{command}", None, True)
        await self.checked(press, actor, [], partial(actor.handle.slash, self.table.channel, command))

    async def press(
        self, actor: Actor, stored: Any, custom_id: str, values: list[str] | None, *, legal: bool
    ) -> Any:
        """Press a component (a real one as SimCord lets a member, else forged), then check."""
        where = place(stored) if actor.guild_id is not None else "a DM"
        press = Press(self.game, self.seed, self.step, actor.name, where, stored.id, custom_id, values, legal)
        message = ResponseMessage(self.env, stored)
        if not legal:
            action = partial(forge_on, actor.handle, message, custom_id, values)
        elif values is None:
            action = partial(actor.handle.click, message, custom_id=custom_id)
        else:
            action = partial(actor.handle.select, message, values, custom_id=custom_id)
        return await self.checked(press, actor, self.involved(custom_id, stored), action)

    async def checked(
        self, press: Press, actor: Actor, involved: list[int], action: Callable[[], Awaitable[Any]]
    ) -> Any:
        """Make the press, then check everything a user or the data would show."""
        before = {match_id: await self.row(match_id) for match_id in involved}
        errors_before, logged_before = self.env.error_cursor, len(self.caplog.records)
        try:
            result = await action()
        except Exception as error:  # the press itself could not be made: a defect of the test
            raise AssertionError(f"{press}: SimCord refused the press: {error!r}") from error
        self.count(press, result)
        logged = [r for r in self.caplog.records[logged_before:] if r.levelno >= logging.ERROR]
        for record in logged:
            head = traceback_head(record)
            self.fail("an ERROR was logged", normalised(head.splitlines()[-1]), head, press)
        for raised in [] if logged else self.env.errors_since(errors_before):
            self.fail("the bot raised", type(raised).__name__, repr(raised), press)
        for stored_now, what in self.survey():
            key = f"{press.where} -> {place(stored_now)} via {family(press.custom_id)}"
            kind = "a public message changed" if "now shows" in what else "a secret in public"
            self.fail(kind, key, what, press)
        for match_id, row in before.items():
            self.check_match(press, actor, row, await self.row(match_id))
        return result

    def count(self, press: Press, result: Any) -> None:
        self.seen.presses += 1
        self.seen.legal += press.legal
        self.seen.places[press.where] += 1
        self.seen.actors[press.actor] += 1
        self.seen.families[family(press.custom_id)] += 1
        if not result.acknowledged:
            self.fail("unanswered", family(press.custom_id), "the interaction was never acknowledged", press)
        for reply in [result.response, *result.followups]:
            if reply is not None and reply.ephemeral:
                self.ephemerals.setdefault(press.actor, []).append((reply.channel_id, reply.id))

    def involved(self, custom_id: str, stored: Any) -> list[int]:
        """The stored matches a press could touch: the id it names and its message's match."""
        ids = []
        found = MATCH_OF_ID.match(custom_id)
        if found:
            ids.append(int(found[1] or found[2]))
        titled = TITLE.fullmatch(title(stored))
        if titled:
            ids.append(int(titled["match"]))
        return [i for i in dict.fromkeys(ids) if 0 < i < STORED_ID_LIMIT]

    async def row(self, match_id: int) -> MatchRow | None:
        return await self.env.bot.storage.matches.get(match_id)

    def check_match(
        self, press: Press, actor: Actor, before: MatchRow | None, after: MatchRow | None
    ) -> None:
        """What the press did to a stored match: only allowed seats, and no change made from
        another server (its players may act from their DMs)."""
        if after is None:
            return
        if before is not None and before.turn != after.turn:
            self.seen.moves += 1
        for kind, problem in self.seating(after) - (self.seating(before) if before else set()):
            self.fail(
                kind, f"{after.game} via {family(press.custom_id)}", f"match {after.id} {problem}", press
            )
        moved = (after.status, after.turn, after.players)
        if actor.guild_id not in (None, after.guild_id) and (
            before is None or (before.status, before.turn, before.players) != moved
        ):
            self.fail(
                "a match changed by a press from another server",
                f"{press.actor} via {family(press.custom_id)}",
                f"match {after.id} of server {after.guild_id}: {_summary(before)} -> {_summary(after)}",
                press,
            )

    def seating(self, row: MatchRow) -> set[tuple[str, str]]:
        """What is wrong with a match's seats: too many, someone twice, someone of another server."""
        engine = ENGINES[row.game]
        wrong = set()
        if len(row.players) > engine.max_players:
            wrong.add(
                (
                    "an over-filled lobby",
                    f"seats {len(row.players)}; {engine.title} takes at most {engine.max_players}",
                )
            )
        if len(set(row.players)) != len(row.players):
            wrong.add(("an over-filled lobby", f"seats someone twice: {row.players}"))
        members = self.members.get(row.guild_id, set())
        for user in row.players:
            if user not in members:
                wrong.add(
                    ("a seat for someone of another server", f"seats <@{user}>, no member of its server")
                )
        return wrong

    def fail(self, kind: str, key: str, detail: str, press: Press) -> None:
        self.failures.append(Failure(kind, key, detail, press))

    def report(self) -> str:
        classes: dict[tuple[str, str], list[Failure]] = {}
        for failure in self.failures:
            classes.setdefault((failure.kind, failure.key), []).append(failure)
        lines = [
            f"{len(self.failures)} of {self.seen.presses} presses failed ({self.game}, seed {self.seed}); "
            f"{len(classes)} kinds, the first press of each:"
        ]
        for (kind, _), found in sorted(classes.items(), key=lambda item: item[1][0].press.step):
            first = found[0]
            lines.append(
                f"- {kind} ×{len(found)}: {first.press}\n    " + first.detail.replace("\n", "\n    ")
            )
        return "\n".join(lines)


async def forge_on(handle: Any, message: Any, custom_id: str, values: list[str] | None) -> Any:
    """`forge` on a message that stays one Discord could hold: when its five rows are taken,
    the forged component stands in its last row (as on a board that once held it).

    The forged component rides on the message the press carries, which in Discord is always
    the message as stored; so when the bot redraws the carried components (clearing a
    refused pick), the message gets back its own components, not the forged one."""
    stored = _visible_message(handle, message)
    own = [dict(row) for row in stored.components]
    if len(own) < ROWS_LIMIT:
        carried = [*own, _row_of(custom_id, values)]
        result = await forge(handle, message, custom_id, values)
    else:
        carried = [*own[: ROWS_LIMIT - 1], _row_of(custom_id, values)]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        result = await _component_interaction(handle, replace(stored, components=carried), data)
    now = handle._env.backend.messages.get(stored.channel_id, {}).get(stored.id)
    if now is not None and _custom_ids(now.components) == _custom_ids(carried):
        now.components = own
    return result


def _row_of(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """An action row holding the forged component, as `forge` builds it."""
    if values is None:
        component = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
    else:
        options = [{"label": value, "value": value} for value in values]
        component = {"type": 3, "custom_id": custom_id, "options": options}
    return {"type": 1, "components": [component]}


def _summary(row: MatchRow | None) -> str:
    return "absent" if row is None else f"{row.status}, turn {row.turn}, players {row.players}"


@pytest.fixture
def fixed_deals(monkeypatch):
    """Lobbies draw their seeds from a seeded generator, so a run replays the same deals."""

    def use(seed: int) -> None:
        drawn = random.Random(seed)
        monkeypatch.setattr("matches.lobby.random", SimpleNamespace(SystemRandom=lambda: drawn))

    return use


@pytest.fixture
def quick_settling(monkeypatch):
    """SimCord waits for all the bot's work after a press, polling every 50 ms; when a task's
    last callback is still queued it sleeps that whole interval. The fuzz polls every
    millisecond: it waits for the same work, only notices sooner that it is done."""
    monkeypatch.setattr(Env, "_validate_idle", staticmethod(lambda idle: min(idle, 0.001)))


@pytest.mark.parametrize("game", GAMES)
async def test_every_random_or_forged_press_is_answered_and_breaks_nothing(
    table, game, caplog, fixed_deals, quick_settling
):
    fixed_deals(SEEDS[game])
    fuzz = Fuzz(table, game, caplog)
    await fuzz.set_up()

    await fuzz.run(PRESSES)

    seen = fuzz.seen
    print(f"{game}: {seen.presses} presses ({seen.legal} legal, {seen.moves} moves) on {dict(seen.places)}")
    assert not fuzz.failures, fuzz.report()
    assert {"a board", "a private reply", "a lobby", "a finished board", "a leaderboard", "a DM"} <= set(
        seen.places
    )
    assert {"mallory (another server)", "alice (another server)"} <= set(seen.actors)
    templates = {
        "m: fits ChoiceButton",
        "g: fits GameButton",
        "lobby: fits LobbyButton",
        "lb: fits LeaderboardPage",
    }
    assert {*templates, "fits no template"} <= set(seen.families), seen.families
    assert seen.moves > 20, f"only {seen.moves} moves were made: the matches hardly moved"
