"""Stored games replayed into engine Games, cached, and lent out one `with` at a time.

A reader holds a game only inside `with loaded(game_id) as row:`; the game is
taken out of the cache for the block (no two threads touch one Game) and put
back after it. The cache key (id, turn, updated_at) changes on every write, so
a game another process changed is never served stale: when only moves were
added since (games.revision unchanged: no undo, no correction), the cached game
takes the new moves from the moves table; otherwise it is replayed afresh. The
games row and the moves are read in one snapshot.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import sqlite_utils
from flask import Flask, current_app

from .. import engine
from .connection import get_db

CACHE_SIZE = 64
"""Replayed games kept per process; a table rarely has more than a few running."""

MAX_GAME_ID = 2**63 - 1
"""SQLite's largest integer; a bigger id names no game."""

Key = tuple[int, int, str]
"""A cache key: (game id, turn, updated_at)."""


class GameNotFound(LookupError):
    """No game with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


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
    revision: int = 0
    """games.revision: changes when stored moves are taken back or rewritten."""
    fingerprint: str = ""
    """The content fingerprint as stored (store.fingerprints), read with the row."""
    pin: str = ""
    """The game PIN that gives a device the right to edit back (read with the row)."""

    @property
    def key(self) -> Key:
        """The cache key: changes on every write to this game."""
        return (self.id, self.game.turn, self.updated_at)


@dataclass
class _Entry:
    """A cached game: its key, revision, Game and memo."""

    key: Key
    revision: int
    game: engine.Game
    memo: dict[str, Any]


class _GameCache:
    """Replayed engine Games by game id, each under the key it was stored with.

    A Game is taken out while in use (so no two threads touch it) and put back after.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[int, _Entry] = {}

    def take(self, game_id: int) -> _Entry | None:
        """Remove and return whatever is stored for game_id (any key), if anything."""
        with self._lock:
            return self._games.pop(game_id, None)

    def put(self, entry: _Entry) -> None:
        """Store an entry (dropping the oldest entry when full)."""
        with self._lock:
            self._games.pop(entry.key[0], None)
            if len(self._games) >= CACHE_SIZE:
                self._games.pop(next(iter(self._games)))
            self._games[entry.key[0]] = entry

    def drop(self, game_id: int) -> None:
        """Forget whatever is stored for game_id."""
        with self._lock:
            self._games.pop(game_id, None)


def init_app(app: Flask) -> None:
    """Give app its game cache."""
    app.extensions["scorekeeper_game_cache"] = _GameCache()


def _cache() -> _GameCache:
    # The app taken from Flask's proxy, then read as a plain object (a move
    # asks twice: benchmarks/bench_api.py).
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cache: _GameCache = app.extensions["scorekeeper_game_cache"]
    return cache


def forget(game_id: int) -> None:
    """Drop a game from the cache (it was deleted)."""
    _cache().drop(game_id)


def keep(row: GameRow) -> None:
    """Put a game the store has just written into the cache under its new key."""
    _cache().put(_Entry(row.key, row.revision, row.game, row.memo))


def move_dict(row: dict[str, Any]) -> dict[str, Any]:
    """Return the CONTRACT §5 move dict a moves-table row stores (with its
    penalty reason and thinking time, CONTRACT §10, and a leave's seat)."""
    kind = row["type"]
    if kind == "place":
        move = {"type": "place", "tiles": json.loads(row["tiles"])}
    elif kind == "trade":
        move = {"type": "trade", "count": row["count"]}
    elif kind == "penalty":
        move = {"type": "penalty", "reason": row.get("reason")}
    elif kind == "leave":
        # A leave is anyone's (RULES §7.5): the only move that names its seat.
        move = {"type": "leave", "player": row["player"]}
    else:
        move = {"type": kind}
    if row.get("seconds") is not None:
        move["seconds"] = row["seconds"]
    return move


