"""The club nights' JSON API (CONTRACT §14): create, read, rename and delete
a night, pair its rounds, move a game into it; seasons; every player's
rating."""

from __future__ import annotations

from typing import NoReturn, TypeGuard

from flask import Blueprint, Response, jsonify, request

from ... import engine, text
from ...i18n import gettext as _
from ...store import events as stored_events
from ...store import games as stored
from ...store import ratings, rosters, seasons
from .. import auth, rounds
from ..errors import error_response
from ..event_json import MAX_BEST, asked_best, event_json, season_json
from ..forms import MAX_PRESENT, check_event_date, check_event_name

bp = Blueprint("events_api", __name__)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@bp.errorhandler(_Refused)
def _refused(exc: _Refused) -> Response:
    return error_response(exc.status, exc.code, exc.message)


@bp.errorhandler(stored_events.EventNotFound)
def _no_event(exc: stored_events.EventNotFound) -> Response:
    return error_response(
        404, "not_found", _("There is no event %(id)s.", id=exc.event_id)
    )


@bp.errorhandler(seasons.SeasonNotFound)
def _no_season(exc: seasons.SeasonNotFound) -> Response:
    return error_response(
        404, "not_found", _("There is no season %(id)s.", id=exc.season_id))


def _bad(message: str, code: str = "invalid_event") -> NoReturn:
    raise _Refused(400, code, message)


def asked_scoring() -> engine.Scoring:
    """Return the scoring the request asks for (?scoring=, CONTRACT §14):
    wins when left out; anything else refused with a 400."""
    value = request.args.get("scoring", "wins")
    if value not in engine.SCORINGS:
        raise _Refused(400, "bad_request", _(
            "Standings are scored by %(names)s.", names=", ".join(engine.SCORINGS)))
    scoring: engine.Scoring = value  # type: ignore[assignment]
    return scoring


def _asked_best() -> int | None:
    """Return ?best= (each player's best N nights count), None when absent;
    400 for anything but a whole number from 1 to MAX_BEST."""
    try:
        return asked_best(request.args.get("best", ""))
    except ValueError:
        raise _Refused(400, "bad_request", _(
            "\"best\" is a number of nights, from 1 to %(num)d.", num=MAX_BEST)
        ) from None


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
    return jsonify({**event_json(event_id), "edit_token": token,
                    "join_token": stored_events.join_token(event_id)}), 201


@bp.get("/events/<int:event_id>")
def api_event(event_id: int) -> Response:
    """Return an event: its games and standings (?scoring=)."""
    return jsonify(event_json(event_id, asked_scoring()))


def _may_change_by_api(event_id: int) -> None:
    """Let this API request rename or delete the event, or raise a 403: its
    token (X-Event-Token, or the session's with CSRF), or this machine or an
    admin session (CONTRACT §14)."""
    token = stored_events.event_token(event_id)
    if token is None:
        raise stored_events.EventNotFound(event_id)
    # The organiser's token alone: the join token adds tables, nothing else.
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
    season = body.get("season", event["season"])
    count_ended = body.get("count_ended", event["count_ended"])
    count_leavers = body.get("count_leavers", event["count_leavers"])
    if season is not None and (not isinstance(season, int) or isinstance(season, bool)):
        _bad(_('"season" must be a season\'s id (a whole number) or "null".'),
             "bad_request")
    if not isinstance(count_ended, bool):
        _bad(_('"count_ended" must be "true" or "false".'), "bad_request")
    if not isinstance(count_leavers, bool):
        _bad(_('"count_leavers" must be "true" or "false".'), "bad_request")
    if season is not None:
        seasons.get_season(season)
    stored_events.rename_event(event_id, name, day)
    stored_events.set_event_options(event_id, season, count_ended, count_leavers)
    return jsonify(event_json(event_id))


@bp.delete("/events/<int:event_id>")
def api_delete(event_id: int) -> Response:
    """Delete an event: its games stay stored, in no event (200, their ids)."""
    stored_events.get_event(event_id)
    _may_change_by_api(event_id)
    kept = stored_events.delete_event(event_id)
    return jsonify({"id": event_id, "deleted": True, "games": kept})


