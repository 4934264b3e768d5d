"""The gettext wrapper for all user-facing text: the catalogs, the language, the zone.

Catalogs live in `scorekeeper/translations/<code>/LC_MESSAGES/messages.mo`
(compiled from the `.po` beside them: `python -m scorekeeper.catalogs`).
Which language and time zone apply is asked of a source: the web layer
installs one that reads the request (Flask-Babel's locale); elsewhere
`language("nl")` sets them for a block, and without either it is English in UTC.
No Flask here, so the text and file modules stay usable without an app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, tzinfo
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.support import LazyProxy, NullTranslations, Translations

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
"""The folder of the catalogs (shipped inside the package)."""

DOMAIN = "messages"
"""The catalogs' gettext domain."""

LANGUAGES: tuple[str, ...] = ("nl", "en", "de", "fr", "es")
"""The languages the app speaks (CONTRACT §9), in the order the menu lists them."""

DEFAULT = "en"
"""The language when nothing chooses one."""


@dataclass(frozen=True)
class Language:
    """A language and a time zone to write in."""

    code: str
    """The catalog's code: "nl"."""
    translations: NullTranslations
    """Its compiled catalog (NullTranslations: the English msgids)."""
    zone: tzinfo
    """The time zone dates are shown in."""
    zone_known: bool = False
    """Whether the zone is the reader's own (else it is UTC by default)."""

    @property
    def locale(self) -> Locale:
        """Return the Babel locale for numbers and dates."""
        return locale_of(self.code)


@cache
def locale_of(code: str) -> Locale:
    """Return the Babel locale of a language code (parsed once)."""
    return Locale.parse(code)


@cache
def catalog(code: str, folder: str = str(TRANSLATIONS)) -> NullTranslations:
    """Return the compiled catalog of a language (English msgids when none)."""
    found = Translations.load(folder, [code], DOMAIN)
    return found


def make(code: str, zone: tzinfo | None = None) -> Language:
    """Return a language from its code, with the zone (UTC when None)."""
    return Language(code, catalog(code), zone or UTC, zone is not None)


_chosen: ContextVar[Language | None] = ContextVar("scorekeeper_language", default=None)

_source: Callable[[], Language | None] = lambda: None  # noqa: E731


def set_source(source: Callable[[], Language | None]) -> None:
    """Install what answers "which language now?" when no block chose one."""
    global _source
    _source = source


def current() -> Language:
    """Return the language in force: a `language()` block, else the source, else
    English in UTC."""
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    return _source() or make(DEFAULT)


def use(chosen: Language) -> Token[Language | None]:
    """Write in this language until release(token) (a request's whole answer)."""
    return _chosen.set(chosen)


def release(token: Token[Language | None]) -> None:
    """End what use() began."""
    _chosen.reset(token)


@contextmanager
def language(code: str, zone: tzinfo | None = None) -> Iterator[Language]:
    """Write in this language (and zone) inside the block."""
    token = _chosen.set(make(code, zone))
    try:
        yield _chosen.get() or make(code, zone)
    finally:
        _chosen.reset(token)


def gettext(message: str, **variables: object) -> str:
    """Return the message translated, with %(name)s filled in."""
    translated = current().translations.gettext(message)
    return translated % variables if variables else translated


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    """Return the singular or plural message for num, translated and filled in
    (num is available as %(num)d)."""
    translated = current().translations.ngettext(singular, plural, num)
    return translated % {"num": num, **variables}


def pgettext(context: str, message: str, **variables: object) -> str:
    """Return the message as translated in this context ("menu": a short word
    where a longer one is used elsewhere), filled in."""
    translated = str(current().translations.pgettext(context, message))
    return translated % variables if variables else translated


def lazy_gettext(message: str, **variables: object) -> Any:
    """Return a string translated when it is shown (for class-level labels)."""
    return LazyProxy(gettext, message, enable_cache=False, **variables)


_ = gettext
