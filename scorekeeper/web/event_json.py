"""A club night and a season as JSON (CONTRACT §14): the API's answers, and
the standings the event's live page polls too."""

from __future__ import annotations

from typing import Any

from .. import engine
from ..store import events as stored_events
from ..store import rosters, seasons

MAX_BEST = 100
"""Most nights a season's ?best= may keep."""


def standings_json(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return standings rows (CONTRACT §14 keys only)."""
    keys = ("name", "games", "wins", "points", "value", "rank")
    return [{key: row[key] for key in keys} for row in rows]


def event_json(event_id: int, scoring: engine.Scoring = "wins") -> dict[str, Any]:
    """Return an event as CONTRACT §14 answers it."""
    event = stored_events.get_event(event_id)
    return {
        "id": event["id"], "name": event["name"], "date": event["date"],
        "season": event["season"], "count_ended": event["count_ended"],
        "count_leavers": event["count_leavers"],
        "games": stored_events.event_game_ids(event_id), "scoring": scoring,
        "standings": standings_json(stored_events.standings(event_id, scoring)),
    }


def season_json(season_id: int, scoring: engine.Scoring = "wins",
                best: int | None = None) -> dict[str, Any]:
    """Return a season as CONTRACT §14 answers it: its nights and the
    standings of all their games together (each night's choice of whether
    games ended early count, and how players who left count), or of each
    player's best `best` nights; the
    date of its latest night (what its files are as of) and its roster."""
    season = seasons.get_season(season_id)
    found = [stored_events.get_event(night) for night in season["events"]]
    nights = [stored_events.results([night["id"]], night["count_ended"],
                                    night["count_leavers"])
              for night in found]
    return {**season, "scoring": scoring,
            "standings": engine.season_standings(nights, scoring, best),
            "as_of": max((night["date"] for night in found), default=None),
            "roster": rosters.roster(season_id)}


def asked_best(value: str) -> int | None:
    """Return ?best= (each player's best N nights count), None when empty;
    ValueError for anything but a whole number from 1 to MAX_BEST."""
    if not value:
        return None
    if value.isascii() and value.isdigit() and 0 < int(value) <= MAX_BEST:
        return int(value)
    raise ValueError(value)
