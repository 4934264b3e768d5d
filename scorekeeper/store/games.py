"""Writing games: create, store, apply a move, undo, correct, rename, delete.

Every write runs in one BEGIN IMMEDIATE transaction that also refreshes the
summary columns (games.status/scores, game_players), and leaves the game, as
written, in the cache for the next reader.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils

from .. import compact_json, engine
from . import analysis, fingerprints
from .cache import (
    MAX_GAME_ID,
    GameRow,
    forget,
    keep,
    loaded,
    memoised,
    options_column,
    take,
    taken,
)
from .connection import get_db, immediate
from .merges import record_merge

PIN_DIGITS = 8
"""Digits of a game PIN (the short code that gives a device its edit right back)."""


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


def now() -> str:
    """Return the current time as the store writes it (UTC, microseconds)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _next_stamp(previous: str) -> str:
    """Return now, or just after previous when the clock has not moved past it."""
    stamp = now()
    if stamp > previous:
        return stamp
    try:
        later = datetime.fromisoformat(previous) + timedelta(microseconds=1)
    except (ValueError, OverflowError):
        # A stored time at the end of datetime's range (year 9999): now will do.
        return stamp
    return later.isoformat(timespec="microseconds")


LEFT_SEAT = (
    "EXISTS (SELECT 1 FROM moves m INDEXED BY moves_leaves WHERE m.type = 'leave'"
    " AND m.game_id = p.game_id AND m.player = p.seat)"
)
"""SQL: whether the game_players row p is a player who left the game (RULES
§7.5); the moves table's leave is the one record of it, found by the partial
index of leaves (one seek)."""


def new_pin() -> str:
    """Return a fresh game PIN: PIN_DIGITS random digits."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def move_to_row_values(move: engine.Move) -> dict[str, Any]:
    """Return the moves-table columns describing an engine move."""
    tiles = move.to_dict().get("tiles", [])
    return {
        "player": move.player,
        "type": move.type,
        "tiles": compact_json.dumps(tiles),
        "count": move.count or 0,
        "score": move.score,
        "end_bonus": move.end_bonus,
        "qwirkles": move.qwirkles,
        "reason": move.reason or None,
        "seconds": move.seconds,
    }


RowValues = dict[str, Any]
"""A move's moves-table columns (move_to_row_values)."""


def row_key(values: RowValues) -> fingerprints.MoveKey:
    """Return what the fingerprint hashes of a move's moves-table columns."""
    return (values["type"], values["tiles"], values["count"], values["reason"],
            values["seconds"])


def game_fingerprint(
    created_at: str, names: Sequence[str], game: engine.Game,
    values: Sequence[RowValues] | None = None,
) -> str:
    """Return the content fingerprint of a game created at created_at (values: its
    moves' row values, when already at hand)."""
    rows = values if values is not None else [move_to_row_values(m) for m in game.moves]
    options = None if game.options.is_default else game.options.to_dict()
    return fingerprints.fingerprint(
        created_at, names, game.variant.to_dict(), game.first_player,
        [row_key(v) for v in rows], options,
    )


@dataclass(frozen=True)
class _SeatTotals:
    """The game_players totals after a move, per seat in seat order."""

    seq: int
    """The move's 0-based index."""
    turns: tuple[int, ...]
    best_score: tuple[int, ...]
    best_seq: tuple[int | None, ...]
    """The seq of each seat's best placing move (None: none yet)."""
    penalties: tuple[int, ...]
    timed_moves: tuple[int, ...]
    """Moves that carried a thinking time."""
    think_seconds: tuple[int, ...]
    """Their thinking time, summed."""


def _seat_totals(
    move: engine.Move, previous: _SeatTotals | None, players: int
) -> _SeatTotals:
    """Return the game_players totals after move, from those before it."""
    if previous is None:
        zeros = (0,) * players
        previous = _SeatTotals(-1, zeros, zeros, (None,) * players, zeros, zeros,
                               zeros)
    seq = previous.seq + 1
    seat = move.player

    def bump(values: tuple[int, ...], by: int = 1) -> tuple[int, ...]:
        return values[:seat] + (values[seat] + by,) + values[seat + 1:]

    best_seq, best_score = previous.best_seq, previous.best_score
    if move.type == "place" and (best_seq[seat] is None
                                 or move.score > best_score[seat]):
        best_seq = best_seq[:seat] + (seq,) + best_seq[seat + 1:]
        best_score = bump(best_score, move.score - best_score[seat])
    timed, thought = previous.timed_moves, previous.think_seconds
    if move.seconds is not None:
        timed, thought = bump(timed), bump(thought, move.seconds)
    penalties = bump(previous.penalties) if move.type == "penalty" else (
        previous.penalties
    )
    # Leaving is no turn of the leaver's (RULES §7.5).
    turns = previous.turns if move.type == "leave" else bump(previous.turns)
    return _SeatTotals(
        seq, turns, best_score, best_seq, penalties, timed, thought
    )


