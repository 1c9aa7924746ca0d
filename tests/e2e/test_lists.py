"""Lists on a busy server fit in what Discord accepts: `/matches` with 40 running matches,
as a player and as a spectator, `/stats` and `/history` of six-seat matches, in every
language — each field at most 1,024 characters, each embed at most 6,000, at most 25
buttons, and a proper answer."""

from __future__ import annotations

from typing import Any

import pytest

from data.model import MatchResult, SeatResult
from tests.e2e.helpers import (
    body,
    components,
    fields,
)
from tests.registry import ENGINES

RUNNING = 40
LOCALES = {"en-US": "Matches here", "de": "Partien hier", "fr": "Parties ici"}
MORE = {"en-US": "… and {n} more matches", "de": "… und {n} weitere Partien", "fr": "… et {n} autres parties"}
NUMBER = {"en-US": "#", "de": "#", "fr": "nº\u00a0"}  # how each language numbers a match in a title
OTHER_PLAYER = 10**18  # ids of members who play but are no actors of the test: mentions as long as real ones


def assert_within_discord_limits(result: Any) -> Any:
    """The private answer of `result`: one embed within Discord's limits, at most 25 buttons."""
    assert result.acknowledged and result.ephemeral
    [embed] = result.response.embeds
    fields = [(field.name or "", field.value or "") for field in embed.fields]
    assert all(len(value) <= 1024 and len(name) <= 256 for name, value in fields)
    assert len(embed.description or "") <= 4096 and len(embed.title or "") <= 256
    footer = embed.footer.text if embed.footer else ""
    total = len(embed.title or "") + len(embed.description or "") + len(footer or "")
    assert total + sum(len(name) + len(value) for name, value in fields) <= 6000
    assert len(components(result.response.message)) <= 25
    return embed


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
        embed = assert_within_discord_limits(result)
        assert embed.title == LOCALES[locale]
        for field, count in zip(embed.fields, listed, strict=True):
            lines = field.value.splitlines()
            if count > len(lines):  # the rest is counted, never cut off mid-line
                shown = len(lines) - 1
                assert lines[-1] == MORE[locale].format(n=count - shown) and shown >= 5
            title = f"**Tremember {NUMBER[locale]}"
            assert all(line.startswith(title) for line in lines[: min(count, len(lines) - 1)])
        buttons = components(result.response.message)
        numbered = all("#" in button.label or "nº" in button.label for button in buttons)
        assert 5 <= len(buttons) <= 25 and numbered


async def six_seat_results(table: Any, count: int) -> None:
    """`count` abandoned six-seat Sequence Numbers matches of Alice and five others, stored."""
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
            SeatResult(seat=seat, user_id=user, team=seat, score=100 + seat, winner=seat == 5)
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

    assert_within_discord_limits(stats)
    recent = fields(stats.response)[-1].value.splitlines()
    title = f"**Sequence Numbers {NUMBER[locale]}"
    assert len(recent) >= 3 and all(line.startswith(title) for line in recent[:3])
    assert_within_discord_limits(history)
    assert body(history.response).startswith(title)
