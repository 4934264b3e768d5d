"""Gzip for text answers when the client accepts it (pages, JSON, CSS, JS, SVG, CSV).

The standard library's gzip is enough here: a game page goes from ~80 KB to
under 20 KB, and a phone on a club's Wi-Fi waits for bytes, not for a better
ratio. Dynamic answers use a fast level (a move's answer costs ~0.03 ms to
compress at level 1, ~0.2 ms at 6), pages a better one; static files are
minified (rjsmin, rcssmin: comments say why in the source, and a phone need not
download them), compressed once at the best level and kept in memory, keyed by
their ETag; a client that takes no gzip gets the file as written.
Never compressed: event streams (each event must reach the client at once),
answers already encoded, ranges, anything below MIN_SIZE, and answers without
a body. A page is sent without its lines' indentation (INDENT).
"""

from __future__ import annotations

import gzip
import re
import threading
from collections.abc import Callable

import rcssmin
import rjsmin
from flask import Flask, Response, request

TEXT_TYPES = frozenset({
    "text/html", "text/css", "text/csv", "text/plain", "text/javascript",
    "application/javascript", "application/json", "image/svg+xml",
})
"""Media types worth compressing (JSON, markup and scripts shrink 4-6 times)."""

MIN_SIZE = 500
"""Smaller bodies are sent as they are: gzip's header would eat the gain."""

DYNAMIC_LEVEL = 1
"""Fast, for JSON: a recorded move's server time matters more than the last few
hundred bytes."""

PAGE_LEVEL = 6
"""Pages are asked for once per visit, not once per move: 20% fewer bytes for
~0.4 ms (a game page: 5.7 KB at level 1, 4.5 KB at 6)."""

STATIC_LEVEL = 9
"""Static files are compressed once per version, so the smallest result wins."""

INDENT = re.compile(rb"\n[ \t]+")
"""A line's indentation in a page: the templates' nesting, which the browser
reads as the newline before it (no page holds <pre> or <textarea>, where it
would count). Dropped before compressing: 118 bytes less on the wire for the
game page (benchmarks/bench_page.py)."""

MAX_STATIC = 1024 * 1024
"""Static files larger than this are sent as they are (none is near it)."""


MINIFIERS: dict[str, Callable[[bytes], bytes]] = {
    "text/javascript": rjsmin.jsmin,
    "application/javascript": rjsmin.jsmin,
    "text/css": rcssmin.cssmin,
}
"""Static media types sent minified inside their gzip (a third fewer bytes on
the wire for the game page's scripts and styles)."""


class _StaticGzip:
    """Compressed static files by ETag (a new file version has a new ETag)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bodies: dict[str, bytes] = {}

    def get(self, etag: str, response: Response) -> bytes:
        """Return the file's body compressed, read and compressed once per version."""
        with self._lock:
            found = self._bodies.get(etag)
        source = response.response
        try:
            if found is None:
                response.direct_passthrough = False
                data = response.get_data()
                minify = MINIFIERS.get(response.mimetype or "")
                if minify is not None:
                    data = minify(data)
                found = gzip.compress(data, compresslevel=STATIC_LEVEL, mtime=0)
                with self._lock:
                    self._bodies[etag] = found
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()  # the file send_file opened
        return found


def accepts_gzip() -> bool:
    """Return whether the request's Accept-Encoding allows gzip."""
    return request.accept_encodings["gzip"] > 0


def compress(response: Response, static: _StaticGzip) -> Response:
    """Return the response gzipped when worth it and the client accepts it
    (a page without its lines' indentation either way)."""
    if response.mimetype == "text/html" and not response.is_streamed:
        response.set_data(INDENT.sub(b"\n", response.get_data()))
    if (
        response.mimetype not in TEXT_TYPES
        or response.status_code not in (200, 201)
        or "Content-Encoding" in response.headers
        or "Content-Range" in response.headers
        or (response.is_streamed and not response.direct_passthrough)
        or not accepts_gzip()
    ):
        response.vary.add("Accept-Encoding")
        return response
    etag, weak = response.get_etag()
    if response.direct_passthrough:
        # A static file (send_file): read it, once per version.
        length = response.content_length
        if etag is None or length is None or not MIN_SIZE <= length <= MAX_STATIC:
            response.vary.add("Accept-Encoding")
            return response
        body = static.get(etag, response)
        response.direct_passthrough = False
    else:
        data = response.get_data()
        if len(data) < MIN_SIZE:
            response.vary.add("Accept-Encoding")
            return response
        level = PAGE_LEVEL if response.mimetype == "text/html" else DYNAMIC_LEVEL
        body = gzip.compress(data, compresslevel=level, mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    if etag is not None and not weak:
        # Another representation: the validator becomes weak (as nginx does);
        # If-None-Match compares weakly, so revalidation keeps working.
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress every eligible answer of app."""
    static = _StaticGzip()

    @app.after_request
    def _compress(response: Response) -> Response:
        return compress(response, static)
