"""Seasons of club nights (CONTRACT §14), the pages: the list, a season's
standings over its nights (each player's best N when asked), its roster,
its files (CSV, PDF) and its TV view. Their JSON API is api/events.py; a
night's pages are events.py.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import engine, formats, text
from ..i18n import gettext as _
from ..store import events as stored_events
from ..store import ratings, seasons
from . import auth
from .club_pages import (
    asked_undo,
    change_roster,
    not_found,
    page_scoring,
    tv_state,
    tv_strings,
)
from .event_json import asked_best, season_json, standings_json
from .forms import MAX_EVENT_NAME, ConfirmForm, SeasonForm, check_event_name
from .live import event_stream, polled_state
from .pages import organises

bp = Blueprint("seasons", __name__)
bp.register_error_handler(stored_events.EventNotFound, not_found)
bp.register_error_handler(seasons.SeasonNotFound, not_found)


def _page_best() -> int | None:
    """Return the page's ?best= (each player's best N nights), None for none
    or a value the API would refuse."""
    try:
        return asked_best(request.args.get("best", ""))
    except ValueError:
        return None


def may_change_season(night_ids: Sequence[int]) -> bool:
    """Return whether this device may rename, delete or change the roster of
    the season whose nights are night_ids: a season has no secret of its
    own, so who organises one of its nights (or the admin) may; a season
    with no night yet, anyone, as anyone may start one (CONTRACT §14)."""
    return auth.is_admin() or not night_ids or any(
        organises(night) for night in night_ids)


def _submitted_name(form: SeasonForm) -> tuple[str | None, str | None]:
    """A valid POST's season name, checked; else None and, when the POST was
    valid but its name is not, the sentence saying what is wrong."""
    if not form.validate_on_submit():
        return None, None
    try:
        return check_event_name(form.name.data), None
    except ValueError as exc:
        return None, str(exc)


@bp.route("/seasons", methods=["GET", "POST"])
def season_index() -> str | Response:
    """List the seasons; on a valid POST start a new one."""
    form = SeasonForm()
    name, error = _submitted_name(form)
    if name is not None:
        season_id = seasons.create_season(name)
        return redirect(url_for("seasons.season", season_id=season_id))
    undo_id = asked_undo()
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
    name, error = _submitted_name(form)
    if name is not None:
        seasons.rename_season(season_id, name)
        flash(_("Season saved."), "success")
        return redirect(url_for("seasons.season", season_id=season_id))
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
    return redirect(url_for("seasons.season_index", undo=season_id))


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
    return redirect(url_for("seasons.season", season_id=season_id))


@bp.post("/seasons/<int:season_id>/roster")
def season_roster(season_id: int) -> Response:
    """Add names to the season's roster or take one off (the season page)."""
    _require_season_change(season_id)
    change_roster(season_id)
    return redirect(url_for("seasons.season", season_id=season_id) + "#roster")


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
        poll_url=url_for("seasons.season_tv_json", season_id=season_id, **args),
        events_url=url_for("seasons.season_tv_events", season_id=season_id, **args),
        back_url=url_for("seasons.season", season_id=season_id, **args),
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
