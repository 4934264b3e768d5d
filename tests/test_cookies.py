"""No cookie carries a secret; rights expire inside the signed value
(CONTRACT §15). The cookies are read as an attacker who holds the phone
would: base64 (and zlib) undone, no secret key needed."""

from __future__ import annotations

import base64
import hashlib
import json
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from conftest import client_at, fresh_database, make_app, new_game
from flask import Flask
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from scorekeeper.store.cache import loaded
from scorekeeper.web import auth

PIN = "24681357"


@pytest.fixture
def app(database: Path) -> Flask:
    return make_app(fresh_database(database), ADMIN_PIN=PIN)


def readable(value: str) -> str:
    """Return what a signed cookie says, as anyone holding it reads it."""
    compressed = value.startswith(".")
    payload = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode("utf-8")


def row_of(app: Flask, game_id: int) -> Any:
    with app.app_context(), loaded(game_id) as row:
        return row


def digests(secret: str) -> set[str]:
    """Hex digests of a PIN an offline search would try, 8 characters and up."""
    found = set()
    for text in (secret, f"admin:{secret}", f"game:{secret}", f"pin:{secret}"):
        for name in ("sha256", "sha1", "md5", "sha512"):
            found.add(hashlib.new(name, text.encode()).hexdigest()[:8])
    return found


def test_s15_no_cookie_holds_a_token_a_pin_or_a_pins_hash(app: Flask) -> None:
    host = client_at(app, "192.168.1.10")
    made = host.post("/api/games", json={"players": ["Anna", "Bo"]}).get_json()
    joined_id = new_game(client_at(app, "192.168.1.11"), "Cy", "Di")
    claimed_id = new_game(client_at(app, "192.168.1.12"), "Ed", "Fi")
    joined, claimed = row_of(app, joined_id), row_of(app, claimed_id)
    host.get(f"/games/{joined_id}/join/{joined.edit_token}")
    assert host.post(f"/games/{claimed_id}/claim",
                     data={"pin": claimed.pin}).status_code == 302
    assert host.post("/admin", data={"admin_pin": PIN}).status_code == 302
    event = host.post("/api/events", json={"name": "Club"}).get_json()
    secrets_ = [made["edit_token"], joined.edit_token, claimed.edit_token,
                claimed.pin, PIN, app.config["ADMIN_KEY"], event["edit_token"]]

    cookies = {cookie.key: readable(cookie.value)
               for cookie in host._cookies.values()}  # noqa: SLF001 - the jar

    assert auth.DEVICE_COOKIE in cookies and "session" in cookies
    for name, said in cookies.items():
        for secret in secrets_:
            assert secret not in said, name
        for digest in digests(PIN) | digests(claimed.pin):
            assert digest not in said, name
    # What the device may do is there, readable, and dated.
    held = json.loads(cookies[auth.DEVICE_COOKIE])
    assert set(held["g"]) == {str(made["id"]), str(joined_id), str(claimed_id)}
    assert all(time.time() - given < 60 for _, given in held["g"].values())
    assert time.time() - held["a"][1] < 60


def forged(app: Flask, payload: dict[str, Any], signed_at: float) -> str:
    """A device cookie as the server itself would have signed it at a time."""
    class Backdated(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(signed_at)

    return URLSafeTimedSerializer(app.secret_key or "", salt=auth._SALT,  # noqa: SLF001
                                  signer=Backdated).dumps(payload)


def test_s15_rights_expire_inside_the_signed_value(app: Flask) -> None:
    game_id = new_game(client_at(app, "192.168.1.20"), "Anna", "Bo")
    digest = auth.token_digest(row_of(app, game_id).edit_token)
    now = time.time()
    with app.test_request_context():
        mark = auth.token_digest(app.config["ADMIN_KEY"])

    def rights(given: float, signed: float) -> tuple[int, int]:
        phone = client_at(app, "192.168.1.21")
        phone.set_cookie(auth.DEVICE_COOKIE, forged(app, {
            "v": 2, "d": "0123456789abcdef", "b": given,
            "g": {str(game_id): [digest, given]}, "e": {}, "a": [mark, given],
        }, signed))
        trade = phone.post(f"/games/{game_id}/trade", data={"count": "1"})
        return trade.status_code, phone.get("/admin").status_code

    day = 24 * 3600
    assert rights(now - day, now - day) == (302, 200)
    # The admin right lasts a month; a game's a year, whatever the browser keeps.
    assert rights(now - 31 * day, now - 31 * day)[1] == 403
    assert rights(now - 31 * day, now)[0] == 302
    assert rights(now - 366 * day, now) == (403, 403)
    assert rights(now - day, now - 366 * day) == (403, 403)
