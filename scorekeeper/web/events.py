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
import zlib
from collections.abc import Sequence
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
from ..formats import bgstats
from ..i18n import gettext as _
from ..i18n import ngettext, pgettext
from ..store import GameNotFound, loaded, ratings, rosters, seasons
from ..store import events as stored_events
from ..store import games as stored
from . import auth, quotas, rounds
from .errors import error_page
from .event_json import asked_best, season_json, standings_json
from .forms import (
    MAX_EVENT_NAME,
    MAX_PRESENT,
    ConfirmForm,
    EventForm,
    SeasonForm,
    SeatingForm,
    TablesForm,
    check_event_date,
    check_event_name,
)
from .live import event_stream, polled_state
from .pages import can_edit, game_file, organises

bp = Blueprint("events", __name__)


@bp.errorhandler(stored_events.EventNotFound)
def _no_event(exc: stored_events.EventNotFound) -> ResponseReturnValue:
    return error_page(NotFound())


@bp.errorhandler(seasons.SeasonNotFound)
def _no_season(exc: seasons.SeasonNotFound) -> ResponseReturnValue:
    return error_page(NotFound())


def _page_best() -> int | None:
    """Return the page's ?best= (each player's best N nights), None for none
    or a value the API would refuse."""
    try:
        return asked_best(request.args.get("best", ""))
    except ValueError:
        return None


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


def may_change_season(night_ids: Sequence[int]) -> bool:
    """Return whether this device may rename, delete or change the roster of
    the season whose nights are night_ids: a season has no secret of its
    own, so who organises one of its nights (or the admin) may; a season
    with no night yet, anyone, as anyone may start one (CONTRACT §14)."""
    return auth.is_admin() or not night_ids or any(
        organises(night) for night in night_ids)


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


