"""Club nights (issue 23, CONTRACT §14): events with several tables, their
standings, the event's TV view, seating for the next round, and the ratings.

The event's edit token is what adds a table: the host's device holds it from
creating the event, and shows it as a join link and QR code; a device that
follows the link holds it too (in its session) and may start tables there.
"""

from __future__ import annotations

import io
import json
import random
import re
from datetime import date as Date
from typing import Any, NoReturn

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from .. import engine, formats, net, text
from ..formats import bgstats
from ..i18n import gettext as _
from ..store import GameNotFound, loaded, ratings, seasons
from ..store import events as club
from ..store import games as stored
from . import auth
from .errors import error_page, error_response, is_api_path
from .forms import (
    MAX_EVENT_NAME,
    MAX_PRESENT,
    ConfirmForm,
    EventForm,
    SeasonForm,
    SeatingForm,
    TablesForm,
)
from .live import event_stream, polled_state
from .pages import can_edit, game_file, organises

bp = Blueprint("events", __name__)

api_bp = Blueprint("events_api", __name__)
"""The JSON half (CONTRACT §14): CSRF-exempt like the games API, since a page
elsewhere cannot send a JSON body without asking first."""

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@api_bp.errorhandler(_Refused)
def _refused(exc: _Refused) -> Response:
    return error_response(exc.status, exc.code, exc.message)


@bp.errorhandler(club.EventNotFound)
@api_bp.errorhandler(club.EventNotFound)
def _no_event(exc: club.EventNotFound) -> Response | Any:
    if is_api_path():
        return error_response(
            404, "not_found", _("There is no event %(id)s.", id=exc.event_id)
        )
    return error_page(NotFound())


def _bad(message: str, code: str = "invalid_event") -> NoReturn:
    raise _Refused(400, code, message)


def check_event_name(value: object) -> str:
    """Return an event's name, trimmed; raise ValueError with the page's sentence."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(_("Give the evening a name."))
    name = " ".join(value.split())
    if len(name) > MAX_EVENT_NAME:
        raise ValueError(_("A name is at most %(num)d characters.", num=MAX_EVENT_NAME))
    if any(not ch.isprintable() for ch in name):
        raise ValueError(_("The name holds characters that cannot be shown."))
    return name


def check_event_date(value: object) -> str:
    """Return an ISO date (today when empty); raise ValueError with a sentence."""
    if value is None or value == "":
        return Date.today().isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return Date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise ValueError(_("The date is written as year-month-day, e.g. 2026-12-04."))


def _with_standings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return standings rows (CONTRACT §14 keys only)."""
    keys = ("name", "games", "wins", "points", "value", "rank")
    return [{key: row[key] for key in keys} for row in rows]


def asked_scoring() -> engine.Scoring:
    """Return the scoring the request asks for (?scoring=, CONTRACT §14):
    wins when left out; anything else refused with a 400."""
    value = request.args.get("scoring", "wins")
    if value not in engine.SCORINGS:
        raise _Refused(400, "bad_request", _(
            "Standings are scored by %(names)s.", names=", ".join(engine.SCORINGS)))
    scoring: engine.Scoring = value  # type: ignore[assignment]
    return scoring


def event_json(event_id: int, scoring: engine.Scoring = "wins") -> dict[str, Any]:
    """Return an event as CONTRACT §14 answers it."""
    event = club.get_event(event_id)
    return {
        "id": event["id"], "name": event["name"], "date": event["date"],
        "season": event["season"], "count_ended": event["count_ended"],
        "games": club.event_game_ids(event_id), "scoring": scoring,
        "standings": _with_standings(club.standings(event_id, scoring)),
    }


# --- the JSON API ---


@api_bp.post("/events")
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
    event_id, token = club.create_event(name, day)
    auth.remember_event_token(event_id, token)
    return jsonify({**event_json(event_id), "edit_token": token,
                    "join_token": club.join_token(event_id)}), 201


@api_bp.get("/events/<int:event_id>")
def api_event(event_id: int) -> Response:
    """Return an event: its games and standings (?scoring=)."""
    return jsonify(event_json(event_id, asked_scoring()))


