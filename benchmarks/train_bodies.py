"""Train the reader's body model (`photo/body_model.py`): numpy, one hidden
layer, on the cells the reader itself cuts from rendered photos; and
measure it against the rim shares a cell's warning was decided by before.

Each cell is labelled by the board the photo was drawn from: the reader
lines the photo up on the stored board (`reader.Stages.placement`), and a
cell where a stored tile or a tile of the move lies shows a tile body, any
other none. So the windows are cut by the reader's own stages and train and
use see the same windows. Every renderer (`tests/photo/synth.py`,
`synth_alt.py`, `synth_real.py` in each of its conditions), their tiles laid
touching and the realistic ones laid apart too (as `bench_apart.py` lays
them), and on tables nearly as dark as the tiles' bodies.

    python benchmarks/train_bodies.py              # train, save the weights
    python benchmarks/train_bodies.py --measure    # measure the shipped ones

Training renders use seeds no benchmark set uses (`TRAIN_SEEDS`); the
measure reads renders of one more (`MEASURE_SEED`). Windows are kept in
benchmarks/out/body-windows/ (ignored by git). They are cut by the reader
as it stands, its shipped body model included, which decides a few of the
cells read at the board's edge: cut again under other weights, the windows
differ by those cells.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import one_layer  # noqa: E402

from scorekeeper.photo import PhotoUnreadable  # noqa: E402
from scorekeeper.photo.body_model import WEIGHTS, probability  # noqa: E402
from scorekeeper.photo.cells import BODIED  # noqa: E402
from scorekeeper.photo.reader import read_stages  # noqa: E402

CACHE = ROOT / "benchmarks" / "out" / "body-windows"
TRAIN_SEEDS = (8101, 8202, 8303, 8404)
"""Seeds of the training renders: none is a benchmark set's."""
MEASURE_SEED = 8505
"""Seed of the renders the model is measured on: not trained on."""
PER_SEED = 12
"""Photos per renderer, condition and lay per seed."""
DARK_TABLES = (0.03, 0.1)
"""The dark tables' median light (linear, `synth_real.Real.table`): from
nearly as dark as the tile bodies to the darkest wood `synth.wood` draws."""
HIDDEN = 16
EPOCHS = 30
SEED = 0

Photo = tuple[str, int, int]
"""(renderer or condition, seed, index), drawn by `draw`."""


def _with_stored() -> list[str]:
    """The realistic conditions whose photos show a stored board (a first
    move labels nothing)."""
    from photo import synth_real

    return [c for c in synth_real.CONDITIONS if c != "first move crisscross"]


def photos(seed: int) -> list[Photo]:
    """The photos of one seed: each renderer's, each realistic condition's
    laid touching and laid apart (a first move shows no stored board), and
    the realistic ones on a dark table."""
    kinds = ["own", "held-out", "dark table"]
    for condition in _with_stored():
        kinds += [condition, f"{condition} apart"]
    return [(kind, seed, i) for kind in kinds for i in range(PER_SEED)]


def draw(photo: Photo) -> tuple[bytes, tuple, tuple]:
    """The photo's bytes, its stored tiles and its move."""
    from photo import synth, synth_alt, synth_real
    from photo.test_photo_apart import APART

    kind, seed, i = photo
    if kind in ("own", "held-out"):
        case = synth.cases(seed + (kind == "held-out"), i + 1)[i]
        render = synth.render if kind == "own" else synth_alt.render
        return synth.photo(case, render), case.stored, case.move
    if kind == "dark table":
        conditions = _with_stored()
        rc = synth_real.real_cases(conditions[i % len(conditions)], seed + 1, i + 1)[i]
        low, high = DARK_TABLES
        table = low + (high - low) * i / (PER_SEED - 1)
        return (synth_real.photo(replace(rc, real=replace(rc.real, table=table))),
                rc.case.stored, rc.case.move)
    condition = kind.removesuffix(" apart")
    rc = synth_real.real_cases(condition, seed, i + 1)[i]
    if condition != kind:
        rc = replace(rc, real=replace(rc.real, apart=APART))
    return synth_real.photo(rc), rc.case.stored, rc.case.move


def windows(photo: Photo) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell the reader cuts from the photo: its window (`Cell.look`),
    whether a tile lies there, and whether a tile was read there."""
    image, stored, move = draw(photo)
    try:
        stages = read_stages(image, list(stored))
    except PhotoUnreadable:
        stages = None
    if stages is None or stages.placement is None:
        return np.zeros((0, 0), np.float32), np.zeros(0, int), np.zeros(0, int)
    tiles = {(r, c) for r, c, *_ in (*stored, *move)}
    at = stages.placement.to_board
    cells = [(key, cell) for key, cell in stages.cells.items() if cell.look is not None]
    return (np.array([cell.look for _, cell in cells], np.float32),
            np.array([at(key) in tiles for key, _ in cells], int),
            np.array([cell.is_tile for _, cell in cells], int))


def cut(seed: int) -> dict[str, np.ndarray]:
    """The windows of one seed's photos, cut once and kept."""
    path = CACHE / f"{seed}.npz"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with Pool(2) as pool:
            parts = pool.map(windows, photos(seed), chunksize=2)
        x = np.concatenate([p[0] for p in parts if len(p[1])])
        np.savez_compressed(path, x=x, y=np.concatenate([p[1] for p in parts]),
                            read=np.concatenate([p[2] for p in parts]))
    with np.load(path) as got:
        return {k: got[k] for k in got.files}


def report(name: str, got: dict[str, np.ndarray], w: dict[str, np.ndarray]
           ) -> None:
    """On the cells no tile was read on: the tiles the model misses and the
    empty cells it warns of, from the reader's `cells.BODIED` and others."""
    unread = got["read"] == 0
    tile = got["y"][unread] == 1
    p = probability(got["x"][unread], w)
    print(f"{name}: {int(unread.sum())} cells with no tile read, "
          f"{int(tile.sum())} of them tiles")
    print("| from | tiles missed | empty cells warned of |")
    print("|---|---|---|")
    for least in sorted({0.1, BODIED, 0.5, 0.7}):
        warn = p >= least
        missed, warned = int((tile & ~warn).sum()), int((~tile & warn).sum())
        print(f"| {least} | {missed} | {warned} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", action="store_true",
                    help="measure the shipped weights only")
    args = ap.parse_args()
    start = time.perf_counter()
    measure = cut(MEASURE_SEED)
    if args.measure:
        report(f"seed {MEASURE_SEED}", measure, one_layer.shipped(
            dict(np.load(WEIGHTS))))
        return
    parts = [cut(seed) for seed in TRAIN_SEEDS]
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    cutting = time.perf_counter() - start
    mean = x.mean(axis=0)
    w = {**one_layer.train((x - mean).astype(np.float32), y, 2, HIDDEN, EPOCHS, SEED),
         "mean": mean}
    trained = time.perf_counter() - start - cutting
    one_layer.save(w, WEIGHTS)
    print(f"{len(y)} windows ({int(y.sum())} tiles) cut in {cutting:.0f} s, "
          f"trained in {trained:.0f} s; {WEIGHTS.stat().st_size} bytes")
    report(f"seed {MEASURE_SEED}", measure, one_layer.shipped(w))


if __name__ == "__main__":
    main()