def options_of(stored: str | None) -> engine.Options:
    """Return the table discipline a games row stores (NULL: the defaults)."""
    return engine.Options.from_dict(json.loads(stored) if stored else None)


def options_column(options: engine.Options) -> str | None:
    """Return the games.options value of these options (NULL for the defaults)."""
    return None if options.is_default else json.dumps(options.to_dict())


def replay(
    variant: engine.Variant, players: int, first_player: int,
    moves: Sequence[dict[str, Any]], options: engine.Options | None = None,
) -> engine.Game:
    """Return a new Game with the given moves pushed (engine errors propagate)."""
    # A game stored before the move limit existed still opens (it takes no
    # further move); every new game stops at engine.MAX_MOVES.
    game = engine.Game(
        variant, players=players, first_player=first_player, options=options,
        max_moves=max(engine.MAX_MOVES, len(moves)),
    )
    for move in moves:
        game.push(move)
    return game


_ROW_COLUMNS = (
    "id", "created_at", "updated_at", "players", "variant", "first_player",
    "edit_token", "end_reason", "move_count", "options", "fingerprint", "pin",
    "revision",
)
"""The games columns a stored game is read with (take): its key, what a
replay needs and what GameRow holds."""

_ROW_QUERY = f"SELECT {', '.join(_ROW_COLUMNS)} FROM games WHERE id = ?"


def game_record_row(db: sqlite_utils.Database, game_id: int) -> dict[str, Any] | None:
    """Return the _ROW_COLUMNS of game_id's games row as a dict, or None."""
    # The sqlite3 connection directly: db.query() wraps each SELECT in a savepoint,
    # two more statements on the path of every move. The columns named, not *:
    # the cursor's description was worked out again on every read.
    rows = db.conn.execute(_ROW_QUERY, [game_id]).fetchall()
    return dict(zip(_ROW_COLUMNS, rows[0], strict=True)) if rows else None


def _stored_moves(
    db: sqlite_utils.Database, game_id: int, start: int = 0
) -> list[dict[str, Any]]:
    """Return the game's stored moves from seq `start` on, as move dicts."""
    rows = db.conn.execute(
        "SELECT type, tiles, count, reason, seconds, player FROM moves"
        " WHERE game_id = ? AND seq >= ? ORDER BY seq",
        [game_id, start],
    ).fetchall()
    return [
        move_dict({"type": t, "tiles": ts, "count": c, "reason": r, "seconds": sec,
                   "player": seat})
        for t, ts, c, r, sec, seat in rows
    ]


def _closed(game: engine.Game, row: dict[str, Any]) -> engine.Game:
    """Return game closed as the row says (the table ended or abandoned it)."""
    reason = row.get("end_reason")
    if reason in engine.CLOSING and game.final is None:
        game.close(reason)
    return game


def _brought_up_to_date(
    db: sqlite_utils.Database, row: dict[str, Any], entry: _Entry | None
) -> tuple[engine.Game, dict[str, Any]]:
    """Return the stored game: the cached one with the moves added since, or a replay.

    Call inside a transaction, so that row and the moves come from one snapshot.
    Closing or reopening a game changes its revision, so a cached game is closed
    as the row says only after a replay.
    """
    game_id = row["id"]
    if (entry is not None and entry.revision == row["revision"]
            and entry.game.turn <= row["move_count"]):
        game = entry.game
        turn = game.turn
        added = _stored_moves(db, game_id, turn)
        try:
            for move in added:
                game.push(move)
        except engine.EngineError:
            pass  # not expected: replay below
        else:
            if game.turn == row["move_count"]:
                return _closed(game, row), entry.memo
    names = json.loads(row["players"])
    variant = engine.Variant.from_dict(json.loads(row["variant"]))
    game = replay(
        variant, len(names), row["first_player"], _stored_moves(db, game_id),
        options_of(row["options"]),
    )
    return _closed(game, row), {}