_BEST_MOVE = ", best_move_score = ?, best_move_seq = ?"
_WINNER = ", is_winner = ?"

_SEAT_FIGURES = {
    (best, winner): (
        "UPDATE game_players SET score = ?, qwirkles = ?, turns = ?, excluded = ?,"
        f" penalties = ?, timed_moves = ?, think_seconds = ?{best}{winner}"
        " WHERE game_id = ? AND seat = ?"
    )
    for best in ("", _BEST_MOVE) for winner in ("", _WINNER)
}
"""A seat's figures, with its best move and winner flag where they may have
changed (a column named is an index written, one more page of the write), by
the clauses those add."""


def scores_column(scores: Sequence[int]) -> str:
    """Return the games.scores text of these totals, as json.dumps writes a
    list of whole numbers (the rating triggers compare it as text); joined
    here, without json's encoder, since every move writes it."""
    return f"[{', '.join(map(str, scores))}]"


def _refresh_summary(
    db: sqlite_utils.Database, game_id: int, game: engine.Game, stamp: str,
    finished_at: str | None, fingerprint: str, memo: dict[str, Any] | None = None,
    rewritten: bool = False, seats: Sequence[int] | None = None,
    appended: bool = False,
) -> None:
    """Write the games summary columns and the game_players rows from game.

    memo, the GameRow's when game is row.game, keeps the running per-seat totals
    so that a move adds one step instead of walking the whole game again.
    rewritten: stored moves were taken back or replaced (games.revision counts it).
    seats: the only seats whose figures changed (None: every seat); each row
    written costs its indexes and the player_totals trigger.
    appended: game is the stored game plus one move that did not end it, so
    its status, end and revision, every winner flag, and a best move the move
    did not beat are stored already.
    """
    final = game.final
    scores = scores_column(game.scores)
    if appended and final is None:
        # Still running: its status, end and revision stay as stored (and the
        # trigger and the index on finished_at are not woken).
        db.conn.execute(
            "UPDATE games SET updated_at = ?, move_count = ?, scores = ?,"
            " fingerprint = ? WHERE id = ?",
            [stamp, game.turn, scores, fingerprint, game_id],
        )
    else:
        db.conn.execute(
            "UPDATE games SET updated_at = ?, status = ?, end_reason = ?,"
            " finished_at = ?, move_count = ?, scores = ?, fingerprint = ?,"
            " revision = revision + ? WHERE id = ?",
            [
                stamp,
                game.status,
                final.reason.value if final is not None else None,
                finished_at if final is not None else None,
                game.turn,
                scores,
                fingerprint,
                int(rewritten),
                game_id,
            ],
        )
    # An abandoned game has no result: its seats count as unfinished.
    winners = final.winners if final is not None and final.scored else None
    players = game.players
    totals = memoised(
        {} if memo is None else memo, game.moves, "store.seat_totals",
        lambda move, previous: _seat_totals(move, previous, players),
    )
    if totals:
        last = totals[-1]
    else:
        zeros = (0,) * players
        last = _SeatTotals(-1, zeros, zeros, (None,) * players, zeros, zeros, zeros)
    stored = totals[-2] if appended and final is None and len(totals) > 1 else None
    qwirkles = game.qwirkles
    excluded = game.excluded
    rows: dict[tuple[str, str], list[list[Any]]] = {}
    for seat, score in enumerate(game.scores):
        if seats is not None and seat not in seats:
            continue
        values: list[Any] = [
            score, qwirkles[seat], last.turns[seat], int(seat in excluded),
            last.penalties[seat], last.timed_moves[seat], last.think_seconds[seat],
        ]
        best = winner = ""
        if stored is None or stored.best_seq[seat] != last.best_seq[seat]:
            best = _BEST_MOVE
            values += [last.best_score[seat], last.best_seq[seat]]
        if stored is None:
            winner = _WINNER
            values.append(None if winners is None else int(seat in winners))
        rows.setdefault((best, winner), []).append([*values, game_id, seat])
    for clauses, changed in rows.items():
        db.conn.executemany(_SEAT_FIGURES[clauses], changed)


