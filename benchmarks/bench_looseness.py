"""How loosely the tiles lie in photos: the spread of the symbols the reader
reads off the lattice it fits (`photo.reader`), in tiles.

    python benchmarks/bench_looseness.py [--real DIR] [--count N]

Per photo: how many symbols, and the standard deviation of their offsets
from their lattice points, across and down. A real table's boards
(`--real`, a folder as `bench_photo.py --real` reads; default
$SCOREKEEPER_REAL_PHOTOS) against the synthetic conditions'
(`tests/photo/synth_real.py`), so that a condition's looseness can be
checked against what a table shows.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]


def offsets(data: bytes) -> np.ndarray:
    """The offsets (across, down; tiles) of the symbols read in a photo from
    their lattice points."""
    from scorekeeper.engine import CLASSIC
    from scorekeeper.photo.decode import decode
    from scorekeeper.photo.reader import _cells

    grid, cells = _cells(decode(data), CLASSIC.hand_size)
    keys = [k for k, c in cells.items() if c.is_tile and c.centre is not None]
    if not keys:
        return np.zeros((0, 2))
    lattice = np.array([[(c, r) for r, c in keys]], np.float64)
    expected = cv2.perspectiveTransform(lattice, grid.homography)[0]
    seen = np.array([cells[k].centre for k in keys])
    return np.asarray((seen - expected) / grid.pitch)


def report(label: str, photos: list[bytes]) -> None:
    """One line: the photos' spreads, least, median and most."""
    spreads = [float(o.std(axis=0).max()) for o in map(offsets, photos) if len(o) > 1]
    if not spreads:
        print(f"| {label} | 0 | | | |")
        return
    low, mid, high = np.percentile(spreads, (0, 50, 100))
    print(f"| {label} | {len(spreads)} | {low:.3f} | {mid:.3f} | {high:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", default=os.environ.get("SCOREKEEPER_REAL_PHOTOS"))
    parser.add_argument("--count", type=int, default=20,
                        help="photos per synthetic condition")
    args = parser.parse_args()
    import bench_photo
    from photo import synth_real

    print("| photos | read | spread least | median | most (tiles, the larger of"
          " across and down) |")
    print("|---|---|---|---|---|")
    if args.real:
        report("real: " + Path(args.real).name,
               [p.read_bytes() for p in sorted(Path(args.real).glob("*.jpg"))])
    for name in synth_real.CONDITIONS:
        paths = bench_photo.ensure_photos(name, args.count)
        report(name, [p.read_bytes() for p in paths])


if __name__ == "__main__":
    main()