def _may_change_by_api(event_id: int) -> None:
    """Let this API request rename or delete the event, or raise a 403: its
    token (X-Event-Token, or the session's with CSRF), or this machine or an
    admin session (CONTRACT §14)."""
    token = club.event_token(event_id)
    if token is None:
        raise club.EventNotFound(event_id)
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


@api_bp.patch("/events/<int:event_id>")
def api_change(event_id: int) -> Response:
    """Rename an event or change its date: 200 with the event."""
    event = club.get_event(event_id)
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
    if season is not None and (not isinstance(season, int) or isinstance(season, bool)):
        _bad(_('"season" must be a season\'s id (a whole number) or null.'),
             "bad_request")
    if not isinstance(count_ended, bool):
        _bad(_('"count_ended" must be true or false.'), "bad_request")
    if season is not None:
        seasons.get_season(season)
    club.rename_event(event_id, name, day)
    club.set_event_options(event_id, season, count_ended)
    return jsonify(event_json(event_id))


@api_bp.delete("/events/<int:event_id>")
def api_delete(event_id: int) -> Response:
    """Delete an event: its games stay stored, in no event (200, their ids)."""
    club.get_event(event_id)
    _may_change_by_api(event_id)
    kept = club.delete_event(event_id)
    return jsonify({"id": event_id, "deleted": True, "games": kept})


def pair_round(event_id: int, pairing: str, names: list[str],
               table_size: int, keep: bool = True) -> tuple[int, list[list[str]]]:
    """Seat the players present for the event's next round: Swiss by the
    night's standings so far, or balanced by rating (CONTRACT §14); keep it
    as the night's next round (its number; 0 when not kept: the page's
    suggestion, whose pairs count once its tables start). Raise
    engine.InvalidName or engine.SeatingError."""
    checked = _present_names(names)
    sizes = engine.round_sizes(len(checked), table_size)
    if pairing == "swiss":
        place = {engine.name_key(row["name"]): index
                 for index, row in enumerate(club.standings(event_id))}
        order = sorted(checked, key=lambda name: (
            place.get(engine.name_key(name), len(place)), engine.name_key(name)))
        tables = engine.swiss_tables(order, sizes, club.met_pairs(event_id),
                                     key=engine.name_key)
    else:
        tables = engine.seat_tables(checked, _present_ratings(checked), sizes=sizes)
    return (club.add_round(event_id, tables) if keep else 0), tables


@api_bp.post("/events/<int:event_id>/rounds")
def api_round(event_id: int) -> tuple[Response, int]:
    """Pair the night's next round (the organiser's): 201 with its number and
    tables."""
    club.get_event(event_id)
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
        _bad(_("A round takes \"pairing\" (swiss or rating), \"players\" (a list"
               " of names) and \"table_size\" (2 to 4)."), "bad_request")
    try:
        number, tables = pair_round(event_id, pairing, players, size)
    except engine.InvalidName as exc:
        raise _Refused(422, exc.code, text.invalid_name(exc)) from None
    except engine.SeatingError:
        raise _Refused(422, "too_few_players",
                       _("Seating needs at least two players.")) from None
    return jsonify({"round": number, "tables": tables}), 201


@api_bp.post("/events/<int:event_id>/games")
def api_move_game(event_id: int) -> Response:
    """Move a game started outside the night into it: the organiser's right
    and the game's (X-Edit-Token, or the device's); 409 when the game is in a
    night already. 200 with the night."""
    club.get_event(event_id)
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
    if not club.add_game(event_id, game_id, unplaced=True):
        raise _Refused(409, "in_other_event",
                       _("That game is already at a club night."))
    return jsonify(event_json(event_id))


@bp.errorhandler(seasons.SeasonNotFound)
@api_bp.errorhandler(seasons.SeasonNotFound)
def _no_season(exc: seasons.SeasonNotFound) -> Response | Any:
    if is_api_path():
        return error_response(
            404, "not_found", _("There is no season %(id)s.", id=exc.season_id))
    return error_page(NotFound())


def season_json(season_id: int, scoring: engine.Scoring = "wins",
                best: int | None = None) -> dict[str, Any]:
    """Return a season as CONTRACT §14 answers it: its nights and the
    standings of all their games together (each night's choice of whether
    games ended early count), or of each player's best `best` nights."""
    season = seasons.get_season(season_id)
    nights = [club.results([night], club.get_event(night)["count_ended"])
              for night in season["events"]]
    return {**season, "scoring": scoring,
            "standings": engine.season_standings(nights, scoring, best)}


