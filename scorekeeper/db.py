"""All data access: the SQLite schema and named functions for views (no SQL there).

The moves table is the source of truth; `games` and `game_players` carry a summary that
every write refreshes in the same transaction, so history lists never replay games.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

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
    memo: dict[str, Any] = field(default_factory=dict)
    """Values derived from game's moves (see per_move); cached along with game."""

    @property
    def key(self) -> tuple[int, int, str]:
        """The cache key: changes on every write to this game."""
        return (self.id, self.game.turn, self.updated_at)


# --- connections and schema ---

#: The tables of the first migration (app-plan schema).
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


migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    """Create the games, moves and game_players tables."""
    # One statement at a time: executescript() would COMMIT the migration's
    # transaction half-way.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


def connect(path: str, *, check_same_thread: bool = True) -> sqlite_utils.Database:
    """Open the database file with the pragmas every connection needs."""
    # timeout= is SQLite's busy timeout: wait for another writer, don't fail.
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=check_same_thread
    )
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


class _HeldConnections(dict[str, sqlite_utils.Database]):
    """One thread's connections by database path; closed when the thread ends.

    A sqlite3 connection that is only garbage-collected, never closed, keeps its
    file handles open (measured: two per connection), so the thread-local storage
    going away closes them explicitly. A forked child leaves its parent's alone.
    """

    def __init__(self) -> None:
        super().__init__()
        self.pid = os.getpid()

    def __del__(self) -> None:
        if os.getpid() == self.pid:
            for db in self.values():
                db.close()


_INHERITED: list[_HeldConnections] = []
"""Connections a forked child inherited from its parent (never touched)."""


class _ThreadConnections:
    """One connection per worker thread and database file, reused by its requests.

    Opening a connection and setting its pragmas took about a third of a move's
    server time. ECOSYSTEM pitfall 7 still holds: a connection stays in the thread
    that opened it (threading.local; never handed to another thread), and teardown
    rolls back whatever transaction a request left open, so the next request starts
    clean. A thread's connections close when the thread ends (its local storage
    goes) or when the app goes (close_all); a forked child opens its own.
    """

    def __init__(self) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        # Every connection opened, for close_all; weak so a finished thread's go.
        self._opened: weakref.WeakSet[sqlite_utils.Database] = weakref.WeakSet()

    def get(self, path: str) -> sqlite_utils.Database:
        """Return this thread's connection to path, opening it on first use."""
        local = self._local
        dbs = getattr(local, "dbs", None)
        if dbs is None or dbs.pid != os.getpid():
            if dbs is not None:
                # A forked child must neither use nor close its parent's SQLite
                # handles: they are kept, untouched, until the child exits.
                _INHERITED.append(dbs)
            dbs = local.dbs = _HeldConnections()
        db = dbs.get(path)
        if db is None:
            # check_same_thread=False only so that close_all may close it at exit;
            # it is still used by this thread alone.
            db = dbs[path] = connect(path, check_same_thread=False)
            with self._lock:
                self._opened.add(db)
        return db

    def discard(self, path: str) -> None:
        """Close this thread's connection to path; the next use opens a new one."""
        dbs = getattr(self._local, "dbs", None)
        db = dbs.pop(path, None) if dbs is not None else None
        if db is not None:
            with self._lock:
                self._opened.discard(db)
            db.close()

    def close_all(self) -> None:
        """Close every connection still open (the app is going away)."""
        with self._lock:
            dbs = list(self._opened)
            self._opened.clear()
            # Any later use (there should be none) opens afresh.
            self._local = threading.local()
        for db in dbs:
            db.close()


def _connections() -> _ThreadConnections:
    pool: _ThreadConnections = current_app.extensions["scorekeeper_connections"]
    return pool


