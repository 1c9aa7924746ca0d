"""The one wording of a Rookie table: what just happened and what the player to move is asked.

The board writes these sentences with seat letters, the cog's headline with mentions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.rookie import PendingPlace, RookieEvent, RookieStealChoice, RookieView
from locales import DEFAULT, N_, NP_, gettext, ngettext, pgettext
from render.rookie.colours import GLYPHS

Name = Callable[[int], str]

# Every colour is named with the symbol its cards show (`GLYPHS`), so that no one needs colour
# vision to match the words with the cards.
# TRANSLATORS: the Rookie card colours (and the X card), as adjectives.
COLOUR_NAMES = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
    "X": "X",
}
A_CARDS = {
    "red": N_("a red ● card"),
    "yellow": N_("a yellow ▲ card"),
    "green": N_("a green ■ card"),
    "blue": N_("a blue ◆ card"),
    "purple": N_("a purple ★ card"),
    "X": N_("an X"),
}
# TRANSLATORS: the sentences that name a colour, written once per colour (the context names it)
# so that each language can make the colour agree with its noun ("une paire verte", "ein grünes Paar");
# the symbol follows the colour ("une paire verte ■", "ein grünes ■ Paar").
# A pair turned up, by its colour.
PAIRS = {
    "red": NP_("rookie: red", "{who} turned up a pair of red ● cards."),
    "yellow": NP_("rookie: yellow", "{who} turned up a pair of yellow ▲ cards."),
    "green": NP_("rookie: green", "{who} turned up a pair of green ■ cards."),
    "blue": NP_("rookie: blue", "{who} turned up a pair of blue ◆ cards."),
    "purple": NP_("rookie: purple", "{who} turned up a pair of purple ★ cards."),
    "X": NP_("rookie: X", "{who} turned up a pair of X cards."),
}
# Three tops of one colour secured, by the colour.
SECURED = {
    "red": NP_("rookie: red", "{who} secured three red ● tops: {cards} onto the point stack."),
    "yellow": NP_("rookie: yellow", "{who} secured three yellow ▲ tops: {cards} onto the point stack."),
    "green": NP_("rookie: green", "{who} secured three green ■ tops: {cards} onto the point stack."),
    "blue": NP_("rookie: blue", "{who} secured three blue ◆ tops: {cards} onto the point stack."),
    "purple": NP_("rookie: purple", "{who} secured three purple ★ tops: {cards} onto the point stack."),
    "X": NP_("rookie: X", "{who} secured three X tops: {cards} onto the point stack."),
}
# A pair placed on the player's own discard stacks, by its colour.
PLACED = {
    "red": NP_("rookie: red", "{who} put the red ● pair on {stacks}."),
    "yellow": NP_("rookie: yellow", "{who} put the yellow ▲ pair on {stacks}."),
    "green": NP_("rookie: green", "{who} put the green ■ pair on {stacks}."),
    "blue": NP_("rookie: blue", "{who} put the blue ◆ pair on {stacks}."),
    "purple": NP_("rookie: purple", "{who} put the purple ★ pair on {stacks}."),
    "X": NP_("rookie: X", "{who} put the X pair on {stacks}."),
}
# A pair placed on the partner's discard stacks, by its colour.
PLACED_FOR_PARTNER = {
    "red": NP_("rookie: red", "{who} put the red ● pair on partner {partner}'s {stacks}."),
    "yellow": NP_("rookie: yellow", "{who} put the yellow ▲ pair on partner {partner}'s {stacks}."),
    "green": NP_("rookie: green", "{who} put the green ■ pair on partner {partner}'s {stacks}."),
    "blue": NP_("rookie: blue", "{who} put the blue ◆ pair on partner {partner}'s {stacks}."),
    "purple": NP_("rookie: purple", "{who} put the purple ★ pair on partner {partner}'s {stacks}."),
    "X": NP_("rookie: X", "{who} put the X pair on partner {partner}'s {stacks}."),
}
# What the player who turned up a pair is asked, by its colour.
PLACE_PROMPTS = {
    "red": NP_("rookie: red", "Place the red ● pair on one or two discard stacks."),
    "yellow": NP_("rookie: yellow", "Place the yellow ▲ pair on one or two discard stacks."),
    "green": NP_("rookie: green", "Place the green ■ pair on one or two discard stacks."),
    "blue": NP_("rookie: blue", "Place the blue ◆ pair on one or two discard stacks."),
    "purple": NP_("rookie: purple", "Place the purple ★ pair on one or two discard stacks."),
    "X": NP_("rookie: X", "Place the X pair on one or two discard stacks."),
}
# TRANSLATORS: the Rookie variants and decks, in the header of the board.
SETUP_WORDS = {"standard": N_("standard"), "team": N_("team"), "kids": N_("kids"), "pocket": N_("pocket")}
SIDES = {"before": N_("before you ({who}, {cards})"), "after": N_("after you ({who}, {cards})")}


def cards(count: int, lang: str = DEFAULT) -> str:
    return ngettext(lang, "{n} card", "{n} cards", count)


def colour(kind: str, lang: str = DEFAULT) -> str:
    """A card's colour in words with the symbol its cards show ("red ●"), or X."""
    if kind not in COLOUR_NAMES or kind == "X":
        return kind
    return f"{gettext(lang, COLOUR_NAMES[kind])} {GLYPHS[kind]}"


