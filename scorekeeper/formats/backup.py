"""The backup file `qwirkle-backup/1`: every game as one JSON document.

A backup is ``{"format": "qwirkle-backup/1", "exported_at": ..., "games": [...]}``
where each game is its `qwirkle-game/1` record (CONTRACT §5) plus the
timestamps the history needs: ``created_at``, ``updated_at``, ``finished_at``
and ``move_times`` (one ISO timestamp per move). Edit tokens are not part of
it: a backup file may travel, and restored games get fresh tokens.

An optional top-level ``"events"`` key lists the club nights:
``[{"name", "date", "created_at", "games": [i, ...]}]``, each game an index
into ``"games"``; a night may also carry ``"season"`` (its season's name)
and ``"count_ended": false`` or ``"count_leavers": false`` (CONTRACT §14), and
``"rounds"``, its paired
rounds ``[{"number", "tables": [[name, ...], ...], "created_at"}]``.
Optional ``"seasons"`` (``[{"name", "created_at", "roster": [name, ...]}]``)
and ``"merges"`` (``[{"old", "new", "merged_at"}]``: names the admin merged)
keys carry the rest of the club. A backup without them restores as before
(tests/test_club_backup.py, tests/test_season_backup.py).

Backups are read with ijson (its C backend, yajl2_c, where the wheel has it),
one game at a time, after a scan of the file's outline with numpy
(formats/outline.py), in `read_sections`. Another top-level list is one entry
in `LISTS`.
"""

from __future__ import annotations

import codecs
import json
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any, Protocol

import ijson  # type: ignore[import-untyped]

from .. import engine, text
from ..i18n import gettext as _
from . import numbers
from .outline import SCAN_SIZE, Outline, TooDeep, TooLarge

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


READ_SIZE = 64 * 1024
"""Bytes read from a backup at a time."""

SPOOL_IN_MEMORY = 1024 * 1024
"""A backup sent as a stream (the API's body) is kept in memory up to this size,
beyond it in a temporary file: it is read twice."""

MAX_DEPTH = 32
"""The deepest nesting a backup may hold (a game record needs 5 levels). ijson
names every value by its path, so 100,000 nested lists would take gigabytes:
the first pass refuses a deeper file before anything builds values."""

_BOM = codecs.BOM_UTF8
_STARTS = frozenset(b'[{"tfn-0123456789')
"""The bytes a JSON value can start with."""

ItemCheck = Callable[[object, int], Any]
"""Turns the n-th item of a top-level list (from 1) into what the caller stores,
raising BackupError when it is not acceptable."""

MAX_EVENT_NAME = 80
"""Longest club-night name a backup may carry (as the page takes)."""


@dataclass(frozen=True)
class BackupRound:
    """One paired round of a club night in a backup: its tables of names."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    created_at: str


@dataclass(frozen=True)
class BackupSeason:
    """One season of a backup: its name, when it was made and its roster."""

    name: str
    created_at: str
    roster: tuple[str, ...] = ()


@dataclass(frozen=True)
class BackupMerge:
    """One name the admin merged into another, as a backup carries it."""

    old: str
    new: str
    merged_at: str


@dataclass(frozen=True)
class BackupEvent:
    """One club night of a backup: its games as indexes into the backup's games."""

    name: str
    date: str
    created_at: str
    games: tuple[int, ...]
    season: str | None = None
    """The name of the season the night is in, if any."""
    count_ended: bool = True
    """Whether the night's games ended early count in its standings."""
    rounds: tuple[BackupRound, ...] = ()
    """The rounds paired at the night (CONTRACT §14), by number."""
    count_leavers: bool = True
    """Whether a player who left a game counts in it (RULES §7.5)."""


@dataclass(frozen=True)
class BackupEvents:
    """A backup's club: its nights, seasons and merged names (its optional
    top-level "events", "seasons" and "merges" keys)."""

    events: tuple[BackupEvent, ...]
    seasons: tuple[BackupSeason, ...] = ()
    merges: tuple[BackupMerge, ...] = ()


