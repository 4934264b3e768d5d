"""Files in and out: every registered format of a game, import, backup, restore."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue

from ..formats import FORMATS, Format, backup
from ..i18n import gettext as _
from ..i18n import ngettext
from ..store import games as stored
from ..store import loaded
from ..store.backup import iter_stored_games, restore_games
from .auth import MAX_SESSION_TOKENS, remember_token
from .forms import UploadForm
from .pages import game_file

bp = Blueprint("files", __name__)

NAMES = ", ".join(sorted(FORMATS))
"""The registered file names, for the route's `any` converter."""

API_NAMES = {"scoresheet.csv": "scoresheet.csv", "record": "record.json"}
"""The CONTRACT §4 API's file URLs and the format each serves."""


def _file(game_id: int, fmt: Format, *, download: bool) -> Response:
    with loaded(game_id) as row:
        body = fmt.build(game_file(row))
    response = Response(body, mimetype=fmt.media_type)
    filename = fmt.download_name(game_id) if download else None
    if filename:
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get(f"/games/<int:game_id>/<any({NAMES}):name>")
def game_file_download(game_id: int, name: str) -> Response:
    """Return a game as one of the registered files (scoresheet.pdf, chart.svg…)."""
    return _file(game_id, FORMATS[name], download=True)


@bp.get("/api/games/<int:game_id>/<any(scoresheet.csv, record):name>")
def api_file(game_id: int, name: str) -> Response:
    """Return the API's score sheet CSV (a download) or record (JSON) of a game."""
    fmt = FORMATS[API_NAMES[name]]
    return _file(game_id, fmt, download=fmt.name != "record.json")


# --- import, backup, restore ---


def _uploaded_bytes(form: UploadForm, limit: int) -> bytes:
    """Return the uploaded file's bytes (at most limit + 1, so size is checkable)."""
    storage = form.file.data
    if storage is None or not getattr(storage, "filename", None):
        raise backup.BackupError(_("Choose a file to upload."), code="no_file")
    try:
        data: bytes = storage.stream.read(limit + 1)
        return data
    finally:
        # Large uploads are spooled to a temporary file: close it now.
        storage.close()


def _backup_limit() -> int:
    limit: int = current_app.config.get("MAX_BACKUP_BYTES", backup.MAX_BACKUP_BYTES)
    return limit


@bp.url_value_preprocessor
def _allow_big_backups(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before the app's before_request (CSRF parses the form there), so the
    # larger limit is in place before the backup body is read.
    if endpoint == "files.restore" and request.method == "POST":
        request.max_content_length = _backup_limit()


def _upload_page(
    template: str, form: UploadForm, error: backup.BackupError | str | None
) -> ResponseReturnValue:
    code = error.detail or error.code if isinstance(error, backup.BackupError) else None
    return render_template(
        template, form=form, error=str(error) if error else None, error_code=code
    ), 422 if error else 200


@bp.route("/import", methods=["GET", "POST"])
def import_game() -> ResponseReturnValue:
    """Upload a game record; an illegal or mis-scored record stores nothing."""
    form = UploadForm()
    error: backup.BackupError | str | None = None
    if form.validate_on_submit():
        try:
            data = _uploaded_bytes(form, backup.MAX_RECORD_BYTES)
            document = backup.loads(data, limit=backup.MAX_RECORD_BYTES)
            checked = backup.check_record(document)
            game_id, token = stored.store_game(checked.names, checked.game)
        except backup.BackupError as exc:
            error = exc
        else:
            remember_token(game_id, token)
            flash(_("Game imported as game %(id)d.", id=game_id), "success")
            return redirect(url_for("history.replay", game_id=game_id))
    elif request.method == "POST":
        error = _("The form has expired; please reload the page and try again.")
    return _upload_page("files/import.html", form, error)


@bp.get("/backup")
def backup_file() -> Response:
    """Return every game as one qwirkle-backup/1 JSON file, streamed game by game."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    body = stream_with_context(backup.stream(iter_stored_games(), stamp))
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="qwirkle-backup-{stamp[:10]}.json"'
    )
    return response


@bp.route("/restore", methods=["GET", "POST"])
def restore() -> ResponseReturnValue:
    """Upload a backup; every game is checked first and all or none are stored."""
    form = UploadForm()
    error: backup.BackupError | str | None = None
    if form.validate_on_submit():
        limit = _backup_limit()
        try:
            data = _uploaded_bytes(form, limit)
            items = backup.parse_backup(backup.loads(data, limit=limit))
        except backup.BackupError as exc:
            error = exc
        else:
            ids = restore_games(items)
            # The restoring browser may edit what it restored (the session keeps
            # the most recent few dozen tokens; older ones drop out).
            for game_id in ids[-MAX_SESSION_TOKENS:]:
                token = stored.edit_token(game_id)
                if token:
                    remember_token(game_id, token)
            flash(
                ngettext(
                    "Restored %(num)d game; nothing else was changed.",
                    "Restored %(num)d games; nothing else was changed.",
                    len(ids),
                ),
                "success",
            )
            return redirect(url_for("history.index"))
    elif request.method == "POST":
        error = _("The form has expired; please reload the page and try again.")
    return _upload_page("files/restore.html", form, error)
