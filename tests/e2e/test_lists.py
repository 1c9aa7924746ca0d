"""Lists on a busy server fit in what Discord accepts: `/matches` with 40 running matches,
as a player and as a spectator, `/stats` and `/history` of six-seat matches, in every
language — each a Components V2 card of at most 40 components and 4,000 characters that names
its players (mentions in its text, which render as names) and pings nobody, and a proper
answer."""

from __future__ import annotations

from typing import Any

import pytest

from data.model import CLAIMED, MatchResult, SeatResult
from tests.e2e.helpers import (
    as_message,
    body,
    card_size,
    components,
    fields,
    has_card,
    text_displays,
    title,
)
from tests.registry import ENGINES

RUNNING = 40
LOCALES = {"en-US": "Matches here", "de": "Partien hier", "fr": "Parties ici"}
MORE = {"en-US": "… and {n} more matches", "de": "… und {n} weitere Partien", "fr": "… et {n} autres parties"}
ONE_MORE = {"en-US": "… and 1 more match", "de": "… und 1 weitere Partie", "fr": "… et 1 autre partie"}
NUMBER = {"en-US": "#", "de": "#", "fr": "nº\u00a0"}  # how each language numbers a match in a title
OTHER_PLAYER = 10**18  # ids of members who play but are no actors of the test: mentions as long as real ones


def assert_within_discord_limits(table: Any, result: Any) -> Any:
    """The private answer of `result`: a card within the limits of a Components V2 message (40
    components, nested ones included; 4,000 characters of text) that pings nobody it names."""
    assert result.acknowledged and result.ephemeral
    message = as_message(result.response)
    assert message.flags.components_v2 and has_card(message)
    assert not message.embeds and not message.content
    count, characters = card_size(message)
    assert count <= 40 and characters <= 4000
    assert not table.env.backend.get_message(message.channel.id, message.id).ping_user_ids
    return result.response


async def running_matches(table: Any, players: tuple[int, int], count: int) -> list[int]:
    """`count` running Tremember matches of `players` in the table's channel, written through the
    storage interface (as another process of the bot would) and taken in by this one."""
    storage, engine = table.env.bot.storage, ENGINES["tremember"]
    made = []
    for seed in range(count):
        row = await storage.matches.open_lobby(
            game="tremember", guild_id=table.guild.id, channel_id=table.channel.id, host_id=players[0],
            seed=seed, options={},
        )  # fmt: skip
        assert await storage.matches.join_lobby(row.id, players[1], 2)
        assert await storage.matches.start(row.id, engine.dump(engine.new_game(2, seed)))
        await storage.matches.set_board_message(row.id, OTHER_PLAYER + row.id)
        made.append(row.id)
    await table.env.bot.matches.catch_up()
    assert set(made) <= set(table.env.bot.matches.running)
    return made


@pytest.mark.parametrize("locale", list(LOCALES))
async def test_matches_with_forty_running_fits_for_spectators_and_players(table, client_locales, locale):
    await running_matches(table, (table.bob.user.id, table.carol.user.id), RUNNING)
    await running_matches(table, (table.alice.user.id, OTHER_PLAYER), 3)
    for member in (table.alice, table.bob, table.dave):
        client_locales.speak(member, locale)

    watching = await table.dave.slash(table.channel, "matches")  # plays in none of them
    playing = await table.bob.slash(table.channel, "matches")  # plays in 40 of them
    both = await table.alice.slash(table.channel, "matches")  # plays in 3, may watch 40

    for result, listed in ((watching, [RUNNING + 3]), (playing, [RUNNING, 3]), (both, [3, RUNNING])):
        card = assert_within_discord_limits(table, result)
        assert title(card) == LOCALES[locale]
        for part, count in zip(fields(card), listed, strict=True):
            lines = part.value.splitlines()
            if count > len(lines):  # the rest is counted, never cut off mid-line
                shown = len(lines) - 1
                assert lines[-1] == MORE[locale].format(n=count - shown) and shown >= 5
            game = f"**Tremember {NUMBER[locale]}"
            assert all(line.startswith(game) for line in lines[: min(count, len(lines) - 1)])
        buttons = components(card)
        numbered = all("#" in button.label or "nº" in button.label for button in buttons)
        assert 5 <= len(buttons) <= 25 and numbered


async def six_seat_results(table: Any, count: int) -> None:
    """`count` abandoned six-seat Sequence Numbers matches of Alice and five others, claimed from
    all but the winner (the longest lines a list shows), stored."""
    storage, engine = table.env.bot.storage, ENGINES["sequence_numbers"]
    users = [table.alice.user.id, *(OTHER_PLAYER + seat for seat in range(1, 6))]
    for seed in range(count):
        row = await storage.matches.open_lobby(
            game="sequence_numbers", guild_id=table.guild.id, channel_id=table.channel.id, host_id=users[0],
            seed=seed, options={},
        )  # fmt: skip
        for user in users[1:]:
            assert await storage.matches.join_lobby(row.id, user, 6)
        state = engine.new_game(6, seed)
        assert await storage.matches.start(row.id, engine.dump(state))
        seats = tuple(
            SeatResult(
                seat=seat,
                user_id=user,
                team=seat,
                score=100 + seat,
                winner=seat == 5,
                left=CLAIMED if seat != 5 else None,
            )
            for seat, user in enumerate(users)
        )
        result = MatchResult(draw=False, seats=seats, abandoned=True)
        saved = await storage.matches.record_move(
            row.id, turn=0, seat=0, user_id=users[0], move={"type": "resign"}, state=engine.dump(state),
            result=result,
        )  # fmt: skip
        assert saved


@pytest.mark.parametrize("locale", list(LOCALES))
async def test_stats_and_history_of_six_seat_matches_fit(table, client_locales, locale):
    await six_seat_results(table, 12)
    client_locales.speak(table.alice, locale)

    stats = await table.alice.slash(table.channel, "stats")
    history = await table.alice.slash(table.channel, "history")

    assert_within_discord_limits(table, stats)
    recent = fields(stats.response)[-1].value.splitlines()
    game = f"**Sequence Numbers {NUMBER[locale]}"
    assert len(recent) == 5 and all(line.startswith(game) for line in recent)  # the five latest
    listed = body(assert_within_discord_limits(table, history)).splitlines()
    assert listed[0].startswith(game)
    assert listed[-1] == ONE_MORE[locale]  # nine fit; the tenth is counted, never cut off mid-line
    players = [f"<@{user}>" for user in (table.alice.user.id, *(OTHER_PLAYER + seat for seat in range(1, 6)))]
    shown = "\n".join(text_displays(history.response))
    assert all(player in shown for player in players)  # as names
