"""Build a database fixture with the code as it stands (run once per schema change).

    python tests/data/databases/build.py NAME

writes `NAME.sqlite3` (a database made through the JSON API by the current code)
and `NAME.json` (every stored game's record and summary, as that code exported
them). A committed fixture is never rebuilt: `tests/test_store_upgrades.py`
opens each one with today's code and checks every game against its JSON, so a
database made by any earlier release keeps every game.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1])]

from corpus import load  # noqa: E402

from scorekeeper import create_app, engine  # noqa: E402


def _truncated(record: dict[str, Any], moves: int) -> dict[str, Any]:
    """Return the record cut after `moves` moves, still running."""
    cut = dict(record, moves=record["moves"][:moves], final=None)
    return cut


def _cubes_record() -> dict[str, Any]:
    """Return a running Qwirkle Cubes game: a corpus opening replayed as cubes."""
    source = load("classic-10002.json")
    game = engine.Game(engine.CUBES, len(source["players"]),
                       source["moves"][0]["player"])
    for move in source["moves"]:
        if move["type"] != "place":
            break
        try:
            game.push(move)
        except engine.IllegalMove:
            break
        if game.turn == 9:
            break
    return engine.to_record(game, source["players"])


def _disciplined_records() -> list[dict[str, Any]]:
    """Return two games with table discipline (CONTRACT §10): a running one with
    a deduction, an exclusion and thinking times, and one ended by exclusion."""
    source = load("classic-10003.json")
    options = engine.Options(move_seconds=60, on_illegal="deduct",
                             on_timeout="exclude", penalty_points=5)
    game = engine.Game(engine.CLASSIC, 4, options=options)
    places = [move for move in source["moves"] if move["type"] == "place"]
    for number, move in enumerate(places[:14]):
        if number == 3:
            game.penalty("illegal")
        if number == 6:
            game.penalty("timeout")
        seconds = None if number % 4 == 3 else 5 + 7 * number
        game.push({"type": "place", "tiles": move["tiles"], "seconds": seconds})
    running = engine.to_record(game, ["Ann", "Bob", "Cy", "Dee"])
    short = engine.Game(engine.CLASSIC, 2, options=options)
    short.push({"type": "place", "tiles": places[0]["tiles"], "seconds": 30})
    short.penalty("illegal")
    short.push({"type": "place", "tiles": places[1]["tiles"], "seconds": 12})
    short.push({"type": "place", "tiles": places[2]["tiles"]})
    short.penalty("timeout")  # Ann, ahead, is out: Bob is left and wins
    ended = engine.to_record(short, ["Ann", "Bob"])
    return [running, ended]


def records() -> list[dict[str, Any]]:
    """Return the games the fixture holds, in the order they are stored."""
    finished = load("classic-10001.json")
    running = _truncated(load("classic-10004.json"), 23)
    custom = load("n5-c2-h5-10101.json")
    stalled = load("stalled-n3-c2-h2-20048.json")
    four = _truncated(load("classic-10003.json"), 40)
    accented = dict(
        load("classic-10006.json"), players=["Zoë", "Łukasz", "Søren", "José"]
    )
    fresh = {
        "format": "qwirkle-game/1",
        "variant": engine.CLASSIC.to_dict(),
        "players": ["Ann", "Bob", "Cy"],
        "first_player": 1,
        "moves": [],
        "final": None,
    }
    return [finished, running, _cubes_record(), custom, stalled, four, accented, fresh,
            *_disciplined_records()]


def main(name: str) -> int:
    """Build NAME.sqlite3 and NAME.json beside this script."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fixture.sqlite3"
        app = create_app({"TESTING": True, "DATABASE": str(path),
                          "SECRET_KEY": "fixture", "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        games = []
        for record in records():
            response = client.post("/api/games/import", json=record)
            if response.status_code != 201:
                raise SystemExit(f"import refused: {response.get_json()}")
            game_id = response.get_json()["id"]
            state = client.get(f"/api/games/{game_id}").get_json()
            exported = client.get(f"/api/games/{game_id}/record").get_json()
            games.append({
                "id": game_id,
                "record": exported,
                "status": state["status"],
                "scores": [p["score"] for p in state["players"]],
                "turn": state["turn"],
                "bag": state["bag"],
                "created_at": state["created_at"],
                # Since the table-discipline fixture (CONTRACT §10).
                "excluded": [p["excluded"] for p in state["players"]],
            })
        # One self-contained file (no WAL beside it), copied by SQLite's backup.
        target = HERE / f"{name}.sqlite3"
        target.unlink(missing_ok=True)
        source, copy = sqlite3.connect(path), sqlite3.connect(target)
        source.backup(copy)
        source.close()
        copy.execute("PRAGMA journal_mode = DELETE")
        migrations = [row[0] for row in copy.execute(
            "SELECT name FROM _sqlite_migrations ORDER BY applied_at")]
        copy.execute("VACUUM")
        copy.close()
    (HERE / f"{name}.json").write_text(
        json.dumps({"migrations": migrations, "games": games},
                   indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {name}.sqlite3 and {name}.json: {len(games)} games,"
          f" migrations {', '.join(migrations)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "fixture"))
