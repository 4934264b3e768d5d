"""Club nights (CONTRACT §14), the pages: events with several tables, their
standings, the event's TV view, seating for the next round, and the ratings.
Their JSON API is api/events.py.

The event's edit token is what adds a table: the host's device holds it from
creating the event, and shows it as a join link and QR code; a device that
follows the link holds it too (in its device cookie) and may start tables
there.
"""

from __future__ import annotations

import io
import json
import random
from datetime import date as Date
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from .. import engine, formats, net, text
from ..i18n import gettext as _
from ..i18n import ngettext, pgettext
from ..store import GameNotFound, loaded, ratings
from ..store import events as stored_events
from ..store import games as stored
from . import auth, quotas
from .errors import error_page
from .event_json import standings_json
from .forms import (
    MAX_EVENT_NAME,
    MAX_PRESENT,
    ConfirmForm,
    EventForm,
    SeatingForm,
    TablesForm,
    check_event_date,
    check_event_name,
)
from .live import event_stream, polled_state

bp = Blueprint("events", __name__)


@bp.errorhandler(stored_events.EventNotFound)
def _no_event(exc: stored_events.EventNotFound) -> ResponseReturnValue:
    return error_page(NotFound())


def may_add(event_id: int) -> bool:
    """Return whether this device holds the club night's right."""
    return auth.holds_event(event_id, stored_events.event_token(event_id))


def may_change(event_id: int) -> bool:
    """Return whether this device may rename or delete the event: it holds
    the club night's right, or the admin right."""
    return may_add(event_id) or auth.is_admin()


def _require_change(event_id: int) -> dict[str, Any]:
    """Return the event, or answer 404 (none) or 403 (no right to change it)."""
    event = stored_events.get_event(event_id)
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
        event_id, token = stored_events.create_event(*checked)
        auth.remember_event_token(event_id, token)
        flash(_("Club night started. Add a table for each game."), "info")
        return redirect(url_for("events.event", event_id=event_id))
    if request.method == "GET":
        form.date.data = Date.today().isoformat()
    return render_template(
        "events/index.html", form=form, error=error, events=stored_events.list_events(),
        max_name=MAX_EVENT_NAME,
    )


def _tables(event_id: int) -> list[dict[str, Any]]:
    """Return the event's tables with whose turn it is at each running one."""
    tables = stored_events.event_tables(event_id)
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


def _standings_with_ratings(event_id: int) -> list[dict[str, Any]]:
    rows = stored_events.standings(event_id)
    found = ratings.ratings_by_key([engine.name_key(row["name"]) for row in rows])
    for row in rows:
        rated = found.get(engine.name_key(row["name"]))
        row["rating"] = rated["ordinal"] if rated else None
        row["rated"] = rated
    return rows


def event_context(event_id: int) -> dict[str, Any]:
    """Return what the event page shows."""
    event = stored_events.get_event(event_id)
    tables = _tables(event_id)
    standings = _standings_with_ratings(event_id)
    allowed = may_add(event_id)
    token = stored_events.event_token(event_id) if allowed else None
    finished = sum(1 for t in tables if t["status"] == "finished"
                   and t["end_reason"] != "abandoned")
    running = sum(1 for t in tables if t["status"] == "active")
    return {
        "live_key": stored_events.change_key(event_id),
        "event": event, "tables": tables, "standings": standings,
        "may_add": allowed,
        "may_change": allowed or auth.is_admin(),
        "join_link": _join_link(event_id, token) if token else None,
        "finished": finished, "running": running,
        "note": text.standings_note(finished, running),
        "players": stored_events.event_players(event_id),
    }


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> str:
    """Show a club night: its tables, live totals, standings and seating."""
    context = event_context(event_id)
    seating = SeatingForm()
    seating.present.data = "\n".join(context["players"])
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
        stored_events.rename_event(event_id, *checked)
        flash(_("Club night saved."), "success")
        return redirect(url_for("events.event", event_id=event_id))
    if request.method == "GET":
        form.name.data, form.date.data = event["name"], event["date"]
    status = 422 if error else 200
    return render_template(
        "events/edit.html", event=event, form=form, error=error,
        max_name=MAX_EVENT_NAME, games=len(stored_events.event_game_ids(event_id)),
        delete_form=ConfirmForm(),
    ), status


@bp.post("/events/<int:event_id>/delete")
def delete(event_id: int) -> Response:
    """Delete a club night; its games stay in the history, in no event."""
    _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    kept = stored_events.delete_event(event_id)
    flash(text.event_deleted(len(kept)), "success")
    return redirect(url_for("events.index"))


@bp.get("/events/<int:event_id>/join/<token>")
def join(event_id: int, token: str) -> Response:
    """Give this device the club night's right (the QR code's link)."""
    held = stored_events.event_token(event_id)
    if held is None or not auth.same_text(token, held):
        abort(404)
    auth.remember_event_token(event_id, token)
    flash(_("This device can now start tables at this club night."), "info")
    return redirect(url_for("events.event", event_id=event_id))


@bp.get("/events/<int:event_id>/join.svg")
def join_code(event_id: int) -> Response:
    """Draw the event's join link as a QR code, for a device holding the token."""
    stored_events.get_event(event_id)
    if not may_add(event_id):
        abort(403)
    token = stored_events.event_token(event_id) or ""
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
                if form.mode.data == "random":
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
    stored_events.get_event(event_id)
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
    refused = quotas.refusal(len(checked), event_id)
    if refused is not None:
        flash(refused.message, "error")
        return redirect(url_for("events.event", event_id=event_id))
    for names in checked:
        game_id, token = stored.create_game(names)
        if not stored_events.add_game(event_id, game_id):
            stored.delete_game(game_id)  # the night was deleted meanwhile
            abort(404)
        auth.remember_token(game_id, token)
    flash(ngettext("%(num)d table started.", "%(num)d tables started.",
                   len(checked)), "info")
    return redirect(url_for("events.event", event_id=event_id))


def _standings_file(event_id: int) -> formats.StandingsFile:
    context = event_context(event_id)
    event = context["event"]
    return formats.StandingsFile(
        id=event_id, name=event["name"], date=event["date"],
        rows=context["standings"], finished=context["finished"],
        running=context["running"],
    )


@bp.get("/events/<int:event_id>/standings")
def standings_sheet(event_id: int) -> str:
    """Show the standings as a printable sheet, in the page's language."""
    context = event_context(event_id)
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


# --- the event's TV view ---


def tv_state(event_id: int) -> dict[str, Any]:
    """Return what the event's TV view shows: each table's totals and whose turn
    it is, and the standings; "key" changes whenever any of it may have."""
    key = stored_events.change_key(event_id)
    event = stored_events.get_event(event_id)
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
        "standings": standings_json(stored_events.standings(event_id)),
    }


@bp.get("/events/<int:event_id>/tv")
def tv(event_id: int) -> str:
    """Show the event's TV view: every table and the standings, live."""
    state = tv_state(event_id)
    strings = {
        "table": _("Table %(num)s", num="{n}"),
        "finished": pgettext("a table's state", "Finished"),
        "abandoned": _("Abandoned"),
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
    return polled_state(stored_events.change_key(event_id), lambda: tv_state(event_id))


@bp.get("/events/<int:event_id>/tv/events")
def tv_events(event_id: int) -> Response:
    """Stream the TV view's state as server-sent events (web/live.py)."""
    first = tv_state(event_id)
    return event_stream(
        first, lambda key: stored_events.change_key(event_id) != key,
        lambda: tv_state(event_id), stored_events.EventNotFound,
    )
