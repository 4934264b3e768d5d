"""A club night as JSON (CONTRACT §14): the API's answer, and the standings the
event's live page polls too."""

from __future__ import annotations

from typing import Any

from ..store import events as stored_events


def standings_json(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return standings rows (CONTRACT §14 keys only)."""
    keys = ("name", "games", "wins", "points", "rank")
    return [{key: row[key] for key in keys} for row in rows]


def event_json(event_id: int) -> dict[str, Any]:
    """Return an event as CONTRACT §14 answers it."""
    event = stored_events.get_event(event_id)
    return {
        "id": event["id"], "name": event["name"], "date": event["date"],
        "games": stored_events.event_game_ids(event_id),
        "standings": standings_json(stored_events.standings(event_id)),
    }
