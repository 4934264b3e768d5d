"""Edit rights that last (CONTRACT §15): a device cookie that outlives the
session, the admin page (every running game's PIN, rights, ending), and stale
games offered for ending in the history."""

from __future__ import annotations

import sqlite3
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database, make_app, new_game
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import parse

from scorekeeper.store.cache import loaded
from scorekeeper.web import auth

PIN = "24681357"
GUEST = "192.168.1.50"


@pytest.fixture
def app(database: Path) -> Flask:
    return make_app(fresh_database(database), ADMIN_PIN=PIN)


def device(app: Flask, address: str = GUEST) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": address})
    return client


def restarted(app: Flask, before: FlaskClient, address: str = GUEST) -> FlaskClient:
    """The same browser after a restart: its cookies with an expiry, no others."""
    after = device(app, address)
    for cookie in before._cookies.values():  # noqa: SLF001 - the jar is the browser
        if cookie.expires is not None:
            after.set_cookie(cookie.key, cookie.value, domain=cookie.domain)
    return after


def device_cookie(response: Any) -> SimpleCookie:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith(auth.DEVICE_COOKIE + "="):
            parsed: SimpleCookie = SimpleCookie()
            parsed.load(header)
            return parsed
    raise AssertionError("no device cookie set")


def pass_turn(client: FlaskClient, game_id: int) -> int:
    return client.post(f"/games/{game_id}/pass", data={}).status_code


def trade(client: FlaskClient, game_id: int) -> int:
    return client.post(f"/games/{game_id}/trade", data={"count": "1"}).status_code


def test_the_device_cookie_lasts_a_year_is_httponly_lax_and_not_secure(
    app: Flask,
) -> None:
    response = device(app).post("/games/new", data={
        "names-0": "Anna", "names-1": "Chris"})
    morsel = device_cookie(response)[auth.DEVICE_COOKIE]

    assert int(morsel["max-age"]) == 365 * 24 * 3600
    assert morsel["httponly"] and morsel["samesite"] == "Lax"
    assert not morsel["secure"]  # plain HTTP on a LAN drops Secure cookies
    # The cookie never holds the edit token itself.
    with app.app_context(), loaded(1) as row:
        assert row.edit_token not in morsel.value


def test_a_browser_restart_keeps_the_right_to_enter_moves(app: Flask) -> None:
    host = device(app)
    created = host.post("/api/games", json={"players": ["Anna", "Chris"]})
    game_id = created.get_json()["id"]
    joined = device(app, "192.168.1.51")
    token = created.get_json()["edit_token"]
    joined.get(f"/games/{game_id}/join/{token}")

    for before, address in ((host, GUEST), (joined, "192.168.1.51")):
        after = restarted(app, before, address)
        assert after.get_cookie("session") is None
        page = parse(after.get(f"/games/{game_id}").data)
        assert page.find_all(data_entry=True)
        assert trade(after, game_id) == 302
    stranger = device(app, "192.168.1.52")
    assert trade(stranger, game_id) == 403


def test_a_forged_or_foreign_device_cookie_gives_nothing(app: Flask,
                                                         database: Path) -> None:
    host = device(app)
    game_id = host.post("/api/games", json={"players": ["A", "B"]}).get_json()["id"]
    value = host.get_cookie(auth.DEVICE_COOKIE).value
    other_app = make_app(database, ADMIN_PIN=PIN, SECRET_KEY="another-key")

    forged = device(app, "192.168.1.53")
    forged.set_cookie(auth.DEVICE_COOKIE, value[:-3] + "abc")
    foreign = device(other_app, "192.168.1.54")
    foreign.set_cookie(auth.DEVICE_COOKIE, value)

    assert trade(forged, game_id) == 403
    assert trade(foreign, game_id) == 403


