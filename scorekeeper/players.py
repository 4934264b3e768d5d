"""The players area: statistics per player name and head-to-head comparisons."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request, url_for

from . import db
from .forms import MAX_NAME_LENGTH
from .history import date_text

bp = Blueprint("players", __name__)


def _rates(row: dict[str, Any]) -> dict[str, Any]:
    """Add win rate and points per turn to a player's totals row."""
    finished = row.get("finished") or 0
    turns = row.get("turns") or 0
    row["win_rate"] = (row["wins"] / finished) if finished else None
    row["per_turn"] = (row["points"] / turns) if turns else None
    return row


@bp.get("/players")
def index() -> str:
    """List every player name with games, wins, win rate, average and best score."""
    rows = [_rates(row) for row in db.player_summaries()]
    return render_template("players/index.html", rows=rows)


@bp.get("/players/<path:name>")
def player(name: str) -> str:
    """Show one player's statistics across all their games."""
    if len(name) > MAX_NAME_LENGTH * 2:
        abort(404)
    stats = db.player_summary(name)
    if stats is None:
        abort(404)
    _rates(stats)
    best = stats.get("best_move")
    best_url = None
    if best:
        best_url = url_for(
            "history.replay", game_id=best["game_id"], move=best["seq"] + 1
        )
    games = db.player_games(name, limit=20)
    for game in games:
        game["date"] = date_text(game["created_at"])
    return render_template(
        "players/player.html", stats=stats, best_url=best_url, games=games
    )


@bp.get("/head-to-head")
def compare() -> str:
    """Head-to-head of two players: games together, wins each, average scores."""
    a = request.args.get("a", "").strip()[: MAX_NAME_LENGTH * 2]
    b = request.args.get("b", "").strip()[: MAX_NAME_LENGTH * 2]
    result = None
    same = bool(a and b and db.name_key(a) == db.name_key(b))
    if a and b and not same:
        result = db.head_to_head(a, b)
        for game in result["recent"]:
            game["date"] = date_text(game["created_at"])
    names = [r["name"] for r in db.player_summaries()]
    return render_template(
        "players/compare.html", a=a, b=b, result=result, same=same, names=names
    )
