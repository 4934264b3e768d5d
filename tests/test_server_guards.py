"""Nothing a guest on the network can break (CONTRACT §8): the admin PIN,
restores that skip what is stored, bounded sizes, renders that cannot pile up,
join links, allowed hosts, private files, a full disk, the game PIN."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import sqlite3
import stat
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, fresh_database, make_app, new_game, token_of
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from test_export_records import BOUNDARY, multipart
from test_history_helpers import corpus_names, corpus_record, parse

from scorekeeper import create_app, engine
from scorekeeper.store import games as stored
from scorekeeper.store import limits, stats
from scorekeeper.web import helper, pages

GUEST = {"REMOTE_ADDR": "192.168.1.50"}
"""Another device on the table's network."""

PIN = "24681357"


@pytest.fixture
def app(database: Path) -> Flask:
    """The app with a known admin PIN."""
    return make_app(fresh_database(database), ADMIN_PIN=PIN)


def guest(app: Flask) -> FlaskClient:
    """A client on another device of the network."""
    client = app.test_client()
    client.environ_base.update(GUEST)
    return client


def imported(client: FlaskClient, names: list[str] | None = None) -> list[int]:
    ids = []
    for name in names or corpus_names()[:5]:
        response = client.post("/api/games/import", json=corpus_record(name))
        assert response.status_code == 201, response.get_json()
        ids.append(response.get_json()["id"])
    return ids


def api_restore(client: FlaskClient, body: bytes, **headers: str) -> Any:
    return client.post("/api/restore", data=body, content_type="application/json",
                       headers=headers)


def page_restore(client: FlaskClient, body: bytes, pin: str | None = None) -> Any:
    data = multipart(body, "backup.json")
    if pin is not None:
        data = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="admin_pin"\r\n\r\n'
            f"{pin}\r\n"
        ).encode() + data
    return client.post("/restore", data=data,
                       content_type=f"multipart/form-data; boundary={BOUNDARY}")


def count(app: Flask) -> int:
    with app.app_context():
        return stats.count_games()


# --- the admin PIN ---


def test_the_admin_pin_is_made_at_first_start_private_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "inst"))
    first = create_app({"DATABASE": str(tmp_path / "a.sqlite3"), "SECRET_KEY": "k"})
    second = create_app({"DATABASE": str(tmp_path / "a.sqlite3"), "SECRET_KEY": "k"})

    pin_file = tmp_path / "inst" / "admin_pin"
    pin = first.config["ADMIN_PIN"]
    assert pin.isdigit() and len(pin) >= 6
    assert pin_file.read_text().strip() == pin == second.config["ADMIN_PIN"]
    assert stat.S_IMODE(os.stat(pin_file).st_mode) == 0o600


def test_s8_restore_by_the_admins_device_needs_no_pin(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    source = make_app(tmp_path / "source.sqlite3").test_client()
    imported(source, corpus_names()[:2])
    response = api_restore(client, source.get("/api/backup").data)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"restored": 2, "skipped": 0}


def test_s8_restore_from_another_device_needs_the_admin_pin(
    app: Flask, tmp_path: Path
) -> None:
    source = make_app(tmp_path / "source.sqlite3").test_client()
    imported(source, corpus_names()[:2])
    body = source.get("/api/backup").data
    other = guest(app)

    missing = api_restore(other, body)
    wrong = api_restore(other, body, **{"X-Admin-Pin": "11111111"})
    # A header cannot make a guest local: loopback is the socket's peer address.
    forged = api_restore(other, body, **{"X-Forwarded-For": "127.0.0.1",
                                         "X-Real-IP": "127.0.0.1"})
    assert count(app) == 0
    right = api_restore(other, body, **{"X-Admin-Pin": PIN})

    for refused in (missing, wrong, forged):
        assert refused.status_code == 403
        assert refused.get_json()["error"]["code"] == "admin_pin_required"
    assert right.status_code == 200
    assert right.get_json() == {"restored": 2, "skipped": 0}