def test_the_api_answer_keeps_its_edit_token_and_scripts_write_with_it(
    app: Flask,
) -> None:
    created = device(app).post("/api/games", json={"players": ["A", "B"]})
    token = created.get_json()["edit_token"]
    script = device(app, "192.168.1.60")
    moved = script.post(f"/api/games/{created.get_json()['id']}/moves",
                        json={"type": "place", "tiles": [
                            {"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
                        headers={"X-Edit-Token": token})
    assert moved.status_code == 201


# --- the admin page ---


def test_s15_the_admin_page_shows_pins_to_the_admin_link_and_pin_only(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    with app.app_context(), loaded(game_id) as row:
        pin = row.pin
    guest = device(app)
    linked = device(app, "192.168.1.40")
    linked.get(f"/admin/key/{app.config['ADMIN_KEY']}")

    here = app.test_client().get("/admin")  # this machine: nothing by itself
    refused = guest.get("/admin")
    wrong = guest.post("/admin", data={"admin_pin": "11111111"})
    right = guest.post("/admin", data={"admin_pin": PIN})
    after = guest.get("/admin")

    assert linked.get("/admin").status_code == 200
    assert pin in linked.get("/admin").get_data(as_text=True)
    for response in (here, refused, wrong):
        assert response.status_code == 403
        assert pin not in response.get_data(as_text=True)
    assert right.status_code == 302
    assert parse(after.data).find(data_pin=True).text() == pin


def test_the_admin_hands_out_rights_and_ends_games(app: Flask,
                                                   client: FlaskClient) -> None:
    running = new_game(client, "Anna", "Chris")
    stuck = new_game(client, "Bo", "Cy")
    admin = device(app)
    admin.post("/admin", data={"admin_pin": PIN})
    guest = device(app, "192.168.1.70")

    assert guest.post(f"/admin/games/{running}/grant", data={}).status_code == 403
    assert guest.post(f"/admin/games/{stuck}/close",
                      data={"reason": "abandoned"}).status_code == 403
    granted = admin.post(f"/admin/games/{running}/grant", data={})
    closed = admin.post(f"/admin/games/{stuck}/close", data={"reason": "abandoned"})

    assert granted.status_code == 302 and trade(admin, running) == 302
    assert closed.status_code == 302
    state = client.get(f"/api/games/{stuck}").get_json()
    assert state["status"] == "finished"
    assert state["final"]["reason"] == "abandoned"


def test_the_admin_may_rename_a_finished_game_after_taking_its_right(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    client.post(f"/api/games/{game_id}/close", json={"reason": "ended"})
    admin = device(app)
    admin.post("/admin", data={"admin_pin": PIN})

    assert admin.get(f"/games/{game_id}/rename").status_code == 403
    assert admin.post("/admin/grant", data={"game": str(game_id)}).status_code == 302
    assert admin.get(f"/games/{game_id}/rename").status_code == 200


# --- stale games in the history ---


def age(database: Path, game_id: int, days: int) -> None:
    with sqlite3.connect(database) as conn:
        stamp = f"2020-01-0{days}T10:00:00.000000+00:00"
        conn.execute("UPDATE games SET created_at = ?, updated_at = ? WHERE id = ?",
                     [stamp, stamp, game_id])


def test_the_history_offers_to_end_a_game_untouched_for_a_day(
    app: Flask, database: Path
) -> None:
    host = device(app)
    old = host.post("/api/games", json={"players": ["A", "B"]}).get_json()["id"]
    fresh = host.post("/api/games", json={"players": ["C", "D"]}).get_json()["id"]
    age(database, old, 1)
    fresh_app = make_app(database, ADMIN_PIN=PIN)  # no cached game
    host = restarted(fresh_app, host)
    guest = device(fresh_app, "192.168.1.80")

    mine = parse(host.get("/history").data)
    theirs = parse(guest.get("/history").data)
    stale_row = mine.find("tr", data_game_id=str(old))

    assert stale_row.find_all(data_stale=True)
    assert not mine.find("tr", data_game_id=str(fresh)).find_all(data_stale=True)
    assert stale_row.find_all("button", data_close="ended")
    assert not theirs.find("tr", data_game_id=str(old)).find_all("button")
    # Ending from the history: the holder of a stale game's right, not a guest,
    # and no running game that is not stale.
    assert guest.post(f"/admin/games/{old}/close",
                      data={"reason": "ended", "back": "history"}).status_code == 403
    assert host.post(f"/admin/games/{fresh}/close",
                     data={"reason": "ended"}).status_code == 403
    ended = host.post(f"/admin/games/{old}/close",
                      data={"reason": "ended", "back": "history"})
    assert ended.status_code == 302 and ended.headers["Location"].endswith("/history")
    assert guest.get(f"/api/games/{old}").get_json()["final"]["reason"] == "ended"


def test_the_device_cookie_keeps_the_newest_games_within_a_cookies_size(
    app: Flask,
) -> None:
    import secrets

    from flask import Response

    with app.test_request_context():
        for game_id in range(10**6, 10**6 + auth.MAX_DEVICE_GAMES + 20):
            auth.remember_token(game_id, secrets.token_urlsafe(32))
        header = auth.save_device_cookie(Response()).headers["Set-Cookie"]
        kept = auth.device().games

    assert len(header) < 4093  # what browsers keep of one cookie
    assert len(kept) == auth.MAX_DEVICE_GAMES
    assert str(10**6) not in kept and str(10**6 + auth.MAX_DEVICE_GAMES + 19) in kept


def test_a_view_only_phone_is_not_told_to_tap_the_board(app: Flask) -> None:
    host = device(app)
    game_id = host.post("/api/games", json={"players": ["Anna", "Chris"]}
                        ).get_json()["id"]
    first = "Tap the square to place the first tile."

    watching = device(app, "192.168.1.51").get(f"/games/{game_id}").get_data(
        as_text=True)
    entering = host.get(f"/games/{game_id}").get_data(as_text=True)

    assert "View only." in watching and first not in watching
    assert first in entering and "View only." not in entering
