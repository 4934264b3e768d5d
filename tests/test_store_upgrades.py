"""Upgrades keep every game: each database fixture, made by an earlier release, opens
with today's code and gives back every game as that release exported it.

`tests/data/databases/build.py` makes one fixture per schema change; a committed
fixture is never rebuilt (see its docstring).
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from flask.testing import FlaskClient

FIXTURES = sorted((Path(__file__).parent / "data" / "databases").glob("*.sqlite3"))


def test_there_is_a_fixture_for_the_current_schema_at_least() -> None:
    assert FIXTURES, "tests/data/databases holds no database fixture"


def _expected(fixture: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        fixture.with_suffix(".json").read_text(encoding="utf-8")
    )
    return data


def _opened(fixture: Path, tmp_path: Path) -> FlaskClient:
    """Open a copy of the fixture with today's code (which migrates it)."""
    copy = tmp_path / fixture.name
    shutil.copyfile(fixture, copy)
    return as_admin(make_app(copy).test_client())


@pytest.fixture(params=FIXTURES, ids=[f.stem for f in FIXTURES])
def fixture(request: pytest.FixtureRequest) -> Path:
    path: Path = request.param
    return path


def test_every_game_of_an_older_database_exports_its_record_unchanged(
    fixture: Path, tmp_path: Path
) -> None:
    client = _opened(fixture, tmp_path)
    expected = _expected(fixture)["games"]

    for game in expected:
        response = client.get(f"/api/games/{game['id']}/record")
        assert response.status_code == 200, game["id"]
        assert response.get_json() == game["record"], game["id"]


def test_every_game_of_an_older_database_keeps_its_scores_and_state(
    fixture: Path, tmp_path: Path
) -> None:
    client = _opened(fixture, tmp_path)
    expected = _expected(fixture)["games"]

    listed = client.get("/api/games?limit=500").get_json()
    assert listed["total"] == len(expected)
    for game in expected:
        state = client.get(f"/api/games/{game['id']}").get_json()
        assert state["status"] == game["status"]
        assert [p["score"] for p in state["players"]] == game["scores"]
        assert (state["turn"], state["bag"]) == (game["turn"], game["bag"])
        assert state["created_at"] == game["created_at"]
        # Fixtures from before table discipline have no excluded players.
        excluded = game.get("excluded", [False] * len(state["players"]))
        assert [p["excluded"] for p in state["players"]] == excluded


def test_the_pages_of_an_older_database_open(fixture: Path, tmp_path: Path) -> None:
    client = _opened(fixture, tmp_path)
    expected = _expected(fixture)["games"]

    for url in ("/", "/history", "/players"):
        assert client.get(url).status_code == 200, url
    for game in expected:
        assert client.get(f"/games/{game['id']}").status_code == 200
        assert client.get(f"/games/{game['id']}/replay").status_code == 200


def test_an_older_database_backs_up_and_restores_into_a_new_one(
    fixture: Path, tmp_path: Path
) -> None:
    client = _opened(fixture, tmp_path)
    expected = _expected(fixture)["games"]
    backup = client.get("/backup").data
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())

    restored = fresh.post(
        "/restore",
        data={"file": (io.BytesIO(backup), "backup.json")},
        content_type="multipart/form-data",
    )

    assert restored.status_code == 302
    records = [
        fresh.get(f"/api/games/{game['id']}/record").get_json() for game in expected
    ]
    assert records == [game["record"] for game in expected]


def test_a_running_game_of_an_older_database_takes_undo_and_moves_again(
    fixture: Path, tmp_path: Path
) -> None:
    client = _opened(fixture, tmp_path)
    running = next(
        g for g in _expected(fixture)["games"]
        if g["status"] == "active" and g["turn"] > 0
    )
    token = _edit_token(tmp_path / fixture.name, running["id"])
    headers = {"X-Edit-Token": token}
    last = running["record"]["moves"][-1]

    undone = client.delete(f"/api/games/{running['id']}/moves/last", headers=headers)
    again = client.post(
        f"/api/games/{running['id']}/moves", headers=headers,
        json={key: value for key, value in last.items() if key != "player"},
    )

    assert undone.status_code == 200
    assert again.status_code == 201, again.get_json()
    assert client.get(f"/api/games/{running['id']}/record").get_json() == (
        running["record"]
    )


def _edit_token(database: Path, game_id: int) -> str:
    """Read a game's edit token from the database file (tests only)."""
    with sqlite3.connect(database) as conn:
        row = conn.execute("SELECT edit_token FROM games WHERE id = ?", [game_id])
        token: str = row.fetchone()[0]
    return token


def test_an_older_database_restoring_its_own_backup_skips_every_game(
    fixture: Path, tmp_path: Path
) -> None:
    # Each game's fingerprint, added by a later migration where the fixture
    # predates it, recognises the game in its own backup.
    client = _opened(fixture, tmp_path)
    expected = _expected(fixture)["games"]

    answer = client.post("/api/restore", data=client.get("/api/backup").data,
                         content_type="application/json")

    assert answer.get_json() == {"restored": 0, "skipped": len(expected)}
    assert client.get("/api/games").get_json()["total"] == len(expected)


