"""Discord's limits on what one message may hold, and lists built to fit them."""

from __future__ import annotations

from collections.abc import Sequence

from locales import ngettext

FIELD_LIMIT = 1024  # characters of one embed field's value
DESCRIPTION_LIMIT = 4096  # characters of one embed's description
EMBED_LIMIT = 6000  # characters of one embed in all
COMPONENT_LIMIT = 25  # buttons of one message, options of one select


def fitting(
    lang: str, lines: Sequence[str], total: int | None = None, limit: int = FIELD_LIMIT
) -> tuple[str, int]:
    """As many of `lines`, from the first, as fit in `limit` characters together with a last
    line "… and N more matches" counting the rest of the `total` (all the lines by default);
    and how many lines were shown."""
    total = len(lines) if total is None else total
    shown = len(lines)
    while shown and len(_joined(lang, lines[:shown], total - shown)) > limit:
        shown -= 1
    return _joined(lang, lines[:shown], total - shown), shown


def _joined(lang: str, lines: Sequence[str], rest: int) -> str:
    more = [ngettext(lang, "… and {n} more match", "… and {n} more matches", rest)] if rest else []
    return "\n".join([*lines, *more])