def test_s8_the_restore_page_asks_another_device_for_the_pin(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    source = make_app(tmp_path / "source.sqlite3").test_client()
    imported(source, corpus_names()[:1])
    body = source.get("/backup").data
    other = guest(app)

    assert not parse(client.get("/restore").data).find_all("input", name="admin_pin")
    assert parse(other.get("/restore").data).find("input", name="admin_pin")
    refused = page_restore(other, body)
    wrong = page_restore(other, body, "99999999")
    assert count(app) == 0
    accepted = page_restore(other, body, PIN)

    assert refused.status_code == wrong.status_code == 403
    assert "admin PIN" in parse(wrong.data).find(data_error=True).text()
    assert accepted.status_code == 302
    assert count(app) == 1


def test_s8_wrong_admin_pins_are_rate_limited_for_every_process(
    app: Flask, database: Path
) -> None:
    other = guest(app)
    body = b'{"format": "qwirkle-backup/1", "games": []}'
    answers = [
        api_restore(other, body, **{"X-Admin-Pin": f"0000000{i}"}).status_code
        for i in range(limits.ADDRESS.capacity)
    ]
    locked = api_restore(other, body, **{"X-Admin-Pin": PIN})
    # Another server process on the same database sees the same lock.
    elsewhere = api_restore(guest(make_app(database, ADMIN_PIN=PIN)), body,
                            **{"X-Admin-Pin": PIN})
    admin = api_restore(as_admin(guest(app)), body)

    assert answers == [403] * limits.ADDRESS.capacity
    for response in (locked, elsewhere):
        assert response.status_code == 429
        assert int(response.headers["Retry-After"]) > 0
        assert response.get_json()["error"]["code"] == "too_many_tries"
    assert admin.status_code == 200  # the admin's device needs no PIN at all


def test_a_lock_decays_with_time(app: Flask) -> None:
    bucket = limits.ADDRESS
    trier = limits.Trier("10.0.0.9", "a-device", 0.0)
    with app.app_context():
        heard = [limits.take_try(trier, now=1000.0).wait
                 for _ in range(limits.ADDRESS.capacity)]
        locked = limits.take_try(trier, now=1000.0).wait
        still = limits.take_try(trier, now=1000.0 + bucket.drain / 2).wait
        later = limits.take_try(trier, now=1000.0 + bucket.drain).wait

    assert heard == [0.0] * limits.ADDRESS.capacity
    assert locked == pytest.approx(bucket.drain)
    assert still == pytest.approx(bucket.drain / 2)
    assert later == 0.0  # one try drained away: one more is heard


def test_scripts_restore_over_the_api_with_csrf_on(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    body = json.dumps({"format": "qwirkle-backup/1", "games": [corpus_record()]})
    response = client.post("/api/restore", data=body, content_type="application/json",
                           headers={"X-Admin-Pin": csrf_app.config["ADMIN_PIN"]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"restored": 1, "skipped": 0}


def test_restore_over_the_api_wants_a_json_body(client: FlaskClient) -> None:
    response = client.post("/api/restore", data="{}", content_type="text/plain")
    assert response.status_code == 415


# --- restore skips what is stored, all or nothing, times in range ---


def test_s8_restoring_the_same_backup_twice_adds_nothing_the_second_time(
    app: Flask, client: FlaskClient
) -> None:
    imported(client)
    body = client.get("/api/backup").data

    first = api_restore(client, body)
    second = api_restore(client, body)

    assert first.get_json() == {"restored": 0, "skipped": 5}
    assert second.get_json() == {"restored": 0, "skipped": 5}
    assert count(app) == 5


def test_s8_a_win_restored_three_times_is_counted_once(tmp_path: Path) -> None:
    source = make_app(tmp_path / "source.sqlite3").test_client()
    imported(source, ["classic-10001.json"])
    body = source.get("/api/backup").data
    target_app = make_app(tmp_path / "target.sqlite3")
    target = as_admin(target_app.test_client())

    answers = [api_restore(target, body).get_json() for _ in range(3)]

    assert answers == [{"restored": 1, "skipped": 0}] + [
        {"restored": 0, "skipped": 1}] * 2
    with target_app.app_context():
        assert sum(p["wins"] for p in stats.player_summaries()) == 1


def test_s8_a_game_that_differs_in_one_move_is_not_skipped(
    app: Flask, client: FlaskClient
) -> None:
    imported(client, ["classic-10001.json"])
    document = json.loads(client.get("/api/backup").data)
    shorter = copy.deepcopy(document)
    game = shorter["games"][0]
    game["moves"], game["final"] = game["moves"][:-1], None
    game["move_times"] = game["move_times"][:-1]

    answer = api_restore(client, json.dumps(shorter).encode()).get_json()

    assert answer == {"restored": 1, "skipped": 0}


def test_s8_a_stored_game_that_moved_on_is_a_different_game(
    app: Flask, client: FlaskClient
) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    before = client.get("/api/backup").data
    moved = client.post(
        f"/api/games/{created['id']}/moves",
        json={"type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                          "shape": "circle"}]},
        headers={"X-Edit-Token": created["edit_token"]},
    )
    assert moved.status_code == 201
    after = client.get("/api/backup").data

    assert api_restore(client, after).get_json() == {"restored": 0, "skipped": 1}
    assert api_restore(client, before).get_json() == {"restored": 1, "skipped": 0}


def test_the_fingerprint_a_move_chains_equals_the_whole_games(
    app: Flask, client: FlaskClient
) -> None:
    from scorekeeper.store import loaded
    from scorekeeper.store.games import game_fingerprint

    game_id = imported(client, ["classic-10002.json"])[0]
    token = client.post("/api/games", json={"players": ["A", "B"]}).get_json()
    headers = {"X-Edit-Token": token["edit_token"]}
    for move in corpus_record("classic-10002.json")["moves"][:6]:
        body = {k: v for k, v in move.items() if k not in ("player", "score")}
        client.post(f"/api/games/{token['id']}/moves", json=body, headers=headers)
    client.delete(f"/api/games/{token['id']}/moves/last", headers=headers)
    client.post(f"/api/games/{token['id']}/moves", json={"type": "trade", "count": 2},
                headers=headers)
    with app.test_request_context():
        for gid in (game_id, token["id"]):
            with loaded(gid) as row:
                assert row.fingerprint == game_fingerprint(
                    row.created_at, row.names, row.game
                )


DISCIPLINE = {"move_seconds": 30, "on_illegal": "deduct", "on_timeout": "exclude",
              "penalty_points": 7}


def disciplined_game(client: FlaskClient, options: dict[str, Any] | None = None,
                     timeout_reason: str = "timeout") -> tuple[int, str]:
    """A three-player game with table discipline: timed moves, a deduction for an
    illegal move, and an exclusion for an overrun (CONTRACT §10)."""
    created = client.post("/api/games", json={
        "players": ["Ann", "Bob", "Cas"], "options": options or DISCIPLINE,
    }).get_json()
    headers = {"X-Edit-Token": created["edit_token"]}
    for move in (
        {"type": "place", "seconds": 12, "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
        {"type": "penalty", "reason": "illegal"},
        {"type": "place", "seconds": 25, "tiles": [
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]},
        {"type": "penalty", "reason": timeout_reason},
        {"type": "trade", "count": 2, "seconds": 3},
    ):
        answer = client.post(f"/api/games/{created['id']}/moves", json=move,
                             headers=headers)
        assert answer.status_code == 201, answer.get_json()
    return created["id"], created["edit_token"]


def test_s8_a_disciplined_game_is_recognised_in_its_own_backup(
    tmp_path: Path,
) -> None:
    source = as_admin(make_app(tmp_path / "source.sqlite3").test_client())
    disciplined_game(source)
    body = source.get("/api/backup").data
    game = json.loads(body)["games"][0]
    assert game["options"] == DISCIPLINE
    assert [m["type"] for m in game["moves"]].count("penalty") == 2
    target = as_admin(make_app(tmp_path / "target.sqlite3").test_client())

    answers = [api_restore(client, body).get_json()
               for client in (source, target, target)]

    assert answers == [{"restored": 0, "skipped": 1}, {"restored": 1, "skipped": 0},
                       {"restored": 0, "skipped": 1}]


def _changed(document: dict[str, Any], change: Any) -> bytes:
    changed = copy.deepcopy(document)
    change(changed["games"][0])
    return json.dumps(changed).encode()


@pytest.mark.parametrize("change", [
    # Options only: the same moves at a table with another clock, or none.
    lambda g: g["options"].update(move_seconds=60),
    lambda g: g["options"].update(move_seconds=None),
    # One move's thinking time, or none where it had one.
    lambda g: g["moves"][0].update(seconds=13),
    lambda g: g["moves"][2].pop("seconds"),
], ids=["clock", "no-clock", "seconds", "no-seconds"])
def test_s8_games_that_differ_only_in_discipline_are_not_the_same_game(
    app: Flask, client: FlaskClient, change: Any
) -> None:
    disciplined_game(client)
    document = json.loads(client.get("/api/backup").data)

    answer = api_restore(client, _changed(document, change))

    assert answer.get_json() == {"restored": 1, "skipped": 0}, answer.get_json()
    assert count(app) == 2


def test_s8_a_penalty_for_another_reason_is_another_game(
    app: Flask, client: FlaskClient
) -> None:
    # With one consequence for both reasons, the records differ in the reason
    # alone: an overrun is not an illegal move.
    disciplined_game(client, {**DISCIPLINE, "on_timeout": "deduct"})
    document = json.loads(client.get("/api/backup").data)
    assert document["games"][0]["moves"][3]["reason"] == "timeout"

    def illegal(game: dict[str, Any]) -> None:
        game["moves"][3]["reason"] = "illegal"

    answers = [api_restore(client, _changed(document, illegal)).get_json()
               for _ in range(2)]

    assert answers == [{"restored": 1, "skipped": 0}, {"restored": 0, "skipped": 1}]
    assert count(app) == 2


def test_the_fingerprint_of_a_disciplined_game_chains_as_the_whole_games(
    app: Flask, client: FlaskClient
) -> None:
    from scorekeeper.store import loaded
    from scorekeeper.store.games import game_fingerprint

    game_id, token = disciplined_game(client)
    client.delete(f"/api/games/{game_id}/moves/last",
                  headers={"X-Edit-Token": token})
    client.post(f"/api/games/{game_id}/moves", headers={"X-Edit-Token": token},
                json={"type": "penalty", "reason": "illegal"})
    with app.test_request_context(), loaded(game_id) as row:
        assert row.game.moves[-1].type == "penalty"
        assert row.fingerprint == game_fingerprint(row.created_at, row.names, row.game)


def test_a_game_without_discipline_keeps_the_fingerprint_of_the_release_before(
) -> None:
    # A database fingerprinted before table discipline (as m300_restore_guards)
    # keeps its fingerprints: the default options, no penalty reason and no
    # thinking time add nothing to the text hashed.
    from scorekeeper.store import fingerprints

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    head = ["2026-01-01T00:00:00", ["A", "B"], {"colors": 6}, 0]
    before = sha(json.dumps(head, separators=(",", ":"), sort_keys=True))
    assert fingerprints.head(*head) == before  # type: ignore[arg-type]
    assert fingerprints.chain(before, ("trade", "[]", 2, None, None)) == sha(
        f"{before}\ntrade\n[]\n2"
    )
    assert fingerprints.chain(before, ("trade", "[]", 2, None, 9)) != sha(
        f"{before}\ntrade\n[]\n2"
    )


@pytest.mark.parametrize("moment", [
    "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59.999999+00:00",
    "1969-12-31T23:59:59Z", "2201-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00",
])
@pytest.mark.parametrize("key", ["created_at", "updated_at", "finished_at"])
def test_s8_timestamps_outside_1970_to_2200_are_refused_and_store_nothing(
    app: Flask, client: FlaskClient, moment: str, key: str
) -> None:
    good = {**corpus_record(), "created_at": "2025-01-01T20:00:00+00:00"}
    document = {"format": "qwirkle-backup/1", "games": [good, {**good, key: moment}]}

    response = api_restore(client, json.dumps(document).encode())

    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_timestamp"
    assert response.get_json()["error"]["game_number"] == 2
    assert count(app) == 0


@pytest.mark.parametrize("moment", [
    "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "9999-12-31T23:59:59",
    "0001-01-01", "not a time",
])
def test_time_formatting_never_raises_for_any_stored_value(
    app: Flask, client: FlaskClient, database: Path, moment: str
) -> None:
    ids = imported(client, ["classic-10001.json"])
    client.post("/api/games", json={"players": ["Ann", "Bob"]})
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE games SET created_at = ?, updated_at = ?, finished_at = ?",
                     [moment, moment, moment])
        conn.execute("UPDATE moves SET created_at = ?", [moment])

    for url in ("/", "/history", "/players", "/head-to-head?a=Ann&b=Bob",
                f"/games/{ids[0]}", f"/games/{ids[0]}/replay",
                f"/games/{ids[0]}/scoresheet", f"/games/{ids[0]}/scoresheet.pdf",
                f"/games/{ids[0]}/bgstats", "/backup"):
        assert client.get(url).status_code == 200, url


# --- sizes: 1,000 moves on every path ---


def long_record(moves: int) -> dict[str, Any]:
    """A classic record: one placement, then trades up to `moves` moves."""
    game = engine.Game(max_moves=moves + 1)
    game.place([(0, 0, "red", "circle")])
    while game.turn < moves:
        game.trade(1)
    return engine.to_record(game, ["Ann", "Bob"])


def test_s8_a_game_takes_no_move_beyond_the_thousandth_through_the_api(
    client: FlaskClient,
) -> None:
    started = client.post("/api/games/import",
                          json=long_record(engine.MAX_MOVES)).get_json()

    response = client.post(f"/api/games/{started['id']}/moves",
                           json={"type": "trade", "count": 1},
                           headers={"X-Edit-Token": started["edit_token"]})

    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "too_many_moves"
    assert client.get(f"/api/games/{started['id']}").get_json()["turn"] == 1000


def test_s8_a_record_or_backup_of_more_than_1000_moves_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    record = long_record(engine.MAX_MOVES + 1)
    document = {"format": "qwirkle-backup/1", "games": [corpus_record(), record]}

    imported_answer = client.post("/api/games/import", json=record)
    restored = api_restore(client, json.dumps(document).encode())
    page = client.post("/import", data=multipart(json.dumps(record).encode()),
                       content_type=f"multipart/form-data; boundary={BOUNDARY}")

    assert imported_answer.status_code == 422
    assert imported_answer.get_json()["error"]["code"] == "too_many_moves"
    assert restored.status_code == 422
    assert restored.get_json()["error"]["code"] == "too_many_moves"
    assert page.status_code == 422
    assert count(app) == 0


def test_a_50001_move_record_is_refused_before_it_is_replayed() -> None:
    moves = [{"type": "pass"}] * 50_001
    record = {**long_record(3), "moves": moves}
    with pytest.raises(engine.RecordError) as refused:
        engine.from_record(record)
    assert refused.value.code == "too_many_moves"
    assert refused.value.move_number is None


def test_a_game_stored_before_the_limit_still_opens(
    app: Flask, client: FlaskClient, database: Path
) -> None:
    started = client.post("/api/games/import",
                          json=long_record(engine.MAX_MOVES)).get_json()
    with sqlite3.connect(database) as conn:
        conn.execute(
            "INSERT INTO moves (game_id, seq, player, type, count, created_at)"
            " VALUES (?, ?, ?, 'trade', 1, '2025-01-01T00:00:00+00:00')",
            [started["id"], engine.MAX_MOVES, engine.MAX_MOVES % 2],
        )
        conn.execute("UPDATE games SET move_count = move_count + 1")

    assert client.get(f"/games/{started['id']}").status_code == 200
    assert client.get(f"/api/games/{started['id']}").get_json()["turn"] == 1001


def test_the_correction_form_refuses_a_row_the_api_would_refuse(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    client.post(f"/api/games/{game_id}/moves", headers={
        "X-Edit-Token": token_of(client, game_id)},
        json={"type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                          "shape": "circle"}]})
    before = client.get(f"/api/games/{game_id}").get_json()

    response = client.post(f"/games/{game_id}/moves/1/edit", data={
        "type": "place", "tiles-0-row": str(10**30), "tiles-0-col": "0",
        "tiles-0-color": "red", "tiles-0-shape": "circle",
    })

    assert response.status_code == 422
    message = parse(response.data).find(data_error=True).text()
    assert str(engine.MAX_COORDINATE) in message
    assert client.get(f"/api/games/{game_id}").get_json() == before


# --- expensive renders ---


def test_renders_are_cached_per_game_and_turn(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.web import transfers

    built: list[int] = []

    def counted(build: Any, name: str, source: Any) -> Any:
        built.append(source.game.turn)
        return helper.in_helper(build, name, source)

    monkeypatch.setattr(transfers, "in_helper", counted)
    started = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    url = f"/games/{started['id']}/scoresheet.pdf"

    first, again = client.get(url), client.get(url)
    client.post(f"/api/games/{started['id']}/moves",
                json={"type": "place", "tiles": [{"row": 0, "col": 0,
                                                  "color": "red", "shape": "circle"}]},
                headers={"X-Edit-Token": started["edit_token"]})
    moved = client.get(url)

    assert first.data == again.data and first.data != moved.data
    assert built == [0, 1]


def test_a_pdf_drawn_in_a_worker_process_is_the_pdf_drawn_in_the_thread(
    tmp_path: Path,
) -> None:
    bodies = []
    for in_process in (True, False):
        app = make_app(tmp_path / f"{in_process}.sqlite3",
                       RENDER_IN_PROCESS=in_process)
        client = app.test_client()
        game_id = imported(client, ["classic-10001.json"])[0]
        response = client.get(f"/games/{game_id}/scoresheet.pdf")
        assert response.status_code == 200
        bodies.append(response.data)
    # fpdf2 stamps the creation time; everything else must match.
    assert bodies[0].startswith(b"%PDF") and len(bodies[0]) == len(bodies[1])


def pdf_text(data: bytes) -> str:
    """Return the text of every page of a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("in_process", [True, False], ids=["worker", "thread"])
def test_a_dutch_then_an_english_pdf_of_one_game_each_speak_their_language(
    tmp_path: Path, in_process: bool
) -> None:
    # One cache, one worker pool: neither may hand the Dutch sheet to the
    # English reader, nor draw it in the worker's own (English) language.
    app = make_app(tmp_path / "db.sqlite3", RENDER_IN_PROCESS=in_process)
    client = app.test_client()
    game_id = imported(client, ["classic-10001.json"])[0]
    url = f"/games/{game_id}/scoresheet.pdf"

    dutch = client.get(f"{url}?lang=nl").data
    english = client.get(f"{url}?lang=en").data
    dutch_again = client.get(f"{url}?lang=nl").data

    assert dutch != english
    said, told = pdf_text(dutch), pdf_text(english)
    assert "Ronde" in said and "Totaal" in said and "Round" not in said
    assert "Round" in told and "Total" in told and "Ronde" not in told
    assert PdfReader(io.BytesIO(dutch)).trailer["/Root"]["/Lang"] == "nl"
    assert PdfReader(io.BytesIO(english)).trailer["/Root"]["/Lang"] == "en"
    assert dutch_again == dutch  # from the cache, still Dutch


@pytest.mark.parametrize("in_process", [True, False], ids=["worker", "thread"])
def test_a_pdf_prints_its_times_in_the_readers_zone(
    tmp_path: Path, in_process: bool
) -> None:
    app = make_app(tmp_path / "db.sqlite3", RENDER_IN_PROCESS=in_process)
    client = app.test_client()
    game_id = imported(client, ["classic-10001.json"])[0]
    url = f"/games/{game_id}/scoresheet.pdf?lang=en"

    unknown = pdf_text(client.get(url).data)
    client.set_cookie("tz", "Asia/Tokyo")
    tokyo = pdf_text(client.get(url).data)
    client.set_cookie("tz", "America/Los_Angeles")
    los_angeles = pdf_text(client.get(url).data)

    assert "UTC" in unknown
    assert "UTC" not in tokyo and "UTC" not in los_angeles
    assert len({unknown, tokyo, los_angeles}) == 3


def test_the_printable_sheet_is_cached_per_language(client: FlaskClient) -> None:
    game_id = imported(client, ["classic-10001.json"])[0]
    url = f"/games/{game_id}/scoresheet"

    def header(lang: str) -> str:
        page = parse(client.get(f"{url}?lang={lang}").data)
        return page.find("table", class_="sheet").find("th").text()

    assert [header("nl"), header("en"), header("nl")] == ["Ronde", "Round", "Ronde"]


def test_renders_beyond_the_slots_get_503_with_retry_after(
    database: Path,
) -> None:
    app = make_app(database, RENDER_SLOTS=1, RENDER_WAIT=0.05)
    client = app.test_client()
    ids = imported(client, ["classic-10001.json", "classic-10002.json"])
    renders: pages.Renders = app.extensions["scorekeeper_renders"]
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(5)
        return "done"

    holder = threading.Thread(target=lambda: renders.get("held", slow))
    holder.start()
    started.wait(5)
    try:
        page = client.get(f"/games/{ids[0]}/scoresheet.pdf")
        api = client.get(f"/games/{ids[1]}/chart.svg")
        sheet = client.get(f"/games/{ids[1]}/scoresheet")
        move_page = client.get(f"/games/{ids[1]}")
    finally:
        release.set()
        holder.join()
    after = client.get(f"/games/{ids[0]}/scoresheet.pdf")

    for busy in (page, api, sheet):
        assert busy.status_code == 503
        assert int(busy.headers["Retry-After"]) >= 1
    assert move_page.status_code == 200  # only renders wait for a slot
    assert after.status_code == 200


# --- join link and allowed hosts ---


def test_the_join_link_ignores_the_host_header(app: Flask, client: FlaskClient) -> None:
    app.config.update(LISTEN_HOST="192.168.1.20", LISTEN_PORT=5000)
    client.environ_base["HTTP_HOST"] = "evil.example"
    game_id = new_game(client, "Anna", "Chris")

    doc = parse(client.get(f"/games/{game_id}").data)

    link = doc.find("p", class_="join-link").find("a").attrs["href"]
    assert link.startswith("http://192.168.1.20:5000/games/")


def test_on_loopback_only_the_page_says_other_devices_cannot_join(
    app: Flask, client: FlaskClient
) -> None:
    app.config.update(LISTEN_HOST="127.0.0.1", LISTEN_PORT=5000)
    game_id = new_game(client, "Anna", "Chris")

    doc = parse(client.get(f"/games/{game_id}").data)

    assert not doc.find_all("div", class_="qr")
    assert not doc.find_all("p", class_="join-link")
    assert "only reachable on this device" in doc.find("p", class_="only-here").text()


def test_requests_to_a_host_not_allowed_get_400(app: Flask) -> None:
    app.config["ALLOWED_HOSTS"] = ["localhost", "127.0.0.1", "192.168.1.20"]
    client = app.test_client()

    assert client.get("/", headers={"Host": "192.168.1.20:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "LOCALHOST"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    refused = client.get("/api/games", headers={"Host": "rebind.example:5000"})
    assert refused.status_code == 400 and "error" in refused.get_json()


def test_the_default_allowed_hosts_are_this_machines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scorekeeper import net

    monkeypatch.setattr(net, "lan_addresses", lambda: ["192.168.1.20"])
    every = net.allowed_hosts("0.0.0.0")
    assert {"localhost", "127.0.0.1", "::1", "192.168.1.20"} <= set(every)
    assert net.allowed_hosts("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
    assert "scores.home" in net.allowed_hosts("0.0.0.0", ["Scores.Home"])
    assert "192.168.1.20" not in net.allowed_hosts("0.0.0.0", ["scores.home"])
    assert net.host_name("[::1]:5000") == "::1"
    assert net.host_name("Example.org:80") == "example.org"


# --- files and a full disk ---


def test_the_instance_folder_and_every_secret_file_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = tmp_path / "inst"
    instance.mkdir(mode=0o755)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    database = instance / "scorekeeper.sqlite3"
    app = create_app({"DATABASE": str(database)})
    client = app.test_client()
    client.post("/api/games", json={"players": ["Ann", "Bob"]})  # WAL and SHM open

    assert stat.S_IMODE(os.stat(instance).st_mode) == 0o700
    for name in ("scorekeeper.sqlite3", "scorekeeper.sqlite3-wal",
                 "scorekeeper.sqlite3-shm", "secret_key", "admin_pin"):
        assert stat.S_IMODE(os.stat(instance / name).st_mode) == 0o600, name


def test_an_older_readable_database_is_made_private(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite3"
    sqlite3.connect(database).close()
    os.chmod(database, 0o644)
    make_app(database)
    assert stat.S_IMODE(os.stat(database).st_mode) == 0o600


def _fill_the_disk(app: Flask) -> None:
    """Let this thread's connection (the test client's) grow no further."""
    from scorekeeper.store.connection import get_db

    with app.app_context():
        db = get_db()
        pages_now = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages_now}")


def test_a_full_disk_answers_507_and_stores_nothing_while_reads_work(
    app: Flask, client: FlaskClient
) -> None:
    game_id = imported(client, ["classic-10001.json"])[0]
    _fill_the_disk(app)

    api = client.post("/api/games/import", json=corpus_record("classic-10002.json"))
    page = client.post(
        "/import", data=multipart(json.dumps(corpus_record("classic-10003.json"))
                                  .encode()),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
    restore = api_restore(client, client.get("/api/backup").data.replace(
        b'"created_at":"', b'"created_at":"2025-01-01T00:00:00+00:00","x":"'))

    assert api.status_code == 507
    assert api.get_json()["error"]["code"] == "disk_full"
    assert "nothing was stored" in api.get_json()["error"]["message"]
    assert page.status_code == 507
    assert "nothing was stored" in parse(page.data).text()
    assert restore.status_code == 507
    assert count(app) == 1
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get("/history").status_code == 200
    assert client.get(f"/api/games/{game_id}/record").status_code == 200


# --- the game PIN ---


def test_the_game_pin_shows_only_to_a_device_that_may_edit(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    mine = parse(client.get(f"/games/{game_id}").data)
    theirs = parse(app.test_client().get(f"/games/{game_id}").data)

    pin = mine.find("p", class_="game-pin").text()
    digits = "".join(ch for ch in pin if ch.isdigit())
    assert len(digits) == stored.PIN_DIGITS
    assert digits not in theirs.text()
    assert theirs.find("input", name="pin")


def _pin_of(client: FlaskClient, game_id: int) -> str:
    doc = parse(client.get(f"/games/{game_id}").data)
    text = doc.find("p", class_="game-pin").text()
    return "".join(ch for ch in text.split("(")[0] if ch.isdigit())


def test_a_device_that_lost_its_session_gets_its_right_back_with_the_game_pin(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = _pin_of(client, game_id)
    lost = guest(app)

    wrong = lost.post(f"/games/{game_id}/claim", data={"pin": "000000"
                                                       if pin != "000000" else "1"})
    refused_move = lost.post(f"/games/{game_id}/pass", data={})
    right = lost.post(f"/games/{game_id}/claim", data={"pin": pin})

    assert wrong.status_code == 403
    assert "not this game's PIN" in parse(wrong.data).find(data_error=True).text()
    assert refused_move.status_code == 403
    assert right.status_code == 302
    assert parse(lost.get(f"/games/{game_id}").data).find_all(data_entry=True)


def test_wrong_game_pins_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    pin = _pin_of(client, game_id)
    wrong_pin = "1" + pin[1:] if pin[0] != "1" else "2" + pin[1:]
    stranger = guest(app)

    tries = [stranger.post(f"/games/{game_id}/claim", data={"pin": wrong_pin})
             for _ in range(limits.ADDRESS.capacity)]
    locked = stranger.post(f"/games/{game_id}/claim", data={"pin": pin})
    other_game = new_game(client, "Bo", "Cy")
    elsewhere = stranger.post(f"/games/{other_game}/claim",
                              data={"pin": _pin_of(client, other_game)})
    owner = app.test_client()
    owner.environ_base.update({"REMOTE_ADDR": "192.168.1.77"})
    back = owner.post(f"/games/{game_id}/claim", data={"pin": pin})

    assert [t.status_code for t in tries] == [403] * limits.ADDRESS.capacity
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) > 0
    # The lock is the guesser's: not spread over other games, and
    # never the owner's, who gets in from another device.
    assert elsewhere.status_code == 429
    assert back.status_code == 302


def test_the_claim_form_needs_the_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    game_id = new_game_csrf(client)
    response = csrf_app.test_client().post(f"/games/{game_id}/claim",
                                           data={"pin": "123456"})
    assert response.status_code == 400


def new_game_csrf(client: FlaskClient) -> int:
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    return int(created.get_json()["id"])