def test_every_migration_a_fixture_names_is_one_of_todays_or_renamed(
    fixture: Path,
) -> None:
    from scorekeeper.store import schema

    today = {m.name for m in schema.migrations._migrations}
    named = _expected(fixture)["migrations"]

    assert {schema.RENAMED.get(name, name) for name in named} <= today


def test_a_migration_renamed_since_its_release_is_not_applied_again(
    tmp_path: Path,
) -> None:
    # The restore guards were m300 in the release before table discipline took
    # that number; a database of that release keeps its fingerprints and PINs
    # and gets only the discipline migration and those made since.
    fixture = next(f for f in FIXTURES if "m300_restore_guards"
                   in _expected(f)["migrations"])
    query = "SELECT id, fingerprint, pin FROM games ORDER BY id"
    with sqlite3.connect(f"file:{fixture}?mode=ro", uri=True) as conn:
        before = conn.execute(query).fetchall()

    _opened(fixture, tmp_path)

    with sqlite3.connect(tmp_path / fixture.name) as conn:
        applied = [row[0] for row in conn.execute(
            "SELECT name FROM _sqlite_migrations ORDER BY rowid")]
        after = conn.execute(query).fetchall()
    from scorekeeper.store import schema

    today = [m.name for m in schema.migrations._migrations]
    since = today[today.index("m340_player_totals_discipline") + 1:]
    assert applied == ["m001_initial", "m100_history_indexes", "m200_one_name_rule",
                       "m310_restore_guards", "m300_table_discipline",
                       "m320_player_totals", "m330_games_revision",
                       "m340_player_totals_discipline", *since]
    assert after == before and all(pin for _, _, pin in after)


_RECOUNT = (
    "SELECT name_key, count(*), count(is_winner), coalesce(sum(is_winner), 0),"
    " coalesce(sum(CASE WHEN is_winner IS NOT NULL THEN score END), 0),"
    " sum(qwirkles), sum(turns), sum(score), sum(excluded), sum(penalties),"
    " sum(timed_moves), sum(think_seconds) FROM game_players"
    " GROUP BY name_key ORDER BY name_key"
)
"""Every player's totals counted afresh from the seats, in player_totals' order."""

_KEPT = (
    "SELECT name_key, games, finished, wins, finished_points, qwirkles, turns,"
    " points, exclusions, penalties, timed_moves, think_seconds FROM player_totals"
    " ORDER BY name_key"
)


def test_an_older_database_gets_player_totals_that_count_every_seat(
    fixture: Path, tmp_path: Path
) -> None:
    client = _opened(fixture, tmp_path)
    running = [g for g in _expected(fixture)["games"] if g["status"] == "active"]

    with sqlite3.connect(tmp_path / fixture.name) as conn:
        assert conn.execute(_KEPT).fetchall() == conn.execute(_RECOUNT).fetchall()
    # ... and the triggers keep them so through a write.
    if running:
        game = running[0]
        token = _edit_token(tmp_path / fixture.name, game["id"])
        answer = client.post(f"/api/games/{game['id']}/moves",
                             headers={"X-Edit-Token": token},
                             json={"type": "trade", "count": 1, "seconds": 9})
        assert answer.status_code == 201, answer.get_json()
        with sqlite3.connect(tmp_path / fixture.name) as conn:
            assert conn.execute(_KEPT).fetchall() == conn.execute(
                _RECOUNT).fetchall()


def test_a_database_that_kept_player_totals_before_table_discipline_upgrades(
    tmp_path: Path,
) -> None:
    # The release that served with worker processes applied the
    # player totals and the games' revision as m300 and m301, before table
    # discipline and the restore guards were merged: it gets those two, and
    # then its totals learn the discipline columns; none of its own runs again.
    fixture = next(f for f in FIXTURES if "m300_player_totals"
                   in _expected(f)["migrations"])

    _opened(fixture, tmp_path)

    with sqlite3.connect(tmp_path / fixture.name) as conn:
        applied = [row[0] for row in conn.execute(
            "SELECT name FROM _sqlite_migrations ORDER BY rowid")]
        indexes = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        revisions = conn.execute("SELECT count(revision) FROM games").fetchone()[0]
    from scorekeeper.store import schema

    today = [m.name for m in schema.migrations._migrations]
    since = today[today.index("m340_player_totals_discipline") + 1:]
    assert applied == ["m001_initial", "m100_history_indexes", "m200_one_name_rule",
                       "m320_player_totals", "m330_games_revision",
                       "m300_table_discipline", "m310_restore_guards",
                       "m340_player_totals_discipline", *since]
    # The statistics index m300_table_discipline made again is gone once more:
    # player_totals and the per-player indexes serve every statistic.
    assert "game_players_stats" not in indexes
    assert {"game_players_by_player", "game_players_by_game"} <= indexes
    assert revisions == len(_expected(fixture)["games"])
