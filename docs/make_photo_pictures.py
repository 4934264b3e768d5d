"""The pictures of docs/PHOTO.md: each stage of the photo reader drawn on a
synthetic photo of real-looking tiles (`tests/photo/synth_real.py`), into
docs/photo/. Run from the repository root:

    python docs/make_photo_pictures.py
    python docs/make_photo_pictures.py --real DIR

`--real DIR` draws the same pictures from every JPEG in DIR (a photo of a
first move: no stored board) into docs/photo/local/, which git ignores: a
real photo's pixels never go into the repository.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper.photo import LOW_CONFIDENCE, PhotoUnreadable  # noqa: E402
from scorekeeper.photo.cells import GLARE, Cell, may_hide_tile  # noqa: E402
from scorekeeper.photo.classify import PAINT, Classifier  # noqa: E402
from scorekeeper.photo.grid import Grid  # noqa: E402
from scorekeeper.photo.reader import read_stages  # noqa: E402
from scorekeeper.photo.reading import PhotoReading  # noqa: E402
from scorekeeper.photo.symbols import CELL  # noqa: E402
from scorekeeper.photo.tiles import ReadTile  # noqa: E402

OUT = ROOT / "docs" / "photo"
WIDTH = 480
"""Pixels: the width of every picture (small PNGs)."""
CONDITION, SEED, INDEX = "glare", 2020, 15
"""The realistic render drawn: a stored board and a move of two or more."""

GREEN, ORANGE, RED, GREY = (80, 200, 60), (0, 150, 255), (40, 40, 230), (150, 150, 150)
Stored = list[tuple[int, int, str, str]]


def main() -> None:
    """Draw the pictures of a render, or of each real photo in `--real`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, help="a folder of real photos (JPEG)")
    args = parser.parse_args()
    if args.real is None:
        from photo import synth_real

        rc = synth_real.real_cases(CONDITION, SEED, INDEX + 1)[INDEX]
        draw(synth_real.photo(rc), list(rc.case.stored), OUT, "")
        return
    for path in sorted(args.real.glob("*.jp*g")):
        draw(path.read_bytes(), [], OUT / "local", f"{path.stem}-")


