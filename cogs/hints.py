"""The words of a hint's reason (ai/reasons/), in every language: one sentence per reason
key, counts through ngettext (`n`)."""

from __future__ import annotations

from collections.abc import Callable

from ai.reasons import Reason
from locales import N_, gettext, ngettext

# A reason whose sentence counts something (`n`): its words for a count and the other values.
Counted = Callable[[str, int, dict[str, int]], str]
COUNTED: dict[str, Counted] = {
    # Tetris Link
    "group": lambda lang, n, values: ngettext(
        lang, "makes a group of {size}: +{n} point", "makes a group of {size}: +{n} points", n, **values
    ),
    "fewest_gaps": lambda lang, n, values: ngettext(
        lang,
        "leaves only {n} gap; wherever it goes, at least one is left",
        "leaves only {n} gaps; wherever it goes, at least one is left",
        n,
        **values,
    ),
    # My First Triominos
    "tokens": lambda lang, n, values: ngettext(
        lang, "fits, matching the numbers: +{n} token", "fits, matching the numbers: +{n} tokens", n, **values
    ),
    "bonus": lambda lang, n, values: ngettext(
        lang,
        "closes a hexagon or a bridge: +{n} token",
        "closes a hexagon or a bridge: +{n} tokens",
        n,
        **values,
    ),
    "last_card": lambda lang, n, values: ngettext(
        lang, "places your last card: +{n} token", "places your last card: +{n} tokens", n, **values
    ),
    # Tremember: `n` is the move on which the seat saw the card
    "pair_seen": lambda lang, n, values: ngettext(
        lang, "you saw its pair on move {n}", "you saw its pair on move {n}", n, **values
    ),
    "card_seen": lambda lang, n, values: ngettext(
        lang, "you saw this card on move {n}", "you saw this card on move {n}", n, **values
    ),
    # Rookie
    "steal": lambda lang, n, values: ngettext(
        lang, "takes {n} unsecured card", "takes {n} unsecured cards", n, **values
    ),
    # Sequence Numbers
    "line": lambda lang, n, values: ngettext(
        lang, "makes a line of {n} of your chips", "makes a line of {n} of your chips", n, **values
    ),
    "block": lambda lang, n, values: ngettext(
        lang, "blocks a line of {n} of another team", "blocks a line of {n} of another team", n, **values
    ),
    "remove": lambda lang, n, values: ngettext(
        lang,
        "takes away a chip of another team that stands alone",
        "takes a chip out of a line of {n}",
        n,
        **values,
    ),
}
PLAIN = {
    # Tetris Link
    "joins": N_("touches your own pieces, so a group can grow here"),
    "blocks": N_("gets in the way of another player's pieces"),
    "low": N_("keeps the stack low, without gaps"),
    # My First Triominos
    "joker": N_("takes the joker back into your hand"),
    "buy": N_("none of your cards fits: buy one"),
    "pass": N_("you can neither place nor buy a card: pass"),
    # Tremember
    "unseen": N_("you have not seen this card yet: it tells you something new"),
    "push": N_("moves as few of the cards you remember as it can"),
    "take_unseen": N_("a card you have not seen: you get to look at it"),
    # Rookie
    "rookie": N_("Rookie: secures your stacks and takes every other player's unsecured cards"),
    "secure": N_("your three stacks show one colour on top: they are secured"),
    "pair": N_("the best place for the pair"),
    "flip": N_("it may make a pair"),
    "turn_down": N_("nothing better on the table: end your turn"),
    "arrange": N_("puts the cards taken where they serve you best"),
    # Sequence Numbers
    "sequence": N_("completes a sequence"),
    "lock": N_("locks the sequence that serves you best"),
    "room": N_("takes a cell where a line of yours can still grow"),
    "trade": N_("this card is dead: both its cells are taken"),
}


def reason_text(reason: Reason, lang: str) -> str | None:
    """Why, in `lang`; None for a key this bot has no words for."""
    if reason.key in COUNTED:
        values = dict(reason.values)
        return COUNTED[reason.key](lang, values.pop("n", 0), values)
    if reason.key in PLAIN:
        return gettext(lang, PLAIN[reason.key], **reason.values)
    return None
