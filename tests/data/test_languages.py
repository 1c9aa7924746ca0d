"""Languages kept by the storage: a server's chosen language and each member's last locale."""

from __future__ import annotations

from data import open_storage
from locales.audience import dm_language, guild_language


async def test_a_servers_chosen_language_is_kept_and_can_follow_the_server_again(target):
    first = await open_storage(target)
    assert await first.settings.guild_language(1) is None
    await first.settings.set_default_clock(1, 600)
    await first.settings.set_guild_language(1, "fr")
    await first.settings.set_guild_language(2, "de")
    await first.settings.set_guild_language(2, None)
    await first.close()

    reopened = await open_storage(target)
    try:
        assert await reopened.settings.guild_language(1) == "fr"
        assert (await reopened.settings.for_guild(1)).clock_s == 600  # the other settings untouched
        assert await reopened.settings.guild_language(2) is None
        assert await guild_language(reopened.settings, 1, "de") == "fr"
        assert await guild_language(reopened.settings, 2, "de") == "de"
        assert await guild_language(reopened.settings, 3, "ja") == "en"
    finally:
        await reopened.close()


async def test_a_members_last_locale_is_kept_for_their_dms(target):
    first = await open_storage(target)
    assert await first.settings.member_locale(7) is None
    assert await dm_language(first.settings, 7) == "en"
    await first.settings.set_member_locale(7, "de")
    await first.settings.set_member_locale(7, "fr-CA")
    await first.settings.set_member_locale(8, "ja")
    await first.close()

    reopened = await open_storage(target)
    try:
        assert await reopened.settings.member_locale(7) == "fr-CA"
        assert await dm_language(reopened.settings, 7) == "fr"
        assert await dm_language(reopened.settings, 8) == "en"
    finally:
        await reopened.close()
