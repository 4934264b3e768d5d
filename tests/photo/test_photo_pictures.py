"""docs/PHOTO.md's pictures are drawn from what the reader's stages gave
(`reader.read_stages`): the script runs, and each picture shows the
reading it was drawn from."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from scorekeeper.photo import read_move
from scorekeeper.photo.reader import read_stages

from .helpers import BOARD, MOVE, photo_of

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "make_photo_pictures.py"


@pytest.fixture(scope="module")
def pictures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_photo_pictures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stages_give_the_reading_read_move_gives() -> None:
    photo = photo_of(BOARD + MOVE, seed=3)
    stages = read_stages(photo, list(BOARD))
    assert stages.reading == read_move(photo, list(BOARD))
    assert sorted(t[:4] for t in stages.reading.tiles) == sorted(MOVE)
    # Every tile read sits on a cell cut on the lattice found.
    assert stages.tiles.keys() <= stages.cells.keys()
    assert set(stages.grid.centres) & stages.tiles.keys()


def test_a_photo_of_a_move_draws_a_picture_per_stage(
        pictures: ModuleType, tmp_path: Path) -> None:
    pictures.draw(photo_of(BOARD + MOVE, seed=3), list(BOARD), tmp_path, "move-")
    drawn = sorted(p.name for p in tmp_path.iterdir())
    assert drawn == [f"move-{name}.png" for name in (
        "1-lattice", "2-cells", "3-symbols", "4-colours", "5-shapes", "6-move")]
    for path in tmp_path.iterdir():
        img = cv2.imread(str(path))
        assert img is not None and img.shape[1] == pictures.WIDTH


def test_the_move_picture_frames_each_new_tile_the_reader_gave(
        pictures: ModuleType) -> None:
    reading = read_stages(photo_of(BOARD + MOVE, seed=3), list(BOARD)).reading
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
    out = pictures._move(reading, list(BOARD))
    cell = pictures.CELL
    rows = [r for r, *_ in BOARD + MOVE]
    cols = [c for _, c, *_ in BOARD + MOVE]
    r0, c0 = min(rows) - 1, min(cols) - 1
    for tile in reading.tiles:
        y, x = (tile.row - r0) * cell, (tile.col - c0) * cell
        assert (out[y + 1, x + cell // 2] == pictures.GREEN).all()
    # A stored tile is drawn without a frame.
    r, c, *_ = BOARD[0]
    y, x = (r - r0) * cell, (c - c0) * cell
    assert not (out[y + 1, x + cell // 2] == pictures.GREEN).all()


def test_a_photo_the_reader_refuses_draws_nothing(
        pictures: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
        ) -> None:
    ok, blank = cv2.imencode(".png", np.full((400, 400, 3), 128, np.uint8))
    assert ok
    pictures.draw(blank.tobytes(), [], tmp_path / "out", "blank-")
    assert not (tmp_path / "out").exists()
    assert "blank-: refused, no_tiles" in capsys.readouterr().out