def check_event(item: object, number: int) -> BackupEvent:
    """Return the n-th club night of a backup checked; BackupError naming it."""
    bad = BackupError(
        _("Club night %(n)d of the backup is malformed.", n=number),
        code="bad_events",
    )
    if not isinstance(item, dict):
        raise bad
    name, day, created = item.get("name"), item.get("date"), item.get("created_at")
    games = item.get("games")
    if not (isinstance(name, str) and 0 < len(name) <= MAX_EVENT_NAME
            and name.isprintable()):
        raise bad
    if not (isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)):
        raise bad
    try:
        datetime.strptime(day, "%Y-%m-%d")
        moment = _moment(created) if isinstance(created, str) else None
    except ValueError:
        moment = None
    if moment is None or not isinstance(games, list) or not all(
        type(index) is int and index >= 0 for index in games
    ):
        raise bad
    season, count_ended = item.get("season"), item.get("count_ended", True)
    if season is not None and not (
        isinstance(season, str) and 0 < len(season) <= MAX_EVENT_NAME
        and season.isprintable()
    ):
        raise bad
    count_leavers = item.get("count_leavers", True)
    if not isinstance(count_ended, bool) or not isinstance(count_leavers, bool):
        raise bad
    rounds = item.get("rounds", [])
    if not isinstance(rounds, list):
        raise bad
    return BackupEvent(name, day, str(created), tuple(games), season, count_ended,
                       tuple(_checked_round(played, bad) for played in rounds),
                       count_leavers)


def _checked_round(item: object, bad: BackupError) -> BackupRound:
    """Return a night's round of a backup checked; raise bad."""
    if not isinstance(item, dict):
        raise bad
    number, tables = item.get("number"), item.get("tables")
    if type(number) is not int or number < 1 or not isinstance(tables, list):
        raise bad
    checked = []
    for table in tables:
        if not isinstance(table, list) or not all(isinstance(n, str) for n in table):
            raise bad
        checked.append(tuple(_checked_name(name, bad) for name in table))
    return BackupRound(number, tuple(checked), _checked_stamp(item.get("created_at"),
                                                              bad))


def _checked_name(value: object, bad: BackupError) -> str:
    """Return a name of a backup's club by the name rule; raise bad."""
    if not isinstance(value, str):
        raise bad
    try:
        return engine.normalise_name(value)
    except engine.InvalidName:
        raise bad from None


def _checked_stamp(value: object, bad: BackupError) -> str:
    """Return a timestamp of a backup's club (1970 to 2200); raise bad."""
    try:
        moment = _moment(value) if isinstance(value, str) and len(value) <= 40 \
            else None
    except ValueError:
        moment = None
    if moment is None:
        raise bad
    return str(value)


def check_season(item: object, number: int) -> BackupSeason:
    """Return the n-th season of a backup checked; BackupError naming it."""
    bad = BackupError(_("Season %(n)d of the backup is malformed.", n=number),
                      code="bad_events")
    if not isinstance(item, dict):
        raise bad
    name, roster = item.get("name"), item.get("roster", [])
    if not (isinstance(name, str) and 0 < len(name) <= MAX_EVENT_NAME
            and name.isprintable()) or not isinstance(roster, list):
        raise bad
    return BackupSeason(name, _checked_stamp(item.get("created_at"), bad),
                        tuple(_checked_name(player, bad) for player in roster))


def check_merge(item: object, number: int) -> BackupMerge:
    """Return the n-th merged name of a backup checked; BackupError naming it."""
    bad = BackupError(_("Merged name %(n)d of the backup is malformed.", n=number),
                      code="bad_events")
    if not isinstance(item, dict):
        raise bad
    return BackupMerge(_checked_name(item.get("old"), bad),
                       _checked_name(item.get("new"), bad),
                       _checked_stamp(item.get("merged_at"), bad))


