"""The shipped colour model (`photo.colour_model`) names real paint in the
photo's own light, says a grey symbol shows no paint, and the photo's own
examples (stored tiles, taught colours) name what the model alone would
not (`classify.Classifier.colours`)."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.engine import CLASSIC
from scorekeeper.photo.classify import Classifier, Example
from scorekeeper.photo.colour_model import (
    COLOURS,
    NONE,
    WEIGHTS,
    features,
    probabilities,
)
from scorekeeper.photo.hues import linear
from scorekeeper.photo.tiles import COLOUR_SURE, LOW_CONFIDENCE, sureness

from . import kinds
from .kinds import Kind
from .synth_real import RealCase
from .teaching import REDDEST_ORANGE
from .test_photo_first_move import DARK, FIRST
from .test_photo_real import REAL_GAME
from .white import WHITE_FOR_PURPLE

BODY = np.full(3, 0.015)
"""A tile body's dark grey, linear RGB, as the renders and real tiles show it."""


def lamp(warmth: float) -> np.ndarray:
    """Channel gains of warm (1) or cool (-1) light, as the renders light
    their photos (`tests/photo/synth.py`)."""
    return np.array([1 + 0.3 * warmth, 1.0, 1 - 0.35 * warmth])


def test_the_shipped_weights_are_small() -> None:
    assert WEIGHTS.stat().st_size < 4_000


@pytest.mark.parametrize("warmth", [-0.9, 0.0, 0.9], ids=["cool", "plain", "warm"])
@pytest.mark.parametrize("paint", [REAL_GAME, WHITE_FOR_PURPLE],
                         ids=["real paint", "the development set's paint"])
def test_each_paint_is_named_in_the_photos_own_light(paint: object, warmth: float
                                                     ) -> None:
    colours = [(c, h, s, v) for c, h, s, v in paint.hsv  # type: ignore[attr-defined]
               if s > 0.5]
    rgb = np.array([linear(h, s, v) for _, h, s, v in colours]) * lamp(warmth)
    p = probabilities(features(rgb, BODY * lamp(warmth)))
    assert [COLOURS[k] for k in p.argmax(axis=1)] == [c for c, *_ in colours]


@pytest.mark.parametrize("warmth", [-0.9, 0.0, 0.9], ids=["cool", "plain", "warm"])
def test_a_grey_symbol_shows_no_paint(warmth: float) -> None:
    greys = np.array([linear(200.0, 0.07, 0.85), linear(40.0, 0.1, 0.6)])
    p = probabilities(features(greys * lamp(warmth), BODY * lamp(warmth)))
    assert (p.argmax(axis=1) == NONE).all()


def _named(rgb: np.ndarray, examples: list[Example], body: np.ndarray = BODY
           ) -> tuple[str, float]:
    """A lone symbol's colour and confidence, with the examples given, in
    light whose tile bodies show `body`."""
    clf = Classifier(CLASSIC.color_names, CLASSIC.shape_names)
    (choice,) = clf.colours(rgb[None], body, [(0, 0)], examples)
    return clf.colors[choice.index], sureness(choice.confidence, COLOUR_SURE)


def test_a_taught_colour_names_its_paint_where_the_model_would_not() -> None:
    (_, hue, sat, val), = [x for x in REDDEST_ORANGE.hsv if x[0] == "orange"]
    orange = linear(hue, sat, val)
    taught = [Example(linear(h, s, v), c) for c, h, s, v in REDDEST_ORANGE.hsv]
    assert _named(orange, [])[0] == "red"
    colour, confidence = _named(orange * 1.05, taught)
    assert colour == "orange" and confidence >= LOW_CONFIDENCE


