"""Who may write: edit tokens (CONTRACT §4) by header or browser session, the admin
PIN for restores (CONTRACT §8), and the game PIN that gives a device its right back.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, current_app, g, request, session
from flask_wtf.csrf import validate_csrf
from itsdangerous import BadData, URLSafeSerializer
from wtforms import ValidationError

from .. import net
from ..store import limits

MAX_SESSION_TOKENS = 40
"""Games a browser session remembers; the oldest drop out so the cookie stays small."""


DEVICE_COOKIE = "scorekeeper_device"
"""The cookie holding the games this device may change, signed with the secret key."""

DEVICE_AGE = 365 * 24 * 3600
"""How long the device cookie lives: a year (browsers cap cookies at 400 days)."""

MAX_DEVICE_GAMES = 80
"""Games the device cookie remembers, newest kept (80 take ~1.5 KB of the 4 KB
a cookie may hold)."""

_SALT = "scorekeeper-device-rights"
"""Keeps the device cookie's signature apart from the session's."""


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt=_SALT)


def token_digest(token: str) -> str:
    """Return the short digest of an edit token that the device cookie keeps
    (the cookie, readable to whoever holds the device, never holds the token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


def device_games() -> dict[str, str]:
    """Return the games this device's cookie names, {game id: token digest}."""
    if "device_games" not in g:
        found: dict[str, str] = {}
        raw = request.cookies.get(DEVICE_COOKIE, "")
        if raw and len(raw) < 8192:
            try:
                data = _serializer().loads(raw)
            except (BadData, ValueError, TypeError):
                data = None
            if isinstance(data, dict):
                found = {k: v for k, v in data.items()
                         if isinstance(k, str) and isinstance(v, str)}
        g.device_games = found
    games: dict[str, str] = g.device_games
    return games


def remember_token(game_id: int, token: str) -> None:
    """Give this browser the right to edit game_id (new game, join link, PIN):
    in its session and in its device cookie, which outlives a browser restart."""
    _session_hold("tokens", game_id, token)
    games = dict(device_games())
    games.pop(str(game_id), None)
    games[str(game_id)] = token_digest(token)
    while len(games) > MAX_DEVICE_GAMES:
        games.pop(next(iter(games)))
    g.device_games = games
    g.device_changed = True


def save_device_cookie(response: Response) -> Response:
    """Write the device cookie when this request gave the device a right
    (after_request). HttpOnly, SameSite=Lax, Secure only when the session
    cookie is (never by default: plain HTTP on a LAN drops Secure cookies)."""
    if g.get("device_changed"):
        response.set_cookie(
            DEVICE_COOKIE, _serializer().dumps(g.device_games), max_age=DEVICE_AGE,
            httponly=True, samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response


def _session_held(key: str, item_id: int) -> str | None:
    """Return the token this browser session keeps under key for item_id, if any
    (a session cookie is the client's: anything else in it counts as none)."""
    tokens = session.get(key)
    if isinstance(tokens, dict):
        token = tokens.get(str(item_id))
        return token if isinstance(token, str) else None
    return None


def session_token(game_id: int) -> str | None:
    """Return the edit token this browser session holds for game_id, if any."""
    return _session_held("tokens", game_id)


def names_game(game_id: int) -> bool:
    """Return whether this browser's session or device cookie names the game
    (what a list shows; a change checks the token itself)."""
    return session_token(game_id) is not None or str(game_id) in device_games()


def session_may_edit(game_id: int, edit_token: str) -> bool:
    """Return whether this browser holds the right to edit the game: the edit
    token in its session, or the token's digest in its device cookie."""
    held = session_token(game_id)
    if held is not None and same_text(held, edit_token):
        return True
    digest = device_games().get(str(game_id))
    return digest is not None and same_text(digest, token_digest(edit_token))


def request_may_edit(game_id: int, edit_token: str) -> tuple[bool, str]:
    """Decide whether this API request may write; return (allowed, reason code).

    A script sends X-Edit-Token; a browser page sends its session cookie plus the
    CSRF token as X-CSRFToken (the API blueprint is otherwise CSRF-exempt).
    """
    return _header_or_session("X-Edit-Token", edit_token, "edit_token",
                              lambda: session_may_edit(game_id, edit_token))


def remember_event_token(event_id: int, token: str) -> None:
    """Give this browser session the right to add tables to an event (the host's
    device when it creates the event, or a device that followed its join link)."""
    _session_hold("event_tokens", event_id, token)


def _session_hold(key: str, number: int, token: str) -> None:
    """Keep a token in the session's dict `key` (newest last; the oldest go
    beyond MAX_SESSION_TOKENS, so the cookie stays small)."""
    tokens = dict(session.get(key, {}))
    tokens.pop(str(number), None)
    tokens[str(number)] = token
    while len(tokens) > MAX_SESSION_TOKENS:
        tokens.pop(next(iter(tokens)))
    session[key] = tokens


def session_event_token(event_id: int) -> str | None:
    """Return the event token this browser session holds for event_id, if any."""
    return _session_held("event_tokens", event_id)


def session_event_ids() -> list[int]:
    """Return the events this browser session may add tables to."""
    tokens = session.get("event_tokens")
    if not isinstance(tokens, dict):
        return []
    return [int(key) for key in tokens if key.isdigit()]


def request_may_add_to_event(event_id: int, event_token: str) -> tuple[bool, str]:
    """Decide whether this API request may add a game to the event; return
    (allowed, reason code): X-Event-Token, or the session's token plus CSRF."""
    def held() -> bool:
        token = session_event_token(event_id)
        return token is not None and same_text(token, event_token)

    return _header_or_session("X-Event-Token", event_token, "event_token", held)


def _header_or_session(header_name: str, expected: str, what: str,
                       session_holds: Callable[[], bool]) -> tuple[bool, str]:
    """A script's token header decides alone (bad_<what> when wrong); without
    it, the browser session must hold the right (missing_<what>) and send the
    CSRF token, since the API blueprint is otherwise CSRF-exempt."""
    header = request.headers.get(header_name)
    if header is not None:
        return (True, "ok") if same_text(header, expected) else (False, f"bad_{what}")
    if not session_holds():
        return False, f"missing_{what}"
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


def client_address() -> str | None:
    """Return the address of the device asking: the socket's peer, or, from a
    `--trusted-proxy`, the client it names (net.client_address); None when a
    trusted proxy named none."""
    trusted = current_app.config.get("TRUSTED_PROXIES") or ()
    peer = request.remote_addr
    if not trusted:
        return peer
    chain = net.forwarded_chain(
        request.headers.getlist("X-Forwarded-For"), request.headers.getlist("Forwarded")
    )
    return net.client_address(peer, chain, trusted)


def relayed_by_stranger() -> bool:
    """Return whether the request carries a proxy's headers from a peer that is
    not a trusted proxy: a reverse proxy on this machine would otherwise make
    every guest "this machine" (issue 19)."""
    if net.is_trusted(request.remote_addr,
                      current_app.config.get("TRUSTED_PROXIES") or ()):
        return False
    return any(name in request.headers for name in net.PROXY_HEADERS)


def is_local_request() -> bool:
    """Return whether the request comes from this machine.

    Decided by the socket's peer address (request.remote_addr), never by a
    header a guest could send; a request relayed by a proxy (it carries
    Forwarded or X-Forwarded-For) is not this machine's unless the proxy is
    trusted and names a loopback client.
    """
    if relayed_by_stranger():
        return False
    return net.is_loopback_address(client_address())


def same_text(given: str, expected: str) -> bool:
    """Compare a secret a client sent with the stored one, as bytes (any text)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def client_key() -> str:
    """Return the key the client's wrong tries are counted under: its address,
    an IPv6 one by its /64 (one device may take any address of its network)."""
    address = client_address()
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


MAX_PIN_CHARS = 64
"""Longest PIN text compared (PINs have 6 or 8 digits)."""


def check_pin(target: str, given: str | None, expected: str) -> PinRefusal | None:
    """Check a PIN; None when it is right.

    Every try off this machine is taken from the client's, the target's and the
    global bucket of store.limits before it is compared: while one is full,
    429 and nothing is compared. This machine is never counted or locked.
    """
    given = (given or "").strip()[:MAX_PIN_CHARS]
    if not given:
        return PinRefusal(403)
    if is_local_request():
        return None if same_text(given, expected) else PinRefusal(403)
    client = client_key()
    wait = limits.take_try(client, target)
    if wait > 0:
        return PinRefusal(429, math.ceil(wait))
    if same_text(given, expected):
        limits.succeeded(client, target)
        return None
    return PinRefusal(403)


ADMIN_SESSION = "admin"
"""The session key marking a browser that typed the admin PIN (the admin page)."""


def _admin_mark() -> str:
    # Bound to the PIN: a new admin PIN ends every admin session.
    return token_digest(f"admin:{current_app.config['ADMIN_PIN']}")


def is_admin() -> bool:
    """Return whether this request may see every game's PIN and hand out rights:
    this machine, or a browser that typed the admin PIN (its session)."""
    if is_local_request():
        return True
    mark = session.get(ADMIN_SESSION)
    return isinstance(mark, str) and same_text(mark, _admin_mark())


def admin_login(given: str | None) -> PinRefusal | None:
    """Check the admin PIN typed on the admin page; remember it in the session."""
    refusal = check_pin(ADMIN_SCOPE, given, current_app.config["ADMIN_PIN"])
    if refusal is None:
        session[ADMIN_SESSION] = _admin_mark()
    return refusal


def admin_pin_refusal(form_field: str | None = None) -> PinRefusal | None:
    """Return why this request may not restore, or None: this machine and an
    admin session need no PIN, others send X-Admin-Pin or (a page) the form
    field admin_pin (CONTRACT §8)."""
    if is_admin():
        return None
    given = request.headers.get("X-Admin-Pin", form_field)
    return check_pin(ADMIN_SCOPE, given, current_app.config["ADMIN_PIN"])


def game_pin_refusal(game_id: int, given: str | None, pin: str) -> PinRefusal | None:
    """Return why this game PIN does not give the right to edit, or None."""
    if not pin:
        return PinRefusal(403)
    return check_pin(f"game:{game_id}", given, pin)
