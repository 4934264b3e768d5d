"""What photos of confirmed moves taught the photo reader.

A read photo leaves its new tiles' looks (cell, hue, saturation, value) as
the game's pending reading, with the looks of the stored tiles it showed as
stored, labelled with their kinds. The next photo of the game first settles
it: if the move stored after the reading filled those cells, each new look
is labelled with the tile the players confirmed there (a correction
included) and the sums of all are added to the lessons, for the game and for
the installation (game_id NULL); then the pending reading goes. The sums per
kind are a few numbers (`photo.lessons.Lesson`): colour: count, Σcos(hue),
Σsin(hue), and over the examples whose paint was measured (migration m870),
their count, Σsaturation, Σvalue. Rows of "shape" (sums of a four-fold
measure the shape model replaced) were written before; they stay in the
table, read by nothing, and a pending reading's looks that still carry a
"four_fold" are read without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

import sqlite_utils

from .connection import get_db, immediate

LessonRow = tuple[str, str, int, float, float, int, float, float]
"""(what, name, count, a, b, measured, saturation, value): one kind's sums
(`photo.lessons.Lesson`)."""

Teacher = Callable[[Sequence[Mapping[str, object]],
                    Mapping[tuple[int, int], tuple[str, str]]],
                   Sequence[Sequence[object]]]
"""What looks on cells whose tile is confirmed teach: one row a kind, laid
out as `LessonRow` (`photo.lessons.lesson_sums`, which the web layer hands
in: the store keeps the sums, the reader says what they are)."""

COLUMNS = "what, name, count, a, b, measured, saturation, value"
"""A lesson row's columns, in `LessonRow`'s order."""


def keep_reading(game_id: int, seq: int, looks: Sequence[Mapping[str, object]],
                 db: sqlite_utils.Database | None = None) -> None:
    """Keep a reading's looks as the game's pending reading, for the move
    numbered seq (from 0: the game's move count when the photo was read). A
    look that carries "color" and "shape" is a stored tile's, labelled."""
    data = json.dumps([
        {"row": int(str(x["row"])), "col": int(str(x["col"])),
         "hue": float(str(x["hue"])),
         **({"saturation": float(str(x["saturation"])),
             "value": float(str(x["value"]))}
            if x.get("saturation") is not None else {}),
         **({"color": str(x["color"]), "shape": str(x["shape"])}
            if x.get("color") is not None else {})}
        for x in looks
    ], separators=(",", ":"))
    now = datetime.now(UTC).isoformat(timespec="seconds")
    db = db or get_db()
    with immediate(db):
        db.conn.execute(
            "INSERT INTO photo_readings (game_id, seq, looks, created_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " seq = excluded.seq, looks = excluded.looks,"
            " created_at = excluded.created_at",
            [game_id, seq, data, now],
        )


def settle(game_id: int, teach: Teacher,
           db: sqlite_utils.Database | None = None) -> int:
    """Learn from the game's pending reading if its move has been stored since;
    return the number of tiles learnt from. A reading whose move is not stored
    yet stays; one overtaken by another move goes unlearnt."""
    db = db or get_db()
    with immediate(db):
        pending = db.conn.execute(
            "SELECT seq, looks FROM photo_readings WHERE game_id = ?", [game_id]
        ).fetchone()
        if pending is None:
            return 0
        seq, looks_json = pending
        move = db.conn.execute(
            "SELECT type, tiles FROM moves WHERE game_id = ? AND seq = ?",
            [game_id, seq],
        ).fetchone()
        if move is None:
            later = db.conn.execute(
                "SELECT count(*) FROM moves WHERE game_id = ? AND seq > ?",
                [game_id, seq]).fetchone()[0]
            if not later:
                return 0  # the move is not confirmed yet
        db.conn.execute("DELETE FROM photo_readings WHERE game_id = ?", [game_id])
        if move is None or move[0] != "place":
            return 0
        try:
            looks = json.loads(looks_json)
            confirmed = {(int(t["row"]), int(t["col"])): (str(t["color"]),
                                                          str(t["shape"]))
                         for t in json.loads(move[1])}
        except (ValueError, TypeError, KeyError):
            return 0
        sums = teach(looks, confirmed)
        for scope in (game_id, None):
            for lesson in sums:
                _add(db, scope, lesson)
        return sum(int(str(lesson[2])) for lesson in sums if lesson[0] == "color")


def _add(db: sqlite_utils.Database, game_id: int | None,
         lesson: Sequence[object]) -> None:
    """Add sums to one kind's lesson (inside the caller's transaction)."""
    where = "game_id IS ?" if game_id is None else "game_id = ?"
    what, name, *sums = lesson
    changed = db.conn.execute(
        f"UPDATE photo_lessons SET count = count + ?, a = a + ?, b = b + ?,"
        f" measured = measured + ?, saturation = saturation + ?,"
        f" value = value + ? WHERE {where} AND what = ? AND name = ?",
        [*sums, game_id, what, name],
    ).rowcount
    if not changed:
        _insert(db, game_id, lesson)


def _insert(db: sqlite_utils.Database, game_id: int | None,
            row: Sequence[object]) -> None:
    """Insert one kind's lesson (a `LessonRow`; a row of hue alone, as kept
    before paint was measured, counts none measured)."""
    what, name, count, a, b, *paint = row
    measured, saturation, value = paint or (0, 0.0, 0.0)
    db.conn.execute(
        f"INSERT INTO photo_lessons (game_id, {COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, what, name, count, a, b, measured, saturation, value])


def _row(values: Sequence[object]) -> LessonRow:
    """A lesson row as read from the table."""
    what, name, count, a, b, measured, saturation, value = values
    return (str(what), str(name), int(str(count)), float(str(a)), float(str(b)),
            int(str(measured)), float(str(saturation)), float(str(value)))


def lessons(game_id: int, db: sqlite_utils.Database | None = None
            ) -> tuple[list[LessonRow], list[LessonRow]]:
    """The game's lessons and the installation's."""
    db = db or get_db()
    rows = db.conn.execute(
        f"SELECT game_id, {COLUMNS} FROM photo_lessons"
        " WHERE game_id = ? OR game_id IS NULL ORDER BY what, name", [game_id]
    ).fetchall()
    game = [_row(r[1:]) for r in rows if r[0] is not None]
    everywhere = [_row(r[1:]) for r in rows if r[0] is None]
    return game, everywhere


def teach_colors(rows: Sequence[Sequence[object]],
                  db: sqlite_utils.Database | None = None) -> None:
    """Make rows (colour lessons, from a photo of one tile of each colour) the
    installation's colour lessons: what was taught or learnt before for the
    installation goes (new light bulbs: the old hues mislead), each game's
    own lessons stay."""
    db = db or get_db()
    with immediate(db):
        db.conn.execute(
            "DELETE FROM photo_lessons WHERE game_id IS NULL AND what = 'color'")
        for row in rows:
            if row[0] == "color":
                _insert(db, None, row)


def forget_colors(db: sqlite_utils.Database | None = None) -> int:
    """Forget the installation's colour lessons (taught or learnt); return
    how many colours were forgotten. Each game's own lessons stay."""
    db = db or get_db()
    with immediate(db):
        return int(db.conn.execute(
            "DELETE FROM photo_lessons WHERE game_id IS NULL AND what = 'color'"
        ).rowcount)


def installation_colors(db: sqlite_utils.Database | None = None
                         ) -> list[LessonRow]:
    """The installation's colour lessons."""
    db = db or get_db()
    rows = db.conn.execute(
        f"SELECT {COLUMNS} FROM photo_lessons"
        " WHERE game_id IS NULL AND what = 'color' ORDER BY name").fetchall()
    return [_row(r) for r in rows]
