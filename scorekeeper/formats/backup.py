"""The backup file `qwirkle-backup/1`: every game as one JSON document.

A backup is ``{"format": "qwirkle-backup/1", "exported_at": ..., "games": [...]}``
where each game is its `qwirkle-game/1` record (CONTRACT §5) plus the
timestamps the history needs: ``created_at``, ``updated_at``, ``finished_at``
and ``move_times`` (one ISO timestamp per move). Edit tokens are not part of
it: a backup file may travel, and restored games get fresh tokens.

An optional top-level ``"events"`` key (issue 23) lists the club nights:
``[{"name", "date", "created_at", "games": [i, ...]}]``, each game an index
into ``"games"``. A backup without it restores as before.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any, Protocol

from .. import engine, text
from ..i18n import gettext as _
from . import numbers

FORMAT = "qwirkle-backup/1"
"""The format tag of a backup file."""

RECORD_FORMAT = engine.FORMAT
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
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.game_number = game_number
        self.move_number = move_number
        self.code = code
        self.detail = detail
        """A finer code under `code`: the name rule's, for invalid_players."""


@dataclass
class RestoredGame:
    """One validated game of a backup, ready to store."""

    record: dict[str, Any]
    game: engine.Game
    names: list[str]
    created_at: str | None
    updated_at: str | None
    finished_at: str | None
    move_times: list[str] | None