@api_bp.post("/seasons")
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


def _asked_best(refuse: bool) -> int | None:
    """Return ?best= (each player's best N nights count), None when absent;
    a value that is not a whole number from 1: 400 (refuse) or None."""
    value = request.args.get("best", "")
    if value.isascii() and value.isdigit() and 0 < int(value) <= MAX_BEST:
        return int(value)
    if value and refuse:
        raise _Refused(400, "bad_request", _(
            "\"best\" is a number of nights, from 1 to %(num)d.", num=MAX_BEST))
    return None


MAX_BEST = 100
"""Most nights a season's ?best= may keep."""


@api_bp.get("/seasons/<int:season_id>")
def api_season(season_id: int) -> Response:
    """Return a season: its nights and standings (?scoring=, ?best=)."""
    return jsonify(season_json(season_id, asked_scoring(), _asked_best(True)))


@bp.route("/seasons", methods=["GET", "POST"])
def season_index() -> str | Response:
    """List the seasons; on a valid POST start a new one."""
    form = SeasonForm()
    error = None
    if form.validate_on_submit():
        try:
            name = check_event_name(form.name.data)
        except ValueError as exc:
            error = str(exc)
        else:
            season_id = seasons.create_season(name)
            return redirect(url_for("events.season", season_id=season_id))
    return render_template("events/seasons.html", form=form, error=error,
                           seasons=seasons.list_seasons(), max_name=MAX_EVENT_NAME)


def season_context(season_id: int) -> dict[str, Any]:
    """Return what a season's page and files show: its nights, its standings
    by the page's scoring, and each player's best N nights when asked."""
    scoring, best = page_scoring(), _asked_best(False)
    found = season_json(season_id, scoring, best)
    rows = found["standings"]
    rated = ratings.ratings_by_key([engine.name_key(r["name"]) for r in rows])
    for row in rows:
        row["rated"] = rated.get(engine.name_key(row["name"]))
        row["rating"] = row["rated"]["ordinal"] if row["rated"] else None
    return {
        "season": found, "standings": rows, "scoring": scoring, "best": best,
        "scorings": text.scoring_names(),
        "nights": [club.get_event(night) for night in found["events"]],
        "scoring_note": text.scoring_note(scoring, True),
        "best_note": text.season_best(best),
    }


@bp.get("/seasons/<int:season_id>")
def season(season_id: int) -> str:
    """Show a season: its nights and the standings over all of them."""
    return render_template("events/season.html", **season_context(season_id))


@bp.get("/seasons/<int:season_id>/standings.csv")
def season_csv(season_id: int) -> Response:
    """Download a season's standings as CSV (the night's columns)."""
    context = season_context(season_id)
    body = formats.EVENT_FORMATS["standings.csv"].build(formats.StandingsFile(
        id=season_id, name=context["season"]["name"], date="",
        rows=context["standings"]))
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="season-{season_id}-standings.csv"')
    return response


@bp.post("/events/<int:event_id>/season")
def event_season(event_id: int) -> Response:
    """Put a club night in a season, or in none (the organiser's)."""
    event = _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    raw = request.form.get("season", "")
    season_id = int(raw) if raw.isascii() and raw.isdigit() else None
    if season_id is not None:
        seasons.get_season(season_id)
    club.set_event_options(event_id, season_id, event["count_ended"])
    return redirect(url_for("events.event", event_id=event_id))


@api_bp.get("/ratings")
def api_ratings() -> Response:
    """Return every rated player's rating, highest ordinal first."""
    return jsonify([
        {key: row[key] for key in ("name", "mu", "sigma", "ordinal", "games")}
        for row in ratings.all_ratings()
    ])


# --- pages ---


def may_add(event_id: int) -> bool:
    """Return whether this device may add tables to the event: it holds the
    organiser's or the join right, or the admin's."""
    return (organises(event_id) or auth.is_admin()
            or auth.holds_event(event_id, club.join_token(event_id)))


def may_change(event_id: int) -> bool:
    """Return whether this device may rename, delete or pair the event, and
    correct its games: the organiser's right or the admin's (never the join
    link's)."""
    return organises(event_id) or auth.is_admin()


