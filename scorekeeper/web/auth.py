"""Who may do what (docs/CONTRACT.md §15): rights are held, never inferred.

A right is given to a device by a secret it shows once (a game's edit token in
its join link or the new-game page, an event's token, the game PIN, the admin
link or PIN) and then held in the device cookie: signed with the secret key,
dated inside the signed value, holding no token, no PIN and nothing derived
from a PIN. Where a request comes from grants nothing: loopback is what a
reverse proxy on this machine is, so a proxy in front changes nothing. A
script may instead send the secret itself with every request (X-Edit-Token,
X-Event-Token, X-Admin-Pin).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, g, request
from flask_wtf.csrf import validate_csrf
from itsdangerous import (
    BadData,
    SignatureExpired,
    URLSafeSerializer,
    URLSafeTimedSerializer,
)
from wtforms import ValidationError

from .. import net
from ..store import events as club
from ..store import limits

DEVICE_COOKIE = "scorekeeper_device"
"""The cookie holding what this device may do, signed with the secret key."""

DEVICE_AGE = 365 * 24 * 3600
"""Seconds a right to a game or a club night lasts, counted inside the signed
value from when it was given (a year: browsers cap cookies at 400 days)."""

ADMIN_AGE = 30 * 24 * 3600
"""Seconds the admin right lasts on a device: a month, then the admin link or
PIN again (a lost phone stops being the admin by itself)."""

MAX_DEVICE_GAMES = 80
"""Games the device cookie remembers, newest kept (80 take ~2 KB of the 4 KB
a cookie may hold)."""

MAX_DEVICE_EVENTS = 20
"""Club nights the device cookie remembers, newest kept."""

_SALT = "scorekeeper-device-rights"
"""Keeps the device cookie's signature apart from the session's."""

_FORMAT = 2
"""The device cookie's layout: {"v", "d" (device id), "b" (born), "g" (games),
"e" (events), "a" (admin)}; a layout-1 cookie ({game id: digest}, undated) is
read once and written anew."""

DIGEST_CHARS = 16
"""Hex characters of a token's digest kept in the cookie: 64 bits, which tell
one game's token from another; the token itself (128 random bits) cannot be
found from them."""


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt=_SALT)


def token_digest(token: str) -> str:
    """Return the short digest of a random token that the device cookie keeps
    in its place (a cookie is readable to whoever holds the device)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


@dataclass
class Device:
    """What the device cookie says: who the device is and what it may do."""

    id: str
    born: float
    """When the cookie was first given (0: this request gives it)."""
    games: dict[str, list[Any]]
    """{game id: [token digest, given at]}."""
    events: dict[str, list[Any]]
    """{event id: [token digest, given at]}."""
    admin: list[Any] | None
    """[admin key's digest, given at], or None."""


def _rights(raw: object, now: float) -> dict[str, list[Any]]:
    """Return the well-formed, unexpired rights of a cookie's dict."""
    if not isinstance(raw, dict):
        return {}
    return {
        key: [value[0], value[1]] for key, value in raw.items()
        if isinstance(key, str) and key.isdigit() and isinstance(value, list)
        and len(value) == 2 and isinstance(value[0], str)
        and isinstance(value[1], int | float) and now - value[1] < DEVICE_AGE
    }


def _read_cookie() -> Device:
    now = time.time()
    raw = request.cookies.get(DEVICE_COOKIE, "")
    data: object = None
    if raw and len(raw) < 8192:
        try:
            data = _serializer().loads(raw, max_age=DEVICE_AGE)
        except SignatureExpired:
            data = None
        except (BadData, ValueError, TypeError):
            data = _legacy(raw, now)
    if isinstance(data, dict) and data.get("v") == _FORMAT \
            and isinstance(data.get("d"), str) \
            and isinstance(data.get("b"), int | float):
        admin = data.get("a")
        if not (isinstance(admin, list) and len(admin) == 2
                and isinstance(admin[0], str) and isinstance(admin[1], int | float)
                and now - admin[1] < ADMIN_AGE):
            admin = None
        return Device(data["d"], float(data["b"]), _rights(data.get("g"), now),
                      _rights(data.get("e"), now), admin)
    return Device(secrets.token_hex(8), 0.0, {}, {}, None)


def _legacy(raw: str, now: float) -> dict[str, Any] | None:
    """Read a layout-1 cookie (games only, undated): its rights start now, and
    the cookie is written anew in the dated layout."""
    try:
        old = URLSafeSerializer(current_app.secret_key or "", salt=_SALT).loads(raw)
    except (BadData, ValueError, TypeError):
        return None
    if not isinstance(old, dict) or "v" in old:
        return None
    g.device_changed = True
    return {"v": _FORMAT, "d": secrets.token_hex(8), "b": now,
            "g": {k: [v, now] for k, v in old.items()
                  if isinstance(k, str) and isinstance(v, str)}}


