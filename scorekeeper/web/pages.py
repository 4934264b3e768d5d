"""What the page blueprints share: who may edit, files from games, expensive
renders (cached and counted here, built in web/helper.py's process), time tags,
JSON for a page's scripts."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from flask import Flask, abort, current_app
from markupsafe import Markup

from .. import i18n, text, timestamps
from ..formats import GameFile
from ..store import GameRow, loaded
from ..store import events as club
from ..store.stats import move_span
from . import auth
from .errors import Busy

RENDER_SLOTS = 2
"""Expensive renders (PDF, printable sheet, chart) running at once per process."""

RENDER_WAIT = 0.25
"""Seconds a render waits for a free slot before the request gets 503: a worker
thread that waits is one that cannot take a move meanwhile."""

RETRY_AFTER = 2
"""Seconds a 503 tells the client to wait."""

RENDER_CACHE = 32
"""Renders kept per process (a sheet of 1,000 moves is a few dozen KB)."""

_T = TypeVar("_T")


class Renders:
    """Expensive renders of games: cached per (game, turn, last change, language,
    zone), and at most `slots` built at once; others wait `wait` seconds, then
    get Busy (503)."""

    def __init__(self, slots: int, wait: float, size: int = RENDER_CACHE) -> None:
        self._slots = threading.BoundedSemaphore(slots)
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, Any] = OrderedDict()
        self.wait = wait
        self.size = size

    def _cached(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return True, self._done[key]
        return False, None

    def get(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """Return the render stored under key, building it in a free slot if new."""
        hit, value = self._cached(key)
        if hit:
            result: _T = value
            return result
        if not self._slots.acquire(timeout=self.wait):
            raise Busy(RETRY_AFTER)
        try:
            # Another request may have built it while this one waited.
            hit, value = self._cached(key)
            result = value if hit else build()
        finally:
            self._slots.release()
        with self._lock:
            self._done[key] = result
            self._done.move_to_end(key)
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        return result


def init_app(app: Flask) -> None:
    """Give app its render slots and cache."""
    app.extensions["scorekeeper_renders"] = Renders(
        app.config.get("RENDER_SLOTS", RENDER_SLOTS),
        app.config.get("RENDER_WAIT", RENDER_WAIT),
    )


def rendered(row: GameRow, name: str, build: Callable[[], _T]) -> _T:
    """Return build()'s render of the loaded game, from the cache when it is current.

    The key holds the game's turn and its last change (a rename or a correction
    changes that too), so a cached render is never stale; and the language and
    time zone it is written in, so a render is only ever served to a reader of
    the same.
    """
    renders: Renders = current_app.extensions["scorekeeper_renders"]
    language = i18n.current()
    zone = str(language.zone) if language.zone_known else ""
    return renders.get(
        (row.id, row.game.turn, row.updated_at, name, language.code, zone), build
    )


def can_edit(row: GameRow) -> bool:
    """Return whether this browser holds the game's edit right (its device
    cookie), or the organiser's right to the club night the game is in."""
    return auth.device_may_edit_game(row.id, row.edit_token)


def organises(event_id: int) -> bool:
    """Return whether this device holds the club night's organiser right (its
    edit token, never the join token)."""
    return auth.holds_event(event_id, club.event_token(event_id))


STALE_AFTER = timedelta(days=1)
"""A running game nobody has touched this long is offered for ending (admin.py)."""


def is_stale(updated_at: str | None) -> bool:
    """Return whether a running game's last change is more than a day old."""
    moment = timestamps.parse_utc(updated_at)
    return moment is not None and datetime.now(UTC) - moment > STALE_AFTER


def require_edit(game_id: int) -> None:
    """Answer 404 for an unknown game, 403 when this browser may not change it."""
    with loaded(game_id) as row:
        allowed = can_edit(row)
    if not allowed:
        abort(403)


def game_file(row: GameRow) -> GameFile:
    """Return what the file builders need of a loaded game (with its move times)."""
    first, last = move_span(row.id)
    return GameFile(
        id=row.id,
        names=tuple(row.names),
        game=row.game,
        created_at=row.created_at,
        first_move_at=first,
        last_move_at=last,
    )


def time_tag(value: str | None, style: str = "datetime", empty: str = "–") -> Markup:
    """Return `<time datetime="…Z" data-localtime="style">…</time>`, its text in
    the page's language and the device's zone (UTC, said so, until it is known).

    That text is what a browser without JavaScript shows; static/localtime.js
    rewrites it in the device's own time zone and keeps it as a title.
    """
    moment = timestamps.parse_utc(value)
    if moment is None:
        return Markup.escape(empty)
    return Markup('<time datetime="{}" data-localtime="{}">{}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), style, text.local_time(value, style)
    )


def turn_elapsed(row: GameRow) -> int:
    """Return the whole seconds since the turn started: since the game's last
    write (the last move stored, or an undo), or its creation."""
    started = timestamps.parse_utc(row.updated_at)
    if started is None:
        return 0
    return max(0, int((datetime.now(UTC) - started).total_seconds()))


def script_json(data: str) -> Markup:
    """Return JSON text safe inside <script type="application/json">.

    "<", ">" and "&" only occur inside JSON strings, where their escapes mean
    the same, so no "</script>" or comment opener can end the block early.
    """
    return Markup(
        data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    )
