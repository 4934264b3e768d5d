"""Friendly HTML error pages for the app's pages; API paths keep their JSON errors."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from .i18n import _


def _is_api_path() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _texts(exc: HTTPException) -> dict[str, str]:
    """Return the heading and the explanation a player reads for this error."""
    code = exc.code or 500
    if isinstance(exc, CSRFError):
        return {
            "title": _("The form has expired"),
            "message": _(
                "This page was open too long or came from another session. Go back,"
                " reload the page and try again: nothing was changed."
            ),
        }
    if code >= 500:
        return {
            "title": _("Something went wrong"),
            "message": _(
                "The scorekeeper hit an error. Moves already confirmed are stored:"
                " go back, reload the page and try again."
            ),
        }
    texts = {
        400: {
            "title": _("That did not work"),
            "message": _(
                "The request was incomplete or malformed. Go back and try again:"
                " nothing was changed."
            ),
        },
        403: {
            "title": _("Not on this device"),
            "message": _(
                "Only a device that holds this game's code may change it. Scan the"
                " game's QR code on the device that started it, then try again."
            ),
        },
        404: {
            "title": _("Page not found"),
            "message": _(
                "There is no game or page at this address: it may have been deleted,"
                " or the link is mistyped."
            ),
        },
        405: {
            "title": _("That did not work"),
            "message": _("This address does not take that kind of request."),
        },
    }
    return texts.get(code, {"title": exc.name, "message": exc.description or ""})


def error_page(exc: HTTPException) -> Response | HTTPException:
    """Return the app-styled HTML page for an HTTP error on a page path."""
    code = exc.code or 500
    # A refused change to a game links back to the game (it stays viewable).
    game_id = (request.view_args or {}).get("game_id") if code != 404 else None
    try:
        body = render_template(
            "errors/error.html", code=code, game_id=game_id, **_texts(exc)
        )
    except Exception:  # an error page must never fail in turn
        current_app.logger.exception("error page failed to render")
        return exc
    response = Response(body, status=code, mimetype="text/html")
    # Keep what the plain exception would have sent, e.g. Allow on a 405.
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def _with_page(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
    @functools.wraps(handler)
    def wrapped(exc: Any) -> Any:
        result = handler(exc)
        if isinstance(result, HTTPException) and not _is_api_path():
            return error_page(result)
        return result

    return wrapped


def init_app(app: Flask) -> None:
    """Turn the bare exceptions create_app's handlers return for pages into pages.

    Those handlers already decide per path (CONTRACT §4 JSON for /api, the
    exception itself otherwise); wrapping them keeps that one decision and only
    replaces Werkzeug's plain page. Call it after they are registered.
    """
    handlers = app.error_handler_spec[None]
    for code_map in handlers.values():
        for cls, handler in list(code_map.items()):
            if issubclass(cls, HTTPException):
                code_map[cls] = _with_page(handler)
    if HTTPException not in handlers[None]:
        app.register_error_handler(HTTPException, error_page)
