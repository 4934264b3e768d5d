"""Train and calibrate the reader's shape model (`photo/shape_model.py`):
numpy, one hidden layer, on the symbol masks the reader itself cuts from
rendered photos and on our own drawings; and measure it.

The crops are labelled the way a table's confirmed move labels them: the
reader lines the photo up on the stored board, and each stored tile it reads
there is an example of its stored shape (`labelled.py`). So the masks are
cut by the reader's own stages (`cells`, `symbols.normalise`) and train and
use see the same crops. Every renderer (`tests/photo/synth.py`,
`synth_alt.py`, `synth_real.py` in each of its conditions: shifted paint,
glare, warm and cool light, laid touching and laid apart as on a printed
board), every tile size, slant and turn they draw; the drawings
(`tests/photo/drawn.py`) add other proportions and line weights, and the
hearts and triangles no renderer draws. Fragments, bars and specks
cut from them teach the model's `NONE`.

    python benchmarks/train_shapes.py                 # train, save the weights
    python benchmarks/train_shapes.py --measure 12    # and on the benchmark's sets
    python benchmarks/train_shapes.py --measure 12 --real DIR --fix FIX

Training renders use seeds no benchmark set uses (`TRAIN_SEEDS`); the
temperature is fitted on renders of one more seed (`CALIBRATION_SEED`),
laid touching, so that `SURE` keeps the measure it was set by; the measure
reads the benchmark's own sets (`bench_photo.SETS`, `REAL_SEED`) and the
real photos of `--real DIR` (never copied into the repository, never
trained on). Crops are kept in benchmarks/out/shape-crops/ (ignored by git).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import one_layer  # noqa: E402
from labelled import labelled  # noqa: E402

from scorekeeper.photo.shape_model import (  # noqa: E402
    NONE,
    SHAPES,
    SURE,
    WEIGHTS,
    features,
    probabilities,
)
from scorekeeper.photo.symbols import CELL, normalise  # noqa: E402

CACHE = ROOT / "benchmarks" / "out" / "shape-crops"
TRAIN_SEEDS = (7101, 7202, 7303, 7404, 7505)
"""Seeds of the training renders: none is a benchmark set's."""
CALIBRATION_SEED = 7606
"""Seed of the renders the temperature is fitted on: neither trained on nor
a benchmark set's."""
PER_SEED = 5
"""Photos per renderer and condition per seed."""
HIDDEN = 32
SEED = 0
AUGMENT = 2
"""Varied copies of each mask and its turns (`varied`)."""
NOT_SYMBOLS = 0.15
"""Share of the training samples that are no symbol (`not_symbols`)."""

BANDED = 0.2
"""Share of the no-symbol samples that are a symbol broken by a band
(`banded`): trained without them, the model was sure of another shape for
93 of the 2,160 broken drawings of `tests/photo/test_photo_shape_model.py`
(a square or a clover as a crisscross); with them, for none."""
BAND = (3.0, 10.0)
"""Pixels of a normalised mask (`symbols.RADIUS` 12): how wide a band."""
_YS, _XS = np.mgrid[0:CELL, 0:CELL] - CELL / 2
"""Each pixel of a mask from the cell's middle, for the lines cut across it."""

Photo = tuple[bytes, tuple]


def renders(seed: int, count: int, apart: bool = True) -> Iterator[Photo]:
    """Photos of all three renderers, `count` of each kind, from one seed;
    with `apart`, each realistic one laid apart too."""
    from photo import synth, synth_alt, synth_real
    from photo.test_photo_apart import APART

    for case in synth.cases(seed, count):
        yield synth.photo(case), case.stored
    for case in synth.cases(seed + 1, count):
        yield synth.photo(case, synth_alt.render), case.stored
    for condition in synth_real.CONDITIONS:
        if condition == "first move crisscross":
            continue  # no stored tiles: nothing labelled
        for rc in synth_real.real_cases(condition, seed, count):
            yield synth_real.photo(rc), rc.case.stored
            if apart:
                # As on a printed board whose cells are larger than its tiles.
                lay = replace(rc.real, apart=APART)
                yield synth_real.photo(replace(rc, real=lay)), rc.case.stored


def crops(photos: Iterator[Photo]) -> tuple[np.ndarray, np.ndarray]:
    """The stored tiles each photo shows, as the reader labels them
    (`labelled`): their normalised masks and shape indexes (`SHAPES`)."""
    masks, labels = [], []
    for image, stored in photos:
        found = labelled(image, stored)
        for rd, (_, shape) in found[1].values() if found else ():
            masks.append(rd.cell.mask)
            labels.append(SHAPES.index(shape))
    return (np.array(masks, bool).reshape(-1, CELL, CELL),
            np.array(labels, int))


def cached(name: str, cut: Callable[[], tuple[np.ndarray, np.ndarray]]
           ) -> tuple[np.ndarray, np.ndarray]:
    """Crops cut once and kept (cutting reads every photo)."""
    path = CACHE / f"{name}.npz"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        masks, labels = cut()
        np.savez_compressed(path, masks=masks, y=labels)
    with np.load(path) as got:
        return got["masks"], got["y"]


