"""Bundles: the scripts (or styles) a page always loads together, sent as one answer.

A game page used to load seven scripts and two style sheets, each a request
with its own headers and its own gzip dictionary; as two bundles they cost ~6 KB
less on the wire (of the game page's 30 KB: benchmarks/bench_page.py) and fewer
round trips on a club's Wi-Fi.
A bundle's URL carries a hash of its content, so a phone keeps it until the
files change (`immutable`) and a revisit asks for nothing but the page. The
files stay as written in static/; a bundle is built in memory, once per version
of them.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
import zopfli.gzip
from flask import Blueprint, Flask, Response, abort, current_app, request, url_for

from .compress import STATIC_LEVEL, accepts_gzip

BUNDLES: dict[str, tuple[str, ...]] = {
    # Each file after those it names (`/// <reference path>`, checked by
    # .ci/check-scripts.mjs and tests/test_script_order.py); board.js after its parts.
    "game.js": (
        "localtime.js", "core.js", "net.js", "board-hooks.js", "offline.js",
        "table.js", "board-draw.js", "board-view.js", "board-picker.js",
        "board-pending.js", "board.js", "wakelock.js", "later.js",
    ),
    # The replay and the correction pages (each script finds its own page).
    "history.js": ("core.js", "net.js", "replay.js", "correct.js"),
    # The table view: its board is drawn with core.js's tile.
    "table-view.js": (
        "core.js", "net.js", "live.js", "tv.js", "wakelock.js", "later.js",
    ),
    # Fetched by later.js only when needed: the hints and saying the score
    # aloud once their switch is on, reading a photo once one is taken
    # (~2.4 KB on the wire a game page without them does not carry within its
    # 30 KB: benchmarks/bench_page.py).
    "hints.js": ("hints.js",),
    "photo.js": ("photo.js",),
    "speech.js": ("speech.js",),
    # The game page has no sheet of its own between these two.
    "game.css": ("app.css", "shell.css"),
}
"""Each bundle's name and the static files it joins, in order."""

YEAR = 365 * 24 * 3600
"""How long a browser keeps a bundle: its URL changes with its content."""

KINDS = {
    ".js": ("text/javascript", rjsmin.jsmin, b";\n"),
    ".css": ("text/css", rcssmin.cssmin, b"\n"),
}
"""By a bundle's suffix: its media type, its minifier, and what goes between two
files (";" keeps one script from running into the next)."""

bp = Blueprint("assets", __name__)


@dataclass(frozen=True)
class Built:
    """One version of a bundle: the files as written and minified-gzipped."""

    stamp: tuple[float, ...]
    digest: str
    plain: bytes
    packed: bytes


_lock = threading.Lock()
_built: dict[str, Built] = {}


def _files(name: str) -> list[Path]:
    """Return the paths of the files a bundle joins."""
    folder = Path(current_app.static_folder or "static")
    return [folder / part for part in BUNDLES[name]]


ZOPFLI_ITERATIONS = 5
"""Zopfli's rounds: its gzip of the game's scripts is 4% (0.7 KB) smaller than
gzip -9's, readable by every browser, in under a second, once per version;
more rounds gain a few bytes for seconds."""


def pack(data: bytes) -> bytes:
    """Return data gzipped as small as a bundle made once per version allows."""
    packed = zopfli.gzip.compress(data, numiterations=ZOPFLI_ITERATIONS)
    # Never larger than plain gzip (it is not, but a bundle must not grow).
    plain = gzip.compress(data, compresslevel=STATIC_LEVEL, mtime=0)
    return packed if len(packed) < len(plain) else plain


def build(name: str) -> Built:
    """Return the bundle's current version, built again when a file changed."""
    paths = _files(name)
    stamp = tuple(path.stat().st_mtime for path in paths)
    with _lock:
        found = _built.get(name)
    if found is not None and found.stamp == stamp:
        return found
    sources = [path.read_bytes() for path in paths]
    _, minify, between = KINDS[Path(name).suffix]
    plain = between.join(sources) + b"\n"
    packed = pack(between.join(minify(source) for source in sources) + b"\n")
    made = Built(stamp, hashlib.sha256(plain).hexdigest()[:16], plain, packed)
    with _lock:
        _built[name] = made
    return made


def bundle_url(name: str) -> str:
    """Return the URL of a bundle's current version (for templates)."""
    return url_for("assets.bundle", name=name, v=build(name).digest)


@bp.get("/assets/<name>")
def bundle(name: str) -> Response:
    """Serve a bundle: minified and gzipped to a browser, as written otherwise."""
    if name not in BUNDLES:
        abort(404)
    made = build(name)
    packed = accepts_gzip()
    response = Response(
        made.packed if packed else made.plain, mimetype=KINDS[Path(name).suffix][0]
    )
    if packed:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(made.digest, weak=packed)
    if request.args.get("v") == made.digest:
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    response.make_conditional(request)
    return response


def init_app(app: Flask) -> None:
    """Serve the bundles and give templates `bundle_url`."""
    app.register_blueprint(bp)
    app.jinja_env.globals["bundle_url"] = bundle_url
