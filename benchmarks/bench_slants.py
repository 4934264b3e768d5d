"""The photo reader on boards taken at a slant: how many read right, how
many unsure, refused, or wrong in silence, kind by kind.

    python benchmarks/bench_slants.py

The tests' board of eight stored tiles and a move of two
(`tests/photo/helpers.py`), photographed three ways:

- **drawn at a slant**: our own renderer's camera tilted 40-60° from
  straight down (`tests/photo/synth.py`), 16 seeds each, each turned and
  tilted its own way (as `tests/photo/test_photo_slant.py`);
- **real tiles at a slant**: the realistic renderer's tiles in the real
  game's paint (`tests/photo/synth_real.py`), tilted 40-55°, tiles 60 and
  100 pixels across at the board's middle, 12 seeds each;
- **real tiles close, keystoned**: drawn from above and the photo's top
  corners moved in by 0.25-0.4 of its width (`synth.keystone`), as a phone
  held close over the near edge takes it, tiles 60-110 pixels, 12 seeds.

A reading is right (the move exactly, nothing uncertain or warned of),
unsure (anything marked or warned of), refused, or broken: a tile of the
move missing or wrong with nothing said of it (`tests/photo/kinds.py`,
`honest_move`), the one outcome the reader promises never to give.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

OUTCOMES = ("right", "unsure", "refused", "broken")
"""What a reading counts as, in the order the table shows them."""


def outcome(photo: bytes) -> str:
    """What the reading of one photo of the test board counts as."""
    from photo import kinds
    from photo.helpers import BOARD, MOVE

    from scorekeeper.photo import PhotoUnreadable, read_move

    try:
        reading = read_move(photo, list(BOARD))
    except PhotoUnreadable:
        return "refused"
    try:
        kinds.honest_move(MOVE, reading)
    except AssertionError:
        return "broken"
    return "right" if kinds.right_and_sure(MOVE, reading) else "unsure"


def kinds_of_photo() -> list[tuple[str, int, Callable[[int], bytes]]]:
    """Each kind's name, its seeds, and the photo of a seed."""
    from photo import synth, synth_real
    from photo.helpers import BOARD, MOVE, PLAIN
    from photo.test_photo_real import REAL_GAME
    from photo.test_photo_slant import drawn_at, taken_close, turn_and_tilt

    real = synth_real.Real(REAL_GAME)

    def drawn(slant: float) -> Callable[[int], bytes]:
        return lambda seed: drawn_at(slant, seed)

    def real_tiles(slant: float, pixels: float) -> Callable[[int], bytes]:
        return lambda seed: synth.encode(synth_real.render(
            BOARD + MOVE,
            replace(PLAIN, tile_px=pixels, slant=slant, **turn_and_tilt(seed)),
            seed, real), 90)

    def keystoned(inset: float, pixels: float) -> Callable[[int], bytes]:
        return lambda seed: taken_close(inset, seed, pixels)

    out = [(f"drawn at {s:.0f}°", 16, drawn(s)) for s in (40.0, 45.0, 50.0, 55.0, 60.0)]
    out += [(f"real tiles at {s:.0f}°, {p:.0f} px", 12, real_tiles(s, p))
            for p in (60.0, 100.0) for s in (40.0, 45.0, 50.0, 55.0)]
    out += [(f"real tiles close, keystoned {i}, {p:.0f} px", 12, keystoned(i, p))
            for p in (60.0, 80.0, 110.0) for i in (0.25, 0.3, 0.35, 0.4)]
    return out


def main() -> None:
    total: Counter[str] = Counter()
    print("| kind | " + " | ".join(OUTCOMES) + " |")
    print("|---|" + "---|" * len(OUTCOMES))
    for name, seeds, photo in kinds_of_photo():
        counts = Counter(outcome(photo(seed)) for seed in range(seeds))
        total += counts
        print(f"| {name} | " + " | ".join(str(counts[o]) for o in OUTCOMES) + " |",
              flush=True)
    print("| all | " + " | ".join(str(total[o]) for o in OUTCOMES) + " |")


if __name__ == "__main__":
    main()
