"""Real tiles in real light: right, or honestly unsure.

Small photos from the realistic renderer (`synth_real`), built on purpose for
each kind: real paint hues, dark symbols filling 80 % of the face, bevelled
tiles, glare, warm and cool light. The benchmark's own photos of each kind are
read in `test_photo_first_move`, `test_photo_lamp` and `test_photo_light`.
"""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorekeeper import engine
from scorekeeper.photo import (
    LOW_CONFIDENCE,
    PhotoUnreadable,
    cells,
    grid,
    hues,
    read_move,
    symbols,
)

from . import drawn, kinds, synth, synth_real
from .helpers import BOARD, MOVE, PLAIN
from .teaching import gap

COLORS = engine.CLASSIC.color_names
SHAPES = engine.CLASSIC.shape_names
SEEDS = range(1, 6)
"""Photos of each kind built here: one a seed (the camera, the tiles' place
and turn, the table's grain and the lamp's place)."""

REAL_GAME = synth_real.Paint((
    ("red", 357.0, 0.85, 0.5), ("orange", 15.0, 0.85, 0.45),
    ("yellow", 46.0, 0.85, 0.7), ("green", 128.0, 0.8, 0.45),
    ("blue", 218.0, 0.85, 0.5), ("purple", 245.0, 0.7, 0.4),
))
"""The real game's paint: orange 18° from red, purple 27° from blue, dark."""


def shot(**change: object) -> synth.Shot:
    return replace(PLAIN, **change)


def read(tiles: list[synth.Tile] | tuple[synth.Tile, ...], stored: list[synth.Tile],
         real: synth_real.Real, seed: int = 1, **change: object
         ) -> tuple[list[tuple[int, int, str, str]], list[float]]:
    img = synth_real.render(tiles, shot(**change), seed, real)
    reading = read_move(synth.encode(img, 90), stored)
    return [t[:4] for t in reading.tiles], [t.confidence for t in reading.tiles]


def _right_or_refused(tiles: list[synth.Tile], stored: list[synth.Tile],
                      move: list[synth.Tile], seed: int) -> bool:
    """Whether a photo of the real game's paint reads as its move; a refusal
    is honest too, a reading of anything else is not."""
    try:
        got, _ = read(tiles, stored, synth_real.Real(REAL_GAME), seed=seed)
    except PhotoUnreadable:
        return False
    assert sorted(got) == sorted(move), seed
    return True


def test_orange_and_red_purple_and_blue_separate_in_real_paint() -> None:
    # Every colour on the board, the new tiles one of each close pair: the
    # colours are named together, round the wheel, so a pair 18-27° apart is
    # two colours. (A board whose dark purple and blue tiles the photo does
    # not show apart may be refused: `no_match`.)
    stored = [(0, c, color, "circle") for c, color in enumerate(COLORS)]
    for move in ([(1, 0, "orange", "circle"), (1, 1, "orange", "square")],
                 [(-1, 4, "purple", "clover"), (-1, 5, "purple", "square")]):
        read_as_move = [_right_or_refused(stored + move, stored, move, seed)
                        for seed in SEEDS]
        assert sum(read_as_move) >= 3


def test_one_stored_tile_of_a_colour_anchors_it() -> None:
    # The helpers' board with its yellow diamond orange: one stored orange
    # tile beside three reds; the new orange starburst sits 18° of hue from
    # red, the new purple one 27° from the one blue tile. The stored tile of
    # a colour names the new tiles nearest its hue.
    stored = [(r, c, "orange" if col == "yellow" else col, sh)
              for r, c, col, sh in BOARD]
    for seed in SEEDS:
        got, _ = read(stored + list(MOVE), stored, synth_real.Real(REAL_GAME),
                      seed=seed)
        assert sorted(got) == sorted(MOVE), seed


