"""Train a small shape classifier (numpy, one hidden layer) on the symbol
masks the photo reader itself cuts from rendered photos, and measure it
against the reader's own shape naming (`classify.Classifier.shape`).

The crops are labelled the way a table's confirmed move labels them: the
reader lines the photo up on the stored board and hands the stored tiles it
sees, mask and kind, to `Classifier.learn` (`classify.Example`); this script
records those examples. So the masks are cut by the reader's own stages
(`cells`, `symbols.normalise`) and train and use see the same crops.

    python benchmarks/train_shapes.py            # train, save the weights
    python benchmarks/train_shapes.py --measure 12   # and on held-out sets
    python benchmarks/train_shapes.py --measure 12 --real DIR --fix FIX

Training renders use seeds no benchmark set uses (`TRAIN_SEEDS`); the
measure reads the benchmark's own sets (`bench_photo.SETS`, `REAL_SEED`),
which training never saw, and the real photos of `--real DIR` (never copied
into the repository, never trained on).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper.photo import PhotoUnreadable, classify, read_move  # noqa: E402
from scorekeeper.photo.shape_model import (  # noqa: E402
    SHAPES,
    WEIGHTS,
    features,
    probabilities,
    softmax,
)
from scorekeeper.photo.symbols import CELL, normalise  # noqa: E402

TRAIN_SEEDS = (7101, 7202, 7303)
"""Seeds of the training renders: none is a benchmark set's."""
HIDDEN = 24
SEED = 0
AUGMENT = 2
"""Varied copies of each mask and its turns (`varied`)."""


Photo = tuple[bytes, tuple]
Crop = tuple[np.ndarray, str, object, float]
"""A stored tile's normalised mask, its shape, the photo's classifier, and
the reader's own shape naming of it (index)."""


def renders(seed: int, count: int) -> Iterator[Photo]:
    """Photos of all three renderers, `count` of each kind, from one seed."""
    from photo import synth, synth_alt, synth_real

    for case in synth.cases(seed, count):
        yield synth.photo(case), case.stored
    for case in synth.cases(seed + 1, count):
        yield synth.photo(case, synth_alt.render), case.stored
    for condition in synth_real.CONDITIONS:
        if condition == "first move crisscross":
            continue  # no stored tiles: nothing labelled
        for rc in synth_real.real_cases(condition, seed, count):
            yield synth_real.photo(rc), rc.case.stored


def crops(photos: Iterator[Photo]) -> list[Crop]:
    """The stored tiles each photo shows, as the reader labels them."""
    seen: list[tuple[classify.Classifier, list[classify.Example]]] = []
    learn = classify.Classifier.learn

    def record(self: classify.Classifier,
               examples: list[classify.Example]) -> None:
        seen.append((self, list(examples)))
        learn(self, examples)

    classify.Classifier.learn = record  # type: ignore[method-assign]
    out: list[Crop] = []
    try:
        for image, stored in photos:
            seen.clear()
            try:
                read_move(image, stored)
            except PhotoUnreadable:
                continue
            if not seen:
                continue
            clf, examples = seen[-1]
            for e in examples:
                if e.shape in SHAPES:
                    out.append((e.mask, e.shape, clf,
                                clf.shape(e.mask, e.key).index))
    finally:
        classify.Classifier.learn = learn  # type: ignore[method-assign]
    return out


def drawings() -> tuple[np.ndarray, np.ndarray]:
    """The reader's own template drawings (`classify.draw_template`): the
    proportions and line weights of other prints than the renderers'."""
    masks, labels = [], []
    for label, shape in enumerate(SHAPES):
        for variant in range(classify.DRAWINGS + (
                classify.REAL_STARS if shape in classify.STARS else 0)):
            for blur in (0.0, 1.5, 2.5):
                norm = normalise(classify.draw_template(shape, variant, 0.0, blur))
                if norm is not None:
                    masks.append(norm)
                    labels.append(label)
    return np.array(masks), np.array(labels)


def varied(masks: np.ndarray, labels: np.ndarray, rng: np.random.Generator,
           copies: int = AUGMENT) -> tuple[np.ndarray, np.ndarray]:
    """The masks in four quarter turns and mirrored (a symbol's shape is the
    same whichever way its tile lies), and `copies` more each: turned a
    little, stretched, thinned or thickened by a pixel, then normalised
    again as the reader does: other prints, other slants."""
    out = [np.rot90(masks, k, axes=(1, 2)) for k in range(4)]
    out += [np.flip(m, axis=2) for m in out]
    base = np.concatenate(out)
    more, more_labels = [], []
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(copies):
        for m, label in zip(base, np.tile(labels, 8), strict=True):
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
            np.concatenate([np.tile(labels, 8), np.array(more_labels)]))