def take(db: sqlite_utils.Database, game_id: int) -> GameRow:
    """Take the game out of the cache, or bring it up to date; GameNotFound."""
    row = game_record_row(db, game_id) if 0 <= game_id <= MAX_GAME_ID else None
    if row is None:
        raise GameNotFound(game_id)
    key = (row["id"], row["move_count"], row["updated_at"])
    entry = _cache().take(game_id)
    if entry is not None and entry.key == key and entry.revision == row["revision"]:
        game, memo = entry.game, entry.memo
    else:
        # Another process wrote (or the game was never read here): read the row
        # again with the moves in one snapshot, unless a write already holds one.
        own = not db.conn.in_transaction
        if own:
            db.conn.execute("BEGIN")
        try:
            if own:
                row = game_record_row(db, game_id)
                if row is None:
                    raise GameNotFound(game_id)
            game, memo = _brought_up_to_date(db, row, entry)
        finally:
            if own and db.conn.in_transaction:
                db.conn.execute("COMMIT")
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
        revision=row["revision"],
        fingerprint=row.get("fingerprint") or "",
        pin=row.get("pin") or "",
    )


def version(game_id: int) -> tuple[int, str]:
    """Return the stored game's (turn, updated_at), which every write changes.

    One indexed read, no game: enough to answer a viewer's poll with 304.
    GameNotFound when there is no such game.
    """
    found = get_db().conn.execute(
        "SELECT move_count, updated_at FROM games WHERE id = ?", [game_id]
    ).fetchone() if 0 <= game_id <= MAX_GAME_ID else None
    if found is None:
        raise GameNotFound(game_id)
    return int(found[0]), str(found[1])


def change_key(game_id: int) -> str:
    """Return a key of the stored game that every write changes: its turn,
    updated_at and revision (an undo, a correction, closing or reopening).

    One indexed read, no game: the table view's stream asks it twice a second.
    GameNotFound when there is no such game.
    """
    found = get_db().conn.execute(
        "SELECT move_count, updated_at, revision FROM games WHERE id = ?", [game_id]
    ).fetchone() if 0 <= game_id <= MAX_GAME_ID else None
    if found is None:
        raise GameNotFound(game_id)
    return f"{found[0]}-{found[1]}-{found[2]}"


@contextmanager
def taken(db: sqlite_utils.Database, game_id: int) -> Iterator[GameRow]:
    """Lend the game for the block, then put it back under its (new) key.

    When the block fails, the game goes back only if it is the same Game at the
    same turn (a refused move leaves it as it was); one left half-changed is
    dropped, and the next use replays it from the moves table.
    """
    row = take(db, game_id)
    game, turn = row.game, row.game.turn
    try:
        yield row
    except BaseException:
        if row.game is game and game.turn == turn:
            keep(row)
        raise
    keep(row)


@contextmanager
def loaded(game_id: int) -> Iterator[GameRow]:
    """Lend the stored game for a `with` block (GameNotFound when there is none)."""
    with taken(get_db(), game_id) as row:
        yield row


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
    return memoised(row.memo, row.game.moves, name, build)


def memoised(
    memo: dict[str, Any], moves: list[engine.Move], name: str,
    build: Callable[[engine.Move, _T | None], _T],
) -> list[_T]:
    """Return build(move, previous) for each of moves, reusing memo[name]."""
    entry: tuple[list[engine.Move], list[_T]] | None = memo.get(name)
    if entry is None:
        entry = memo[name] = ([], [])
    seen, values = entry
    keep_count = len(seen)
    # One C-speed comparison in the usual case (moves only appended). It checks
    # identity first, then equality, which is as good: a value depends only on
    # the move's fields and those before it.
    if keep_count > len(moves) or seen != moves[:keep_count]:
        keep_count = 0
        for old, new in zip(seen, moves, strict=False):
            if old is not new:
                break
            keep_count += 1
        del seen[keep_count:], values[keep_count:]
    previous = values[-1] if values else None
    for move in moves[keep_count:]:
        previous = build(move, previous)
        seen.append(move)
        values.append(previous)
    return values