def dumps(document: dict[str, Any]) -> str:
    """Serialise a backup compactly (10,000 games: ~50 MB; indented: ~160 MB)."""
    # Without indent json uses its C encoder, several times faster.
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def loads(data: bytes | str, *, limit: int) -> object:
    """Parse uploaded JSON bytes, refusing oversized, non-UTF-8 or non-JSON data."""
    if len(data) > limit:
        raise _too_large(len(data), limit)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BackupError(
                _("The file is not UTF-8 text."), code="not_json"
            ) from exc
    try:
        return numbers.loads(data)
    except numbers.NumberRefused as exc:
        raise _number_refused(exc) from None
    except json.JSONDecodeError as exc:
        # Where, not json's English reason: the reader's language has no word
        # for "Expecting property name enclosed in double quotes".
        raise BackupError(
            _(
                "The file is not JSON (line %(line)d, column %(column)d).",
                line=exc.lineno, column=exc.colno,
            ),
            code="not_json",
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise BackupError(_("The file is not JSON."), code="not_json") from exc


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
"""The earliest timestamp a restored game may carry."""

LATEST = datetime(2201, 1, 1, tzinfo=UTC)
"""The first moment after the latest timestamp a restored game may carry (2200)."""


def _moment(value: str) -> datetime | None:
    """Return an ISO timestamp as an aware UTC datetime, None when out of range."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        return None
    return moment if EARLIEST <= moment < LATEST else None


def _timestamp(value: object, what: str, game_number: int) -> str | None:
    """Return a validated ISO timestamp string from 1970 to 2200 (None if absent)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise BackupError(
            _("Game %(n)d: %(what)s is not a timestamp.", n=game_number, what=what),
            game_number=game_number,
        )
    try:
        moment = _moment(value)
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
    if moment is None:
        raise BackupError(
            _(
                "Game %(n)d: %(what)s %(value)r is not between 1970 and 2200.",
                n=game_number, what=what, value=value,
            ),
            game_number=game_number,
            code="bad_timestamp",
        )
    return value


def check_record(document: object, game_number: int | None = None) -> RestoredGame:
    """Validate one game record (with optional backup timestamps) by replaying it."""
    prefix = _("Game %(n)d: ", n=game_number) if game_number else ""
    if not isinstance(document, dict):
        raise BackupError(
            prefix + _("a game record must be a JSON object."),
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
        cause = exc.params.get("reason")
        raise BackupError(
            f"{prefix}{text.record_error(exc)}",
            game_number=game_number,
            move_number=exc.move_number,
            code=exc.code,
            detail=cause.code if isinstance(cause, engine.InvalidName) else None,
        ) from exc
    except (ValueError, TypeError, KeyError) as exc:
        # The engine should raise RecordError for every bad input; a stray
        # error still means "refused", never a crash.
        raise BackupError(f"{prefix}{exc}", game_number=game_number) from exc
    move_times = document.get("move_times")
    if move_times is not None:
        if not isinstance(move_times, list) or len(move_times) != len(game.moves):
            raise BackupError(
                prefix + _("move_times must list one timestamp per move."),
                game_number=game_number,
            )
        what = _("a move time")
        move_times = [_timestamp(t, what, number) or "" for t in move_times]
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
            _("A backup must be a JSON object.")
        )
    _check_tag(document.get("format"))
    games = document.get("games")
    if not isinstance(games, list):
        raise BackupError(_("A backup needs a list of games."))
    return [check_record(game, number) for number, game in enumerate(games, 1)]


READ_SIZE = 64 * 1024
"""Bytes read from an uploaded backup at a time."""

MAX_VALUE_CHARS = 8 * 1024 * 1024
"""The longest single value a backup may hold (a game of 1,000 moves is ~150 KB):
a value still unfinished past this is broken JSON, found without reading on."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = numbers.DECODER
_VALUE_STARTS = frozenset('[{"tfn-0123456789')
"""The characters a JSON value can start with."""


class _Source:
    """A backup's text read piece by piece: only the part being parsed is held."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.size = 0
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.text = ""
        self.pos = 0
        self.dropped = 0
        """Characters of the file before `text` (read, parsed and let go)."""
        self.eof = False

    def more(self, size: int = READ_SIZE) -> bool:
        """Read more of the file; return False at its end."""
        if self.eof:
            return False
        data = self.stream.read(size)
        self.size += len(data)
        if self.size > self.limit:
            raise _too_large(self.size, self.limit)
        try:
            chunk = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise BackupError(
                _("The file is not UTF-8 text."), code="not_json"
            ) from exc
        self.eof = not data
        # Drop what is parsed already: memory holds the current value, no more.
        self.dropped += self.pos
        self.text = self.text[self.pos:] + chunk
        self.pos = 0
        return bool(data) or bool(chunk)

    def peek(self) -> str:
        """Skip white space; return the next character ("" at the end)."""
        while True:
            # "[ \t\n\r]*" matches everywhere, if only the empty string.
            self.pos = _WHITESPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def take(self, char: str) -> bool:
        """Consume char when it comes next (after white space); say whether it did."""
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def value(self) -> object:
        """Parse the JSON value that comes next, reading as much as it needs."""
        self.peek()
        size = READ_SIZE
        while True:
            try:
                found, end = _DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                # Most likely the value goes on in the part not read yet.
                if len(self.text) - self.pos > MAX_VALUE_CHARS or not self.more(size):
                    # Where, not json's English reason (the reader's language
                    # has no word for "Expecting ',' delimiter").
                    raise _not_json(_(
                        "no JSON value at character %(pos)d",
                        pos=self.dropped + exc.pos + 1,
                    )) from exc
                size = min(size * 2, MAX_VALUE_CHARS)
                continue
            except RecursionError:
                raise _not_json(_("it is nested too deeply")) from None
            except numbers.NumberRefused as exc:
                raise _number_refused(exc) from None
            if end == len(self.text) and self.more(size):
                continue  # a number at the end may go on ("12" of "123")
            self.pos = end
            return found

    def fail(self) -> BackupError:
        """Return the refusal for a character where the backup's frame needs another."""
        char = self.text[self.pos: self.pos + 1]
        if not char:
            return _not_json(_("it ends too early"))
        return _not_json(_(
            "unexpected “%(char)s” at character %(pos)d",
            char=char, pos=self.dropped + self.pos + 1,
        ))


def _too_large(size: int, limit: int) -> BackupError:
    return BackupError(
        _(
            "The file is too large (%(size)s bytes; at most %(limit)s).",
            size=f"{size:,}",
            limit=f"{limit:,}",
        ),
        code="too_large",
    )


def _number_refused(exc: numbers.NumberRefused) -> BackupError:
    """Return the refusal of a file holding a number no game can hold."""
    return BackupError(
        _("The file holds a number too large for any game (%(digits)s characters).",
          digits=f"{exc.digits:,}"),
        code=exc.code,
    )


def _not_json(why: str) -> BackupError:
    """Return the refusal of a file that is not JSON, saying why (translated)."""
    return BackupError(
        _("The file is not JSON: %(why)s.", why=str(why)), code="not_json"
    )


def read_backup(
    stream: IO[bytes], *, limit: int
) -> Iterator[RestoredGame | BackupEvents]:
    """Yield each game of a backup file, checked, as it is read (memory stays flat).

    The file is read in pieces; each game is parsed and replayed on its own and
    dropped once the caller has stored it, so a 200 MB backup never sits in
    memory. The first bad game (or a bad frame: format, games list) raises
    BackupError; a caller storing games as they come rolls back then. A format
    tag that comes after the games is checked at the end. The club nights (an
    "events" key, before or after the games) come as one BackupEvents item.
    """
    source = _Source(stream, limit)
    first = source.peek()
    if first != "{":
        if first not in _VALUE_STARTS:
            raise _not_json(_("it does not start with a JSON value"))
        raise BackupError(_("A backup must be a JSON object."))
    source.pos += 1
    tag: object = None
    games_seen = False
    number = 0
    if not source.take("}"):
        while True:
            if source.peek() != '"':
                raise source.fail()
            key = source.value()
            if not source.take(":"):
                raise source.fail()
            if key == "games" and not games_seen:
                games_seen = True
                if not source.take("["):
                    raise BackupError(_("A backup needs a list of games."))
                if not source.take("]"):
                    while True:
                        number += 1
                        yield check_record(source.value(), number)
                        if source.take("]"):
                            break
                        if not source.take(","):
                            raise source.fail()
            else:
                value = source.value()
                if key == "format":
                    tag = value
                    _check_tag(tag)
                elif key == "games":
                    raise BackupError(_("A backup needs one list of games."))
                elif key == "events":
                    yield check_events(value)
            if source.take("}"):
                break
            if not source.take(","):
                raise source.fail()
    if source.peek():
        raise source.fail()
    _check_tag(tag)
    if not games_seen:
        raise BackupError(_("A backup needs a list of games."))


MAX_EVENT_NAME = 80
"""Longest club-night name a backup may carry (as the page takes)."""


@dataclass(frozen=True)
class BackupEvent:
    """One club night of a backup: its games as indexes into the backup's games."""

    name: str
    date: str
    created_at: str
    games: tuple[int, ...]


@dataclass(frozen=True)
class BackupEvents:
    """A backup's club nights (its optional top-level "events" key)."""

    events: tuple[BackupEvent, ...]


def check_events(value: object) -> BackupEvents:
    """Return a backup's "events" part checked; BackupError naming the fault.

    The one reader of that part: whichever parser walks the file hands it the
    parsed "events" value.
    """

    def bad(number: int) -> BackupError:
        return BackupError(
            _("Club night %(n)d of the backup is malformed.", n=number),
            code="bad_events",
        )

    if not isinstance(value, list):
        raise BackupError(_("A backup's club nights must be a list."),
                          code="bad_events")
    events = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise bad(number)
        name, day, created = item.get("name"), item.get("date"), item.get("created_at")
        games = item.get("games")
        if not (isinstance(name, str) and 0 < len(name) <= MAX_EVENT_NAME
                and name.isprintable()):
            raise bad(number)
        if not (isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)):
            raise bad(number)
        try:
            datetime.strptime(day, "%Y-%m-%d")
            moment = _moment(created) if isinstance(created, str) else None
        except ValueError:
            moment = None
        if moment is None or not isinstance(games, list) or not all(
            type(index) is int and index >= 0 for index in games
        ):
            raise bad(number)
        events.append(BackupEvent(name, day, str(created), tuple(games)))
    return BackupEvents(tuple(events))


