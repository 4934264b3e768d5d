"""`--workers N`: N waitress processes answering on one listening socket.

The command binds the socket once and hands it to N worker processes
(multiprocessing's spawn; the socket travels as its descriptor, on Windows
as a shared socket). Each worker creates its own app (serve.worker_app) and
runs waitress on the socket: the kernel gives each new connection to one of
them. So a club night gets N GILs, and each worker keeps what waitress gives
one process: a request's body is read whole in its I/O thread before a thread
is given to the app, so a guest trickling a body holds no thread (granian,
used before, handed the body to a thread as it arrived).

The command supervises: a worker that dies is started again (after a pause if
it died young, so a worker failing at start does not spin); Ctrl+C or SIGTERM
stops them all. Workers ignore Ctrl+C (the terminal sends it to the whole
group): the command stops them, in order. Killed outright, the command takes
its workers with it (processes.die_with_parent).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import socket
import time
from collections.abc import Callable
from multiprocessing.context import SpawnProcess
from typing import Any

RESTART_PAUSE = 1.0
"""Seconds before a worker that died within its first RESTART_PAUSE seconds
is started again."""

STOP_WAIT = 5.0
"""Seconds a worker has to stop after SIGTERM before it is killed."""


def listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """Bind and listen on host:port as waitress would (SO_REUSEADDR on POSIX)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=backlog)


def supervise(sock: socket.socket, workers: int,
              target: Callable[[socket.socket, dict[str, Any]], None],
              options: dict[str, Any]) -> None:
    """Run `workers` processes of target(sock, options) until interrupted;
    start again each one that dies."""
    spawn = multiprocessing.get_context("spawn")

    def start() -> SpawnProcess:
        proc = spawn.Process(target=target, args=(sock, options),
                             name="scorekeeper-worker", daemon=False)
        proc.start()
        return proc

    running: dict[int, tuple[SpawnProcess, float]] = {}

    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(workers):
            proc = start()
            running[proc.sentinel] = (proc, time.monotonic())
        while True:
            ended = multiprocessing.connection.wait(list(running))
            for sentinel in ended:
                assert isinstance(sentinel, int)  # wait() gives back what it got
                proc, began = running.pop(sentinel)
                proc.join()
                if time.monotonic() - began < RESTART_PAUSE:
                    time.sleep(RESTART_PAUSE)
                fresh = start()
                running[fresh.sentinel] = (fresh, time.monotonic())
    finally:
        # Ctrl+C or SIGTERM (as KeyboardInterrupt) ends the loop above.
        signal.signal(signal.SIGTERM, before)
        _stop_all([proc for proc, _ in running.values()])
        sock.close()


def _stop_all(procs: list[SpawnProcess]) -> None:
    """Ask every worker to stop (SIGTERM), then kill the ones that do not."""
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + STOP_WAIT
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join()


def ignore_ctrl_c() -> None:
    """In a worker: leave Ctrl+C to the command, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
