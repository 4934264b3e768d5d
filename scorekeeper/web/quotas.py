"""How many games a guest may start, and the room on disk kept for the moves.

A guest needed no right to start games: one script stored 19,803 in a minute
and filled the disk, and then the tables already playing could store no move.
So (CONTRACT §8.1): each device starts games at a rate (its key, by default
auth.client_key(); the admin's device is not counted), a club night holds a number
of tables, and while the disk holding the database has less than a reserve
free, no new game is started at all, so that the moves of the games being
played still fit. Every refusal says why, in the request's language.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Hashable
from dataclasses import dataclass

from flask import Response, current_app

from .. import text
from ..store import events as stored_events
from . import auth
from .errors import error_response
from .photo_upload import Rate

NEW_GAMES = (40, 90.0)
"""New games per device: 40 at once, then one per 90 s. A club night's host
starts a round's tables together (16 at most: forms.MAX_PRESENT players), a
round every half hour or so; a script is refused after the 40th."""

MAX_NIGHT_TABLES = 160
"""Tables one club night holds: ten rounds of 16 tables."""

DISK_RESERVE_BYTES = 32 * 1024 * 1024
"""Bytes kept free on the database's disk for the moves of the games being
played: no new game is started below it. 32 MiB: the write-ahead log grown to
twice SQLite's checkpoint size (2 x 1,000 pages of 4 KiB = 8 MiB) and 100
tables playing 100 more moves each at about 2 KiB a move stored (its row,
index entries and the game's cached state: 20 MiB), with room to spare."""

_EXTENSION = "scorekeeper_new_games"


@dataclass(frozen=True)
class Refusal:
    """Why new games are not started: HTTP status, CONTRACT code, a sentence."""

    status: int
    code: str
    message: str
    retry_after: int = 0
    """Seconds until the device may try again (429 only)."""


def free_bytes(folder: str) -> int | None:
    """Return the bytes free for this process on folder's filesystem (None
    where it cannot be measured)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _database_folder() -> str:
    return os.path.dirname(os.path.abspath(str(current_app.config["DATABASE"])))


def _rate() -> Rate:
    rate = current_app.extensions.get(_EXTENSION)
    if rate is None:
        rate = Rate(*current_app.config.get("NEW_GAME_RATE", NEW_GAMES))
        current_app.extensions[_EXTENSION] = rate
    assert isinstance(rate, Rate)  # only this module sets it
    return rate


def _take(key: Hashable, games: int) -> int:
    """Take `games` starts from key's rate; return 0, or the seconds to wait
    (then nothing is taken)."""
    rate = _rate()
    for taken in range(games):
        wait = rate.take(key)
        if wait > 0:
            for _ in range(taken):
                rate.give_back(key)
            return max(1, round(wait * (games - taken)))
    return 0


def refusal(games: int = 1, event_id: int | None = None,
            key: Hashable | None = None) -> Refusal | None:
    """Return why `games` new games (tables of event_id, if given) may not be
    started now for this request (or the device `key`), or None: they may.
    None takes them from the device's rate."""
    reserve = int(current_app.config.get("DISK_RESERVE_BYTES", DISK_RESERVE_BYTES))
    free = free_bytes(_database_folder())
    if free is not None and free < reserve:
        current_app.logger.warning(
            "new games refused: %d bytes free, %d kept for moves", free, reserve)
        return Refusal(507, "disk_full", text.no_room_for_games())
    if event_id is not None:
        limit = int(current_app.config.get("MAX_NIGHT_TABLES", MAX_NIGHT_TABLES))
        if len(stored_events.event_game_ids(event_id)) + games > limit:
            return Refusal(422, "too_many_tables", text.night_full(limit))
    if key is None:
        if auth.is_admin():
            return None  # the admin starts what it likes (a restore, a club)
        key = auth.client_key()
    wait = _take(key, games)
    if wait:
        return Refusal(429, "too_many_games", text.too_many_games(wait), wait)
    return None


def refusal_response(refused: Refusal) -> Response:
    """Return the JSON error for a refusal, with Retry-After on a 429."""
    response = error_response(refused.status, refused.code, refused.message)
    if refused.retry_after:
        response.headers["Retry-After"] = str(refused.retry_after)
    return response
