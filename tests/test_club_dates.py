"""Games dated by their night (CONTRACT §14, Dates): rated in the order of
their night's date, re-rated when it moves, and a night's files give the
ratings as they stood at the end of that night."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

from flask.testing import FlaskClient
from test_club_night import assert_ratings_match, close, event_game, final_of, new_event


def played(client: FlaskClient, event: dict | None, players: list[str]) -> dict:
    """A finished game; the first seat wins."""
    game = event_game(client, event, players)
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(game)
    final = final_of(client, game.id)
    assert final is not None
    return final


def days_ago(n: int) -> str:
    return (date.today() - timedelta(days=n)).isoformat()


def test_a_backdated_night_is_rated_before_newer_games(client: FlaskClient) -> None:
    today = played(client, None, ["Ann", "Bob"])
    # Paper results of last week's night, entered after today's game.
    last_week = new_event(client, "Last week", date=days_ago(7))
    paper = played(client, last_week, ["Bob", "Ann"])
    assert_ratings_match(client, [paper, today])
    # Its date moved after today: rated last, everything re-rated.
    assert client.patch(f"/api/events/{last_week['id']}",
                        json={"date": (date.today() + timedelta(days=1)).isoformat()}
                        ).status_code == 200
    assert_ratings_match(client, [today, paper])
    # Deleting the night dates its game by the day it finished: after today's.
    assert client.delete(f"/api/events/{last_week['id']}").status_code == 200
    assert_ratings_match(client, [today, paper])


def csv_rows(client: FlaskClient, event: dict) -> list[list[str]]:
    answer = client.get(f"/events/{event['id']}/standings.csv")
    return list(csv.reader(io.StringIO(answer.data.decode("utf-8-sig"))))


def test_a_nights_files_keep_the_ratings_of_that_night(client: FlaskClient) -> None:
    first = new_event(client, "First", date=days_ago(14))
    played(client, first, ["Ann", "Bob"])
    before = csv_rows(client, first)
    assert [row[-1] for row in before[1:]] == [first["date"]] * 2
    sheet = client.get(f"/events/{first['id']}/standings").get_data(as_text=True)
    assert "Ratings as they stood at the end of" in sheet
    today = {r["name"]: r["ordinal"] for r in client.get("/api/ratings").get_json()}
    assert [float(row[6]) for row in before[1:]] == [
        round(today["Ann"], 2), round(today["Bob"], 2)]
    # A later night (Bob wins twice) changes today's ratings, not the first's file.
    later = new_event(client, "Later", date=days_ago(7))
    played(client, later, ["Bob", "Ann"])
    played(client, later, ["Bob", "Cy"])
    now = {r["name"]: r["ordinal"] for r in client.get("/api/ratings").get_json()}
    assert now["Bob"] != today["Bob"]
    assert csv_rows(client, first) == before