LISTS: dict[str, ItemCheck] = {
    "games": check_record, "events": check_event, "seasons": check_season,
    "merges": check_merge,
}
"""The top-level lists a backup carries, each with the check of its items; read
in this order, item by item. A new kind of content (say "events") is a new
entry here: older backups, without the key, restore as before. Any other
top-level key is allowed and skipped ("exported_at")."""

REQUIRED = frozenset({"games"})
"""The top-level lists a backup must have."""


@dataclass
class _Frame:
    """What the first pass learnt of a backup's top level."""

    tag: object = None
    lists: set[str] = field(default_factory=set)


class _Counted:
    """A binary stream that refuses to read past `limit` bytes."""

    def __init__(self, stream: IO[bytes], limit: int, start: int = 0) -> None:
        self.stream = stream
        self.limit = limit
        self.size = start

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.size += len(data)
        if self.size > self.limit:
            raise _too_large(self.size, self.limit)
        return data


def _seekable(stream: IO[bytes], limit: int) -> IO[bytes]:
    """Return stream itself when it can be read twice, else a spooled copy."""
    try:
        if stream.seekable():
            return stream
    except (AttributeError, ValueError):
        pass
    copy = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115
    counted = _Counted(stream, limit)
    try:
        while chunk := counted.read(READ_SIZE):
            copy.write(chunk)
    except BaseException:
        copy.close()
        raise
    copy.seek(0)
    return copy


def _start(stream: IO[bytes]) -> int:
    """Check how the file starts; return the offset of its first JSON byte."""
    origin = stream.tell()
    head = stream.read(READ_SIZE)
    offset = len(_BOM) if head.startswith(_BOM) else 0
    body = head[offset:].lstrip(b" \t\r\n")
    if body[:1] != b"{":
        if not body or body[0] not in _STARTS:
            raise _not_json(_("it does not start with a JSON value"))
        raise BackupError(_("A backup must be a JSON object."))
    return origin + offset


def _broken(exc: Exception, stream: _Counted) -> BackupError:
    """Return the refusal of a file ijson could not parse, saying where."""
    if "premature EOF" in str(exc):
        return _not_json(_("it ends too early"))
    if "overflow" in str(exc):
        # yajl refuses an integer beyond 64 bits or a float beyond range: a
        # number no game can hold, as numbers.NumberRefused says of the rest.
        return BackupError(_("The file holds a number too large for any game."),
                           code=numbers.NumberRefused.code)
    # yajl's reason is English and its position is in the piece read last:
    # say how far the reader had got, which is where to look.
    where = format(stream.size, ",")
    return _not_json(_("it is broken before byte %(pos)s", pos=where))


MAX_OUTLINE = 8 * 1024 * 1024
"""The most a backup's top level may hold beside its lists' items (a format tag
and a date are a few dozen bytes)."""


class _Members(list[tuple[str, Any]]):
    """An object of the outline, as its members in order (duplicates kept)."""


def _frame(stream: _Counted) -> _Frame:
    """Scan the whole file once (outline.Outline): nested at most MAX_DEPTH deep, its
    top level JSON with the format tag and the top-level lists LISTS names."""
    scan = Outline(max_depth=MAX_DEPTH, max_size=MAX_OUTLINE)
    try:
        while chunk := stream.read(SCAN_SIZE):
            scan.feed(chunk)
    except TooDeep:
        raise _not_json(_("it is nested too deeply")) from None
    except TooLarge as exc:
        raise _too_large(exc.size, exc.limit) from None
    if not scan.complete:
        raise _not_json(_("it ends too early"))
    try:
        members = json.loads(scan.text(), object_pairs_hook=_Members)
    except (ValueError, RecursionError) as exc:
        raise BackupError(_("The file is not JSON."), code="not_json") from exc
    if not isinstance(members, _Members):
        raise BackupError(_("A backup must be a JSON object."))
    frame = _Frame()
    for key, value in members:
        if key in LISTS:
            if key in frame.lists or type(value) is not list:
                raise _list_needed(key, twice=key in frame.lists)
            frame.lists.add(key)
        elif key == "format":
            frame.tag = "…" if isinstance(value, list) else value
            _check_tag(frame.tag)
    _check_tag(frame.tag)
    for key in sorted(REQUIRED - frame.lists):
        raise _list_needed(key)
    return frame


