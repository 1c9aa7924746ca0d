"""Fixtures of the end-to-end tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import simcord.interactions


class ClientLocales:
    """The languages of the members' Discord clients, as the interactions they make carry them."""

    def __init__(self) -> None:
        self.by_user: dict[int, str] = {}

    def speak(self, member: Any, locale: str) -> Any:
        """Give `member` (an actor) a client in `locale` ("de", "fr", "ja"…); returns the member."""
        self.by_user[member.user.id] = locale
        return member


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> ClientLocales:
    """Interactions that carry their member's client locale and their server's locale.

    SimCord builds every INTERACTION_CREATE payload in `simcord.interactions.base_payload`
    (its actors call it through the module) with `locale` and `guild_locale` fixed at
    "en-US", and has no member locale. This fixture wraps that builder: `locale` becomes the
    one given to the member with `client_locales.speak(member, "fr")` (en-US otherwise), and
    `guild_locale` the server's preferred locale, as Discord sends it — set it with
    `env.create_guild(name, preferred_locale="de")`. The bot's `discord.Guild.preferred_locale`
    is the same value. Undone at the end of the test."""
    locales = ClientLocales()
    build = simcord.interactions.base_payload

    def with_locales(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = locales.by_user.get(fields["user_id"], "en-US")
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    return locales


@dataclass
class Table:
    """A server with a games channel and four members."""

    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    dave: object

    @property
    def players(self) -> list:
        return [self.alice, self.bob, self.carol, self.dave]


@pytest.fixture
def table(simcord_env) -> Table:
    guild = simcord_env.create_guild("Game Night")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return Table(simcord_env, guild, channel, *members)