@pytest.mark.parametrize("tile_px", [36, 60, 90])
@pytest.mark.parametrize("shape", ["crisscross", "starburst"])
def test_crisscross_and_starburst_on_a_first_move_in_every_colour_and_size(
        shape: str, tile_px: int) -> None:
    line = [(0, c, color, shape) for c, color in enumerate(COLORS)]
    real = synth_real.Real(synth_real.paint(random.Random(tile_px)),
                           inner=0.3, spikes=0.55)
    got, conf = read(line, [], real, seed=tile_px, tile_px=tile_px)
    assert [s for *_, s in got] == [shape] * 6
    assert sorted(c for _, _, c, _ in got) == sorted(COLORS)
    assert min(conf) >= LOW_CONFIDENCE


def _lit_seeds(tiles: list[synth.Tile], over: tuple[synth.Tile, ...], sh: synth.Shot,
               count: int) -> list[int]:
    """The first seeds whose photo has its lamp over one of `over`."""
    found = []
    for seed in range(1, 200):
        drawn = synth_real.layout(tiles, sh, seed, True).lamp
        if drawn is not None and tiles[drawn[0]] in over:
            found.append(seed)
            if len(found) == count:
                break
    return found


def test_glare_over_the_move_is_a_warning_or_a_refusal_never_a_silent_miss(
        ) -> None:
    # A lamp blown out over a tile of the move hides its symbol: the tile is
    # read, or marked uncertain, or the cell is a glare warning.
    real = synth_real.Real(REAL_GAME, glare=2.5, glare_size=0.9)
    tiles = list(BOARD + MOVE)
    for seed in _lit_seeds(tiles, MOVE, shot(), 4):
        img = synth_real.render(tiles, shot(), seed, real)
        try:
            reading = read_move(synth.encode(img, 90), list(BOARD))
        except PhotoUnreadable:
            continue
        assert reading.glare, seed
        kinds.honest_move(MOVE, reading)


DARK = synth_real.Paint(tuple((name, hue, sat, 0.32 if name != "yellow" else 0.6)
                              for name, hue, sat, _ in REAL_GAME.hsv))
"""The real game's paint at its darkest: a symbol value of 0.32."""


@pytest.mark.parametrize("color", [c for c in COLORS if c != "yellow"])
def test_a_lone_dark_crisscross_of_40_px_on_an_empty_board_is_read(color: str
                                                                    ) -> None:
    # A first move of one tile: no second symbol gives the grid its step, and
    # dark paint on a small, slightly blurred tile is neither light at the
    # photo's usual level nor enclosed at the dark-paint one. The symbol is
    # looked for against its own tile body. Where the camera draws the tile
    # smaller still, the photo is refused (`no_tiles`), never misread.
    tile = (0, 0, color, "crisscross")
    real = synth_real.Real(DARK, inner=0.3)
    read_right = 0
    for seed in range(10, 16):
        img = synth_real.render([tile], shot(tile_px=40, blur=1.3, noise=3.0),
                                seed, real)
        try:
            reading = read_move(synth.encode(img, 85), [])
        except PhotoUnreadable as err:
            assert err.reason == "no_tiles"
            continue
        assert [t[:4] for t in reading.tiles] == [tile]
        read_right += 1
    assert read_right >= 3


BRIGHT_BUT_RED = synth_real.Paint((
    ("red", 351.0, 0.9, 0.31), ("orange", 15.0, 0.7, 0.85),
    ("yellow", 43.0, 0.88, 0.65), ("green", 129.0, 0.8, 0.31),
    ("blue", 218.0, 0.7, 0.83), ("purple", 265.0, 0.86, 0.86),
))
"""Light paint but for a dark red and green (value 0.31)."""


