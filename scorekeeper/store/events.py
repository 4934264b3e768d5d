"""Club nights (CONTRACT §14): events, the games at their tables, standings."""

from __future__ import annotations

import json
import secrets
import zlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

import sqlite_utils

from .. import engine
from .cache import MAX_GAME_ID
from .connection import get_db, immediate
from .games import LEFT_SEAT, now


class EventNotFound(LookupError):
    """No event has this id."""

    def __init__(self, event_id: int) -> None:
        super().__init__(f"there is no event {event_id}")
        self.event_id = event_id


def create_event(name: str, date: str) -> tuple[int, str]:
    """Store a new event with its edit (organiser's) and join tokens; return
    (id, edit token)."""
    token = secrets.token_urlsafe(16)
    db = get_db()
    with immediate(db):
        cursor = db.conn.execute(
            "INSERT INTO events (name, date, edit_token, join_token, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [name, date, token, secrets.token_urlsafe(16), now()],
        )
    return int(cursor.lastrowid or 0), token


def get_event(event_id: int) -> dict[str, Any]:
    """Return the event's id, name, date, created_at, season (id or None),
    count_ended (whether games ended early count) and count_leavers (whether a
    player who left a game counts in it); raise EventNotFound."""
    row = None
    if 0 <= event_id <= MAX_GAME_ID:
        row = get_db().conn.execute(
            "SELECT id, name, date, created_at, season_id, count_ended,"
            " count_leavers FROM events WHERE id = ?", [event_id]
        ).fetchone()
    if row is None:
        raise EventNotFound(event_id)
    return {"id": row[0], "name": row[1], "date": row[2], "created_at": row[3],
            "season": row[4], "count_ended": bool(row[5]),
            "count_leavers": bool(row[6])}


def join_token(event_id: int) -> str | None:
    """Return the token the event's join link carries (it adds tables and
    nothing else), or None when there is no such event."""
    if not 0 <= event_id <= MAX_GAME_ID:
        return None
    row = get_db().conn.execute(
        "SELECT join_token FROM events WHERE id = ?", [event_id]
    ).fetchone()
    return str(row[0]) if row else None


def set_event_options(
    event_id: int, season: int | None, count_ended: bool, count_leavers: bool
) -> None:
    """Put the event in a season (None: in none) and say whether its games
    ended early count and whether a player who left a game counts in it;
    raise EventNotFound."""
    db = get_db()
    with immediate(db):
        changed = db.conn.execute(
            "UPDATE events SET season_id = ?, count_ended = ?, count_leavers = ?"
            " WHERE id = ?",
            [season, int(count_ended), int(count_leavers), event_id],
        ).rowcount
    if not changed:
        raise EventNotFound(event_id)


def event_token(event_id: int) -> str | None:
    """Return the event's edit token, or None when there is no such event."""
    if not 0 <= event_id <= MAX_GAME_ID:
        return None
    row = get_db().conn.execute(
        "SELECT edit_token FROM events WHERE id = ?", [event_id]
    ).fetchone()
    return str(row[0]) if row else None


def list_events(limit: int = 50) -> list[dict[str, Any]]:
    """Return the latest events, newest first: id, name, date, tables (games),
    running (games still being played)."""
    return [
        {"id": row[0], "name": row[1], "date": row[2], "tables": row[3],
         "running": row[4] or 0}
        for row in get_db().conn.execute(
            "SELECT e.id, e.name, e.date, count(g.id),"
            " sum(g.status = 'active') FROM events e"
            " LEFT JOIN games g INDEXED BY games_event ON g.event_id = e.id"
            " GROUP BY e.id ORDER BY e.date DESC, e.id DESC LIMIT ?",
            [limit],
        )
    ]


def rename_event(event_id: int, name: str, date: str) -> None:
    """Give an event another name and date; raise EventNotFound."""
    db = get_db()
    with immediate(db):
        changed = db.conn.execute(
            "UPDATE events SET name = ?, date = ? WHERE id = ?", [name, date, event_id]
        ).rowcount
    if not changed:
        raise EventNotFound(event_id)


