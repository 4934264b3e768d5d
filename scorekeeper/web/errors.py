"""Errors in one place: CONTRACT §4 JSON on API paths, the app's own pages elsewhere."""

from __future__ import annotations

import errno
import sqlite3
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import (
    HTTPException,
    MethodNotAllowed,
    NotFound,
    UnprocessableEntity,
)

from ..formats.numbers import MAX_DIGITS, NumberRefused
from ..i18n import gettext as _
from ..store import GameNotFound


class DiskFull(HTTPException):
    """A write that found the disk full: nothing was stored (reads still work)."""

    code = 507
    name = "Insufficient Storage"


class Busy(HTTPException):
    """Too many expensive renders at once: try again in a moment."""

    code = 503
    name = "Service Unavailable"

    def __init__(self, retry_after: int, description: str | None = None) -> None:
        super().__init__(description)
        self.retry_after = retry_after

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        """Add Retry-After to the plain error's headers."""
        return [*super().get_headers(*args, **kwargs),
                ("Retry-After", str(self.retry_after))]


class DatabaseBusy(Busy):
    """A write that waited the whole busy timeout for another writer (a long
    restore, another process): nothing was stored; try again in a moment."""

    RETRY_AFTER = 2
    """Seconds a client is told to wait: a restore holds the lock for one short
    batch at a time, so the next try gets in."""

    def __init__(self) -> None:
        super().__init__(self.RETRY_AFTER)


def is_busy(exc: BaseException) -> bool:
    """Return whether a database error says another connection holds the lock."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    # The primary code is the low byte (SQLITE_BUSY_SNAPSHOT is a BUSY too).
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "database is locked" in str(exc)


def is_disk_full(exc: BaseException) -> bool:
    """Return whether an error says the disk (or the database's page limit) is full."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def is_api_path() -> bool:
    """Return whether this request is for the JSON API."""
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    """Return the CONTRACT §4 error body {"error": {"code", "message"}} with status.

    Extra fields go inside "error", except `game` (a fresh state) beside it.
    """
    body: dict[str, Any] = {"error": {"code": code, "message": message}}
    game = extra.pop("game", None)
    body["error"].update(extra)
    if game is not None:
        body["game"] = game
    response = jsonify(body)
    response.status_code = status
    return response


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
    if isinstance(exc, DatabaseBusy):
        return {
            "title": _("Busy"),
            "message": _(
                "The scorekeeper is busy storing something else (a restore, say)."
                " Try again in a moment: nothing was changed."
            ),
        }
    if code >= 500 and code not in (503, 507):
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
        413: {
            "title": _("That file is too big"),
            "message": _(
                "The upload is larger than the scorekeeper takes. Go back and"
                " choose a smaller file: nothing was changed."
            ),
        },
        429: {
            "title": _("Too many tries"),
            "message": _(
                "Too many wrong PINs were tried. Wait a few minutes, then try again."
            ),
        },
        503: {
            "title": _("Busy"),
            "message": _(
                "The scorekeeper is busy drawing other sheets. Try again in a"
                " moment: nothing was changed."
            ),
        },
        507: {
            "title": _("The disk is full"),
            "message": _(
                "The disk of the computer running the scorekeeper is full: nothing"
                " was stored. Free some space on it, then try again; the games"
                " stored so far can still be read."
            ),
        },
    }
    return texts.get(code, {
        "title": _("That did not work"),
        "message": _(
            "The request could not be handled. Go back and try again: nothing was"
            " changed."
        ),
    })


def _api_message(status: int) -> str:
    """Return an HTTP error's message in the request's language (the JSON API)."""
    messages = {
        400: _("The request is malformed."),
        404: _("There is nothing at this address."),
        405: _("This address does not take that kind of request."),
        413: _("The request is too large."),
        415: _("The request body must be JSON."),
    }
    return messages.get(status, _("The request could not be handled."))


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


def _json_error(exc: HTTPException) -> Response:
    status = exc.code or 500
    if status in (503, 507):
        response = error_response(
            status, "disk_full" if status == 507 else "busy", _texts(exc)["message"]
        )
        for name, value in exc.get_headers():
            if name.lower() == "retry-after":
                response.headers[name] = value
        return response
    if status >= 500:
        return error_response(
            500, "internal_error", _("Something went wrong on the server.")
        )
    if isinstance(exc, CSRFError):
        return error_response(
            400, "csrf_failed",
            _("The page's security token is missing or stale: reload."),
        )
    code = (exc.name or "error").lower().replace(" ", "_")
    response = error_response(status, code, _api_message(status))
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response


def _http_error(exc: HTTPException) -> Response | HTTPException:
    return _json_error(exc) if is_api_path() else error_page(exc)


def _game_not_found(exc: GameNotFound) -> Response | HTTPException:
    if is_api_path():
        return error_response(
            404, "not_found", _("There is no game %(id)s.", id=exc.game_id)
        )
    return error_page(NotFound())


def _storage_error(exc: Exception) -> Response | HTTPException:
    """Answer a full disk with 507 and a database another writer kept locked
    past the busy timeout with 503 and Retry-After (nothing stored either way);
    anything else stays an error."""
    if is_busy(exc):
        current_app.logger.warning("database busy: %s", exc)
        return _http_error(DatabaseBusy())
    if not is_disk_full(exc):
        raise exc
    current_app.logger.error("disk full: %s", exc)
    return _http_error(DiskFull())


def _number_refused(exc: NumberRefused) -> Response | HTTPException:
    """A JSON body holding a number no game can hold: 422, nothing stored."""
    message = _(
        "A number in the request is too large (at most %(digits)d digits).",
        digits=MAX_DIGITS,
    )
    if is_api_path():
        return error_response(422, exc.code, message)
    unprocessable = UnprocessableEntity(message)
    return error_page(unprocessable)


def init_app(app: Flask) -> None:
    """Answer every HTTP error, a game that does not exist, and a full disk."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(GameNotFound, _game_not_found)
    app.register_error_handler(NumberRefused, _number_refused)
    app.register_error_handler(sqlite3.OperationalError, _storage_error)
    app.register_error_handler(OSError, _storage_error)
