"""What every part of the match framework shares: a running match, seats, clocks, replies."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

import locales
from ai import LEVELS
from data.model import (
    CLAIMED,
    DEPARTED,
    HINTED,
    REPEATED,
    RESIGNED,
    TIMED_OUT,
    Departure,
    MatchRow,
    is_computer,
)
from games import GameError
from games.base import AnyEngine, CommonView, MessageValue, Term
from games.feats import Achievement
from locales import N_, alternatives, command, gettext, ngettext, pgettext
from matches.components import items_view
from render.common import SEAT_LETTERS

log = logging.getLogger(__name__)

SEAT_MARKS = ("🟦", "🟧", "🟩", "🟪", "⬜", "🟥")
# Framework-owned arguments of game buttons (game cogs use names without a leading "_").
PRIVATE, RESIGN, RESIGN_CONFIRM, REMATCH = "_private", "_resign", "_resign!", "_rematch"
BOARD, WATCH, REPLAY = "_board", "_watch", "_replay"  # re-post the board; spectate; the replay
CLAIM, CLAIM_CONFIRM = "_claim", "_claim!"  # without a clock: resign a player to move long absent
HINT, HINT_CONFIRM = "_hint", "_hint!"  # the normal computer's move for the player to move
CANCEL = "_cancel"  # a host cancels their lobby from /matches (its message may be gone)
# The player who just moved asks to take it back; the others accept or decline (+ the request's id).
TAKEBACK, TAKEBACK_YES, TAKEBACK_NO = "_takeback", "_takeback+", "_takeback-"
ALIVE = "alive_at"
ALT_LIMIT = 1024  # Discord: the longest attachment description, and media gallery item description
MAX_AUTO_MOVES = 50  # a turn of several decisions is played out, never forever
DEFAULT_CLOCK_S = 24 * 3600
DEFAULT_MAX_TIMEOUTS = 3
CLOCK_CHOICES = [
    app_commands.Choice(name=locale_str("2 minutes (live play)"), value=120),
    app_commands.Choice(name=locale_str("10 minutes"), value=600),
    app_commands.Choice(name=locale_str("1 hour"), value=3600),
    app_commands.Choice(name=locale_str("24 hours (play over days)"), value=86400),
    app_commands.Choice(name=locale_str("3 days"), value=3 * 86400),
    app_commands.Choice(name=locale_str("no clock"), value=0),
]
CLOCK_HELP = locale_str(
    "Time per move; when it runs out the move is played for you (default: the server's setting)"
)
DAY_S, HOUR_S = 86400, 3600
MAX_OPEN_LOBBIES = 3  # a member hosts at most this many open lobbies on one server
# Discord takes an interaction's token for 15 minutes: edits through it stop a little before.
TOKEN_LIFETIME = timedelta(minutes=14)
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}  # computer levels
# Without a clock, the others may claim a match whose player to move has not moved for so long.
CLAIM_AFTER = timedelta(days=3)
# How a seat's person left a match before its end, beside their name in results.
LEFT_MARKS = {
    RESIGNED: N_("resigned"),
    TIMED_OUT: N_("timed out, seat taken over"),
    DEPARTED: N_("left the server"),
    CLAIMED: N_("claimed after 3 days without a move"),
}
# How the board tells each departure.
LEFT_LINES = {
    TIMED_OUT: N_("{player} ran out of time too often and resigned by it: a computer played their seat."),
    DEPARTED: N_("{player} is no longer on this server and was resigned."),
    CLAIMED: N_("{player} made no move for 3 days: the others claimed the match."),
}
# Why a finished match changed no rating, where the result does not already say so (an
# abandoned match says it is; a match with computers is plainly one).
UNRATED_TEXTS = {
    REPEATED: N_("unrated: these members already had 3 rated results together in the last 24 hours"),
    HINTED: N_("unrated: a player who used hints did not lose"),
}


def clock_text(seconds: int | None, lang: str) -> str:
    """A turn clock as players read it: "2 minutes per move", "24 hours per move", "3 days per move"."""
    if not seconds:
        return gettext(lang, "no turn clock")
    if seconds % DAY_S == 0 and seconds > DAY_S:
        return ngettext(lang, "{n} day per move", "{n} days per move", seconds // DAY_S)
    if seconds == HOUR_S or seconds >= 2 * HOUR_S:
        return ngettext(lang, "{n} hour per move", "{n} hours per move", seconds // HOUR_S)
    return ngettext(lang, "{n} minute per move", "{n} minutes per move", seconds // 60)


def later(seconds: int | None) -> str | None:
    """The deadline `seconds` from now, or None without a clock."""
    return (discord.utils.utcnow() + timedelta(seconds=seconds)).isoformat() if seconds else None


def seat_name(seat: int) -> str:
    """How a seat is shown in text: its colour square and letter, as on the boards
    (a number past the sixth seat, which no game has)."""
    if 0 <= seat < len(SEAT_LETTERS):
        return f"{SEAT_MARKS[seat]} {SEAT_LETTERS[seat]}"
    return f"seat {seat + 1}"


def computer_id(players: list[int], level: str) -> int:
    """The stored id of a new computer seat at `level` among `players`: negative (Discord's
    ids are positive), unique in the match, its level in the last digit."""
    number = 1 + max(((-user - 1) // 10 for user in players if is_computer(user)), default=0)
    return -(10 * number + LEVELS.index(level) + 1)


def computer_level(user_id: int) -> str | None:
    """The level of a computer seat's id; None for a person."""
    if not is_computer(user_id):
        return None
    digit = (-user_id - 1) % 10
    return LEVELS[digit] if digit < len(LEVELS) else "normal"


