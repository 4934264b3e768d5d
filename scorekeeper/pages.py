"""What the page blueprints share: loading a stored game for a page or a change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import abort

from . import auth, db


def load_or_404(game_id: int) -> db.GameRow:
    """Return the stored game, or answer 404; the caller releases it (db.release)."""
    row = db.load_game(game_id)
    if row is None:
        abort(404)
    return row


@contextmanager
def loaded(game_id: int) -> Iterator[db.GameRow]:
    """Yield the stored game (404 when there is none); release it after the block."""
    row = load_or_404(game_id)
    try:
        yield row
    finally:
        db.release(row)


def can_edit(row: db.GameRow) -> bool:
    """Return whether this browser's session holds the game's edit token."""
    return auth.session_may_edit(row.id, row.edit_token)


def load_to_edit(game_id: int) -> db.GameRow:
    """Return the game (released) for a change; 404 without it, 403 if not ours."""
    row = load_or_404(game_id)
    db.release(row)
    if not can_edit(row):
        abort(403)
    return row
