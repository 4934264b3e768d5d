"""A colour lesson keeps its paint's saturation and value (migration m870):
lessons kept before it still teach their hue, and a taught white is kept as
a colourless paint."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from scorekeeper.photo.color_lessons import lessons
from scorekeeper.photo.lessons import Taught
from scorekeeper.store import connection, photo_lessons, schema

MIGRATION = "m870_photo_lesson_paint"

HUES = {"red": 355.0, "orange": 14.0, "yellow": 55.0, "green": 140.0,
        "blue": 207.0, "purple": 200.0}

PAINTS = {**{c: (0.85, 0.6) for c in HUES}, "purple": (0.07, 0.85)}
"""A set whose sixth colour is white."""


def test_a_lesson_kept_before_the_migration_teaches_its_hue(tmp_path: Path) -> None:
    db = connection.connect(str(tmp_path / "old.sqlite3"))
    try:
        schema.migrations.apply(db, stop_before=MIGRATION)
        rad = math.radians(250.0)
        db.execute("INSERT INTO photo_lessons (game_id, what, name, count, a, b)"
                    " VALUES (NULL, 'color', 'purple', 3, ?, ?)",
                    [3 * math.cos(rad), 3 * math.sin(rad)])
        db.conn.commit()
        schema.migrations.apply(db)
        rows = photo_lessons.installation_colors(db)
    finally:
        db.close()
    assert [row[:3] for row in rows] == [("color", "purple", 3)]
    taught = Taught.from_rows(rows)
    assert taught.pale() == {}
    assert taught.hues()["purple"] == pytest.approx(250.0)


def test_a_taught_white_is_kept_as_a_colourless_paint(tmp_path: Path) -> None:
    db = connection.connect(str(tmp_path / "new.sqlite3"))
    try:
        schema.migrations.apply(db)
        photo_lessons.teach_colors(lessons(HUES, paints=PAINTS), db)
        taught = Taught.from_rows(photo_lessons.installation_colors(db))
    finally:
        db.close()
    assert set(taught.pale()) == {"purple"}
    assert taught.pale()["purple"][0] == pytest.approx(PAINTS["purple"][0])
    # A colourless paint's hue is its light's: it places no colour.
    assert set(taught.hues()) == set(HUES) - {"purple"}
