"""The words the renderers draw and narrate follow the language they are given."""

from __future__ import annotations

import io
import random

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from games.tetris_link import ANY
from locales import catalogue_path
from render import replay, rookie, sequence_numbers, tetris_link, tremember, triominos
from render.common import font, seat_label, words, wrap
from render.tremember.narration import instruction as tremember_instruction
from tests.registry import ENGINES

RENDERERS = {
    "tremember": tremember,
    "tetris_link": tetris_link,
    "rookie": rookie,
    "triominos": triominos,
    "sequence_numbers": sequence_numbers,
}


def played(game: str, moves: int, seed: int = 3) -> dict:
    """The spectator view of a game of `game` after `moves` random moves."""
    engine = ENGINES[game]
    state = engine.new_game(3 if game != "sequence_numbers" else 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seats = engine.current_seats(state)
        if not seats:
            break
        state = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))
    return engine.view(state, None)


@pytest.mark.parametrize("game", RENDERERS)
def test_english_is_what_every_renderer_draws_and_says_unless_told_otherwise(game):
    module, view = RENDERERS[game], played(game, 9)
    assert module.render(view, lang="en") == module.render(view)
    assert module.narrate(view, seat_label, "en") == module.narrate(view, seat_label)


@pytest.mark.parametrize("game", RENDERERS)
def test_a_language_without_a_catalogue_gets_the_english_board(game):
    module, view = RENDERERS[game], played(game, 9)
    assert module.render(view, lang="pt-BR") == module.render(view)
    assert module.narrate(view, seat_label, "pt-BR") == module.narrate(view, seat_label)


def test_a_german_rookie_table_counts_its_cards_in_german():
    view = played("rookie", 0)
    assert rookie.cards(11, "de") == "11 Karten"
    assert rookie.render(view, lang="de") != rookie.render(view)


def test_a_french_tetris_link_die_names_the_logo_in_french_and_shapes_by_their_letters():
    assert tetris_link.face_name(ANY) == "the logo"
    assert tetris_link.face_name(ANY, "fr") == "le logo"
    assert tetris_link.face_name("S", "fr") == "S/Z"


def test_triominos_counts_tokens_in_the_language_it_is_asked_in():
    assert triominos.tokens(2, "de") == "2 Bonusmarken"
    assert triominos.tokens(1) == "1 token"


def test_a_replay_is_drawn_in_the_language_it_is_sent_in():
    views = [played("rookie", moves) for moves in range(3)]
    english = replay.replay(rookie.board_image, views, title="Match #7")
    german = replay.replay(rookie.board_image, views, title="Match #7", lang="de")
    first = [Image.open(io.BytesIO(made.data)).convert("RGB").tobytes() for made in (english, german)]
    assert first[0] != first[1]


@pytest.mark.parametrize("game", RENDERERS)
def test_every_board_is_drawn_in_the_language_it_is_asked_for(game):
    module, view = RENDERERS[game], played(game, 9)

    drawn = {lang: module.render(view, lang=lang) for lang in ("en", "de", "fr")}

    assert len(set(drawn.values())) == 3


def drawn_letters() -> set[str]:
    """Every character of the German and French texts the renderers draw into images."""
    letters: set[str] = set()
    for lang in ("de", "fr"):
        with catalogue_path(lang).open("rb") as source:
            for message in read_po(source, locale=lang):
                if not any(path.startswith("render/") for path, _ in message.locations):
                    continue
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                letters.update(*strings)
    return letters


def drawn(character: str) -> bytes:
    """The pixels of `character` as the boards' font draws it."""
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((8, 8), character, font=font(20), fill=255)
    return image.tobytes()


def test_the_boards_font_draws_every_letter_the_translations_use():
    missing_glyph = drawn("\U0010fffd")  # a private-use character no font maps: the font's box
    letters = drawn_letters() | {"\u202f"}  # and Babel's French thousands separator

    assert {"ä", "ö", "ü", "ß", "é", "è", "à", "É", "œ", "–", "\u00a0", "\u202f"} <= letters
    assert any(missing_glyph) and drawn("\U000f0000") == missing_glyph  # the box of every unmapped one
    boxes = [c for c in sorted(letters) if drawn(c) == missing_glyph]
    blank = [c for c in letters if c.isspace() and any(drawn(c))]
    assert not boxes
    assert not blank


def test_a_line_breaks_at_spaces_but_never_at_a_no_break_space():
    text = "Prenez la carte «\u00a0Pioche\u00a0» avant 10\u202fh"

    lines = wrap(text, 60, 14)

    assert lines == ["Prenez la", "carte", "«\u00a0Pioche\u00a0»", "avant", "10\u202fh"]
    assert words("a  b\u00a0c\nd") == ["a", "b\u00a0c", "d"]


def test_rookie_counts_the_cards_taken_and_turned_down_in_whole_sentences():
    view = {**played("rookie", 0), "events": None}
    turned = {**view, "last_event": {"type": "turn_down", "seat": 1, "count": 1}}
    arranged = {**view, "last_event": {"type": "arrange", "seat": 0, "count": 3, "tops": ["red", None, None]}}

    assert rookie.narrate(turned, seat_label) == ["B turned the 1 card left open face down."]
    assert rookie.narrate(turned, seat_label, "de") == ["B hat die offen liegende Karte wieder umgedreht."]
    assert rookie.narrate(turned, seat_label, "fr") == ["B a remis face cachée la carte restée ouverte."]
    assert rookie.narrate(arranged, seat_label, "de")[0].startswith(
        "Die 3 geholten Karten kamen auf die Stapel von A"
    )
    assert rookie.narrate(arranged, seat_label, "fr")[0].startswith(
        "Les 3 cartes prises vont sur les piles de A"
    )


def test_tetris_link_names_two_columns_with_and_and_more_with_a_range_dash():
    cells = {2: [[0, 0], [0, 1], [1, 0], [1, 1]], 3: [[0, 7], [0, 8], [0, 9], [1, 8]]}
    said = {}
    for lang in ("en", "de", "fr"):
        for width, placed in cells.items():
            event = {"type": "place", "seat": 1, "shape": "O" if width == 2 else "T", "cells": placed}
            event |= {"gained": 0, "group": 0, "gap_penalty": 0}
            view = {**played("tetris_link", 0), "last_event": event, "events": []}
            said[lang, width] = tetris_link.narrate(view, seat_label, lang)[-1]

    assert said["en", 2] == "B placed an O in columns 1 and 2." and said["en", 3].endswith("in columns 8–10.")
    assert (
        "in die Spalten 1 und 2 gesteckt" in said["de", 2] and "in die Spalten 8–10 gesteckt" in said["de", 3]
    )
    assert "dans les colonnes 1 et 2" in said["fr", 2] and "dans les colonnes 8 à 10" in said["fr", 3]


def test_the_seat_to_move_stands_in_the_headline_where_each_language_puts_it():
    view = {**played("tremember", 0), "phase": "take"}

    assert tremember_instruction(view, "en") == ("", "to move: take a face-down card")
    assert tremember_instruction(view, "de") == ("", "ist am Zug: Nimm eine verdeckte Karte")
    assert tremember_instruction(view, "fr") == ("À", "de jouer\u00a0: prends une carte face cachée")
