"""How many connections one server process holds, and for how long one may idle.

One guest can open thousands of idle connections. Waitress's loop must watch
them with poll() (select() cannot watch a descriptor numbered 1024 or more: the
loop raised and the server exited), each process may hold only as many as its
open-files limit leaves room for, and an idle one is closed soon, so that the
ones held by a guest give way to the table's (tests/test_server_limits.py).
"""

from __future__ import annotations

import sys

DESCRIPTOR_RESERVE = 128
"""Descriptors kept free beside the connections: the database and its WAL files
(a connection per thread), the photo/PDF helper's pipes, snapshot and restore
temp files, the log, the listening socket and Python's own files."""

DESCRIPTORS_PER_CONNECTION = 3
"""Descriptors one connection may take at once: its socket, its request body
spooled to a temp file (waitress does beyond 512 KB) and its answer spooled to
another (beyond 1 MB)."""

MAX_CONNECTIONS = 10_000
"""Connections one process holds at most, whatever its open-files limit: each
idle one costs waitress a few KB of memory (tests/test_server_limits.py holds
5,000 and the table is still answered)."""

MIN_CONNECTIONS = 20
"""Connections one process holds at least, even under a tiny open-files limit."""

IDLE_SECONDS = 20
"""Seconds a connection may wait between requests before the server closes it.
A browser opens a new one when it needs one; a stream (web/live.py) is a
request under way, never idle; browsers keep theirs longer (Chrome 300 s)."""

CLEANUP_SECONDS = 5
"""Seconds between the server's looks for idle connections to close."""


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit, where the
    system lets it; return the soft limit now in force (0 where unknown)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit; waitress's select() holds 512
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard
    if wanted == resource.RLIM_INFINITY or (sys.platform == "darwin"
                                            and wanted > 10_240):
        # macOS refuses a soft limit above OPEN_MAX (10,240), infinity included.
        wanted = 10_240 if sys.platform == "darwin" else 1_048_576
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else 1_048_576


def connection_limit(open_files: int) -> int:
    """Return the connections one process may hold under `open_files`
    descriptors (0: unknown), with room left for its own files."""
    if open_files <= 0:
        return 500  # waitress's select() on Windows watches 512 sockets
    room = (open_files - DESCRIPTOR_RESERVE) // DESCRIPTORS_PER_CONNECTION
    return max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, room))


def waitress_options(open_files: int) -> dict[str, object]:
    """Return waitress's settings for connections under `open_files` descriptors."""
    return {
        "connection_limit": connection_limit(open_files),
        "asyncore_use_poll": True,
        "channel_timeout": IDLE_SECONDS,
        "cleanup_interval": CLEANUP_SECONDS,
    }
