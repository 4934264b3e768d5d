"""What the page blueprints share: who may edit, files from games, time tags."""

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
    """Return `<time datetime="…Z" data-localtime="style">…</time>`, its text in
    the page's language and the device's zone (UTC, said so, until it is known).

    That text is what a browser without JavaScript shows; static/localtime.js
    rewrites it in the device's own time zone and keeps it as a title.
    """
    moment = text.parse_utc(value)
    if moment is None:
        return Markup.escape(empty)
    return Markup('<time datetime="{}" data-localtime="{}">{}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), style, text.local_time(value, style)
    )