def _list_needed(key: str, *, twice: bool = False) -> BackupError:
    """Return the refusal of a backup without (or with two of) a top-level list."""
    if key == "games":
        return BackupError(_("A backup needs one list of games.") if twice
                           else _("A backup needs a list of games."))
    if key == "events":
        return BackupError(_("A backup's club nights must be a list."),
                           code="bad_events")
    return BackupError(
        _("A backup needs one list of %(key)s.", key=key) if twice
        else _("A backup needs a list of %(key)s.", key=key)
    )


def read_sections(
    stream: IO[bytes], *, limit: int, lists: Mapping[str, ItemCheck] | None = None,
) -> Iterator[tuple[str, Any]]:
    """Yield (key, checked item) for every item of the backup's top-level lists.

    Two passes over the file (a stream that cannot seek is spooled first): the
    first scans its bytes (outline.Outline: nesting, the top level's JSON, format tag
    and lists), so a truncated, too deep or wrongly framed file is refused
    before any game is replayed or stored; the second builds one item at a
    time with ijson (`ijson.items`, its C backend where installed:
    `ijson.backend`), which finds any other fault in the JSON as it reads, and
    checks it. Memory holds one item, never the file. The first bad item
    raises BackupError; a caller storing items as they come removes them then.
    """
    lists = LISTS if lists is None else lists
    source = _seekable(stream, limit)
    try:
        start = _start(source)
        source.seek(start)
        frame = _frame(_Counted(source, limit, start))
        for key, check in lists.items():
            if key not in frame.lists:
                continue
            source.seek(start)
            counted = _Counted(source, limit, start)
            try:
                for number, item in enumerate(
                    ijson.items(counted, f"{key}.item", use_float=True), 1
                ):
                    yield key, check(item, number)
            except ijson.JSONError as exc:
                raise _broken(exc, counted) from exc
    finally:
        if source is not stream:
            source.close()


def read_backup(
    stream: IO[bytes], *, limit: int
) -> Iterator[RestoredGame | BackupEvents]:
    """Yield each game of a backup file, checked, as it is read (memory stays flat).

    See read_sections: the file is checked whole first, then each game is
    parsed and replayed on its own and dropped once the caller has stored it,
    so a 200 MB backup never sits in memory. The club ("events", "seasons"
    and "merges" keys, before or after the games) comes last, as one
    BackupEvents item.
    """
    club: dict[str, list[Any]] = {"events": [], "seasons": [], "merges": []}
    for key, item in read_sections(stream, limit=limit):
        if key == "games":
            yield item
        else:
            club[key].append(item)
    if any(club.values()):
        yield BackupEvents(tuple(club["events"]), tuple(club["seasons"]),
                           tuple(club["merges"]))


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
    club: Callable[[Sequence[int]], dict[str, list[Any]]] | None = None,
) -> Iterator[str]:
    """Yield a whole backup as text, game by game (memory stays flat).

    10,000 games are about 90 MB of JSON, never held at once. club, given
    the ids of the games written in order, returns the club's top-level
    lists ("events": the nights, their games as indexes into that list;
    "seasons"; "merges"): each written when it holds anything.
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
    yield "]"
    for key, items in (club(written) if club is not None else {}).items():
        if items:
            text_ = json.dumps(items, ensure_ascii=False, separators=(",", ":"))
            yield f',"{key}":{text_}'
    yield "}\n"
