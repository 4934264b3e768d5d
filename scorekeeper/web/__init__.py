"""The web app: blueprints take requests in and give pages and JSON out.

- `api`: the JSON API (CONTRACT §4); `table`: home, new game, the game page
- `history`: history list, replay, corrections, renames, deletes, the sheet
- `players`: player statistics, head-to-head; `files`: every file, import,
  backup, restore
- shared: `forms` (every FlaskForm), `auth` (edit tokens), `errors` (error
  answers), `language` (the request's language and zone), `pages` (helpers
  the blueprints share)

No blueprint imports another; shared view code lives in `pages`.
"""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from .. import text
from ..i18n import gettext, ngettext, pgettext
from . import api, errors, files, history, language, players, table
from .pages import time_tag

csrf = CSRFProtect()
"""CSRF protection for every form post (the JSON API checks its own, see auth)."""


def init_app(app: Flask) -> None:
    """Register the blueprints, the template helpers and the error answers."""
    language.init_app(app)
    csrf.init_app(app)
    # Scripts authenticate with X-Edit-Token, pages with session + X-CSRFToken,
    # which auth.request_may_edit checks itself.
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp, url_prefix="/api")
    for blueprint in (table.bp, history.bp, players.bp, files.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.globals.update(
        _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, text=text,
        time_tag=time_tag,
    )
    errors.init_app(app)
