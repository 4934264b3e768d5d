"""Serving the app: the HTTP server, its workers, the access log, a port in use.

`python -m scorekeeper` parses its options, creates the app once (which creates
or migrates the database before any worker starts: ECOSYSTEM pitfall 5) and
calls `serve`. By default a household's server is one process on waitress
(pure Python): `--threads` threads, and one helper process for photos and PDFs
while there are some (web/helper.py): about 35 MB at idle, the heavy
libraries loaded only in the helper (benchmarks/bench_server.py). Waitress
reads a request's whole body in its I/O thread before a thread is given to the
app, so a client trickling a body a byte at a time holds no thread
(tests/test_server_process.py).

For a large club night, `--workers N` runs N such waitress processes on one
listening socket (prefork.py), each with `--threads` threads and its own
helper; they share the one SQLite file (WAL, BEGIN IMMEDIATE, a busy timeout)
and each keeps its own game cache, whose keys change with every write, so no
process serves another's stale game.

The launching process (the command) keeps what must happen once: migrations,
the start text and the snapshot scheduler. Each worker creates its own app and
takes the settings the command gave the launcher's (listen address, allowed
hosts, render slots) from one environment variable, WORKER_CONFIG_ENV, set
before any worker starts; the admin PIN and secret key it reads from the same
instance folder. Workers are spawned, not forked: a fork copies a process whose
snapshot thread may hold SQLite's or stdout's locks at that moment.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_WORKERS = 0
"""Worker processes; 0: this process alone, on waitress (the household's
server). A club night may want more (`--workers 4`): each runs Python under its
own GIL, so while one computes a board's options the others keep answering, at
the memory of one more process each (docs/SERVING.md, "Workers")."""

DEFAULT_THREADS = 8
"""Threads per worker: requests waiting on SQLite's write lock don't hold the rest."""

QUIET_ENV = "SCOREKEEPER_QUIET"
"""Set (to 1) in the workers' environment when the access log is off."""

WORKER_CONFIG_ENV = "SCOREKEEPER_WORKER_CONFIG"
"""The settings the command gave its app, as JSON, for every worker's app."""

WORKER_SETTINGS = (
    "LISTEN_HOST", "LISTEN_PORT", "ALLOWED_HOSTS", "RENDER_SLOTS", "TRUSTED_PROXIES",
)
"""The settings the command sets at start that the workers must share."""

RENDER_SLOTS = 2
"""Expensive renders (PDFs) at once on the whole machine, shared out among the
workers, at least one each (web.pages.RENDER_SLOTS is one process's share)."""

ADMIN_LINK_PATH = "/admin/key/"
"""Where the admin link's key stands in a path (web/admin.py): the access log
writes the path without it."""

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the serving options (workers, threads, --quiet) to the command line."""
    parser.add_argument(
        "--workers", type=int, default=DEFAULT_WORKERS,
        help="server processes, for a large club night (default 0: this"
        " process alone)",
    )
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                        help=f"threads per process (default {DEFAULT_THREADS})")
    parser.add_argument("--quiet", action="store_true",
                        help="no access log (one line per request on stderr)")


class AccessLog:
    """WSGI middleware writing one line per request to stderr, as it completes."""

    def __init__(self, app: WSGIApp, stream: Any = None) -> None:
        self.app = app
        self.stream = stream

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        """Serve the request, then log its address, line, status, size and time."""
        began = time.perf_counter()
        seen: dict[str, Any] = {}

        def record(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            seen["status"] = status.split(" ", 1)[0]
            seen["size"] = next(
                (v for k, v in headers if k.lower() == "content-length"), "-"
            )
            return start_response(status, headers, *args)

        try:
            return self.app(environ, record)
        finally:
            path = environ.get("PATH_INFO", "")
            if path.startswith(ADMIN_LINK_PATH):
                # The admin link's key is a secret: never in a log.
                path = ADMIN_LINK_PATH + "..."
            if environ.get("QUERY_STRING"):
                path += "?" + environ["QUERY_STRING"]
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            line = (
                f"{environ.get('REMOTE_ADDR', '-')} [{stamp}]"
                f" \"{environ.get('REQUEST_METHOD', '-')} {path}\""
                f" {seen.get('status', '-')} {seen.get('size', '-')}"
                f" {(time.perf_counter() - began) * 1000:.1f}ms\n"
            )
            (self.stream or sys.stderr).write(line)


def wrap(app: Flask, quiet: bool) -> WSGIApp:
    """Return the WSGI callable to serve: the app, with the access log unless quiet."""
    return app if quiet else AccessLog(app)


def worker_app() -> WSGIApp:
    """Create one worker's app (in each worker process: run_worker), with the
    settings the command gave the launcher's app."""
    from . import create_app
    from .processes import die_with_parent

    # Workers would outlive a launcher killed with -9 (and keep serving its
    # port): they die with it, as the helper processes do.
    die_with_parent()
    app = create_app()
    shared = os.environ.get(WORKER_CONFIG_ENV)
    if shared:
        app.config.update(json.loads(shared))
    return wrap(app, bool(os.environ.get(QUIET_ENV)))