def _require_change(event_id: int) -> dict[str, Any]:
    """Return the event, or answer 404 (none) or 403 (no right to change it)."""
    event = club.get_event(event_id)
    if not may_change(event_id):
        abort(403)
    return event


def _join_link(event_id: int, token: str) -> str | None:
    """Return the event's join link at the address the server listens on (never
    the request's Host, which a guest may set); None when only this machine
    reaches the server."""
    port = current_app.config.get("LISTEN_PORT") or request.environ.get("SERVER_PORT")
    base = net.reachable_url(
        current_app.config.get("LISTEN_HOST"), int(port) if port else None
    )
    if base is None:
        return None
    return base.rstrip("/") + url_for("events.join", event_id=event_id, token=token)


def _submitted(form: EventForm) -> tuple[tuple[str, str] | None, str | None]:
    """A valid POST's (name, date), checked; else None and, when the POST was
    valid but its name or date is not, the sentence saying what is wrong."""
    if not form.validate_on_submit():
        return None, None
    try:
        name = check_event_name(form.name.data)
        return (name, check_event_date(form.date.data)), None
    except ValueError as exc:
        return None, str(exc)


@bp.route("/events", methods=["GET", "POST"])
def index() -> str | Response:
    """List the club nights; on a valid POST start a new one on this device."""
    form = EventForm()
    checked, error = _submitted(form)
    if checked is not None:
        event_id, token = club.create_event(*checked)
        auth.remember_event_token(event_id, token)
        flash(_("Club night started. Add a table for each game."), "info")
        return redirect(url_for("events.event", event_id=event_id))
    if request.method == "GET":
        form.date.data = Date.today().isoformat()
    undo = request.args.get("undo", "")
    undo_id = int(undo) if undo.isascii() and undo.isdigit() and len(undo) < 19 \
        else None
    return render_template(
        "events/index.html", form=form, error=error, events=club.list_events(),
        max_name=MAX_EVENT_NAME,
        undo_id=undo_id if undo_id is not None and _may_undo(undo_id) else None,
        undo_form=ConfirmForm(),
    )


def _tables(event_id: int) -> list[dict[str, Any]]:
    """Return the event's tables with whose turn it is at each running one."""
    tables = club.event_tables(event_id)
    for table in tables:
        table["current"] = None
        table["turn_line"] = ""
        if table["status"] != "active":
            continue
        try:
            with loaded(table["id"]) as row:
                game = row.game
                if game.status == "active":
                    table["current"] = game.current_player
                    table["turn_line"] = _(
                        "%(name)s to play", name=row.names[game.current_player]
                    )
        except GameNotFound:
            continue  # deleted meanwhile
    return tables


def page_scoring() -> engine.Scoring:
    """Return the scoring a page asks for (?scoring=), wins when it names none."""
    value = request.args.get("scoring", "wins")
    scoring: engine.Scoring = value if value in engine.SCORINGS else "wins"  # type: ignore[assignment]
    return scoring


def _standings_with_ratings(event_id: int, scoring: engine.Scoring = "wins",
                            as_of: str | None = None) -> list[dict[str, Any]]:
    """Return the standings, each row with its player's rating: today's, or as
    it stood at the end of the day as_of (a night's files, CONTRACT §14)."""
    rows = club.standings(event_id, scoring)
    keys = [engine.name_key(row["name"]) for row in rows]
    found = ratings.ratings_as_of(keys, as_of) if as_of else ratings.ratings_by_key(
        keys)
    for row in rows:
        rated = found.get(engine.name_key(row["name"]))
        row["rating"] = rated["ordinal"] if rated else None
        row["rated"] = rated
    return rows


