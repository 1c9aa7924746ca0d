"""The engines' refusals: an English template and its values, found by the translators'
extraction and shown in the player's language."""

from __future__ import annotations

import ast
import copy
import pickle
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

import locales
from games.base import GameError, IllegalMove, NotYourTurn, Term, check_seat
from games.rookie import PROMPTS, _out_of_phase
from games.sequence_numbers import ENGINE as SEQUENCE_NUMBERS
from games.tetris_link import ENGINE as TETRIS_LINK
from games.tremember import ENGINE as TREMEMBER
from games.triominos import ENGINE as TRIOMINOS

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {"GameError", "IllegalMove", "NotYourTurn"}


def error_calls() -> list[tuple[str, ast.Call]]:
    """Every construction of a game error in the engines, with where it is."""
    calls = []
    for path in sorted((ROOT / "games").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS:
                calls.append((f"games/{path.name}:{node.lineno}", node))
    return calls


def literal_template(call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def error_text(error: GameError, lang: str) -> str:
    """A refusal as the match framework shows it in `lang` (the framework and the translators'
    tool are imported when used: collecting the engine tests imports no Discord)."""
    from matches.match import error_text as shown

    return shown(error, lang)


def extracted_from_games() -> set[str]:
    """What `python -m locales extract` finds in games/, with the project's babel.cfg."""
    from locales.__main__ import KEYWORDS

    with (ROOT / "locales" / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(ROOT, method_map, options_map, keywords=KEYWORDS)
    return {message for filename, _, message, _, _ in found if filename.startswith("games")}


def test_every_refusal_of_the_engines_is_written_as_a_literal_english_template():
    calls = error_calls()
    built = [where for where, call in calls if literal_template(call) is None]

    assert len(calls) > 50
    assert not built, f"messages built at run time (use a template and values): {built}"


def test_every_template_of_the_engines_is_found_by_the_translators_extraction():
    templates = {literal_template(call) for _, call in error_calls()}
    missing = templates - extracted_from_games()

    assert not missing, f"not extracted — add the error class to games' keywords in babel.cfg: {missing}"


def test_every_template_gets_exactly_the_values_its_placeholders_name():
    mismatched = [
        where
        for where, call in error_calls()
        if placeholders(literal_template(call) or "") != {keyword.arg for keyword in call.keywords}
    ]

    assert not mismatched


def test_a_refusal_reads_as_its_template_filled_with_its_values():
    state = TREMEMBER.new_game(2, 3)
    seat = TREMEMBER.current_seats(state)[0]
    take = TREMEMBER.legal_moves(state, seat)[0]
    state = TREMEMBER.apply(state, seat, take)

    with pytest.raises(IllegalMove) as refused:
        TREMEMBER.apply(state, seat, take)

    assert str(refused.value) == "Push the card you took back in from one of the marked sides first."
    assert refused.value.template == str(refused.value)
    assert refused.value.values == {}
    state = TETRIS_LINK.new_game(2, 1, {"dice": False})
    seat = TETRIS_LINK.current_seats(state)[0]
    with pytest.raises(IllegalMove) as refused:
        TETRIS_LINK.apply(state, seat, {"type": "place", "shape": "I", "column": 99})
    assert str(refused.value) == "Choose a column from 1 to 10."
    assert refused.value.template == "Choose a column from 1 to {columns}."
    assert refused.value.values == {"columns": 10}


def test_refusals_keep_the_english_they_had_with_values_formatted_as_before():
    with pytest.raises(GameError) as refused:
        TRIOMINOS.new_game(2, 0, {"jokers": True})
    assert str(refused.value) == "Unknown option 'jokers': use open_hands or joker."
    assert refused.value.values == {"option": "'jokers'"}

    with pytest.raises(GameError) as refused:
        SEQUENCE_NUMBERS.new_game(6, 0, {"teams": 6})
    assert str(refused.value) == "With 6 players the number of teams must be 2 or 3."

    with pytest.raises(GameError) as refused:
        SEQUENCE_NUMBERS.new_game(4, 0, {"teams": 4})
    assert str(refused.value) == "With 4 players the number of teams must be 2."

    with pytest.raises(GameError) as refused:
        TRIOMINOS.new_game(9, 0)
    assert str(refused.value) == "My First Triominos is for 2–4 players, not 9."


@pytest.mark.parametrize("phase", sorted(PROMPTS))
def test_a_rookie_move_out_of_phase_is_refused_with_the_prompt_of_the_phase(phase):
    assert str(_out_of_phase(phase)) == f"{PROMPTS[phase]}."


def test_a_refusal_keeps_its_template_and_values_when_copied_or_pickled():
    with pytest.raises(NotYourTurn) as refused:
        check_seat((0,), 1)
    error = IllegalMove("{cell} is taken — choose an empty cell.", cell="C4")

    for copied in (copy.copy(error), pickle.loads(pickle.dumps(error)), copy.deepcopy(refused.value)):
        assert type(copied) in (IllegalMove, NotYourTurn)
        assert str(copied) == copied.template.format_map(copied.values)
    assert pickle.loads(pickle.dumps(error)).values == {"cell": "C4"}


@pytest.fixture
def german_catalogue(tmp_path, monkeypatch):
    """A German catalogue under tmp_path with one engine refusal, read as the bot reads its own."""
    catalogue = Catalog(locale="de")
    catalogue.add("{cell} is taken — choose an empty cell.", "{cell} ist besetzt – wähle ein leeres Feld.")
    path = tmp_path / "de" / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as target:
        write_po(target, catalogue)
    monkeypatch.setattr(locales, "FOLDER", tmp_path)
    locales.translations.cache_clear()
    yield
    monkeypatch.undo()
    locales.translations.cache_clear()


def test_a_refusal_is_shown_in_the_players_language_with_its_values_filled_in(german_catalogue):
    error = IllegalMove("{cell} is taken — choose an empty cell.", cell="C4")

    assert error_text(error, "de") == "C4 ist besetzt – wähle ein leeres Feld."
    assert error_text(error, "en") == "C4 is taken — choose an empty cell."
    assert error_text(error, "fr") == "C4 is taken — choose an empty cell."  # no French catalogue here
    assert error_text(IllegalMove("Flip a face-down card."), "de") == "Flip a face-down card."


def test_every_game_word_a_refusal_holds_is_a_literal_found_by_the_extraction():
    terms = [
        node
        for path in sorted((ROOT / "games").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Term"
    ]
    words = {literal_template(call) for call in terms}

    assert len(terms) >= 9
    assert None not in words
    assert not words - extracted_from_games()


def refused_push(lang: str) -> tuple[str, str]:
    """The refusal of a push from a side that does not exist, in English and in `lang`."""
    state = TREMEMBER.new_game(2, 3)
    seat = TREMEMBER.current_seats(state)[0]
    state = TREMEMBER.apply(state, seat, {"type": "take", "cell": [0, 0]})
    with pytest.raises(IllegalMove) as refused:
        TREMEMBER.apply(state, seat, {"type": "push", "side": "middle"})
    return str(refused.value), error_text(refused.value, lang)


def test_a_refusal_names_the_game_words_and_the_choices_in_the_players_language():
    english, german = refused_push("de")
    _, french = refused_push("fr")

    assert english.startswith("Push from the right or from the bottom: a push must move")
    assert german.startswith("Schieb von rechts oder von unten ein:")
    assert french.startswith("Repousse la carte depuis la droite ou depuis le bas\u00a0:")
    three = IllegalMove("First choose which five chips to lock: {runs}.", runs=("A1–E1", "B1–F1", "C1–G1"))
    assert str(three) == "First choose which five chips to lock: A1–E1, B1–F1 or C1–G1."
    assert error_text(three, "de").endswith("A1–E1, B1–F1 oder C1–G1.")
    colour = IllegalMove(
        "The cards you took hold only {count} × {kind} — choose other tops.", count=1, kind=Term("red")
    )
    assert "1 × rouge" in error_text(colour, "fr")
