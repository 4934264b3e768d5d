"""Each stage of reading a move from a photo, on small synthetic photos."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from scorekeeper import engine
from scorekeeper.photo import PhotoUnreadable, cells, read_move, reader, rules, tiles
from scorekeeper.photo.cells import read_cells
from scorekeeper.photo.classify import Classifier
from scorekeeper.photo.decode import decode
from scorekeeper.photo.grid import Grid, find_grid
from scorekeeper.photo.reading import PhotoReading, PhotoTile
from scorekeeper.photo.register import register, turn
from scorekeeper.photo.symbols import normalise

from . import drawn
from .helpers import BOARD, MOVE, photo_of, said

COLORS = engine.CLASSIC.color_names
SHAPES = engine.CLASSIC.shape_names


@pytest.fixture(scope="module")
def straight() -> bytes:
    """The stored board plus the move, from straight above."""
    return photo_of(BOARD + MOVE)


def _cells(tiles: list[tuple[int, int, str, str]]) -> list[tuple[int, int]]:
    return sorted((r, c) for r, c, *_ in tiles)


# --- grid -----------------------------------------------------------------------

def test_the_grid_is_found_with_every_tile_and_its_cell_size(straight: bytes) -> None:
    grid = find_grid(decode(straight))
    assert len(grid.centres) == len(BOARD + MOVE)
    assert grid.pitch == pytest.approx(44, rel=0.08)


def test_a_symbol_on_a_rim_too_light_for_a_tile_lies_where_the_photo_shows_it(
    straight: bytes, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A symbol read on a rim too light to vouch for its tile (`Cell.probe`)
    # is a point the grid is fitted through again (`reader._cells`): its
    # centre is in the photo's pixels, as a tile's is. Each tile here is
    # read so too once no rim may vouch for a tile.
    img = decode(straight)
    grid = find_grid(img)
    tiles = {key: cell for key, cell in read_cells(img, grid).items() if cell.is_tile}
    monkeypatch.setattr(cells, "TILE_BODY", 1.01)
    monkeypatch.setattr(cells, "FOUND_BODY", 1.01)
    probes = read_cells(img, grid)
    assert len(tiles) == len(BOARD + MOVE)
    for key, tile in tiles.items():
        probe = probes[key].probe
        assert probe is not None and probe.centre is not None, key
        assert tile.centre is not None, key
        assert math.dist(probe.centre, tile.centre) < 1.0, key


@pytest.mark.parametrize("angle", [17.0, 60.0])
def test_the_grid_angle_is_recovered_from_a_turned_photo(angle: float) -> None:
    grid = find_grid(decode(photo_of(BOARD, seed=3, angle=angle)))
    h = grid.homography
    o, u = (cv2.perspectiveTransform(np.array([[[0.0, 0.0], [1.0, 0.0]]]), h)[0])
    seen = math.degrees(math.atan2(u[1] - o[1], u[0] - o[0]))
    # The grid's own axes are the board's up to a quarter turn.
    assert (seen - angle + 45) % 90 - 45 == pytest.approx(0, abs=2.5)


def test_a_slanted_photo_is_rectified_to_square_cells() -> None:
    img = decode(photo_of(BOARD + MOVE, seed=4, slant=15, slant_axis=30, angle=10))
    grid = find_grid(img)
    cells = read_cells(img, grid)
    assert sum(cell.is_tile for cell in cells.values()) == len(BOARD + MOVE)


# --- colours and shapes -----------------------------------------------------------

@pytest.mark.parametrize("warmth", [-0.9, 0.0, 0.9])
def test_colours_are_named_in_warm_neutral_and_cool_light(warmth: float) -> None:
    line = [(0, i, color, "circle") for i, color in enumerate(COLORS)]
    reading = read_move(photo_of(line, seed=5, warmth=warmth), [])
    assert [t.color for t in reading.tiles] in (list(COLORS), list(COLORS)[::-1])


def test_shapes_are_named_on_a_first_move() -> None:
    line = [(i, 0, "blue", shape) for i, shape in enumerate(SHAPES)]
    reading = read_move(photo_of(line, seed=6, angle=33), [])
    assert [t.shape for t in reading.tiles] in (list(SHAPES), list(SHAPES)[::-1])
    assert all(t.row == 0 for t in reading.tiles)
    assert [t.col for t in reading.tiles] == list(range(6))


def test_shapes_are_named_at_any_size_and_quarter_turn() -> None:
    clf = Classifier(COLORS, SHAPES)
    for shape in SHAPES:
        drawing = drawn.draw(shape, 4, 0.05, 1.0)
        for size in (0.6, 1.0):
            small = cv2.resize(drawing, None, fx=size, fy=size,
                               interpolation=cv2.INTER_NEAREST)
            mask = np.rot90(small, 1)
            assert SHAPES[clf.shape(normalise(mask)).index] == shape


# --- registration -------------------------------------------------------------------

def test_registration_finds_the_quarter_turn_and_shift() -> None:
    stored = {(r, c): (COLORS.index(col), SHAPES.index(sh)) for r, c, col, sh in BOARD}
    for quarter in range(4):
        # The photo's grid: the board turned back by `quarter` and shifted.
        photo = {}
        for (r, c), label in stored.items():
            pr, pc = turn((r, c), -quarter)
            photo[(pr + 5, pc - 2)] = label
        placement = register(photo, set(), stored)
        assert placement is not None
        assert {placement.to_board(cell) for cell in photo} == set(stored)


@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0, 270.0, 135.0])
def test_the_move_is_read_in_stored_coordinates_however_the_photo_is_turned(
        angle: float) -> None:
    reading = read_move(photo_of(BOARD + MOVE, seed=7, angle=angle), list(BOARD))
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
    assert reading.matched == len(BOARD)
    assert reading.conflicts == ()
    assert all(0 <= t.confidence <= 1 for t in reading.tiles)


def test_a_photo_of_the_stored_board_alone_shows_no_new_tiles() -> None:
    reading = read_move(photo_of(BOARD, seed=8), list(BOARD))
    assert reading.tiles == ()
    assert reading.matched == len(BOARD)


def test_a_photo_of_another_board_does_not_match() -> None:
    other = [(0, c, "purple", shape) for c, shape in enumerate(SHAPES[:4])]
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(photo_of(other, seed=9), list(BOARD))
    assert caught.value.reason == "no_match"
    assert caught.value.params["stored"] == len(BOARD)


# --- the move -----------------------------------------------------------------------

def test_new_tiles_not_in_one_line_are_refused(straight: bytes) -> None:
    # The stored board lacks the two tiles of a corner: they cannot be one move.
    stored = [t for t in BOARD if (t[0], t[1]) not in {(2, 3), (0, 2)}]
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(straight, stored + list(MOVE))
    assert caught.value.reason == "not_one_line"
    assert sorted(caught.value.params["cells"]) == [(0, 2), (2, 3)]
    # Beside a board the sentence sends the player to the tiles there.
    assert "first move" not in said(caught.value)


@pytest.mark.parametrize("seed", range(3))
def test_a_first_move_not_in_one_line_is_refused_saying_how_to_lay_it(
        seed: int) -> None:
    # An empty board anchors no line: the sentence says how to lay a first
    # move (tiles touching, in one line), not to look beside a board.
    corner = ((0, 0, "red", "circle"), (0, 1, "red", "square"),
              (1, 0, "red", "diamond"))
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(photo_of(corner, seed=seed), [])
    assert caught.value.reason == "not_one_line"
    assert caught.value.params["first_move"] is True
    assert "first move's tiles side by side in one line" in said(caught.value)


def test_more_new_tiles_than_a_hand_are_refused(straight: bytes) -> None:
    stored = [t for t in BOARD if t[0] != 0]
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(straight, stored, engine.Variant(hand_size=2))
    assert caught.value.reason == "too_many_tiles"


def test_a_stored_tile_the_photo_shows_differently_is_a_conflict(
        straight: bytes) -> None:
    stored = [("blue", "clover") if (r, c) == (0, 1) else (col, sh)
              for r, c, col, sh in BOARD]
    drifted = [(r, c, *tile) for (r, c, _, _), tile in zip(BOARD, stored, strict=True)]
    reading = read_move(straight, drifted)
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
    assert [(c.row, c.col, c.stored, c.seen) for c in reading.conflicts] == [
        (0, 1, ("blue", "clover"), ("red", "square"))]
    # The drifted label also teaches the reader a wrong picture of a clover, and
    # this small board has no other clover to correct it: its one clover may
    # go unmatched, but every other stored tile is recognised.
    assert reading.matched >= len(BOARD) - 2


def test_the_reading_has_the_contract_json_shape(straight: bytes) -> None:
    data = read_move(straight, list(BOARD)).to_dict()
    assert set(data) == {"tiles", "matched", "conflicts"}
    assert set(data["tiles"][0]) == {"row", "col", "color", "shape", "confidence"}
    assert data["matched"] == len(BOARD)


def _read(color: int, shape: int, conf: float, scores: list[float]) -> tiles.ReadTile:
    rd = tiles.ReadTile(cell=None)  # type: ignore[arg-type]
    rd.color, rd.shape, rd.color_conf, rd.shape_conf = color, shape, 0.9, conf
    rd.color_scores = np.eye(6)[color]
    rd.shape_scores = np.array(scores)
    return rd


def test_s3_1_a_doubtful_shape_in_a_move_of_different_colours_takes_the_shared_one(
        ) -> None:
    # Three colours, so one shape: the doubtful diamond is the clovers' clover.
    clover = [0, 0, 0.5, 0, 0, 0.9]
    doubtful = [0, 0, 0.9, 0, 0, 0.89]
    new = [((0, i), _read(i, 5, 0.8, clover)) for i in range(2)]
    new.append(((0, 2), _read(2, 2, 0.1, doubtful)))
    rules.one_attribute(new)
    assert [rd.shape for _, rd in new] == [5, 5, 5]
    assert new[2][1].shape_conf < tiles.LOW_CONFIDENCE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s3_2_a_cell_between_two_new_tiles_of_a_line_is_a_warning(seed: int) -> None:
    # A move is one unbroken line: new tiles read with an empty cell between
    # them (a tile there whose symbol went unread) warn of that cell.
    move = [(3, 3, "orange", "starburst"), (5, 3, "purple", "starburst")]
    reading = read_move(photo_of([*BOARD, *move], seed=seed), BOARD)
    assert sorted(t[:4] for t in reading.tiles) == move
    assert (4, 3) in reading.unread


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s3_2_a_gap_in_a_first_move_is_a_warning(seed: int) -> None:
    tiles = [(0, 0, "red", "circle"), (0, 1, "red", "square"), (0, 3, "red", "clover")]
    reading = read_move(photo_of(tiles, seed=seed), [])
    assert [(t.color, t.shape) for t in reading.tiles] in (
        [t[2:] for t in tiles], [t[2:] for t in tiles[::-1]])
    row, cols = reading.tiles[0].row, sorted(t.col for t in reading.tiles)
    gap = next(c for c in range(cols[0], cols[-1]) if c not in cols)
    assert reading.unread == ((row, gap),)


def test_s3_5_a_clearly_read_odd_shape_is_left_for_the_engine_to_refuse() -> None:
    new = [((0, 0), _read(0, 5, 0.8, [0, 0, 0, 0, 0, 0.9])),
           ((0, 1), _read(1, 2, 0.9, [0, 0, 0.95, 0, 0, 0.3]))]
    rules.one_attribute(new)
    assert [rd.shape for _, rd in new] == [5, 2]


def test_a_refit_that_moves_no_cell_reads_nothing_new() -> None:
    # Reading the cells again after a refit cost a third of a phone photo's
    # time when one more symbol, inside the window, moved no cell a pixel.
    step = 50.0
    before = Grid(np.array([[step, 0, 100], [0, step, 100], [0, 0, 1.0]]), step,
                  {(0, 0): (100, 100), (0, 2): (200, 100), (2, 0): (100, 200)})

    def after(dx: float, centres: dict[tuple[int, int], tuple[float, float]]) -> Grid:
        hom = before.homography.copy()
        hom[0, 2] += dx
        return Grid(hom, step, centres)

    inside = {**before.centres, (1, 1): (150, 150)}
    assert reader._settled(before, after(1.0, inside))
    assert not reader._settled(before, after(0.1 * step, inside))
    assert not reader._settled(before, after(0.0, {**inside, (3, 1): (150, 250)}))


# --- the rules between look-alikes ----------------------------------------------

SQUARES = [(0, 0, "red", "square"), (0, 1, "green", "square")]
"""A stored row of squares: the next tile in it must be a square."""


def _reading(*tiles: PhotoTile) -> PhotoReading:
    return PhotoReading(tiles, matched=2, conflicts=(), seen=2)


def test_s3_5_an_uncertain_tile_the_rules_refuse_as_read_takes_a_kind_they_allow(
        ) -> None:
    # A blurred blue square read as a clover by 0.001 (in glare): the row
    # takes squares only.
    unsure = PhotoTile(0, 2, "blue", "clover", 0.05,
                       (("blue", "clover"), ("blue", "square"),
                        ("orange", "clover")))
    tile, = rules.by_the_rules(_reading(unsure), SQUARES, engine.CLASSIC).tiles
    assert (tile.color, tile.shape) == ("blue", "square")
    # Still marked for the table to look at, the rules' choice first.
    assert tile.confidence < tiles.LOW_CONFIDENCE
    assert tile.likely[0] == ("blue", "square")
    assert set(tile.likely) == set(unsure.likely)


def test_s3_5_a_sure_tile_or_an_allowed_reading_keeps_its_kind() -> None:
    # A sure tile the rules refuse keeps its kind, marked for a look:
    # misread, or a move the players must take back.
    sure = PhotoTile(0, 2, "blue", "clover", 0.9)
    tile, = rules.by_the_rules(_reading(sure), SQUARES, engine.CLASSIC).tiles
    assert (tile.color, tile.shape) == ("blue", "clover")
    assert tile.confidence < tiles.LOW_CONFIDENCE
    assert tile.likely == (("blue", "clover"),)
    allowed = PhotoTile(0, 2, "blue", "square", 0.05,
                        (("blue", "square"), ("blue", "clover")))
    assert rules.by_the_rules(_reading(allowed), SQUARES,
                              engine.CLASSIC).tiles == (allowed,)
    # Nothing it may be fits: the reading stands, for the engine to refuse.
    none_fits = PhotoTile(0, 2, "blue", "clover", 0.05,
                          (("blue", "clover"), ("orange", "clover")))
    assert rules.by_the_rules(_reading(none_fits), SQUARES,
                              engine.CLASSIC).tiles == (none_fits,)


def test_s3_5_the_rules_weigh_the_whole_move_likeliest_first() -> None:
    # Two uncertain tiles: only the second one's runner-up makes a line of
    # squares; the first keeps its reading.
    first = PhotoTile(0, 2, "blue", "square", 0.1,
                      (("blue", "square"), ("blue", "diamond")))
    second = PhotoTile(0, 3, "purple", "circle", 0.1,
                       (("purple", "circle"), ("orange", "circle"),
                        ("purple", "square")))
    tiles = rules.by_the_rules(_reading(first, second), SQUARES,
                               engine.CLASSIC).tiles
    assert [(t.color, t.shape) for t in tiles] == [("blue", "square"),
                                                  ("purple", "square")]


ILLEGAL = (0, 3, "blue", "clover")
"""A blue clover laid at the end of the stored row of reds, which shares
neither colour nor shape with it: the rules refuse it (RULES §3.5), as they
do a stored tile a loosely laid board's lattice slips a cell and reads
again beside itself."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s3_5_a_move_the_rules_refuse_is_read_as_laid_but_never_sure(
        seed: int) -> None:
    got = read_move(photo_of(BOARD + (ILLEGAL,), seed=seed), list(BOARD))
    tile, = got.tiles
    assert tile[:4] == ILLEGAL
    assert tile.confidence < tiles.LOW_CONFIDENCE