def _insert_moves(
    db: sqlite_utils.Database, game_id: int, moves: Sequence[engine.Move], start: int,
    stamps: Sequence[str], values: Sequence[RowValues] | None = None,
) -> None:
    rows = []
    if values is None:
        values = [move_to_row_values(move) for move in moves]
    for seq, (v, stamp) in enumerate(zip(values, stamps, strict=True), start=start):
        rows.append((
            game_id, seq, v["player"], v["type"], v["tiles"], v["count"],
            v["score"], v["end_bonus"], v["qwirkles"], v["reason"], v["seconds"],
            stamp,
        ))
    db.conn.executemany(
        "INSERT INTO moves (game_id, seq, player, type, tiles, count, score,"
        " end_bonus, qwirkles, reason, seconds, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def insert_game(
    db: sqlite_utils.Database, names: Sequence[str], game: engine.Game, *,
    created_at: str | None = None, updated_at: str | None = None,
    finished_at: str | None = None, move_times: Sequence[str] | None = None,
    values: Sequence[RowValues] | None = None, fingerprint: str | None = None,
) -> tuple[int, str]:
    """Insert a game with its moves and summary (in the caller's transaction).

    Timestamps default to now; `move_times` gives each move's (else updated_at).
    values and fingerprint (game_fingerprint's, for created_at) save working them
    out again. Returns (id, edit token).
    """
    token = secrets.token_urlsafe(16)
    created = created_at or now()
    updated = updated_at or created
    if values is None:
        values = [move_to_row_values(move) for move in game.moves]
    if fingerprint is None:
        fingerprint = game_fingerprint(created, names, game, values)
    cursor = db.execute(
        "INSERT INTO games (created_at, updated_at, players, variant, first_player,"
        " edit_token, scores, options, fingerprint, pin)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            created, updated, json.dumps(list(names), ensure_ascii=False),
            json.dumps(game.variant.to_dict()), game.first_player, token,
            scores_column([0] * len(names)), options_column(game.options), fingerprint,
            new_pin(),
        ],
    )
    game_id = int(cursor.lastrowid or 0)
    db.conn.executemany(
        "INSERT INTO game_players (game_id, seat, name, name_key, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [
            (game_id, seat, name, engine.name_key(name), created)
            for seat, name in enumerate(names)
        ],
    )
    stamps = [stamp or updated for stamp in move_times or [updated] * game.turn]
    _insert_moves(db, game_id, game.moves, 0, stamps, values)
    _refresh_summary(db, game_id, game, updated, finished_at or updated, fingerprint)
    return game_id, token


def _insert_and_keep(names: Sequence[str], game: engine.Game) -> tuple[int, str]:
    """Insert one game in its own transaction, then cache it (its page opens next)."""
    stamp = now()
    db = get_db()
    with immediate(db):
        game_id, token = insert_game(db, names, game, created_at=stamp)
        if game.moves:
            # An imported game is analysed once, here, like a game as it ends.
            analysis.complete(db, game_id, game)
    keep(GameRow(game_id, stamp, stamp, list(names), game.variant,
                 game.first_player, token, game))
    return game_id, token


def create_game(
    players: Sequence[str], variant: engine.Variant | None = None,
    first_player: int = 0, options: engine.Options | None = None,
) -> tuple[int, str]:
    """Store a new game (with its table discipline) and return (id, edit token).

    Names pass the one name rule first (engine.InvalidName); a bad variant or
    starting seat is an engine.BadInput.
    """
    variant = variant or engine.CLASSIC
    names = engine.check_players(players, variant)
    game = engine.Game(
        variant, players=len(names), first_player=first_player, options=options
    )
    return _insert_and_keep(names, game)


def store_game(names: Sequence[str], game: engine.Game) -> tuple[int, str]:
    """Store a replayed Game (from a record) with its moves; return (id, token)."""
    checked = engine.check_stored_players(names, game.variant)
    return _insert_and_keep(checked, game)