UNDO_SECONDS = 24 * 3600
"""How long a deleted club night or season can be brought back
(undelete_event, seasons.undelete_season)."""


def delete_event(event_id: int) -> list[int]:
    """Delete an event; return the ids of its games, which stay stored (in the
    history, in no event: a club night's games are never lost with it). The
    night is kept aside UNDO_SECONDS, so that undelete_event can bring it
    back."""
    get_event(event_id)
    db = get_db()
    with immediate(db):
        kept = [int(row[0]) for row in db.conn.execute(
            "SELECT id FROM games INDEXED BY games_event WHERE event_id = ?"
            " ORDER BY id", [event_id])]
        stamp = now()
        db.conn.execute(
            "DELETE FROM deleted_events WHERE deleted_at < ?",
            [seconds_before(stamp, UNDO_SECONDS)])
        db.conn.execute(
            "INSERT OR REPLACE INTO deleted_events (id, name, date, edit_token,"
            " join_token, created_at, season_id, count_ended, count_leavers,"
            " games, deleted_at)"
            " SELECT id, name, date, edit_token, join_token, created_at,"
            " season_id, count_ended, count_leavers, ?, ? FROM events WHERE id = ?",
            [json.dumps(kept), stamp, event_id])
        # Said here, not left to the foreign key's ON DELETE SET NULL: the
        # games must outlive the event whatever the connection's pragmas.
        db.conn.execute("UPDATE games SET event_id = NULL WHERE event_id = ?",
                        [event_id])
        db.conn.execute("DELETE FROM events WHERE id = ?", [event_id])
    return kept


def seconds_before(stamp: str, seconds: int) -> str:
    """Return the store's timestamp `seconds` before stamp."""
    return (datetime.fromisoformat(stamp) - timedelta(seconds=seconds)).isoformat(
        timespec="microseconds")


def deleted_event_token(event_id: int) -> str | None:
    """Return the organiser's token of a night deleted less than UNDO_SECONDS
    ago (who may bring it back), or None."""
    if not 0 <= event_id <= MAX_GAME_ID:
        return None
    row = get_db().conn.execute(
        "SELECT edit_token FROM deleted_events WHERE id = ? AND deleted_at >= ?",
        [event_id, seconds_before(now(), UNDO_SECONDS)]).fetchone()
    return str(row[0]) if row else None


def undelete_event(event_id: int) -> bool:
    """Bring back a night deleted less than UNDO_SECONDS ago, with its id,
    tokens and the games it had that are still in no night; return False
    when there is none to bring back."""
    db = get_db()
    with immediate(db):
        row = db.conn.execute(
            "SELECT games FROM deleted_events WHERE id = ? AND deleted_at >= ?",
            [event_id, seconds_before(now(), UNDO_SECONDS)]).fetchone()
        if row is None:
            return False
        db.conn.execute(
            "INSERT INTO events (id, name, date, edit_token, join_token,"
            " created_at, season_id, count_ended, count_leavers)"
            " SELECT d.id, name, date, edit_token, join_token, created_at,"
            " (SELECT id FROM seasons WHERE id = d.season_id), count_ended,"
            " count_leavers"
            " FROM deleted_events d WHERE d.id = ?", [event_id])
        db.conn.executemany(
            "UPDATE games SET event_id = ? WHERE id = ? AND event_id IS NULL",
            [(event_id, game_id) for game_id in json.loads(row[0])])
        db.conn.execute("DELETE FROM deleted_events WHERE id = ?", [event_id])
    return True


def add_game(event_id: int, game_id: int, unplaced: bool = False) -> bool:
    """Make a stored game one of the event's tables; return False, changing
    nothing, when the event is gone (deleted since the request checked it)
    or, with unplaced (a table started outside the night moving in), when
    the game is in a night already."""
    db = get_db()
    with immediate(db):
        cursor = db.conn.execute(
            "UPDATE games SET event_id = ? WHERE id = ?"
            + (" AND event_id IS NULL" if unplaced else "")
            + " AND EXISTS (SELECT 1 FROM events WHERE id = ?)",
            [event_id, game_id, event_id],
        )
    return cursor.rowcount > 0


