"""The board message of a match (a card: words, image, controls) and what follows a move:
the edit in place, the ping of the player now due and their DM notice."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import discord

from data.model import RESIGNED, TIMED_OUT, StorageUnavailable
from data.repositories import Database
from games import Outcome
from games.base import CommonView
from locales import N_, and_list, gettext, ngettext, pgettext, signed
from locales.audience import private_language
from matches.awards import earned_lines
from matches.cards import Card, card_view, colour, note_view
from matches.components import GameButton, form_items
from matches.game_ui import AnyGameUI
from matches.hints import hint_button, offers_hints, used_lines
from matches.match import (
    CLAIM,
    PRIVATE,
    REMATCH,
    REPLAY,
    RESIGN,
    TAKEBACK,
    Match,
    alt_text,
    clock_text,
    left_line,
    left_mark,
    match_title,
    standing,
    tell,
    token_alive,
    unrated_text,
    who,
)
from matches.notices import Notices
from matches.presentation import Form
from render.common import seat_label

log = logging.getLogger(__name__)
EDIT_LIMIT = 30046  # Discord: this message is too old to be edited so often


class Board:
    """Draws and publishes boards; knows each game's UI by name."""

    def __init__(
        self, bot: discord.Client, storage: Database, games: Mapping[str, AnyGameUI], notices: Notices
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.games = games
        self.notices = notices
        self.stale: dict[int, Match] = {}  # boards a failed edit left behind, by match
        self.watchers: dict[int, list[discord.Interaction]] = {}  # spectators' views, by match
        self.after_publish: Callable[[Match], None] = lambda match: None  # e.g. a computer's turn
        # Whether a refusal says the bot lost the match's place (then the match is set aside).
        self.lost_place: Callable[[Match, discord.HTTPException], Awaitable[bool]] = _not_lost
        self.moved_on: Callable[[Match], Awaitable[None]] = _nothing  # e.g. a take-back request lapses
        self.ended: Callable[[Match], Awaitable[None]] = _nothing  # e.g. a tournament's table is decided

    async def publish(
        self, interaction: discord.Interaction | None, match: Match, *, previous_seats: tuple[int, ...]
    ) -> None:
        """After a move: redraw the board and its spectators' views, then ping and notify a
        newly due player. Nothing follows once the match is set aside (its place is lost)."""
        await self.edit(interaction, match)
        if match.row.status != "set_aside":
            await self.announce(match, previous_seats)

    async def announce(self, match: Match, previous_seats: tuple[int, ...]) -> None:
        """What follows a board: its spectators' views, the ping and notice of a newly due player
        (or the tidying up of a finished match), then a computer's turn."""
        match.notes.clear()
        await self.moved_on(match)
        await self._refresh_watchers(match)
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        due = [seat for seat in seats if seat not in previous_seats]
        try:
            if due:
                await self.notices.due(match, due)
            elif not seats:
                await self.notices.clear_ping(match)
                if match.row.message_id is not None:  # a match never shown (run headless) has no thread
                    await self.close_thread(match.row.channel_id)
        except discord.HTTPException as error:
            if not await self.lost_place(match, error):
                raise
        finally:
            self.after_publish(match)  # a computer due next plays, whatever telling people met
        if match.row.status in ("finished", "abandoned"):
            await self.ended(match)

    async def edit(
        self,
        interaction: discord.Interaction | None,
        match: Match,
        path: tuple[int, ...] = (),
    ) -> None:
        """Redraw the board message in place (through the interaction when it is the board),
        with the choices picked so far (`path`) on it. A board that is gone or can no longer be
        edited is posted afresh; one that fails otherwise is kept in `stale` for the clock to
        redraw later; a refusal that says the bot lost the match's place sets the match aside.
        A match never shown (run headless) has no board to redraw."""
        if interaction is None and match.row.message_id is None:
            return
        try:
            await self._edit(interaction, match, await self.payload(match, path))
        except discord.HTTPException as error:
            if await self.lost_place(match, error):
                return
            if not _dead(error) or not await self.repost(match, path):
                if match.row.status != "set_aside":  # posting it again found the place lost
                    await self._failed(interaction, match, error)
                return
        if self.stale.pop(match.id, None) is not None or match.row.board_stale:
            await self._mark_stale(match, False)

    async def redraw_stale(self) -> None:
        """Try again to redraw the boards whose last redraw failed."""
        for match in list(self.stale.values()):
            if match.lock.locked():  # a move under way redraws it anyway
                continue
            try:
                await self.edit(None, match)
            except StorageUnavailable as error:  # one board's fault never stops the others
                log.warning("The board of match %s waits to be redrawn: %s", match.id, error)
            except Exception:
                log.exception("The board of match %s could not be redrawn", match.id)

    async def _edit(
        self, interaction: discord.Interaction | None, match: Match, payload: dict[str, Any]
    ) -> None:
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == match.row.message_id
        ):
            await interaction.edit_original_response(**payload)
        elif match.row.message_id is not None:
            channel = self.bot.get_partial_messageable(match.row.channel_id)
            await channel.get_partial_message(match.row.message_id).edit(**payload)

    async def repost(self, match: Match, path: tuple[int, ...] = ()) -> bool:
        """Post the board as a new message at the bottom of the match's channel and leave a
        pointer to it in the old one where Discord allows; False if posting fails too."""
        payload = await self._new_message(match, path)
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        try:
            message = await channel.send(**payload)
        except discord.HTTPException as error:
            if not await self.lost_place(match, error):
                log.warning("The board of match %s could not be posted again: %s", match.id, error)
            return False
        old, match.row.message_id = match.row.message_id, message.id
        await self.storage.matches.set_board_message(match.id, message.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):  # deleted, or past its edit limit
                moved = gettext(match.language, "This board moved: {link}", link=match.jump_url())
                await channel.get_partial_message(old).edit(
                    content=None, embeds=[], attachments=[], view=note_view(moved)
                )
        return True

    async def close_thread(self, channel_id: int) -> None:
        """Archive a match's thread once it is over (nothing to do for a channel)."""
        try:
            channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if isinstance(channel, discord.Thread) and not channel.archived:
                await channel.edit(archived=True)
        except discord.HTTPException as error:
            log.info("The thread %s could not be archived: %s", channel_id, error)

    async def watch(self, interaction: discord.Interaction, match: Match) -> None:
        """Show a spectator the public board privately, kept current until it ends."""
        payload = await self._new_message(match, items=self._watch_items(match))
        await interaction.response.send_message(**payload, ephemeral=True)
        self.watchers.setdefault(match.id, []).append(interaction)

    async def _refresh_watchers(self, match: Match) -> None:
        """Redraw the spectators' views of the match; forget those whose token is about to
        expire (15 minutes: no edit is tried after 14), those Discord refuses (dismissed), and
        all of them once the match is over."""
        watching = [view for view in self.watchers.pop(match.id, []) if token_alive(view)]
        if not watching:
            return
        payload = await self.payload(match, items=self._watch_items(match))
        kept = []
        for interaction in watching:
            try:
                await interaction.edit_original_response(**payload)
            except discord.HTTPException as error:
                log.info("A spectator view of match %s could not be redrawn: %s", match.id, error)
            else:
                kept.append(interaction)
        if kept and match.row.status == "running":
            self.watchers[match.id] = kept

    def _watch_items(self, match: Match) -> list[discord.ui.DynamicItem[Any]]:
        """A spectator has no controls while the match runs; once it is over, its replay."""
        return [] if match.row.status == "running" else self._result_buttons(match, rematch=False)

    async def _failed(
        self, interaction: discord.Interaction | None, match: Match, error: discord.HTTPException
    ) -> None:
        log.warning("The board of match %s could not be redrawn (%s); the clock tries again", match.id, error)
        self.stale[match.id] = match
        if not match.row.board_stale:
            await self._mark_stale(match, True)
        if interaction is not None:
            text = N_("Saved — but the board could not be redrawn just now; it will be soon.")
            await tell(interaction, gettext(private_language(interaction), text))

    async def _mark_stale(self, match: Match, stale: bool) -> None:
        """Keep in the database whether the board is behind, so a restart redraws it."""
        try:
            await self.storage.matches.mark_board_stale(match.id, stale)
        except StorageUnavailable as error:  # memory still knows; the next redraw tries again
            log.warning("Could not note the board of match %s as %s: %s", match.id, stale, error)
            return
        match.row.board_stale = stale

    async def payload(
        self,
        match: Match,
        path: tuple[int, ...] = (),
        *,
        items: list[discord.ui.DynamicItem[Any]] | None = None,
    ) -> dict[str, Any]:
        """The board message's card and image, rendered off the event loop: the arguments of an
        edit, which also turn a board drawn as an embed into a card.

        The seat to move's choices on the board come from the game's form at `path`;
        its preview (a partial choice) is drawn on the image. `items` replace the controls."""
        game = self.games[match.row.game]
        view = match.view(None)
        form = self.board_form(match, path)
        image = await asyncio.to_thread(game.board_image, view, form.preview, match.language)
        alt = board_alt(game, match, view, match.language)
        board = discord.File(io.BytesIO(image), filename="board.png", description=alt)
        if items is None and match.row.status != "running":
            items = self._result_buttons(match)
        elif items is None:
            items = [*form_items(match.id, match.turn, "b", form), *self._framework_buttons(game, match)]
        card = self.card(game, match, view, items, alt)
        return {
            "content": None,
            "embeds": [],
            "attachments": [board],
            "view": card_view(card),
        }

    async def _new_message(
        self,
        match: Match,
        path: tuple[int, ...] = (),
        *,
        items: list[discord.ui.DynamicItem[Any]] | None = None,
    ) -> dict[str, Any]:
        """The board as the arguments of a new message (its image a file, not a replacement)."""
        payload = await self.payload(match, path, items=items)
        payload["files"] = payload.pop("attachments")
        del payload["content"], payload["embeds"]
        return payload

    def board_form(self, match: Match, path: tuple[int, ...] = ()) -> Form[Any]:
        """The choices the board offers the (first) seat to move."""
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        legal = match.engine.legal_moves(match.state, seats[0]) if seats else []
        game = self.games[match.row.game]
        return game.present(match.view(None), legal, path, private=False, lang=match.language)

    def card(
        self,
        game: AnyGameUI,
        match: Match,
        view: CommonView[Any],
        items: list[discord.ui.DynamicItem[Any]],
        alt: str,
    ) -> Card:
        """The board's card with `items` for controls and `alt` describing its image, in the
        match's language: its accent the colour of the seat to move, or of the winner."""
        lang = match.language
        lines = [*match.notes, *game.headline(match, view, lang)]
        outcome = match.engine.outcome(match.state)
        if outcome is None:
            to_move = self.to_move_text(match, lang, view)
            movers = len(match.engine.current_seats(match.state))
            # TRANSLATORS: {n} is how many players are to move at once (it is not shown).
            said = ngettext(
                lang,
                "**Turn {turn}:** {players} to move.",
                "**Turn {turn}:** {players} to move.",
                movers,
                turn=match.turn + 1,
                players=to_move,
            )
            lines.append(said)
            if match.row.deadline:
                due = int(datetime.fromisoformat(match.row.deadline).timestamp())
                clock = clock_text(match.row.clock_s, lang)
                lines.append(gettext(lang, "⏰ Time runs out <t:{due}:R> ({clock}).", due=due, clock=clock))
            seats = match.engine.current_seats(match.state)
            accent = colour(game.seat_colour(view, seats[0])) if seats else discord.Colour.blurple()
        else:
            lines.append(_winner_text(match, outcome, lang))
            if any(d.early for d in match.row.departures):
                text = N_("Abandoned before everyone had made two moves: this match is unrated.")
                lines.append(gettext(lang, text))
            # A resignation is told by the game's own lines; the bot's ways of leaving are not.
            lines.extend(left_line(d, lang) for d in match.row.departures if d.reason != RESIGNED)
            lines.extend(game.result_lines(match, outcome, lang))
            lines.extend(used_lines(match, lang))
            lines.extend(earned_lines(match, lang))
            winners = outcome.winners if not outcome.draw else ()
            accent = colour(game.seat_colour(view, winners[0])) if winners else discord.Colour.gold()
        left = {d.seat: d.reason for d in match.row.departures}
        players = "\n".join(
            pgettext(
                lang,
                "players field",
                "{seat} · {player} — {score}",
                seat=game.seat_label(view, seat, lang),
                player=who(user, lang),
                score=game.score_text(view, seat, lang),
            )
            + left_mark(left.get(seat), lang)
            for seat, user in enumerate(match.players)
        )
        parts = [(gettext(lang, "Players"), players)]
        if match.rating_changes:
            parts.append((gettext(lang, "Ratings"), _rating_text(match, lang)))
        elif (unrated := unrated_text(match.unrated, lang)) is not None:
            parts.append((gettext(lang, "Ratings"), unrated))
        return Card(
            heading=match_title(match.engine.title, match.id, lang),
            body="\n".join(lines),
            parts=tuple(parts),
            footer=gettext(lang, "match {id} · move {turn}", id=match.id, turn=match.turn),
            accent=accent,
            picture="board.png",
            alt=alt,
            items=items,
        )

    def to_move_text(self, match: Match, lang: str, view: CommonView[Any] | None = None) -> str:
        """Who is to move, with their seats' labels, in `lang`."""
        view = view if view is not None else match.view(None)
        label = self.games[match.row.game].seat_label
        seats = match.engine.current_seats(match.state)
        return and_list(
            lang, [f"{who(match.players[seat], lang)} ({label(view, seat, lang)})" for seat in seats]
        )

    def _framework_buttons(self, game: AnyGameUI, match: Match) -> list[discord.ui.DynamicItem[Any]]:
        """The private view and Resign; without a clock, Claim (for a player long absent); in a
        game without secrets, Hint (elsewhere it is in the private reply); after a move that
        revealed nothing, Take back (for its player). Five at most: one row."""
        name, turn, lang = match.row.game, match.turn, match.language
        private = gettext(lang, game.private_label)
        resign = gettext(lang, "Resign")
        buttons: list[discord.ui.DynamicItem[Any]] = [
            GameButton(name, match.id, turn, PRIVATE, label=private, row=4),
            GameButton(name, match.id, turn, RESIGN, label=resign, style=discord.ButtonStyle.danger, row=4),
        ]
        if match.claimable_from() is not None:
            buttons.append(GameButton(name, match.id, turn, CLAIM, label=gettext(lang, "Claim"), row=4))
        if not game.spec.secrets and offers_hints(game, match):
            buttons.append(hint_button(match, lang))
        if match.takeback_by is not None:
            label = gettext(lang, "Take back")
            buttons.append(GameButton(name, match.id, turn, TAKEBACK, label=label, emoji="↩️", row=4))
        return buttons

    def _result_buttons(self, match: Match, *, rematch: bool = True) -> list[discord.ui.DynamicItem[Any]]:
        """Under a finished board: Rematch (for its players) and Replay (for anyone)."""
        name, turn, lang = match.row.game, match.turn, match.language
        replay = GameButton(name, match.id, turn, REPLAY, label=gettext(lang, "Replay"), emoji="🎞️")
        if not rematch:
            return [replay]
        label = gettext(lang, "Rematch")
        again = GameButton(name, match.id, turn, REMATCH, label=label, style=discord.ButtonStyle.primary)
        return [again, replay]


