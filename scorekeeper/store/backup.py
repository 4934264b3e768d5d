"""Every game for a backup, read without replaying; restoring checked games."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import sqlite_utils

from .. import engine
from .connection import get_db, immediate
from .events import restore_events
from .games import game_fingerprint, insert_game, move_to_row_values

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
    """A backup's club nights (formats.backup.BackupEvents)."""

    @property
    def events(self) -> Sequence[RestorableEvent]: ...


@dataclass
class Restored:
    """What a restore did: the new games' ids and how many were already stored."""

    ids: list[int]
    skipped: int


def restore_games(items: Iterable[Restorable | RestorableEvents]) -> list[int]:
    """Store checked games (see restore_backup); return the new games' ids."""
    return restore_backup(items).ids


def restore_backup(
    items: Iterable[Restorable | RestorableEvents],
    progress: Callable[[int, int], None] | None = None,
) -> Restored:
    """Store checked games in one transaction, all or none; skip games already here.

    items may be a generator that checks each game as it is read: the first
    error it raises rolls every game back. A game whose content fingerprint
    (players, variant, moves, created_at) is already stored is skipped. Each new
    game keeps its timestamps (move_times None: every move at updated_at) and
    gets a fresh edit token. progress(restored, skipped) is called every
    PROGRESS_EVERY games. An item with `events` (formats.backup.BackupEvents)
    carries the backup's club nights, linked to its games once all are stored.
    """
    db = get_db()
    ids: list[int] = []
    skipped = 0
    # The id of each game of the backup, in order: its club nights name them
    # by position (a game already stored counts as the stored one).
    positions: list[int | None] = []
    clubs: list[RestorableEvent] = []
    with immediate(db):
        for item in items:
            if isinstance(item, RestorableEvents):
                clubs.extend(item.events)
                continue
            values = [move_to_row_values(move) for move in item.game.moves]
            fingerprint = None
            if item.created_at is not None:
                fingerprint = game_fingerprint(
                    item.created_at, item.names, item.game, values
                )
            found = _stored(db, fingerprint) if fingerprint is not None else None
            if found is not None:
                skipped += 1
                positions.append(found)
            else:
                ids.append(insert_game(
                    db, item.names, item.game, created_at=item.created_at,
                    updated_at=item.updated_at, finished_at=item.finished_at,
                    move_times=item.move_times, values=values,
                    fingerprint=fingerprint,
                )[0])
                positions.append(ids[-1])
            if progress is not None and (len(ids) + skipped) % PROGRESS_EVERY == 0:
                progress(len(ids), skipped)
        if clubs:
            restore_events(db, clubs, positions)
    return Restored(ids, skipped)


def _stored(db: sqlite_utils.Database, fingerprint: str) -> int | None:
    """Return the id of a stored game with this content fingerprint, if any."""
    row = db.conn.execute(
        "SELECT id FROM games WHERE fingerprint = ? LIMIT 1", [fingerprint]
    ).fetchone()
    return None if row is None else int(row[0])
