"""SQLite connections: pragmas, one connection per worker thread, BEGIN IMMEDIATE."""

from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import sqlite_utils
from flask import Flask, current_app, g
from flask.globals import app_ctx

BUSY_TIMEOUT_MS = 10_000
"""How long a connection waits for another writer before giving up."""


def private_file(path: str) -> None:
    """Create the database file with mode 600 and keep it, its WAL and SHM so.

    The database holds every edit token; SQLite gives the WAL and SHM files
    the database file's mode, so creating that one private suffices for new
    files, and chmod fixes those an older release left readable.
    """
    if path == ":memory:" or path.startswith("file:"):
        return
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for name in (path, f"{path}-wal", f"{path}-shm"):
        try:
            os.chmod(name, 0o600)
        except FileNotFoundError:
            pass


def connect(path: str, *, check_same_thread: bool = True) -> sqlite_utils.Database:
    """Open the database file with the pragmas every connection needs."""
    # timeout= is SQLite's busy timeout: wait for another writer, don't fail.
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=check_same_thread
    )
    db = sqlite_utils.Database(conn, recursive_triggers=False, execute_plugins=False)
    db.execute("PRAGMA foreign_keys = ON")
    # WAL survives a process crash intact; NORMAL skips the fsync per commit
    # that only guards against power loss (docs/SERVING.md, "Trust").
    db.execute("PRAGMA synchronous = NORMAL")
    return db


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
    # The app context taken from Flask's proxy once: a reach through it costs
    # as much as a line of work here (benchmarks/bench_api.py).
    context = app_ctx._get_current_object()  # type: ignore[attr-defined]
    held = context.g
    db: sqlite_utils.Database | None = held.get("db")
    if db is None:
        app = context.app
        pool: _ThreadConnections = app.extensions["scorekeeper_connections"]
        db = held.db = pool.get(app.config["DATABASE"])
    return db


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
    """Give app its connection pool; release connections after each request."""
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
def immediate(db: sqlite_utils.Database) -> Iterator[None]:
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
