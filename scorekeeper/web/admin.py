"""The admin page: a device holding the admin right (it opened the admin link
the command prints, or typed the admin PIN: CONTRACT §15) sees every running
game's PIN, gives itself the right to change any game, and ends or abandons
any running game; a game nobody has touched for a day may also be closed from
the history by a device that holds its right."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import engine, text
from ..i18n import gettext as _
from ..store import TurnConflict, loaded, running
from ..store import events as club
from ..store import games as stored
from ..store.merges import merges
from .auth import (
    admin_key_opens,
    admin_login,
    grant_admin,
    is_admin,
    remember_event_token,
    remember_token,
)
from .forms import AdminLoginForm, CloseForm, ConfirmForm
from .pages import can_edit, is_stale

bp = Blueprint("admin", __name__)


@bp.route("/admin", methods=["GET", "POST"])
def index() -> ResponseReturnValue:
    """List the running games with their PINs; ask for the admin PIN first
    (403 while it is missing or wrong, 429 while locked)."""
    if not is_admin():
        return _login()
    games = running.running_games()
    for game in games:
        game["stale"] = is_stale(game["updated_at"])
    return render_template(
        "admin/index.html", games=games, grant_form=ConfirmForm(),
        close_form=CloseForm(), merges=merges(),
    )


@bp.get("/admin/key/<key>")
def open_link(key: str) -> Response:
    """The admin link the command prints: the browser that opens it holds the
    admin right on its device cookie, and the key leaves the address bar."""
    if not admin_key_opens(key):
        abort(404)
    grant_admin()
    return redirect(url_for(".index"))


def _login() -> ResponseReturnValue:
    form = AdminLoginForm()
    error, status, headers = None, 403, {}
    if form.validate_on_submit():
        refusal = admin_login(form.admin_pin.data)
        if refusal is None:
            return redirect(url_for(".index"))
        status = refusal.status
        if refusal.status == 429:
            error = text.admin_pins_refused(refusal.retry_after)
            headers["Retry-After"] = str(refusal.retry_after)
        else:
            error = _("That is not the admin PIN.")
    elif request.method == "POST":
        error = _("The form has expired; please reload the page and try again.")
        status = 400
    body = render_template("admin/login.html", form=form, error=error)
    return body, status, headers


@bp.post("/admin/games/<int:game_id>/grant")
def grant(game_id: int) -> Response:
    """Give this device the right to change the game (any game, finished too:
    renaming and deleting belong to the admin)."""
    if not is_admin():
        abort(403)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    with loaded(game_id) as row:
        token = row.edit_token
    remember_token(game_id, token)
    flash(_("This device can now change game %(id)d.", id=game_id), "info")
    return redirect(url_for("table.game", game_id=game_id))


def _typed_number(field: str) -> int:
    """Return the number typed in the admin page's field (403 for anyone but
    the admin, 400 for anything but a number)."""
    raw = request.form.get(field, "").strip().lstrip("#")
    if not is_admin():
        abort(403)
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        abort(400)
    return int(raw)


@bp.post("/admin/grant")
def grant_by_number() -> Response:
    """grant, for a game number typed on the admin page (a finished game too)."""
    return grant(_typed_number("game"))


@bp.post("/admin/events/<int:event_id>/grant")
def grant_event(event_id: int) -> Response:
    """Give this device the organiser's right to a club night (CONTRACT §14),
    a restored one too, whose token no device held."""
    if not is_admin():
        abort(403)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    token = club.event_token(event_id)
    if token is None:
        abort(404)
    remember_event_token(event_id, token)
    flash(_("This device is now the organiser of this club night."), "info")
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/admin/event-grant")
def grant_event_by_number() -> Response:
    """grant_event, for a club night's number typed on the admin page."""
    return grant_event(_typed_number("event"))


@bp.post("/admin/merge")
def merge() -> Response:
    """Make two players one: every game of the first name gets the second
    (the ratings re-rate); a game both sat at is left as it is, and said."""
    if not is_admin():
        abort(403)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    old = request.form.get("from", "").strip()
    new = request.form.get("into", "").strip()
    try:
        renamed, skipped = stored.merge_player(old, new)
    except engine.InvalidName as exc:
        flash(text.invalid_name(exc), "error")
        return redirect(url_for(".index"))
    flash(text.players_merged(len(renamed), skipped), "info")
    return redirect(url_for(".index"))


@bp.post("/admin/games/<int:game_id>/close")
def close(game_id: int) -> Response:
    """End or abandon a running game: the admin any game, a device that holds
    the right one that nobody has touched for a day (from the history)."""
    with loaded(game_id) as row:
        allowed = is_admin() or (can_edit(row) and is_stale(row.updated_at))
        turn = row.game.turn
    if not allowed:
        abort(403)
    form = CloseForm()
    reason = form.reason.data
    back = url_for("history.index") if request.form.get("back") == "history" \
        else url_for(".index")
    if not form.validate_on_submit() or reason not in engine.CLOSING:
        abort(400)
    try:
        stored.close_game(game_id, reason, expected_turn=turn)
    except TurnConflict:
        flash(_("The game changed meanwhile; it was not closed."), "error")
    except engine.IllegalMove:
        flash(_("The game is already over."), "error")
    else:
        flash(_("Game %(id)d: %(what)s", id=game_id, what=text.end_reason(reason)),
              "info")
    return redirect(back)