def event_context(event_id: int, dated: bool = False) -> dict[str, Any]:
    """Return what the event page shows (standings by the page's ?scoring=);
    dated: with the ratings as they stood at the end of the night."""
    event = club.get_event(event_id)
    tables = _tables(event_id)
    scoring = page_scoring()
    standings = _standings_with_ratings(
        event_id, scoring, event["date"] if dated else None)
    allowed = may_add(event_id)
    token = club.join_token(event_id) if allowed else None
    finished = sum(1 for t in tables if t["status"] == "finished"
                   and t["end_reason"] != "abandoned")
    running = sum(1 for t in tables if t["status"] == "active")
    return {
        "live_key": club.change_key(event_id),
        "event": event, "tables": tables, "standings": standings,
        "may_add": allowed,
        "may_change": may_change(event_id),
        "may_grant": auth.is_admin() and not organises(event_id),
        "seasons": seasons.list_seasons(),
        "grant_form": ConfirmForm(),
        "join_link": _join_link(event_id, token) if token else None,
        "finished": finished, "running": running,
        "note": text.standings_note(finished, running),
        "scoring": scoring, "scorings": text.scoring_names(),
        "scoring_note": text.scoring_note(scoring, event["count_ended"]),
        "as_of": text.ratings_as_of(event["date"]) if dated else "",
        "players": club.event_players(event_id),
    }


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> str:
    """Show a club night: its tables, live totals, standings and seating."""
    context = event_context(event_id)
    seating = SeatingForm()
    # Tonight's players; before the first table, last night's as a start.
    seating.present.data = "\n".join(
        context["players"] or club.previous_players(event_id))
    return render_template(
        "events/event.html", **context, seating=seating, suggestion=None,
        tables_form=TablesForm(), max_present=MAX_PRESENT,
    )


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
def edit(event_id: int) -> ResponseReturnValue:
    """Rename a club night or change its date (its token, this machine or admin)."""
    event = _require_change(event_id)
    form = EventForm()
    checked, error = _submitted(form)
    if checked is not None:
        club.rename_event(event_id, *checked)
        flash(_("Club night saved."), "success")
        return redirect(url_for("events.event", event_id=event_id))
    if request.method == "GET":
        form.name.data, form.date.data = event["name"], event["date"]
    status = 422 if error else 200
    return render_template(
        "events/edit.html", event=event, form=form, error=error,
        max_name=MAX_EVENT_NAME, games=len(club.event_game_ids(event_id)),
        delete_form=ConfirmForm(),
    ), status


@bp.post("/events/<int:event_id>/delete")
def delete(event_id: int) -> Response:
    """Delete a club night; its games stay in the history, in no event."""
    _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    kept = club.delete_event(event_id)
    flash(text.event_deleted(len(kept)), "success")
    return redirect(url_for("events.index", undo=event_id))


def _may_undo(event_id: int) -> bool:
    """Return whether this device may bring back the deleted night: its
    organiser (or the admin), within club.UNDO_SECONDS."""
    token = club.deleted_event_token(event_id)
    return token is not None and (auth.holds_event(event_id, token)
                                  or auth.is_admin())


@bp.post("/events/<int:event_id>/undelete")
def undelete(event_id: int) -> Response:
    """Bring back a club night deleted by mistake, with its games."""
    if not _may_undo(event_id):
        abort(404)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    club.undelete_event(event_id)
    flash(_("Club night brought back."), "success")
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/events/<int:event_id>/count-ended")
def count_ended(event_id: int) -> Response:
    """Count the games ended early in the standings, or leave them out (the
    organiser's choice, CONTRACT §14)."""
    event = _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    club.set_event_options(event_id, event["season"], not event["count_ended"])
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/events/<int:event_id>/move-game")
def move_game(event_id: int) -> Response:
    """Move a game this device holds, started outside any night, into the
    night (the organiser's form)."""
    _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    raw = request.form.get("game", "").strip().lstrip("#")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        abort(400)
    try:
        with loaded(int(raw)) as row:
            allowed = can_edit(row)
    except GameNotFound:
        allowed = False
    if not allowed or not club.add_game(event_id, int(raw), unplaced=True):
        flash(_("Only a game this device holds, and that is at no club night,"
                " can move here."), "error")
    return redirect(url_for("events.event", event_id=event_id))


@bp.get("/events/<int:event_id>/join/<token>")
def join(event_id: int, token: str) -> Response:
    """Give this device the right the link carries: the join token's (add
    tables) from the QR code, or the organiser's from an older night's link,
    whose token is the edit token. A device already the organiser stays so."""
    organiser = club.event_token(event_id)
    joining = club.join_token(event_id)
    if organiser is None or joining is None or not (
            auth.same_text(token, organiser) or auth.same_text(token, joining)):
        abort(404)
    if not organises(event_id):
        auth.remember_event_token(event_id, token)
    flash(_("This device can now start tables at this club night."), "info")
    return redirect(url_for("events.event", event_id=event_id))