@pytest.mark.parametrize("seed", range(20, 27))
def test_dark_red_in_cool_light_is_read_not_left_as_bare_tiles(seed: int) -> None:
    # Under a cool light a tile body turns bluish grey, as bright as dark red
    # paint: the symbol differs from its tile in colour, not in brightness,
    # and is looked for by colour. A tile still unread is an `unread` warning.
    stored = [(0, c, color, "circle") for c, color in enumerate(COLORS)]
    stored += [(-1, 2, "blue", "circle"), (-1, 3, "blue", "square")]
    move = [(1, 1, "red", "diamond"), (1, 2, "red", "crisscross"),
            (1, 3, "red", "circle")]
    img = synth_real.render(
        stored + move, shot(tile_px=80, warmth=-0.95, light=1.1, blur=1.2,
                            noise=4.0), seed, synth_real.Real(BRIGHT_BUT_RED))
    reading = read_move(synth.encode(img, 85), stored)
    got = sorted(t[:4] for t in reading.tiles)
    assert got == move or reading.unread
    kinds.honest_move(move, reading)


def test_an_l_of_three_symbols_fits_the_lattice_exactly() -> None:
    src = np.array([[0, -1], [0, 0], [-1, 0]], np.float64)
    u, v, origin = np.array([48.0, -28.0]), np.array([28.0, 48.0]), np.array([300, 215])
    dst = np.array([origin + c * u + r * v for c, r in src])
    hom = grid._fit(src, dst, float(np.linalg.norm(u)))
    got = cv2.perspectiveTransform(np.array([[[1.0, 0.0], [0.0, 1.0]]]), hom)[0]
    assert np.allclose(got, [origin + u, origin + v], atol=1e-3)


def test_the_step_is_a_lattice_distance_when_a_gap_skews_the_median() -> None:
    # A lamp that blows out a tile leaves symbols a step, a diagonal and two
    # steps from their nearest ones: the median of those distances lies
    # between lattice distances, and no two symbols are that far apart.
    assert grid._lattice_step(np.array([76.4, 111.0, 76.4, 155.6])) == 76.4
    # A stray half step (a symbol split in two) explains fewer distances.
    assert grid._lattice_step(np.array([50.0, 100.0, 223.6, 282.8])) == 100.0
    # Where the median is one, it stays, whatever the stray distances.
    assert grid._lattice_step(np.array([50.0, 51.0, 49.0, 50.5, 64.0])) == 50.5


def test_a_tile_body_joined_to_dark_beside_it_gives_no_tile_size() -> None:
    # The lone tile's size is its dark body's square. A square body is one;
    # the same body joined to dark that runs out of the window (dark wood by
    # a tile the lamp blew out, in glare) is not, though its box may still
    # look square enough.
    win = np.zeros((120, 120), np.uint8)
    cv2.rectangle(win, (30, 30), (89, 89), 1, cv2.FILLED)
    cv2.rectangle(win, (45, 45), (74, 74), 0, cv2.FILLED)  # the symbol
    side, _ = grid._square_body(win, 32.0)
    assert 58 <= side <= 62
    # Joined below and to the left, the dark is a square of 90: as square
    # and as full as a body, and of a size a tile may have.
    joined = win.copy()
    cv2.rectangle(joined, (0, 30), (89, 119), 1, cv2.FILLED)
    cv2.rectangle(joined, (45, 45), (74, 74), 0, cv2.FILLED)
    assert grid._square_body(joined, 32.0) is None


BEECH = (130, 170, 200)
"""A light wooden table (BGR), as the real development set's."""

HALF_ON = 0.25
"""Cells a tile lies off its lattice point for its rim to be half dark
(between `cells.FAINT_BODY` and `cells.TILE_BODY`) with its symbol in
reach of the cell's middle."""

WHITE_SHOWN = 0.75
"""Share of white symbols drawn on such a rim that must count as paint: 41
of the 48 drawn here do; the others are drawings the shape model is not
sure of, cut by the rim."""


