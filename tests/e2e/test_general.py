"""/help, /matches and the rules commands, as a member sees them."""

from __future__ import annotations

from tests.e2e.helpers import button_labels, open_and_start, told


async def test_help_lists_every_game_and_its_commands(table):
    result = await table.alice.slash(table.channel, "help")
    assert result.ephemeral
    embed = result.response.embeds[0]
    names = [field.name for field in embed.fields]
    for title in ("Tremember", "Tetris Link", "Rookie", "My First Triominos", "Sequence Numbers"):
        assert any(name.startswith(title) for name in names), title
    assert "`/tetrislink new`" in " ".join(field.value for field in embed.fields)


async def test_matches_lists_the_callers_matches_and_the_others_to_watch(table):
    board = await open_and_start(table.channel, table.alice, [table.bob], "tetrislink new")
    await table.alice.slash(table.channel, "tremember new")

    mine = await table.bob.slash(table.channel, "matches")
    assert mine.ephemeral
    fields = {field.name: field.value for field in mine.response.embeds[0].fields}
    assert list(fields) == ["Yours"]
    assert (
        "Tetris Link #1" in fields["Yours"]
        and "move 0" in fields["Yours"]
        and str(board.id) in fields["Yours"]
    )
    assert "Tremember" not in fields["Yours"]  # Bob did not join that lobby
    assert button_labels(mine.response.message) == ["Board #1 ↓"]
    alices = (await table.alice.slash(table.channel, "matches")).response.embeds[0].fields[0].value
    assert "Tremember #2** — lobby" in alices
    carols = await table.carol.slash(table.channel, "matches")
    assert [field.name for field in carols.response.embeds[0].fields] == ["Running — watch without joining"]
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
        assert word in result.response.embeds[0].description, command
