"""Reading moves as callers hand them in: the one parser of each.

A tile list, a move and a thinking time arrive as JSON (the API's bodies, the
page's queries, records and backups) or as form text. Each is read here, once,
into the engine's own types, and refused with a BadInput (a message key of
messages.py and its parameters) when it is not well formed; whether the move
is legal is the board's and the game's to say. The web layer only turns a
BadInput into its 400 answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .discipline import Reason, check_seconds
from .errors import BadInput

MAX_COORDINATE = 10_000
"""Cells further out than this cannot occur in a real game (108 tiles): every path
that takes a cell (API, forms, records) refuses them."""


class Placement(NamedTuple):
    """One tile put on one cell."""

    row: int
    """Row of the cell; grows downward, may be negative."""
    col: int
    """Column of the cell; grows to the right, may be negative."""
    color: str
    """Colour name (RULES §8)."""
    shape: str
    """Shape name (RULES §8)."""


TileInput = Sequence[Any]
"""A placed tile as callers give it: (row, col, color, shape) or a Placement."""

@dataclass(slots=True)  # not frozen: its __init__ runs once per replayed move
class MoveInput:
    """A move as read from a record or a request, before the game judges it."""

    type: str
    """"place", "trade", "pass", "penalty" or "leave"."""
    tiles: Sequence[Placement] = ()
    """The tiles of a place move."""
    count: int = 0
    """How many tiles a trade swaps."""
    reason: str | None = None
    """Why a penalty is given: "illegal" or "timeout"."""
    seconds: int | None = None
    """The thinking time the move carried, in whole seconds."""
    player: object = None
    """The seat that leaves (a leave only: any seat, not the current one's);
    the game checks it."""


def parse_tile(item: object, as_list: bool = False) -> Placement:
    """Read one tile: {"row", "col", "color", "shape"} (records, the API), or
    with as_list [row, col, color, shape] (the page's short queries)."""
    if as_list:
        if not (isinstance(item, list) and len(item) == 4):
            raise BadInput("tile_not_object")
        row, col, color, shape = item
    elif isinstance(item, dict | Mapping):  # dict first: the quick isinstance
        try:
            row, col, color, shape = (item["row"], item["col"], item["color"],
                                      item["shape"])
        except KeyError as missing:
            raise BadInput("tile_missing", {"value": missing.args[0]}) from None
    else:
        raise BadInput("tile_not_object")
    # type() rather than isinstance: JSON's true is not row 1.
    if type(row) is not int or type(col) is not int:
        raise BadInput("tile_cell_type")
    if not (-MAX_COORDINATE <= row <= MAX_COORDINATE
            and -MAX_COORDINATE <= col <= MAX_COORDINATE):
        raise BadInput("tile_too_far", {"value": (row, col), "max": MAX_COORDINATE})
    if type(color) is not str or type(shape) is not str:
        if not isinstance(color, str) or not isinstance(shape, str):
            raise BadInput("tile_name_type")
    return Placement(row, col, color, shape)


def parse_tiles(raw: object, as_lists: bool = False) -> list[Placement]:
    """Read a move's tile list (BadInput when it is not one); as_lists: each
    tile written [row, col, color, shape]."""
    if not isinstance(raw, list):
        raise BadInput("tiles_not_list")
    if as_lists:
        return [parse_tile(item, True) for item in raw]
    # parse_tile's checks written out: every replayed move comes through here.
    tiles = []
    for item in raw:
        if type(item) is not dict:
            tiles.append(parse_tile(item))  # a Mapping, or refused there
            continue
        try:
            row, col, color, shape = (item["row"], item["col"], item["color"],
                                      item["shape"])
        except KeyError:
            tiles.append(parse_tile(item))  # names the missing key
            continue
        if (type(row) is not int or type(col) is not int
                or not -MAX_COORDINATE <= row <= MAX_COORDINATE
                or not -MAX_COORDINATE <= col <= MAX_COORDINATE
                or type(color) is not str or type(shape) is not str):
            tiles.append(parse_tile(item))  # names the fault (or a str subclass)
            continue
        tiles.append(Placement(row, col, color, shape))
    return tiles


def parse_seconds(move: Mapping[str, Any]) -> int | None:
    """Read the thinking time a move carries (CONTRACT §10): None when it has
    none (no "seconds", or null); BadInput unless whole seconds from 0 to a day."""
    return check_seconds(move.get("seconds"))


def thinking_time(raw: str | None) -> int | None:
    """Read a form's thinking time: None when it carries none, or anything but
    whole seconds within a day (a form's time is a statistic: the move it came
    with is still recorded)."""
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > 6:
        return None
    try:
        return check_seconds(int(raw))
    except BadInput:
        return None


def parse_move(raw: object) -> MoveInput:
    """Read a move of a record or a request (CONTRACT §5, §10); 'player' and
    'score' are a record's, checked by records.from_record, except a leave's
    'player', the seat that leaves (RULES §7.5)."""
    if type(raw) is MoveInput:
        return raw
    if not isinstance(raw, dict | Mapping):
        raise BadInput("move_not_object")
    kind = raw.get("type")
    if kind == "place":
        return MoveInput("place", tiles=parse_tiles(raw.get("tiles")),
                         seconds=parse_seconds(raw))
    if kind == "trade":
        count = raw.get("count")
        if type(count) is not int:
            raise BadInput("move_trade_count")
        return MoveInput("trade", count=count, seconds=parse_seconds(raw))
    if kind == "pass":
        return MoveInput("pass", seconds=parse_seconds(raw))
    if kind == "penalty":
        if "seconds" in raw:
            raise BadInput("penalty_seconds")
        reason = raw.get("reason")
        if reason not in (Reason.ILLEGAL, Reason.TIMEOUT):
            raise BadInput("penalty_reason", {"value": reason})
        return MoveInput("penalty", reason=str(reason))
    if kind == "leave":
        if "seconds" in raw:
            raise BadInput("leave_seconds")
        return MoveInput("leave", player=raw.get("player"))
    raise BadInput("move_type", {"value": kind})