def train(x: np.ndarray, y: np.ndarray, epochs: int = 60) -> dict[str, np.ndarray]:
    """One hidden layer (tanh), softmax out, full-batch Adam, fixed seed."""
    rng = np.random.default_rng(SEED)
    n, d = x.shape
    mean = x.mean(axis=0)
    w = {"w1": rng.normal(0, 1 / np.sqrt(d), (d, HIDDEN)), "b1": np.zeros(HIDDEN),
         "w2": rng.normal(0, 1 / np.sqrt(HIDDEN), (HIDDEN, len(SHAPES))),
         "b2": np.zeros(len(SHAPES))}
    m = {k: np.zeros_like(v) for k, v in w.items()}
    v2 = {k: np.zeros_like(v) for k, v in w.items()}
    onehot = np.eye(len(SHAPES))[y]
    xc = x - mean
    step = 0
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(n), max(1, n // 256)):
            step += 1
            xb, tb = xc[batch], onehot[batch]
            h = np.tanh(xb @ w["w1"] + w["b1"])
            p = softmax(h @ w["w2"] + w["b2"])
            g = (p - tb) / len(batch)
            dh = (g @ w["w2"].T) * (1 - h * h)
            grads = {"w2": h.T @ g + 1e-4 * w["w2"], "b2": g.sum(0),
                     "w1": xb.T @ dh + 1e-4 * w["w1"], "b1": dh.sum(0)}
            for k in w:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** step), v2[k] / (1 - 0.999 ** step)
                w[k] -= 3e-3 * mh / (np.sqrt(vh) + 1e-8)
    return {**{k: v.astype(np.float16) for k, v in w.items()},
            "mean": mean.astype(np.float16)}


def report(name: str, data: list[Crop], weights: dict[str, np.ndarray]) -> None:
    """Per-tile accuracy of the model and of the reader, and the model's
    calibration: how often a low margin is wrong."""
    if not data:
        print(f"{name}: no crops")
        return
    masks = np.array([c[0] for c in data])
    y = np.array([SHAPES.index(c[1]) for c in data])
    p = probabilities(masks, weights)
    guess = p.argmax(axis=1)
    top2 = np.sort(p, axis=1)
    margin = top2[:, -1] - top2[:, -2]
    ours = np.array([SHAPES.index(c[2].shapes[c[3]]) for c in data])
    print(f"{name}: {len(data)} tiles; model {np.mean(guess == y):.1%} right, "
          f"reader {np.mean(ours == y):.1%} right")
    for lo, hi in ((0, 0.5), (0.5, 0.9), (0.9, 1.01)):
        band = (margin >= lo) & (margin < hi)
        wrong = int(np.sum(guess[band] != y[band]))
        print(f"  margin {lo:.1f}-{min(hi, 1):.1f}: {int(band.sum())} tiles, "
              f"{wrong} wrong")
    for k, s in enumerate(SHAPES):
        sel = y == k
        if sel.any():
            print(f"  {s:10s} {int(sel.sum()):4d}  model {np.mean(guess[sel] == k):.1%}"
                  f"  reader {np.mean(ours[sel] == k):.1%}")


def real_photos(folder: Path, fixes: list[str]) -> Iterator[Photo]:
    """The development set's photos, each with its own move stored too."""
    import real_photos as rp  # benchmarks/real_photos.py

    for case in rp.cases(folder, fixes):
        if not case.want:
            yield case.photo.read_bytes(), case.stored


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=5,
                    help="photos per renderer and condition per seed")
    ap.add_argument("--measure", type=int, default=0, metavar="N",
                    help="measure on N photos of each of the benchmark's sets")
    ap.add_argument("--real", type=Path, help="a folder of real photos to measure on")
    ap.add_argument("--fix", action="append", default=[],
                    help="a correction of the real photos' annotations")
    args = ap.parse_args()
    start = time.perf_counter()
    data: list[Crop] = []
    for seed in TRAIN_SEEDS:
        data += crops(renders(seed, args.count))
    cut = time.perf_counter() - start
    masks = np.array([c[0] for c in data])
    y = np.array([SHAPES.index(c[1]) for c in data])
    drawn, drawn_labels = drawings()
    x, yy = varied(np.concatenate([masks, drawn]), np.concatenate([y, drawn_labels]),
                   np.random.default_rng(SEED))
    start = time.perf_counter()
    weights = train(features(x), yy)
    fit = time.perf_counter() - start
    np.savez_compressed(WEIGHTS, **weights)
    print(f"{len(data)} crops from {len(TRAIN_SEEDS)} seeds in {cut:.0f} s; "
          f"trained in {fit:.1f} s; {WEIGHTS.name} {WEIGHTS.stat().st_size} bytes")
    report("train", data, weights)
    if args.measure:
        measure(weights, args.measure)
    if args.real:
        report("real", crops(real_photos(args.real, args.fix)), weights)


def measure(weights: dict[str, np.ndarray], count: int) -> None:
    """The benchmark's own sets: never trained on."""
    from bench_photo import REAL_SEED, SETS
    from photo import synth, synth_alt, synth_real

    renderers: dict[str, Callable] = {"synth": synth.render,
                                      "synth_alt": synth_alt.render}
    for name, (module, seed) in SETS.items():
        cases = synth.cases(seed, count)
        report(name, crops((synth.photo(c, renderers[module]), c.stored)
                           for c in cases), weights)
    for condition in synth_real.CONDITIONS:
        if condition == "first move crisscross":
            continue
        rcs = synth_real.real_cases(condition, REAL_SEED, count)
        report(condition, crops((synth_real.photo(rc), rc.case.stored)
                                for rc in rcs), weights)


if __name__ == "__main__":
    main()
