"""Which language and time zone a request is answered in (CONTRACT §9).

Pages: `?lang=` (remembered in a cookie), else the cookie, else the browser's
Accept-Language, else English. The JSON API follows Accept-Language only.
The time zone is the one static/localtime.js stores in a cookie; until then UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, tzinfo
from functools import cache, lru_cache
from typing import Any
from urllib.parse import unquote, urlencode
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel import Locale
from flask import Flask, Request, Response, current_app, g, has_request_context, request
from flask.globals import app_ctx, request_ctx
from flask_babel import Babel, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from .. import i18n

LANG_COOKIE = "lang"
"""The cookie remembering a language chosen with ?lang=."""

ZONE_COOKIE = "tz"
"""The cookie in which localtime.js leaves the device's IANA time zone."""

COOKIE_AGE = 400 * 24 * 3600
"""How long the language choice is remembered (browsers cap cookies at 400 days)."""

babel = Babel()
"""Flask-Babel: the locale of a request, WTForms' own messages, Jinja's i18n."""


FILE_ENDPOINTS = frozenset({"static", "assets.bundle"})
"""Endpoints that serve files (static/ and assets.py's bundles), not documents:
no document headers, the same in every language. Here, not in assets.py, so
that no module below the app imports a blueprint."""

def languages() -> tuple[str, ...]:
    """Return the language codes this app offers."""
    offered: tuple[str, ...] = current_app.config.get("LANGUAGES", i18n.LANGUAGES)
    return offered


def requested_language() -> str | None:
    """Return the language a valid ?lang= asks for, or None."""
    asked = request.args.get("lang", "")
    return asked if asked in languages() else None


def select_code() -> str:
    """Return the language code of this request (CONTRACT §9)."""
    return _code_of(request_ctx.request, languages())


def _code_of(asking: Request, offered: tuple[str, ...]) -> str:
    if not (asking.path == "/api" or asking.path.startswith("/api/")):
        chosen = asking.args.get("lang", "")
        if chosen not in offered:
            chosen = asking.cookies.get(LANG_COOKIE, "")
        if chosen in offered:
            return chosen
    # The WSGI environ's key, not headers.get: a request without the header
    # (any script's) raised and caught a KeyError there on every call.
    best = best_match(asking.environ.get("HTTP_ACCEPT_LANGUAGE", ""), offered)
    return best or i18n.DEFAULT


MATCHED_HEADER = 200
"""The longest Accept-Language whose match is kept (a browser's is far shorter)."""


def best_match(header: str, offered: Sequence[str]) -> str | None:
    """Return the offered language an Accept-Language header prefers, if any."""
    match = _matched if len(header) <= MATCHED_HEADER else _matched.__wrapped__
    return match(header, tuple(offered))


@lru_cache(maxsize=256)
def _matched(header: str, offered: tuple[str, ...]) -> str | None:
    # A device sends the same header with every request: parsing and matching
    # it took a sixth of working out a move's language (benchmarks/bench_api.py).
    return parse_accept_header(header, LanguageAccept).best_match(offered)


def select_locale() -> Locale:
    """Return this request's locale for Flask-Babel (a parsed one, which
    Flask-Babel takes as it is rather than parsing it on every request)."""
    return i18n.locale_of(select_code())


@cache
def known_zones() -> frozenset[str]:
    """Return the IANA zone names this machine knows (read once)."""
    return frozenset(available_timezones())


def select_zone() -> tzinfo | None:
    """Return the device's time zone from its cookie (None: unknown, UTC).

    Only a known zone's name is looked up: ZoneInfo opens files by name, and a
    folder of zones ("America") or a data file beside them raises errors of
    its own (a 500 on every page the cookie is sent with).
    """
    return _zone_of(request_ctx.request)


def _zone_of(asking: Request) -> tzinfo | None:
    return _zone(_zone_name(asking))