def edit_token(game_id: int) -> str | None:
    """Return the game's edit token, or None when there is no such game."""
    # Directly on the connection: checked before every write, no savepoint needed.
    rows = get_db().conn.execute(
        "SELECT edit_token FROM games WHERE id = ?", [game_id]
    ).fetchall() if 0 <= game_id <= MAX_GAME_ID else []
    return str(rows[0][0]) if rows else None


def _check_turn(row: GameRow, expected_turn: int | None) -> None:
    if expected_turn is not None and expected_turn != row.game.turn:
        raise TurnConflict(expected_turn, row.game.turn)


def record_move(
    game_id: int, move: engine.MoveInput | Mapping[str, Any],
    expected_turn: int | None = None,
) -> engine.Move:
    """Validate and store one move (a CONTRACT §5 move dict, or the MoveInput
    engine.parse_move reads from one); return it.

    Raises GameNotFound, TurnConflict or engine.IllegalMove, and then stores
    nothing.
    """
    with recorded_move(game_id, move, expected_turn) as (played, _row):
        return played


@contextmanager
def recorded_move(
    game_id: int, move: engine.MoveInput | Mapping[str, Any],
    expected_turn: int | None = None,
) -> Iterator[tuple[engine.Move, GameRow]]:
    """Store one move as record_move does; lend the move and the game as the
    write left it, `with recorded_move(...) as (played, row):`.

    The row is lent as `loaded` lends one: the caller builds its answer from it
    inside the with block (no second read), and the game goes back to the
    cache when the block ends.
    """
    with move_write(game_id) as write:
        yield write.record(move, expected_turn), write.row


class MoveWrite:
    """A move being written: the game as its write transaction read it (`row`),
    then the move stored on it (`record`)."""

    def __init__(self, db: sqlite_utils.Database, row: GameRow) -> None:
        self.db = db
        self.row = row
        self.recorded = False
        self._game, self._turn = row.game, row.game.turn

    @property
    def untouched(self) -> bool:
        """Whether the lent game is still as taken: a move refused before it
        changed anything leaves it so."""
        return self.row.game is self._game and self._game.turn == self._turn

    def record(
        self, move: engine.MoveInput | Mapping[str, Any],
        expected_turn: int | None = None,
    ) -> engine.Move:
        """Validate and store the move, commit, and return it; raises
        TurnConflict or engine.IllegalMove, and then stores nothing."""
        db, row = self.db, self.row
        _check_turn(row, expected_turn)
        played = row.game.push(move)
        stamp = _next_stamp(row.updated_at)
        # One row's values for the insert and the fingerprint both.
        values = move_to_row_values(played)
        _insert_moves(db, row.id, [played], row.game.turn - 1, [stamp], [values])
        if row.game.final is not None:
            # A finished game is analysed once, as it ends, so that every
            # game played here counts in its players' efficiency. Each move
            # is not: that would double a move's write (benchmarks/
            # bench_api.py); a running game is analysed when asked.
            analysis.complete(db, row.id, row.game)
        row.fingerprint = fingerprints.chain(row.fingerprint, row_key(values))
        # A move changes its player's figures only (a penalty too: its
        # points, its exclusion), unless it ends the game.
        mover = None if row.game.final is not None else (played.player,)
        _refresh_summary(db, row.id, row.game, stamp, stamp, row.fingerprint,
                         row.memo, seats=mover, appended=True)
        row.updated_at = stamp
        db.conn.execute("COMMIT")
        self.recorded = True
        return played


@contextmanager
def move_write(game_id: int) -> Iterator[MoveWrite]:
    """Begin a move's write (BEGIN IMMEDIATE) and lend the game as it read it,
    `with move_write(game_id) as write:`; GameNotFound when there is none.

    The block checks the request against `write.row` (the game row read once,
    its edit token included), then calls `write.record(...)`, which commits;
    the game stays lent for the answer and goes back to the cache when the
    block ends. A block that ends before it records rolls back: nothing is
    stored. A game changed by a write that failed is dropped, and the next
    use replays it from the moves table.
    """
    db = get_db()
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        write = MoveWrite(db, take(db, game_id))
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    try:
        yield write
    finally:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")  # nothing recorded, or its write failed
        if write.recorded or write.untouched:
            keep(write.row)


