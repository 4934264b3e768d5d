"""Child processes that die with the server: no orphans.

The server starts children: the helper that reads photos and draws PDFs
(web/helper.py) and, with `--workers N`, the worker processes. Stopped
with Ctrl+C, the server stops them; killed (`kill -9`, the OOM killer), it
cannot, and a 100 MB helper, or a worker still holding the port, would live on.
Each child therefore asks the kernel for a signal when its parent dies.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal this process gets when its parent dies."""

def die_with_parent() -> None:
    """Have this process get SIGTERM when its parent dies (Linux; elsewhere
    nothing), and stop now if the parent is already gone.

    Called first thing in a child the server starts: the helper
    (web/helper.py) and, with --workers N, each worker process (serve.worker_app).
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
