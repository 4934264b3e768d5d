"""Qwirkle scorekeeper: a Flask app keeping score of a game played on a real table."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask.json.provider import DefaultJSONProvider

from . import config, store, web

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none';"
        " base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    # flask-wtf's HTTPS referer check needs the referrer on same-origin requests.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
"""Headers on every document; the CSP forbids inline scripts and any CDN."""

STATIC_HEADERS = {"X-Content-Type-Options": "nosniff"}
"""Headers on a static file: the CSP and framing rules govern documents, not the
scripts and styles they load, and a game page loads ten of those (headers are
bytes on the wire too: benchmarks/bench_page.py)."""

STATIC_DROPPED = ("Content-Disposition", "Last-Modified", "Accept-Ranges")
"""Headers Flask's static files carry that nothing uses here: the ETag
revalidates them, they are never downloaded as files, never fetched in parts."""


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, keeping field order, treating over-deep nesting as bad JSON
    and refusing huge numbers (formats.numbers)."""

    # State JSON keeps the CONTRACT's field order, easier to read in a terminal.
    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Parse JSON; a document nested too deeply is a ValueError, hence a 400;
        a number no game can hold raises web.NumberRefused, a 422."""
        try:
            if kwargs:
                return super().loads(s, **{**web.JSON_HOOKS, **kwargs})
            return web.json_loads(s)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def _asset_folder(name: str) -> str:
    """Return the top-level folder (checkout) or the copy inside the package (wheel)."""
    package = Path(__file__).resolve().parent
    beside = package.parent / name
    return str(beside if beside.is_dir() else package / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure the app (CONTRACT §2); test_config overrides any setting."""
    instance_path = os.environ.get(config.INSTANCE_ENV)
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        template_folder=_asset_folder("templates"),
        static_folder=_asset_folder("static"),
    )
    # The instance folder holds the database (every edit token) and the PINs.
    config.secure_folder(app.instance_path)
    app.config.from_mapping(config.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.load_secret_key(app.instance_path)
    if not app.config.get("ADMIN_PIN"):
        app.config["ADMIN_PIN"] = config.load_admin_pin(app.instance_path)
    if not app.config.get("ADMIN_KEY"):
        app.config["ADMIN_KEY"] = config.load_admin_key(app.instance_path)

    app.json = JSONProvider(app)
    store.init_app(app)
    web.init_app(app)

    @app.after_request
    def _security_headers(response: Response) -> Response:
        if request.endpoint in web.language.FILE_ENDPOINTS:
            for header in STATIC_DROPPED:
                response.headers.pop(header, None)
            headers = STATIC_HEADERS
        else:
            headers = SECURITY_HEADERS
        for header, value in headers.items():
            response.headers.setdefault(header, value)
        return response

    return app
