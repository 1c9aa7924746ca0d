"""Words the framework puts together: a match's title, lists of names, signed numbers and
image descriptions, as each language writes them."""

from __future__ import annotations

from locales import and_list, ngettext, number, signed
from matches.match import alt_text, match_title


def test_a_match_is_numbered_as_each_language_numbers_it():
    assert match_title("Rookie", 12, "en") == "Rookie #12"
    assert match_title("Rookie", 12, "de") == "Rookie #12"
    assert match_title("Rookie", 12, "fr") == "Rookie nº\u00a012"


def test_winners_are_listed_with_and_never_with_a_bare_comma():
    assert and_list("de", ["<@1>", "<@2>"]) == "<@1> und <@2>"
    assert and_list("fr", ["<@1>", "<@2>", "<@3>"]) == "<@1> et <@2> et <@3>"


def test_a_negative_number_takes_the_minus_sign_of_german_and_french_and_english_keeps_its_hyphen():
    assert number("en", -2) == "-2" and signed("en", -2) == "-2" and signed("en", 3) == "+3"
    assert number("de", -2) == "\u22122" and signed("de", -12) == "\u221212" and signed("de", 0) == "+0"
    assert ngettext("fr", "{n} point", "{n} points", -3) == "\u22123 points"


def test_an_image_description_starts_a_sentence_with_a_capital_where_a_mention_stood():
    text = "<@123> hat eine Karte angelegt. <@456> ist am Zug: **Zug 3**, danach <@789>."
    assert alt_text(text, "de") == (
        "Eine Person hat eine Karte angelegt. Eine Person ist am Zug: Zug 3, danach eine Person."
    )
    assert alt_text("<@1> placed a card.", "en") == "A player placed a card."
    assert alt_text("🃏 <@1> a posé une carte.", "fr") == "🃏 Un joueur a posé une carte."
    assert alt_text("**Game over** — <@1> wins!", "en") == "Game over — a player wins!"
