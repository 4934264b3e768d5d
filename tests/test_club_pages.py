"""Club night pages (CONTRACT §14): creating one, its page, joining by its link,
seating the next round, the standings files, the TV view, ratings on the
player pages."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event
from test_history_helpers import parse


def start_night(client: FlaskClient, name: str = "Friday") -> int:
    response = client.post("/events", data={"name": name, "date": "2026-12-04"})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_a_club_night_starts_from_its_page(client: FlaskClient) -> None:
    event_id = start_night(client, "  Friday   club ")
    page = parse(client.get(f"/events/{event_id}").data)
    assert page.find("h1").text() == "Friday club"
    # The host's device may add tables and shows the join code.
    assert page.find("a", data_add_table=True)
    assert page.find(data_no_standings=True)
    listed = parse(client.get("/events").data).find("ul", data_events=True)
    assert "Friday club" in listed.text()


def test_a_club_night_without_a_name_is_refused_and_nothing_stored(
    client: FlaskClient,
) -> None:
    response = client.post("/events", data={"name": " ", "date": ""})
    assert response.status_code == 200
    assert parse(response.data).find(data_error=True).text()
    response = client.post("/events", data={"name": "X", "date": "31-12-2026"})
    assert "year-month-day" in parse(response.data).find(data_error=True).text()
    assert client.get("/api/events/1").status_code == 404


def test_another_device_joins_by_the_link_and_may_then_add_tables(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host)
    guest = app.test_client()
    page = parse(guest.get(f"/events/{event['id']}").data)
    assert not page.find_all("a", data_add_table=True)
    assert guest.get(f"/events/{event['id']}/join.svg").status_code == 403
    assert guest.get(f"/events/{event['id']}/join/wrong").status_code == 404
    joined = guest.get(f"/events/{event['id']}/join/{event['edit_token']}")
    assert joined.status_code == 302
    page = parse(guest.get(f"/events/{event['id']}").data)
    assert page.find("a", data_add_table=True)
    # The new-game form now offers the night, and the game joins it.
    form = parse(guest.get(f"/games/new?event={event['id']}").data)
    select = form.find("select", name="event")
    assert select.find("option", selected=True).attrs["value"] == str(event["id"])
    made = guest.post("/games/new", data={"names-0": "Ann", "names-1": "Bob",
                                          "event": str(event["id"])})
    assert made.status_code == 302
    assert host.get(f"/api/events/{event['id']}").get_json()["games"] == [1]


def test_the_new_game_form_refuses_a_night_this_device_does_not_hold(
    app: Flask,
) -> None:
    host = app.test_client()
    event = new_event(host)
    guest = app.test_client()
    response = guest.post("/games/new", data={"names-0": "Ann", "names-1": "Bob",
                                               "event": str(event["id"])})
    assert response.status_code == 200  # the form again, with its error
    assert host.get("/api/games").get_json()["total"] == 0


def test_the_join_code_is_a_qr_of_the_link_for_the_host_only(app: Flask) -> None:
    app.config.update(LISTEN_HOST="192.168.1.20", LISTEN_PORT=5000)
    host = app.test_client()
    event = new_event(host)
    page = parse(host.get(f"/events/{event['id']}").data)
    link = page.find("a", data_join_link=True).attrs["href"]
    # The join token, never the organiser's (CONTRACT §14).
    assert event["join_token"] != event["edit_token"]
    assert link == (f"http://192.168.1.20:5000/events/{event['id']}/join/"
                    f"{event['join_token']}")
    svg = host.get(f"/events/{event['id']}/join.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert "no-store" in svg.headers["Cache-Control"]


def seat(client: FlaskClient, event_id: int, names: list[str], mode: str) -> Any:
    return client.post(f"/events/{event_id}/seating",
                       data={"present": "\n".join(names), "mode": mode})


def test_seating_suggests_tables_and_starts_them_in_one_tap(
    client: FlaskClient,
) -> None:
    event = new_event(client)
    # Ratings: Ann beat Bob, Cas beat Dirk.
    for a, b in (("Ann", "Bob"), ("Cas", "Dirk")):
        g = event_game(client, event, [a, b])
        g.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
        close(g)
    response = seat(client, event["id"], ["Ann", "Bob", "Cas", "Dirk", "Eve"],
                    "balanced")
    page = parse(response.data)
    tables = [li.text() for li in page.find("ol", data_suggestion=True).find_all("li")]
    assert len(tables) == 2
    hidden = json.loads(page.find("input", name="tables").attrs["value"])
    assert sorted(len(t) for t in hidden) == [2, 3]
    # The two winners sit at different tables.
    assert not any({"Ann", "Cas"} <= set(t) for t in hidden)
    started = client.post(f"/events/{event['id']}/tables",
                          data={"tables": json.dumps(hidden)})
    assert started.status_code == 302
    games = client.get(f"/api/events/{event['id']}").get_json()["games"]
    assert len(games) == 4
    names = [
        [p["name"] for p in client.get(f"/api/games/{g}").get_json()["players"]]
        for g in games[2:]
    ]
    assert names == hidden


def test_seating_refuses_bad_lists_with_a_sentence(client: FlaskClient) -> None:
    event = new_event(client)
    for names, words in ((["Ann"], "two players"), (["Ann", "ann "], "share a name"),
                         ([f"P{i}" for i in range(65)], "64")):
        page = parse(seat(client, event["id"], names, "random").data)
        assert words in page.find(data_error=True).text()
    assert client.get(f"/api/events/{event['id']}").get_json()["games"] == []


def test_starting_tables_needs_the_nights_token_and_a_good_list(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host)
    guest = app.test_client()
    body = {"tables": json.dumps([["Ann", "Bob"]])}
    assert guest.post(f"/events/{event['id']}/tables", data=body).status_code == 403
    for bad in ("", "not json", '{"a": 1}', '[["Ann"]]', "[[1, 2]]",
                '[["Ann", "Bob"], ["ann", "Cas"]]'):
        response = host.post(f"/events/{event['id']}/tables", data={"tables": bad})
        assert response.status_code in (302, 400), bad
    assert host.get("/api/games").get_json()["total"] == 0


def test_the_standings_download_as_csv_and_pdf(client: FlaskClient) -> None:
    event = new_event(client)
    g = event_game(client, event, ["=cmd", "Bob"])
    g.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(g)
    response = client.get(f"/events/{event['id']}/standings.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0] == ["rank", "name", "games", "wins", "points", "value", "rating",
                       "as_of"]
    assert rows[1][:6] == ["1", "'=cmd", "1", "1", "2", "1"]
    assert float(rows[1][6]) > float(rows[2][6])
    assert rows[1][7] == event["date"]
    pdf = client.get(f"/events/{event['id']}/standings.pdf?lang=de")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    sheet = parse(client.get(f"/events/{event['id']}/standings?lang=fr").data)
    assert sheet.find("h1").text().startswith("Classement")


def test_the_event_tv_view_answers_304_until_a_move_then_the_new_state(
    client: FlaskClient,
) -> None:
    event = new_event(client)
    g = event_game(client, event, ["Ann", "Bob"])
    first = client.get(f"/events/{event['id']}/tv.json")
    state = first.get_json()
    assert state["tables"][0]["players"][0]["current"] is True
    etag = first.headers["ETag"]
    again = client.get(f"/events/{event['id']}/tv.json",
                       headers={"If-None-Match": etag})
    assert again.status_code == 304
    g.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    moved = client.get(f"/events/{event['id']}/tv.json",
                       headers={"If-None-Match": etag})
    assert moved.status_code == 200
    players = moved.get_json()["tables"][0]["players"]
    assert [p["score"] for p in players] == [2, 0]
    assert players[1]["current"] is True
    page = parse(client.get(f"/events/{event['id']}/tv").data)
    card = page.find("article", data_etv_table=str(g.id))
    assert card.find("li", class_="current").text() == "Bob 0"


def test_the_event_tv_stream_sends_the_state_at_once(app: Flask) -> None:
    app.config["TV_STREAM_SECONDS"] = 0.3
    client = app.test_client()
    event = new_event(client)
    event_game(client, event, ["Ann", "Bob"])
    body = client.get(f"/events/{event['id']}/tv/events").data.decode()
    data = re.search(r"event: state\ndata: (.*)\n", body).group(1)
    assert json.loads(data)["tables"][0]["players"][0]["name"] == "Ann"
    assert client.get("/events/99/tv/events").status_code == 404


def test_ratings_show_on_the_players_pages(client: FlaskClient) -> None:
    for _ in range(2):
        g = event_game(client, None, ["Ann", "Bob"])
        g.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
        close(g)
    rated = {r["name"]: r for r in client.get("/api/ratings").get_json()}
    listing = parse(client.get("/players").data)
    cell = listing.find("tr", data_player="ann").find("td", data_rating=True)
    # The value opens its detail by a tap (a title's tooltip needs a mouse).
    summary = cell.find("details", data_rating_more=True).find("summary")
    assert summary.text() == f"{rated['Ann']['ordinal']:.1f}"
    detail = cell.find("span", data_rating_detail=True).text()
    assert "±" in detail and "2 rated games" in detail
    player = parse(client.get("/players/Ann").data)
    chart = player.find("figure", data_rating_chart=True).find("svg")
    assert chart.attrs["role"] == "img"
    # Text takes the page's colour (dark mode) and is drawn at 13 units in a
    # 360-unit-wide chart: at least 11 px on a 320 px wide figure.
    texts = chart.find_all("text")
    assert texts and all(t.attrs["fill"] == "currentColor" for t in texts)
    assert int(chart.attrs["viewbox"].split()[2]) == 360
    assert min(int(t.attrs["font-size"]) for t in texts) * 320 / 360 >= 11
    h2h = parse(client.get("/head-to-head?a=Ann&b=bob").data)
    assert h2h.find("td", data_h2h="rating_a").text().startswith(
        f"{rated['Ann']['ordinal']:.1f}"
    )


def test_every_club_night_page_speaks_each_language(client: FlaskClient) -> None:
    event = new_event(client)
    g = event_game(client, event, ["Ann", "Bob"])
    g.place((0, 0, "red", "circle"))
    close(g)
    words = {"nl": "Clubavond", "de": "Spieleabend", "fr": "Soirée", "es": "Noche"}
    for lang, word in words.items():
        page = client.get(f"/events?lang={lang}").data.decode()
        assert word in page, lang
        page = parse(client.get(f"/events/{event['id']}?lang={lang}").data)
        assert page.find("html").attrs["lang"] == lang
