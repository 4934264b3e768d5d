"""The club nights' JSON API (CONTRACT §14): create, read, rename and delete
an event, and every player's rating."""

from __future__ import annotations

from typing import NoReturn

from flask import Blueprint, Response, jsonify, request

from ...i18n import gettext as _
from ...store import events as stored_events
from ...store import ratings
from .. import auth
from ..errors import error_response
from ..event_json import event_json
from ..forms import check_event_date, check_event_name

bp = Blueprint("events_api", __name__)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@bp.errorhandler(_Refused)
def _refused(exc: _Refused) -> Response:
    return error_response(exc.status, exc.code, exc.message)


def _bad(message: str, code: str = "invalid_event") -> NoReturn:
    raise _Refused(400, code, message)


@bp.post("/events")
def api_create() -> tuple[Response, int]:
    """Create a club night: 201 with its id, name, date and edit_token."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    try:
        name = check_event_name(body.get("name"))
        day = check_event_date(body.get("date"))
    except ValueError as exc:
        _bad(str(exc))
    event_id, token = stored_events.create_event(name, day)
    auth.remember_event_token(event_id, token)
    return jsonify({**event_json(event_id), "edit_token": token}), 201


@bp.get("/events/<int:event_id>")
def api_event(event_id: int) -> Response:
    """Return an event: its games and standings."""
    return jsonify(event_json(event_id))


def _may_change_by_api(event_id: int) -> None:
    """Let this API request rename or delete the event, or raise a 403: its
    token (X-Event-Token, or the device's right with CSRF), or the admin
    right (CONTRACT §15)."""
    token = stored_events.event_token(event_id)
    if token is None:
        raise stored_events.EventNotFound(event_id)
    allowed, reason = auth.request_may_add_to_event(event_id, token)
    if allowed or auth.is_admin():
        return
    messages = {
        "bad_event_token": _("This event token does not belong to the event."),
        "missing_event_token": _("Changing this club night needs its event token."),
        "csrf_failed": _("The page's security token is missing or stale: reload."),
    }
    raise _Refused(403, reason, messages[reason])


@bp.patch("/events/<int:event_id>")
def api_change(event_id: int) -> Response:
    """Rename an event or change its date: 200 with the event."""
    event = stored_events.get_event(event_id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    _may_change_by_api(event_id)
    try:
        name = check_event_name(body.get("name", event["name"]))
        day = check_event_date(body.get("date", event["date"]))
    except ValueError as exc:
        raise _Refused(422, "invalid_event", str(exc)) from None
    stored_events.rename_event(event_id, name, day)
    return jsonify(event_json(event_id))


@bp.delete("/events/<int:event_id>")
def api_delete(event_id: int) -> Response:
    """Delete an event: its games stay stored, in no event (200, their ids)."""
    stored_events.get_event(event_id)
    _may_change_by_api(event_id)
    kept = stored_events.delete_event(event_id)
    return jsonify({"id": event_id, "deleted": True, "games": kept})


@bp.get("/ratings")
def api_ratings() -> Response:
    """Return every rated player's rating, highest ordinal first."""
    return jsonify([
        {key: row[key] for key in ("name", "mu", "sigma", "ordinal", "games")}
        for row in ratings.all_ratings()
    ])


@bp.errorhandler(stored_events.EventNotFound)
def _no_event(exc: stored_events.EventNotFound) -> Response:
    return error_response(
        404, "not_found", _("There is no event %(id)s.", id=exc.event_id)
    )
