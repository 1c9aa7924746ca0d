"""The words of a Triominos picture: what just happened (worded once, by `narrate`, for
the board and the bot's message), who won, and where a hand card fits."""

from __future__ import annotations

from collections.abc import Callable

from games.triominos import PlaceFit, TriominosEvent, TriominosView
from locales import DEFAULT, N_, and_list, gettext, ngettext, pgettext
from render.common import seat_label, wrap
from render.triominos.layout import MARGIN, NARRATION_SIZE

HEXAGONS = {1: N_("a hexagon"), 2: N_("two hexagons"), 3: N_("three hexagons")}
LAST_ROUND_ROOM = 140  # the footer's room for the last-round warning beside the narration


def bank_text(count: int, lang: str = DEFAULT) -> str:
    """The tokens left in the bank, as the board's footer says it."""
    return ngettext(lang, "Bank: {n} token", "Bank: {n} tokens", count)


def pot_text(count: int, lang: str = DEFAULT) -> str:
    """The cards left in the pot, as the board's footer says it."""
    return ngettext(lang, "Pot: {n} card", "Pot: {n} cards", count)


def tokens(count: int, lang: str = DEFAULT) -> str:
    """ "1 token", "3 tokens"."""
    return ngettext(lang, "{n} token", "{n} tokens", count)


def narrate(view: TriominosView, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the deal) did; `name(seat)` names a seat.

    The one wording of every event: the board writes it with seat letters, the bot's
    message with mentions.
    """
    event = view["last_event"]
    if event is None:
        return []
    seat = event["seat"]
    kind, who = event["type"], name(seat) if seat is not None else ""
    if kind == "start":
        return [
            gettext(lang, "The first card is on the table."),
            gettext(lang, "{who} was drawn to start.", who=who),
        ]
    if kind == "place":
        return _placed(event, who, lang)
    if kind == "take_joker":
        return [gettext(lang, "{who} took back the joker and put a card in its place.", who=who)]
    if kind == "buy":
        said = [gettext(lang, "{who} paid 1 token and drew a card.", who=who)]
        if event.get("pot_emptied"):
            said.append(gettext(lang, "That was the last card of the pot."))
        return said
    if kind == "pass":
        if event.get("reason") == "empty_pot":
            return [gettext(lang, "{who} passed: no card fits and the pot is empty.", who=who)]
        return [gettext(lang, "{who} passed: no card fits and no token is left to buy one.", who=who)]
    if kind == "resign":
        return [gettext(lang, "{who} left the game.", who=who)]
    return []


def _placed(event: TriominosEvent, who: str, lang: str) -> list[str]:
    """A placed card: the tokens it earned, and why."""
    reasons = [pgettext(lang, "token for", "card")]
    hexagons = event["hexagons"]
    if hexagons:
        reasons.append(
            gettext(lang, HEXAGONS[hexagons])
            if hexagons in HEXAGONS
            else ngettext(lang, "{n} hexagon", "{n} hexagons", hexagons)
        )
    if event["bridge"]:
        reasons.append(gettext(lang, "a bridge"))
    if event["last_card"]:
        reasons.append(gettext(lang, "the last card"))
    paid, why = tokens(event["paid"], lang), " + ".join(reasons)
    if event["joker"]:
        said = [
            gettext(lang, "{who} placed the joker: +{tokens} ({reasons}).", who=who, tokens=paid, reasons=why)
        ]
    else:
        said = [
            gettext(lang, "{who} placed a card: +{tokens} ({reasons}).", who=who, tokens=paid, reasons=why)
        ]
    if event["paid"] < event["earned"]:
        said.append(gettext(lang, "The bank held only {tokens}.", tokens=paid))
    return said


def result(winners: list[int], lang: str) -> str:
    """Who won, for the header of a finished game."""
    if not winners:
        return gettext(lang, "Game over: Nobody wins!")
    names = and_list(lang, [seat_label(s) for s in winners])
    if len(winners) > 1:
        return gettext(lang, "Game over: {seats} win!", seats=names)
    return gettext(lang, "Game over: {seats} wins!", seats=names)


def last_round_running(view: TriominosView) -> bool:
    """Whether the footer warns that the last round is being played."""
    return bool(view["last_round"] and view["to_move"])


def footer_lines(view: TriominosView, width: int, lang: str = DEFAULT) -> tuple[str, ...]:
    """What happened, wrapped beside the last-round warning."""
    room = width - 2 * MARGIN - (LAST_ROUND_ROOM if last_round_running(view) else 0)
    return tuple(wrap(" ".join(narrate(view, seat_label, lang)), room, NARRATION_SIZE))


def fits_text(fits: list[PlaceFit], lang: str = DEFAULT) -> str:
    """Which places a card fits, short enough for a caption."""
    labels = sorted({str(label) for label, _ in fits}, key=int)
    if not labels:
        return gettext(lang, "fits nowhere yet")
    shown = ", ".join(labels[:5]) + (" …" if len(labels) > 5 else "")
    return gettext(lang, "fits {places}", places=shown)
