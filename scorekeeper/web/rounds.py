"""Seating a club night's round (CONTRACT §14): the players present by the one
name rule, their ratings, and the next round paired Swiss by the night's
standings or balanced by rating. The night's page and its API both seat so."""

from __future__ import annotations

from .. import engine
from ..store import events as stored_events
from ..store import ratings


def present_ratings(names: list[str]) -> dict[str, float]:
    """Return the ordinal rating of each rated player present."""
    found = ratings.ratings_by_key([engine.name_key(n) for n in names])
    return {
        name: found[engine.name_key(name)]["ordinal"]
        for name in names if engine.name_key(name) in found
    }


def present_names(names: list[str]) -> list[str]:
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


def pair_round(event_id: int, pairing: str, names: list[str],
               table_size: int, keep: bool = True) -> tuple[int, list[list[str]]]:
    """Seat the players present for the event's next round: Swiss by the
    night's standings so far, or balanced by rating (CONTRACT §14); keep it
    as the night's next round (its number; 0 when not kept: the page's
    suggestion, whose pairs count once its tables start). Raise
    engine.InvalidName or engine.SeatingError."""
    checked = present_names(names)
    sizes = engine.round_sizes(len(checked), table_size)
    if pairing == "swiss":
        place = {engine.name_key(row["name"]): index
                 for index, row in enumerate(stored_events.standings(event_id))}
        order = sorted(checked, key=lambda name: (
            place.get(engine.name_key(name), len(place)), engine.name_key(name)))
        tables = engine.swiss_tables(order, sizes, stored_events.met_pairs(event_id),
                                     key=engine.name_key)
    else:
        tables = engine.seat_tables(checked, present_ratings(checked), sizes=sizes)
    return (stored_events.add_round(event_id, tables) if keep else 0), tables
