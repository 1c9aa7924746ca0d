"""Achievements through the real bot: earned by a played match and told once on its final board,
listed by /achievements with their rarity and the locked ones, and awarded silently, once, to the
matches a database held before achievements existed."""

from __future__ import annotations

from bot import create_bot
from cogs.registry import GAMES
from data.model import now_iso
from tests.backends import wait_until
from tests.data.finished import store_played
from tests.e2e.helpers import all_text, board_image, body, channel_message, field, fields, mover
from tests.e2e.test_league import resign
from tests.e2e.test_tremember import play_turn, start


def earned_lines(channel) -> list[str]:
    """Every line of the channel's messages that tells of achievements earned."""
    return [line for m in channel.history() for line in all_text(m).splitlines() if " earned " in line]


async def test_a_match_earns_a_first_win_and_a_feat_told_once_and_listed_with_their_rarity(table, target):
    board = await start(table)
    for _ in range(4):  # two turns each without a pair: both made their two moves, the match counts
        board = await play_turn(table, board.id, pair=False)
    scorer = mover(board, table.players)
    for _ in range(3):  # three pairs in a row: a pair earns another turn
        board = await play_turn(table, board.id, pair=True)
    loser = table.bob if scorer is table.alice else table.alice
    await resign(loser, board)

    board = channel_message(table.channel, board.id)
    told = [line for line in body(board).splitlines() if "earned" in line]
    assert len(told) == 1 and told[0].startswith(f"🏅 <@{scorer.user.id}> earned 🥇 **First win**")
    assert told[0].endswith(" and 🧠 **Total recall**")  # three pairs in a row

    listed = (await loser.slash(table.channel, "achievements", member=scorer)).response
    assert listed.ephemeral and f"<@{scorer.user.id}> holds" in body(listed)
    earned = field(listed, fields(listed)[0].name)
    first_win = next(line for line in earned.splitlines() if "**First win**" in line)
    assert first_win.startswith("🥇") and "Win a match." in first_win and "50% of players" in first_win
    locked = "\n".join(part.value for part in fields(listed) if part.name.startswith("Locked"))
    assert "🔒 🔟 **Ten wins** — Win 10 matches. · 0% of players" in locked
    assert "**Champion**" in locked and "**Double hexagon**" in locked
    mine = (await loser.slash(table.channel, "achievements")).response
    card = board_image((await scorer.slash(table.channel, "stats")).response)  # the player card
    assert "Latest achievements: Total recall and " in card.description  # the latest first
    assert card.description.endswith(" and First win.")
    assert f"<@{loser.user.id}> holds 0 of" in body(mine) and not fields(mine)[0].name.startswith("Earned")

    await table.env.restart_bot(create_bot(database=target))  # nothing is awarded or told again
    assert len(earned_lines(table.channel)) == 1


async def test_matches_stored_before_achievements_are_awarded_once_at_start_silently(table, target):
    storage = table.env.bot.storage
    people = (table.alice.user.id, table.bob.user.id)
    # Stored as a bot before achievements stored its matches: the storage alone awards nothing.
    _, feats = await store_played(storage, GAMES["triominos"], guild_id=table.guild.id, users=people)
    assert await storage.achievements.unawarded(now_iso()) and not await _held(
        storage, table.guild.id, people
    )

    await table.env.restart_bot(create_bot(database=target))
    storage = table.env.bot.storage
    await wait_until(lambda: _awarded(storage), what="the stored match awarded")
    assert await table.env.bot.matches.awards.catch_up() == 0  # it had awarded everything

    held = await _held(storage, table.guild.id, people)
    assert held >= {(user, key) for user, keys in feats.items() for key in keys}
    assert any(key == "league.first_win" for _, key in held)
    assert not earned_lines(table.channel)  # silent

    await table.env.restart_bot(create_bot(database=target))  # not twice
    assert await _held(table.env.bot.storage, table.guild.id, people) == held
    listed = (await table.alice.slash(table.channel, "achievements")).response
    mine = len([key for user, key in held if user == table.alice.user.id])
    assert f"<@{table.alice.user.id}> holds {mine} of" in body(listed)


async def _held(storage, guild_id: int, people: tuple[int, ...]) -> set[tuple[int, str]]:
    return {(a.user_id, a.key) for user in people for a in await storage.achievements.earned(guild_id, user)}


async def _awarded(storage) -> bool:
    return not await storage.achievements.unawarded(now_iso())
