"""What an older version kept still reads: a pending reading whose looks
carry a four-fold measure, and "shape" lesson rows. Shapes teach nothing now
(the shape model names them from the photo), colours teach as before."""

from __future__ import annotations

import math

import pytest

from scorekeeper.photo.lessons import Taught, lesson_sums


def test_a_look_kept_with_its_four_fold_measure_teaches_its_colour() -> None:
    looks = [{"row": 0, "col": 0, "hue": 20.0, "four_fold": 0.3,
              "saturation": 0.8, "value": 0.7},
             {"row": 0, "col": 1, "hue": 24.0, "four_fold": 0.01}]
    sums = lesson_sums(looks, {(0, 0): ("orange", "crisscross"),
                               (0, 1): ("orange", "starburst")})
    assert [(x.what, x.name, x.n, x.measured) for x in sums] == \
        [("color", "orange", 2, 1)]


def test_a_shape_row_kept_before_teaches_nothing() -> None:
    rad = math.radians(250.0)
    taught = Taught.from_rows([
        ("shape", "crisscross", 4, 1.2, 0.4, 0, 0.0, 0.0),
        ("color", "purple", 2, 2 * math.cos(rad), 2 * math.sin(rad), 2, 1.4, 1.0)])
    assert set(taught.hues()) == {"purple"}
    assert taught.hues()["purple"] == pytest.approx(250.0)
    assert taught.pale() == {}
