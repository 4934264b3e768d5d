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

from flask import Flask

from . import cache, connection, schema
from .cache import GameNotFound, GameRow, change_key, loaded, version
from .games import NothingToUndo, TurnConflict


def init_app(app: Flask) -> None:
    """Create or migrate app's DATABASE and give app its connections and cache."""
    schema.init_db(app.config["DATABASE"])
    connection.init_app(app)
    cache.init_app(app)


__all__ = [
    "GameNotFound", "GameRow", "NothingToUndo", "TurnConflict", "change_key",
    "init_app", "loaded", "version",
]