def draw(data: bytes, stored: Stored, folder: Path, prefix: str) -> None:
    """Write one picture per stage of reading the photo, each from what the
    reader's stage gave (`reader.read_stages`)."""
    try:
        st = read_stages(data, stored)
    except PhotoUnreadable as exc:
        print(f"{prefix or 'the render'}: refused, {exc.reason}")
        return
    folder.mkdir(parents=True, exist_ok=True)
    cells, reads, clf = st.cells, st.tiles, st.classifier
    pictures = {
        "1-lattice": _lattice(st.image, st.grid),
        "2-cells": _cells(cells),
        "3-symbols": _board(cells, lambda key, cell: _mask(cell)),
        "4-colours": _board(cells, lambda key, cell: _colour(reads.get(key), clf)),
        "5-shapes": _board(cells, lambda key, cell: _shape(reads.get(key), clf)),
        "6-move": _move(st.reading, stored),
    }
    for name, picture in pictures.items():
        scale = WIDTH / picture.shape[1]
        small = cv2.resize(picture, None, fx=scale, fy=scale,
                           interpolation=cv2.INTER_AREA if scale < 1 else
                           cv2.INTER_NEAREST)
        # Three bits a channel: the pictures show stages, not photo quality,
        # and a table's grain in full colour takes a PNG of 120 KB.
        small = (small // 32 * 32 + 16).astype(np.uint8)
        cv2.imwrite(str(folder / f"{prefix}{name}.png"), small,
                    [cv2.IMWRITE_PNG_COMPRESSION, 9])


def _lattice(img: np.ndarray, grid: Grid) -> np.ndarray:
    """The photo round the board, the lattice's cells drawn over it and each
    symbol the lattice was grown over marked."""
    out = img.copy()
    rows = [r for r, _ in grid.centres]
    cols = [c for _, c in grid.centres]
    thick = max(1, int(grid.pitch / 30))
    for r in range(min(rows) - 1, max(rows) + 2):
        for c in range(min(cols) - 1, max(cols) + 2):
            corners = np.array([[(c - 0.5, r - 0.5), (c + 0.5, r - 0.5),
                                 (c + 0.5, r + 0.5), (c - 0.5, r + 0.5)]])
            px = cv2.perspectiveTransform(corners, grid.homography)[0]
            cv2.polylines(out, [px.astype(np.int32)], True, GREEN, thick)
    for x, y in grid.centres.values():
        cv2.circle(out, (int(x), int(y)), 3 * thick, RED, cv2.FILLED)
    lo, hi = (min(cols) - 2, min(rows) - 2), (max(cols) + 2, max(rows) + 2)
    corners = np.array([[lo, hi, (lo[0], hi[1]), (hi[0], lo[1])]], np.float64)
    px = cv2.perspectiveTransform(corners, grid.homography)[0]
    x0, y0 = np.clip(px.min(axis=0), 0, None).astype(int)
    x1, y1 = px.max(axis=0).astype(int)
    return out[y0:y1, x0:x1]


def _frame(cells: dict[tuple[int, int], Cell]) -> tuple[int, int, np.ndarray]:
    """The first row and column of the cells, and a black canvas for them."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    canvas = np.zeros(((max(rows) - min(rows) + 1) * CELL,
                       (max(cols) - min(cols) + 1) * CELL, 3), np.uint8)
    return min(rows), min(cols), canvas


def _cells(cells: dict[tuple[int, int], Cell]) -> np.ndarray:
    """Each cell as the reader sorted it: a tile with a symbol (green), glare
    (red), a tile body or paint it could not read (orange), table (grey),
    the shade the share of its rim that is dark."""
    r0, c0, out = _frame(cells)
    for (r, c), cell in cells.items():
        y, x = (r - r0) * CELL, (c - c0) * CELL
        shade = int(40 + 160 * cell.body)
        out[y:y + CELL, x:x + CELL] = shade
        colour = (GREEN if cell.is_tile else RED if cell.glare >= GLARE
                  else ORANGE if may_hide_tile(cell) else GREY)
        cv2.rectangle(out, (x + 2, y + 2), (x + CELL - 3, y + CELL - 3), colour, 3)
    return out


def _board(cells: dict[tuple[int, int], Cell], tile) -> np.ndarray:  # noqa: ANN001
    """The cells laid out as in the photo, each drawn by `tile` (None: empty)."""
    r0, c0, out = _frame(cells)
    for (r, c), cell in cells.items():
        drawn = tile((r, c), cell)
        y, x = (r - r0) * CELL, (c - c0) * CELL
        if drawn is not None:
            out[y:y + CELL, x:x + CELL] = drawn
        cv2.rectangle(out, (x, y), (x + CELL - 1, y + CELL - 1), (60, 60, 60), 1)
    return out


def _mask(cell: Cell) -> np.ndarray | None:
    """A symbol's mask, moved to the middle and scaled to one size."""
    if cell.mask is None:
        return None
    return np.repeat(cell.mask[:, :, None].astype(np.uint8) * 255, 3, axis=2)


def _colour(rd: ReadTile | None, clf: Classifier) -> np.ndarray | None:
    """Left, the symbol's colour as measured; right, the paint it was named."""
    if rd is None or rd.cell.color is None:
        return None
    seen = np.clip(rd.cell.color / max(float(rd.cell.color.max()), 1e-6), 0, 1)
    out = np.zeros((CELL, CELL, 3), np.uint8)
    out[:, :CELL // 2] = (seen[::-1] ** (1 / 2.2) * 255).astype(np.uint8)
    out[:, CELL // 2:] = PAINT[clf.colors[rd.color]][::-1]
    if rd.color_conf < LOW_CONFIDENCE:
        cv2.rectangle(out, (1, 1), (CELL - 2, CELL - 2), RED, 2)
    return out


def _shape(rd: ReadTile | None, clf: Classifier) -> np.ndarray | None:
    """The symbol's mask with the shape it was named, framed red if unsure."""
    if rd is None or rd.cell.mask is None:
        return None
    out = np.repeat(rd.cell.mask[:, :, None].astype(np.uint8) * 120, 3, axis=2)
    cv2.putText(out, clf.shapes[rd.shape][:6], (2, CELL - 6),
                cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
    if rd.shape_conf < LOW_CONFIDENCE:
        cv2.rectangle(out, (1, 1), (CELL - 2, CELL - 2), RED, 2)
    return out


def _move(reading: PhotoReading, stored: Stored) -> np.ndarray:
    """The board as stored (grey) and the move read on it: each new tile in
    its paint, framed green if sure, orange if the table should look; an
    orange "?" where a tile may lie unread (`reading.unread`, `.glare`)."""
    tiles = [(r, c, color, shape, None) for r, c, color, shape in stored]
    tiles += [(t.row, t.col, t.color, t.shape, t.confidence) for t in reading.tiles]
    warned = [*reading.unread, *reading.glare]
    rows = [t[0] for t in tiles] + [r for r, _ in warned]
    cols = [t[1] for t in tiles] + [c for _, c in warned]
    r0, c0 = min(rows) - 1, min(cols) - 1
    out = np.full(((max(rows) - r0 + 2) * CELL, (max(cols) - c0 + 2) * CELL, 3), 230,
                  np.uint8)
    for r, c, color, shape, conf in tiles:
        y, x = (r - r0) * CELL, (c - c0) * CELL
        body = (70, 70, 70) if conf is None else (25, 25, 25)
        cv2.rectangle(out, (x + 2, y + 2), (x + CELL - 3, y + CELL - 3), body,
                      cv2.FILLED)
        cv2.circle(out, (x + CELL // 2, y + CELL // 2 - 6), CELL // 5,
                   PAINT[color][::-1], cv2.FILLED)
        cv2.putText(out, shape[:6], (x + 5, y + CELL - 8), cv2.FONT_HERSHEY_SIMPLEX,
                    0.35, (255, 255, 255), 1, cv2.LINE_AA)
        if conf is not None:
            frame = GREEN if conf >= LOW_CONFIDENCE else ORANGE
            cv2.rectangle(out, (x, y), (x + CELL - 1, y + CELL - 1), frame, 3)
    for r, c in warned:
        y, x = (r - r0) * CELL, (c - c0) * CELL
        cv2.rectangle(out, (x, y), (x + CELL - 1, y + CELL - 1), ORANGE, 3)
        cv2.putText(out, "?", (x + CELL // 3, y + 2 * CELL // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.0, ORANGE, 2, cv2.LINE_AA)
    return out

if __name__ == "__main__":
    main()
