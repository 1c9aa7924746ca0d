"""Start-up problems are one clear sentence, not a traceback."""

from __future__ import annotations

from pathlib import Path

import bot


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
    settings = bot.Settings.from_env({"DEV_GUILD_ID": "42", "LOCAL_PLAYERS": "Ann, Ben"})
    assert settings.token is None and settings.dev_guild_id == 42
    assert settings.local_players == ("Ann", "Ben")
    assert settings.database == bot.DEFAULT_DATABASE


def test_every_setting_is_documented_in_the_example_file():
    example = (Path(bot.__file__).parent / ".env.example").read_text()
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "LOCAL_PORT", "LOCAL_PLAYERS"):
        assert f"\n{key}=" in example, key
