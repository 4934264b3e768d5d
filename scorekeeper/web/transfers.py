"""A game's files, backups and restores as answers: what the files pages
(files.py) and the API (api/files.py) answer alike."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Response, current_app, stream_with_context

from .. import text
from ..formats import Format, backup, build
from ..i18n import gettext as _
from ..store import loaded
from ..store.backup import club_for_backup, iter_stored_games
from .auth import PinRefusal
from .helper import in_helper
from .pages import game_file, rendered


def file_response(game_id: int, fmt: Format, *, download: bool) -> Response:
    with loaded(game_id) as row:
        if fmt.heavy:
            body = rendered(
                row, fmt.name, lambda: in_helper(build, fmt.name, game_file(row))
            )
        else:
            body = rendered(row, fmt.name, lambda: fmt.build(game_file(row)))
    response = Response(body, mimetype=fmt.media_type)
    filename = fmt.download_name(game_id) if download else None
    if filename:
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


RESTORE_ENDPOINTS = ("files.restore", "files_api.api_restore")
"""The routes that take a backup (their body limit is the backup's, for an admin)."""


def backup_limit() -> int:
    limit: int = current_app.config.get("MAX_BACKUP_BYTES", backup.MAX_BACKUP_BYTES)
    return limit


def backup_response() -> Response:
    """Return every game as one qwirkle-backup/1 file, streamed game by game."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    body = stream_with_context(
        backup.stream(iter_stored_games(), stamp, club_for_backup)
    )
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="qwirkle-backup-{stamp[:10]}.json"'
    )
    return response


def pin_message(refusal: PinRefusal) -> tuple[str, str]:
    """Return the error code and sentence of a refused admin PIN."""
    if refusal.status == 429:
        return "too_many_tries", text.admin_pins_refused(refusal.retry_after)
    return "admin_pin_required", _(
        "Restoring needs the admin right: open the admin link that the computer"
        " running the scorekeeper printed when it started, or type its admin PIN"
        " (kept in the file admin_pin in its instance folder)."
    )
