"""Club nights (CONTRACT §14), the pages: events with several tables, their
standings, the event's TV view, seating for the next round, and the ratings.
Their JSON API is api/events.py; a season's pages are seasons.py, and what
both show alike is club_pages.py.

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
from werkzeug.wrappers import Response

from .. import engine, formats, net, text
from ..formats import bgstats
from ..i18n import gettext as _
from ..i18n import ngettext
from ..store import GameNotFound, loaded, ratings, rosters, seasons
from ..store import events as stored_events
from ..store import games as stored
from . import auth, quotas, rounds
from .club_pages import (
    asked_undo,
    change_roster,
    night_tables,
    not_found,
    page_scoring,
    tv_state,
    tv_strings,
)
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
from .pages import can_edit, game_file, organises

bp = Blueprint("events", __name__)
bp.register_error_handler(stored_events.EventNotFound, not_found)
bp.register_error_handler(seasons.SeasonNotFound, not_found)


def may_add(event_id: int) -> bool:
    """Return whether this device may add tables to the event: it holds the
    organiser's or the join right, or the admin's."""
    return (organises(event_id) or auth.is_admin()
            or auth.holds_event(event_id, stored_events.join_token(event_id)))


def may_change(event_id: int) -> bool:
    """Return whether this device may rename, delete or pair the event, and
    correct its games: the organiser's right or the admin's (never the join
    link's)."""
    return organises(event_id) or auth.is_admin()


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
    undo_id = asked_undo()
    return render_template(
        "events/index.html", form=form, error=error, events=stored_events.list_events(),
        max_name=MAX_EVENT_NAME,
        undo_id=undo_id if undo_id is not None and _may_undo(undo_id) else None,
        undo_form=ConfirmForm(),
    )


def _standings_with_ratings(event_id: int, scoring: engine.Scoring = "wins",
                            as_of: str | None = None) -> list[dict[str, Any]]:
    """Return the standings, each row with its player's rating: today's, or as
    it stood at the end of the day as_of (a night's files, CONTRACT §14)."""
    rows = stored_events.standings(event_id, scoring)
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
    event = stored_events.get_event(event_id)
    tables = night_tables(event_id)
    scoring = page_scoring()
    standings = _standings_with_ratings(
        event_id, scoring, event["date"] if dated else None)
    allowed = may_add(event_id)
    token = stored_events.join_token(event_id) if allowed else None
    finished = sum(1 for t in tables if t["status"] == "finished"
                   and t["end_reason"] != "abandoned")
    running = sum(1 for t in tables if t["status"] == "active")
    return {
        "live_key": stored_events.change_key(event_id),
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
        "scoring_note": text.scoring_note(
            scoring, event["count_ended"], event["count_leavers"]),
        "as_of": text.ratings_as_of(event["date"]) if dated else "",
        "players": stored_events.event_players(event_id, staying=True),
        "roster": rosters.roster(event["season"]) if event["season"] else [],
        "roster_form": ConfirmForm(),
    }


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> str:
    """Show a club night: its tables, live totals, standings and seating."""
    context = event_context(event_id)
    seating = SeatingForm()
    # Tonight's players; before the first table, the season's roster or
    # last night's as a start.
    seating.present.data = "\n".join(
        context["players"] or context["roster"]
        or stored_events.previous_players(event_id))
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
    return redirect(url_for("events.index", undo=event_id))


def _may_undo(event_id: int) -> bool:
    """Return whether this device may bring back the deleted night: its
    organiser (or the admin), within stored_events.UNDO_SECONDS."""
    token = stored_events.deleted_event_token(event_id)
    return token is not None and (auth.holds_event(event_id, token)
                                  or auth.is_admin())


@bp.post("/events/<int:event_id>/undelete")
def undelete(event_id: int) -> Response:
    """Bring back a club night deleted by mistake, with its games."""
    if not _may_undo(event_id):
        abort(404)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    stored_events.undelete_event(event_id)
    flash(_("Club night brought back."), "success")
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/events/<int:event_id>/count-ended")
def count_ended(event_id: int) -> Response:
    """Count the games ended early in the standings, or leave them out (the
    organiser's choice, CONTRACT §14)."""
    event = _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    stored_events.set_event_options(event_id, event["season"],
                                    not event["count_ended"], event["count_leavers"])
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/events/<int:event_id>/count-leavers")
def count_leavers(event_id: int) -> Response:
    """Count a player who left a game as placed last, or count the game
    without them (the organiser's choice, CONTRACT §14, RULES §7.5)."""
    event = _require_change(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    stored_events.set_event_options(event_id, event["season"], event["count_ended"],
                                    not event["count_leavers"])
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
    if not allowed or not stored_events.add_game(event_id, int(raw), unplaced=True):
        flash(_("Only a game this device holds, and that is at no club night,"
                " can move here."), "error")
    return redirect(url_for("events.event", event_id=event_id))


@bp.get("/events/<int:event_id>/join/<token>")
def join(event_id: int, token: str) -> Response:
    """Give this device the right the link carries: the join token's (add
    tables) from the QR code, or the organiser's from an older night's link,
    whose token is the edit token. A device already the organiser stays so."""
    organiser = stored_events.event_token(event_id)
    joining = stored_events.join_token(event_id)
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
    stored_events.get_event(event_id)
    if not may_add(event_id):
        abort(403)
    token = stored_events.join_token(event_id) or ""
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
            checked = rounds.present_names(names)
        except engine.InvalidName as exc:
            error = text.invalid_name(exc)
        except (ValueError, engine.EngineError) as exc:
            error = str(exc)
        else:
            try:
                if form.mode.data == "swiss":
                    suggestion = rounds.pair_round(event_id, "swiss", checked,
                                            engine.MAX_TABLE, keep=False)[1]
                elif form.mode.data == "random":
                    suggestion = engine.seat_tables(checked, rng=random.Random())
                else:
                    suggestion = engine.seat_tables(
                        checked, rounds.present_ratings(checked))
            except engine.SeatingError:
                error = _("Seating needs at least two players.")
    tables_form = TablesForm()
    if suggestion:
        tables_form.tables.data = json.dumps(suggestion, ensure_ascii=False)
    rated = rounds.present_ratings([n for t in suggestion or [] for n in t])
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
        rounds.present_names([name for names in checked for name in names])
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
    moves (the game's own join code, which the organiser's right draws). The
    admin without that right is offered the grant, not codes it may not draw."""
    event = _require_change(event_id)
    tables = [
        {**table, "number": number}
        for number, table in enumerate(stored_events.event_tables(event_id), start=1)
        if table["status"] == "active"
    ]
    return render_template(
        "events/cards.html", event=event, tables=tables,
        may_grant=not organises(event_id), grant_form=ConfirmForm())


@bp.get("/events/<int:event_id>/bgstats")
def bgstats_night(event_id: int) -> str:
    """Offer every finished table of the night as a BG Stats push-play link
    (formats.bgstats), one tap each, in the order the tables were started."""
    event = stored_events.get_event(event_id)
    plays = []
    for number, game_id in enumerate(stored_events.event_game_ids(event_id), start=1):
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
    stored_events.set_event_options(event_id, season_id, event["count_ended"],
                                    event["count_leavers"])
    return redirect(url_for("events.event", event_id=event_id))


@bp.post("/events/<int:event_id>/roster")
def event_roster(event_id: int) -> Response:
    """Add names to the roster of the night's season or take one off (the
    night's organiser, on its page)."""
    event = stored_events.get_event(event_id)
    if not may_change(event_id):
        abort(403)
    if event["season"] is None:
        abort(404)
    change_roster(event["season"])
    return redirect(url_for("events.event", event_id=event_id) + "#roster")


# --- the event's TV view ---


@bp.get("/events/<int:event_id>/tv")
def tv(event_id: int) -> str:
    """Show the event's TV view: every table and the standings, live."""
    state = tv_state(event_id)
    return render_template(
        "events/tv.html", state=state,
        strings=json.dumps(tv_strings(), ensure_ascii=False),
        labels=text.standings_labels(),
        poll_url=url_for("events.tv_json", event_id=event_id),
        events_url=url_for("events.tv_events", event_id=event_id),
        back_url=url_for("events.event", event_id=event_id),
        back_text=_("Back to the club night"), gone_text=text.event_gone(),
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

