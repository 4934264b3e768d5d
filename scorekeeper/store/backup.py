"""Every game and the club for a backup, read without replaying; restoring
checked games, then the club's nights, seasons and merged names."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import sqlite_utils

from .. import engine
from .cache import forget
from .connection import get_db, immediate
from .events import events_for_backup, restore_events
from .games import game_fingerprint, insert_game, move_to_row_values
from .merges import merges, restore_merges
from .seasons import restore_seasons, seasons_for_backup

CHUNK = 500
"""Games whose moves are read with one query."""

PROGRESS_EVERY = 1000
"""Games between two progress reports of a long backup or restore."""


@dataclass(frozen=True)
class StoredMove:
    """One row of the moves table, as a backup needs it."""

    player: int
    type: str
    tiles: str
    """The placed tiles as stored: a JSON list of {row, col, color, shape}."""
    count: int
    score: int
    end_bonus: int
    created_at: str
    reason: str | None = None
    """Why a penalty was given (penalties only)."""
    seconds: int | None = None
    """The thinking time the move carried, if any."""


@dataclass(frozen=True)
class StoredGame:
    """One stored game, its summary as written by the engine at each move."""

    id: int
    created_at: str
    updated_at: str
    finished_at: str | None
    names: list[str]
    variant: dict[str, Any]
    first_player: int
    status: str
    end_reason: str | None
    scores: list[int]
    moves: list[StoredMove]
    options: dict[str, Any] | None = None
    """The table discipline as stored (None: the defaults)."""


def iter_stored_games() -> Iterator[StoredGame]:
    """Yield every game with its moves, oldest first, a few hundred per query."""
    db = get_db()
    game_rows = db.conn.execute(
        "SELECT id, created_at, updated_at, finished_at, players, variant,"
        " first_player, status, end_reason, scores, options FROM games ORDER BY id"
    ).fetchall()
    for start in range(0, len(game_rows), CHUNK):
        part = game_rows[start : start + CHUNK]
        marks = ",".join("?" * len(part))
        moves: dict[int, list[StoredMove]] = {}
        for row in db.conn.execute(
            "SELECT game_id, player, type, tiles, count, score, end_bonus, created_at,"
            f" reason, seconds FROM moves WHERE game_id IN ({marks})"
            " ORDER BY game_id, seq",
            [row[0] for row in part],
        ):
            moves.setdefault(row[0], []).append(StoredMove(*row[1:]))
        for (game_id, created, updated, finished, players, variant, first, status,
             reason, scores, options) in part:
            yield StoredGame(
                id=game_id, created_at=created, updated_at=updated,
                finished_at=finished, names=json.loads(players),
                variant=json.loads(variant), first_player=first, status=status,
                end_reason=reason, scores=json.loads(scores),
                moves=moves.get(game_id, []),
                options=json.loads(options) if options else None,
            )


class Restorable(Protocol):
    """A checked game to restore (formats.backup.RestoredGame)."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def game(self) -> engine.Game: ...

    @property
    def created_at(self) -> str | None: ...

    @property
    def updated_at(self) -> str | None: ...

    @property
    def finished_at(self) -> str | None: ...

    @property
    def move_times(self) -> Sequence[str] | None: ...


class RestorableEvent(Protocol):
    """A checked club night of a backup (formats.backup.BackupEvent)."""

    @property
    def name(self) -> str: ...

    @property
    def date(self) -> str: ...

    @property
    def created_at(self) -> str: ...

    @property
    def games(self) -> Sequence[int]: ...


@runtime_checkable
class RestorableEvents(Protocol):
    """A backup's club: nights, seasons, merged names
    (formats.backup.BackupEvents)."""

    @property
    def events(self) -> Sequence[RestorableEvent]: ...

    @property
    def seasons(self) -> Sequence[Any]: ...

    @property
    def merges(self) -> Sequence[Any]: ...


def club_for_backup(game_ids: Sequence[int]) -> dict[str, list[Any]]:
    """Return the club's top-level lists for a backup whose games were
    written in the order of game_ids: its nights, seasons and merged names."""
    return {"events": events_for_backup(game_ids), "seasons": seasons_for_backup(),
            "merges": merges()}


@dataclass
class Restored:
    """What a restore did: the new games' ids and how many were already stored."""

    ids: list[int]
    skipped: int


