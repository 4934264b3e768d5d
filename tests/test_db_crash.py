"""A writer killed at random moments leaves the file intact and no half-written move.

Like kill -9 of the server; it does not simulate a power cut (SQLite's WAL with
synchronous=NORMAL may then lose the last commits, never consistency).
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import corpus_files, make_app

from scorekeeper.store import loaded

WRITER = """
import json, sys
from scorekeeper import create_app
from scorekeeper.store import connection, games
app = create_app({"DATABASE": sys.argv[1], "SECRET_KEY": "x", "TESTING": True})
record = json.load(open(sys.argv[2], encoding="utf-8"))
print("ready", flush=True)
while True:
    with app.app_context():
        first = record["moves"][0]["player"]
        game_id, _ = games.create_game(record["players"], None, first)
        for move in record["moves"]:
            games.record_move(game_id, move)
        games.undo_last_move(game_id)
        connection.close_db()
"""


@pytest.mark.long
def test_killing_a_writer_mid_transaction_never_leaves_a_half_move(
    tmp_path: Path,
) -> None:
    database = tmp_path / "crash.sqlite3"
    make_app(database)  # schema first, as the run command does
    record = corpus_files()[0]
    rng = random.Random(20261125)
    rounds = 6
    for _ in range(rounds):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(database), str(record)],
            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1],
        )
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.05, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()

    conn = sqlite3.connect(database)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    rows = conn.execute(
        "SELECT g.id, g.move_count, g.scores, count(m.id) FROM games g"
        " LEFT JOIN moves m ON m.game_id = g.id GROUP BY g.id"
    ).fetchall()
    seats = conn.execute(
        "SELECT game_id, group_concat(score) FROM"
        " (SELECT * FROM game_players ORDER BY seat) GROUP BY game_id"
    ).fetchall()
    conn.close()
    assert len(rows) >= rounds
    app = make_app(database)
    with app.app_context():
        for game_id, move_count, scores, stored in rows:
            assert move_count == stored, game_id
            with loaded(game_id) as game:
                assert game.game.scores == json.loads(scores), game_id
                assert ",".join(map(str, game.game.scores)) == dict(seats)[game_id]
