"""The server's one helper process: photos and PDFs are built there, not in a
server thread.

A render or a photo reading holds the interpreter's lock for most of its length
(a PDF of 1,000 moves, half a second of OpenCV), and every move answered
meanwhile would wait for it; in another process it waits for nothing but a CPU.
A household's server must stay small, though: OpenCV alone is ~100 MB. So there
is at most one helper per server process, started on the first photo or PDF and
stopped after HELPER_IDLE seconds without work; it runs niced, and dies with the
server, `kill -9` included (Linux: PR_SET_PDEATHSIG), so that no 100 MB process
outlives the server that started it.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import tzinfo
from typing import Any, TypeVar

from flask import current_app

from .. import i18n

HELPER_IDLE = 120.0
"""Seconds without work after which the helper process stops (a table sends a
photo every few minutes at most; a PDF is asked for at the end of a game)."""

NICENESS = 10
"""How much lower the helper runs than the server (os.nice): on a busy machine
the server's own requests (a move) get a CPU first."""

PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal this process gets when its parent dies."""

_T = TypeVar("_T")


def die_with_parent() -> None:
    """Have this process get SIGTERM when its parent dies (Linux; elsewhere
    nothing), and stop now if the parent is already gone.

    Called first thing in a child the server starts: a helper (see _start) and,
    under granian, each worker process (serve.worker_app).
    """
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    # The parent may have died before prctl ran: then no signal will come, and
    # this process has been handed to init (or a subreaper).
    if os.getppid() != parent or parent == 1:
        os.kill(os.getpid(), signal.SIGTERM)


def _helper_start() -> None:
    """The helper process's first steps: die with the server, yield to it."""
    die_with_parent()
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass  # not on this platform: the helper runs at the server's priority


class Helper:
    """At most one helper process, started on first use, stopped when idle."""

    def __init__(self, idle: float = HELPER_IDLE) -> None:
        self.idle = idle
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0
        self._last = time.monotonic()
        self._watch: threading.Thread | None = None
        self._registered = False

    def run(self, build: Callable[..., _T], *args: Any) -> _T:
        """Run build(*args) in the helper process (starting it if needed) and
        return its result. A helper that broke (killed) is replaced on the next
        call; this call builds in its own thread."""
        with self._lock:
            pool = self._pool or self._start()
            self._busy += 1
        try:
            return pool.submit(build, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            return build(*args)
        finally:
            with self._lock:
                self._busy -= 1
                self._last = time.monotonic()

    def pid(self) -> int | None:
        """Return the helper process's id while it runs (for tests), else None."""
        with self._lock:
            pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return next(iter(processes), None)

    def stop(self) -> None:
        """Stop the helper process, if one runs (at exit, or when idle)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: forking a server whose other threads hold locks
        # could leave the child stuck on one.
        self._pool = ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_helper_start,
        )
        self._last = time.monotonic()
        if not self._registered:
            self._registered = True
            # A server process that is itself a multiprocessing child (a
            # granian worker) ends in multiprocessing's exit handler, which
            # joins every child: the helper, still waiting for work, must be
            # told to stop first, before the pool's queues close (exit priority
            # 10), or both wait forever.
            multiprocessing.util.Finalize(None, self.stop, exitpriority=100)
        if self._watch is None or not self._watch.is_alive():
            self._watch = threading.Thread(target=self._stop_when_idle,
                                           name="helper-idle", daemon=True)
            self._watch.start()
        return self._pool

    def _stop_when_idle(self) -> None:
        while True:
            time.sleep(min(self.idle, 5.0) / 2)
            with self._lock:
                if self._pool is None:
                    self._watch = None
                    return
                if self._busy or time.monotonic() - self._last < self.idle:
                    continue
                pool, self._pool = self._pool, None
                self._watch = None
            pool.shutdown(wait=True)
            return


_HELPER = Helper()
"""This server process's helper (one per process: the pool is not picklable
and a granian worker has its own)."""


def helper() -> Helper:
    """Return this process's helper, its idle time from the app's HELPER_IDLE."""
    _HELPER.idle = float(current_app.config.get("HELPER_IDLE", HELPER_IDLE))
    return _HELPER


def _in_language(
    code: str, zone: tzinfo | None, build: Callable[..., _T], *args: Any
) -> _T:
    """Run build(*args) writing in this language and zone (in the helper, which
    has no request to ask)."""
    with i18n.language(code, zone):
        return build(*args)


def in_helper(build: Callable[..., _T], *args: Any) -> _T:
    """Run build(*args) in the helper process, in the request's language and
    time zone, and return its result (in this thread when the app says
    RENDER_IN_PROCESS=False, as tests do)."""
    if not current_app.config.get("RENDER_IN_PROCESS", True):
        return build(*args)
    language = i18n.current()
    zone = language.zone if language.zone_known else None
    return helper().run(_in_language, language.code, zone, build, *args)