def undo_last_move(
    game_id: int, expected_turn: int | None = None
) -> engine.Move | None:
    """Delete the last move (reopening a finished game) and return it; on a game
    the table closed, take back the closing instead and return None.

    Raises GameNotFound, TurnConflict or NothingToUndo.
    """
    if reopen_game(game_id, expected_turn):
        return None
    db = get_db()
    with immediate(db), taken(db, game_id) as row:
        _check_turn(row, expected_turn)
        if not row.game.moves:
            raise NothingToUndo("there is no move to undo")
        stamp = _next_stamp(row.updated_at)
        ended = row.game.final is not None
        undone = row.game.pop()
        db.execute(
            "DELETE FROM moves WHERE game_id = ? AND seq = ?", [game_id, row.game.turn]
        )
        # Taking a move back changes its player's figures only, unless it had
        # ended the game (every seat's winner flag goes).
        mover = None if ended else (undone.player,)
        if undone.type == "place":
            # The undone move's analysis went with its row.
            analysis.refresh_efficiency(db, game_id, [undone.player])
        row.fingerprint = game_fingerprint(row.created_at, row.names, row.game)
        _refresh_summary(db, game_id, row.game, stamp, None, row.fingerprint,
                         row.memo, rewritten=True, seats=mover)
        row.updated_at, row.revision = stamp, row.revision + 1
    return undone


def close_game(
    game_id: int, reason: str, expected_turn: int | None = None
) -> engine.Final:
    """End the game as it stands ('ended') or abandon it ('abandoned'); return
    its final. It stays in history, its moves untouched.

    Raises GameNotFound, TurnConflict, engine.IllegalMove (game_over) or
    engine.BadInput, and then stores nothing.
    """
    db = get_db()
    with immediate(db), taken(db, game_id) as row:
        _check_turn(row, expected_turn)
        final = row.game.close(reason)
        try:
            stamp = _next_stamp(row.updated_at)
            # A new revision: another process's cached game replays and closes.
            _refresh_summary(db, game_id, row.game, stamp, stamp, row.fingerprint,
                             row.memo, rewritten=True)
        except BaseException:
            row.game.reopen()
            raise
        row.updated_at, row.revision = stamp, row.revision + 1
    return final


def reopen_game(game_id: int, expected_turn: int | None = None) -> bool:
    """Take back close_game: the game runs on; return whether it was closed.

    Raises GameNotFound or TurnConflict.
    """
    db = get_db()
    with immediate(db), taken(db, game_id) as row:
        _check_turn(row, expected_turn)
        if not row.game.closed:
            return False
        final = row.game.final
        assert final is not None
        row.game.reopen()
        try:
            stamp = _next_stamp(row.updated_at)
            _refresh_summary(db, game_id, row.game, stamp, None, row.fingerprint,
                             row.memo, rewritten=True)
        except BaseException:
            row.game.close(final.reason)  # the cache keeps the game as stored
            raise
        row.updated_at, row.revision = stamp, row.revision + 1
    return True


