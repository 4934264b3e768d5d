"""Games stored before the one name rule: the migration repairs their names,
keeps every change in name_changes and prints it once; the games then export,
back up and restore."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from test_export_records import upload
from test_history_helpers import corpus_record

from scorekeeper import engine
from scorekeeper.store import connection, schema

OLD_TABLES = [
    ["Ann  Lee", "Bo\u202eb"],  # stray spaces; a right-to-left override
    ["Ann", "ANN"],  # one player twice, as the old form allowed
    ["Cas", "Dirk"],  # already fine
]


def old_key(name: str) -> str:
    """The name key as the store wrote it before the rule."""
    return " ".join(name.split()).casefold()


def build_old_database(path: Path) -> None:
    """Write games as the old code did: schema before m200, rows by hand."""
    db = connection.connect(str(path))
    schema.migrations.apply(db, stop_before="m200_one_name_rule")
    record = corpus_record()
    game, _names = engine.from_record(record)
    final = game.final
    assert final is not None
    stamp = "2025-03-01T20:00:00.000000+00:00"
    conn = db.conn
    for names in OLD_TABLES:
        cursor = conn.execute(
            "INSERT INTO games (created_at, updated_at, players, variant,"
            " first_player, edit_token, status, end_reason, finished_at, move_count,"
            " scores) VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?)",
            [stamp, stamp, json.dumps(names), json.dumps(game.variant.to_dict()),
             game.first_player, "token", final.reason.value, stamp, game.turn,
             json.dumps(game.scores)],
        )
        game_id = cursor.lastrowid
        for seat, name in enumerate(names):
            conn.execute(
                "INSERT INTO game_players (game_id, seat, name, name_key, score,"
                " is_winner) VALUES (?, ?, ?, ?, ?, ?)",
                [game_id, seat, name, old_key(name), game.scores[seat],
                 int(seat in final.winners)],
            )
        for seq, move in enumerate(game.moves):
            tiles = move.to_dict().get("tiles", [])
            conn.execute(
                "INSERT INTO moves (game_id, seq, player, type, tiles, count, score,"
                " end_bonus, qwirkles, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [game_id, seq, move.player, move.type, json.dumps(tiles), move.count,
                 move.score, move.end_bonus, move.qwirkles, stamp],
            )
    conn.commit()
    db.close()


def rows(path: Path, sql: str) -> list[Any]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_the_old_names_would_not_survive_an_export_and_import() -> None:
    # Why the migration exists: the old form stored tables the rule refuses.
    record = corpus_record()
    for names in OLD_TABLES[:2]:
        with pytest.raises(engine.RecordError) as refused:
            engine.from_record({**record, "players": names})
        assert refused.value.code == "invalid_players"


def test_the_migration_repairs_logs_and_prints_every_changed_name_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "old.sqlite3"
    build_old_database(database)

    make_app(database)
    printed = capsys.readouterr().err
    make_app(database)  # a second start changes and prints nothing
    again = capsys.readouterr().err

    changes = rows(database, "SELECT game_id, seat, old, new, reason FROM name_changes"
                   " ORDER BY id")
    assert changes == [
        (1, 0, "Ann  Lee", "Ann Lee", "normalised"),
        (1, 1, "Bo\u202eb", "Player 2", "name_forbidden_character"),
        (2, 1, "ANN", "ANN 2", "duplicate"),
    ]
    assert "3 stored player name(s) changed" in printed
    assert "game 1, seat 2: 'Bo\\u202eb' -> 'Player 2'" in printed
    assert again == ""
    players = [json.loads(p) for (p,) in rows(database, "SELECT players FROM games")]
    assert players == [["Ann Lee", "Player 2"], ["Ann", "ANN 2"], ["Cas", "Dirk"]]
    seats = rows(database, "SELECT name, name_key FROM game_players"
                 " ORDER BY game_id, seat")
    assert seats == [
        ("Ann Lee", "annlee"), ("Player 2", "player2"),
        ("Ann", "ann"), ("ANN 2", "ann2"), ("Cas", "cas"), ("Dirk", "dirk"),
    ]


def test_migrated_games_export_back_up_and_restore(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite3"
    build_old_database(database)
    client = make_app(database).test_client()

    for game_id in (1, 2, 3):
        exported = client.get(f"/games/{game_id}/record.json")
        assert exported.status_code == 200
        record = json.loads(exported.data)
        assert engine.from_record(record)[1] == record["players"]
        assert client.get(f"/api/games/{game_id}/record").status_code == 200
        assert client.get(f"/games/{game_id}/scoresheet.pdf").status_code == 200
    backup = client.get("/backup").data

    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    restored = upload(fresh, backup, url="/restore")

    assert restored.status_code == 302, restored.data
    names = [
        [p["name"] for p in fresh.get(f"/api/games/{i}").get_json()["players"]]
        for i in (1, 2, 3)
    ]
    assert names == [["Ann Lee", "Player 2"], ["Ann", "ANN 2"], ["Cas", "Dirk"]]
    again = fresh.post("/api/games/import",
                       data=client.get("/api/games/1/record").data,
                       content_type="application/json")
    assert again.status_code == 201
