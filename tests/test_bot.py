"""Start-up settings, and start-up problems as one clear sentence, not a traceback."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

import bot
from data.model import ALL_SHARDS, Shards
from settings import DEFAULT_DATABASE, Settings


def test_an_unwritable_database_path_is_one_sentence(monkeypatch, tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(blocker / "game_table.db"))

    assert bot.main([]) == 1

    error = capsys.readouterr().err.strip()
    assert error.startswith("Cannot open the database at") and "DATABASE_PATH" in error
    assert "Traceback" not in error


def test_settings_come_from_the_environment_with_documented_defaults():
    settings = Settings.from_env({"DEV_GUILD_ID": "42", "LOCAL_PLAYERS": "Ann, Ben"})
    assert settings.token is None and settings.dev_guild_id == 42
    assert settings.local_players == ("Ann", "Ben")
    assert settings.database == DEFAULT_DATABASE


def test_settings_are_read_from_the_env_file_and_the_environment_wins(monkeypatch, tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("# the local table\nLOCAL_PLAYERS=Ann, Ben\nDEV_GUILD_ID=7\nLOG_LEVEL='debug'\n")
    monkeypatch.setenv("DEV_GUILD_ID", "42")
    for key in ("LOCAL_PLAYERS", "LOG_LEVEL"):
        monkeypatch.delenv(key, raising=False)

    settings = Settings.load(env_file)

    assert settings.local_players == ("Ann", "Ben") and settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 42


def test_every_setting_is_documented_in_the_example_file():
    example = (Path(bot.__file__).parent / ".env.example").read_text()
    keys = ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "LOCAL_PORT")
    for key in (*keys, "LOCAL_PLAYERS", "SHARD_COUNT", "SHARD_IDS"):
        assert f"\n{key}=" in example, key


@pytest.mark.parametrize(
    ("count", "ids", "shards"),
    [
        ("", "", ALL_SHARDS),
        ("4", "", Shards(4, (0, 1, 2, 3))),
        ("4", "0,1", Shards(4, (0, 1))),
        ("8", " 4-6, 1 ", Shards(8, (1, 4, 5, 6))),
    ],
)
def test_shard_settings_name_the_shards_this_process_runs(count, ids, shards):
    settings = Settings.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})
    assert settings.shards == shards


@pytest.mark.parametrize(
    ("count", "ids", "said"),
    [
        ("", "0", "SHARD_IDS needs SHARD_COUNT"),
        ("zero", "", "SHARD_COUNT must be a whole number"),
        ("0", "", "SHARD_COUNT must be a whole number"),
        ("2", "0;1", "SHARD_IDS must list shard numbers"),
        ("2", "1-x", "SHARD_IDS must list shard numbers"),
        ("2", "2", "SHARD_IDS must be shards 0 to 1"),
    ],
)
def test_wrong_shard_settings_say_what_to_fix(count, ids, said):
    with pytest.raises(SystemExit, match=said):
        Settings.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})


def test_the_factory_reads_the_shards_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2,3")
    sharded = bot.create_bot(database=tmp_path / "a.db")
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])

    monkeypatch.delenv("SHARD_COUNT")
    monkeypatch.delenv("SHARD_IDS")
    plain = bot.create_bot(database=tmp_path / "a.db")
    assert not isinstance(plain, discord.AutoShardedClient)