async def _not_lost(match: Match, error: discord.HTTPException) -> bool:
    return False


async def _nothing(match: Match) -> None:
    return None


def _dead(error: discord.HTTPException) -> bool:
    """Whether a board message can no longer be edited at all (its place being still there):
    deleted, refused, or past Discord's limit of edits to an old message (which arrives as a
    rate limit)."""
    return isinstance(error, discord.NotFound | discord.Forbidden) or error.code == EDIT_LIMIT


def board_alt(game: AnyGameUI, match: Match, view: CommonView[Any], lang: str) -> str:
    """The board image in words for screen readers, from the public view: the game, what just
    happened, whose turn it is or the result, and the scores. Seats are named by their letter."""
    title = gettext(
        lang, "{game} #{id} board, move {turn}.", game=match.engine.title, id=match.id, turn=match.turn
    )
    lines = [title, *game.narrator(view, seat_label, lang)]
    lines.append(standing(match.engine, match.state, lang))
    # TRANSLATORS: between the seats' scores in a board's description ("A 3 points; B 5 points").
    between = pgettext(lang, "between scores", "; ")
    scores = between.join(
        f"{seat_label(s)} {game.score_text(view, s, lang)}" for s in range(len(match.players))
    )
    lines.append(gettext(lang, "Scores: {scores}", scores=scores))
    return alt_text(" ".join(lines), lang)


