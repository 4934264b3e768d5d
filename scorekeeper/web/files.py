"""Files in and out, the pages: every registered format of a game, import,
backup, restore. Their JSON API is api/files.py; what both answer alike is
transfers.py."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from ..formats import FORMATS, backup
from ..i18n import gettext as _
from ..i18n import ngettext
from ..store import games as stored
from ..store.backup import Restored, restore_backup
from . import quotas
from .auth import (
    MAX_DEVICE_GAMES,
    admin_pin_refusal,
    is_admin,
    remember_token,
)
from .forms import RestoreForm, UploadForm
from .transfers import (
    RESTORE_ENDPOINTS,
    backup_limit,
    backup_response,
    file_response,
    pin_message,
)

bp = Blueprint("files", __name__)

NAMES = ", ".join(sorted(FORMATS))
"""The registered file names, for the route's `any` converter."""

@bp.get(f"/games/<int:game_id>/<any({NAMES}):name>")
def game_file_download(game_id: int, name: str) -> Response:
    """Return a game as one of the registered files (scoresheet.pdf, chart.svg…)."""
    return file_response(game_id, FORMATS[name], download=True)


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


@bp.get("/backup")
def backup_file() -> Response:
    """Return every game as one qwirkle-backup/1 JSON file (the history's link)."""
    return backup_response()


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
            error, status = pin_message(refusal)[1], refusal.status
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
    # The restoring device may change what it restored (its cookie keeps the
    # newest MAX_DEVICE_GAMES; older ones drop out).
    for game_id in done.ids[-MAX_DEVICE_GAMES:]:
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
