"""What a club night's pages and a season's share (CONTRACT §14): a missing
night or season as 404, the scoring and the Undo a page is asked for, a
season's roster changed from either page, and the TV view's state (a
season's shows its latest night's tables)."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

from .. import engine, text
from ..i18n import gettext as _
from ..i18n import pgettext
from ..store import GameNotFound, loaded, rosters
from ..store import events as stored_events
from .errors import error_page
from .event_json import standings_json
from .forms import MAX_PRESENT, ConfirmForm


def not_found(exc: Exception) -> ResponseReturnValue:
    """Answer a night or season that is not there (or no longer) as 404."""
    return error_page(NotFound())


def page_scoring() -> engine.Scoring:
    """Return the scoring a page asks for (?scoring=), wins when it names none."""
    value = request.args.get("scoring", "wins")
    scoring: engine.Scoring = value if value in engine.SCORINGS else "wins"  # type: ignore[assignment]
    return scoring


def asked_undo() -> int | None:
    """Return the ?undo= a list page is asked to offer (the id of what was
    just deleted), None when there is none or it is not an id."""
    undo = request.args.get("undo", "")
    return int(undo) if undo.isascii() and undo.isdigit() and len(undo) < 19 \
        else None


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


def night_tables(event_id: int) -> list[dict[str, Any]]:
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


def tv_state(event_id: int) -> dict[str, Any]:
    """Return what the event's TV view shows: each table's totals and whose turn
    it is, and the standings; "key" changes whenever any of it may have."""
    key = stored_events.change_key(event_id)
    event = stored_events.get_event(event_id)
    tables = night_tables(event_id)
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
