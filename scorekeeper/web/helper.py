"""The server's one helper process: photos and PDFs are built there, not in a
server thread.

A render or a photo reading holds the interpreter's lock for most of its length
(a PDF of 1,000 moves, half a second of OpenCV), and every move answered
meanwhile would wait for it; in another process it waits for nothing but a CPU.
A household's server must stay small, though: OpenCV alone is ~100 MB. So there
is at most one helper per server process, started on the first photo or PDF and
stopped after HELPER_IDLE seconds without work; it runs niced, one job at a
time, and dies with the server, `kill -9` included (processes.die_with_parent),
so that no 100 MB process outlives the server that started it.

The helper is a plain subprocess spoken to over its stdin and stdout (a pickled
job, a pickled answer), not a multiprocessing pool: a pool also starts
multiprocessing's resource tracker, a second process. One keeper thread, alive
as long as the server, starts it and hands it the jobs: Linux sends the
parent-death signal when the *thread* that started a child ends, and a
server's request threads come and go.
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from datetime import tzinfo
from typing import IO, Any, TypeVar

from flask import current_app

from .. import i18n
from ..processes import die_with_parent
from .errors import Busy

_T = TypeVar("_T")

HELPER_IDLE = 120.0
"""Seconds without work after which the helper process stops (a table sends a
photo every few minutes at most; a PDF is asked for at the end of a game)."""

NICENESS = 10
"""How much lower the helper runs than the server (os.nice): on a busy machine
the server's own requests (a move) get a CPU first."""

RETRY_AFTER = 2
"""Seconds a 503 tells the client to wait when the helper died under its job."""

_LENGTH = struct.Struct(">Q")


class HelperGone(Exception):
    """The helper process ended in the middle of a job (killed, out of memory)."""


def _send(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    (size,) = _LENGTH.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def helper_main() -> None:
    """The helper process: run each job read from stdin, answer on stdout,
    until stdin closes."""
    die_with_parent()
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass  # not on this platform: the helper runs at the server's priority
    # The answers go to the real stdout; anything a library prints, to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    jobs = sys.stdin.buffer
    while True:
        try:
            build, args = _receive(jobs)
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, build(*args))
        except Exception as exc:  # noqa: BLE001 - handed to the server to raise
            answer = (False, exc)
        try:
            _send(answers, answer)
        except (pickle.PicklingError, TypeError, AttributeError):
            _send(answers, (False, RuntimeError(repr(answer[1]))))


class Helper:
    """At most one helper process, started on first use, stopped when idle."""

    def __init__(self, idle: float = HELPER_IDLE) -> None:
        self.idle = idle
        self._jobs: queue.Queue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]]
        self._jobs = queue.Queue()
        self._lock = threading.Lock()
        self._keeper: threading.Thread | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    def run(self, build: Callable[..., _T], *args: Any) -> _T:
        """Run build(*args) in the helper process (starting it if needed) and
        return its result; raise HelperGone when the helper died meanwhile (the
        next call starts another)."""
        with self._lock:
            if self._keeper is None:
                self._keeper = threading.Thread(target=self._keep, name="helper",
                                                daemon=True)
                self._keeper.start()
                atexit.register(self.stop)
        done: Future[Any] = Future()
        self._jobs.put((done, build, args))
        result: _T = done.result()
        return result

    def pid(self) -> int | None:
        """Return the helper process's id while it runs, else None."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def stop(self) -> None:
        """Stop the helper process, if one runs (at exit)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _end(proc)

    def _keep(self) -> None:
        """The keeper thread: start the helper on a job, hand it each job, stop
        it after `idle` seconds without one."""
        while True:
            try:
                done, build, args = self._jobs.get(
                    timeout=self.idle if self._proc is not None else None)
            except queue.Empty:
                self.stop()
                continue
            if not done.set_running_or_notify_cancel():
                continue
            try:
                if self._proc is None or self._proc.poll() is not None:
                    self._proc = _start()
                assert self._proc.stdin is not None and self._proc.stdout is not None
                _send(self._proc.stdin, (build, args))
                ok, value = _receive(self._proc.stdout)
            except (EOFError, OSError):
                self.stop()
                done.set_exception(HelperGone())
                continue
            except BaseException as exc:  # noqa: BLE001 - the caller raises it
                done.set_exception(exc)
                continue
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)


def _start() -> subprocess.Popen[bytes]:
    """Start a helper process on this interpreter, with this process's path."""
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.Popen(
        [sys.executable, "-c", "from scorekeeper.web.helper import helper_main;"
         " helper_main()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True,
    )


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Stop a helper: end of its input, then SIGKILL if it does not go."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(10)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


_HELPER = Helper()
"""This server process's helper (with --workers N each worker has its own)."""


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
    try:
        result: _T = helper().run(_in_language, language.code, zone, build, *args)
        return result
    except HelperGone:
        # Never built in the server's thread instead: what killed the helper
        # (memory, most likely) would take the server with it.
        raise Busy(RETRY_AFTER) from None