BATCH = 20
"""Games stored per transaction while restoring. Each batch holds the write lock
for a few milliseconds (20 games of ~50 moves); the replay that checks the next
games runs with no lock, so a move or a new game at the table waits at most one
batch behind a restore, never the whole of it."""

REMOVE_BATCH = 200
"""Games removed per transaction when a restore fails part-way."""


def restore_backup(
    items: Iterable[Restorable | RestorableEvents],
    progress: Callable[[int, int], None] | None = None,
) -> Restored:
    """Store checked games, a batch per transaction; all or none; skip games here.

    items may be a generator that checks each game as it is read: the first
    error it raises (or any failure storing a batch) removes every game this
    restore stored, in short transactions too, then goes on up: nothing of a
    failed restore stays. The games of a restore that is still running are
    visible in the history meanwhile. A game whose content fingerprint (players,
    variant, moves, created_at) is already stored is skipped, also when it
    comes twice in one backup. Each new game keeps its timestamps (move_times
    None: every move at updated_at) and gets a fresh edit token.
    progress(restored, skipped) is called every PROGRESS_EVERY games. An item
    with `events` (formats.backup.BackupEvents) carries the backup's club
    (nights, linked to its games, with their rounds; seasons with their
    rosters; merged names), stored in one last short transaction once all
    games are.
    """
    db = get_db()
    ids: list[int] = []
    skipped = 0
    batch: list[Restorable] = []
    # The id of each game of the backup, in order: its club nights name them
    # by position (a game already stored counts as the stored one).
    positions: list[int | None] = []
    clubs: list[RestorableEvents] = []
    seen = 0
    try:
        for item in items:
            if isinstance(item, RestorableEvents):
                clubs.append(item)
                continue
            batch.append(item)
            seen += 1
            if len(batch) >= BATCH:
                skipped += _store_batch(db, batch, ids, positions)
                batch.clear()
            if progress is not None and seen % PROGRESS_EVERY == 0:
                progress(len(ids) + len(batch), skipped)
        skipped += _store_batch(db, batch, ids, positions)
        if clubs:
            with immediate(db):
                for club in clubs:
                    # Seasons first: a night names its season, made with
                    # the backup's creation time when the backup has it.
                    restore_seasons(db, club.seasons)
                    restore_events(db, club.events, positions)
                    restore_merges(db, club.merges)
    except BaseException:
        _remove(db, ids)
        raise
    return Restored(ids, skipped)


def _store_batch(
    db: sqlite_utils.Database, batch: Sequence[Restorable], ids: list[int],
    positions: list[int | None],
) -> int:
    """Store a batch of checked games in one short transaction; add their ids to
    ids, and each game's id (new or already stored) to positions, once it is
    committed; return how many were already stored."""
    new: list[int] = []
    where: list[int | None] = []
    skipped = 0
    if not batch:
        return 0
    with immediate(db):
        for item in batch:
            values = [move_to_row_values(move) for move in item.game.moves]
            fingerprint = None
            if item.created_at is not None:
                fingerprint = game_fingerprint(
                    item.created_at, item.names, item.game, values
                )
            found = _stored(db, fingerprint) if fingerprint is not None else None
            if found is not None:
                skipped += 1
                where.append(found)
                continue
            new.append(insert_game(
                db, item.names, item.game, created_at=item.created_at,
                updated_at=item.updated_at, finished_at=item.finished_at,
                move_times=item.move_times, values=values, fingerprint=fingerprint,
            )[0])
            where.append(new[-1])
    ids.extend(new)
    positions.extend(where)
    return skipped


def _remove(db: sqlite_utils.Database, ids: Sequence[int]) -> None:
    """Delete the games a failed restore stored (their moves and summaries go with
    them: ON DELETE CASCADE), a few hundred per transaction."""
    if db.conn.in_transaction:
        db.conn.rollback()
    for start in range(0, len(ids), REMOVE_BATCH):
        part = ids[start : start + REMOVE_BATCH]
        with immediate(db):
            db.execute(
                f"DELETE FROM games WHERE id IN ({','.join('?' * len(part))})", part
            )
        for game_id in part:
            forget(game_id)  # a page may have opened it meanwhile


def _stored(db: sqlite_utils.Database, fingerprint: str) -> int | None:
    """Return the id of a stored game with this content fingerprint, if any."""
    row = db.conn.execute(
        "SELECT id FROM games WHERE fingerprint = ? LIMIT 1", [fingerprint]
    ).fetchone()
    return None if row is None else int(row[0])
