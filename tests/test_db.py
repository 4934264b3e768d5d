"""The store: persistence across restarts, concurrent writers, summaries, fixes."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils
from conftest import Table, corpus_files, make_app
from flask import Flask

from scorekeeper import engine
from scorekeeper.store import (
    GameNotFound,
    TurnConflict,
    connection,
    games,
    loaded,
    schema,
    stats,
)

RED_PAIR = ((0, 0, "red", "circle"), (0, 1, "red", "square"))
BLUE = (1, 0, "blue", "circle")


def place(*tiles: tuple[int, int, str, str]) -> dict[str, Any]:
    """Return a place move dict."""
    return {"type": "place", "tiles": [
        {"row": r, "col": c, "color": color, "shape": shape}
        for r, c, color, shape in tiles
    ]}


def test_a_restarted_app_on_the_same_file_shows_the_same_game(
    database: Path, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    game.place(*RED_PAIR)
    game.place(BLUE)
    before = game.state()

    restarted = make_app(database).test_client()
    after = restarted.get(game.url).get_json()
    write = restarted.post(f"{game.url}/moves", headers=game.headers,
                           json=place((2, 0, "green", "circle")))

    assert after == before
    assert write.status_code == 201
    assert write.get_json()["game"]["turn"] == 3


def test_a_second_app_sees_writes_of_the_first_despite_its_cache(
    database: Path, table: Table
) -> None:
    # Two server processes on one file: each caches replayed games, and the
    # (id, turn, updated_at) key must send the stale one back to the moves table.
    game = table.new()
    other = make_app(database).test_client()
    assert other.get(game.url).get_json()["turn"] == 0  # warms other's cache

    game.place(*RED_PAIR)
    answer = other.post(f"{game.url}/moves", headers=game.headers, json=place(BLUE))

    assert answer.status_code == 201
    assert answer.get_json()["game"]["turn"] == 2
    game.undo()
    game.undo()
    assert other.get(game.url).get_json()["turn"] == 0
    assert other.post(f"{game.url}/moves", headers=game.headers,
                      json=place(*RED_PAIR)).status_code == 201


def test_two_devices_with_the_same_turn_store_one_move(
    app: Flask, table: Table
) -> None:
    game = table.new()
    game.place(*RED_PAIR)
    barrier = threading.Barrier(4)
    statuses: list[int] = []
    moves = [place(BLUE), place((1, 1, "red", "diamond")),
             place((-1, 0, "green", "circle")), place((0, 2, "red", "clover"))]

    def device(move: dict[str, Any]) -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(f"{game.url}/moves", headers=game.headers,
                               json={**move, "turn": 1})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=device, args=(m,)) for m in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [201, 409, 409, 409]
    state = game.state()
    assert state["turn"] == 2
    assert len(state["moves"]) == 2


def test_concurrent_writers_without_turn_all_land_in_order(
    app: Flask, table: Table
) -> None:
    games = [table.new([f"A{i}", f"B{i}"]) for i in range(4)]
    errors: list[BaseException] = []

    def play(game: Any) -> None:
        try:
            client = app.test_client()
            for move in (place(*RED_PAIR), place(BLUE),
                         place((-1, 0, "green", "circle"))):
                response = client.post(f"{game.url}/moves", headers=game.headers,
                                       json=move)
                assert response.status_code == 201, response.get_json()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for game in games:
        assert [p["score"] for p in game.state()["players"]] == [5, 2]


def test_the_summary_tables_follow_every_write(app: Flask, table: Table) -> None:
    record = json.loads(corpus_files()[2].read_text(encoding="utf-8"))
    game = table.import_record(record)
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.row_factory = sqlite3.Row

    row = conn.execute("SELECT * FROM games WHERE id = ?", [game.id]).fetchone()
    seats = conn.execute(
        "SELECT * FROM game_players WHERE game_id = ? ORDER BY seat", [game.id]
    ).fetchall()
    stored = conn.execute(
        "SELECT count(*), sum(score) + sum(end_bonus) FROM moves WHERE game_id = ?",
        [game.id],
    ).fetchone()

    final = record["final"]
    assert row["status"] == "finished"
    assert row["end_reason"] == final["reason"]
    assert row["finished_at"] is not None
    assert row["move_count"] == len(record["moves"])
    assert json.loads(row["scores"]) == final["scores"]
    # As json.dumps writes it, the text every release stored (triggers compare it).
    assert row["scores"] == json.dumps(final["scores"])
    assert [s["score"] for s in seats] == final["scores"]
    best = max(final["scores"])
    assert [s["is_winner"] for s in seats] == [int(x == best) for x in final["scores"]]
    assert [s["name_key"] for s in seats] == [n.casefold() for n in record["players"]]
    assert sum(s["turns"] for s in seats) == len(record["moves"])
    for seat in seats:
        own = [m.get("score", 0) for m in record["moves"]
               if m["player"] == seat["seat"]]
        assert seat["best_move_score"] == max(own)
        assert record["moves"][seat["best_move_seq"]]["score"] == max(own)
    assert stored[0] == len(record["moves"])
    assert stored[1] == sum(final["scores"])

    game.undo()
    row = conn.execute("SELECT * FROM games WHERE id = ?", [game.id]).fetchone()
    seats = conn.execute(
        "SELECT is_winner FROM game_players WHERE game_id = ?", [game.id]
    ).fetchall()
    assert (row["status"], row["end_reason"], row["finished_at"]) == (
        "active", None, None
    )
    assert row["move_count"] == len(record["moves"]) - 1
    assert all(s["is_winner"] is None for s in seats)
    conn.close()


def test_replace_moves_corrects_a_past_move_or_stores_nothing(app: Flask) -> None:
    with app.app_context():
        game_id, _ = games.create_game(["Ann", "Bob"])
        for move in (place(*RED_PAIR), place(BLUE)):
            games.record_move(game_id, move)

        with pytest.raises(engine.IllegalMove) as refused:
            games.replace_moves(
                game_id, [place(*RED_PAIR), place((5, 5, "red", "clover"))]
            )
        assert refused.value.code == "not_connected"
        assert refused.value.move_number == 2
        with loaded(game_id) as row:
            assert row.game.scores == [2, 2]

        fixed = place((1, 0, "red", "diamond"), (1, 1, "red", "clover"))
        games.replace_moves(game_id, [place(*RED_PAIR), fixed])
        with loaded(game_id) as row:
            assert row.game.scores == [2, 6]
        reloaded = make_app(Path(app.config["DATABASE"]))  # replays from the file
        with reloaded.app_context(), loaded(game_id) as row:
            assert row.game.scores == [2, 6]
        assert stats.list_games()[0]["scores"] == [2, 6]
        with pytest.raises(TurnConflict):
            games.replace_moves(game_id, [], expected_turn=5)


def test_record_move_and_friends_raise_for_an_unknown_game(app: Flask) -> None:
    with app.app_context():
        with pytest.raises(GameNotFound):
            games.record_move(99, place(*RED_PAIR))
        with pytest.raises(GameNotFound):
            games.undo_last_move(99)
        with pytest.raises(GameNotFound):
            games.rename_players(99, ["X", "Y"])
        with pytest.raises(GameNotFound), loaded(99):
            pass
        assert games.delete_game(99) is False


def test_rename_players_updates_the_names_and_their_key(app: Flask) -> None:
    with app.app_context():
        game_id, _ = games.create_game(["Ann", "Bob"])

        games.rename_players(game_id, ["Ann", "Robert"])

        with loaded(game_id) as row:
            assert row.names == ["Ann", "Robert"]
        rows = list(connection.get_db().query(
            "SELECT name_key FROM game_players WHERE game_id = ? AND seat = 1",
            [game_id],
        ))
        assert rows == [{"name_key": "robert"}]
        with pytest.raises(ValueError):
            games.rename_players(game_id, ["Ann", "Robert", "Cas"])


def test_deleting_a_game_removes_its_moves_and_players(app: Flask) -> None:
    with app.app_context():
        game_id, _ = games.create_game(["Ann", "Bob"])
        games.record_move(game_id, place(*RED_PAIR))

        assert games.delete_game(game_id) is True

        conn = connection.get_db()
        for table in ("games", "moves", "game_players"):
            key = "id" if table == "games" else "game_id"
            count = next(iter(conn.query(
                f"SELECT count(*) AS n FROM {table} WHERE {key} = ?", [game_id]
            )))["n"]
            assert count == 0, table


def test_the_schema_is_created_once_and_migrations_are_recorded(
    database: Path,
) -> None:
    make_app(database)
    make_app(database)  # a second start applies nothing twice

    conn = sqlite3.connect(database)
    applied = conn.execute("SELECT name FROM _sqlite_migrations").fetchall()
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    indexes = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index'")}
    conn.close()
    names = [name for (name,) in applied]
    assert names[0] == "m001_initial"
    registered = schema.migrations.pending(sqlite_utils.Database(memory=True))
    assert names == [m.name for m in registered]
    assert mode == "wal"
    # game_players_by_player (m320) took over from game_players_name_key; the
    # UNIQUE (game_id, seq) index took over from moves_game_id (m890).
    assert "game_players_by_player" in indexes
    assert "moves_game_id" not in indexes
    assert "sqlite_autoindex_moves_1" in indexes


def test_each_write_gets_a_strictly_later_stamp() -> None:
    stamp = "2999-01-01T00:00:00.000000+00:00"

    assert games._next_stamp(stamp) == "2999-01-01T00:00:00.000001+00:00"
    assert games._next_stamp("2000-01-01T00:00:00.000000+00:00") > "2000"
