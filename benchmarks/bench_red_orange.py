"""Measure how sure the reader is of red and orange where the photo shows
only one of them (`colour_model.OVERLAP`, `colour_model.PLAIN`).

Run from the repository root:

    python benchmarks/bench_red_orange.py                 # photos 0-39
    python benchmarks/bench_red_orange.py --start 40      # 40-79: not tuned on

Each stored red and orange tile of the realistic sets' photos (paint
shifted, glare, warm and cool light; `tests/photo/synth_real.py`), as the
reader sees it once it lines the photo up on the stored board
(`labelled.py`), is named by
`Classifier.colours` with the photo's other stored tiles as examples:

- **hidden**: every stored tile of its own colour hidden (a move of a colour
  the board does not show yet);
- **as read**: only itself hidden, as the reader names it;
- **alone**: no examples (a first move's lone symbol).

Each is named with no overlap rule, with the other colour required in the
photo, and with that rule waived past `PLAIN`'s hues. Reported: sure and
wrong, right and unsure; the lowest hue of an orange and the highest of a
red on `colour_model.PLANE`, and the 90th percentile of the spread of one
colour's hues within one photo (what `PLAIN` is set from).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SETS = ("paint shifted", "glare", "warm light", "cool light")
MODES = ("hidden", "as read", "alone")
RULES = ("none", "both shown", "plain hues")


@contextmanager
def _rule(name: str) -> Iterator[None]:
    """Name colours under one of `RULES` (the module's tables emptied)."""
    from scorekeeper.photo import colour_model

    kept = dict(colour_model.OVERLAP), dict(colour_model.PLAIN)
    if name == "none":
        colour_model.OVERLAP.clear()
    if name != "plain hues":
        colour_model.PLAIN.clear()
    try:
        yield
    finally:
        colour_model.OVERLAP.update(kept[0])
        colour_model.PLAIN.update(kept[1])


def measure(start: int, count: int) -> None:
    """Read the sets' photos start..start+count-1 and print the figures."""
    from bench_photo import _cases, ensure_photos
    from labelled import labelled

    from scorekeeper.photo import colour_model
    from scorekeeper.photo.classify import Classifier
    from scorekeeper.photo.tiles import COLOUR_SURE, LOW_CONFIDENCE, light, sureness

    counts: dict[tuple[str, str, str], int] = defaultdict(int)
    hues: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    measured: set[tuple[str, int]] = set()
    for condition in SETS:
        paths = ensure_photos(condition, count, start)
        for n, (case, path) in enumerate(zip(_cases(condition, count, start), paths,
                                             strict=True), start):
            found = labelled(path.read_bytes(), case.stored)
            if found is None:
                continue
            stages, _ = found
            clf = stages.classifier
            body = light(stages.tiles)
            stored = stages.examples
            for tile in stored:
                if tile.color not in colour_model.OVERLAP:
                    continue
                measured.add((condition, n))
                rgb = np.array([tile.rgb])
                seen = colour_model.features(rgb, body)
                if colour_model.probabilities(seen)[0].argmax() != colour_model.NONE:
                    # A symbol of no paint (a lamp washed it) has no hue to count.
                    x, y = seen[0, colour_model.PLANE]
                    hue = float(np.degrees(np.arctan2(y, x)))
                    hues[(condition, n, tile.color)].append(hue)
                examples = {"hidden": [e for e in stored if e.color != tile.color],
                            "as read": [e for e in stored if e.key != tile.key],
                            "alone": []}
                for mode, shown in examples.items():
                    for rule in RULES:
                        with _rule(rule):
                            (choice,) = Classifier(clf.colors, clf.shapes).colours(
                                rgb, body, [tile.key], shown)
                        confidence = sureness(choice.confidence, COLOUR_SURE)
                        sure = confidence >= LOW_CONFIDENCE
                        right = clf.colors[choice.index] == tile.color
                        counts[(mode, rule, "tiles")] += 1
                        counts[(mode, rule, "sure and wrong")] += sure and not right
                        counts[(mode, rule, "right and unsure")] += right and not sure
    tiles = counts[("hidden", "none", "tiles")]
    print(f"photos {start}-{start + count - 1}: {tiles} stored reds and oranges "
          f"of {len(measured)} photos")
    for mode in MODES:
        for rule in RULES:
            print(f"  {mode:8} {rule:11} sure and wrong "
                  f"{counts[(mode, rule, 'sure and wrong')]:4}  right and unsure "
                  f"{counts[(mode, rule, 'right and unsure')]:4}")
    by = {c: np.array([h for (_, _, k), v in hues.items() if k == c for h in v])
          for c in ("red", "orange")}
    spread = [float(np.std(v)) for v in hues.values() if len(v) >= 3]
    red, orange = colour_model.PLAIN["red"][1], colour_model.PLAIN["orange"][0]
    print(f"  lowest orange {by['orange'].min():.1f}°, highest red "
          f"{by['red'].max():.1f}°, spread in a photo (90th percentile) "
          f"{np.percentile(spread, 90):.1f}°; reds below {red}° "
          f"{np.mean(by['red'] < red):.0%}, oranges above {orange}° "
          f"{np.mean(by['orange'] > orange):.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=0, help="first photo")
    parser.add_argument("--count", type=int, default=40, help="photos per set")
    args = parser.parse_args()
    measure(args.start, args.count)


if __name__ == "__main__":
    main()
