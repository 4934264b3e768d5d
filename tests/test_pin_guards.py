"""PINs that hold and lock out nobody but the guesser; proxy headers that give
nothing (CONTRACT §15).

The attacks: guessing spread over a whole history of games, wrong guesses from
many addresses meant to lock everyone else out, a finished game claimed by its
PIN, one wrong try every 15 minutes keeping the owner out, 200 guesses sent at
once, a guest dropping its cookie, and a reverse proxy on this machine."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database, make_app, new_game
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import parse

from scorekeeper import net
from scorekeeper.__main__ import _parser
from scorekeeper.store import games as stored
from scorekeeper.store import limits
from scorekeeper.store.cache import loaded
from scorekeeper.web import auth

PIN = "24681357"


@pytest.fixture
def app(database: Path) -> Flask:
    return make_app(fresh_database(database), ADMIN_PIN=PIN)


def device(app: Flask, address: str = "192.168.1.50", **headers: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": address})
    for name, value in headers.items():
        client.environ_base["HTTP_" + name.upper().replace("-", "_")] = value
    return client


def pin_of(app: Flask, game_id: int) -> str:
    with app.app_context(), loaded(game_id) as row:
        return str(row.pin)


def token_of(app: Flask, game_id: int) -> str:
    with app.app_context(), loaded(game_id) as row:
        return str(row.edit_token)


def trade(client: FlaskClient, game_id: int) -> int:
    return client.post(f"/games/{game_id}/trade", data={"count": "1"}).status_code


def wrong(pin: str) -> str:
    return ("1" if pin[0] != "1" else "2") + pin[1:]


def claim(client: FlaskClient, game_id: int, pin: str) -> Any:
    return client.post(f"/games/{game_id}/claim", data={"pin": pin})


def finish(client: FlaskClient, game_id: int) -> None:
    response = client.post(f"/api/games/{game_id}/close", json={"reason": "ended"})
    assert response.status_code == 200


# --- guessing ---


def test_guessing_spread_over_many_games_is_heard_a_few_times_in_all(
    app: Flask, client: FlaskClient
) -> None:
    games = [new_game(client, "Anna", "Chris") for _ in range(8)]
    guesser = device(app)

    answers = [claim(guesser, game_id, wrong(pin_of(app, game_id))).status_code
               for game_id in games for _ in range(3)]

    # One try per game used to be free for every game of the history.
    assert answers.count(403) == limits.ADDRESS.capacity
    assert set(answers[limits.ADDRESS.capacity:]) == {429}


def test_s15_wrong_guesses_from_many_addresses_lock_out_nobody_else(
    app: Flask, client: FlaskClient
) -> None:
    target = new_game(client, "Anna", "Chris")
    pin = pin_of(app, target)
    owner = device(app, "10.0.1.1")
    owner.get(f"/games/{target}/join/{token_of(app, target)}")
    neighbour = device(app, "10.0.1.2")  # on a guesser's address, from before
    neighbours_game = new_game(neighbour, "Bo", "Cy")
    admin = device(app, "10.0.1.3")
    admin.get(f"/admin/key/{app.config['ADMIN_KEY']}")
    guesses = [claim(device(app, f"10.0.1.{1 + i % 8}"), target, wrong(pin))
               for i in range(200)]

    player = claim(device(app, "10.0.9.9"), target, pin)
    neighbour_claims = claim(neighbour, target, pin)

    heard = [g.status_code for g in guesses].count(403)
    assert heard == 8 * limits.ADDRESS.capacity
    assert player.status_code == 302
    assert neighbour_claims.status_code == 302
    assert claim(owner, target, pin).status_code == 302  # holds it: never asked
    assert admin.get("/admin").status_code == 200
    assert trade(neighbour, neighbours_game) == 302


def test_s15_a_guest_dropping_its_cookie_is_held_by_its_address(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    guess = wrong(pin_of(app, game_id))
    # A new test client per guess: no cookie is ever sent back.
    answers = [claim(device(app, "10.0.4.4"), game_id, guess).status_code
               for _ in range(limits.ADDRESS.capacity + 3)]
    assert answers == [403] * limits.ADDRESS.capacity + [429] * 3


def test_s15_cookies_made_ahead_of_time_buy_one_bucket_more(
    app: Flask, client: FlaskClient
) -> None:
    target = new_game(client, "Anna", "Chris")
    guess = wrong(pin_of(app, target))
    # A guest who made many devices (each a game of its own) before guessing.
    made = [device(app, "10.0.5.5") for _ in range(12)]
    for phone in made:
        new_game(phone, "X", "Y")
    fresh = [claim(device(app, "10.0.5.5"), target, guess).status_code
             for _ in range(limits.ADDRESS.capacity)]
    early = [claim(phone, target, guess).status_code for phone in made]

    assert fresh == [403] * limits.ADDRESS.capacity
    assert early.count(403) == limits.ELDERS.capacity


def test_s15_the_odds_of_guessing_a_game_pin_from_a_whole_network() -> None:
    # A guest holding every address of an IPv4 /24 (an IPv6 /56: 256 /64s)
    # during a 3-hour game, each address with its own and its elders' bucket.
    def heard(bucket: limits.Bucket, seconds: float) -> float:
        return bucket.capacity + seconds // bucket.drain

    tries = 256 * (heard(limits.ADDRESS, 3 * 3600) + heard(limits.ELDERS, 3 * 3600))
    odds = tries / 10 ** stored.PIN_DIGITS
    assert odds < 1 / 1000


def _guesser(database: str, game_id: int, guess: str, start: Any,
             answers: Any) -> None:
    """One server process's share of the guesses (run in a child process).

    Comparing takes 20 ms here, as on a loaded machine: a count that is
    checked before and written after the compare lets every process in.
    """
    compare = auth.same_text

    def slow_compare(given: str, expected: str) -> bool:
        time.sleep(0.02)
        return compare(given, expected)

    auth.same_text = slow_compare  # type: ignore[assignment]
    client = device(make_app(Path(database), ADMIN_PIN=PIN))
    start.wait()
    for _ in range(25):
        answers.put(claim(client, game_id, guess).status_code)


def test_200_guesses_at_once_are_heard_five_times(app: Flask, client: FlaskClient,
                                                  database: Path) -> None:
    game_id = new_game(client, "Anna", "Chris")
    guess = wrong(pin_of(app, game_id))
    # Eight server processes on the one database, as `--workers 8` would run,
    # each sending its guesses the moment all are ready.
    context = multiprocessing.get_context("fork")
    start, answers = context.Barrier(8), context.Queue()
    workers = [context.Process(target=_guesser,
                               args=(str(database), game_id, guess, start, answers))
               for _ in range(8)]
    for worker in workers:
        worker.start()
    heard = [answers.get(timeout=120) for _ in range(200)]
    for worker in workers:
        worker.join(timeout=60)

    assert heard.count(403) == limits.ADDRESS.capacity
    assert heard.count(429) == 200 - limits.ADDRESS.capacity


def test_a_slow_guesser_never_keeps_the_owner_out(app: Flask, client: FlaskClient,
                                                  monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = pin_of(app, game_id)
    now = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    guesser, owner = device(app, "192.168.1.66"), device(app, "192.168.1.20")

    for _ in range(limits.ADDRESS.capacity):
        claim(guesser, game_id, wrong(pin))
    answers = []
    for _ in range(96):  # a day of one wrong try every 15 minutes
        now[0] += 15 * 60
        answers.append(claim(guesser, game_id, wrong(pin)).status_code)
    back = claim(owner, game_id, pin)

    assert back.status_code == 302
    assert claim(owner, game_id, pin).status_code == 302  # holds it: never asked
    # The guesser's own tries drain too: the lock decays instead of growing.
    assert 429 not in answers[1:]


def test_s15_a_right_pin_costs_nothing_and_buys_nothing(
    app: Flask, client: FlaskClient
) -> None:
    first, second = new_game(client, "Anna", "Chris"), new_game(client, "Bo", "Cy")
    forgetful = device(app)
    for _ in range(limits.ADDRESS.capacity - 1):
        assert claim(forgetful, first, wrong(pin_of(app, first))).status_code == 403
    assert claim(forgetful, first, pin_of(app, first)).status_code == 302
    # Knowing one game's PIN gives no more guesses at another's.
    answers = [claim(forgetful, second, wrong(pin_of(app, second))).status_code
               for _ in range(3)]
    assert answers == [403, 429, 429]


def test_s15_this_machine_is_given_nothing_by_where_it_is(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(device(app, "10.0.3.1"), "Anna", "Chris")
    here = app.test_client()  # 127.0.0.1, as a proxy on this machine is
    body = b'{"format": "qwirkle-backup/1", "games": []}'

    assert here.get("/admin").status_code == 403
    assert here.post("/api/restore", data=body,
                     content_type="application/json").status_code == 403
    assert here.post(f"/admin/games/{game_id}/grant").status_code == 403
    assert trade(here, game_id) == 403
    here.get(f"/admin/key/{app.config['ADMIN_KEY']}")
    assert here.get("/admin").status_code == 200


def test_a_finished_game_is_not_claimed_by_its_pin(app: Flask,
                                                   client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = pin_of(app, game_id)
    finish(client, game_id)
    stranger = device(app)

    page = parse(stranger.get(f"/games/{game_id}").data)
    refused = claim(stranger, game_id, pin)

    assert not page.find_all("input", name="pin")
    assert refused.status_code == 403
    assert "over" in parse(refused.data).find(data_error=True).text()
    assert stranger.get(f"/games/{game_id}/rename").status_code == 403
    assert stranger.post(f"/games/{game_id}/delete").status_code == 403
    # The host keeps them.
    assert client.get(f"/games/{game_id}/rename").status_code == 200


# --- proxy headers ---


@pytest.mark.parametrize("header", [
    {"X-Forwarded-For": "192.168.1.50"},
    {"Forwarded": "for=192.168.1.50;proto=http"},
    {"X-Forwarded-For": "127.0.0.1"},
    {"X-Real-IP": "192.168.1.50"},
])
def test_a_request_relayed_by_a_proxy_is_not_this_machine(
    app: Flask, header: dict[str, str]
) -> None:
    # A reverse proxy on this machine: the socket's peer is loopback.
    relayed = device(app, "127.0.0.1", **header)
    body = b'{"format": "qwirkle-backup/1", "games": []}'

    restore = relayed.post("/api/restore", data=body, content_type="application/json")
    admin = relayed.get("/admin")

    assert restore.status_code == 403
    assert restore.get_json()["error"]["code"] == "admin_pin_required"
    assert admin.status_code == 403 and b"data-pin" not in admin.data


def test_a_trusted_proxy_names_the_client(database: Path) -> None:
    app = make_app(database, ADMIN_PIN=PIN, TRUSTED_PROXIES=["127.0.0.1"])

    def key(address: str = "127.0.0.1", **headers: str) -> str:
        environ = {"REMOTE_ADDR": address}
        with app.test_request_context("/", environ_base=environ, headers=headers):
            return auth.client_key()

    # The proxy appends the peer it saw: a client's own "127.0.0.1" stays left.
    assert key(**{"X-Forwarded-For": "127.0.0.1, 192.168.1.50"}) == "192.168.1.50"
    assert key(**{"Forwarded": 'for="[2001:db8::5]:4711"'}) == "2001:db8::/64"
    assert key(**{"X-Real-IP": "192.168.1.51"}) == "192.168.1.51"
    assert key() == "unknown"  # a proxy that names nobody
    # Not from the proxy: the header is not believed.
    assert key("192.168.1.9", **{"X-Forwarded-For": "10.1.1.1"}) == "192.168.1.9"


def test_behind_a_trusted_proxy_guesses_count_per_client(
    database: Path, client: FlaskClient
) -> None:
    app = make_app(database, ADMIN_PIN=PIN, TRUSTED_PROXIES=["127.0.0.1"])
    game_id = new_game(app.test_client(), "Anna", "Chris")
    pin = pin_of(app, game_id)
    guesser = device(app, "127.0.0.1", **{"X-Forwarded-For": "192.168.1.66"})
    owner = device(app, "127.0.0.1", **{"X-Forwarded-For": "192.168.1.20"})

    for _ in range(limits.ADDRESS.capacity + 2):
        claim(guesser, game_id, wrong(pin))

    assert claim(guesser, game_id, pin).status_code == 429
    assert claim(owner, game_id, pin).status_code == 302


def test_the_chain_a_trusted_proxy_wrote() -> None:
    trusted = ["127.0.0.1", "10.0.0.0/8"]
    chain = net.forwarded_chain(["1.2.3.4, 10.1.1.1"], [])
    assert net.client_address("127.0.0.1", chain, trusted) == "1.2.3.4"
    assert net.client_address("192.168.1.5", chain, trusted) == "192.168.1.5"
    assert net.client_address("127.0.0.1", ["not an address"], trusted) is None
    assert net.forwarded_chain([], ['for=192.0.2.60;proto=http, for="[::1]:80"']) \
        == ["192.0.2.60", "::1"]


def test_the_command_takes_trusted_proxies() -> None:
    args = _parser().parse_args(["--trusted-proxy", "127.0.0.1",
                                 "--trusted-proxy", "10.0.0.0/8"])
    assert args.trusted_proxy == ["127.0.0.1/32", "10.0.0.0/8"]
    with pytest.raises(SystemExit):
        _parser().parse_args(["--trusted-proxy", "proxy.example"])


def test_an_ipv6_device_is_counted_by_its_network(app: Flask,
                                                 client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    guess = wrong(pin_of(app, game_id))
    # A phone may take any address of its /64: a new one per guess gains nothing.
    answers = [claim(device(app, f"2001:db8:1:2::{i:x}"), game_id, guess).status_code
               for i in range(1, limits.ADDRESS.capacity + 3)]
    other_network = claim(device(app, "2001:db8:1:3::1"), game_id, guess)

    assert answers.count(403) == limits.ADDRESS.capacity
    assert other_network.status_code == 403


def test_s15_the_start_text_prints_the_admin_link_that_gives_the_right(
    database: Path,
) -> None:
    from scorekeeper.__main__ import start_text

    app = make_app(database, ADMIN_PIN=PIN, TRUSTED_PROXIES=["127.0.0.1/32"])
    shown = start_text(app, "127.0.0.1", 5000)
    link = next(word for word in shown.split() if "/admin/key/" in word)
    browser = device(app)

    assert "Trusted reverse proxies" in shown and "127.0.0.1/32" in shown
    assert PIN in shown
    assert browser.get("/admin").status_code == 403
    opened = browser.get(link.removeprefix("http://127.0.0.1:5000"))
    assert opened.status_code == 302 and opened.location.endswith("/admin")
    assert browser.get("/admin").status_code == 200
    assert device(app).get("/admin/key/" + "x" * 43).status_code == 404
