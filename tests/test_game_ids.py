"""A deleted game's id is never given to another game (m820_game_ids_never_reused).

A table view still polling a deleted game (/api/games/<id>), or a device's
saved link to it, would otherwise follow the next new game at that id. The
migration copies the games table to one with AUTOINCREMENT: every row, index,
trigger and every reference to a game from the other tables survives it.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import Any

from conftest import Table, TableGame, as_admin, fresh_database, make_app, new_game
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event
from test_history_helpers import corpus_record

from scorekeeper.store import connection, schema

MIGRATION = "m820_game_ids_never_reused"


# --- through the app ---


def test_a_deleted_games_id_is_never_given_to_the_next_game(
    client: FlaskClient, table: Table
) -> None:
    first = table.new(["Ann", "Bob"])
    newest = table.new(["Cy", "Di"])
    newest.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    polled = client.get(newest.url)
    assert polled.status_code == 200

    deleted = client.delete(newest.url, headers=newest.headers)
    after = table.new(["Eve", "Fay"])
    imported = table.import_record(corpus_record())

    assert deleted.status_code == 200
    assert after.id > newest.id and imported.id > after.id
    assert first.id < newest.id
    # The table view still polling the deleted game hears that it is gone,
    # rather than the new game under the old address.
    still = client.get(newest.url, headers={"If-None-Match": polled.headers["ETag"]})
    assert still.status_code == 404
    assert client.get(f"{newest.url}/record").status_code == 404
    assert client.get(f"/games/{newest.id}").status_code == 404


def test_ids_stay_unused_through_the_delete_page_and_a_restart(
    database: Path,
) -> None:
    client = make_app(fresh_database(database)).test_client()
    kept = new_game(client, "Ann", "Bob")
    newest = new_game(client, "Cy", "Di")
    assert client.get(f"/games/{newest}/delete").status_code == 200
    assert client.post(f"/games/{newest}/delete").status_code == 302

    # The server restarts (its cache and the connection go): the database
    # alone remembers which ids were handed out.
    client = make_app(database).test_client()
    again = new_game(client, "Eve", "Fay")

    assert again > newest > kept
    assert client.get(f"/games/{newest}").status_code == 404
    assert client.get(f"/games/{again}").status_code == 200
    assert client.get(f"/api/games/{kept}").status_code == 200


def test_a_game_taken_back_because_its_night_was_deleted_leaves_its_id_unused(
    client: FlaskClient, table: Table,
) -> None:
    # _join_event deletes a game it has just made when its night went meanwhile;
    # a restore that fails part-way deletes its games the same way.
    night = new_event(client, "Friday")
    game = event_game(client, night, ["Ann", "Bob"])
    assert client.delete(game.url, headers=game.headers).status_code == 200
    assert table.new(["Cy", "Di"]).id > game.id


# --- the upgrade of a database made before the migration ---


def _migrated_before(path: Path) -> None:
    """Make the schema as the release before the migration left it, with the
    migrations that came after it applied (they do not touch the games)."""
    db = connection.connect(str(path))
    try:
        schema.migrations.apply(db, stop_before=MIGRATION)
        later = False
        for migration in schema.migrations.pending(db):
            later = later or migration.name == MIGRATION
            if later and migration.name != MIGRATION:
                migration.fn(db)
    finally:
        db.close()


def _schema(path: Path) -> list[tuple[str, str, str, str | None]]:
    """Every table, index, trigger and view with its SQL (the migrations'
    own records aside), the table names' quoting as ALTER TABLE leaves it."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
            " WHERE tbl_name != '_sqlite_migrations' ORDER BY type, name"
        ).fetchall()
    conn.close()
    return [
        (kind, name, table,
         sql.replace(f'CREATE TABLE "{name}"', f"CREATE TABLE {name}", 1)
         if sql else sql)
        for kind, name, table, sql in rows
    ]


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but sqlite_sequence and the migrations' list."""
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT IN ('sqlite_sequence', '_sqlite_migrations')")]
        rows = {table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(),
                              key=repr)
                for table in tables}
    conn.close()
    return rows


