"""What the page blueprints share: who may edit, files from games, time tags,
JSON for a page's scripts."""

from __future__ import annotations

from flask import abort
from markupsafe import Markup

from .. import text
from ..formats import GameFile
from ..store import GameRow, loaded
from ..store.stats import move_span
from . import auth


def can_edit(row: GameRow) -> bool:
    """Return whether this browser's session holds the game's edit token."""
    return auth.session_may_edit(row.id, row.edit_token)


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
    """Return `<time datetime="…Z" data-localtime="style">YYYY-MM-DD HH:MM UTC</time>`.

    The UTC text is what a browser without JavaScript shows; static/localtime.js
    rewrites it to the device's own time zone and keeps the UTC text as a title.
    """
    moment = text.parse_utc(value)
    if moment is None:
        return Markup.escape(empty)
    return Markup('<time datetime="{}" data-localtime="{}">{}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), style, text.utc_time(value, style)
    )


def script_json(data: str) -> Markup:
    """Return JSON text safe inside <script type="application/json">.

    "<", ">" and "&" only occur inside JSON strings, where their escapes mean
    the same, so no "</script>" or comment opener can end the block early.
    """
    return Markup(
        data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    )