def _zone_name(asking: Request) -> str:
    """Return the known zone the request's cookie names, or "" (none, unknown)."""
    return _known_zone(asking.cookies.get(ZONE_COOKIE, ""))


@lru_cache(maxsize=256)
def _known_zone(cookie: str) -> str:
    # A device sends the same cookie with every request, its "/" escaped.
    name = unquote(cookie)
    return name if len(name) <= 64 and name in known_zones() else ""


def _zone(name: str) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def current_language() -> i18n.Language | None:
    """Return the request's language and zone for i18n (None outside a request).

    Worked out once, on the first sentence, then held by i18n until the request
    ends (a move's answer asks for a dozen sentences).
    """
    if not has_request_context():
        return None
    # The contexts taken from Flask's proxies once, then read as plain objects:
    # each reach through a proxy cost as much as a line of work here, and
    # resolving the language took 40 us of a move's answer (benchmarks/bench_api.py).
    held = app_ctx._get_current_object().g  # type: ignore[attr-defined]
    found: i18n.Language | None = held.get("_language")
    if found is None:
        context = request_ctx._get_current_object()  # type: ignore[attr-defined]
        asking, config = context.request, context.app.config
        found = _language(_code_of(asking, config.get("LANGUAGES", i18n.LANGUAGES)),
                          _zone_name(asking), config["BABEL_TRANSLATION_DIRECTORIES"])
        held._language = found
        held._language_token = i18n.use(found)
    return found


@lru_cache(maxsize=256)
def _language(code: str, zone_name: str, folder: str) -> i18n.Language:
    """Return the language of a code, a known zone's name ("": UTC) and the
    catalogs' folder, built once for every request that asks for it (a
    Language is frozen; only known zones' names come here, so the cache stays
    small)."""
    # The catalogs Flask-Babel reads (the app's BABEL_TRANSLATION_DIRECTORIES),
    # each read once, without its locale and domain lookups on every request:
    # they took a tenth of a move's server time (benchmarks/bench_api.py).
    zone = _zone(zone_name)
    return i18n.Language(code, i18n.catalog(code, folder), zone or UTC,
                         zone is not None)


def _release(_exc: BaseException | None) -> None:
    """Let go of the request's language (the worker thread serves others next)."""
    token = g.pop("_language_token", None)
    if token is not None:
        try:
            i18n.release(token)
        except ValueError:  # set in a copied context, which is gone already
            pass


def menu() -> list[dict[str, Any]]:
    """Return the language menu: each language in its own name, with a link to
    this page in it (the query kept, ?lang= replaced)."""
    current = i18n.current().code
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    entries = []
    for code in languages():
        name = i18n.locale_of(code).get_display_name(code) or code
        entries.append({
            "code": code,
            "name": name[:1].upper() + name[1:],
            "url": request.path + "?" + urlencode([*args, ("lang", code)]),
            "current": code == current,
        })
    return entries


def _remember(response: Response) -> Response:
    """Keep a language chosen with ?lang= in a cookie."""
    chosen = requested_language()
    if chosen and request.cookies.get(LANG_COOKIE) != chosen:
        response.set_cookie(
            LANG_COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True
        )
    # The page's language depends on these; a cache must not mix them up (a
    # static file is the same in every language).
    if request.endpoint not in FILE_ENDPOINTS:
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def init_app(app: Flask) -> None:
    """Install Flask-Babel and the language source, the cookie and the template
    helpers (`get_locale`, `html_lang`, `language_menu`)."""
    app.config.setdefault(
        "BABEL_TRANSLATION_DIRECTORIES", str(i18n.TRANSLATIONS)
    )
    app.config.setdefault("LANGUAGES", i18n.LANGUAGES)
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_zone)
    i18n.set_source(current_language)
    app.after_request(_remember)
    app.teardown_request(_release)
    app.jinja_env.globals.update(
        get_locale=get_locale,
        html_lang=lambda: i18n.current().code,
        language_menu=menu,
    )