@pytest.mark.parametrize("order", [1, -1])
def test_s3_5_of_two_tiles_read_alike_the_less_sure_one_takes_its_runner_up(
        order: int) -> None:
    # A first move's red and orange crisscrosses, both read orange (a
    # realistic first move): the line cannot hold one tile twice, and either runner-up
    # makes it legal. The red was the less sure of the two, whichever comes
    # first in the line.
    red = PhotoTile(0, 0, "orange", "crisscross", 0.03,
                    (("orange", "crisscross"), ("red", "crisscross")))
    orange = PhotoTile(0, 1, "orange", "crisscross", 0.08,
                       (("orange", "crisscross"), ("red", "crisscross")))
    tiles = rules.by_the_rules(_reading(*[red, orange][::order]), [],
                               engine.CLASSIC).tiles
    got = {t.col: t.color for t in tiles}
    assert got == {0: "red", 1: "orange"}


def test_a_set_of_eight_colours_is_read_by_its_paint() -> None:
    # The colour model knows the classic six; pink and brown it was never
    # shown, so a variant of seven or eight colours names each symbol by the
    # example it is nearest: a paint palette, and the stored tiles the photo
    # shows (classify.Classifier.colours).
    stored = [(0, 0, "pink", "circle"), (0, 1, "brown", "circle"),
              (0, 2, "red", "circle"), (1, 0, "pink", "square"),
              (2, 0, "pink", "diamond")]
    move = [(3, 0, "pink", "starburst"), (4, 0, "pink", "clover")]
    reading = read_move(photo_of(stored + move, tile_px=70), stored,
                        engine.Variant(colors=8))
    assert [t[:4] for t in reading.tiles] == move
    assert reading.matched == len(stored)