def humans(players: list[int]) -> list[int]:
    """The people among a match's players."""
    return [user for user in players if not is_computer(user)]


def who(user_id: int, lang: str = "en") -> str:
    """How messages name a seat's player: a mention, or the computer's name and marker."""
    level = computer_level(user_id)
    if level is None:
        return f"<@{user_id}>"
    return gettext(lang, "🤖 Computer ({level})", level=level_name(level, lang))


def level_name(level: str, lang: str) -> str:
    """A computer's level as players read it ("easy", "leicht", "facile")."""
    return gettext(lang, LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def left_mark(reason: str | None, lang: str) -> str:
    """ " (resigned)", " (left the server)"…: how a seat's person left before the end, or ""."""
    return f" ({gettext(lang, LEFT_MARKS[reason])})" if reason in LEFT_MARKS else ""


def left_line(departure: Departure, lang: str) -> str:
    """A departure as the final board tells it."""
    return gettext(lang, LEFT_LINES[departure.reason], player=who(departure.user_id, lang))


def unrated_text(reason: str | None, lang: str) -> str | None:
    """Why a result changed no rating, where it needs saying (not for a match with computers)."""
    return gettext(lang, UNRATED_TEXTS[reason]) if reason in UNRATED_TEXTS else None


def help_text(lang: str) -> str:
    """The help command as a member of that language sees it: "`/help`", "`/hilfe`"."""
    return f"`{command(lang, 'help')}`"


def start_text(start_command: str, lang: str) -> str:
    """A game's `start_command` ("`/rookie new`") as a member of that language sees it."""
    return f"`{command(lang, start_command.strip('`/'))}`"


def mentions(user_ids: list[int] | tuple[int, ...]) -> str:
    """The people among `user_ids` as mentions (computers are never pinged)."""
    return " ".join(f"<@{user}>" for user in humans(list(user_ids)))


def players_text(counts: tuple[int, ...], lang: str) -> str:
    """The seat counts a game starts with, as players read them: "2–4" or "2, 3, 4 or 6"."""
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return gettext(lang, "{counts} or {last}", counts=", ".join(map(str, counts[:-1])), last=counts[-1])


@dataclass(slots=True)
class Match:
    """A running match in memory: the stored row plus the engine state and a lock."""

    row: MatchRow
    engine: AnyEngine
    state: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dm_closed: set[int] = field(default_factory=set)
    # Said on the next board only (time-outs, removals); the board itself is the record.
    notes: list[str] = field(default_factory=list)
    rating_changes: dict[int, tuple[int, int]] = field(default_factory=dict)
    unrated: str | None = None  # once over: why it changed no rating (data.model.WITH_COMPUTERS…)
    hints: dict[int, int] = field(default_factory=dict)  # once over: the hints used, by seat
    earned: dict[int, tuple[Achievement, ...]] = field(default_factory=dict)  # once over: by person
    takeback_by: int | None = None  # who may ask to take back the last move (it revealed nothing)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def turn(self) -> int:
        return self.row.turn

    @property
    def players(self) -> list[int]:
        return self.row.players

    @property
    def language(self) -> str:
        """The language of the match's public messages, fixed when its lobby opened."""
        return self.row.language

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    def view(self, seat: int | None = None) -> CommonView[Any]:
        """What `seat` may know (None: a spectator): the framework reads the keys every view has."""
        view: CommonView[Any] = self.engine.view(self.state, seat)  # the game's own view type
        return view

    def claimable_from(self) -> datetime | None:
        """When the others may claim the match against its person to move (CLAIM_AFTER after the
        last move), or None: a turn clock looks after absent players, a computer is due, or no
        other person plays."""
        seats = self.engine.current_seats(self.state) if self.row.status == "running" else ()
        last = self.row.moved_at or self.row.started_at
        if self.row.clock_s or not seats or not humans([self.players[seats[0]]]) or last is None:
            return None
        if len(humans(self.players)) < 2:
            return None
        return datetime.fromisoformat(last) + CLAIM_AFTER

    def jump_url(self) -> str:
        return jump_url(self.row)


def jump_url(row: MatchRow) -> str:
    """A link to the message of a lobby or match (to its channel while it has none)."""
    url = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
    return url if row.message_id is None else f"{url}/{row.message_id}"


def token_alive(interaction: discord.Interaction) -> bool:
    """Whether Discord still takes requests through the interaction's token: an edit with an
    expired one is refused, and refusals count towards Discord's ban of a bot."""
    return discord.utils.utcnow() - interaction.created_at < TOKEN_LIFETIME


@dataclass(slots=True)
class PrivateReply:
    """What a player alone sees: text, an optional image and the controls to act on it."""

    content: str
    image: bytes | None = None
    items: list[discord.ui.DynamicItem[Any]] = field(default_factory=list)
    alt: str = ""  # the image in words for screen readers; by default the reply's own text


def private_payload(
    reply: PrivateReply, lang: str, *, interactive: bool = True, attachments: bool = False
) -> dict[str, Any]:
    """Message arguments for a private reply in `lang`; `attachments` for an edit (it replaces
    the old files)."""
    payload: dict[str, Any] = {"content": reply.content}
    files = []
    if reply.image is not None:
        alt = alt_text(reply.alt or reply.content, lang)
        files.append(discord.File(io.BytesIO(reply.image), filename="private.png", description=alt))
    if attachments:
        payload["attachments"] = files
    elif files:
        payload["file"] = files[0]
    if interactive and reply.items:
        payload["view"] = items_view(reply.items)
    elif interactive and attachments:
        payload["view"] = None  # an edit: the old controls go
    return payload


def standing(engine: AnyEngine, state: Any, lang: str, you: int | None = None) -> str:
    """Whose turn it is, or the result, in words for an image description: seats by their
    letters (as the images write them), `you` as "your"."""
    outcome = engine.outcome(state)
    if outcome is None:
        seats = engine.current_seats(state)
        if you in seats:
            return gettext(lang, "It is your turn.")
        # TRANSLATORS: {n} is how many players are to move at once (it is not shown).
        return ngettext(lang, "{seats} to move.", "{seats} to move.", len(seats), seats=_letters(seats, lang))
    if not outcome.winners:
        return gettext(lang, "Game over: nobody wins.")
    winners = _letters(outcome.winners, lang)
    if outcome.draw:
        return gettext(lang, "Game over: {seats} draw.", seats=winners)
    if len(outcome.winners) > 1:
        return gettext(lang, "Game over: {seats} win.", seats=winners)
    return gettext(lang, "Game over: {seats} wins.", seats=winners)


def _letters(seats: tuple[int, ...], lang: str) -> str:
    return locales.and_list(lang, [SEAT_LETTERS[seat] for seat in seats])


def match_title(game: str, match_id: int, lang: str) -> str:
    """A match as titles and lists name it: "Rookie #12", "Rookie nº 12"."""
    return pgettext(lang, "match title", "{game} #{id}", game=game, id=match_id)


def alt_text(text: str, lang: str) -> str:
    """Text as an image description: no Markdown or mentions (a mention that starts a sentence
    becomes "A player", one inside it "a player"), within Discord's 1,024 characters."""
    plain = text.replace("**", "").replace("*", "")
    starts = pgettext(lang, "sentence start", "A player")
    # A sentence starts at the start, after its full stop, or after an icon that opens a line.
    plain = re.sub(r"(^|[.!?]\s+|\n)([^\w<]*)<@!?\d+>", lambda found: found[1] + found[2] + starts, plain)
    plain = re.sub(r"<@!?\d+>", gettext(lang, "a player"), plain)
    plain = " ".join(plain.split())
    return plain if len(plain) <= ALT_LIMIT else plain[: ALT_LIMIT - 1] + "…"


def error_text(error: GameError, lang: str) -> str:
    """A game's refusal as a player reads it in `lang` (English where it has no translation)."""
    return gettext(lang, error.template, **{key: shown(value, lang) for key, value in error.values.items()})


def shown(value: MessageValue, lang: str) -> str | int | float:
    """A refusal's value in `lang`: its game words translated, a choice joined with "or"."""
    if isinstance(value, tuple):
        return alternatives(lang, [str(shown(item, lang)) for item in value])
    return gettext(lang, value) if isinstance(value, Term) else value


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was answered already. A refused pick
    in a select menu is also cleared, so the member can pick the same option again."""
    if not interaction.response.is_done() and _is_select(interaction):
        await _clear_select(interaction)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def _clear_select(interaction: discord.Interaction) -> None:
    """Redraw the message's components as they are, which clears the pick shown in its menu."""
    if interaction.message is None:
        return
    components: discord.ui.View | discord.ui.LayoutView
    if interaction.message.flags.components_v2:
        components = discord.ui.LayoutView.from_message(interaction.message, timeout=None)
        _keep_attachments(components, interaction.message)
    else:
        components = discord.ui.View.from_message(interaction.message, timeout=None)
    try:
        await interaction.response.edit_message(view=components)
    except (discord.HTTPException, ValueError, IndexError) as error:  # a forged menu it cannot hold
        log.info("A refused pick could not be cleared: %s", error)
    finally:
        components.stop()  # the same components, redrawn: nothing to listen to


def _keep_attachments(card: discord.ui.LayoutView, message: discord.Message) -> None:
    """Point a redrawn card's pictures at the message's own attachments again (Discord gives
    them back as links, which expire, where they were sent as `attachment://` references)."""
    names = {attachment.id: attachment.filename for attachment in message.attachments}
    for gallery in card.walk_children():
        if isinstance(gallery, discord.ui.MediaGallery):
            gallery.items = [_attached(item, names) for item in gallery.items]


def _attached(item: discord.MediaGalleryItem, names: dict[int, str]) -> discord.MediaGalleryItem:
    name = names.get(item.media.attachment_id or 0)
    if name is None:
        return item
    return discord.MediaGalleryItem(
        f"attachment://{name}", description=item.description, spoiler=item.spoiler
    )


def _is_select(interaction: discord.Interaction) -> bool:
    data: Any = interaction.data or {}
    return interaction.type is discord.InteractionType.component and data.get("component_type") == 3