def _asked_undo() -> int | None:
    """Return the ?undo= a list page is asked to offer (the id of what was
    just deleted), None when there is none or it is not an id."""
    undo = request.args.get("undo", "")
    return int(undo) if undo.isascii() and undo.isdigit() and len(undo) < 19 \
        else None


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
    undo_id = _asked_undo()
    return render_template(
        "events/index.html", form=form, error=error, events=stored_events.list_events(),
        max_name=MAX_EVENT_NAME,
        undo_id=undo_id if undo_id is not None and _may_undo(undo_id) else None,
        undo_form=ConfirmForm(),
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


def page_scoring() -> engine.Scoring:
    """Return the scoring a page asks for (?scoring=), wins when it names none."""
    value = request.args.get("scoring", "wins")
    scoring: engine.Scoring = value if value in engine.SCORINGS else "wins"  # type: ignore[assignment]
    return scoring


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
    tables = _tables(event_id)
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


# --- seasons ---


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
    undo_id = _asked_undo()
    return render_template(
        "events/seasons.html", form=form, error=error,
        seasons=seasons.list_seasons(), max_name=MAX_EVENT_NAME,
        undo_id=undo_id if undo_id is not None and may_undo_season(undo_id)
        else None, undo_form=ConfirmForm())


def season_context(season_id: int) -> dict[str, Any]:
    """Return what a season's page and files show: its nights, its standings
    by the page's scoring, and each player's best N nights when asked, with
    the ratings as they stood at the end of its latest night (never today's
    unsaid: CONTRACT §14), its roster and whether this device may change it."""
    scoring, best = page_scoring(), _page_best()
    found = season_json(season_id, scoring, best)
    rows = found["standings"]
    keys = [engine.name_key(r["name"]) for r in rows]
    rated = ratings.ratings_as_of(keys, found["as_of"]) if found["as_of"] else {}
    for row in rows:
        row["rated"] = rated.get(engine.name_key(row["name"]))
        row["rating"] = row["rated"]["ordinal"] if row["rated"] else None
    finished, running = seasons.season_games(season_id)
    return {
        "season": found, "standings": rows, "scoring": scoring, "best": best,
        "scorings": text.scoring_names(),
        "nights": [stored_events.get_event(night) for night in found["events"]],
        "scoring_note": text.scoring_note(scoring, True),
        "best_note": text.season_best(best),
        "as_of_note": text.ratings_as_of(found["as_of"]) if found["as_of"] else "",
        "may_change": may_change_season(found["events"]),
        "roster_form": ConfirmForm(), "finished": finished, "running": running,
        "note": text.standings_note(finished, running),
    }


@bp.get("/seasons/<int:season_id>")
def season(season_id: int) -> str:
    """Show a season: its nights and the standings over all of them."""
    return render_template("events/season.html", **season_context(season_id))


@bp.get("/seasons/<int:season_id>/standings.csv")
def season_csv(season_id: int) -> Response:
    """Download a season's standings as CSV (the night's columns; as_of the
    date of its latest night, the day whose end the ratings are as of)."""
    context = season_context(season_id)
    body = formats.EVENT_FORMATS["standings.csv"].build(formats.StandingsFile(
        id=season_id, name=context["season"]["name"],
        date=context["season"]["as_of"] or "", rows=context["standings"]))
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
    stored_events.set_event_options(event_id, season_id, event["count_ended"],
                                    event["count_leavers"])
    return redirect(url_for("events.event", event_id=event_id))


def _require_season_change(season_id: int) -> dict[str, Any]:
    """Return the season, or answer 404 (none) or 403 (no right to change it)."""
    season = seasons.get_season(season_id)
    if not may_change_season(season["events"]):
        abort(403)
    return season


@bp.route("/seasons/<int:season_id>/edit", methods=["GET", "POST"])
def season_edit(season_id: int) -> ResponseReturnValue:
    """Rename a season, or offer to delete it."""
    season = _require_season_change(season_id)
    form = SeasonForm()
    error = None
    if form.validate_on_submit():
        try:
            name = check_event_name(form.name.data)
        except ValueError as exc:
            error = str(exc)
        else:
            seasons.rename_season(season_id, name)
            flash(_("Season saved."), "success")
            return redirect(url_for("events.season", season_id=season_id))
    if request.method == "GET":
        form.name.data = season["name"]
    return render_template(
        "events/season_edit.html", season=season, form=form, error=error,
        max_name=MAX_EVENT_NAME, delete_form=ConfirmForm(),
    ), 422 if error else 200


@bp.post("/seasons/<int:season_id>/delete")
def season_delete(season_id: int) -> Response:
    """Delete a season: its nights stay, in no season; Undo for a day."""
    _require_season_change(season_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    nights = seasons.delete_season(season_id)
    flash(text.season_deleted(len(nights)), "success")
    return redirect(url_for("events.season_index", undo=season_id))


def may_undo_season(season_id: int) -> bool:
    """Return whether this device may bring back the deleted season (its
    right as it stood, within stored_events.UNDO_SECONDS)."""
    return seasons.was_deleted(season_id) and may_change_season(
        seasons.deleted_season_events(season_id))


@bp.post("/seasons/<int:season_id>/undelete")
def season_undelete(season_id: int) -> Response:
    """Bring back a season deleted by mistake, with its nights and roster."""
    if not may_undo_season(season_id):
        abort(404)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    seasons.undelete_season(season_id)
    flash(_("Season brought back."), "success")
    return redirect(url_for("events.season", season_id=season_id))


def change_roster(season_id: int) -> None:
    """Add the form's names (one per line) to the season's roster, or
    everyone who played at its nights (`played`), or take its `remove` name
    off; flash what is wrong."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    removed = request.form.get("remove", "")
    lines = request.form.get("add", "").splitlines()
    names = [line.strip() for line in lines if line.strip()][:MAX_PRESENT]
    if request.form.get("played"):
        names = rosters.season_players(season_id)
    try:
        rosters.change_roster(season_id, names, [removed] if removed else [])
    except engine.InvalidName as exc:
        flash(text.invalid_name(exc), "error")
    except ValueError:
        flash(_("A roster holds at most %(num)d players.", num=rosters.MAX_ROSTER),
              "error")


@bp.post("/seasons/<int:season_id>/roster")
def season_roster(season_id: int) -> Response:
    """Add names to the season's roster or take one off (the season page)."""
    _require_season_change(season_id)
    change_roster(season_id)
    return redirect(url_for("events.season", season_id=season_id) + "#roster")


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


@bp.get("/seasons/<int:season_id>/standings.pdf")
def season_pdf(season_id: int) -> Response:
    """Download a season's standings as PDF, with the date they are as of."""
    context = season_context(season_id)
    fmt = formats.EVENT_FORMATS["standings.pdf"]
    body = fmt.build(formats.StandingsFile(
        id=season_id, name=context["season"]["name"],
        date=context["season"]["as_of"] or "", rows=context["standings"],
        finished=context["finished"], running=context["running"],
        notes=(context["scoring_note"], context["best_note"], context["as_of_note"]),
    ))
    response = Response(body, mimetype=fmt.media_type)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="season-{season_id}-standings.pdf"')
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
        "standings": standings_json(stored_events.standings(event_id)),
    }


def tv_strings() -> dict[str, str]:
    """Return the words a TV view's script writes (static/event_tv.js)."""
    return {
        "table": _("Table %(num)s", num="{n}"),
        "finished": pgettext("a table's state", "Finished"),
        "abandoned": _("Abandoned"),
        "ended_early": _("Ended early"),
        "none": _("No finished games yet."),
    }


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


# --- the season's TV view ---


def season_change_key(season_id: int) -> str:
    """Return a key that changes whenever anything the season's TV view shows
    may have: its name, its nights and any of their games (one read each).
    Raise SeasonNotFound once the season is gone."""
    season = seasons.get_season(season_id)
    keys = "\x1f".join(stored_events.change_key(night) for night in season["events"])
    # A digest, as a night's key: a key is an ETag and holds no typed text.
    named = zlib.crc32(f"{season['name']}\x1e{keys}".encode())
    return f"{len(season['events'])}-{named:08x}"


def season_tv_state(season_id: int) -> dict[str, Any]:
    """Return what the season's TV view shows: the tables of its latest night
    and the season's standings (by the page's ?scoring= and ?best=; each
    row's value in the wins' column unless by wins)."""
    key = season_change_key(season_id)
    context = season_context(season_id)
    nights = context["season"]["events"]
    return {
        "key": key, "name": context["season"]["name"],
        "tables": tv_state(nights[-1])["tables"] if nights else [],
        "standings": standings_json(context["standings"]),
        # Ranked by value (placement, share): the view shows it for wins.
        "valued": context["scoring"] != "wins",
    }


@bp.get("/seasons/<int:season_id>/tv")
def season_tv(season_id: int) -> str:
    """Show the season's TV view: tonight's tables and the season's
    standings, live."""
    args: dict[str, Any] = {"scoring": page_scoring(), "best": _page_best()}
    return render_template(
        "events/tv.html", state=season_tv_state(season_id),
        strings=json.dumps(tv_strings(), ensure_ascii=False),
        labels=text.standings_labels(),
        poll_url=url_for("events.season_tv_json", season_id=season_id, **args),
        events_url=url_for("events.season_tv_events", season_id=season_id, **args),
        back_url=url_for("events.season", season_id=season_id, **args),
        back_text=_("Back to the season"), gone_text=text.season_gone(),
    )


@bp.get("/seasons/<int:season_id>/tv.json")
def season_tv_json(season_id: int) -> Response:
    """Return the season's TV view's state; 304 while nothing changed (a 404
    once the season is gone)."""
    return polled_state(season_change_key(season_id),
                        lambda: season_tv_state(season_id))


@bp.get("/seasons/<int:season_id>/tv/events")
def season_tv_events(season_id: int) -> Response:
    """Stream the season's TV view's state as server-sent events (web/live.py)."""
    first = season_tv_state(season_id)
    return event_stream(
        first, lambda key: season_change_key(season_id) != key,
        lambda: season_tv_state(season_id), seasons.SeasonNotFound,
    )
