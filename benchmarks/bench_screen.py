"""Screen a change to the photo reader on every synthetic photo it is held
to, and say which photos read otherwise than before.

    python benchmarks/bench_screen.py --save before.json     # on main
    python benchmarks/bench_screen.py --save after.json --against before.json

The photos (1,708; drawn once into `benchmarks/out/screen/`, about half an
hour on two cores, then about seven minutes a screen):

- **touching**: photos 0-99 of the eight sets `bench_photo.py` reads (its
  renders, own and held-out, and the six realistic conditions);
- **slants**: every photo of `bench_slants.py` (drawn and real tiles at
  40-60°, taken close and keystoned);
- **apart**: photos 0-89 of each realistic condition drawn with their tiles
  at the tests' `APART` of the step, as `bench_apart.py` draws them;
- **board apart**: the tests' board at 0.75 and 0.7 of the step, 24 seeds
  each (`bench_apart.py`).

Each photo counts as `verdicts.KINDS` counts it (the boards' "broken" as
confident wrong). Reported: the counts per group, and with `--against`,
every photo whose verdict changed.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

FOLDER = ROOT / "benchmarks" / "out" / "screen"
"""Where the photos are kept, each with what counts as its reading."""

GROUPS = ("touching", "slants", "apart", "board apart")

Photo = tuple[str, str, int]
"""(group, set or kind, index or seed)."""


def photos() -> list[Photo]:
    """Every photo of the screen, in its order."""
    from bench_slants import kinds_of_photo
    from photo import synth_real

    out: list[Photo] = []
    for name in ("own", "held-out", *synth_real.CONDITIONS):
        out += [("touching", name, i) for i in range(100)]
    for name, seeds, _ in kinds_of_photo():
        out += [("slants", name, seed) for seed in range(seeds)]
    for name in synth_real.CONDITIONS:
        out += [("apart", name, i) for i in range(90)]
    for share in ("0.75", "0.7"):
        out += [("board apart", share, seed) for seed in range(24)]
    return out


def _path(photo: Photo, suffix: str) -> Path:
    """Where a photo (`suffix` ".photo") or what counts as its reading
    (".pkl") is kept."""
    group, name, i = photo
    slug = "".join(ch if ch.isalnum() else "_" for ch in f"{group} {name}")
    return FOLDER / f"{slug}-{i}{suffix}"


def draw(photo: Photo) -> None:
    """Draw a photo and what counts as its reading, unless kept."""
    from bench_photo import REAL_SEED, _cases, _expected, ensure_photos
    from photo import synth_real
    from photo.test_photo_apart import APART, laid_apart

    if _path(photo, ".pkl").exists():
        return
    group, name, i = photo
    wants: tuple[str, list | None, list | None] = ("board", None, None)
    if group == "touching":
        case = _cases(name, 1, i)[0]
        data = ensure_photos(name, 1, i)[0].read_bytes()
        wants = ("case", list(case.stored), _expected(case))
    elif group == "slants":
        from bench_slants import kinds_of_photo

        drawn: dict[str, Callable[[int], bytes]] = {
            kind: photo_of for kind, _, photo_of in kinds_of_photo()}
        data = drawn[name](i)
    elif group == "apart":
        rc = synth_real.real_cases(name, REAL_SEED, i + 1)[i]
        rc = replace(rc, real=replace(rc.real, apart=APART))
        data = synth_real.photo(rc)
        wants = ("case", list(rc.case.stored), _expected(rc.case))
    else:
        data = laid_apart(i, float(name))
    _path(photo, ".photo").write_bytes(data)
    _path(photo, ".pkl").write_bytes(pickle.dumps(wants))


def judge(photo: Photo) -> str:
    """What the reading of a photo counts as (`verdicts.KINDS`)."""
    from bench_slants import outcome
    from verdicts import read_verdict

    kind, stored, wants = pickle.loads(_path(photo, ".pkl").read_bytes())
    data = _path(photo, ".photo").read_bytes()
    if kind == "board":
        verdict = outcome(data)
        return "confident wrong" if verdict == "broken" else verdict
    return read_verdict(data, stored, wants)


def main() -> None:
    from verdicts import KINDS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write every photo's verdict here")
    parser.add_argument("--against", type=Path, help="verdicts saved before")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    FOLDER.mkdir(parents=True, exist_ok=True)
    every = photos()
    with Pool(args.processes) as pool:
        pool.map(draw, every, chunksize=4)
        verdicts = dict(zip(map(str, every), pool.map(judge, every, chunksize=2),
                            strict=True))
    print("| group | " + " | ".join(KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for group in GROUPS:
        counts = Counter(v for p, v in zip(every, verdicts.values(), strict=True)
                         if p[0] == group)
        print(f"| {group} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    if args.save:
        args.save.write_text(json.dumps(verdicts, indent=0))
    if args.against:
        before = json.loads(args.against.read_text())
        changed = [(p, before[p], v) for p, v in verdicts.items()
                   if p in before and before[p] != v]
        print(f"\n{len(changed)} photos read otherwise:")
        for photo, was, now in changed:
            print(f"- {photo}: {was} -> {now}")


if __name__ == "__main__":
    main()
