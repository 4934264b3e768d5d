"""Files in and out: every registered format of a game, import, backup, restore."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue

from ..formats import FORMATS, Format, backup, build
from ..i18n import gettext as _
from ..i18n import ngettext
from ..store import games as stored
from ..store import loaded
from ..store.backup import Restored, iter_stored_games, restore_backup
from ..store.events import events_for_backup
from . import quotas
from .auth import (
    MAX_SESSION_TOKENS,
    PinRefusal,
    admin_pin_refusal,
    is_admin,
    remember_token,
)
from .errors import error_response
from .forms import RestoreForm, UploadForm
from .helper import in_helper
from .pages import game_file, rendered

bp = Blueprint("files", __name__)

NAMES = ", ".join(sorted(FORMATS))
"""The registered file names, for the route's `any` converter."""

API_NAMES = {"scoresheet.csv": "scoresheet.csv", "record": "record.json"}
"""The CONTRACT §4 API's file URLs and the format each serves."""


def _file(game_id: int, fmt: Format, *, download: bool) -> Response:
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


RESTORE_ENDPOINTS = ("files.restore", "files.api_restore")
"""The routes that take a backup (their body limit is the backup's, for an admin)."""


def backup_limit() -> int:
    """Return the largest backup the restore routes read."""
    limit: int = current_app.config.get("MAX_BACKUP_BYTES", backup.MAX_BACKUP_BYTES)
    return limit


@bp.url_value_preprocessor
def _allow_big_backups(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before the app's before_request (CSRF parses the form there), so the
    # larger limit is in place before the backup body is read.
    if endpoint in RESTORE_ENDPOINTS and request.method == "POST":
        request.max_content_length = backup_limit()


def _upload_page(
    template: str, form: UploadForm, error: backup.BackupError | str | None,
    status: int = 422, **context: Any,
) -> tuple[str, int]:
    code = error.detail or error.code if isinstance(error, backup.BackupError) else None
    return render_template(
        template, form=form, error=str(error) if error else None, error_code=code,
        **context,
    ), status if error else 200


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
        except backup.BackupError as exc:
            error = exc
        else:
            refused = quotas.refusal()
            if refused is not None:
                return _upload_page("files/import.html", form, refused.message,
                                    refused.status)
            game_id, token = stored.store_game(checked.names, checked.game)
            remember_token(game_id, token)
            flash(_("Game imported as game %(id)d.", id=game_id), "success")
            return redirect(url_for("history.replay", game_id=game_id))
    elif request.method == "POST":
        error = _("The form has expired; please reload the page and try again.")
    return _upload_page("files/import.html", form, error)


def _backup_response() -> Response:
    """Return every game as one qwirkle-backup/1 file, streamed game by game."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    body = stream_with_context(
        backup.stream(iter_stored_games(), stamp, events_for_backup)
    )
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="qwirkle-backup-{stamp[:10]}.json"'
    )
    return response


@bp.get("/backup")
def backup_file() -> Response:
    """Return every game as one qwirkle-backup/1 JSON file (the history's link)."""
    return _backup_response()


@bp.get("/api/backup")
def api_backup() -> Response:
    """Return every game as one qwirkle-backup/1 JSON document (CONTRACT §8)."""
    return _backup_response()


def _pin_message(refusal: PinRefusal) -> tuple[str, str]:
    """Return the error code and sentence of a refused admin PIN."""
    if refusal.status == 429:
        return "too_many_tries", _(
            "Too many wrong admin PINs: wait %(n)d seconds, then try again.",
            n=refusal.retry_after,
        )
    return "admin_pin_required", _(
        "Restoring from another device needs the admin PIN, which the computer"
        " running the scorekeeper printed when it started (and keeps in the file"
        " admin_pin in its instance folder)."
    )


@bp.post("/api/restore")
def api_restore() -> Response:
    """Restore a backup sent as the body: {"restored", "skipped"}; all or nothing."""
    refusal = admin_pin_refusal()
    if refusal is not None:
        code, message = _pin_message(refusal)
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


@bp.route("/restore", methods=["GET", "POST"])
def restore() -> ResponseReturnValue:
    """Upload a backup; every game is checked as it is read and all or none stored."""
    form = RestoreForm()
    error: backup.BackupError | str | None = None
    status = 422
    headers: dict[str, str] = {}
    if form.validate_on_submit():
        refusal = admin_pin_refusal(form.admin_pin.data)
        if refusal is not None:
            error, status = _pin_message(refusal)[1], refusal.status
            if refusal.retry_after:
                headers["Retry-After"] = str(refusal.retry_after)
        else:
            try:
                done = _restore_upload(form)
            except backup.BackupError as exc:
                error = exc
            else:
                flash(_restored_text(len(done.ids), done.skipped), "success")
                return redirect(url_for("history.index"))
    elif request.method == "POST":
        error = _("The form has expired; please reload the page and try again.")
    body, code = _upload_page(
        "files/restore.html", form, error, status, needs_pin=not is_admin()
    )
    return body, code, headers


def _restore_upload(form: RestoreForm) -> Restored:
    """Restore the uploaded backup, reading it game by game; BackupError if bad."""
    storage = form.file.data
    if storage is None or not getattr(storage, "filename", None):
        raise backup.BackupError(_("Choose a file to upload."), code="no_file")
    try:
        done = restore_backup(backup.read_backup(storage.stream, limit=backup_limit()))
    finally:
        # Large uploads are spooled to a temporary file: close it now.
        storage.close()
    # The restoring browser may edit what it restored (the session keeps the
    # most recent few dozen tokens; older ones drop out).
    for game_id in done.ids[-MAX_SESSION_TOKENS:]:
        token = stored.edit_token(game_id)
        if token:
            remember_token(game_id, token)
    return done


def _restored_text(restored: int, skipped: int) -> str:
    """Return what a restore did, as the page says it."""
    done = ngettext(
        "Restored %(num)d game; nothing else was changed.",
        "Restored %(num)d games; nothing else was changed.",
        restored,
    )
    if not skipped:
        return done
    # Two sentences, so that each count gets its own plural.
    return done + " " + ngettext(
        "%(num)d game was already here and was skipped.",
        "%(num)d games were already here and were skipped.",
        skipped,
    )
