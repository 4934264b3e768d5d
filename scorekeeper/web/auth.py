"""Edit tokens: who may write to a game (CONTRACT §4), by header or browser session."""

from __future__ import annotations

import hmac

from flask import current_app, request, session
from flask_wtf.csrf import validate_csrf
from wtforms import ValidationError

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
    return held is not None and hmac.compare_digest(held, edit_token)


def request_may_edit(game_id: int, edit_token: str) -> tuple[bool, str]:
    """Decide whether this API request may write; return (allowed, reason code).

    A script sends X-Edit-Token; a browser page sends its session cookie plus the
    CSRF token as X-CSRFToken (the API blueprint is otherwise CSRF-exempt).
    """
    header = request.headers.get("X-Edit-Token")
    if header is not None:
        if hmac.compare_digest(header.encode(), edit_token.encode()):
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
