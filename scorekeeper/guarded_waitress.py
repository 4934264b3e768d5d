"""Waitress guarded against one guest: bodies limited per route, accepts batched.

Waitress reads a whole body (to a temp file beyond 512 KB) before the app sees
the request, and checks only one limit for every route: a guest's 200 MB body
to any route filled the disk. Here each request's parser asks a function
(path, method, headers, peer) -> limit once its headers are in, and waitress's
own checks then hold that limit: against Content-Length before a byte of the
body is read (413), and against the bytes received for a chunked body
(web/bodies.py says which route takes how much; CONTRACT §8.1).
How many connections it holds is connections.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer

BodyLimit = Callable[[str, str, Mapping[str, str], str], int]
"""(path, method, headers as waitress keeps them, peer address) -> the largest
body in bytes the request may carry."""


class _WithBodyLimit:
    """Waitress's settings with another max_request_body_size (one request's)."""

    def __init__(self, adj: Any, max_body: int) -> None:
        self._adj = adj
        self.max_request_body_size = max_body

    def __getattr__(self, name: str) -> Any:
        return getattr(self._adj, name)


class RouteLimitedParser(HTTPRequestParser):
    """A request parser whose body limit is its route's."""

    def __init__(self, adj: Any, limit_for: BodyLimit, peer: str) -> None:
        super().__init__(adj)
        self._limit_for = limit_for
        self._peer = peer

    def parse_header(self, header_plus: bytes) -> None:
        """Parse the headers, then take the route's body limit in place of the
        server's (never above it)."""
        super().parse_header(header_plus)
        # parse_header set path and command (the stubs do not declare path).
        path, method = getattr(self, "path", None) or "/", self.command or "GET"
        limit = self._limit_for(str(path), str(method), self.headers, self._peer)
        # Waitress refuses a body of max_request_body_size bytes or more.
        wanted = min(limit + 1, self.adj.max_request_body_size)
        self.adj = cast(Any, _WithBodyLimit(self.adj, wanted))


class RouteLimitedChannel(HTTPChannel):
    """A connection whose requests are parsed by RouteLimitedParser."""

    def parser_class(self, adj: Any) -> RouteLimitedParser:  # type: ignore[override]
        """Return a parser for the next request on this connection."""
        peer = self.addr[0] if isinstance(self.addr, tuple) else ""
        server = cast(GuardedServer, self.server)
        return RouteLimitedParser(adj, server.body_limit_for, str(peer))


ACCEPT_BATCH = 64
"""Connections accepted at one wake of the server's loop. Waitress accepts one
per turn of a loop that looks at every open connection: with thousands held
by a guest, the table's new one waited behind the queue for many seconds."""


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server, accepting in batches, each body limited to its
    route's (RouteLimitedChannel)."""

    channel_class = RouteLimitedChannel
    body_limit_for: BodyLimit
    _map: dict[int, Any]  # waitress's socket map, as its own readable() counts

    def handle_accept(self) -> None:
        """Accept up to ACCEPT_BATCH waiting connections, within the limit."""
        for _ in range(ACCEPT_BATCH):
            if len(self._map) >= self.adj.connection_limit:
                return
            try:
                accepted = self.accept()
            except OSError:  # e.g. out of descriptors: try again at the next wake
                if self.adj.log_socket_errors:
                    self.logger.warning("server accept() failed", exc_info=True)
                return
            if accepted is None:
                return
            conn, addr = accepted
            try:
                self.set_socket_options(conn)
            except OSError:
                conn.close()  # closed by the client before it was accepted
                continue
            self.channel_class(self, conn, self.fix_addr(addr), self.adj,
                               map=self._map)


def guard(servers: Mapping[Any, Any], limit_for: BodyLimit) -> None:
    """Make every waitress TCP server in `servers` (the socket map given to
    waitress.create_server) a GuardedServer refusing bodies over limit_for's."""
    for server in list(servers.values()):
        if isinstance(server, TcpWSGIServer):
            # Waitress's create_server builds its own class: this one only
            # adds behaviour, no state.
            server.__class__ = GuardedServer
            cast(GuardedServer, server).body_limit_for = limit_for
