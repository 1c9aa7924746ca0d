"""`/stats` shows a player's card (a picture with its alt text) and, with `versus`, the record of two
members against each other, through the real bot."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.helpers import board_image, body, field, fields, has_card, text_displays, title
from tests.e2e.test_league import rated_win


async def test_stats_show_the_player_card_and_versus_the_record_of_two_members(table, client_locales):
    alice, bob, carol = table.alice, table.bob, table.carol
    empty = (await alice.slash(table.channel, "stats")).response
    picture = board_image(empty)
    assert picture.filename == "card.png" and not empty.embeds and has_card(empty)  # in the card's gallery
    assert picture.description == "Player card of alice. No rated match on this server yet."

    for winner, loser in ((alice, bob), (alice, bob), (bob, alice)):
        await rated_win(table.channel, winner, loser)

    stats = (await carol.slash(table.channel, "stats", member=alice)).response
    picture = board_image(stats)
    rating = f"{int(next(f.value for f in fields(stats) if f.name == 'Tetris Link').split('**')[1]):,}"
    assert picture.description.startswith(
        f"Player card of alice. Tetris Link: rating {rating}; over the last 3 rated matches it went from "
        f"1,000 to {rating} (lowest "
    )
    assert picture.description.endswith(
        "; 2 wins / 3 games. Current streak: 1 loss. Latest achievements: First win."
    )
    with Image.open(io.BytesIO(await picture.read())) as image:
        assert image.format == "PNG" and image.width == 600

    versus = (await carol.slash(table.channel, "stats", member=alice, versus=bob)).response
    assert title(versus) == "Head-to-head — alice against bob"
    assert (
        body(versus)
        == "3 finished matches against each other on this server (abandoned ones are not counted)."
    )
    a, b = alice.user.id, bob.user.id
    assert field(versus, "Tetris Link").startswith(
        f"<@{a}> **2** – **1** <@{b}> · 3 matches · last played <t:"
    )
    assert not versus.attachments
    assert any(f"<@{a}> **2** – **1** <@{b}>" in text for text in text_displays(versus))  # shown as names

    client_locales.speak(bob, "fr")
    mirrored = (await bob.slash(table.channel, "stats", versus=alice)).response
    assert title(mirrored) == "Face-à-face – bob contre alice"
    assert field(mirrored, "Tetris Link").startswith(f"<@{b}> **1** – **2** <@{a}> · 3 parties")

    never = (await carol.slash(table.channel, "stats", versus=bob)).response
    assert (
        body(never) == f"<@{carol.user.id}> and <@{b}> have not played against each other on this server yet."
    )
    twice = (await carol.slash(table.channel, "stats", member=alice, versus=alice)).response
    assert twice.content.startswith(f"That is <@{a}> twice")
