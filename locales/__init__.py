"""Every word the bot says, in English, German or French: gettext catalogues read with Babel.

The English text stays in the code; the catalogues (`locales/<lang>/LC_MESSAGES/messages.po`)
hold its translations, read once at start and compiled in memory (no `.mo` file is kept).
Code asks for a language's text with `gettext(lang, "…")`, `ngettext(lang, "…", "…", n)` or
`pgettext(lang, context, "…")`, `{name}` placeholders being filled in after translation;
a module constant is marked with `N_("…")` and translated where it is shown; a slash
command's strings are `app_commands.locale_str("…")` (see `locales.translator`). Numbers,
dates, durations and choices ("A, B or C") are written for the language with `number`, `date`,
`time`, `duration` and `alternatives`. Which language a message speaks is decided in
`locales.audience`.

Adding a fourth language (Spanish, `es`, as the example):

1. Add `"es"` to `LANGUAGES` below and its own name to `LANGUAGE_NAMES` ("Español"): that
   also makes it a choice of `/settings language`.
2. `python -m locales extract` — collect the English messages (code and command tree) into
   locales/messages.pot.
3. `python -m locales init es` — start locales/es/LC_MESSAGES/messages.po from it.
4. Translate every entry of that file (Poedit, Weblate, or a text editor). Entries with the
   context "command name" become Discord names: lowercase, no spaces, at most 32 characters.
   Keep every `{placeholder}` as it is.
5. Optionally write locales/es/rules/<game>.md, the rules of each game in Spanish.
6. `python -m locales check` — every entry translated, none fuzzy, the same placeholders,
   valid command names; it prints the statistics of each catalogue. Then run the tests.

When English texts change: `python -m locales extract`, then `python -m locales update`
(merges the new messages into every catalogue, marking changed ones fuzzy), translate, and
`python -m locales check`.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import io
from collections.abc import Mapping
from datetime import date as _date
from datetime import datetime, timedelta
from datetime import time as _time
from pathlib import Path
from types import MappingProxyType

from babel.dates import format_date, format_datetime, format_time, format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

FOLDER = Path(__file__).resolve().parent
DEFAULT = "en"
LANGUAGES = ("en", "de", "fr")  # the first is the language of the code, and the fallback
TRANSLATED = LANGUAGES[1:]  # the languages with a catalogue
LANGUAGE_NAMES: Mapping[str, str] = MappingProxyType({"en": "English", "de": "Deutsch", "fr": "Français"})
COMMAND_NAME = "command name"  # the context of the names of commands, options (Discord's rules)


def N_(message: str) -> str:
    """Mark `message` for translation where it is defined; translate it where it is shown."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark `message` with its `context` for translation where it is defined; translate the
    pair with `pgettext(lang, *pair)` where it is shown."""
    return context, message


def language_of(locale: object) -> str:
    """The language the bot speaks for a Discord locale ("de", "fr-CA", `discord.Locale.french`,
    "en-US"…): one of `LANGUAGES`, English for any other locale or none. Never raises."""
    text = str(getattr(locale, "value", locale) or "")
    primary = text.replace("_", "-").split("-", 1)[0].strip().lower()
    return primary if primary in LANGUAGES else DEFAULT


def catalogue_path(lang: str) -> Path:
    return FOLDER / lang / "LC_MESSAGES" / "messages.po"


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of `lang` (read on first use, then kept); English and any
    language without a catalogue translate nothing."""
    path = catalogue_path(lang)
    if lang not in TRANSLATED or not path.is_file():
        return _gettext.NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: they fall back to English
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


@functools.cache
def _templates() -> tuple[tuple[tuple[str, ...], str | None, str | tuple[str, ...]], ...]:
    """Each message of the template catalogue: the files it is written in, its context, its id."""
    with (FOLDER / "messages.pot").open("rb") as source:
        catalog = read_po(source)
    return tuple(
        (tuple(path for path, _ in message.locations), message.context, _message_id(message.id))
        for message in catalog
        if message.id
    )


def _message_id(message: str | tuple[str, ...] | list[str]) -> str | tuple[str, ...]:
    return message if isinstance(message, str) else tuple(message)