@bp.post("/events/<int:event_id>/rounds")
def api_round(event_id: int) -> tuple[Response, int]:
    """Pair the night's next round (the organiser's): 201 with its number and
    tables."""
    stored_events.get_event(event_id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    _may_change_by_api(event_id)
    pairing = body.get("pairing", "swiss")
    players = body.get("players")
    size = body.get("table_size", 4)
    if (pairing not in ("swiss", "rating") or not isinstance(players, list)
            or not all(isinstance(p, str) for p in players)
            or len(players) > MAX_PRESENT
            or not isinstance(size, int) or isinstance(size, bool)
            or not engine.MIN_TABLE <= size <= engine.MAX_TABLE):
        _bad(_("A round takes \"pairing\" (\"swiss\" or \"rating\"), \"players\" (a"
               " list of names) and \"table_size\" (2 to 4)."), "bad_request")
    try:
        number, tables = rounds.pair_round(event_id, pairing, players, size)
    except engine.InvalidName as exc:
        raise _Refused(422, exc.code, text.invalid_name(exc)) from None
    except engine.SeatingError:
        raise _Refused(422, "too_few_players",
                       _("Seating needs at least two players.")) from None
    return jsonify({"round": number, "tables": tables}), 201


@bp.post("/events/<int:event_id>/games")
def api_move_game(event_id: int) -> Response:
    """Move a game started outside the night into it: the organiser's right
    and the game's (X-Edit-Token, or the device's); 409 when the game is in a
    night already. 200 with the night."""
    stored_events.get_event(event_id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    _may_change_by_api(event_id)
    game_id = body.get("game")
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id < 0:
        _bad(_('"game" must be a game\'s number (a whole number).'), "bad_request")
    token = stored.edit_token(game_id)
    if token is None:
        raise _Refused(404, "not_found", _("There is no game %(id)s.", id=game_id))
    allowed, reason = auth.request_may_edit(game_id, token)
    if not allowed:
        raise _Refused(403, reason, _("Moving a game needs its own right too."))
    if not stored_events.add_game(event_id, game_id, unplaced=True):
        raise _Refused(409, "in_other_event",
                       _("That game is already at a club night."))
    return jsonify(event_json(event_id))


@bp.post("/seasons")
def api_create_season() -> tuple[Response, int]:
    """Create a season: 201 with its id, name and (no) events."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    try:
        name = check_event_name(body.get("name"))
    except ValueError as exc:
        raise _Refused(422, "invalid_season", str(exc)) from None
    season_id = seasons.create_season(name)
    return jsonify(seasons.get_season(season_id)), 201


@bp.get("/seasons/<int:season_id>")
def api_season(season_id: int) -> Response:
    """Return a season: its nights and standings (?scoring=, ?best=)."""
    return jsonify(season_json(season_id, asked_scoring(), _asked_best()))


def _may_change_season_by_api(night_ids: list[int]) -> None:
    """Let this API request rename or delete a season, or change its roster,
    or raise a 403: the organiser's right to one of its nights (X-Event-Token,
    or the device's with X-CSRFToken), or the admin's; a season with no
    night, anyone (CONTRACT §14)."""
    if not night_ids or auth.is_admin():
        return
    reason = "missing_event_token"
    for night in night_ids:
        token = stored_events.event_token(night)
        if token is None:
            continue
        allowed, reason = auth.request_may_add_to_event(night, token)
        if allowed:
            return
    messages = {
        "bad_event_token": _("This event token belongs to none of the season's"
                             " club nights."),
        "missing_event_token": _("Changing this season needs the event token of"
                                 " one of its club nights."),
        "csrf_failed": _("The page's security token is missing or stale: reload."),
    }
    raise _Refused(403, reason, messages[reason])


def _season_body() -> dict[str, object]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."), "bad_request")
    return body


@bp.patch("/seasons/<int:season_id>")
def api_change_season(season_id: int) -> Response:
    """Rename a season: 200 with the season."""
    season = seasons.get_season(season_id)
    body = _season_body()
    _may_change_season_by_api(season["events"])
    try:
        name = check_event_name(body.get("name", season["name"]))
    except ValueError as exc:
        raise _Refused(422, "invalid_season", str(exc)) from None
    seasons.rename_season(season_id, name)
    return jsonify(season_json(season_id))


@bp.delete("/seasons/<int:season_id>")
def api_delete_season(season_id: int) -> Response:
    """Delete a season: its nights stay, in no season (200, their ids)."""
    season = seasons.get_season(season_id)
    _may_change_season_by_api(season["events"])
    nights = seasons.delete_season(season_id)
    return jsonify({"id": season_id, "deleted": True, "events": nights})


def _names(value: object) -> TypeGuard[list[str]]:
    """Return whether value is a list of at most MAX_PRESENT strings."""
    return isinstance(value, list) and len(value) <= MAX_PRESENT and all(
        isinstance(name, str) for name in value)


@bp.post("/seasons/<int:season_id>/roster")
def api_season_roster(season_id: int) -> Response:
    """Add names (and, with add_played, everyone who played at its nights)
    to a season's roster and take names off: 200 with the season."""
    season = seasons.get_season(season_id)
    body = _season_body()
    _may_change_season_by_api(season["events"])
    added, removed = body.get("add", []), body.get("remove", [])
    played = body.get("add_played", False)
    if not (_names(added) and _names(removed) and isinstance(played, bool)):
        _bad(_('A roster change takes "add" and "remove", each a list of at most'
               ' %(num)d names, and "add_played" ("true" or "false").',
               num=MAX_PRESENT), "bad_request")
    if played:
        added = [*added, *rosters.season_players(season_id)]
    try:
        rosters.change_roster(season_id, added, removed)
    except engine.InvalidName as exc:
        raise _Refused(422, exc.code, text.invalid_name(exc)) from None
    except ValueError:
        raise _Refused(422, "roster_full", _(
            "A roster holds at most %(num)d players.", num=rosters.MAX_ROSTER)
        ) from None
    return jsonify(season_json(season_id))


@bp.get("/ratings")
def api_ratings() -> Response:
    """Return every rated player's rating, highest ordinal first."""
    return jsonify([
        {key: row[key] for key in ("name", "mu", "sigma", "ordinal", "games")}
        for row in ratings.all_ratings()
    ])
