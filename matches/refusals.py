"""What Discord's refusals mean for a match: which ones say the bot lost the match's place
(its channel or server is gone, or a permission it needs there was taken away)."""

from __future__ import annotations

import discord

from locales import N_

UNKNOWN_CHANNEL, UNKNOWN_GUILD = 10003, 10004
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013

# Why a match is set aside, as its players read it, by Discord's error code.
LOST_PLACES = {
    UNKNOWN_CHANNEL: N_("its channel was deleted"),
    UNKNOWN_GUILD: N_("I was removed from its server"),
    MISSING_ACCESS: N_("I can no longer see its channel"),
    MISSING_PERMISSIONS: N_("I lack a permission I need in its channel"),
}
REMOVED = LOST_PLACES[UNKNOWN_GUILD]
DELETED = LOST_PLACES[UNKNOWN_CHANNEL]


def lost_place(error: BaseException) -> str | None:
    """Why the bot can no longer publish a match, if `error` says so (None for any other
    error, a deleted message among them: that board is simply posted again)."""
    if not isinstance(error, discord.HTTPException):
        return None
    return LOST_PLACES.get(error.code)


def resumable(reason: str) -> bool:
    """Whether a match set aside for `reason` may come back: not once its channel is gone."""
    return reason != DELETED
