"""Automatic snapshots: consistent copies of the database (CONTRACT §13).

A snapshot is made with SQLite's online backup, a few pages at a time with a
pause between steps, inside one read transaction of its own: in WAL mode that
reader never blocks a writer, and the copy is the database as it was when the
snapshot began, whatever moves are stored meanwhile. It is written beside its
final name, made self-contained (no WAL) and then renamed, so a snapshot file
is always whole. The newest KEEP are kept. While the app serves, a
SnapshotScheduler takes one at start and another whenever the newest is a day old.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO

from .connection import BUSY_TIMEOUT_MS

KEEP = 14
"""Snapshots kept; older ones are deleted after each new one."""

PAGES_PER_STEP = 256
"""Database pages (4 KB each) copied per step: about a millisecond of work."""

PAUSE = 0.002
"""Seconds between two steps, so that other threads (a move) get their turn."""

PREFIX = "scorekeeper-"
SUFFIX = ".sqlite3"
_STAMP = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(re.escape(PREFIX) + r"(\d{8}T\d{6}Z)" + re.escape(SUFFIX) + "$")


def snapshot_name(moment: datetime) -> str:
    """Return the file name of a snapshot made at moment (UTC)."""
    return f"{PREFIX}{moment.astimezone(UTC).strftime(_STAMP)}{SUFFIX}"


def list_snapshots(folder: str | Path) -> list[tuple[datetime, Path]]:
    """Return the snapshots in folder with the time each was made, oldest first."""
    found = []
    try:
        entries = list(Path(folder).iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    for path in entries:
        match = _NAME.match(path.name)
        if match:
            moment = datetime.strptime(match.group(1), _STAMP).replace(tzinfo=UTC)
            found.append((moment, path))
    return sorted(found)


def latest(folder: str | Path) -> datetime | None:
    """Return when the newest snapshot in folder was made, or None."""
    found = list_snapshots(folder)
    return found[-1][0] if found else None


def take_snapshot(
    database: str, folder: str | Path, *, keep: int = KEEP,
    pages: int = PAGES_PER_STEP, pause: float = PAUSE,
    now: datetime | None = None,
) -> Path:
    """Copy the database into folder as a new snapshot; return its path.

    Older snapshots beyond the newest `keep` are deleted afterwards.
    """
    folder = Path(folder)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    target = folder / snapshot_name(now or datetime.now(UTC))
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    # Mode 600 from the start: a snapshot holds every edit token too.
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    source = sqlite3.connect(database, timeout=BUSY_TIMEOUT_MS / 1000)
    copy = sqlite3.connect(partial)
    try:
        # One read transaction for the whole copy: every step reads the same
        # snapshot of the database, so writers in between never restart it.
        source.execute("BEGIN")
        source.execute("SELECT count(*) FROM sqlite_master").fetchall()
        source.backup(copy, pages=pages, progress=lambda *_: time.sleep(pause))
        source.rollback()
        # A snapshot is one file: no WAL beside it.
        copy.execute("PRAGMA journal_mode = DELETE")
        copy.close()
        os.replace(partial, target)
    except BaseException:
        copy.close()
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    prune(folder, keep)
    return target


def prune(folder: str | Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest `keep` snapshots in folder; return those deleted."""
    old = [path for _moment, path in list_snapshots(folder)][: -keep or None]
    for path in old:
        path.unlink(missing_ok=True)
    return old


EVERY = timedelta(days=1)
"""How old the newest snapshot may get while serving."""

CHECK = 600.0
"""Seconds between two looks at the newest snapshot's age (a laptop that slept
through its snapshot makes it when it wakes)."""


class SnapshotScheduler:
    """Snapshots while serving (CONTRACT §13): one at start, then whenever the
    newest is a day old. One thread, in the launching process only."""

    def __init__(
        self, database: str, folder: str, *, every: timedelta = EVERY,
        check: float = CHECK, out: IO[str] | None = None,
    ) -> None:
        self.database = database
        self.folder = folder
        self.every = every
        self.check = check
        self.out = out
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="snapshots",
                                        daemon=True)

    def start(self) -> None:
        """Start snapshotting in the background."""
        self._thread.start()

    def stop(self) -> None:
        """Stop after the snapshot under way, if any."""
        self._stop.set()
        self._thread.join(timeout=60)

    def due(self, now: datetime | None = None) -> bool:
        """Return whether the newest snapshot is missing or `every` old."""
        newest = latest(self.folder)
        return newest is None or (now or datetime.now(UTC)) - newest >= self.every

    def snapshot(self) -> Path | None:
        """Make one snapshot now and say so; None (said on stderr) if it failed."""
        out = self.out or sys.stdout
        started = time.monotonic()
        try:
            path = take_snapshot(self.database, self.folder)
        except (sqlite3.Error, OSError) as exc:
            print(f"scorekeeper: snapshot failed: {exc}", file=sys.stderr, flush=True)
            return None
        print(f"Snapshot written: {path} ({time.monotonic() - started:.1f} s)",
              file=out, flush=True)
        return path

    def _run(self) -> None:
        self.snapshot()
        while not self._stop.wait(self.check):
            if self.due():
                self.snapshot()
