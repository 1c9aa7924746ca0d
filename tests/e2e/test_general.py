"""/help, /matches and the rules commands, as a member sees them."""

from __future__ import annotations

from tests.e2e.helpers import (
    body,
    button_labels,
    field,
    fields,
    open_and_start,
    told,
)


async def test_help_lists_every_game_and_its_commands(table):
    result = await table.alice.slash(table.channel, "help")
    assert result.ephemeral
    embed = result.response
    names = [field.name for field in fields(embed)]
    for title in ("Tremember", "Tetris Link", "Rookie", "My First Triominos", "Sequence Numbers"):
        assert any(name.startswith(title) for name in names), title
    assert "`/tetrislink new`" in " ".join(field.value for field in fields(embed))


async def test_matches_lists_the_callers_matches_and_the_others_to_watch(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    await table.alice.slash(table.channel, "tremember new")

    mine = await table.bob.slash(table.channel, "matches")
    assert mine.ephemeral
    assert [part.name for part in fields(mine.response)] == ["Yours"]
    yours = field(mine.response, "Yours")
    assert "Tetris Link #1" in yours and "move 0" in yours and str(board.id) in yours
    assert "Tremember" not in yours  # Bob did not join that lobby
    assert button_labels(mine.response.message) == ["Board #1 ↓"]
    alices = field((await table.alice.slash(table.channel, "matches")).response, "Yours")
    assert "Tremember #2** — lobby" in alices
    carols = await table.carol.slash(table.channel, "matches")
    assert [field.name for field in fields(carols.response)] == ["Running — watch without joining"]
    assert button_labels(carols.response.message) == ["Watch #1"]
    quiet = table.env.create_guild("Quiet")
    erin = quiet.add_member(table.env.create_user("erin"))
    nothing = await erin.slash(quiet.create_text_channel("general"), "matches")
    assert "No match is being played here" in told(nothing)


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
        assert word in body(result.response), command