def worker_settings(app: Flask, workers: int) -> str:
    """Return, as JSON, the settings of app each of `workers` workers must share."""
    settings = {key: app.config.get(key) for key in WORKER_SETTINGS}
    # Each worker has its own helper process: together, about RENDER_SLOTS renders.
    settings["RENDER_SLOTS"] = max(1, RENDER_SLOTS // max(1, workers))
    return json.dumps(settings)


def port_in_use(host: str, port: int) -> bool:
    """Return whether another program already listens on host:port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name == "posix":
            # As the servers bind (both set SO_REUSEADDR): the connections of a
            # server stopped a moment ago (TIME_WAIT, a minute) do not make its
            # port "in use"; a program listening on it still does. (On Windows
            # the option would let two programs share the port: not set.)
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1))
    return False


def port_in_use_text(port: int) -> str:
    """Return the one line saying the port is taken and how to choose another."""
    return (
        f"Port {port} is already in use (another scorekeeper?). Stop that"
        f" program, or start this one on another port: --port {port + 1}"
    )


def serve(app: Flask, host: str, port: int, args: argparse.Namespace) -> int:
    """Serve app on host:port until interrupted; 1, with a message, if it is taken."""
    if port_in_use(host, port):
        print(port_in_use_text(port), file=sys.stderr)
        return 1
    try:
        if args.workers <= 0:
            _serve_waitress(app, host, port, args)
        else:
            _serve_workers(app, host, port, args)
    except KeyboardInterrupt:
        pass
    return 0


def _waitress_options(threads: int) -> dict[str, Any]:
    """What waitress is told, in this process or in each worker."""
    from .connections import raise_open_files_limit, waitress_options
    from .formats.backup import MAX_BACKUP_BYTES

    return {
        "threads": threads,
        # Every phone and screen keeps a connection open (waitress's default of
        # 100 made the 101st wait, seconds on a club night); how many one
        # process holds follows from its open-files limit (connections.py).
        **waitress_options(raise_open_files_limit()),
        # The proxy headers reach the app, which reads them only from a
        # --trusted-proxy and only to count a client's tries (web.auth): a
        # header never gives a right. Waitress would otherwise delete them,
        # and every client of a trusted proxy would share its address.
        "clear_untrusted_proxy_headers": False,
        # No body longer than the largest the app takes (a backup) is read;
        # each route's own, smaller limit is guarded_waitress's (CONTRACT §8.1).
        "max_request_body_size": MAX_BACKUP_BYTES + 1024 * 1024,
    }


def _run_waitress(app: WSGIApp, **options: Any) -> None:
    """Run waitress on app until interrupted, each body limited to its route's."""
    from waitress.server import create_server

    from .guarded_waitress import guard
    from .web.bodies import limit_for

    servers: dict[int, Any] = {}
    server = create_server(app, map=servers, **options)
    flask_app = app.app if isinstance(app, AccessLog) else app
    guard(servers, limit_for(cast("Flask", flask_app)))
    server.run()


def _serve_waitress(app: Flask, host: str, port: int, args: argparse.Namespace) -> None:
    _run_waitress(wrap(app, args.quiet), host=host, port=port,
                  **_waitress_options(args.threads))


BACKLOG = 1024
"""Connections the kernel holds for the workers to accept (waitress's own)."""


def _serve_workers(app: Flask, host: str, port: int, args: argparse.Namespace) -> None:
    from .prefork import listening_socket, supervise

    if args.quiet:
        os.environ[QUIET_ENV] = "1"
    else:
        os.environ.pop(QUIET_ENV, None)
    os.environ[WORKER_CONFIG_ENV] = worker_settings(app, args.workers)
    sock = listening_socket(host, port, BACKLOG)
    supervise(sock, args.workers, run_worker, {"threads": args.threads})


def run_worker(sock: socket.socket, options: dict[str, Any]) -> None:
    """One worker process of `--workers N`: its own app, waitress on the
    command's socket (prefork.py)."""
    from .prefork import ignore_ctrl_c

    ignore_ctrl_c()
    app = worker_app()
    _run_waitress(app, sockets=[sock], backlog=BACKLOG,
                  **_waitress_options(int(options["threads"])))