def a_card(kind: str, lang: str = DEFAULT) -> str:
    if kind in A_CARDS:
        return gettext(lang, A_CARDS[kind])
    return "an X" if kind == "X" else f"a {kind} card"


def setup_word(word: str, lang: str) -> str:
    """A variant or a deck in words ("team", "pocket")."""
    return gettext(lang, SETUP_WORDS[word]) if word in SETUP_WORDS else word


def narrate(view: RookieView, name: Name, lang: str = DEFAULT) -> list[str]:
    """What the last move did (or the start), one sentence per event, seats named by `name`.

    Sentences count positions and stacks from 1 and never name a card that is face
    down again: a miss is told without its colours.
    """
    events = view.get("events")
    if events is None:
        last = view["last_event"]
        events = [last] if last else []
    return [_sentence(view, event, name, lang) for event in events]


def _sentence(view: RookieView, event: RookieEvent, name: Name, lang: str) -> str:
    seat = event["seat"]
    who = "" if seat is None else name(seat)
    kind = event["type"]
    if kind == "start":
        return gettext(lang, "{who} was drawn to start.", who=who)
    if kind == "flip":
        return _flipped(event, who, lang)
    if kind == "pair":
        told = pgettext(lang, *PAIRS[event["card"]], who=who)
        # Kids: the pair scores at once (the last pair is told by "collect").
        if view.get("variant") == "kids" and view["winners"] is None:
            told += " " + gettext(lang, "Both cards go onto the point stack.")
        return told
    if kind == "miss":
        return gettext(lang, "{who} turned up two different colours: both are face down again.", who=who)
    if kind == "open":
        return _opened(event, who, lang)
    if kind in ("place", "secure", "turn_down", "arrange"):
        return _stacked(event, who, name, lang)
    if kind in ("rookie", "steal", "collect"):
        return _took(event, who, name, lang)
    return gettext(lang, "{who} resigned.", who=who)


def _flipped(event: RookieEvent, who: str, lang: str) -> str:
    where, source, card = event["position"] + 1, event["from"] + 1, a_card(event["card"], lang)
    if where == source:
        return gettext(
            lang, "{who} turned up {card} at position {position}.", who=who, card=card, position=where
        )
    return gettext(
        lang,
        "{who} turned up {card} from position {source}; it moved to empty position {position}.",
        who=who,
        card=card,
        source=source,
        position=where,
    )


def _opened(event: RookieEvent, who: str, lang: str) -> str:
    shown = gettext(lang, " and ").join(a_card(card, lang) for card in event["cards"])
    if len(event["cards"]) == 2:
        return gettext(
            lang, "{who} turned up {cards}: a colour beside an X, so both stay open.", who=who, cards=shown
        )
    return gettext(
        lang,
        "{who} chased with {card}, which matches no open card, so it stays open too.",
        who=who,
        card=shown,
    )


