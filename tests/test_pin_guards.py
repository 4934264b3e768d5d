"""PINs that hold and never lock the owner out; proxy headers.

The attacks the red team ran: guessing spread over a whole history of games,
a finished game claimed by its PIN, one wrong try every 15 minutes keeping the
owner out, 200 guesses sent at once, and a reverse proxy on this machine making
every guest "this machine"."""

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
    assert answers.count(403) == limits.FREE_TRIES
    assert set(answers[limits.FREE_TRIES:]) == {429}


def test_many_addresses_guessing_hit_the_ceiling_for_one_game_and_for_all(
    app: Flask, client: FlaskClient
) -> None:
    target = new_game(client, "Anna", "Chris")
    guess = wrong(pin_of(app, target))
    one_game = [claim(device(app, f"10.0.1.{i}"), target, guess).status_code
                for i in range(1, 30)]
    others = [new_game(client, "Bo", "Cy") for _ in range(6)]
    spread = [claim(device(app, f"10.0.2.{i}"), game_id,
                    wrong(pin_of(app, game_id))).status_code
              for i, game_id in enumerate(others * 4, 1)]

    assert one_game.count(403) == limits.TARGET.capacity
    assert one_game.count(403) + spread.count(403) == limits.ALL.capacity
    assert set(one_game + spread) == {403, 429}


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

    assert heard.count(403) == limits.FREE_TRIES
    assert heard.count(429) == 200 - limits.FREE_TRIES


def test_a_slow_guesser_never_keeps_the_owner_out(app: Flask, client: FlaskClient,
                                                  monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = pin_of(app, game_id)
    now = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    guesser, owner = device(app, "192.168.1.66"), device(app, "192.168.1.20")

    for _ in range(limits.FREE_TRIES):
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


def test_a_right_pin_empties_the_devices_count(app: Flask, client: FlaskClient) -> None:
    first, second = new_game(client, "Anna", "Chris"), new_game(client, "Bo", "Cy")
    forgetful = device(app)
    for _ in range(limits.FREE_TRIES - 1):
        assert claim(forgetful, first, wrong(pin_of(app, first))).status_code == 403
    assert claim(forgetful, first, pin_of(app, first)).status_code == 302
    answers = [claim(forgetful, second, wrong(pin_of(app, second))).status_code
               for _ in range(limits.FREE_TRIES)]
    assert answers == [403] * limits.FREE_TRIES


def test_this_machine_is_never_locked(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = pin_of(app, game_id)
    for i in range(30):
        claim(device(app, f"10.0.3.{i}"), game_id, wrong(pin))
    here = app.test_client()

    assert claim(here, game_id, wrong(pin)).status_code == 403
    assert claim(here, game_id, pin).status_code == 302
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
    body = b'{"format": "qwirkle-backup/1", "games": []}'

    def restore(**headers: str) -> int:
        client = device(app, "127.0.0.1", **headers)
        return client.post("/api/restore", data=body,
                           content_type="application/json").status_code

    # The proxy appends the peer it saw: a client's own "127.0.0.1" stays left.
    assert restore(**{"X-Forwarded-For": "127.0.0.1, 192.168.1.50"}) == 403
    assert restore(**{"Forwarded": 'for="[2001:db8::5]:4711"'}) == 403
    assert restore(**{"X-Forwarded-For": "127.0.0.1"}) == 200
    assert restore() == 403  # a proxy that names nobody names no local client
    # Not from the proxy: the header is not believed.
    assert device(app, "192.168.1.9", **{"X-Forwarded-For": "127.0.0.1"}).post(
        "/api/restore", data=body, content_type="application/json"
    ).status_code == 403


def test_behind_a_trusted_proxy_guesses_count_per_client(
    database: Path, client: FlaskClient
) -> None:
    app = make_app(database, ADMIN_PIN=PIN, TRUSTED_PROXIES=["127.0.0.1"])
    game_id = new_game(app.test_client(), "Anna", "Chris")
    pin = pin_of(app, game_id)
    guesser = device(app, "127.0.0.1", **{"X-Forwarded-For": "192.168.1.66"})
    owner = device(app, "127.0.0.1", **{"X-Forwarded-For": "192.168.1.20"})

    for _ in range(limits.FREE_TRIES + 2):
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
               for i in range(1, limits.FREE_TRIES + 3)]
    other_network = claim(device(app, "2001:db8:1:3::1"), game_id, guess)

    assert answers.count(403) == limits.FREE_TRIES
    assert other_network.status_code == 403


def test_the_start_text_names_the_trusted_proxies_and_the_admin_page(
    database: Path,
) -> None:
    from scorekeeper.__main__ import start_text

    app = make_app(database, ADMIN_PIN=PIN, TRUSTED_PROXIES=["127.0.0.1/32"])
    shown = start_text(app, "127.0.0.1", 5000)
    assert "/admin" in shown
    assert "Trusted reverse proxies" in shown and "127.0.0.1/32" in shown
