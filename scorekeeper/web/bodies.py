"""The largest request body each route takes, decided from the headers alone.

The server asks this before it reads a body (guarded_waitress.py, CONTRACT §8.1): a
photo route takes a photo, the restore routes take a backup from the admin
only (a guest's 200 MB "restore" would otherwise be buffered to disk before the
PIN is checked), and every other route what the app reads at most
(MAX_CONTENT_LENGTH: a game, a move, a record are kilobytes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from . import auth, photo_upload, transfers

_NOT_HEADERS = {"CONTENT_LENGTH", "CONTENT_TYPE", "TRANSFER_ENCODING"}
"""Waitress's header keys that describe the body, not the client."""


def default_limit(app: Flask) -> int:
    """Return the largest body a route without a larger limit takes."""
    return int(app.config["MAX_CONTENT_LENGTH"])


def _endpoint(app: Flask, path: str, method: str) -> str | None:
    try:
        endpoint, _ = app.url_map.bind("localhost").match(path, method=method)
    except HTTPException:  # no such route, wrong method, a redirect
        return None
    return str(endpoint)


def _is_admin(app: Flask, path: str, method: str, headers: Mapping[str, str],
              peer: str) -> bool:
    """Return whether a request with these headers from peer has the admin's
    right (auth.is_admin, on the headers alone: no body is read)."""
    named = {key.replace("_", "-").title(): value for key, value in headers.items()
             if key not in _NOT_HEADERS}
    with app.test_request_context(path, method=method, headers=named,
                                  environ_base={"REMOTE_ADDR": peer}):
        return auth.is_admin()


def body_limit(app: Flask, path: str, method: str, headers: Mapping[str, str],
               peer: str) -> int:
    """Return the largest body in bytes that a request to path may carry."""
    if method != "POST":
        return default_limit(app)
    endpoint = _endpoint(app, path, method)
    if endpoint in photo_upload.ENDPOINTS:
        with app.app_context():
            return photo_upload.body_limit()
    if endpoint in transfers.RESTORE_ENDPOINTS and _is_admin(app, path, method,
                                                             headers, peer):
        with app.app_context():
            return transfers.backup_limit()
    return default_limit(app)


def limit_for(app: Flask) -> Callable[[str, str, Mapping[str, str], str], int]:
    """Return body_limit for app, as the server asks it (guarded_waitress.BodyLimit)."""

    def limit(path: str, method: str, headers: Mapping[str, str], peer: str) -> int:
        try:
            return body_limit(app, path, method, headers, peer)
        except Exception:  # noqa: BLE001 - the server's loop must not fail
            return default_limit(app)

    return limit


def json_document(app: Flask, asking: Request) -> Any:
    """Return the request's JSON body parsed by the app's JSON (None: not JSON,
    or not parseable); 413 for a body over the default limit.

    What Werkzeug's get_json(silent=True) answers, with one read of the body:
    its content-type parse, its stream wrapper and its data cache outweighed
    parsing a move's body, four times over (benchmarks/bench_api.py).
    """
    kind = asking.environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if not (kind == "application/json"
            or (kind.startswith("application/") and kind.endswith("+json"))):
        return None
    length = asking.content_length
    if length is not None and length > default_limit(app):
        raise RequestEntityTooLarge()
    if length is None:  # chunked: Werkzeug's stream stops it at the limit (413)
        data = asking.stream.read()
    else:
        data = asking.environ["wsgi.input"].read(length)
    try:
        return app.json.loads(data)
    except ValueError:
        return None