def _stacked(event: RookieEvent, who: str, name: Name, lang: str) -> str:
    """The moves that put cards on stacks: place, secure, turn down, arrange."""
    kind, count = event["type"], event.get("count", 0)
    if kind == "turn_down":
        return ngettext(
            lang,
            "{who} turned the {n} card left open face down.",
            "{who} turned the {n} cards left open face down.",
            count,
            who=who,
        )
    if kind == "secure":
        return pgettext(lang, *SECURED[event["card"]], who=who, cards=cards(count, lang))
    if kind == "arrange":
        tops = ", ".join(
            gettext(lang, "{colour} on {stack}", colour=colour(top, lang), stack=index + 1)
            for index, top in enumerate(event["tops"])
            if top
        )
        return ngettext(
            lang,
            "The {n} card taken went onto {who}'s stacks, new tops: {tops}.",
            "The {n} cards taken went onto {who}'s stacks, new tops: {tops}.",
            count,
            who=who,
            tops=tops,
        )
    pair, stacks = event["card"], _stacks(event["stacks"], lang)
    if event["owner"] == event["seat"]:
        return pgettext(lang, *PLACED[pair], who=who, stacks=stacks)
    return pgettext(lang, *PLACED_FOR_PARTNER[pair], who=who, partner=name(event["owner"]), stacks=stacks)


def _took(event: RookieEvent, who: str, name: Name, lang: str) -> str:
    """The moves that take other seats' cards: Rookie, steal, the last pair's collection."""
    kind, count = event["type"], cards(event["count"], lang) if "count" in event else ""
    if kind == "rookie":
        text = N_("Rookie! {who} takes every other player's unsecured cards: {taken}.")
        return gettext(lang, text, who=who, taken=_taken(event, name, lang))
    if kind == "steal":
        text = N_("{who} took {cards} from {victim}'s discard stacks.")
        return gettext(lang, text, who=who, cards=count, victim=name(event["from"]))
    if not event["taken"]:
        return gettext(lang, "{who} took the last pair: {cards} onto the point stack.", who=who, cards=count)
    text = N_(
        "{who} took the last pair and collects every unsecured card: {cards} onto the point stack ({taken})."
    )
    return gettext(lang, text, who=who, cards=count, taken=_taken(event, name, lang))


def _stacks(stacks: Sequence[int], lang: str) -> str:
    first, second = (index + 1 for index in stacks)
    if first == second:
        return gettext(lang, "stack {stack}", stack=first)
    return gettext(lang, "stacks {first} and {second}", first=first, second=second)


def _taken(event: RookieEvent, name: Name, lang: str) -> str:
    """Whose unsecured cards a Rookie or the last pair took, and how many."""
    return ", ".join(
        gettext(lang, "{cards} from {victim}", cards=cards(count, lang), victim=name(seat))
        for seat, count in event["taken"]
    ) or gettext(lang, "there were none")


def prompt(view: RookieView, name: Name, lang: str = DEFAULT) -> str | None:
    """What the player to move is asked now, with what the choices would give (None once over)."""
    pending = view.get("pending")
    if not view["to_move"] or not pending:
        return None
    if pending["kind"] == "start":
        return gettext(
            lang, "Open cards lie on the table: turn them down and flip two, or chase them with one card."
        )
    if pending["kind"] == "flip":
        return (
            gettext(lang, "Flip a second card.") if pending["flipped"] else gettext(lang, "Flip two cards.")
        )
    if pending["kind"] == "chase":
        return gettext(lang, "Chase: flip one more card to match an open card.")
    if pending["kind"] == "place":
        return _place_prompt(view, pending, lang)
    if pending["kind"] == "steal":
        sides = gettext(lang, " or ").join(_side(choice, name, lang) for choice in pending["choices"])
        return gettext(lang, "Take the unsecured cards of the player {sides}.", sides=sides)
    taken = ", ".join(f"{count} × {colour(card, lang)}" for card, count in pending["cards"].items())
    return ngettext(
        lang,
        "Spread the {n} card taken ({taken}) on {who}'s stacks: choose the tops.",
        "Spread the {n} cards taken ({taken}) on {who}'s stacks: choose the tops.",
        pending["count"],
        taken=taken,
        who=name(pending["seat"]),
    )


def _side(choice: RookieStealChoice, name: Name, lang: str) -> str:
    """ "before you (B, 3 cards)": a neighbour whose unsecured cards can be taken."""
    side = SIDES[choice["side"]]
    return gettext(lang, side, who=name(choice["from"]), cards=cards(choice["cards"], lang))


def _place_prompt(view: RookieView, pending: PendingPlace, lang: str) -> str:
    text = pgettext(lang, *PLACE_PROMPTS[pending["card"]])
    if view.get("teams"):
        text += " " + gettext(lang, "Your partner's stacks count too.")
    if pending["then_steal"]:
        text += " " + gettext(lang, "Then take a neighbour's unsecured cards.")
    return text
