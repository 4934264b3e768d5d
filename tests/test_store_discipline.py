"""Table discipline in the store (RULES §7): the summaries every write keeps
(exclusions, penalties, thinking time), winners without excluded players, undo
and corrections of disciplined games."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table, TableGame, hold
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import parse

from scorekeeper.store import stats

STRICT = {"on_illegal": "deduct", "on_timeout": "exclude", "penalty_points": 3}


def place(game: TableGame, *cells: tuple[int, int, str, str], **extra: Any) -> None:
    game.place(*cells, **extra)


def summary(app: Flask, name: str) -> dict[str, Any]:
    with app.app_context():
        row = stats.player_summary(name)
    assert row is not None
    return row


def seats(app: Flask, game_id: int) -> list[dict[str, Any]]:
    with app.app_context():
        return stats.game_players_for([game_id])[game_id]


def test_s7_average_thinking_time_counts_only_moves_that_carry_one(
    app: Flask, table: Table
) -> None:
    first = table.new(["Ann", "Bob"], options=STRICT)
    first.place((0, 0, "red", "circle"), seconds=10)       # Ann 10
    first.place((1, 0, "blue", "circle"), seconds=50)      # Bob
    first.place((2, 0, "green", "circle"), seconds=20)     # Ann 20
    first.place((3, 0, "yellow", "circle"))                # Bob, no time
    first.place((4, 0, "purple", "circle"))                # Ann, no time
    second = table.new(["Cy", "Ann"])
    second.place((0, 0, "red", "circle"))                  # Cy
    second.move({"type": "trade", "count": 2, "seconds": 30})  # Ann 30

    ann, bob = summary(app, "Ann"), summary(app, "Bob")

    assert ann["timed_moves"] == 3
    assert ann["avg_seconds"] == pytest.approx(20.0)
    assert bob["avg_seconds"] == pytest.approx(50.0)
    assert summary(app, "Cy")["avg_seconds"] is None
    page = parse(table.client.get("/players/Ann").data)
    assert page.find("dd", data_stat="avg_seconds").text() == "20 s (3 timed moves)"
    assert parse(table.client.get("/players/Cy").data).find(
        "dd", data_stat="avg_seconds").text() == "–"


def test_s7_penalties_and_exclusions_are_counted_per_player(
    app: Flask, table: Table
) -> None:
    game = table.new(["Ann", "Bob", "Cy"], options=STRICT)
    game.place((0, 0, "red", "circle"))
    game.move({"type": "penalty", "reason": "illegal"})     # Bob -3
    game.move({"type": "penalty", "reason": "timeout"})     # Cy out
    game.place((1, 0, "blue", "circle"))                    # Ann
    game.move({"type": "penalty", "reason": "illegal"})     # Bob -3

    rows = seats(app, game.id)
    assert [r["excluded"] for r in rows] == [0, 0, 1]
    assert [r["score"] for r in rows] == [3, -6, 0]
    assert [r["turns"] for r in rows] == [2, 2, 1]
    bob, cy = summary(app, "Bob"), summary(app, "Cy")
    assert (bob["penalties"], bob["exclusions"], bob["points"]) == (2, 0, -6)
    assert (cy["penalties"], cy["exclusions"]) == (1, 1)


def test_s7_an_excluded_player_is_never_stored_as_a_winner(
    app: Flask, table: Table
) -> None:
    game = table.new(["Ann", "Bob"], options=STRICT)
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"),
               (0, 2, "red", "diamond"))                   # Ann 3
    game.move({"type": "penalty", "reason": "illegal"})     # Bob -3
    game.move({"type": "penalty", "reason": "timeout"})     # Ann out, Bob left

    rows = seats(app, game.id)
    assert [(r["score"], r["is_winner"], r["excluded"]) for r in rows] == [
        (3, 0, 1), (-3, 1, 0)]
    ann, bob = summary(app, "Ann"), summary(app, "Bob")
    assert (ann["wins"], bob["wins"]) == (0, 1)
    with app.app_context():
        versus = stats.head_to_head("Ann", "Bob")
    assert (versus["ahead_a"], versus["ahead_b"]) == (0, 1)
    assert (versus["wins_a"], versus["wins_b"]) == (0, 1)
    home = parse(table.client.get("/").data)
    finished = home.find("ul", data_finished=True).text()
    assert "★ Bob" in finished and "★ Ann" not in finished


def test_s7_undo_of_penalties_keeps_the_summaries_right(
    app: Flask, table: Table
) -> None:
    game = table.new(["Ann", "Bob"], options=STRICT)
    game.place((0, 0, "red", "circle"), seconds=12)
    game.move({"type": "penalty", "reason": "illegal"})
    game.move({"type": "penalty", "reason": "timeout"})   # Ann out: finished

    game.undo()
    game.undo()

    rows = seats(app, game.id)
    assert [(r["excluded"], r["is_winner"], r["score"]) for r in rows] == [
        (0, None, 1), (0, None, 0)]
    bob = summary(app, "Bob")
    assert (bob["penalties"], bob["turns"]) == (0, 0)
    assert summary(app, "Ann")["timed_moves"] == 1
    game.undo()
    assert summary(app, "Ann")["timed_moves"] == 0


def test_s7_a_correction_replays_the_game_with_its_options(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"], options=STRICT)
    game.place((0, 0, "red", "circle"), seconds=5)
    game.move({"type": "penalty", "reason": "illegal"})     # Bob -3
    game.place((0, 1, "red", "square"), seconds=9)          # Ann 2
    hold(client, game.id, game.token)

    response = client.post(f"/games/{game.id}/moves/1/edit", data={
        "type": "place", "tiles-0-row": "0", "tiles-0-col": "0",
        "tiles-0-color": "red", "tiles-0-shape": "diamond",
    })

    assert response.status_code == 302, response.data
    record = client.get(f"/api/games/{game.id}/record").get_json()
    assert record["options"]["on_illegal"] == "deduct"
    assert [m["type"] for m in record["moves"]] == ["place", "penalty", "place"]
    assert [m.get("seconds") for m in record["moves"]] == [None, None, 9]
    assert [p["score"] for p in game.state()["players"]] == [3, -3]


def test_s7_a_penalty_can_be_corrected_into_a_move_and_back(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"], options=STRICT)
    game.place((0, 0, "red", "circle"))
    game.move({"type": "penalty", "reason": "illegal"})
    hold(client, game.id, game.token)

    page = parse(client.get(f"/games/{game.id}/moves/2/edit").data)
    choices = [o.attrs["value"] for o in page.find("select", name="type")
               .find_all("option")]
    assert choices == ["place", "trade", "pass", "penalty_illegal", "penalty_timeout"]
    chosen = page.find("select", name="type").find("option", selected=True)
    assert chosen.attrs["value"] == "penalty_illegal"

    response = client.post(f"/games/{game.id}/moves/2/edit", data={
        "type": "penalty_timeout"})
    assert response.status_code == 302, response.data
    state = game.state()
    assert state["status"] == "finished"   # Bob out: Ann is left
    assert state["moves"][1]["reason"] == "timeout"


DISCIPLINE_TOTALS = ("games", "finished", "wins", "points", "turns", "exclusions",
                     "penalties", "timed_moves", "think_seconds")


def totals_kept(app: Flask) -> dict[str, tuple[int, ...]]:
    """player_totals as the triggers kept it, by name key."""
    from scorekeeper.store.connection import get_db

    with app.app_context():
        return {
            row["name_key"]: tuple(row[k] for k in DISCIPLINE_TOTALS)
            for row in get_db().query("SELECT * FROM player_totals")
        }


def totals_recounted(app: Flask) -> dict[str, tuple[int, ...]]:
    """The same totals counted afresh from every seat (the summary's truth)."""
    from scorekeeper.store.connection import get_db

    with app.app_context():
        return {
            row["name_key"]: tuple(row[k] for k in DISCIPLINE_TOTALS)
            for row in get_db().query(
                "SELECT name_key, count(*) AS games, count(is_winner) AS finished,"
                " coalesce(sum(is_winner), 0) AS wins, sum(score) AS points,"
                " sum(turns) AS turns, sum(excluded) AS exclusions,"
                " sum(penalties) AS penalties, sum(timed_moves) AS timed_moves,"
                " sum(think_seconds) AS think_seconds"
                " FROM game_players GROUP BY name_key"
            )
        }


def test_s7_player_totals_count_penalties_exclusions_and_thinking_time(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    from scorekeeper.store import games as stored

    game = table.new(["Ann", "Bob", "Cy"], options=STRICT)
    game.place((0, 0, "red", "circle"), seconds=7)            # Ann
    game.move({"type": "penalty", "reason": "illegal"})       # Bob -3
    game.move({"type": "trade", "count": 2, "seconds": 40})   # Cy
    assert totals_kept(app) == totals_recounted(app)
    game.move({"type": "penalty", "reason": "timeout"})       # Ann out
    game.move({"type": "penalty", "reason": "timeout"})       # Bob out: Cy wins
    kept = totals_kept(app)
    assert kept == totals_recounted(app)
    # An excluded player never wins; the one left does.
    assert [kept[k][2] for k in ("ann", "bob", "cy")] == [0, 0, 1]
    assert kept["ann"][5:] == (1, 1, 1, 7) and kept["cy"][7:] == (1, 40)
    game.undo()                                               # Bob back, running
    assert totals_kept(app) == totals_recounted(app)
    assert totals_kept(app)["cy"][1:3] == (0, 0)
    with app.test_request_context():
        # A correction that turns Bob's penalty into a trade, then a rename and
        # a delete: every seat's figures move with it.
        stored.replace_moves(game.id, [
            {"type": "place", "tiles": [
                {"row": 0, "col": 0, "color": "red", "shape": "circle"}],
             "seconds": 7},
            {"type": "trade", "count": 1, "seconds": 3},
        ])
        assert totals_kept(app) == totals_recounted(app)
        stored.rename_players(game.id, ["Ann", "Dee", "Cy"])
        assert totals_kept(app) == totals_recounted(app)
        stored.delete_game(game.id)
    assert totals_kept(app) == totals_recounted(app) == {}