def game_event(game_id: int) -> int | None:
    """Return the id of the event a game belongs to, if any."""
    row = get_db().conn.execute(
        "SELECT event_id FROM games WHERE id = ?", [game_id]
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def event_game_ids(event_id: int) -> list[int]:
    """Return the ids of the event's games, in the order they were made."""
    return [
        int(row[0]) for row in get_db().conn.execute(
            "SELECT id FROM games INDEXED BY games_event WHERE event_id = ?"
            " ORDER BY id", [event_id]
        )
    ]


def event_tables(event_id: int) -> list[dict[str, Any]]:
    """Return the event's games in the order they were made: id, status,
    end_reason, move_count, updated_at, revision and players (seat, name, score,
    excluded, left, is_winner)."""
    db = get_db()
    games = [
        {"id": row[0], "status": row[1], "end_reason": row[2], "move_count": row[3],
         "updated_at": row[4], "revision": row[5], "players": []}
        for row in db.conn.execute(
            "SELECT id, status, end_reason, move_count, updated_at, revision"
            " FROM games INDEXED BY games_event WHERE event_id = ? ORDER BY id",
            [event_id],
        )
    ]
    by_id = {game["id"]: game for game in games}
    for game_id, seat, name, score, excluded, left, winner in db.conn.execute(
        f"SELECT p.game_id, p.seat, p.name, p.score, p.excluded, {LEFT_SEAT},"
        " p.is_winner FROM games g INDEXED BY games_event JOIN game_players p"
        " ON p.game_id = g.id WHERE g.event_id = ? ORDER BY g.id, p.seat",
        [event_id],
    ):
        by_id[game_id]["players"].append({
            "seat": seat, "name": name, "score": score, "excluded": bool(excluded),
            "left": bool(left), "winner": bool(winner),
        })
    return games


def change_key(event_id: int) -> str:
    """Return a key that changes whenever anything a screen shows of the event
    changes (its name or date, any of its games: a move, an undo, a
    correction, a player's rename, a new table): one indexed read. Raise
    EventNotFound once the event is gone, so that a screen following it is
    told so rather than shown an empty night."""
    if not 0 <= event_id <= MAX_GAME_ID:
        raise EventNotFound(event_id)
    row = get_db().conn.execute(
        # The games by the event's index (the planner, without statistics for
        # it, may otherwise scan every game: 20 ms at 50,000 games).
        "SELECT e.name, e.date, count(g.id), max(g.updated_at), total(g.revision),"
        " total(g.move_count) FROM events e"
        " LEFT JOIN games g INDEXED BY games_event ON g.event_id = e.id"
        " WHERE e.id = ? GROUP BY e.id",
        [event_id],
    ).fetchone()
    if row is None:
        raise EventNotFound(event_id)
    # The name and date as a short digest: a key is an ETag and an event
    # stream's id, so it holds no text a person typed.
    named = zlib.crc32(f"{row[0]}\x1f{row[1]}".encode())
    return f"{row[2]}-{row[3] or ''}-{int(row[4])}-{int(row[5])}-{named:08x}"


def standings(event_id: int, scoring: engine.Scoring = "wins") -> list[dict[str, Any]]:
    """Return the event's standings (CONTRACT §14, engine.standings) over its
    counted games: finished, not abandoned, and, unless the organiser said
    so, not ended early; raise EventNotFound."""
    return engine.standings(night_results(event_id), scoring)


def night_results(event_id: int) -> list[list[engine.Seat]]:
    """Return results([event_id]) as the night's organiser chose them counted
    (games ended early, players who left); raise EventNotFound."""
    event = get_event(event_id)
    return results([event_id], event["count_ended"], event["count_leavers"])


def results(event_ids: Sequence[int], count_ended: bool = True,
            count_leavers: bool = True) -> list[list[engine.Seat]]:
    """Return the seats of the events' games that have a result (an abandoned
    one has none), by the events' dates, then in the order they were made;
    without count_ended, a game ended early (closed with reason `ended`) is
    left out; without count_leavers, a game counts without the players who
    left it (engine.counted_seats)."""
    marks = ", ".join("?" * len(event_ids))
    games: dict[int, list[engine.Seat]] = {}
    for game_id, name, key, score, excluded, left in get_db().conn.execute(
        f"SELECT g.id, p.name, p.name_key, p.score, p.excluded, {LEFT_SEAT}"
        " FROM events e JOIN games g INDEXED BY games_event ON g.event_id = e.id"
        " JOIN game_players p ON p.game_id = g.id"
        f" WHERE e.id IN ({marks}) AND p.is_winner IS NOT NULL"
        " AND (? OR g.end_reason IS NOT 'ended')"
        " ORDER BY e.date, g.id, p.seat",
        [*event_ids, int(count_ended)],
    ):
        games.setdefault(game_id, []).append(
            engine.Seat(key, name, score, bool(excluded), bool(left)))
    return [engine.counted_seats(seats, count_leavers) for seats in games.values()]


def event_players(event_id: int, staying: bool = False) -> list[str]:
    """Return the names of everyone who played at the event, once each (by name
    key), as written in their latest game there, in order of first appearance;
    with staying, not those who left their latest game there (RULES §7.5: gone
    home, so not offered for the next round)."""
    names: dict[str, str] = {}
    gone: set[str] = set()
    for name, key, left in get_db().conn.execute(
        f"SELECT p.name, p.name_key, {LEFT_SEAT} FROM games g INDEXED BY games_event"
        " JOIN game_players p ON p.game_id = g.id WHERE g.event_id = ?"
        " ORDER BY g.id, p.seat",
        [event_id],
    ):
        names[key] = name
        if left and staying:
            gone.add(key)
        else:
            gone.discard(key)
    return [name for key, name in names.items() if key not in gone]


def previous_players(event_id: int) -> list[str]:
    """Return who played at the latest night before this one (by date, then
    id) that had players: a new night's roster to start from."""
    row = get_db().conn.execute(
        "SELECT e.id FROM events e, events this WHERE this.id = ? AND e.id != this.id"
        " AND (e.date, e.id) < (this.date, this.id)"
        " AND EXISTS (SELECT 1 FROM games g INDEXED BY games_event"
        "  WHERE g.event_id = e.id) ORDER BY e.date DESC, e.id DESC LIMIT 1",
        [event_id]).fetchone()
    return event_players(int(row[0])) if row else []


def events_for_backup(game_ids: Sequence[int]) -> list[dict[str, Any]]:
    """Return every club night for a backup whose games were written in the
    order of game_ids: name, date, created_at, games (indexes into that
    order; a game not written is left out) and its paired rounds, if any."""
    db = get_db()
    position = {game_id: index for index, game_id in enumerate(game_ids)}
    events = {
        row[0]: {"name": row[1], "date": row[2], "created_at": row[3], "games": [],
                 **({"season": row[4]} if row[4] is not None else {}),
                 **({} if row[5] else {"count_ended": False}),
                 **({} if row[6] else {"count_leavers": False})}
        for row in db.conn.execute(
            "SELECT e.id, e.name, e.date, e.created_at, s.name, e.count_ended,"
            " e.count_leavers FROM events e"
            " LEFT JOIN seasons s ON s.id = e.season_id ORDER BY e.id"
        )
    }
    for event_id, game_id in db.conn.execute(
        "SELECT event_id, id FROM games WHERE event_id IS NOT NULL ORDER BY id"
    ):
        if game_id in position and event_id in events:
            events[event_id]["games"].append(position[game_id])
    for event_id, number, tables, created_at in db.conn.execute(
        "SELECT event_id, number, tables, created_at FROM event_rounds"
        " ORDER BY event_id, number"
    ):
        if event_id in events:
            events[event_id].setdefault("rounds", []).append(
                {"number": number, "tables": json.loads(tables),
                 "created_at": created_at})
    return list(events.values())


def restore_events(
    db: sqlite_utils.Database, events: Sequence[Any],
    positions: Sequence[int | None],
) -> None:
    """Store a backup's club nights (in the caller's transaction), each game
    named by its position in the backup (positions: the stored id of each).

    An event already here (same name, date and creation time) is the same
    event: it gains the games and the rounds it lacks. A night's season is
    found by its name, or made. A game keeps the event it already has; an index
    beyond the backup's games names nothing.
    """
    for event in events:
        row = db.conn.execute(
            "SELECT id FROM events WHERE name = ? AND date = ? AND created_at = ?",
            [event.name, event.date, event.created_at],
        ).fetchone()
        if row is None:
            cursor = db.conn.execute(
                "INSERT INTO events (name, date, edit_token, join_token, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [event.name, event.date, secrets.token_urlsafe(16),
                 secrets.token_urlsafe(16), event.created_at],
            )
            event_id = int(cursor.lastrowid or 0)
        else:
            event_id = int(row[0])
        season_id = None
        if event.season is not None:
            season_id = season_named(db, event.season)
        db.conn.execute(
            "UPDATE events SET season_id = coalesce(?, season_id), count_ended = ?,"
            " count_leavers = ? WHERE id = ?",
            [season_id, int(event.count_ended), int(event.count_leavers), event_id])
        ids = [positions[i] for i in event.games if i < len(positions)]
        db.conn.executemany(
            "UPDATE games SET event_id = ? WHERE id = ? AND event_id IS NULL",
            [(event_id, game_id) for game_id in ids if game_id is not None],
        )
        # A round already here (by its number) is the same round.
        db.conn.executemany(
            "INSERT OR IGNORE INTO event_rounds (event_id, number, tables,"
            " created_at) VALUES (?, ?, ?, ?)",
            [(event_id, played.number,
              json.dumps([list(t) for t in played.tables], ensure_ascii=False),
              played.created_at) for played in event.rounds])