def _rating_text(match: Match, lang: str) -> str:
    """Each person's rating before and after (a seat they left is still theirs)."""
    people = {d.seat: d.user_id for d in match.row.departures}
    return "\n".join(
        f"{who(people.get(seat, match.players[seat]), lang)} {before} → {after} "
        f"({signed(lang, after - before)})"
        for seat, (before, after) in sorted(match.rating_changes.items())
    )


def _winner_text(match: Match, outcome: Outcome, lang: str) -> str:
    """The result's headline: nobody, a draw, or who won (by resignation when the last move was one)."""
    names = and_list(lang, [who(match.players[seat], lang) for seat in outcome.winners])
    if not outcome.winners:
        return gettext(lang, "**Game over** — nobody wins.")
    if outcome.draw:
        return gettext(lang, "**Game over** — a draw between {players}.", players=names)
    last = match.row.departures[-1] if match.row.departures else None
    # The last move was a resignation (a stand-in computer's last move is none).
    if last is not None and last.reason != TIMED_OUT and last.turn == match.turn - 1:
        if len(outcome.winners) > 1:
            return gettext(lang, "**Game over** — {players} win by resignation!", players=names)
        return gettext(lang, "**Game over** — {players} wins by resignation!", players=names)
    if len(outcome.winners) > 1:
        return gettext(lang, "**Game over** — {players} win!", players=names)
    return gettext(lang, "**Game over** — {players} wins!", players=names)
