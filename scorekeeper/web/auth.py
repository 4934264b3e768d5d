"""Who may write: edit tokens (CONTRACT §4) by header or browser session, the admin
PIN for restores (CONTRACT §8), and the game PIN that gives a device its right back.
"""

from __future__ import annotations

import hmac
import math
from dataclasses import dataclass

from flask import current_app, request, session
from flask_wtf.csrf import validate_csrf
from wtforms import ValidationError

from .. import net
from ..store import limits

MAX_SESSION_TOKENS = 40
"""Games a browser session remembers; the oldest drop out so the cookie stays small."""


def remember_token(game_id: int, token: str) -> None:
    """Give this browser session the right to edit game_id (new game, join link)."""
    tokens = dict(session.get("tokens", {}))
    tokens.pop(str(game_id), None)
    tokens[str(game_id)] = token
    while len(tokens) > MAX_SESSION_TOKENS:
        tokens.pop(next(iter(tokens)))
    session["tokens"] = tokens


def session_token(game_id: int) -> str | None:
    """Return the edit token this browser session holds for game_id, if any."""
    tokens = session.get("tokens")
    if isinstance(tokens, dict):
        token = tokens.get(str(game_id))
        return token if isinstance(token, str) else None
    return None


def session_may_edit(game_id: int, edit_token: str) -> bool:
    """Return whether this browser session holds the right edit token for the game."""
    held = session_token(game_id)
    return held is not None and same_text(held, edit_token)


def request_may_edit(game_id: int, edit_token: str) -> tuple[bool, str]:
    """Decide whether this API request may write; return (allowed, reason code).

    A script sends X-Edit-Token; a browser page sends its session cookie plus the
    CSRF token as X-CSRFToken (the API blueprint is otherwise CSRF-exempt).
    """
    header = request.headers.get("X-Edit-Token")
    if header is not None:
        if same_text(header, edit_token):
            return True, "ok"
        return False, "bad_edit_token"
    if not session_may_edit(game_id, edit_token):
        return False, "missing_edit_token"
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        try:
            validate_csrf(request.headers.get("X-CSRFToken"))
        except ValidationError:
            return False, "csrf_failed"
    return True, "ok"


def remember_event_token(event_id: int, token: str) -> None:
    """Give this browser session the right to add tables to an event (the host's
    device when it creates the event, or a device that followed its join link)."""
    tokens = dict(session.get("event_tokens", {}))
    tokens.pop(str(event_id), None)
    tokens[str(event_id)] = token
    while len(tokens) > MAX_SESSION_TOKENS:
        tokens.pop(next(iter(tokens)))
    session["event_tokens"] = tokens


def session_event_token(event_id: int) -> str | None:
    """Return the event token this browser session holds for event_id, if any."""
    tokens = session.get("event_tokens")
    if isinstance(tokens, dict):
        token = tokens.get(str(event_id))
        return token if isinstance(token, str) else None
    return None


def session_event_ids() -> list[int]:
    """Return the events this browser session may add tables to."""
    tokens = session.get("event_tokens")
    if not isinstance(tokens, dict):
        return []
    return [int(key) for key in tokens if key.isdigit()]


def request_may_add_to_event(event_id: int, event_token: str) -> tuple[bool, str]:
    """Decide whether this API request may add a game to the event; return
    (allowed, reason code): X-Event-Token, or the session's token plus CSRF."""
    header = request.headers.get("X-Event-Token")
    if header is not None:
        if same_text(header, event_token):
            return True, "ok"
        return False, "bad_event_token"
    held = session_event_token(event_id)
    if held is None or not same_text(held, event_token):
        return False, "missing_event_token"
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        try:
            validate_csrf(request.headers.get("X-CSRFToken"))
        except ValidationError:
            return False, "csrf_failed"
    return True, "ok"


ADMIN_SCOPE = "admin"
"""The try counter of the admin PIN (store.limits)."""


@dataclass(frozen=True)
class PinRefusal:
    """A refused PIN: 403 when missing or wrong, 429 while too many tries lock it."""

    status: int
    retry_after: int = 0
    """Seconds until the next try is heard (429 only)."""


def is_local_request() -> bool:
    """Return whether the request comes from this machine.

    Decided by the socket's peer address (request.remote_addr), never by a
    header a guest could send.
    """
    return net.is_loopback_address(request.remote_addr)


def same_text(given: str, expected: str) -> bool:
    """Compare a secret a client sent with the stored one, as bytes (any text)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def check_pin(scope: str, given: str | None, expected: str) -> PinRefusal | None:
    """Check a PIN against its try counter; None when it is right.

    While the scope is locked no PIN is heard (429); a wrong one counts as a try.
    """
    wait = limits.locked_for(scope)
    if wait > 0:
        return PinRefusal(429, math.ceil(wait))
    given = (given or "").strip()
    if given and same_text(given, expected):
        limits.succeeded(scope)
        return None
    if given:
        limits.failed(scope)
    return PinRefusal(403)


def admin_pin_refusal(form_field: str | None = None) -> PinRefusal | None:
    """Return why this request may not restore, or None: loopback needs no PIN,
    others send X-Admin-Pin or (a page) the form field admin_pin (CONTRACT §8)."""
    if is_local_request():
        return None
    given = request.headers.get("X-Admin-Pin", form_field)
    return check_pin(ADMIN_SCOPE, given, current_app.config["ADMIN_PIN"])


def game_pin_refusal(game_id: int, given: str | None, pin: str) -> PinRefusal | None:
    """Return why this game PIN does not give the right to edit, or None."""
    if not pin:
        return PinRefusal(403)
    return check_pin(f"game:{game_id}", given, pin)
