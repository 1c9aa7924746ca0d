"""/help, /matches and the rules commands, as a member sees them."""

from __future__ import annotations

from tests.e2e.helpers import open_and_start


async def test_help_lists_every_game_and_its_commands(table):
    result = await table.alice.slash(table.channel, "help")
    assert result.ephemeral
    embed = result.response.embeds[0]
    names = [field.name for field in embed.fields]
    for title in ("Tremember", "Tetris Link", "Rookie", "My First Triominos", "Sequence Numbers"):
        assert any(name.startswith(title) for name in names), title
    assert "`/tetrislink new`" in " ".join(field.value for field in embed.fields)


async def test_matches_lists_the_callers_lobbies_and_running_matches_with_links(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    await table.alice.slash(table.channel, "tremember new")

    mine = await table.bob.slash(table.channel, "matches")
    assert mine.ephemeral
    text = mine.response.embeds[0].description
    assert "Tetris Link #1" in text and "move 0" in text and str(board.id) in text
    assert "Tremember" not in text  # Bob did not join that lobby
    assert (
        "Tremember #2** — lobby"
        in (await table.alice.slash(table.channel, "matches")).response.embeds[0].description
    )
    nothing = await table.carol.slash(table.channel, "matches")
    assert "You are in no match" in nothing.response.content


async def test_every_game_explains_its_rules_privately(table):
    for command, word in (
        ("tetrislink rules", "die"),
        ("tremember rules", "Push"),
        ("rookie rules", "X"),
        ("triominos rules", "token"),
        ("sequence rules", "sequence"),
    ):
        result = await table.alice.slash(table.channel, command)
        assert result.ephemeral, command
        assert word in result.response.embeds[0].description, command
