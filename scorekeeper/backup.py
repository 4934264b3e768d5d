"""The backup file `qwirkle-backup/1`: every game as one JSON document.

A backup is ``{"format": "qwirkle-backup/1", "exported_at": ..., "games": [...]}``
where each game is its `qwirkle-game/1` record (CONTRACT §5) plus the
timestamps the history needs: ``created_at``, ``updated_at``, ``finished_at``
and ``move_times`` (one ISO timestamp per move). Edit tokens are not part of
it: a backup file may travel, and restored games get fresh tokens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from scorekeeper import engine
from scorekeeper.i18n import _

FORMAT = "qwirkle-backup/1"
"""The format tag of a backup file."""

RECORD_FORMAT = "qwirkle-game/1"
"""The format tag of a single game record."""

EXTRA_KEYS = ("created_at", "updated_at", "finished_at", "move_times")
"""Keys a backup adds to each game record."""

MAX_RECORD_BYTES = 2 * 1024 * 1024
"""Largest single record upload accepted (a long game is ~20 KB)."""

MAX_BACKUP_BYTES = 200 * 1024 * 1024
"""Largest backup upload accepted (10,000 games are ~60 MB)."""


class BackupError(ValueError):
    """A backup or record file that cannot be restored; nothing was stored."""

    def __init__(
        self,
        message: str,
        *,
        game_number: int | None = None,
        move_number: int | None = None,
        code: str = "bad_format",
    ) -> None:
        super().__init__(message)
        self.game_number = game_number
        self.move_number = move_number
        self.code = code


@dataclass
class RestoredGame:
    """One validated game of a backup, ready to store."""

    record: dict
    game: engine.Game
    names: list[str]
    created_at: str | None
    updated_at: str | None
    finished_at: str | None
    move_times: list[str] | None


def dumps(document: dict) -> str:
    """Serialise a backup compactly (10,000 games: ~50 MB; indented: ~160 MB)."""
    # Without indent json uses its C encoder, several times faster.
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def loads(data: bytes | str, *, limit: int) -> object:
    """Parse uploaded JSON bytes, refusing oversized, non-UTF-8 or non-JSON data."""
    if len(data) > limit:
        raise BackupError(
            _(
                "The file is too large (%(size)s bytes; at most %(limit)s).",
                size=f"{len(data):,}",
                limit=f"{limit:,}",
            ),
            code="too_large",
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BackupError(
                _("The file is not UTF-8 text."), code="not_json"
            ) from exc
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise BackupError(
            _("The file is not JSON: %(why)s.", why=str(exc)), code="not_json"
        ) from exc


def _timestamp(value: object, what: str, game_number: int) -> str | None:
    """Return a validated ISO timestamp string (or None when absent)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise BackupError(
            _("Game %(n)d: %(what)s is not a timestamp.", n=game_number, what=what),
            game_number=game_number,
        )
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise BackupError(
            _(
                "Game %(n)d: %(what)s %(value)r is not an ISO timestamp.",
                n=game_number,
                what=what,
                value=value,
            ),
            game_number=game_number,
        ) from exc
    return value


def _names_problem(names: list[str], variant: engine.Variant) -> str | None:
    """Return what is wrong with a record's player names (the API's own check)."""
    from .api import names_problem  # the API owns the rule; imported late (cycle)

    return names_problem(names, variant)


def check_record(document: object, game_number: int | None = None) -> RestoredGame:
    """Validate one game record (with optional backup timestamps) by replaying it."""
    prefix = _("Game %(n)d: ", n=game_number) if game_number else ""
    if not isinstance(document, dict):
        raise BackupError(
            prefix
            + _(
                "a game record must be a JSON object, not %(kind)s.",
                kind=type(document).__name__,
            ),
            game_number=game_number,
        )
    if document.get("format") != RECORD_FORMAT:
        raise BackupError(
            prefix
            + _(
                "the format must be %(want)r, not %(got)r.",
                want=RECORD_FORMAT,
                got=str(document.get("format"))[:40],
            ),
            game_number=game_number,
        )
    number = game_number or 1
    created_at = _timestamp(document.get("created_at"), "created_at", number)
    updated_at = _timestamp(document.get("updated_at"), "updated_at", number)
    finished_at = _timestamp(document.get("finished_at"), "finished_at", number)
    record = {k: v for k, v in document.items() if k not in EXTRA_KEYS}
    try:
        game, names = engine.from_record(record)
    except engine.RecordError as exc:
        raise BackupError(
            f"{prefix}{exc}",
            game_number=game_number,
            move_number=exc.move_number,
            code=exc.code,
        ) from exc
    except (ValueError, TypeError, KeyError) as exc:
        # The engine should raise RecordError for every bad input; a stray
        # error still means "refused", never a crash.
        raise BackupError(f"{prefix}{exc}", game_number=game_number) from exc
    problem = _names_problem(list(names), game.variant)
    if problem is None and any(
        not isinstance(n, str) or n != " ".join(n.split()) for n in names
    ):
        problem = _("Player names may not start or end with spaces.")
    if problem:
        raise BackupError(
            f"{prefix}{problem}", game_number=game_number, code="invalid_players"
        )
    move_times = document.get("move_times")
    if move_times is not None:
        if not isinstance(move_times, list) or len(move_times) != len(game.moves):
            raise BackupError(
                prefix + _("move_times must list one timestamp per move."),
                game_number=game_number,
            )
        move_times = [_timestamp(t, "a move time", number) or "" for t in move_times]
    return RestoredGame(
        record=record,
        game=game,
        names=list(names),
        created_at=created_at,
        updated_at=updated_at,
        finished_at=finished_at,
        move_times=move_times,
    )


def parse_backup(document: object) -> list[RestoredGame]:
    """Validate a whole backup; raise BackupError naming the first bad game."""
    if not isinstance(document, dict):
        raise BackupError(
            _(
                "A backup must be a JSON object, not %(kind)s.",
                kind=type(document).__name__,
            )
        )
    if document.get("format") != FORMAT:
        raise BackupError(
            _(
                "The format must be %(want)r, not %(got)r.",
                want=FORMAT,
                got=str(document.get("format"))[:40],
            )
        )
    games = document.get("games")
    if not isinstance(games, list):
        raise BackupError(_("A backup needs a list of games."))
    return [check_record(game, number) for number, game in enumerate(games, 1)]


def backup_entry(
    record: dict,
    *,
    created_at: str | None,
    updated_at: str | None,
    finished_at: str | None,
    move_times: list[str],
) -> dict:
    """Return one game of a backup: its record plus its timestamps."""
    entry = dict(record)
    entry["created_at"] = created_at
    entry["updated_at"] = updated_at
    entry["finished_at"] = finished_at
    entry["move_times"] = move_times
    return entry


def make_backup(entries: list[dict], exported_at: str) -> dict:
    """Return the backup document holding `entries` (from `backup_entry`)."""
    return {"format": FORMAT, "exported_at": exported_at, "games": entries}
