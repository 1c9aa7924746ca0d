"""Every language's glossary: its agreed shape, patterns that catch their own examples, and
no catalogue entry, rules text or label that uses a pattern it forbids."""

from __future__ import annotations

import re

import pytest

from locales import DEFAULT, LANGUAGES, ngettext, pgettext
from locales.catalogues import template
from locales.glossary import (
    Forbidden,
    Glossary,
    Text,
    glossaries,
    label_messages,
    load,
    shape_problems,
    texts,
    violations,
)
from render.rookie.narration import PAIRS, PLACE_PROMPTS, PLACED
from render.tremember.narration import FOUND_PAIRS

WRITTEN = glossaries()


def test_every_language_of_the_bot_has_a_glossary_and_no_other_has_one():
    assert DEFAULT in WRITTEN
    assert set(WRITTEN) == set(LANGUAGES)


@pytest.mark.parametrize("lang", WRITTEN)
def test_each_glossary_has_the_agreed_keys(lang):
    glossary = load(lang)
    assert shape_problems(glossary.raw) == []
    assert glossary.forbidden, "a glossary forbids at least one pattern"


@pytest.mark.parametrize("lang", WRITTEN)
def test_each_forbidden_pattern_catches_its_own_examples(lang):
    missed = [
        f"{rule.pattern.pattern!r} misses {example!r}"
        for rule in load(lang).forbidden
        for example in rule.examples
        if not rule.pattern.search(example)
    ]
    assert all(rule.examples for rule in load(lang).forbidden)
    assert missed == []


@pytest.mark.parametrize("lang", WRITTEN)
def test_no_catalogue_entry_rules_text_or_label_uses_a_forbidden_pattern(lang):
    assert violations(load(lang), texts(lang)) == []


def test_a_forbidden_pattern_names_the_entry_and_the_reason():
    rule = Forbidden(re.compile(r"\bvous\b"), ("catalogue",), "Say tu.", ("vous",))
    glossary = Glossary("fr", {}, (rule,))
    checked = [
        Text("catalogue", "'Your turn'", "À vous de jouer"),
        Text("rules", "rules/rookie.md", "vous"),
        Text("catalogue", "'Join'", "Rejoindre"),
    ]

    assert violations(glossary, checked) == ["fr catalogue 'Your turn': 'vous' (\\bvous\\b) — Say tu."]


def test_the_glossary_shape_check_names_what_is_missing():
    raw = {"style": {"address": "du"}, "forbidden": [{"pattern": "x", "where": ["menus"]}]}

    found = shape_problems(raw)

    assert "no [terms]" in found
    assert any(problem.startswith("[style] has keys ['address']") for problem in found)
    assert any("is not among" in problem for problem in found)


def test_labels_are_found_where_the_code_builds_buttons_and_menus():
    labels = label_messages()

    assert {"Resign", "Join", "Chase", "Pass", "Buy a card (1 token)", "My stacks"} <= labels
    assert "Partner {seat}: stack {stack} (on {card})" in labels  # built in a helper function
    assert "{arrow} Push row {row} right" in labels  # read from a table of the module
    assert "Game over: {seats} win." not in labels
    english = {message.id for message in template()}
    assert {"Resign", "Join"} <= english


def test_the_english_labels_carry_no_markdown():
    shown = [text for text in texts(DEFAULT) if text.kind == "labels"]

    assert any(text.text == "Resign" for text in shown)
    assert not [text.source for text in shown if re.search(r"[\\*]", text.text)]


@pytest.mark.parametrize(
    ("lang", "pair", "placed", "prompt"),
    [
        (
            "fr",
            "A a retourné une paire de cartes vertes ■.",
            "A a placé la paire verte ■ sur la pile 1.",
            "Place la paire verte ■ sur une ou deux piles de dépôt.",
        ),
        (
            "de",
            "A hat ein grünes ■ Paar aufgedeckt.",
            "A hat das grüne ■ Paar auf Stapel 1 gelegt.",
            "Leg das grüne ■ Paar auf einen oder zwei Ablege-Stapel.",
        ),
        (
            "en",
            "A turned up a pair of green ■ cards.",
            "A put the green ■ pair on stack 1.",
            "Place the green ■ pair on one or two discard stacks.",
        ),
    ],
)
def test_a_rookie_colour_agrees_with_its_noun_in_every_language(lang, pair, placed, prompt):
    assert pgettext(lang, *PAIRS["green"], who="A") == pair
    stack = {"fr": "la pile 1", "de": "Stapel 1", "en": "stack 1"}[lang]
    assert pgettext(lang, *PLACED["green"], who="A", stacks=stack) == placed
    assert pgettext(lang, *PLACE_PROMPTS["green"]) == prompt


@pytest.mark.parametrize(
    ("lang", "found"),
    [
        ("en", "A found an arrow pair at A1 + B1: +3 (side by side)."),
        ("de", "A hat ein Pfeilpaar auf A1 + B1 gefunden: +3 (side by side)."),
        ("fr", "A a trouvé une paire de flèches en A1 + B1\u00a0: +3 (side by side)."),
    ],
)
def test_a_tremember_pair_is_named_as_each_language_names_it(lang, found):
    said = pgettext(lang, *FOUND_PAIRS["arrow"], who="A", cells="A1 + B1", points=3, touch="side by side")
    assert said == found


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "Pot: 1 card", "Pot: 2 cards"),
        ("de", "Pot: 1 Karte", "Pot: 2 Karten"),
        ("fr", "Cagnotte\u00a0: 1 carte", "Cagnotte\u00a0: 2 cartes"),
    ],
)
def test_a_count_takes_the_form_its_number_asks_for(lang, one, two):
    assert ngettext(lang, "Pot: {n} card", "Pot: {n} cards", 1) == one
    assert ngettext(lang, "Pot: {n} card", "Pot: {n} cards", 2) == two


def test_the_translators_check_reports_a_text_its_glossary_forbids(monkeypatch, capsys):
    import locales.__main__ as commands

    real = commands.texts
    slipped = Text("catalogue", "'Your turn'", "À vous de jouer")
    monkeypatch.setattr(commands, "texts", lambda lang: [*real(lang), *([slipped] if lang == "fr" else [])])

    assert commands.check() == 1
    assert "fr catalogue 'Your turn': 'vous'" in capsys.readouterr().out