def test_a_red_or_an_orange_at_the_others_hues_is_sure_only_beside_it() -> None:
    # Sets print red and orange at overlapping hues, and a warm lamp turns a
    # dark red to where the photo's stored orange lies. With no red in the
    # photo to measure against, neither the model nor that nearness is
    # proof; with one, the red is named red, and an orange orange.
    warm = lamp(0.9)
    red = linear(6.0, 0.95, 0.35) * warm
    oranges = [Example(linear(11.0, 0.95, 0.7) * warm, "orange", key=(0, 1))]
    reds = [Example(linear(5.0, 0.9, 0.4) * warm, "red", key=(0, 2))]
    orange = linear(12.0, 0.95, 0.65) * warm
    assert probabilities(features(red[None], BODY * warm)).argmax() == \
        COLOURS.index("red")
    assert _named(red, oranges, BODY * warm)[1] < LOW_CONFIDENCE
    assert _named(orange, oranges, BODY * warm)[1] < LOW_CONFIDENCE
    assert _named(red, [], BODY * warm)[1] < LOW_CONFIDENCE
    both = [*oranges, *reds]
    for symbol, colour in ((red, "red"), (orange, "orange")):
        named, confidence = _named(symbol, both, BODY * warm)
        assert named == colour and confidence >= LOW_CONFIDENCE
    # Nor does a red beside an orange symbol of the move itself.
    clf = Classifier(CLASSIC.color_names, CLASSIC.shape_names)
    pair = clf.colours(np.array([red, orange]), BODY * warm, [(0, 0), (0, 1)], [])
    assert [clf.colors[c.index] for c in pair] == ["red", "orange"]
    assert min(sureness(c.confidence, COLOUR_SURE) for c in pair) >= LOW_CONFIDENCE
    # Other colours need no such neighbour.
    named, confidence = _named(linear(48.0, 0.9, 0.8) * warm, [], BODY * warm)
    assert named == "yellow" and confidence >= LOW_CONFIDENCE


@pytest.mark.parametrize("warmth", [-0.9, 0.0, 0.9], ids=["cool", "plain", "warm"])
def test_a_red_or_an_orange_past_the_others_hues_is_sure_alone(warmth: float
                                                               ) -> None:
    # A deep red or a yellowish orange lies past any hue the other's paint is
    # seen at (colour_model.PLAIN): sure with nothing beside it.
    light = lamp(warmth)
    for hue, colour in ((352.0, "red"), (22.0, "orange")):
        named, confidence = _named(linear(hue, 0.9, 0.6) * light, [], BODY * light)
        assert named == colour and confidence >= LOW_CONFIDENCE


def _hue(rc: RealCase, colour: str) -> float:
    """The hue of a colour's paint in a photo's set, degrees from -180."""
    hue = next(h for name, h, _, _ in rc.real.paint.hsv if name == colour)
    return (hue + 180.0) % 360.0 - 180.0


def _alone(rc: RealCase, colour: str) -> bool:
    """A first move of one tile of a colour, its paint not dark: the photo
    shows no other symbol."""
    return [t[2] for t in rc.case.move] == [colour] and kinds.value(rc, colour) > DARK


def plain_red_alone(rc: RealCase) -> bool:
    """A lone red at least 6° below red's 0°."""
    return _alone(rc, "red") and _hue(rc, "red") <= -6.0


def plain_orange_alone(rc: RealCase) -> bool:
    """A lone orange at 16° or more."""
    return _alone(rc, "orange") and _hue(rc, "orange") >= 16.0


@pytest.mark.parametrize(("colour", "kind"), [("red", plain_red_alone),
                                              ("orange", plain_orange_alone)])
def test_a_first_moves_plain_red_or_orange_needs_no_other_beside_it(
        colour: str, kind: Kind) -> None:
    for rc in kinds.of_kind(FIRST, kind):
        seen = [t for t in kinds.reading(rc).tiles if t.color == colour]
        assert sorted(t.shape for t in seen) == sorted(
            t[3] for t in rc.case.move if t[2] == colour), rc.case.name
        assert min(t.confidence for t in seen) >= LOW_CONFIDENCE, rc.case.name


def test_a_white_is_named_only_once_taught() -> None:
    white = linear(205.0, 0.08, 0.85)
    stored_white = Example(linear(202.0, 0.07, 0.87), "purple", key=(0, 1))
    # A stored white tile beside it vouches for nothing: a lamp may have
    # washed either.
    assert _named(white, [stored_white])[1] < LOW_CONFIDENCE
    taught = [Example(linear(h, s, v), c) for c, h, s, v in WHITE_FOR_PURPLE.hsv]
    colour, confidence = _named(white, taught)
    assert colour == "purple" and confidence >= LOW_CONFIDENCE


def test_a_stored_tile_keeps_its_colour_only_where_its_print_may_lie() -> None:
    # The page says orange. An orange printed where red lies keeps it; a
    # yellow does not: the table and the page differ.
    clf = Classifier(CLASSIC.color_names, CLASSIC.shape_names)
    redder, yellow = linear(3.0, 0.85, 0.5), linear(50.0, 0.85, 0.8)
    stored = [Example(redder, "orange", (0, 0)), Example(yellow, "orange", (0, 1))]
    named = clf.colours(np.array([redder, yellow]), BODY, [(0, 0), (0, 1)], stored)
    assert [clf.colors[c.index] for c in named] == ["orange", "yellow"]
