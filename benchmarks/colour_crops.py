"""Cut the colour crops `train_colours.py` learns from: each stored tile a
photo shows, as the reader itself sees it once it lines the photo up on the
stored board (`labelled.py`): its symbol's colour, the
photo's tile bodies' colour (its light), its stored colour, and what the
hand rules named it.

Kept in benchmarks/out/colour-crops/ (ignored by git).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from labelled import labelled
from train_shapes import Photo

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "benchmarks" / "out" / "colour-crops"

Crops = dict[str, np.ndarray]


def crops(photos: Iterator[Photo]) -> Crops:
    """The stored tiles each photo shows, as the reader labels them
    (`labelled`), in the photo's light (`tiles.light`)."""
    from scorekeeper.photo.tiles import light

    out: dict[str, list] = {k: [] for k in ("rgb", "body", "label", "photo", "rule",
                                            "rule_conf")}
    for n, (image, stored) in enumerate(photos):
        found = labelled(image, stored)
        if found is None:
            continue
        stages, tiles = found
        body = light(stages.tiles)
        for rd, (colour, _) in tiles.values():
            out["rgb"].append(np.asarray(rd.cell.color, float))
            out["body"].append(body)
            out["label"].append(colour)
            out["photo"].append(n)
            out["rule"].append(rd.color)
            out["rule_conf"].append(rd.color_conf)
    return {"rgb": np.array(out["rgb"]).reshape(-1, 3),
            "body": np.array(out["body"]).reshape(-1, 3),
            "label": np.array(out["label"], str),
            "photo": np.array(out["photo"], int),
            "rule": np.array(out["rule"], int),
            "rule_conf": np.array(out["rule_conf"], float)}


def cached(name: str, cut: Callable[[], Crops]) -> Crops:
    """Crops cut once and kept (cutting reads every photo)."""
    path = CACHE / f"{name}.npz"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **cut())
    with np.load(path) as got:
        return {k: got[k] for k in got.files}
