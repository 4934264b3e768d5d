"""A game's files, the backup and the restore by the API (CONTRACT §4, §8)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from ...formats import FORMATS, backup
from ...i18n import gettext as _
from ...store.backup import restore_backup
from ..auth import admin_pin_refusal
from ..errors import error_response
from ..transfers import (
    RESTORE_ENDPOINTS,
    backup_limit,
    backup_response,
    file_response,
    pin_message,
)

bp = Blueprint("files_api", __name__)

API_NAMES = {"scoresheet.csv": "scoresheet.csv", "record": "record.json"}
"""The CONTRACT §4 API's file URLs and the format each serves."""


@bp.url_value_preprocessor
def _allow_big_backups(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Before the body is read: a backup may be larger than other bodies.
    if endpoint in RESTORE_ENDPOINTS and request.method == "POST":
        request.max_content_length = backup_limit()


@bp.get("/games/<int:game_id>/<any(scoresheet.csv, record):name>")
def api_file(game_id: int, name: str) -> Response:
    """Return the API's score sheet CSV (a download) or record (JSON) of a game."""
    fmt = FORMATS[API_NAMES[name]]
    return file_response(game_id, fmt, download=fmt.name != "record.json")


@bp.get("/backup")
def api_backup() -> Response:
    """Return every game as one qwirkle-backup/1 JSON document (CONTRACT §8)."""
    return backup_response()


@bp.post("/restore")
def api_restore() -> Response:
    """Restore a backup sent as the body: {"restored", "skipped"}; all or nothing."""
    refusal = admin_pin_refusal()
    if refusal is not None:
        code, message = pin_message(refusal)
        response = error_response(refusal.status, code, message)
        if refusal.retry_after:
            response.headers["Retry-After"] = str(refusal.retry_after)
        return response
    if request.mimetype != "application/json":
        # A page on another site can post text/plain without asking; JSON it cannot.
        return error_response(
            415, "unsupported_media_type",
            _("Send the backup as the body, with Content-Type: application/json."),
        )
    try:
        done = restore_backup(backup.read_backup(request.stream, limit=backup_limit()))
    except backup.BackupError as exc:
        status = 413 if exc.code == "too_large" else 422
        extra = {k: v for k, v in (("game_number", exc.game_number),
                                   ("move_number", exc.move_number),
                                   ("detail", exc.detail)) if v is not None}
        return error_response(status, exc.code, str(exc), **extra)
    return jsonify({"restored": len(done.ids), "skipped": done.skipped})
