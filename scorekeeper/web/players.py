"""The players area: statistics per player and head-to-head comparisons."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request, url_for

from .. import engine, text
from ..formats.rating_chart import rating_chart_svg
from ..store import ratings, stats

bp = Blueprint("players", __name__)

MAX_QUERY = engine.MAX_NAME_LENGTH * 2
"""Longest name a player URL or comparison may ask about (spaces and case vary)."""


def _rates(row: dict[str, Any]) -> dict[str, Any]:
    """Add win rate and points per turn to a player's totals row."""
    finished = row.get("finished") or 0
    turns = row.get("turns") or 0
    row["win_rate"] = (row["wins"] / finished) if finished else None
    row["per_turn"] = (row["points"] / turns) if turns else None
    # A ratio of sums over every analysed move (CONTRACT §11), not a mean of ratios.
    available = row.get("eff_available") or 0
    row["efficiency"] = (row["eff_scored"] / available) if available else None
    return row


@bp.get("/players")
def index() -> str:
    """List every player with games, wins, win rate, average and best score."""
    rows = [_rates(row) for row in stats.player_summaries()]
    rated = ratings.ratings_by_key()
    for row in rows:
        row["rating"] = rated.get(row["name_key"])
    return render_template("players/index.html", rows=rows)


@bp.get("/players/<name:name>")
def player(name: str) -> str:
    """Show one player's statistics across all their games."""
    if len(name) > MAX_QUERY:
        abort(404)
    summary = stats.player_summary(name)
    if summary is None:
        abort(404)
    _rates(summary)
    best = summary.get("best_move")
    best_url = None
    if best:
        best_url = url_for(
            "history.replay", game_id=best["game_id"], move=best["seq"] + 1
        )
    games = stats.player_games(name, limit=20)
    history = ratings.history(name)
    chart = None
    if history:
        labels = text.rating_chart_labels()
        chart = rating_chart_svg(
            [(h["ordinal"], h["mu"], h["sigma"]) for h in history],
            title=labels["title"], x_label=labels["x"], y_label=labels["y"],
            band_label=labels["band"],
        )
    return render_template(
        "players/player.html", stats=summary, best_url=best_url, games=games,
        max_name=engine.MAX_NAME_LENGTH, rating=ratings.rating_of(name),
        rating_chart=chart,
    )


@bp.get("/head-to-head")
def compare() -> str:
    """Head-to-head of two players: games together, wins each, average scores."""
    a = request.args.get("a", "").strip()[:MAX_QUERY]
    b = request.args.get("b", "").strip()[:MAX_QUERY]
    result = None
    same = bool(a and b and engine.name_key(a) == engine.name_key(b))
    if a and b and not same:
        result = stats.head_to_head(a, b)
        found = ratings.ratings_by_key([engine.name_key(a), engine.name_key(b)])
        result["rating_a"] = found.get(engine.name_key(a))
        result["rating_b"] = found.get(engine.name_key(b))
    names = [r["name"] for r in stats.player_summaries()]
    return render_template(
        "players/compare.html", a=a, b=b, result=result, same=same, names=names,
        max_query=MAX_QUERY,
    )
