"""Honest confidence: a shape that may be wrong is marked uncertain.

Each kind of doubt of `classify.Classifier.shape` is shown on the benchmark photos
(`bench_photo.REAL_SEED`) whose shapes were read wrong and sure: every new
tile must now be read right or marked uncertain (its picker then opens with
the likely kinds first), and a sharp symbol is still sure.
"""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.photo import LOW_CONFIDENCE, read_move
from scorekeeper.photo.classify import Classifier
from scorekeeper.photo.symbols import normalise
from scorekeeper.photo.tiles import sureness

from . import drawn, synth_real

SHAPES = ("circle", "crisscross", "diamond", "square", "starburst", "clover")


def _benchmark_case(condition: str, index: int) -> synth_real.RealCase:
    return synth_real.real_cases(condition, 2020, index + 1)[index]


def _wrong_and_sure(condition: str, index: int) -> list[tuple[int, int, str, str]]:
    """The new tiles of a benchmark photo read wrong and not marked uncertain."""
    rc = _benchmark_case(condition, index)
    reading = read_move(synth_real.photo(rc), list(rc.case.stored))
    move = set(rc.case.move)
    return [t[:4] for t in reading.tiles
            if t[:4] not in move and t.confidence >= LOW_CONFIDENCE]


@pytest.mark.parametrize(("condition", "index"), [
    # A green square found as a few specks and an orange clover with table
    # grain attached: they look like no shape well.
    ("warm light", 86), ("cool light", 54),
])
def test_a_symbol_that_fits_no_shape_is_uncertain(condition: str, index: int) -> None:
    assert _wrong_and_sure(condition, index) == []


@pytest.mark.parametrize(("condition", "index"), [
    # Starbursts on 39 and 45 px tiles, their points blurred off into
    # near-circles.
    ("paint shifted", 59), ("warm light", 112),
])
def test_a_starburst_blurred_round_is_no_sure_circle(condition: str, index: int
                                                     ) -> None:
    assert _wrong_and_sure(condition, index) == []


def test_a_blobby_small_symbol_is_no_sure_shape() -> None:
    # A blobby green crisscross on a 41 px tile, once read as a square by a
    # hair over a clover.
    assert _wrong_and_sure("cool light", 47) == []


def test_a_bar_of_a_symbol_is_uncertain_however_it_leads() -> None:
    # One diagonal bar (a clover's lobes joined, or half a crisscross): most
    # like a crisscross of all shapes, yet no symbol.
    clf = Classifier(("red",), SHAPES)
    cross = drawn.draw("crisscross", 0)
    bar = np.triu(np.tril(cross, 2), -2)
    mask = normalise(bar)
    assert mask is not None
    choice = clf.shape(mask)
    assert sureness(choice.confidence) < LOW_CONFIDENCE


@pytest.mark.parametrize("shape", SHAPES)
def test_a_sharp_symbol_of_every_shape_is_still_sure(shape: str) -> None:
    clf = Classifier(("red",), SHAPES)
    mask = normalise(drawn.draw(shape, 9 if shape in drawn.STARS else 1, 0.0, 1.0))
    assert mask is not None
    choice = clf.shape(mask)
    assert SHAPES[choice.index] == shape
    assert sureness(choice.confidence) >= LOW_CONFIDENCE
