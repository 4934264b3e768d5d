"""Train and calibrate the reader's colour model (`photo/colour_model.py`):
numpy, one hidden layer, on the stored tiles the reader itself sees in
rendered photos (`colour_crops.py`: every renderer, every condition of the
realistic set); and measure it.

Each crop is a symbol's colour and its photo's tile bodies' colour (the
light), labelled with its stored colour. Copies under other lamps (the
same random gains on both, `relit`) teach the model to read a colour
against its photo's light.

    python benchmarks/train_colours.py                 # train, save the weights
    python benchmarks/train_colours.py --real DIR      # and measure on real photos

Training renders use seeds no benchmark set uses (`TRAIN_SEEDS`); the
temperature is fitted on renders of one more seed (`CALIBRATION_SEED`) and
measured on them; `--real DIR` measures on the real photos there (never
copied into the repository, never trained on). The reader as a whole is
measured by `bench_photo.py`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import one_layer  # noqa: E402
from colour_crops import Crops, cached, crops  # noqa: E402
from train_shapes import real_photos, renders  # noqa: E402

from scorekeeper.photo.colour_model import (  # noqa: E402
    COLOURS,
    NONE,
    TURN,
    WEIGHTS,
    features,
    probabilities,
    turned,
)
from scorekeeper.photo.hues import GAMMA  # noqa: E402
from scorekeeper.photo.tiles import COLOUR_SURE  # noqa: E402

TRAIN_SEEDS = (7101, 7202, 7303)
"""Seeds of the training renders: none is a benchmark set's."""
CALIBRATION_SEED = 7606
"""Seed of the renders the temperature is fitted on: neither trained on nor
a benchmark set's."""
PER_SEED = 5
"""Photos per renderer and condition per seed."""
HIDDEN = 16
SEED = 0
RELIT = 8
"""Copies of each crop under another lamp (`relit`)."""
NO_PAINT = 0.1
"""Share of the training samples that show no paint (`no_paint`)."""
GREYEST_PAINT = 0.3
"""sRGB saturation: the most a symbol without paint shows (a grey washed
by a lamp, a tile body); the renders' and real paint measure 0.5 and more
(`hues.PAINT`)."""
LAMP = 0.35
"""The most a copy's lamp changes red or blue against green, a factor
e^LAMP either way: beyond the test sets' warmest and coolest light."""


def rendered(seed: int) -> Crops:
    """The crops of one seed's renders."""
    return cached(f"train-{seed}", lambda: crops(renders(seed, PER_SEED)))


def labelled(c: Crops) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Colours, bodies and colour indexes of the crops of the model's colours."""
    keep = np.isin(c["label"], COLOURS)
    y = np.array([COLOURS.index(str(x)) for x in c["label"][keep]], int)
    return c["rgb"][keep], c["body"][keep], y


