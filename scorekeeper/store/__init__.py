"""The only code that reads or writes SQLite: connections, schema, cache, queries.

- `connection`: connect, one connection per worker thread, BEGIN IMMEDIATE
- `schema`: the tables and their migrations
- `cache`: replayed games, lent out as `with loaded(game_id) as row:`
- `games`: create, store, move, undo, correct, rename, delete
- `stats`: lists, history pages, player statistics (no replay)
- `events`: club nights, their tables and standings
- `ratings`: openskill ratings, stored and re-rated from the first changed game
- `backup`: every game for a backup, and restoring checked games
- `fingerprints`: a game's content fingerprint (restore skips stored games)
- `limits`: wrong PIN tries, counted in the database
- `snapshots`: automatic snapshots with SQLite's online backup
"""

from __future__ import annotations

import sys

from flask import Flask


def _import_sqlite_utils_without_numpy() -> None:
    """Import sqlite_utils with numpy (and pandas) hidden, unless already loaded.

    sqlite_utils imports them where installed, only to name columns for their
    number types when it creates a table from data; the store's tables come
    from its migrations. numpy alone is about 20 MB that an idle server would
    hold (benchmarks/bench_server.py); code that needs it imports it later.
    """
    hidden = [name for name in ("numpy", "pandas") if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # import fails
    try:
        import sqlite_utils  # noqa: F401
    finally:
        for name in hidden:
            del sys.modules[name]


_import_sqlite_utils_without_numpy()

from . import cache, connection, schema  # noqa: E402
from .cache import GameNotFound, GameRow, change_key, loaded, version  # noqa: E402
from .games import NothingToUndo, TurnConflict  # noqa: E402


def init_app(app: Flask) -> None:
    """Create or migrate app's DATABASE and give app its connections and cache."""
    schema.init_db(app.config["DATABASE"])
    connection.init_app(app)
    cache.init_app(app)


__all__ = [
    "GameNotFound", "GameRow", "NothingToUndo", "TurnConflict", "change_key",
    "init_app", "loaded", "version",
]