def _beside_a_tile(paint: tuple[int, int, int], mask: np.ndarray) -> cells.Cell:
    """The cell beside a read tile, its own tile laid `HALF_ON` off its
    place, with a symbol of `mask` in `paint` (BGR) drawn on its body."""
    img = np.full((3 * symbols.CELL, 4 * symbols.CELL, 3), BEECH, np.uint8)
    half = int(symbols.CELL * 0.9) // 2
    for x, colour, symbol in ((1.5, (40, 40, 210), drawn.draw("circle", 0)),
                              (2.5 + HALF_ON, paint, mask)):
        cx, cy = int(x * symbols.CELL), int(1.5 * symbols.CELL)
        face = np.s_[cy - half:cy + half, cx - half:cx + half]
        img[face] = 28
        img[face][cv2.resize(symbol, (2 * half, 2 * half),
                             interpolation=cv2.INTER_NEAREST) > 0] = colour
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    step = float(symbols.CELL)
    lattice = np.array([[step, 0, 1.5 * step], [0, step, 1.5 * step], [0, 0, 1.0]])
    found = grid.Grid(lattice, step, {(0, 0): (1.5 * step, 1.5 * step)})
    return cells.read_cells(img, found)[(0, 1)]


def test_white_paint_on_a_rim_half_dark_shows_a_tile_as_a_colour_does() -> None:
    # A white symbol has no colour to tell it from a lighter patch of table;
    # its shape does (the shape model sure of a shape, not of no symbol).
    drawings = [(shape, v, turn) for shape in SHAPES for v in range(4)
                for turn in (0.0, 0.3)]
    white = [_beside_a_tile((235, 235, 235), drawn.draw(*d)) for d in drawings]
    assert all(cells.FAINT_BODY <= c.body < cells.TILE_BODY for c in white)
    shown = [d[0] for d, c in zip(drawings, white, strict=True) if c.paint]
    assert len(shown) >= WHITE_SHOWN * len(drawings)
    assert set(shown) == set(SHAPES)
    assert all(_beside_a_tile((200, 120, 40), drawn.draw(*d)).paint for d in drawings)
    # White marks that are no symbol stay table: a bar, an L, a ring, a
    # blob.
    bar, ell, ring, blob = (np.zeros((symbols.CELL, symbols.CELL), np.uint8)
                            for _ in range(4))
    bar[28:36, 12:52] = 1
    ell[16:48, 16:26] = ell[38:48, 16:48] = 1
    cv2.circle(ring, (32, 32), 18, 1, 5)
    cv2.ellipse(blob, (32, 32), (20, 9), 30, 0, 360, 1, cv2.FILLED)
    for mark in (bar, ell, ring, blob):
        assert not _beside_a_tile((235, 235, 235), mark).paint


@pytest.mark.parametrize("name", COLORS)
def test_a_symbols_colour_under_a_lamp_is_its_own_less_the_lamps_white(
    name: str,
) -> None:
    # The pixels of a round symbol of one paint (the real game's) under a
    # lamp's spot off its middle, from weak to blown out at its heart. The
    # colour read keeps the paint's hue; the pixels as seen are paler, and
    # a dark orange or blue among them off by several degrees.
    lin = (np.array(REAL_GAME.rgb(name, random.Random(0)), np.float64) / 255) ** 2.2
    yy, xx = np.mgrid[-1:1:40j, -1:1:40j]
    disc = xx ** 2 + yy ** 2 <= 1
    for peak in (0.4, 0.8, 1.5):
        white = peak * np.exp(-2 * ((xx - 0.3) ** 2 + yy ** 2)[disc] / 0.6 ** 2)
        seen = np.clip(lin + white[:, None], 0, 1) ** (1 / 2.2)
        pix = np.round(seen[:, ::-1] * 255).astype(np.uint8)
        got = symbols._lamp_free_colour(pix)
        assert got is not None
        assert gap(hues.hsv(got)[0], hues.hsv(lin)[0]) < 2
        if name in ("orange", "blue"):
            as_seen = hues.hsv(np.median(seen, axis=0) ** 2.2)[0]
            assert gap(as_seen, hues.hsv(lin)[0]) > 4
