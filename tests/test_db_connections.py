"""Per-thread connections: reused by a thread's requests, never shared, left clean."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from conftest import make_app
from flask import Flask

from scorekeeper.store import connection as db
from scorekeeper.store import games, stats


def test_a_thread_reuses_its_connection_across_requests(app: Flask) -> None:
    with app.app_context():
        first = db.get_db()
    with app.app_context():
        second = db.get_db()

    assert first is second


def test_each_thread_has_its_own_connection(app: Flask) -> None:
    with app.app_context():
        mine = db.get_db()
    theirs: list[object] = []

    def worker() -> None:
        with app.app_context():
            theirs.append(db.get_db())
            # A thread's connection works in that thread.
            theirs.append(db.get_db().execute("SELECT 1").fetchone()[0])

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()

    assert theirs[0] is not mine
    assert theirs[1] == 1
    # The thread has ended: its connection is closed, not left to the collector
    # (which would keep its file handles open).
    with pytest.raises(sqlite3.ProgrammingError):
        theirs[0].execute("SELECT 1")  # type: ignore[attr-defined]


def test_a_transaction_left_open_is_rolled_back_at_teardown(
    app: Flask, database: Path
) -> None:
    with app.app_context():
        conn = db.get_db().conn
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO games (created_at, updated_at, players, variant,"
            " first_player, edit_token, scores) VALUES ('x', 'x', '[]', '{}', 0, 't',"
            " '[]')"
        )
    assert not conn.in_transaction
    # The write lock is gone too: another connection can write at once.
    other = sqlite3.connect(database, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    assert other.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    other.rollback()
    other.close()


def test_an_unhandled_error_closes_the_threads_connection(
    database: Path,
) -> None:
    app = make_app(database, TESTING=False)  # let the error reach teardown

    @app.get("/_fails_mid_query")
    def _fails_mid_query() -> str:
        rows = db.get_db().query("SELECT 1 UNION ALL SELECT 2")
        next(rows)  # an unfinished cursor, then an error
        raise RuntimeError("boom")

    with app.app_context():
        before = db.get_db()
    assert app.test_client().get("/_fails_mid_query").status_code == 500
    with app.app_context():
        after = db.get_db()

    assert after is not before
    with pytest.raises(sqlite3.ProgrammingError):
        before.execute("SELECT 1")


def test_a_reused_connection_sees_writes_made_meanwhile(
    app: Flask, database: Path
) -> None:
    with app.app_context():
        assert stats.count_games() == 0
    other = make_app(database)
    with other.app_context():
        games.create_game(["Ann", "Bob"])
    with app.app_context():
        assert stats.count_games() == 1


def test_a_forked_child_opens_its_own_connection(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app.app_context():
        parent = db.get_db()
    monkeypatch.setattr(db.os, "getpid", lambda: -1)
    with app.app_context():
        child = db.get_db()

    assert child is not parent
    assert parent.execute("SELECT 1").fetchone() == (1,)  # left untouched
    db._INHERITED.clear()
    monkeypatch.undo()
    parent.close()
    child.close()


def test_closing_the_app_closes_its_connections(app: Flask) -> None:
    with app.app_context():
        conn = db.get_db().conn
    app.extensions["scorekeeper_connections"].close_all()

    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")
    with app.app_context():
        assert db.get_db().execute("SELECT 1").fetchone()[0] == 1
