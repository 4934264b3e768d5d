"""The web app: blueprints take requests in and give pages and JSON out.

- `api`: every /api/ route, one module per area (games, events, files; the
  rule: api/__init__.py); `table`: home, new game, the game page
- `history`: history list, replay, corrections, renames, deletes, the sheet
- `players`: player statistics, ratings, head-to-head; `tv`: the table view
  and its event stream; `events`: club nights (tables, standings, their TV
  view, seating); `seasons`: seasons of nights (standings, roster, files,
  their TV view); `files`: every file, import, backup, restore;
  `color_lessons`: teaching the reader the table's colours
- shared: `forms` (every FlaskForm), `auth` (edit tokens), `errors` (error
  answers), `language` (the request's language and zone), `live` (screens
  that follow a state: event streams and polls), `pages` (helpers
  the blueprints share); what a page and the API answer alike: `state`
  (a game), `event_json` (a club night), `transfers` (files, backups);
  what a night's and a season's pages share: `club_pages`

No blueprint imports another; shared view code lives in those shared modules.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Flask, abort, current_app, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter, PathConverter

from .. import net, text
from ..formats import numbers
from ..i18n import gettext, ngettext, pgettext
from ..store.cache import MAX_GAME_ID
from . import (
    admin,
    api,
    assets,
    auth,
    color_lessons,
    compress,
    errors,
    events,
    files,
    history,
    language,
    pages,
    photo_upload,
    players,
    seasons,
    table,
    tv,
)
from .pages import time_tag

JSON_HOOKS = numbers.HOOKS
"""The number checks every JSON body is parsed with (the app's JSON provider)."""

json_loads = numbers.loads
"""json.loads with those checks, by one decoder made once."""

NumberRefused = numbers.NumberRefused

csrf = CSRFProtect()
"""CSRF protection for every form post (the JSON API checks its own, see auth)."""


class BoundedInt(IntegerConverter):
    """`<int:…>` in every route: a whole number up to SQLite's largest integer, as
    the API bounds ids (a bigger one names nothing: 404, never an overflow)."""

    def __init__(self, url_map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_GAME_ID)
        super().__init__(url_map, *args, **kwargs)


class NameConverter(PathConverter):
    """A player's name in a URL: every character but letters and digits encoded,
    "/" too, so a player named "../../backup" links to their own page."""

    def to_url(self, value: Any) -> str:
        """Return the name percent-encoded as one path segment."""
        quoted = quote(str(value), safe="")
        # "." and ".." are dot segments a browser resolves away, encoded or not;
        # a trailing space keeps them (the name rule ignores spacing).
        return quoted + "%20" if quoted in (".", "..") else quoted


def _check_host() -> None:
    """Refuse a request whose Host is not one this server answers to (400)."""
    allowed = current_app.config.get("ALLOWED_HOSTS")
    if allowed and net.host_name(request.host) not in allowed:
        abort(400, description=gettext(
            "This server does not answer to the address %(host)s.",
            host=request.host[:100],
        ))


def init_app(app: Flask) -> None:
    """Register the blueprints, the template helpers and the error answers."""
    language.init_app(app)
    app.url_map.converters["int"] = BoundedInt
    app.url_map.converters["name"] = NameConverter
    app.before_request(_check_host)
    # A device given a right this request keeps it in its device cookie.
    app.after_request(auth.save_device_cookie)
    pages.init_app(app)
    photo_upload.init_app(app)
    csrf.init_app(app)
    # Scripts authenticate with X-Edit-Token, pages with session + X-CSRFToken,
    # which auth.request_may_edit checks itself.
    # Every /api/ route: see web/api/__init__.py for why it is CSRF-exempt.
    for blueprint in api.BLUEPRINTS:
        csrf.exempt(blueprint)
        app.register_blueprint(blueprint, url_prefix="/api")
    for blueprint in (table.bp, history.bp, players.bp, files.bp, tv.bp, admin.bp,
                      events.bp, seasons.bp, color_lessons.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.globals.update(
        _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, text=text,
        time_tag=time_tag,
    )
    errors.init_app(app)
    compress.init_app(app)
    assets.init_app(app)