def season_named(db: sqlite_utils.Database, name: str,
                 created_at: str | None = None) -> int:
    """Return the id of the first season of this name, made (in the caller's
    transaction) when there is none."""
    found = db.conn.execute(
        "SELECT id FROM seasons WHERE name = ? ORDER BY id LIMIT 1", [name]
    ).fetchone()
    if found:
        return int(found[0])
    return int(db.conn.execute(
        "INSERT INTO seasons (name, created_at) VALUES (?, ?)",
        [name, created_at or now()]).lastrowid or 0)


def add_round(event_id: int, tables: Sequence[Sequence[str]]) -> int:
    """Keep a round's tables (names) as the event's next round; return its
    number, counting from 1 per event."""
    db = get_db()
    with immediate(db):
        row = db.conn.execute(
            "SELECT coalesce(max(number), 0) + 1 FROM event_rounds WHERE event_id = ?",
            [event_id]).fetchone()
        db.conn.execute(
            "INSERT INTO event_rounds (event_id, number, tables, created_at)"
            " VALUES (?, ?, ?, ?)",
            [event_id, row[0], json.dumps([list(t) for t in tables],
                                          ensure_ascii=False), now()])
    return int(row[0])


def met_pairs(event_id: int) -> set[frozenset[str]]:
    """Return every pair of name keys that sat at one table of the event: at
    one of its games, or at a table of one of its rounds."""
    db = get_db()
    tables: dict[object, list[str]] = {}
    for game_id, key in db.conn.execute(
        "SELECT p.game_id, p.name_key FROM games g INDEXED BY games_event"
        " JOIN game_players p ON p.game_id = g.id WHERE g.event_id = ?",
        [event_id],
    ):
        tables.setdefault(game_id, []).append(key)
    for number, stored in db.conn.execute(
        "SELECT number, tables FROM event_rounds WHERE event_id = ?", [event_id]
    ):
        for index, names in enumerate(json.loads(stored)):
            tables[(number, index)] = [engine.name_key(name) for name in names]
    return {frozenset(pair) for keys in tables.values()
            for pair in combinations(keys, 2)}