def _to_the_old_games_table(path: Path, old: Path) -> None:
    """Give the database at path the games table, its indexes and its triggers
    as the database at old (made by the migrations before this one) has them,
    keeping every row, as if the migration had never run."""
    with sqlite3.connect(old) as conn:
        table = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
        ).fetchone()[0]
        on_games = [row[0] for row in conn.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'games'"
            " AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")]
    conn.close()
    assert "AUTOINCREMENT" not in table.upper()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        # The release before renamed nothing: the trigger on game_players that
        # reads games must not stop this rename of a copy.
        conn.execute("PRAGMA legacy_alter_table = ON")
        conn.execute("BEGIN")
        conn.execute(table.replace("CREATE TABLE games", "CREATE TABLE games_old", 1))
        conn.execute("INSERT INTO games_old SELECT * FROM games")
        conn.execute("DROP TABLE games")
        conn.execute("ALTER TABLE games_old RENAME TO games")
        for sql in on_games:
            conn.execute(sql)
        conn.execute("DELETE FROM sqlite_sequence WHERE name = 'games'")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [MIGRATION])
        conn.execute("COMMIT")
    finally:
        conn.close()


def _a_club_history(client: FlaskClient) -> dict[str, Any]:
    """Store games of every kind through the API; return what the test needs."""
    table = Table(client)
    monday = new_event(client, "Monday", date="2026-12-07")
    done = event_game(client, monday, ["Ann", "Bob"])
    done.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    done.place((1, 0, "red", "square"), (2, 0, "red", "diamond"))
    close(done)
    running = event_game(client, monday, ["Cy", "Di", "Eve"])
    running.place((0, 0, "blue", "starburst"), (0, 1, "blue", "clover"))
    running.trade(2)
    gone = table.new(["Gil", "Hal"])  # deleted below: its id stays unused
    imported = table.import_record(corpus_record())
    lone = table.new(["Ann", "Di"])
    lone.place((0, 0, "green", "diamond"))
    assert client.delete(gone.url, headers=gone.headers).status_code == 200
    assert client.get("/api/ratings").status_code == 200  # rating_steps filled
    return {"monday": monday, "done": done, "running": running,
            "imported": imported, "lone": lone, "gone": gone}


