"""The table view: its page, its poll and its bounded event stream."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from conftest import Table
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import parse

from scorekeeper.web import tv

OPENING = ((0, 0, "red", "circle"), (0, 1, "red", "square"))


def events(body: str) -> list[dict[str, Any]]:
    """The state events of a stream's text."""
    found = []
    for block in body.split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines()
            if ": " in line and not line.startswith(":")
        )
        if fields.get("event") == "state":
            state = json.loads(fields["data"])
            assert fields["id"] == state["key"]
            found.append(state)
    return found


def test_the_table_view_shows_totals_the_player_to_move_and_the_last_move(
    table: Table, client: FlaskClient
) -> None:
    game = table.new(["Ann", "Bob"])
    game.place(*OPENING)
    html = parse(client.get(f"/games/{game.id}/tv").data)
    cards = html.find_all("div", **{"data-tv-player": True})
    assert [c.find("span", **{"data-tv-total": True}).text() for c in cards] == [
        "2", "0"]
    assert cards[1].attrs.get("aria-current") == "true"
    assert html.find("p", **{"data-tv-turn": True}).text() == "Bob to play"
    assert "Ann" in html.find("p", **{"data-tv-last": True}).text()
    assert client.get("/games/999/tv").status_code == 404


def test_the_poll_answers_304_until_the_game_changes(table: Table,
                                                    client: FlaskClient) -> None:
    game = table.new(["Ann", "Bob"])
    first = client.get(f"/games/{game.id}/tv.json")
    etag = first.headers["ETag"]
    assert first.get_json()["players"][0]["score"] == 0
    assert client.get(f"/games/{game.id}/tv.json",
                      headers={"If-None-Match": etag}).status_code == 304
    game.place(*OPENING)
    moved = client.get(f"/games/{game.id}/tv.json", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.get_json()["players"][0]["score"] == 2


def test_the_stream_sends_the_state_then_each_change_and_ends(
    app: Flask, table: Table, client: FlaskClient
) -> None:
    app.config["TV_STREAM_SECONDS"] = 2.0
    game = table.new(["Ann", "Bob"])
    mover = app.test_client()

    def play_soon() -> None:
        time.sleep(0.7)
        mover.post(f"/api/games/{game.id}/moves", headers=game.headers, json={
            "type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                        "shape": "circle"}]})

    player = threading.Thread(target=play_soon)
    player.start()
    response = client.get(f"/games/{game.id}/tv/events")
    assert response.mimetype == "text/event-stream"
    assert "Content-Encoding" not in response.headers
    body = response.get_data(as_text=True)
    player.join()
    # The body came back whole (get_data returned): the stream ended by itself,
    # and it was still open for the move made while it ran.
    assert body.startswith("retry: 500\n\n")
    sent = events(body)
    assert [s["players"][0]["score"] for s in sent] == [0, 1]
    assert sent[1]["turn_line"] == "Bob to play"


def test_a_reconnect_with_the_last_event_id_gets_no_repeat(
    app: Flask, table: Table, client: FlaskClient
) -> None:
    app.config["TV_STREAM_SECONDS"] = 0.6
    game = table.new(["Ann", "Bob"])
    key = client.get(f"/games/{game.id}/tv.json").headers["ETag"].strip('"')
    body = client.get(f"/games/{game.id}/tv/events",
                      headers={"Last-Event-ID": key}).get_data(as_text=True)
    assert events(body) == []


def test_with_every_stream_slot_taken_a_stream_answers_at_once_as_a_poll(
    app: Flask, table: Table, client: FlaskClient
) -> None:
    app.config["TV_STREAM_SECONDS"] = 5.0
    game = table.new(["Ann", "Bob"])
    for _ in range(tv.STREAMS_PER_PROCESS):
        assert tv._streams.take()
    try:
        body = client.get(f"/games/{game.id}/tv/events").get_data(as_text=True)
        # A poll takes no slot: the ones taken here are all still taken.
        assert tv._streams.full()
        # Polling again with the state it has: the retry alone.
        again = client.get(f"/games/{game.id}/tv/events",
                           headers={"Last-Event-ID": events(body)[0]["key"]})
        # ... and a move later, the new state.
        game.move({"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"}]})
        moved = client.get(f"/games/{game.id}/tv/events",
                           headers={"Last-Event-ID": events(body)[0]["key"]})
    finally:
        for _ in range(tv.STREAMS_PER_PROCESS):
            tv._streams.give_back()
    # A poll's answer: the state once, and the longer retry of a busy server
    # (a stream's is 500 ms), not a stream that waits for changes.
    assert tv.BUSY_RETRY_MS != 500
    assert body.startswith(f"retry: {tv.BUSY_RETRY_MS}\n\n")
    assert len(events(body)) == 1
    assert again.get_data(as_text=True) == f"retry: {tv.BUSY_RETRY_MS}\n\n"
    assert [e["key"] for e in events(moved.get_data(as_text=True))] != [
        events(body)[0]["key"]]
    assert len(events(moved.get_data(as_text=True))) == 1


def test_a_stream_for_no_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/games/999/tv/events").status_code == 404
    assert client.get("/games/999/tv.json").status_code == 404