def texts(lang: str, source: str) -> list[str]:
    """Every text that the files under `source` ("render/rookie/") may write in `lang`, each form
    of each message, its placeholders unfilled: what a renderer may prepare at start-up."""
    catalogue = translations(language_of(lang))
    found: list[str] = []
    for paths, context, message in _templates():
        if not any(path.startswith(source) for path in paths):
            continue
        if isinstance(message, tuple):
            singular, plural = message[0], message[1]
            if context is None:
                found += [catalogue.ngettext(singular, plural, n) for n in (1, 2)]
            else:
                found += [catalogue.npgettext(context, singular, plural, n) for n in (1, 2)]
        elif context is None:
            found.append(catalogue.gettext(message))
        else:
            found.append(catalogue.pgettext(context, message))
    return found


def _filled(text: str, values: Mapping[str, object]) -> str:
    return text.format_map(values) if values else text


def gettext(lang: str, message: str, **values: object) -> str:
    """`message` in `lang` (English when it has no translation), `{placeholders}` filled."""
    return _filled(translations(language_of(lang)).gettext(message), values)


def pgettext(lang: str, context: str, message: str, **values: object) -> str:
    """`message` in `lang` where the same English means different things by `context`."""
    return _filled(translations(language_of(lang)).pgettext(context, message), values)


def ngettext(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    """The form of `singular`/`plural` that `n` takes in `lang`; `{n}` is `n` written for
    the language, unless `values` gives it. A negative count takes the form of its size
    ("−3 points")."""
    text = translations(language_of(lang)).ngettext(singular, plural, abs(n))
    return text.format_map({"n": number(lang, n), **values})


def translated(lang: str, message: str, context: str | None = None) -> str | None:
    """The translation of `message` in `lang`, or None when the catalogue has none."""
    catalogue = translations(language_of(lang))
    text = catalogue.gettext(message) if context is None else catalogue.pgettext(context, message)
    return None if text == message else text


def command(lang: str, path: str) -> str:
    """A slash command as a member of that language sees it in Discord: "tetrislink new" →
    "/tetrislink neu"."""
    return "/" + " ".join(name(lang, part) for part in path.split())


def name(lang: str, english: str) -> str:
    """The name of a command or option in `lang` ("level" → "stufe")."""
    return pgettext(lang, COMMAND_NAME, english)


@functools.lru_cache(maxsize=4096, typed=True)
def number(lang: str, value: float) -> str:
    """A number as `lang` writes it (1,234.5 · 1.234,5 · 1 234,5; −2 where the language writes
    a minus sign). Kept: boards write the same few numbers again and again."""
    text = format_decimal(value, locale=language_of(lang))
    if value < 0 and text.startswith("-"):
        # TRANSLATORS: the sign before a negative number ("−2"): a hyphen, or U+2212 MINUS SIGN.
        return pgettext(lang, "minus sign", "-") + text[1:]
    return text


def percent(lang: str, share: float) -> str:
    """A share (0 to 1) as a whole percentage as `lang` writes it: "12%", "12 %"."""
    return format_percent(share, locale=language_of(lang))


def signed(lang: str, value: int) -> str:
    """A whole change as `lang` writes it, always with its sign: "+3", "+0", "−2"."""
    return ("+" if value >= 0 else "") + number(lang, value)


def date(lang: str, when: _date, length: str = "medium") -> str:
    """A date as `lang` writes it; `length`: short, medium, long or full."""
    return format_date(when, format=length, locale=language_of(lang))


def time(lang: str, when: _time | datetime, length: str = "short") -> str:
    """A time of day as `lang` writes it (UTC unless `when` carries a zone)."""
    return format_time(when, format=length, locale=language_of(lang))


def moment(lang: str, when: datetime, length: str = "medium") -> str:
    """A date and time as `lang` writes it."""
    return format_datetime(when, format=length, locale=language_of(lang))


def month_or_quarter(lang: str, when: _date, *, quarter: bool = False) -> str:
    """The month ("November 2026", "novembre 2026") or quarter ("Q4 2026", "T4 2026") of `when`
    as `lang` names it on its own."""
    return format_date(when, format="QQQ y" if quarter else "LLLL y", locale=language_of(lang))


def alternatives(lang: str, items: list[str]) -> str:
    """A choice between items as `lang` writes it: "A, B or C", "A, B oder C", "A, B ou C"."""
    return format_list(items, style="or", locale=language_of(lang))


def and_list(lang: str, items: list[str]) -> str:
    """Items joined with "and" as `lang` writes it: "A and B and C", "A und B", "A et B"."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = gettext(lang, "{first} and {second}", first=text, second=item)
    return text


def duration(lang: str, seconds: float) -> str:
    """A length of time in words: "2 minutes", "24 Stunden", "3 jours"."""
    return format_timedelta(timedelta(seconds=seconds), locale=language_of(lang))
