"""A typo is not a new player: the new-game form asks "did you mean" for a
name near one played before (accents, case aside, one letter), and keeps the
name as written when asked again."""

from __future__ import annotations

from flask.testing import FlaskClient

from scorekeeper import engine


def test_near_names_are_accents_or_one_letter_apart() -> None:
    known = ["Chloé", "Bob", "Anna", "Ann", "Al"]
    assert engine.near_names("Chloe", known) == ["Chloé"]
    assert engine.near_names("chlore", known) == ["Chloé"]  # one letter added
    assert engine.near_names("Claude", known) == []
    assert engine.near_names("Chlo", known) == ["Chloé"]
    assert engine.near_names("Annas", known) == ["Anna"]
    assert engine.near_names("CHLOÉ", known) == []  # the same player
    assert engine.near_names("Ed", known) == []  # short names: accents only
    assert engine.near_names("Bób", known) == ["Bob"]


def start(client: FlaskClient, names: list[str], checked: bool = False) -> str:
    data = {f"names-{i}": name for i, name in enumerate(names)}
    if checked:
        data["names_checked"] = "1"
    answer = client.post("/games/new", data=data)
    return answer.headers.get("Location", "") if answer.status_code == 302 \
        else answer.get_data(as_text=True)


def test_the_new_game_form_asks_before_seating_a_new_player(
    client: FlaskClient,
) -> None:
    assert start(client, ["Chloé", "Bob"]).startswith("/games/")
    page = start(client, ["Chloe", "Bob"])
    assert "data-near-names" in page and "Chloé" in page
    assert client.get("/api/games").get_json()["total"] == 1
    # Kept as written when the table says so.
    assert start(client, ["Chloe", "Bob"], checked=True).startswith("/games/")
    assert client.get("/api/games").get_json()["total"] == 2