@bp.get("/events/<int:event_id>/join.svg")
def join_code(event_id: int) -> Response:
    """Draw the event's join link as a QR code, for a device holding the token."""
    club.get_event(event_id)
    if not may_add(event_id):
        abort(403)
    token = club.join_token(event_id) or ""
    url = _join_link(event_id, token)
    if url is None:
        abort(404)
    # A file an <img> shows: with its namespace and size (svg_inline has neither).
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False
    )
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    # The code holds the event's token: never kept by a shared cache.
    response.cache_control.private = True
    response.cache_control.no_store = True
    return response


def _present_ratings(names: list[str]) -> dict[str, float]:
    found = ratings.ratings_by_key([engine.name_key(n) for n in names])
    return {
        name: found[engine.name_key(name)]["ordinal"]
        for name in names if engine.name_key(name) in found
    }


def _present_names(names: list[str]) -> list[str]:
    """Return the names by the one name rule, once each (engine.InvalidName)."""
    checked: list[str] = []
    seen: set[str] = set()
    for raw in names:
        name = engine.normalise_name(raw)
        key = engine.name_key(name)
        if key in seen:
            raise engine.InvalidName("names_duplicate", {"name": name})
        seen.add(key)
        checked.append(name)
    return checked


@bp.post("/events/<int:event_id>/seating")
def seating(event_id: int) -> str:
    """Suggest tables of 2-4 for the players present (balanced by rating, or at
    random); the page then starts them in one tap."""
    context = event_context(event_id)
    form = SeatingForm()
    suggestion = None
    error = None
    if form.validate_on_submit():
        names = form.names()
        try:
            if len(names) > MAX_PRESENT:
                raise ValueError(_("At most %(num)d players at once.",
                                   num=MAX_PRESENT))
            checked = _present_names(names)
        except engine.InvalidName as exc:
            error = text.invalid_name(exc)
        except (ValueError, engine.EngineError) as exc:
            error = str(exc)
        else:
            try:
                if form.mode.data == "swiss":
                    suggestion = pair_round(event_id, "swiss", checked,
                                            engine.MAX_TABLE, keep=False)[1]
                elif form.mode.data == "random":
                    suggestion = engine.seat_tables(checked, rng=random.Random())
                else:
                    suggestion = engine.seat_tables(checked, _present_ratings(checked))
            except engine.SeatingError:
                error = _("Seating needs at least two players.")
    tables_form = TablesForm()
    if suggestion:
        tables_form.tables.data = json.dumps(suggestion, ensure_ascii=False)
    rated = _present_ratings([n for t in suggestion or [] for n in t])
    return render_template(
        "events/event.html", **context, seating=form, suggestion=suggestion,
        suggestion_ratings=rated, seating_error=error, tables_form=tables_form,
        max_present=MAX_PRESENT,
    )


@bp.post("/events/<int:event_id>/tables")
def start_tables(event_id: int) -> Response:
    """Start the suggested tables as games of the event, all or none."""
    club.get_event(event_id)
    if not may_add(event_id):
        abort(403)
    form = TablesForm()
    if not form.validate_on_submit():
        abort(400)
    tables = form.table_names()
    if not tables or len(tables) > MAX_PRESENT // 2:
        abort(400)
    checked = []
    try:
        for names in tables:
            checked.append(engine.check_players(names, engine.CLASSIC))
        # One person, one table.
        _present_names([name for names in checked for name in names])
    except engine.EngineError as exc:
        flash(text.error(exc), "error")
        return redirect(url_for("events.event", event_id=event_id))
    for names in checked:
        game_id, token = stored.create_game(names)
        if not club.add_game(event_id, game_id):
            stored.delete_game(game_id)  # the night was deleted meanwhile
            abort(404)
        auth.remember_token(game_id, token)
    flash(_("%(num)d tables started.", num=len(checked)), "info")
    return redirect(url_for("events.event", event_id=event_id))


def _standings_file(event_id: int) -> formats.StandingsFile:
    context = event_context(event_id, dated=True)
    event = context["event"]
    return formats.StandingsFile(
        id=event_id, name=event["name"], date=event["date"],
        rows=context["standings"], finished=context["finished"],
        running=context["running"],
        notes=(context["scoring_note"], context["as_of"]),
    )