def _with_photo_lessons(path: Path, game_id: int) -> None:
    """Rows that name a game in the tables the photo reader keeps."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("INSERT INTO photo_readings (game_id, seq, looks, created_at)"
                     " VALUES (?, 3, '[]', '2026-12-07T20:00:00Z')", [game_id])
        conn.executemany(
            "INSERT INTO photo_lessons (game_id, what, name, count, a, b)"
            " VALUES (?, 'color', 'red', 4, 0.5, 0.25)", [(game_id,), (None,)])
        conn.execute("INSERT INTO name_changes (game_id, seat, old, new, reason)"
                     " VALUES (?, 0, 'ann ', 'ann', 'spaces')", [game_id])
    conn.close()


def test_the_upgrade_keeps_every_row_index_trigger_and_reference(
    database: Path, tmp_path: Path
) -> None:
    client = make_app(fresh_database(database)).test_client()
    history = _a_club_history(client)
    done, running, lone = history["done"], history["running"], history["lone"]
    _with_photo_lessons(database, done.id)
    backup = client.get("/api/backup").data
    before = _rows(database)
    old = tmp_path / "old.sqlite3"
    _migrated_before(old)
    _to_the_old_games_table(database, old)
    # The database is now as the release before the migration left it.
    assert _schema(database) == _schema(old)
    with sqlite3.connect(database) as conn:
        assert "AUTOINCREMENT" not in conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    conn.close()
    assert _rows(database) == before

    client = as_admin(make_app(database).test_client())  # migrates

    fresh = tmp_path / "fresh.sqlite3"
    schema.init_db(str(fresh))
    assert _schema(database) == _schema(fresh)
    assert _rows(database) == before
    with sqlite3.connect(database) as conn:
        assert "AUTOINCREMENT" in conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute(
            "SELECT seq FROM sqlite_sequence WHERE name = 'games'"
        ).fetchone() == (lone.id,)
        applied = [row[0] for row in conn.execute(
            "SELECT name FROM _sqlite_migrations ORDER BY rowid")]
    conn.close()
    assert applied[-1] == MIGRATION

    # The backup made before the upgrade restores: into the upgraded database,
    # which holds every game of it, and into a new one, in the same order.
    same = client.post("/api/restore", data=backup, content_type="application/json")
    assert same.get_json() == {"restored": 0, "skipped": 4}
    other = as_admin(make_app(fresh_database(tmp_path / "other.sqlite3"))
                     .test_client())
    restored = other.post("/restore", data={"file": (io.BytesIO(backup), "b.json")},
                          content_type="multipart/form-data")
    assert restored.status_code == 302
    games = [done, running, history["imported"], lone]
    assert [other.get(f"/api/games/{n}/record").get_json()
            for n in range(1, 5)] == [
        client.get(f"{game.url}/record").get_json() for game in games]
    assert other.get(f"/api/events/{history['monday']['id']}").get_json()[
        "games"] == [1, 2]

    # Every game still opens, its night still lists it.
    night = client.get(f"/api/events/{history['monday']['id']}").get_json()
    assert night["games"] == [done.id, running.id]
    for game in (done, running, history["imported"], lone):
        assert client.get(game.url).status_code == 200
        assert client.get(f"/games/{game.id}/replay").status_code == 200
    assert running.undo()["turn"] == 1  # the moves are still the game's

    # Deleting the newest game, then starting one, gives a new id.
    assert client.delete(lone.url, headers=lone.headers).status_code == 200
    after = Table(client).new(["Ann", "Bob"])
    assert after.id > lone.id
    assert client.get(lone.url).status_code == 404

    # The references follow the new table: deleting the finished game takes
    # its moves, seats and photo lessons along (ON DELETE CASCADE) and marks
    # the ratings from it on stale (the trigger on games).
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM rating_dirty")
    conn.close()
    assert client.delete(done.url, headers=done.headers).status_code == 200
    with sqlite3.connect(database) as conn:
        for table in ("moves", "game_players", "photo_readings", "photo_lessons"):
            assert conn.execute(
                f"SELECT count(*) FROM {table} WHERE game_id = ?", [done.id]
            ).fetchone() == (0,), table
        assert conn.execute("SELECT count(*) FROM photo_lessons"
                            " WHERE game_id IS NULL").fetchone() == (1,)
        assert conn.execute("SELECT game_id FROM rating_dirty").fetchone() == (
            done.id,)
    conn.close()

    # The backup made before the upgrade restores into the upgraded database:
    # the games deleted or changed since come back, under new ids.
    again = client.post("/api/restore", data=backup, content_type="application/json")
    assert again.get_json() == {"restored": 3, "skipped": 1}  # the import is there
    ids = [game["id"] for game in client.get("/api/games").get_json()["games"]]
    assert sorted(ids)[-3:] == [after.id + 1, after.id + 2, after.id + 3]


def test_the_upgrade_runs_once_and_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "twice.sqlite3"
    schema.init_db(str(path))
    first = _schema(path)
    db = connection.connect(str(path))
    try:
        schema.m820_game_ids_never_reused(db)
    finally:
        db.close()
    assert _schema(path) == first


def test_an_id_the_ratings_still_name_is_not_handed_out_after_the_upgrade(
    database: Path, tmp_path: Path
) -> None:
    # The release before gave the newest game's id again once it was deleted;
    # if the ratings still hold steps of that game (they are worked out again
    # on the next read), the upgrade starts the ids above it.
    client = make_app(fresh_database(database)).test_client()
    table = Table(client)
    games: list[TableGame] = []
    for names in (["Ann", "Bob"], ["Ann", "Cy"]):
        game = table.new(names)
        game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
        close(game)
        games.append(game)
    assert client.get("/api/ratings").status_code == 200
    newest = games[-1]
    assert client.delete(newest.url, headers=newest.headers).status_code == 200
    old = tmp_path / "old.sqlite3"
    _migrated_before(old)
    _to_the_old_games_table(database, old)

    client = make_app(database).test_client()

    assert Table(client).new(["Di", "Eve"]).id > newest.id