def relit(rgb: np.ndarray, body: np.ndarray, y: np.ndarray,
          rng: np.random.Generator, copies: int = RELIT
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The crops, and `copies` more each in another paint under a random
    lamp: the paint's hue turned (`colour_model.TURN`), and one set of channel gains
    on a photo's symbols and its bodies alike, brightness changed too."""
    out_rgb, out_body, out_y = [rgb], [body], [y]
    for _ in range(copies):
        warm = rng.uniform(-LAMP, LAMP, (len(y), 1))
        tint = rng.uniform(-LAMP / 3, LAMP / 3, (len(y), 1))
        level = np.exp(rng.normal(0, 0.25, (len(y), 1)))
        gains = level * np.exp(np.hstack([warm, tint, -warm]))
        paint = turned(rgb, rng.uniform(-TURN, TURN, len(y)))
        out_rgb.append(paint * gains)
        out_body.append(body * gains)
        out_y.append(y)
    return np.concatenate(out_rgb), np.concatenate(out_body), np.concatenate(out_y)


def no_paint(body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colours of symbols without paint, one in the light of each photo's
    bodies given (their colour): a grey of any level, tinted a little
    towards any hue."""
    count = len(body)
    tint = rng.normal(0, 1, (count, 3))
    tint /= np.linalg.norm(tint, axis=1, keepdims=True)
    srgb = rng.uniform(0.3, 1.0, (count, 1)) * (
        1 + rng.uniform(0, GREYEST_PAINT / 2, (count, 1)) * tint)
    grey = np.clip(srgb, 0, 1) ** GAMMA
    return grey * body / body.mean(axis=1, keepdims=True)


def train(x: np.ndarray, y: np.ndarray, epochs: int = 60) -> dict[str, np.ndarray]:
    """The model fitted to feature rows `x` (standardised first) and labels
    `y`, classes weighed alike."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    xc = ((x - mean) / scale).astype(np.float32)
    w = one_layer.train(xc, y, len(COLOURS) + 1, HIDDEN, epochs, SEED, balanced=True)
    return {**w, "mean": mean, "scale": scale}


def calibrate(w: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """`one_layer.calibrate` on feature rows `x` with labels `y`."""
    return one_layer.calibrate(w, lambda trial: probabilities(x, trial), y)


def report(name: str, c: Crops, weights: dict[str, np.ndarray]) -> None:
    """Per-tile accuracy and calibration: how many are unsure (a
    probability margin under the reader's `tiles.COLOUR_SURE`) and how many
    sure and wrong; and the hand rules' naming of the same tiles (which
    saw each tile's own stored colour)."""
    rgb, body, y = labelled(c)
    if not len(y):
        print(f"| {name} | no crops |")
        return
    p = probabilities(features(rgb, body), weights)
    guess = p[:, :NONE].argmax(axis=1)
    ranked = np.sort(p, axis=1)
    margin = np.where(p.argmax(axis=1) == NONE, 0.0, ranked[:, -1] - ranked[:, -2])
    sure = margin >= COLOUR_SURE
    wrong = guess != y
    keep = np.isin(c["label"], COLOURS)
    rules = c["rule"][keep] == y
    print(f"| {name} | {len(y)} | {np.mean(~wrong):.1%} | {int(np.sum(~sure))} | "
          f"{int(np.sum(wrong & sure))} | {np.mean(rules):.1%} | " + ", ".join(
              f"{int(np.sum(wrong & (margin >= t)))} ({int(np.sum(margin < t))})"
              for t in (0.25, 0.5, 0.9)) + " |")
    for k, colour in enumerate(COLOURS):
        sel = y == k
        if sel.any() and np.mean(guess[sel] == k) < 1:
            named = np.bincount(guess[sel], minlength=len(COLOURS))
            print(f"    {colour:7s} {int(sel.sum()):4d} {np.mean(guess[sel] == k):.1%} "
                  + " ".join(f"{COLOURS[j]} {n}" for j, n in enumerate(named)
                             if n and j != k))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--real", type=Path, help="a folder of real photos to measure on")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="where to save the weights (default: the package's)")
    ap.add_argument("--fix", action="append", default=[],
                    help="a correction of the real photos' annotations")
    args = ap.parse_args()
    start = time.perf_counter()
    parts = [labelled(rendered(seed)) for seed in TRAIN_SEEDS]
    calibration = rendered(CALIBRATION_SEED)
    cut = time.perf_counter() - start
    rng = np.random.default_rng(SEED)
    rgb, body, y = relit(*(np.concatenate(p) for p in zip(*parts, strict=True)), rng)
    grey = int(len(y) * NO_PAINT / (1 - NO_PAINT))
    bodies = body[rng.permutation(len(body))[:grey]]
    rgb = np.concatenate([rgb, no_paint(bodies, rng)])
    body, y = np.concatenate([body, bodies]), np.concatenate([y, np.full(grey, NONE)])
    start = time.perf_counter()
    w = train(features(rgb, body), y)
    cal_rgb, cal_body, cal_y = labelled(calibration)
    temperature = calibrate(w, features(cal_rgb, cal_body), cal_y)
    fit = time.perf_counter() - start
    one_layer.save(w, args.weights)
    print(f"{sum(len(p[2]) for p in parts)} crops, {len(y)} samples (crops in "
          f"{cut:.0f} s); trained in {fit:.0f} s; temperature {temperature:.2f}; "
          f"{args.weights.name} {args.weights.stat().st_size} bytes")
    weights = one_layer.shipped(w)
    print("| set | tiles | right | unsure | sure and wrong | hand rules right | "
          "wrong (unsure) from a margin of 0.25, 0.5, 0.9 |\n"
          "|---|---|---|---|---|---|---|")
    report("calibration renders", calibration, weights)
    if args.real:
        report("real photos", cached("real", lambda: crops(
            real_photos(args.real, args.fix))), weights)


if __name__ == "__main__":
    main()