def device() -> Device:
    """Return this request's device (read from its cookie once per request)."""
    if "device" not in g:
        g.device = _read_cookie()
    found: Device = g.device
    return found


def _changed() -> Device:
    """Return the device, marked to have its cookie written with the answer."""
    found = device()
    if not found.born:
        found.born = time.time()
    g.device_changed = True
    return found


def _hold(rights: dict[str, list[Any]], number: int, token: str, most: int) -> None:
    rights.pop(str(number), None)
    rights[str(number)] = [token_digest(token), int(time.time())]
    while len(rights) > most:
        rights.pop(next(iter(rights)))


def save_device_cookie(response: Response) -> Response:
    """Write the device cookie when this request changed what the device may
    do (after_request). HttpOnly, SameSite=Lax, Secure only when the session
    cookie is (never by default: plain HTTP on a LAN drops Secure cookies)."""
    if g.get("device_changed"):
        found = device()
        # Rounded up: a device is never older than it is (store.limits).
        payload: dict[str, Any] = {"v": _FORMAT, "d": found.id,
                                   "b": math.ceil(found.born * 1000) / 1000,
                                   "g": found.games, "e": found.events}
        if found.admin:
            payload["a"] = found.admin
        response.set_cookie(
            DEVICE_COOKIE, _serializer().dumps(payload), max_age=DEVICE_AGE,
            httponly=True, samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response


# --- games ---


def remember_token(game_id: int, token: str) -> None:
    """Give this device the right to change game_id (a new game, the join
    link, the game PIN, the admin's grant)."""
    _hold(_changed().games, game_id, token, MAX_DEVICE_GAMES)


def names_game(game_id: int) -> bool:
    """Return whether this device holds a right to the game (what a list
    shows; a change checks the right against the token)."""
    return str(game_id) in device().games


def device_may_edit(game_id: int, edit_token: str) -> bool:
    """Return whether this device holds the right to change the game."""
    held = device().games.get(str(game_id))
    return held is not None and same_text(held[0], token_digest(edit_token))


def request_may_edit(game_id: int, edit_token: str) -> tuple[bool, str]:
    """Decide whether this API request may write; return (allowed, reason code).

    A script sends X-Edit-Token; a browser page holds the right in its device
    cookie and sends the CSRF token as X-CSRFToken (the API blueprint is
    otherwise CSRF-exempt).
    """
    return _header_or_device("X-Edit-Token", edit_token, "edit_token",
                             lambda: device_may_edit(game_id, edit_token))


# --- club nights ---


def remember_event_token(event_id: int, token: str) -> None:
    """Give this device the right to add tables to a club night (the device
    that created it, or one that followed its join link)."""
    _hold(_changed().events, event_id, token, MAX_DEVICE_EVENTS)


def holds_event(event_id: int, event_token: str | None) -> bool:
    """Return whether this device holds the right to the club night whose
    token is event_token (None: the night is gone)."""
    held = device().events.get(str(event_id))
    return (event_token is not None and held is not None
            and same_text(held[0], token_digest(event_token)))


def device_event_ids() -> list[int]:
    """Return the club nights this device holds a right to (not yet checked
    against their tokens)."""
    return [int(key) for key in device().events]


def request_may_add_to_event(event_id: int, event_token: str,
                             join_token: str | None = None) -> tuple[bool, str]:
    """Decide whether this API request may add a game to the event; return
    (allowed, reason code): X-Event-Token (the organiser's token or, when
    given, the join token), or the device's right to either plus CSRF. With
    the event token alone, it decides whether the request is the organiser's."""
    tokens = (event_token,) if join_token is None else (event_token, join_token)
    return _header_or_device(
        "X-Event-Token", tokens, "event_token",
        lambda: any(holds_event(event_id, token) for token in tokens))


def game_night(game_id: int) -> tuple[int, str] | None:
    """Return the club night the game is a table of and its organiser's token
    (None: the game is in no night), whose holder may change every game of
    the night (CONTRACT §14: the organiser corrects any game of the night)."""
    event_id = club.game_event(game_id)
    token = club.event_token(event_id) if event_id is not None else None
    return None if event_id is None or token is None else (event_id, token)


def device_may_edit_game(game_id: int, edit_token: str) -> bool:
    """Return whether this device holds the game's right, or the organiser's
    right to the club night the game is in (a page's question)."""
    if device_may_edit(game_id, edit_token):
        return True
    night = game_night(game_id)
    return night is not None and holds_event(*night)


def request_may_edit_game(game_id: int, edit_token: str) -> tuple[bool, str]:
    """Decide whether this API request may change the game: its own right
    (request_may_edit), else, without an edit token, the organiser's right to
    the game's club night. Return (allowed, the game's own reason code)."""
    allowed, reason = request_may_edit(game_id, edit_token)
    if not allowed and reason == "missing_edit_token":
        night = game_night(game_id)
        if night is not None:
            allowed, _organiser = request_may_add_to_event(*night)
    return allowed, reason


def _header_or_device(header_name: str, expected: str | tuple[str, ...], what: str,
                      device_holds: Callable[[], bool]) -> tuple[bool, str]:
    """A script's token header decides alone (bad_<what> when it is none of
    expected); without it, the device must hold the right (missing_<what>)
    and send the CSRF token, since the API blueprint is otherwise CSRF-exempt."""
    header = request.headers.get(header_name)
    if header is not None:
        secrets_ = (expected,) if isinstance(expected, str) else expected
        # Every secret compared, so the time taken says nothing of which.
        matches = [same_text(header, secret) for secret in secrets_]
        return (True, "ok") if any(matches) else (False, f"bad_{what}")
    if not device_holds():
        return False, f"missing_{what}"
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        try:
            validate_csrf(request.headers.get("X-CSRFToken"))
        except ValidationError:
            return False, "csrf_failed"
    return True, "ok"


# --- addresses, for counting tries only ---


def client_address() -> str | None:
    """Return the address of the device asking: the socket's peer, or, from a
    `--trusted-proxy`, the client it names (net.client_address); None when a
    trusted proxy named none. Used to count tries, never to give a right."""
    trusted = current_app.config.get("TRUSTED_PROXIES") or ()
    peer = request.remote_addr
    if not trusted:
        return peer
    chain = net.forwarded_chain(
        request.headers.getlist("X-Forwarded-For"),
        request.headers.getlist("Forwarded"),
        request.headers.getlist("X-Real-IP"),
    )
    return net.client_address(peer, chain, trusted)


def client_key() -> str:
    """Return the key the client's tries are counted under: its address, an
    IPv6 one by its /64 (one device may take any address of its network)."""
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


def same_text(given: str, expected: str) -> bool:
    """Compare a secret a client sent with the stored one, as bytes (any text)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


# --- PINs ---


@dataclass(frozen=True)
class PinRefusal:
    """A refused PIN: 403 when missing or wrong, 429 while too many tries lock it."""

    status: int
    retry_after: int = 0
    """Seconds until the next try is heard (429 only)."""


MAX_PIN_CHARS = 64
"""Longest PIN text compared (PINs have 6 or 8 digits)."""


def check_pin(given: str | None, expected: str) -> PinRefusal | None:
    """Check a PIN; None when it is right.

    Every try is taken from the address's and the device's buckets of
    store.limits before it is compared: while this device may not try, 429
    and nothing is compared. A device that tried gets its cookie (its id and
    birth), so that its own record follows it.
    """
    given = (given or "").strip()[:MAX_PIN_CHARS]
    if not given:
        return PinRefusal(403)
    found = device()
    trier = limits.Trier(client_key(), found.id, found.born)
    taken = limits.take_try(trier)
    _changed()
    if taken.wait > 0:
        return PinRefusal(429, math.ceil(taken.wait))
    if same_text(given, expected):
        limits.succeeded(taken)
        return None
    return PinRefusal(403)


def game_pin_refusal(game_id: int, given: str | None, pin: str) -> PinRefusal | None:
    """Return why this game PIN does not give the right to edit, or None."""
    if not pin:
        return PinRefusal(403)
    return check_pin(given, pin)


# --- the admin ---


def _admin_mark() -> str:
    # The admin key's digest: a new key (instance/admin_key removed) ends
    # every device's admin right. Nothing here is derived from the PIN.
    return token_digest(current_app.config["ADMIN_KEY"])


def is_admin() -> bool:
    """Return whether this device holds the admin right (it opened the admin
    link or typed the admin PIN within ADMIN_AGE): it sees every game's PIN,
    restores, and gives itself any game."""
    held = device().admin
    return held is not None and same_text(held[0], _admin_mark())


def grant_admin() -> None:
    """Give this device the admin right."""
    _changed().admin = [_admin_mark(), int(time.time())]


def admin_key_opens(given: str) -> bool:
    """Return whether `given` is the admin link's key (the link's own check:
    its 256 random bits need no try counting)."""
    return same_text(given, current_app.config["ADMIN_KEY"])


def admin_login(given: str | None) -> PinRefusal | None:
    """Check the admin PIN typed on the admin page; give the right when it is."""
    refusal = check_pin(given, current_app.config["ADMIN_PIN"])
    if refusal is None:
        grant_admin()
    return refusal


def admin_pin_refusal(form_field: str | None = None) -> PinRefusal | None:
    """Return why this request may not restore, or None: a device holding the
    admin right needs no PIN, others send X-Admin-Pin or (a page) the form
    field admin_pin (CONTRACT §8)."""
    if is_admin():
        return None
    given = request.headers.get("X-Admin-Pin", form_field)
    return check_pin(given, current_app.config["ADMIN_PIN"])
