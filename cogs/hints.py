"""The words of a hint's reason (ai/reasons/): each game's cog names its own, one sentence per
reason key, counts through ngettext (`n`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ai.reasons import Reason
from locales import gettext

# A reason whose sentence counts something (`n`): its words for a count and the other values.
Counted = Callable[[str, int, dict[str, int]], str]


@dataclass(frozen=True)
class Reasons:
    """A game's words for the reasons its `explain` gives: those that count something, and the
    plain sentences (`N_` messages filled with the reason's values)."""

    counted: Mapping[str, Counted] = field(default_factory=dict)
    plain: Mapping[str, str] = field(default_factory=dict)

    def text(self, reason: Reason, lang: str) -> str | None:
        """Why, in `lang`; None for a key the game has no words for."""
        if reason.key in self.counted:
            values = dict(reason.values)
            return self.counted[reason.key](lang, values.pop("n", 0), values)
        if reason.key in self.plain:
            return gettext(lang, self.plain[reason.key], **reason.values)
        return None
