"""Move presentation: forms, paths, and the components the framework builds from them."""

from __future__ import annotations

import re

import discord
import pytest

from matches.components import ChoiceButton, ChoiceSelect, form_items
from matches.presentation import Choice, Form, Option, decode_path, encode_path, next_path


def cells(count: int, selected: int | None = None) -> Choice:
    options = tuple(Option(f"C{i + 1}", selected=i == selected) for i in range(count))
    return Choice("Choose a cell", options)


def test_choosing_at_a_level_keeps_the_picks_above_it_and_drops_those_below():
    form = Form((cells(3, selected=2), cells(4, selected=0), cells(2, selected=1)), path=(2, 0, 1))
    assert next_path(form, 1, 3) == (2, 3)
    assert next_path(form, 0, 1) == (1,)


def test_an_option_may_set_its_level_to_a_pick_other_than_its_position():
    steer = Choice(
        "Steer", (Option("◀", pick=13), Option("▶", pick=15), Option("Drop", move={"type": "place"}))
    )
    form = Form((cells(5, selected=1), steer), path=(1, 14))
    assert next_path(form, 1, 0) == (1, 13)
    assert next_path(form, 1, 1) == (1, 15)


def test_a_forged_level_or_index_or_a_disabled_option_resolves_to_nothing():
    form = Form((Choice("Shape", (Option("I"), Option("O", disabled=True))),))
    assert form.option(0, 0) == Option("I")
    assert form.option(0, 1) is None
    assert form.option(0, 2) is None
    assert form.option(0, -1) is None
    assert form.option(1, 0) is None


@pytest.mark.parametrize("path", [(), (0,), (3, 12, 0)])
def test_paths_round_trip_through_text(path):
    assert decode_path(encode_path(path)) == path


def test_few_options_are_buttons_in_rows_of_five_and_many_are_selects_paged_by_25():
    form = Form((cells(7, selected=1), cells(40)))
    items = form_items(match_id=12, turn=3, where="b", form=form)
    buttons = [item for item in items if isinstance(item, ChoiceButton)]
    selects = [item for item in items if isinstance(item, ChoiceSelect)]
    assert [button.item.label for button in buttons] == [f"C{i}" for i in range(1, 8)]
    assert [button.item.row for button in buttons] == [0] * 5 + [1] * 2
    assert buttons[1].item.style is discord.ButtonStyle.primary  # the current pick stands out
    assert [len(select.item.options) for select in selects] == [25, 15]
    assert [select.item.row for select in selects] == [2, 3]
    assert selects[1].item.options[0].value == "25"  # values are indexes into the whole choice
    assert "C26" in (selects[1].item.placeholder or "")


def test_component_ids_carry_only_small_integers_and_stay_within_discords_limit():
    form = Form((cells(5, selected=4), cells(5, selected=4), cells(30)), path=(4, 4))
    for item in form_items(match_id=10**11, turn=99999, where="p", form=form):
        custom_id = item.item.custom_id
        assert custom_id is not None and len(custom_id) <= 100
        assert re.fullmatch(r"m:\d+:\d+:p:\d:(\d+(\.\d+)*)?:s?\d+", custom_id)


def test_a_form_that_needs_more_rows_than_discord_allows_is_refused_loudly():
    form = Form(tuple(cells(30) for _ in range(3)))
    with pytest.raises(ValueError, match="more than 4 rows"):
        form_items(match_id=1, turn=0, where="b", form=form)


def test_a_choice_can_lay_its_buttons_out_as_a_grid():
    grid = Choice("Flip a card", tuple(Option(str(n)) for n in range(1, 10)), select=False, columns=3)
    items = form_items(match_id=1, turn=0, where="b", form=Form((grid,)))
    assert [item.item.row for item in items] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_labels_show_no_markdown_escape_and_fit_in_what_discord_accepts():
    escaped = Option("Partner\\*in B: Stapel 1+2")
    long = Option("Stack 1 (on red ●) · secures · " * 4, description="d" * 120)
    buttons = form_items(match_id=1, turn=0, where="b", form=Form((Choice("Place", (escaped, long)),)))
    menu = form_items(
        match_id=1, turn=0, where="b", form=Form((Choice("Place", (escaped, long), select=True),))
    )

    assert buttons[0].item.label == "Partner*in B: Stapel 1+2"
    assert len(buttons[1].item.label or "") == 80 and (buttons[1].item.label or "").endswith("…")
    options = menu[0].item.options
    assert options[0].label == "Partner*in B: Stapel 1+2"
    assert len(options[1].label) <= 100 and len(options[1].description or "") == 100