def replace_moves(
    game_id: int, moves: Sequence[dict[str, Any]], expected_turn: int | None = None
) -> None:
    """Replace a game's whole move list (to correct a past move); all or nothing.

    Replays every move first; raises engine.IllegalMove (its move_number set,
    1-based), GameNotFound or TurnConflict and then stores nothing. Moves are
    matched by position: an unchanged move keeps its timestamp (so a game's
    duration survives a correction), a changed one gets the current time.
    """
    db = get_db()
    with immediate(db), taken(db, game_id) as row:
        _check_turn(row, expected_turn)
        old = db.conn.execute(
            "SELECT type, tiles, count, reason, player, created_at FROM moves"
            " WHERE game_id = ? ORDER BY seq",
            [game_id],
        ).fetchall()
        game = engine.Game(
            row.variant, len(row.names), row.first_player, row.game.options
        )
        for number, move in enumerate(moves, start=1):
            try:
                game.push(move)
            except engine.IllegalMove as exc:
                raise exc.at_move(number) from None
        closing = row.game.final
        if row.game.closed and closing is not None and game.final is None:
            # The table's closing is no move: a corrected game it ended or
            # abandoned stays so (its result rescored), not running again.
            game.close(closing.reason)
        stamp = _next_stamp(row.updated_at)
        stamps = []
        unchanged = 0  # the moves before the first changed one
        for seq, played in enumerate(game.moves):
            values = move_to_row_values(played)
            kept = seq < len(old) and tuple(old[seq][:5]) == (
                values["type"], values["tiles"], values["count"], values["reason"],
                values["player"],
            )
            stamps.append(old[seq][5] if kept else stamp)
            if kept and unchanged == seq:
                unchanged += 1
        # Analyses of the unchanged opening still hold (same board, same tiles);
        # every later one is worked out again.
        before = {
            number: found
            for number, found in analysis.stored(db, game_id).items()
            if number <= unchanged
        }
        db.execute("DELETE FROM moves WHERE game_id = ?", [game_id])
        _insert_moves(db, game_id, game.moves, 0, stamps)
        analysis.write(db, game_id, game, engine.analyse_game(game, before).moves)
        analysis.refresh_efficiency(db, game_id)
        finished = db.conn.execute(
            "SELECT finished_at FROM games WHERE id = ?", [game_id]
        ).fetchone()[0]
        row.fingerprint = game_fingerprint(row.created_at, row.names, game)
        _refresh_summary(db, game_id, game, stamp, finished or stamp, row.fingerprint,
                         rewritten=True)
        row.game, row.memo, row.updated_at = game, {}, stamp
        row.revision += 1


def rename_players(game_id: int, names: Sequence[str]) -> list[str]:
    """Give the game's seats these names (the one name rule applies); return them.

    Raises GameNotFound, engine.InvalidName, or ValueError when the number of
    names is not the number of seats.
    """
    db = get_db()
    with immediate(db), taken(db, game_id) as row:
        if len(names) != len(row.names):
            raise ValueError(f"game {game_id} has {len(row.names)} seats")
        new = engine.check_players(names, row.variant)
        changed = [
            (name, engine.name_key(name), game_id, seat)
            for seat, (old, name) in enumerate(zip(row.names, new, strict=True))
            if old != name
        ]
        if not changed:
            return new
        stamp = _next_stamp(row.updated_at)
        # A new updated_at tells every cache and viewer (ETag) that the game changed.
        row.fingerprint = game_fingerprint(row.created_at, new, row.game)
        db.execute(
            "UPDATE games SET players = ?, updated_at = ?, fingerprint = ?"
            " WHERE id = ?",
            [json.dumps(new, ensure_ascii=False), stamp, row.fingerprint, game_id],
        )
        db.conn.executemany(
            "UPDATE game_players SET name = ?, name_key = ?"
            " WHERE game_id = ? AND seat = ?",
            changed,
        )
        row.names, row.updated_at = new, stamp
    return new


def merge_player(old: str, new: str) -> tuple[list[int], list[int]]:
    """Seat the player `new` wherever `old` (by name key) sat: one player
    written two ways becomes one, and the ratings re-rate (the rename
    triggers), and the old name is kept (store.merges). Return (games
    renamed, games left alone because both sat at them). Each game is renamed
    by rename_players, in its own transaction."""
    old_key, new_name = engine.name_key(old), engine.normalise_name(new)
    new_key = engine.name_key(new_name)
    if old_key == new_key:
        return [], []
    rows = get_db().conn.execute(
        "SELECT game_id, group_concat(name_key, char(31)) FROM game_players"
        " WHERE name_key IN (?, ?) GROUP BY game_id ORDER BY game_id",
        [old_key, new_key]).fetchall()
    renamed, skipped = [], []
    for game_id, keys in rows:
        seated = keys.split("\x1f")
        if old_key not in seated:
            continue
        if new_key in seated:
            skipped.append(int(game_id))
            continue
        with loaded(int(game_id)) as row:
            names = [new_name if engine.name_key(name) == old_key else name
                     for name in row.names]
        rename_players(int(game_id), names)
        renamed.append(int(game_id))
    if renamed:
        record_merge(old, new_name, now())
    return renamed, skipped


def delete_game(game_id: int) -> bool:
    """Delete a game with its moves; return whether it existed."""
    if not 0 <= game_id <= MAX_GAME_ID:
        return False
    db = get_db()
    with immediate(db):
        cursor = db.execute("DELETE FROM games WHERE id = ?", [game_id])
    forget(game_id)
    return cursor.rowcount > 0