def _check_tag(tag: object) -> None:
    if tag != FORMAT:
        raise BackupError(
            _(
                "The format must be %(want)r, not %(got)r.",
                want=FORMAT,
                got=str(tag)[:40],
            )
        )


def backup_entry(
    record: dict[str, Any],
    *,
    created_at: str | None,
    updated_at: str | None,
    finished_at: str | None,
    move_times: list[str],
) -> dict[str, Any]:
    """Return one game of a backup: its record plus its timestamps."""
    entry = dict(record)
    entry["created_at"] = created_at
    entry["updated_at"] = updated_at
    entry["finished_at"] = finished_at
    entry["move_times"] = move_times
    return entry


def make_backup(entries: list[dict[str, Any]], exported_at: str) -> dict[str, Any]:
    """Return the backup document holding `entries` (from `backup_entry`)."""
    return {"format": FORMAT, "exported_at": exported_at, "games": entries}


class StoredMove(Protocol):
    """A stored move as a backup reads it (store.backup.StoredMove)."""

    @property
    def player(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def tiles(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def end_bonus(self) -> int: ...
    @property
    def created_at(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def seconds(self) -> int | None: ...


class StoredGame(Protocol):
    """A stored game as a backup reads it (store.backup.StoredGame)."""

    @property
    def id(self) -> int: ...
    @property
    def created_at(self) -> str: ...
    @property
    def updated_at(self) -> str: ...
    @property
    def finished_at(self) -> str | None: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def variant(self) -> dict[str, Any]: ...
    @property
    def first_player(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def end_reason(self) -> str | None: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def moves(self) -> Sequence[StoredMove]: ...
    @property
    def options(self) -> dict[str, Any] | None: ...


def stored_record(stored: StoredGame) -> dict[str, Any]:
    """Return a stored game's record without replaying it (engine.write_record).

    The stored scores were computed by the engine when each move was written;
    a restore replays every record, so a damaged file is still refused. The
    bytes equal engine.to_record's for the same game (tested on the corpus).
    """
    # One json.loads per game instead of one per move: 5x faster backups.
    placed = iter(json.loads(
        "[" + ",".join(m.tiles for m in stored.moves if m.type == "place") + "]"
    ))
    moves = [
        engine.move_record(
            m.player, m.type, next(placed) if m.type == "place" else (), m.count,
            m.score, reason=m.reason or "", seconds=m.seconds,
        )
        for m in stored.moves
    ]
    final = None
    if stored.status == "finished" and stored.end_reason is not None:
        bonus = [m.player for m in stored.moves if m.end_bonus]
        final = engine.Final(
            tuple(stored.scores), bonus[-1] if bonus else None,
            engine.EndReason(stored.end_reason),
        )
    return engine.write_record(
        engine.Variant.from_dict(stored.variant), stored.names, stored.first_player,
        moves, final, engine.Options.from_dict(stored.options),
    )


def stream(
    games: Iterable[StoredGame], exported_at: str,
    events: Callable[[Sequence[int]], list[dict[str, Any]]] | None = None,
) -> Iterator[str]:
    """Yield a whole backup as text, game by game (memory stays flat).

    10,000 games are about 90 MB of JSON, never held at once. events, given
    the ids of the games written in order, returns the club nights (their
    games as indexes into that list): written as "events" when there are any.
    """
    head = dumps(make_backup([], exported_at)).rstrip()
    yield head[: -len("[]}")] + "["
    written: list[int] = []
    for index, stored in enumerate(games):
        written.append(stored.id)
        entry = backup_entry(
            stored_record(stored),
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            finished_at=stored.finished_at,
            move_times=[m.created_at for m in stored.moves],
        )
        yield ("," if index else "") + dumps(entry).rstrip()
    clubs = events(written) if events is not None else []
    if clubs:
        text_ = json.dumps(clubs, ensure_ascii=False, separators=(",", ":"))
        yield f'],"events":{text_}'
    else:
        yield "]"
    yield "}\n"
