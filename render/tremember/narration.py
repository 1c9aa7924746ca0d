"""The words of a Tremember board: motif names, cells, what the last move did (`narrate`),
who does what now and the result.

`narrate(view, name)` is the one wording of what just happened: the board writes it
with seat letters, the bot's message with mentions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.tremember import MissEvent, PairEvent, Side, TrememberView
from locales import DEFAULT, N_, NP_, and_list, gettext, ngettext, pgettext
from render.common import seat_label

# TRANSLATORS: the pictures on the Tremember cards.
MOTIF_NAMES = {  # both joker motifs are simply "joker"
    "sun": N_("sun"),
    "moon": N_("moon"),
    "star": N_("star"),
    "heart": N_("heart"),
    "drop": N_("drop"),
    "leaf": N_("leaf"),
    "bolt": N_("bolt"),
    "diamond": N_("diamond"),
    "fish": N_("fish"),
    "cross": N_("cross"),
    "hexagon": N_("hexagon"),
    "ring": N_("ring"),
    "arrow": N_("arrow"),
    "flower": N_("flower"),
    "crown": N_("crown"),
    "tree": N_("tree"),
    "joker": N_("joker"),
}
# TRANSLATORS: a Tremember card by its picture, as the object of "turned …" / "found … pair".
A_MOTIFS = {
    "sun": N_("a sun"),
    "moon": N_("a moon"),
    "star": N_("a star"),
    "heart": N_("a heart"),
    "drop": N_("a drop"),
    "leaf": N_("a leaf"),
    "bolt": N_("a bolt"),
    "diamond": N_("a diamond"),
    "fish": N_("a fish"),
    "cross": N_("a cross"),
    "hexagon": N_("a hexagon"),
    "ring": N_("a ring"),
    "arrow": N_("an arrow"),
    "flower": N_("a flower"),
    "crown": N_("a crown"),
    "tree": N_("a tree"),
    "joker": N_("a joker"),
}

# TRANSLATORS: a pair found, written once per motif (the context names it), so that each language
# can name the pair as it names it ("ein Sonnenpaar", "une paire de soleils").
FOUND_PAIRS = {
    "sun": NP_("tremember: sun", "{who} found a sun pair at {cells}: +{points} ({touch})."),
    "moon": NP_("tremember: moon", "{who} found a moon pair at {cells}: +{points} ({touch})."),
    "star": NP_("tremember: star", "{who} found a star pair at {cells}: +{points} ({touch})."),
    "heart": NP_("tremember: heart", "{who} found a heart pair at {cells}: +{points} ({touch})."),
    "drop": NP_("tremember: drop", "{who} found a drop pair at {cells}: +{points} ({touch})."),
    "leaf": NP_("tremember: leaf", "{who} found a leaf pair at {cells}: +{points} ({touch})."),
    "bolt": NP_("tremember: bolt", "{who} found a bolt pair at {cells}: +{points} ({touch})."),
    "diamond": NP_("tremember: diamond", "{who} found a diamond pair at {cells}: +{points} ({touch})."),
    "fish": NP_("tremember: fish", "{who} found a fish pair at {cells}: +{points} ({touch})."),
    "cross": NP_("tremember: cross", "{who} found a cross pair at {cells}: +{points} ({touch})."),
    "hexagon": NP_("tremember: hexagon", "{who} found a hexagon pair at {cells}: +{points} ({touch})."),
    "ring": NP_("tremember: ring", "{who} found a ring pair at {cells}: +{points} ({touch})."),
    "arrow": NP_("tremember: arrow", "{who} found an arrow pair at {cells}: +{points} ({touch})."),
    "flower": NP_("tremember: flower", "{who} found a flower pair at {cells}: +{points} ({touch})."),
    "crown": NP_("tremember: crown", "{who} found a crown pair at {cells}: +{points} ({touch})."),
    "tree": NP_("tremember: tree", "{who} found a tree pair at {cells}: +{points} ({touch})."),
    "joker": NP_("tremember: joker", "{who} found a joker pair at {cells}: +{points} ({touch})."),
}


def motif_name(motif: str, lang: str = DEFAULT) -> str:
    """The name players read in `lang`: both joker motifs are simply "joker"."""
    word = "joker" if motif.startswith("joker") else motif
    return gettext(lang, MOTIF_NAMES[word]) if word in MOTIF_NAMES else word


def a_motif(motif: str, lang: str = DEFAULT) -> str:
    """`a sun`, `an arrow` (in `lang`: "eine Sonne", "einen Mond")."""
    word = "joker" if motif.startswith("joker") else motif
    if word in A_MOTIFS:
        return gettext(lang, A_MOTIFS[word])
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def cell_name(cell: Sequence[int]) -> str:
    """`B3` for [2, 1] (row, column)."""
    return f"{'ABCDEF'[cell[1]]}{cell[0] + 1}"


LINES_MOVED: dict[Side, str] = {  # the end a card comes in from: the line it moves, and which way
    "left": N_("row {row} right"),
    "right": N_("row {row} left"),
    "top": N_("column {column} down"),
    "bottom": N_("column {column} up"),
}


def line_moved(side: Side, hole: Sequence[int], lang: str = DEFAULT) -> str:
    """`column B down`: the line a push from `side` moves, and which way."""
    return gettext(lang, LINES_MOVED[side], row=hole[0] + 1, column="ABCDEF"[hole[1]])


TOUCH = {3: N_("side by side"), 2: N_("touching at a corner"), 1: N_("apart")}


def narrate(view: TrememberView, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the deal) did; `name(seat)` names a seat.

    The one wording of every event: the board writes it with seat letters, the bot's
    message with mentions. Only cards face up on this board (or shown by it until the
    next move, as a miss is) are ever named.
    """
    event = view["last_event"]
    if event is None:
        return []
    who = name(event["seat"])
    if event["type"] == "start":
        return [
            gettext(lang, "{who} was drawn to start.", who=who),
            gettext(lang, "Find the pairs: the board keeps moving!"),
        ]
    if event["type"] == "take":
        return [
            gettext(
                lang,
                "{who} took the card at {cell}: only they saw it.",
                who=who,
                cell=cell_name(event["cell"]),
            )
        ]
    if event["type"] == "push":
        line, lands = line_moved(event["from"], event["cell"], lang), cell_name(event["lands"])
        return [
            gettext(
                lang,
                "{who} pushed {line}: the taken card lies face down at {cell}.",
                who=who,
                line=line,
                cell=lands,
            )
        ]
    if event["type"] == "flip":
        motif, cell = a_motif(event["motif"], lang), cell_name(event["cell"])
        return [gettext(lang, "{who} turned {motif} at {cell}.", who=who, motif=motif, cell=cell)]
    if event["type"] == "miss":
        return [_missed(event, who, lang)]
    if event["type"] == "pair":
        return _paired(view, event, who, lang)
    if event["type"] == "resign":
        return [gettext(lang, "{who} left the game; their points stay.", who=who)]
    return []