@bp.get("/events/<int:event_id>/standings")
def standings_sheet(event_id: int) -> str:
    """Show the standings as a printable sheet, in the page's language, with
    the ratings as they stood at the end of the night."""
    context = event_context(event_id, dated=True)
    return render_template("events/standings.html", **context,
                           labels=text.standings_labels())


@bp.get("/events/<int:event_id>/<any('standings.csv', 'standings.pdf'):name>")
def standings_file(event_id: int, name: str) -> Response:
    """Download the standings as CSV or PDF (formats.EVENT_FORMATS)."""
    fmt = formats.EVENT_FORMATS[name]
    body = fmt.build(_standings_file(event_id))
    response = Response(body, mimetype=fmt.media_type)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{fmt.download_name(event_id)}"'
    )
    return response


@bp.get("/events/<int:event_id>/cards")
def table_cards(event_id: int) -> str:
    """Print a card for each running table (the organiser's): its number, its
    players in seat order and the QR code a table's phone scans to enter its
    moves (the game's own join code, which the organiser's right draws)."""
    event = _require_change(event_id)
    tables = [
        {**table, "number": number}
        for number, table in enumerate(club.event_tables(event_id), start=1)
        if table["status"] == "active"
    ]
    return render_template("events/cards.html", event=event, tables=tables)


@bp.get("/events/<int:event_id>/bgstats")
def bgstats_night(event_id: int) -> str:
    """Offer every finished table of the night as a BG Stats push-play link
    (formats.bgstats), one tap each, in the order the tables were started."""
    event = club.get_event(event_id)
    plays = []
    for number, game_id in enumerate(club.event_game_ids(event_id), start=1):
        try:
            with loaded(game_id) as row:
                url = url_for("history.replay", game_id=game_id, _external=True)
                link = bgstats.play_link(game_file(row), url)
                if link is not None:
                    plays.append({
                        "number": number, "names": list(row.names), "link": link,
                        "scheme": bgstats.play_link(game_file(row), url, scheme=True),
                    })
        except GameNotFound:
            continue  # deleted meanwhile
    return render_template("events/bgstats.html", event=event, plays=plays)


# --- the event's TV view ---


def tv_state(event_id: int) -> dict[str, Any]:
    """Return what the event's TV view shows: each table's totals and whose turn
    it is, and the standings; "key" changes whenever any of it may have."""
    key = club.change_key(event_id)
    event = club.get_event(event_id)
    tables = _tables(event_id)
    return {
        "key": key,
        "name": event["name"],
        "tables": [
            {
                "id": table["id"],
                "number": number,
                "status": table["status"],
                "abandoned": table["end_reason"] == "abandoned",
                "ended_early": table["end_reason"] == "ended",
                "turn_line": table["turn_line"],
                "players": [
                    {"name": p["name"], "score": p["score"],
                     "current": p["seat"] == table["current"],
                     "excluded": p["excluded"], "winner": p["winner"]}
                    for p in table["players"]
                ],
            }
            for number, table in enumerate(tables, start=1)
        ],
        "standings": _with_standings(club.standings(event_id)),
    }


@bp.get("/events/<int:event_id>/tv")
def tv(event_id: int) -> str:
    """Show the event's TV view: every table and the standings, live."""
    state = tv_state(event_id)
    strings = {
        "table": _("Table %(num)s", num="{n}"),
        "finished": _("Finished"),
        "abandoned": _("Abandoned"),
        "ended_early": _("Ended early"),
        "none": _("No finished games yet."),
    }
    return render_template(
        "events/tv.html", state=state, event_id=event_id,
        strings=json.dumps(strings, ensure_ascii=False),
        labels=text.standings_labels(),
    )


@bp.get("/events/<int:event_id>/tv.json")
def tv_json(event_id: int) -> Response:
    """Return the TV view's state; 304 while nothing at the event changed (a
    404 once it is gone: change_key says so)."""
    return polled_state(club.change_key(event_id), lambda: tv_state(event_id))


@bp.get("/events/<int:event_id>/tv/events")
def tv_events(event_id: int) -> Response:
    """Stream the TV view's state as server-sent events (web/live.py)."""
    first = tv_state(event_id)
    return event_stream(
        first, lambda key: club.change_key(event_id) != key,
        lambda: tv_state(event_id), club.EventNotFound,
    )