def rendered(seed: int, apart: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The crops of one seed's renders (`renders`)."""
    return cached(f"train-{seed}" + ("-apart" if apart else ""),
                  lambda: crops(renders(seed, PER_SEED, apart)))


def drawings() -> tuple[np.ndarray, np.ndarray]:
    """Our own drawings of every shape, slightly turned and blurred."""
    from photo import drawn

    masks, labels = [], []
    for label, shape in enumerate(SHAPES):
        for variant in range(drawn.variants(shape)):
            for turn in (-0.1, 0.0, 0.1):
                for blur in (0.0, 1.5, 2.5):
                    norm = normalise(drawn.draw(shape, variant, turn, blur))
                    if norm is not None:
                        masks.append(norm)
                        labels.append(label)
    return np.array(masks), np.array(labels)


def varied(masks: np.ndarray, labels: np.ndarray, rng: np.random.Generator,
           copies: int = AUGMENT) -> tuple[np.ndarray, np.ndarray]:
    """The masks in four quarter turns and mirrored, and `copies` more each:
    turned a little, stretched, thinned or thickened by a pixel, then
    normalised again as the reader does: other prints, other slants."""
    out = [np.rot90(masks, k, axes=(1, 2)) for k in range(4)]
    out += [np.flip(m, axis=2) for m in out]
    base = np.concatenate(out)
    base_labels = np.tile(labels, 8)
    more, more_labels = [], []
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(copies):
        for m, label in zip(base, base_labels, strict=True):
            turn = rng.uniform(-12, 12)
            sx, sy = np.exp(rng.normal(0, 0.12, 2))
            warp = cv2.getRotationMatrix2D((CELL / 2, CELL / 2), turn, 1.0)
            warp[:, :2] = warp[:, :2] @ np.diag([sx, sy])
            warp[:, 2] += (CELL / 2) - warp[:, :2] @ np.array([CELL / 2, CELL / 2])
            img = cv2.warpAffine(m.astype(np.uint8) * 255, warp, (CELL, CELL)) > 127
            pick = rng.random()
            if pick < 0.2:
                img = cv2.erode(img.astype(np.uint8), kernel) > 0
            elif pick < 0.4:
                img = cv2.dilate(img.astype(np.uint8), kernel) > 0
            norm = normalise(img)
            if norm is not None:
                more.append(norm)
                more_labels.append(label)
    return (np.concatenate([base, np.array(more)]),
            np.concatenate([base_labels, np.array(more_labels)]))


def banded(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A symbol mask broken by a band `BAND` wide across it, near its middle:
    paint close to its body's darkness, read in part as body."""
    a = rng.uniform(0, math.pi)
    across = _XS * math.cos(a) + _YS * math.sin(a) - rng.uniform(-6, 6)
    return np.asarray(mask & (np.abs(across) > rng.uniform(*BAND) / 2))


def not_symbols(masks: np.ndarray, count: int, rng: np.random.Generator
                ) -> np.ndarray:
    """Masks that are no symbol, as the reader may cut them: part of a
    symbol cut off by a straight line (a fragment, one bar of a
    crisscross or a clover's lobes), a symbol broken by a band across it
    (`banded`), a few specks, a thin streak."""
    out: list[np.ndarray] = []
    while len(out) < count:
        pick = rng.random()
        if pick < BANDED:
            img = banded(masks[rng.integers(len(masks))], rng)
        elif pick < 0.6:
            m = masks[rng.integers(len(masks))]
            a = rng.uniform(0, 2 * math.pi)
            side = _XS * math.cos(a) + _YS * math.sin(a) > rng.uniform(-4, 10)
            img = m & side
        elif pick < 0.85:
            img = np.zeros((CELL, CELL), np.uint8)
            for _ in range(rng.integers(2, 6)):
                centre = tuple(int(v) for v in rng.integers(8, CELL - 8, 2))
                cv2.circle(img, centre, int(rng.integers(2, 6)), 1, -1)
            img = img > 0
        else:
            img = np.zeros((CELL, CELL), np.uint8)
            a = rng.uniform(0, math.pi)
            length, width = rng.uniform(14, 28), rng.uniform(2, 5)
            dx, dy = length * math.cos(a), length * math.sin(a)
            c = CELL / 2
            cv2.line(img, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1,
                     int(width))
            img = img > 0
        norm = normalise(img)
        if norm is not None:
            out.append(norm)
    return np.array(out)


def train(x: np.ndarray, y: np.ndarray, epochs: int = 40) -> dict[str, np.ndarray]:
    """The model fitted to feature rows `x` (centred first) and labels `y`."""
    mean = x.mean(axis=0)
    w = one_layer.train((x - mean).astype(np.float32), y, len(SHAPES) + 1, HIDDEN,
                        epochs, SEED)
    return {**w, "mean": mean}


def calibrate(w: dict[str, np.ndarray], masks: np.ndarray, y: np.ndarray
              ) -> float:
    """`one_layer.calibrate` on the classic six shapes' masks with labels `y`."""
    return one_layer.calibrate(
        w, lambda trial: probabilities(masks, SHAPES[:6], trial), y)


def report(name: str, masks: np.ndarray, y: np.ndarray,
           weights: dict[str, np.ndarray]) -> None:
    """Per-tile accuracy and calibration: how many are unsure (a
    probability margin under the reader's `shape_model.SURE`) and how many sure
    and wrong; and how many wrong from other margins."""
    if not len(y):
        print(f"{name}: no crops")
        return
    p = probabilities(masks, SHAPES[:6], weights)
    shapes = p[:, :-1]
    guess = shapes.argmax(axis=1)
    ranked = np.sort(p, axis=1)
    margin = np.where(p.argmax(axis=1) == 6, 0.0, ranked[:, -1] - ranked[:, -2])
    sure = margin >= SURE
    wrong = guess != y
    print(f"| {name} | {len(y)} | {np.mean(~wrong):.1%} | {int(np.sum(~sure))} | "
          f"{int(np.sum(wrong & sure))} | " + ", ".join(
              f"{int(np.sum(wrong & (margin >= t)))} ({int(np.sum(margin < t))})"
              for t in (0.25, 0.5, 0.9)) + " |")
    for k in range(6):
        sel = y == k
        if sel.any() and np.mean(guess[sel] == k) < 1:
            print(f"    {SHAPES[k]:10s} {int(sel.sum()):4d} "
                  f"{np.mean(guess[sel] == k):.1%}")


def real_photos(folder: Path, fixes: list[str]) -> Iterator[Photo]:
    """The development set's photos, each with its own move stored too."""
    import real_photos as rp  # benchmarks/real_photos.py

    for case in rp.cases(folder, fixes):
        if not case.want:
            yield case.photo.read_bytes(), case.stored


def measure(weights: dict[str, np.ndarray], count: int) -> None:
    """The benchmark's own sets: never trained on."""
    from bench_photo import REAL_SEED, SETS
    from photo import synth, synth_alt, synth_real

    renderers: dict[str, Callable] = {"synth": synth.render,
                                      "synth_alt": synth_alt.render}
    for name, (module, seed) in SETS.items():
        cases, render = synth.cases(seed, count), renderers[module]
        report(name, *cached(f"{name}-{count}", lambda cases=cases, render=render:
                             crops((synth.photo(c, render), c.stored) for c in cases)),
               weights)
    for condition in synth_real.CONDITIONS:
        if condition == "first move crisscross":
            continue
        rcs = synth_real.real_cases(condition, REAL_SEED, count)
        report(condition, *cached(f"{condition}-{count}", lambda rcs=rcs: crops(
            (synth_real.photo(rc), rc.case.stored) for rc in rcs)), weights)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", type=int, default=0, metavar="N",
                    help="measure on N photos of each of the benchmark's sets")
    ap.add_argument("--real", type=Path, help="a folder of real photos to measure on")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="where to save the weights (default: the package's)")
    ap.add_argument("--fix", action="append", default=[],
                    help="a correction of the real photos' annotations")
    args = ap.parse_args()
    start = time.perf_counter()
    parts = [rendered(seed) for seed in TRAIN_SEEDS] + [drawings()]
    masks = np.concatenate([m for m, _ in parts])
    labels = np.concatenate([y for _, y in parts])
    calibration = rendered(CALIBRATION_SEED, apart=False)
    cut = time.perf_counter() - start
    rng = np.random.default_rng(SEED)
    x, y = varied(masks, labels, rng)
    junk = not_symbols(x, int(len(x) * NOT_SYMBOLS / (1 - NOT_SYMBOLS)), rng)
    x, y = np.concatenate([x, junk]), np.concatenate([y, np.full(len(junk), NONE)])
    start = time.perf_counter()
    w = train(features(x), y)
    temperature = calibrate(w, *calibration)
    fit = time.perf_counter() - start
    one_layer.save(w, args.weights)
    print(f"{len(labels)} crops and drawings, {len(x)} samples (crops in {cut:.0f} s); "
          f"trained in {fit:.0f} s; temperature {temperature:.2f}; "
          f"{args.weights.name} {args.weights.stat().st_size} bytes")
    weights = one_layer.shipped(w)
    print("| set | tiles | right | unsure | sure and wrong | wrong (unsure) from "
          "a margin of 0.25, 0.5, 0.9 |\n|---|---|---|---|---|---|")
    report("calibration renders", *calibration, weights)
    if args.measure:
        measure(weights, args.measure)
    if args.real:
        report("real photos", *cached("real", lambda: crops(
            real_photos(args.real, args.fix))), weights)


if __name__ == "__main__":
    main()