def get_db() -> sqlite_utils.Database:
    """Return this request's connection (this thread's, reused across requests)."""
    if "db" not in g:
        g.db = _connections().get(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """End this request's use of the connection, rolling back an unfinished write.

    After an unhandled error the connection is closed instead: a cursor the error
    left unfinished would keep an old read snapshot for the thread's next request.
    """
    db = g.pop("db", None)
    if db is None:
        return
    if exc is None:
        try:
            if db.conn.in_transaction:
                db.conn.rollback()
            return
        except sqlite3.Error:
            pass  # a connection that cannot roll back is not reused
    _connections().discard(current_app.config["DATABASE"])


def init_app(app: Flask) -> None:
    """Create the schema for app's DATABASE; release connections after each request."""
    init_db(app.config["DATABASE"])
    app.extensions["scorekeeper_game_cache"] = _GameCache()
    pool = app.extensions["scorekeeper_connections"] = _ThreadConnections()
    weakref.finalize(app, pool.close_all)
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
        self._games: dict[
            int, tuple[tuple[int, int, str], engine.Game, dict[str, Any]]
        ] = {}

    def take(
        self, key: tuple[int, int, str]
    ) -> tuple[engine.Game, dict[str, Any]] | None:
        """Remove and return the Game stored under key with its memo, if any."""
        with self._lock:
            entry = self._games.pop(key[0], None)
        if entry is not None and entry[0] == key:
            return entry[1], entry[2]
        return None

    def put(
        self, key: tuple[int, int, str], game: engine.Game,
        memo: dict[str, Any] | None = None,
    ) -> None:
        """Store game and its memo under key (dropping the oldest entry when full)."""
        with self._lock:
            self._games.pop(key[0], None)
            if len(self._games) >= CACHE_SIZE:
                self._games.pop(next(iter(self._games)))
            self._games[key[0]] = (key, game, memo if memo is not None else {})

    def drop(self, game_id: int) -> None:
        """Forget whatever is stored for game_id."""
        with self._lock:
            self._games.pop(game_id, None)


def _cache() -> _GameCache:
    cache: _GameCache = current_app.extensions["scorekeeper_game_cache"]
    return cache


def release(row: GameRow) -> None:
    """Hand a loaded game back for reuse; call when done with row.game (optional)."""
    _cache().put(row.key, row.game, row.memo)


_T = TypeVar("_T")


def per_move(
    row: GameRow, name: str, build: Callable[[engine.Move, _T | None], _T]
) -> list[_T]:
    """Return build(move, previous value) for each move of row.game, memoised.

    Values are kept in row.memo (cached with the game) and reused only for the
    moves they were built from: the engine makes a new Move for every move played,
    so after an undo, a correction or a replay nothing stale survives. build sees
    the value of the move before (None for the first), for running totals.
    """
    return _memoised(row.memo, row.game.moves, name, build)


def _memoised(
    memo: dict[str, Any], moves: list[engine.Move], name: str,
    build: Callable[[engine.Move, _T | None], _T],
) -> list[_T]:
    entry = memo.get(name)
    if entry is None:
        entry = memo[name] = ([], [])
    seen, values = entry
    keep = len(seen)
    # One C-speed comparison in the usual case (moves only appended). It checks
    # identity first, then equality, which is as good: a value depends only on
    # the move's fields and those before it.
    if keep > len(moves) or seen != moves[:keep]:
        keep = 0
        for old, new in zip(seen, moves, strict=False):
            if old is not new:
                break
            keep += 1
        del seen[keep:], values[keep:]
    previous = values[-1] if values else None
    for move in moves[keep:]:
        previous = build(move, previous)
        seen.append(move)
        values.append(previous)
    return values


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
    tiles = move.to_dict().get("tiles", [])
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
    # The sqlite3 connection directly: db.query() wraps each SELECT in a savepoint,
    # two more statements on the path of every move.
    cursor = db.conn.execute("SELECT * FROM games WHERE id = ?", [game_id])
    rows = cursor.fetchall()
    if not rows:
        return None
    names = [column[0] for column in cursor.description]
    return dict(zip(names, rows[0], strict=True))


def _load(db: sqlite_utils.Database, game_id: int) -> GameRow | None:
    """Build the GameRow for game_id: from the cache when current, else by replay."""
    row = _game_row(db, game_id)
    if row is None:
        return None
    key = (row["id"], row["move_count"], row["updated_at"])
    cached = _cache().take(key)
    if cached is None:
        move_rows = list(
            db.query("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", [game_id])
        )
        game, memo = _game_from_rows(row, move_rows), {}
    else:
        game, memo = cached
    return GameRow(
        id=row["id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        names=json.loads(row["players"]),
        variant=game.variant,
        first_player=row["first_player"],
        edit_token=row["edit_token"],
        game=game,
        memo=memo,
    )


_SeatTotals = tuple[
    int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int | None, ...]
]
"""After a move: its seq, and per seat qwirkles, turns, best move score and seq."""


def _seat_totals(
    move: engine.Move, previous: _SeatTotals | None, players: int
) -> _SeatTotals:
    """Return the game_players totals after move, from those before it."""
    if previous is None:
        seq, qwirkles, turns = 0, [0] * players, [0] * players
        best_score: list[int] = [0] * players
        best_seq: list[int | None] = [None] * players
    else:
        seq = previous[0] + 1
        qwirkles, turns, best_score, best_seq = (list(v) for v in previous[1:])
    seat = move.player
    turns[seat] += 1
    if move.breakdown is not None:
        qwirkles[seat] += move.breakdown.qwirkles
    if move.type == "place" and (best_seq[seat] is None
                                 or move.score > best_score[seat]):
        best_seq[seat], best_score[seat] = seq, move.score
    return seq, tuple(qwirkles), tuple(turns), tuple(best_score), tuple(best_seq)


def _refresh_summary(
    db: sqlite_utils.Database, game_id: int, game: engine.Game, stamp: str,
    finished_at: str | None, memo: dict[str, Any] | None = None,
) -> None:
    """Write the games summary columns and the game_players rows from game.

    memo, the GameRow's when game is row.game, keeps the running per-seat totals
    so that a move adds one step instead of walking the whole game again.
    """
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
    players = game.players
    totals = _memoised(
        {} if memo is None else memo, game.moves, "db.seat_totals",
        lambda move, previous: _seat_totals(move, previous, players),
    )
    if totals:
        _seq, qwirkles, turns, best_score, best_seq = totals[-1]
    else:
        qwirkles = turns = best_score = (0,) * players
        best_seq = (None,) * players
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
    db.conn.executemany(
        "INSERT INTO game_players (game_id, seat, name, name_key) VALUES (?, ?, ?, ?)",
        [(game_id, seat, name, name_key(name)) for seat, name in enumerate(names)],
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


def _load_to_change(
    db: sqlite_utils.Database, game_id: int, expected_turn: int | None
) -> GameRow:
    """Return the game a write will change; GameNotFound, or TurnConflict (released)."""
    row = _load(db, game_id)
    if row is None:
        raise GameNotFound(game_id)
    if expected_turn is not None and expected_turn != row.game.turn:
        release(row)
        raise TurnConflict(expected_turn, row.game.turn)
    return row


def apply_move(
    game_id: int, move: dict[str, Any], expected_turn: int | None = None
) -> tuple[engine.Move, GameRow]:
    """Validate and store one move; return it and the updated game (BEGIN IMMEDIATE).

    Raises GameNotFound, TurnConflict (nothing stored) or engine.IllegalMove.
    """
    db = get_db()
    with _immediate(db):
        row = _load_to_change(db, game_id, expected_turn)
        try:
            played = row.game.push(move)
        except engine.IllegalMove:
            release(row)  # a refused move leaves the Game unchanged
            raise
        stamp = _next_stamp(row.updated_at)
        _insert_moves(db, game_id, [played], row.game.turn - 1, stamp)
        _refresh_summary(db, game_id, row.game, stamp, stamp, row.memo)
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
        row = _load_to_change(db, game_id, expected_turn)
        if not row.game.moves:
            release(row)
            raise NothingToUndo("there is no move to undo")
        stamp = _next_stamp(row.updated_at)
        # On a failure below the Game is not released, so the cache never sees it.
        row.game.pop()
        db.execute(
            "DELETE FROM moves WHERE game_id = ? AND seq = ?", [game_id, row.game.turn]
        )
        _refresh_summary(db, game_id, row.game, stamp, None, row.memo)
    row.updated_at = stamp
    return row


def replace_moves(
    game_id: int, moves: Sequence[dict[str, Any]], expected_turn: int | None = None
) -> GameRow:
    """Replace a game's whole move list (to correct a past move); all or nothing.

    Replays every move first; raises engine.IllegalMove (with .move_number, 1-based,
    set on the exception), GameNotFound or TurnConflict and then stores nothing.
    Moves are matched by position: an unchanged move keeps its timestamp (so a
    game's duration survives a correction), a changed one gets the current time.
    """
    db = get_db()
    with _immediate(db):
        row = _load_to_change(db, game_id, expected_turn)
        old = list(
            db.query(
                "SELECT seq, player, type, tiles, count, created_at FROM moves"
                " WHERE game_id = ? ORDER BY seq",
                [game_id],
            )
        )
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
        for seq, played in enumerate(game.moves):
            values = move_to_row_values(played)
            kept = (
                seq < len(old)
                and old[seq]["type"] == values["type"]
                and old[seq]["tiles"] == values["tiles"]
                and old[seq]["count"] == values["count"]
            )
            when = old[seq]["created_at"] if kept else stamp
            _insert_moves(db, game_id, [played], seq, when)
        previous_finish = next(
            iter(db.query("SELECT finished_at FROM games WHERE id = ?", [game_id]))
        )["finished_at"]
        _refresh_summary(db, game_id, game, stamp, previous_finish or stamp)
    row.game, row.memo = game, {}
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
    # Directly on the connection: checked before every write, no savepoint needed.
    rows = get_db().conn.execute(
        "SELECT edit_token FROM games WHERE id = ?", [game_id]
    ).fetchall()
    return rows[0][0] if rows else None


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
        # A new updated_at tells every cache and viewer (ETag) that the game changed.
        db.execute(
            "UPDATE games SET players = ?, updated_at = ? WHERE id = ?",
            [json.dumps(names, ensure_ascii=False), _next_stamp(row["updated_at"]),
             game_id],
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


# --- history and statistics ---
# Queries of the history, replay, statistics and backup pages (HISTORY helper).
# They read the summary columns (games.status/scores/move_count and the
# game_players rows) so that no list or statistic replays a game.


@migrations()
def m100_history_indexes(db: sqlite_utils.Database) -> None:
    """Add the indexes the history list and the player statistics rely on."""
    # Newest-first history pages walk this index instead of sorting all games.
    db.execute("CREATE INDEX IF NOT EXISTS games_created_at ON games(created_at, id)")
    # A player's statistics read only their own rows, covered by this index.
    db.execute(
        "CREATE INDEX IF NOT EXISTS game_players_stats ON game_players("
        "name_key, is_winner, score, qwirkles, turns, best_move_score)"
    )


def _like_pattern(text: str) -> str:
    """Return a LIKE pattern matching text anywhere, with wildcards escaped."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def history_page(
    search: str | None = None, page: int = 1, per_page: int = 25
) -> tuple[list[dict[str, Any]], int]:
    """Return one page of games, newest first, and how many games match.

    search matches any part of a player's name (case-insensitive). Each row has
    id, created_at, finished_at, status, end_reason, move_count, variant (dict),
    first_player, players (list of {seat, name, score, is_winner, qwirkles}),
    first_move_at and last_move_at.
    """
    db = get_db()
    where, params = "", []
    if search and search.strip():
        where = (
            "WHERE id IN (SELECT game_id FROM game_players"
            " WHERE name_key LIKE ? ESCAPE '\\')"
        )
        params = [_like_pattern(name_key(search))]
    counted = db.query(f"SELECT count(*) AS n FROM games {where}", params)
    total = int(next(iter(counted))["n"])
    page = max(1, page)
    rows = list(
        db.query(
            "SELECT id, created_at, finished_at, status, end_reason, move_count,"
            f" variant, first_player FROM games {where}"
            " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [*params, per_page, (page - 1) * per_page],
        )
    )
    ids = [row["id"] for row in rows]
    seats = game_players_for(ids)
    spans = move_spans(ids)
    for row in rows:
        row["variant"] = json.loads(row["variant"])
        row["players"] = seats.get(row["id"], [])
        row["first_move_at"], row["last_move_at"] = spans.get(row["id"], (None, None))
    return rows, total


def game_players_for(game_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Return the game_players rows of the given games, by game id in seat order."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    out: dict[int, list[dict[str, Any]]] = {}
    for row in get_db().query(
        "SELECT game_id, seat, name, score, is_winner, qwirkles, turns,"
        f" best_move_score, best_move_seq FROM game_players WHERE game_id IN ({marks})"
        " ORDER BY game_id, seat",
        list(game_ids),
    ):
        out.setdefault(row["game_id"], []).append(row)
    return out


def move_spans(game_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
    """Return (first, last) move timestamps of the given games (games with moves)."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    return {
        row["game_id"]: (row["first"], row["last"])
        for row in get_db().query(
            "SELECT game_id, min(created_at) AS first, max(created_at) AS last"
            f" FROM moves WHERE game_id IN ({marks}) GROUP BY game_id",
            list(game_ids),
        )
    }


def move_times(game_id: int) -> list[str]:
    """Return the stored timestamp of each move of a game, in order."""
    return [
        row["created_at"]
        for row in get_db().query(
            "SELECT created_at FROM moves WHERE game_id = ? ORDER BY seq", [game_id]
        )
    ]


_PLAYER_AGGREGATES = """
    count(*) AS games,
    count(is_winner) AS finished,
    coalesce(sum(is_winner), 0) AS wins,
    avg(CASE WHEN is_winner IS NOT NULL THEN score END) AS avg_score,
    max(CASE WHEN is_winner IS NOT NULL THEN score END) AS best_score,
    sum(qwirkles) AS qwirkles,
    sum(turns) AS turns,
    sum(score) AS points,
    max(best_move_score) AS best_move_score
"""


def player_summaries() -> list[dict[str, Any]]:
    """Return every player name's totals, most games first.

    Each: name_key, name (as last written), games, finished, wins, avg_score,
    best_score, qwirkles, turns, points, best_move_score. Wins, averages and bests
    count finished games only (is_winner is NULL while a game runs).
    """
    rows = get_db().query(
        f"SELECT name_key, max(name) AS name, {_PLAYER_AGGREGATES}"
        " FROM game_players GROUP BY name_key ORDER BY games DESC, name_key"
    )
    return list(rows)


def player_summary(name: str) -> dict[str, Any] | None:
    """Return one player's totals (as player_summaries) plus their best move, or None.

    best_move is {game_id, seq, score} of their highest-scoring placing move.
    """
    key = name_key(name)
    db = get_db()
    row = next(
        iter(
            db.query(
                f"SELECT {_PLAYER_AGGREGATES} FROM game_players WHERE name_key = ?",
                [key],
            )
        )
    )
    if not row["games"]:
        return None
    row["name_key"] = key
    best = list(
        db.query(
            "SELECT game_id, best_move_seq AS seq, best_move_score AS score"
            " FROM game_players WHERE name_key = ? AND best_move_seq IS NOT NULL"
            " ORDER BY best_move_score DESC, game_id LIMIT 1",
            [key],
        )
    )
    row["best_move"] = best[0] if best else None
    names = list(
        db.query(
            "SELECT name FROM game_players WHERE name_key = ?"
            " ORDER BY game_id DESC LIMIT 1",
            [key],
        )
    )
    row["name"] = names[0]["name"]
    return row


def player_games(name: str, limit: int = 20) -> list[dict[str, Any]]:
    """Return a player's most recent games: id, created_at, status, seat, score,
    is_winner and the players of each game."""
    rows = list(
        get_db().query(
            "SELECT g.id, g.created_at, g.status, g.end_reason, p.seat, p.score,"
            " p.is_winner FROM game_players p JOIN games g ON g.id = p.game_id"
            " WHERE p.name_key = ? ORDER BY g.created_at DESC, g.id DESC LIMIT ?",
            [name_key(name), limit],
        )
    )
    seats = game_players_for([row["id"] for row in rows])
    for row in rows:
        row["players"] = seats.get(row["id"], [])
    return rows


def head_to_head(a: str, b: str, limit: int = 20) -> dict[str, Any]:
    """Return the finished games two players played together and how they fared.

    Keys: games, wins_a, wins_b (ties count as a win for each winner), ahead_a,
    ahead_b (finished above the other), avg_a, avg_b, recent (list of rows:
    id, created_at, score_a, score_b, winner_a, winner_b).
    """
    key_a, key_b = name_key(a), name_key(b)
    db = get_db()
    join = (
        " FROM game_players pa JOIN game_players pb"
        " ON pb.game_id = pa.game_id AND pb.seat != pa.seat"
        " WHERE pa.name_key = ? AND pb.name_key = ? AND pa.is_winner IS NOT NULL"
    )
    totals = next(
        iter(
            db.query(
                "SELECT count(*) AS games, coalesce(sum(pa.is_winner), 0) AS wins_a,"
                " coalesce(sum(pb.is_winner), 0) AS wins_b,"
                " coalesce(sum(pa.score > pb.score), 0) AS ahead_a,"
                " coalesce(sum(pb.score > pa.score), 0) AS ahead_b,"
                f" avg(pa.score) AS avg_a, avg(pb.score) AS avg_b {join}",
                [key_a, key_b],
            )
        )
    )
    totals["recent"] = list(
        db.query(
            "SELECT pa.game_id AS id, g.created_at, pa.score AS score_a,"
            " pb.score AS score_b, pa.is_winner AS winner_a, pb.is_winner AS winner_b"
            f" {join.replace(' WHERE', ' JOIN games g ON g.id = pa.game_id WHERE')}"
            " ORDER BY g.created_at DESC, g.id DESC LIMIT ?",
            [key_a, key_b, limit],
        )
    )
    return totals


def iter_backup_games() -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Yield (games row, move rows in order) for every game, oldest first."""
    db = get_db()
    game_rows = list(
        db.query(
            "SELECT id, created_at, updated_at, players, variant, first_player,"
            " status, end_reason, finished_at, scores FROM games ORDER BY id"
        )
    )
    chunk = 500
    for start in range(0, len(game_rows), chunk):
        part = game_rows[start : start + chunk]
        marks = ",".join("?" * len(part))
        moves: dict[int, list[dict[str, Any]]] = {}
        for row in db.query(
            "SELECT game_id, seq, player, type, tiles, count, score, end_bonus,"
            f" created_at FROM moves WHERE game_id IN ({marks}) ORDER BY game_id, seq",
            [row["id"] for row in part],
        ):
            moves.setdefault(row["game_id"], []).append(row)
        for row in part:
            yield row, moves.get(row["id"], [])


def restore_games(
    items: Sequence[Any], *, keep_cache: bool = False
) -> list[int]:
    """Store validated games (backup.RestoredGame-like) in one transaction; all or none.

    Each item has .names, .game (replayed engine Game), .created_at, .updated_at,
    .finished_at and .move_times (None to use one timestamp for all). Returns the
    new ids in order.
    """
    db = get_db()
    ids: list[int] = []
    with _immediate(db):
        for item in items:
            game = item.game
            created = item.created_at or _now()
            updated = item.updated_at or created
            cursor = db.execute(
                "INSERT INTO games (created_at, updated_at, players, variant,"
                " first_player, edit_token, scores) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    created, updated, json.dumps(list(item.names), ensure_ascii=False),
                    json.dumps(game.variant.to_dict()), game.first_player,
                    secrets.token_urlsafe(16), json.dumps([0] * len(item.names)),
                ],
            )
            game_id = int(cursor.lastrowid or 0)
            db.conn.executemany(
                "INSERT INTO game_players (game_id, seat, name, name_key)"
                " VALUES (?, ?, ?, ?)",
                [(game_id, seat, n, name_key(n)) for seat, n in enumerate(item.names)],
            )
            times = item.move_times or [updated] * len(game.moves)
            rows = []
            for seq, (move, stamp) in enumerate(zip(game.moves, times, strict=True)):
                v = move_to_row_values(move)
                rows.append((
                    game_id, seq, v["player"], v["type"], v["tiles"], v["count"],
                    v["score"], v["end_bonus"], v["qwirkles"], stamp or updated,
                ))
            db.conn.executemany(
                "INSERT INTO moves (game_id, seq, player, type, tiles, count, score,"
                " end_bonus, qwirkles, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
            _refresh_summary(db, game_id, game, updated, item.finished_at or updated)
            ids.append(game_id)
    return ids