def _touch(points: int, lang: str) -> str:
    """How the pair's cards lie, which gives its points."""
    how = TOUCH[points]
    return gettext(lang, how)


def _missed(event: MissEvent, who: str, lang: str) -> str:
    (a, b), (ma, mb) = event["cells"], event["motifs"]
    return gettext(
        lang,
        "{who} turned {first} at {a} and {second} at {b}: no pair, both turn face down again.",
        who=who,
        first=a_motif(ma, lang),
        a=cell_name(a),
        second=a_motif(mb, lang),
        b=cell_name(b),
    )


def _paired(view: TrememberView, event: PairEvent, who: str, lang: str) -> list[str]:
    cells = " + ".join(cell_name(cell) for cell in event["cells"])
    said = [
        pgettext(
            lang,
            *FOUND_PAIRS["joker" if event["motif"].startswith("joker") else event["motif"]],
            who=who,
            cells=cells,
            points=event["points"],
            touch=_touch(event["points"], lang),
        )
    ]
    if event["rotated"]:
        now = " + ".join(cell_name(cell) for cell in event["cells_now"])
        said.append(
            gettext(lang, "The whole board turned 90° clockwise: the pair lies at {cells} now.", cells=now)
        )
    if view["winners"] is None:
        said.append(gettext(lang, "{who} plays again.", who=who))
    return said


def instruction(view: TrememberView, lang: str) -> tuple[str, str]:
    """What the seat to move does now, for the headline: the words before and after the
    seat's tag (the whole sentence is one template, "{seat}" where the tag is drawn)."""
    if view["phase"] == "take":
        text = gettext(lang, "{seat} to move: take a face-down card")
    elif view["phase"] == "push":
        text = gettext(lang, "{seat} to move: push the card back in at an arrow")
    elif view["first_flip"]:
        text = gettext(lang, "{seat} to move: turn a second card")
    else:
        text = gettext(lang, "{seat} to move: turn two face-down cards")
    before, _, after = text.partition("{seat}")
    return before.strip(), after.strip()


def result(view: TrememberView, lang: str) -> str:
    """The result, for the headline once the game is over."""
    winners = view["winners"]
    if not winners:
        return gettext(lang, "Game over: nobody wins.")
    if len(winners) == 1:
        return ngettext(
            lang,
            "Game over: {seat} wins with {n} point!",
            "Game over: {seat} wins with {n} points!",
            view["scores"][winners[0]],
            seat=seat_label(winners[0]),
        )
    seats = and_list(lang, [seat_label(s) for s in winners])
    return gettext(lang, "Game over: a draw between {seats}.", seats=seats)
