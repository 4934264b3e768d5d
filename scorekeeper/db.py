"""All data access: the SQLite schema and named functions for views (no SQL there).

The moves table is the source of truth; `games` and `game_players` carry a summary that
every write refreshes in the same transaction, so history lists never replay games.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils
from flask import Flask, current_app, g
from sqlite_utils.migrations import Migrations

from . import engine

BUSY_TIMEOUT_MS = 10_000
"""How long a connection waits for another writer before giving up."""

CACHE_SIZE = 64
"""Replayed games kept per process; a table rarely has more than a few running."""


class GameNotFound(LookupError):
    """No game with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class TurnConflict(Exception):
    """The client saw an older turn than the stored game has reached."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(
            f"the game has moved on: you saw turn {expected}, it is now turn {actual}"
        )
        self.expected = expected
        self.actual = actual


class NothingToUndo(ValueError):
    """Undo asked for on a game without moves."""


@dataclass
class GameRow:
    """A stored game: its row values plus the engine Game replayed from its moves."""

    id: int
    created_at: str
    updated_at: str
    names: list[str]
    variant: engine.Variant
    first_player: int
    edit_token: str
    game: engine.Game

    @property
    def key(self) -> tuple[int, int, str]:
        """The cache key: changes on every write to this game."""
        return (self.id, self.game.turn, self.updated_at)


# --- connections and schema ---

migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    """Create the games, moves and game_players tables."""
    # One statement at a time: executescript() would COMMIT the migration's
    # transaction half-way.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


_SCHEMA = """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            players TEXT NOT NULL,
            variant TEXT NOT NULL,
            first_player INTEGER NOT NULL,
            edit_token TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            end_reason TEXT,
            finished_at TEXT,
            move_count INTEGER NOT NULL DEFAULT 0,
            scores TEXT NOT NULL
        );
        CREATE INDEX games_updated_at ON games(updated_at);
        CREATE TABLE moves (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            player INTEGER NOT NULL,
            type TEXT NOT NULL,
            tiles TEXT NOT NULL DEFAULT '[]',
            count INTEGER NOT NULL DEFAULT 0,
            score INTEGER NOT NULL DEFAULT 0,
            end_bonus INTEGER NOT NULL DEFAULT 0,
            qwirkles INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq)
        );
        CREATE INDEX moves_game_id ON moves(game_id);
        CREATE TABLE game_players (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            score INTEGER NOT NULL DEFAULT 0,
            is_winner INTEGER,
            qwirkles INTEGER NOT NULL DEFAULT 0,
            turns INTEGER NOT NULL DEFAULT 0,
            best_move_score INTEGER NOT NULL DEFAULT 0,
            best_move_seq INTEGER,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX game_players_name_key ON game_players(name_key);
"""


def connect(path: str) -> sqlite_utils.Database:
    """Open the database file with the pragmas every connection needs."""
    # timeout= is SQLite's busy timeout: wait for another writer, don't fail.
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
    db = sqlite_utils.Database(conn, recursive_triggers=False, execute_plugins=False)
    db.execute("PRAGMA foreign_keys = ON")
    # WAL survives a process crash intact; NORMAL skips the fsync per commit
    # that only guards against power loss (see README, "Trust").
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def init_db(path: str) -> None:
    """Create or migrate the schema in the file at path (run once, before serving)."""
    db = connect(path)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        migrations.apply(db)
    finally:
        db.close()


def get_db() -> sqlite_utils.Database:
    """Return this request's connection, opening it on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """Close this request's connection if one was opened."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    """Create the schema for app's DATABASE and close connections after each request."""
    init_db(app.config["DATABASE"])
    app.extensions["scorekeeper_game_cache"] = _GameCache()
    # While any connection is open, closing a request's connection is cheap: the
    # last one to close checkpoints and deletes the WAL (about 1 ms per request).
    keeper = sqlite3.connect(app.config["DATABASE"], check_same_thread=False)
    keeper.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    app.extensions["scorekeeper_wal_keeper"] = keeper
    weakref.finalize(app, keeper.close)
    app.teardown_appcontext(close_db)


@contextmanager
def _immediate(db: sqlite_utils.Database) -> Iterator[None]:
    """Run the block in a BEGIN IMMEDIATE transaction: read-then-write without races."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


# --- the replayed-game cache ---


class _GameCache:
    """Replayed engine Games keyed by (id, turn, updated_at): a key never comes back.

    A Game is taken out while in use (so no two threads touch it) and put back after.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[int, tuple[tuple[int, int, str], engine.Game]] = {}

    def take(self, key: tuple[int, int, str]) -> engine.Game | None:
        """Remove and return the Game stored under key, if any."""
        with self._lock:
            entry = self._games.pop(key[0], None)
        if entry is not None and entry[0] == key:
            return entry[1]
        return None

    def put(self, key: tuple[int, int, str], game: engine.Game) -> None:
        """Store game under key (dropping the oldest entry when full)."""
        with self._lock:
            self._games.pop(key[0], None)
            if len(self._games) >= CACHE_SIZE:
                self._games.pop(next(iter(self._games)))
            self._games[key[0]] = (key, game)

    def drop(self, game_id: int) -> None:
        """Forget whatever is stored for game_id."""
        with self._lock:
            self._games.pop(game_id, None)


def _cache() -> _GameCache:
    cache = current_app.extensions.get("scorekeeper_game_cache")
    if cache is None:
        cache = current_app.extensions["scorekeeper_game_cache"] = _GameCache()
    return cache


def release(row: GameRow) -> None:
    """Hand a loaded game back for reuse; call when done with row.game (optional)."""
    _cache().put(row.key, row.game)


# --- helpers ---


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _next_stamp(previous: str) -> str:
    """Return now, or just after previous when the clock has not moved past it."""
    now = _now()
    if now > previous:
        return now
    return (datetime.fromisoformat(previous) + timedelta(microseconds=1)).isoformat(
        timespec="microseconds"
    )


def name_key(name: str) -> str:
    """Return the key two names share when they are the same player."""
    return " ".join(name.split()).casefold()


def move_to_row_values(move: engine.Move) -> dict[str, Any]:
    """Return the moves-table columns describing an engine move."""
    tiles = [
        {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
        for t in move.tiles
    ]
    return {
        "player": move.player,
        "type": move.type,
        "tiles": json.dumps(tiles, separators=(",", ":")),
        "count": move.count or 0,
        "score": move.score,
        "end_bonus": move.end_bonus,
        "qwirkles": move.breakdown.qwirkles if move.breakdown is not None else 0,
    }


def move_dict_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """Return the CONTRACT §5 move dict a moves-table row stores."""
    if row["type"] == "place":
        return {"type": "place", "tiles": json.loads(row["tiles"])}
    if row["type"] == "trade":
        return {"type": "trade", "count": row["count"]}
    return {"type": row["type"]}


def _new_game(variant: engine.Variant, players: int, first_player: int) -> engine.Game:
    return engine.Game(variant, players=players, first_player=first_player)


def _game_from_rows(
    row: dict[str, Any], move_rows: Sequence[dict[str, Any]]
) -> engine.Game:
    variant = engine.Variant.from_dict(json.loads(row["variant"]))
    game = _new_game(variant, len(json.loads(row["players"])), row["first_player"])
    for move_row in move_rows:
        game.push(move_dict_from_row(move_row))
    return game


def _game_row(db: sqlite_utils.Database, game_id: int) -> dict[str, Any] | None:
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    return rows[0] if rows else None


def _load(db: sqlite_utils.Database, game_id: int) -> GameRow | None:
    """Build the GameRow for game_id: from the cache when current, else by replay."""
    row = _game_row(db, game_id)
    if row is None:
        return None
    key = (row["id"], row["move_count"], row["updated_at"])
    game = _cache().take(key)
    if game is None:
        move_rows = list(
            db.query("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", [game_id])
        )
        game = _game_from_rows(row, move_rows)
    return GameRow(
        id=row["id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        names=json.loads(row["players"]),
        variant=game.variant,
        first_player=row["first_player"],
        edit_token=row["edit_token"],
        game=game,
    )


def _refresh_summary(
    db: sqlite_utils.Database, game_id: int, game: engine.Game, stamp: str,
    finished_at: str | None,
) -> None:
    """Write the games summary columns and the game_players rows from game."""
    final = game.final
    db.execute(
        "UPDATE games SET updated_at = ?, status = ?, end_reason = ?, finished_at = ?,"
        " move_count = ?, scores = ? WHERE id = ?",
        [
            stamp,
            game.status,
            final.reason.value if final is not None else None,
            finished_at if final is not None else None,
            game.turn,
            json.dumps(list(game.scores)),
            game_id,
        ],
    )
    best = max(game.scores) if final is not None else None
    qwirkles = [0] * game.players
    turns = [0] * game.players
    best_seq: list[int | None] = [None] * game.players
    best_score = [0] * game.players
    for seq, move in enumerate(game.moves):
        seat = move.player
        turns[seat] += 1
        if move.breakdown is not None:
            qwirkles[seat] += move.breakdown.qwirkles
        if move.type == "place" and (best_seq[seat] is None
                                     or move.score > best_score[seat]):
            best_seq[seat], best_score[seat] = seq, move.score
    db.conn.executemany(
        "UPDATE game_players SET score = ?, is_winner = ?, qwirkles = ?, turns = ?,"
        " best_move_score = ?, best_move_seq = ? WHERE game_id = ? AND seat = ?",
        [
            (
                score,
                None if best is None else int(score == best),
                qwirkles[seat],
                turns[seat],
                best_score[seat],
                best_seq[seat],
                game_id,
                seat,
            )
            for seat, score in enumerate(game.scores)
        ],
    )


def _insert_moves(
    db: sqlite_utils.Database, game_id: int, moves: Sequence[engine.Move], start: int,
    stamp: str,
) -> None:
    for seq, move in enumerate(moves, start=start):
        values = move_to_row_values(move)
        db.execute(
            "INSERT INTO moves (game_id, seq, player, type, tiles, count, score,"
            " end_bonus, qwirkles, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                game_id, seq, values["player"], values["type"], values["tiles"],
                values["count"], values["score"], values["end_bonus"],
                values["qwirkles"], stamp,
            ],
        )


def _insert_game(
    db: sqlite_utils.Database, names: Sequence[str], game: engine.Game
) -> tuple[int, str]:
    """Insert a game with its moves and summary (in the caller's transaction)."""
    token = secrets.token_urlsafe(16)
    stamp = _now()
    cursor = db.execute(
        "INSERT INTO games (created_at, updated_at, players, variant, first_player,"
        " edit_token, scores) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            stamp, stamp, json.dumps(list(names), ensure_ascii=False),
            json.dumps(game.variant.to_dict()), game.first_player, token,
            json.dumps([0] * len(names)),
        ],
    )
    game_id = int(cursor.lastrowid)
    for seat, name in enumerate(names):
        db.execute(
            "INSERT INTO game_players (game_id, seat, name, name_key)"
            " VALUES (?, ?, ?, ?)",
            [game_id, seat, name, name_key(name)],
        )
    _insert_moves(db, game_id, game.moves, 0, stamp)
    _refresh_summary(db, game_id, game, stamp, stamp)
    _cache().put((game_id, game.turn, stamp), game)
    return game_id, token


# --- games ---


def create_game(
    players: Sequence[str], variant: engine.Variant | None = None, first_player: int = 0
) -> tuple[int, str]:
    """Store a new game and return (id, edit token); ValueError for a bad table."""
    game = _new_game(variant or engine.Variant(), len(players), first_player)
    db = get_db()
    with _immediate(db):
        return _insert_game(db, players, game)


def load_game(game_id: int) -> GameRow | None:
    """Return the stored game with its replayed engine Game, or None."""
    return _load(get_db(), game_id)


def _load_or_raise(db: sqlite_utils.Database, game_id: int) -> GameRow:
    row = _load(db, game_id)
    if row is None:
        raise GameNotFound(game_id)
    return row


def apply_move(
    game_id: int, move: dict[str, Any], expected_turn: int | None = None
) -> tuple[engine.Move, GameRow]:
    """Validate and store one move; return it and the updated game (BEGIN IMMEDIATE).

    Raises GameNotFound, TurnConflict (nothing stored) or engine.IllegalMove.
    """
    db = get_db()
    with _immediate(db):
        row = _load_or_raise(db, game_id)
        if expected_turn is not None and expected_turn != row.game.turn:
            release(row)
            raise TurnConflict(expected_turn, row.game.turn)
        try:
            played = row.game.push(move)
        except engine.IllegalMove:
            release(row)  # a refused move leaves the Game unchanged
            raise
        stamp = _next_stamp(row.updated_at)
        _insert_moves(db, game_id, [played], row.game.turn - 1, stamp)
        _refresh_summary(db, game_id, row.game, stamp, stamp)
    row.updated_at = stamp
    return played, row


def record_move(
    game_id: int, move: dict[str, Any], expected_turn: int | None = None
) -> engine.Move:
    """Validate and store one move and return it (see apply_move for the errors)."""
    played, row = apply_move(game_id, move, expected_turn)
    release(row)
    return played


def undo_last_move(game_id: int, expected_turn: int | None = None) -> GameRow:
    """Delete the last move (reopening a finished game) and return the game after it.

    Raises GameNotFound, TurnConflict or NothingToUndo.
    """
    db = get_db()
    with _immediate(db):
        row = _load_or_raise(db, game_id)
        if expected_turn is not None and expected_turn != row.game.turn:
            release(row)
            raise TurnConflict(expected_turn, row.game.turn)
        if not row.game.moves:
            release(row)
            raise NothingToUndo("there is no move to undo")
        stamp = _next_stamp(row.updated_at)
        # On a failure below the Game is not released, so the cache never sees it.
        row.game.pop()
        db.execute(
            "DELETE FROM moves WHERE game_id = ? AND seq = ?", [game_id, row.game.turn]
        )
        _refresh_summary(db, game_id, row.game, stamp, None)
    row.updated_at = stamp
    return row


def replace_moves(
    game_id: int, moves: Sequence[dict[str, Any]], expected_turn: int | None = None
) -> GameRow:
    """Replace a game's whole move list (to correct a past move); all or nothing.

    Replays every move first; raises engine.IllegalMove (with .move_number, 1-based,
    set on the exception), GameNotFound or TurnConflict and then stores nothing.
    """
    db = get_db()
    with _immediate(db):
        row = _load_or_raise(db, game_id)
        if expected_turn is not None and expected_turn != row.game.turn:
            release(row)
            raise TurnConflict(expected_turn, row.game.turn)
        game = _new_game(row.variant, len(row.names), row.first_player)
        for number, move in enumerate(moves, start=1):
            try:
                game.push(move)
            except engine.IllegalMove as exc:
                exc.move_number = number  # type: ignore[attr-defined]
                release(row)
                raise
        stamp = _next_stamp(row.updated_at)
        db.execute("DELETE FROM moves WHERE game_id = ?", [game_id])
        _insert_moves(db, game_id, game.moves, 0, stamp)
        _refresh_summary(db, game_id, game, stamp, stamp)
    row.game = game
    row.updated_at = stamp
    return row


def import_record(record: dict[str, Any]) -> tuple[int, str]:
    """Store a qwirkle-game/1 record as a new game; engine.RecordError if invalid."""
    game, names = engine.from_record(record)
    return store_game(names, game)


def store_game(names: Sequence[str], game: engine.Game) -> tuple[int, str]:
    """Store an engine Game (e.g. from a record) with its moves; return (id, token)."""
    db = get_db()
    with _immediate(db):
        return _insert_game(db, names, game)


def edit_token(game_id: int) -> str | None:
    """Return the game's edit token, or None when there is no such game."""
    rows = list(
        get_db().query("SELECT edit_token FROM games WHERE id = ?", [game_id])
    )
    return rows[0]["edit_token"] if rows else None


def export_record(row: GameRow) -> dict[str, Any]:
    """Return the qwirkle-game/1 record of a loaded game."""
    return engine.to_record(row.game, row.names)


def dump_record(record: dict[str, Any]) -> str:
    """Serialise a record as the corpus files are written (stable round trip)."""
    return engine.dumps_record(record)


def delete_game(game_id: int) -> bool:
    """Delete a game with its moves; return whether it existed."""
    db = get_db()
    with _immediate(db):
        cursor = db.execute("DELETE FROM games WHERE id = ?", [game_id])
    _cache().drop(game_id)
    return cursor.rowcount > 0


def rename_player(game_id: int, seat: int, name: str) -> None:
    """Rename the player in seat of game_id; raises GameNotFound or IndexError."""
    db = get_db()
    with _immediate(db):
        row = _game_row(db, game_id)
        if row is None:
            raise GameNotFound(game_id)
        names = json.loads(row["players"])
        if not 0 <= seat < len(names):
            raise IndexError(f"no seat {seat} in game {game_id}")
        names[seat] = name
        db.execute(
            "UPDATE games SET players = ? WHERE id = ?",
            [json.dumps(names, ensure_ascii=False), game_id],
        )
        db.execute(
            "UPDATE game_players SET name = ?, name_key = ?"
            " WHERE game_id = ? AND seat = ?",
            [name, name_key(name), game_id, seat],
        )


def list_games(
    status: str | None = None, limit: int = 50, offset: int = 0
) -> list[dict[str, Any]]:
    """Return game summaries, most recently updated first (no replay).

    Each: id, created_at, updated_at, players (names), variant (dict), status,
    end_reason, finished_at, move_count, scores.
    """
    where, params = "", []
    if status is not None:
        where, params = "WHERE status = ?", [status]
    rows = get_db().query(
        "SELECT id, created_at, updated_at, players, variant, first_player, status,"
        f" end_reason, finished_at, move_count, scores FROM games {where}"
        " ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    out = []
    for row in rows:
        row["players"] = json.loads(row["players"])
        row["variant"] = json.loads(row["variant"])
        row["scores"] = json.loads(row["scores"])
        out.append(row)
    return out


def count_games(status: str | None = None) -> int:
    """Return how many games are stored (with that status, when given)."""
    if status is None:
        rows = get_db().query("SELECT count(*) AS n FROM games")
    else:
        rows = get_db().query(
            "SELECT count(*) AS n FROM games WHERE status = ?", [status]
        )
    return int(next(iter(rows))["n"])
