"""The photo reader on a folder of real photos of real games (`bench_photo.py
--real DIR`).

The folder holds, per game, photos `<game>_NN.jpg` (the board after move NN)
and annotations `<game>_NN.txt` (move NN: one placed tile a line,
`row col <shape><colour>`, then the move's score), the format of the
development set the project measures on (kept outside the repository: the
photos are not ours to publish). Shapes are 1 circle, 2 clover, 3 diamond,
4 square, 5 crisscross, 6 starburst; colours R, O, Y, G, B and the sixth, P
or W (a set whose sixth colour is white): the classic set's purple. Rows and
columns count from the first tile; the reader lines the board up in any
quarter turn, so the annotation's own frame serves.

An annotation the photos contradict is corrected only where the folder says
so: a `corrections` file (or `--fix`), one correction a line,
`<game>_NN row col row col`: move NN's tile annotated at the first cell lies
at the second.

Two cases per photo NN: moves 1..NN−1 stored, the reader must return move NN;
moves 1..NN stored, it must return nothing. Each is right, unsure, confident
wrong or refused (`verdicts`).

With `teach_first`, each game's first photo teaches the reader its set
before the game is read: the stored board of that photo (moves 1..NN, as
the players confirmed them) labels every stored tile the photo shows
(`PhotoReading.stored_looks`), as a confirmed move teaches a table
(`photo.lessons.lesson_sums`).

With `as_played`, each game is read in the order it was played, as a table
that photographs its moves: what a photo's move looked like teaches the
photos after it once the players confirm it (the annotation is the move
they confirmed), and nothing is taught before the game's first photo. The
case with nothing new on a photo is read after its move was confirmed.
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from verdicts import KINDS, marks, verdict

Tile = tuple[int, int, str, str]
Moved = dict[tuple[int, int], tuple[int, int]]
"""A move's corrections: annotated cell -> cell."""

SHAPES = {"1": "circle", "2": "clover", "3": "diamond", "4": "square",
          "5": "crisscross", "6": "starburst"}
"""The annotation's shape digits."""

COLOURS = {"R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue",
           "P": "purple", "W": "purple"}
"""The annotation's colour letters: W (white) is the sixth colour of a set
whose sixth paint is white, the classic set's purple."""

PHOTO = re.compile(r"^(?P<game>.+)_(?P<move>\d+)\.jpe?g$", re.IGNORECASE)


@dataclass(frozen=True)
class Case:
    """One reading to make: a photo, the stored tiles, the tiles it must give."""

    photo: Path
    game: str
    move: int
    stored: tuple[Tile, ...]
    want: frozenset[Tile]


def _tile(line: str) -> Tile | None:
    """A tile of an annotation's line; None for the score line."""
    parts = line.split()
    if len(parts) != 3:  # noqa: PLR2004 - row, col, kind
        return None
    row, col, kind = parts
    return int(row), int(col), COLOURS[kind[-1].upper()], SHAPES[kind[:-1]]


def corrections(lines: Sequence[str]) -> dict[str, Moved]:
    """Corrections by move (`<game>_NN`): annotated cell -> cell."""
    out: dict[str, Moved] = {}
    for line in lines:
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        stem, *cells = parts
        r0, c0, r1, c1 = (int(x) for x in cells)
        out.setdefault(stem, {})[(r0, c0)] = (r1, c1)
    return out


def moves(folder: Path, fixes: Sequence[str] = ()
          ) -> dict[str, dict[int, list[Tile]]]:
    """Every game's moves by number, corrected as the folder (its
    `corrections` file) and `fixes` say."""
    kept = folder / "corrections"
    lines = [*(kept.read_text().splitlines() if kept.exists() else ()), *fixes]
    fixed = corrections(lines)
    out: dict[str, dict[int, list[Tile]]] = {}
    for path in sorted(folder.glob("*_*.txt")):
        game, _, number = path.stem.rpartition("_")
        if not number.isdigit():
            continue
        moved = fixed.get(path.stem, {})
        tiles = []
        for line in path.read_text().splitlines():
            tile = _tile(line)
            if tile is not None:
                row, col = moved.get(tile[:2], tile[:2])
                tiles.append((row, col, tile[2], tile[3]))
        out.setdefault(game, {})[int(number)] = tiles
    return out


def cases(folder: Path, fixes: Sequence[str] = ()) -> list[Case]:
    """Two cases per photo (see the module), by game and move."""
    games = moves(folder, fixes)
    out = []
    for path in sorted(folder.iterdir()):
        found = PHOTO.match(path.name)
        if not found or found["game"] not in games:
            continue
        game, n = found["game"], int(found["move"])
        played = games[game]
        before = tuple(t for m in sorted(played) if m < n for t in played[m])
        out.append(Case(path, game, n, before, frozenset(played.get(n, ()))))
        out.append(Case(path, game, n, before + tuple(played.get(n, ())),
                        frozenset()))
    return out


def one_core() -> None:
    """Read on one core, as the household's helper process does on a small
    machine: this process on one CPU, OpenCV without threads of its own."""
    import cv2

    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def teach(first: Case) -> object:
    """What a game's first photo teaches, its board as stored (`Taught`)."""
    from scorekeeper.photo import read_move
    from scorekeeper.photo.lessons import Taught, lesson_sums

    board = (*first.stored, *first.want)
    reading = read_move(first.photo.read_bytes(), list(board))
    confirmed = {(r, c): (color, shape) for r, c, color, shape in board}
    return Taught(tuple(lesson_sums([x._asdict() for x in reading.stored_looks],
                                    confirmed)))


MODES = ("as it comes", "taught by its first photo",
         "as played, each confirmed move teaching the next")
"""How a game is read (`worker`): nothing taught, taught once by its first
photo (`teach_first`), or learning as it is played (`as_played`)."""


def cropped(data: bytes, pad: float) -> bytes:
    """The photo cut round its tiles with `pad` of a tile's edge of table
    left, as a phone's photo of the tiles alone; where, the lattice the
    reader finds on the whole photo says (at the reader's working size)."""
    import cv2
    import numpy as np

    from scorekeeper.photo.decode import decode
    from scorekeeper.photo.grid import find_grid

    img = decode(data)
    grid = find_grid(img)
    centres = np.array(list(grid.centres.values()))
    reach = (0.5 + pad) * grid.pitch
    (x0, y0), (x1, y1) = (np.maximum(centres.min(0) - reach, 0).astype(int),
                          (centres.max(0) + reach).astype(int))
    return bytes(cv2.imencode(".jpg", img[y0:y1, x0:x1],
                              [cv2.IMWRITE_JPEG_QUALITY, 90])[1])


def worker(folder: Path, fixes: Sequence[str], mode: str,
           tight: float | None = None, change: str | None = None) -> None:
    """Read every case in this process (on one core), in one of `MODES`,
    each photo whole or with `tight`, `cropped` to its tiles, or with one
    of the `CHANGES`; print one JSON line per case."""
    from scorekeeper.photo import PhotoUnreadable, read_move
    from scorekeeper.photo.lessons import Taught, lesson_sums, vouched_looks

    one_core()
    every = sorted(cases(folder, fixes), key=lambda c: (c.game, c.move, not c.want))
    lessons: dict[str, object] = {}
    if mode == MODES[1]:
        for case in every:
            if case.game not in lessons and case.want:
                lessons[case.game] = teach(case)
    # As played: every look a confirmed photo left, labelled with its kind.
    looks: dict[str, list[dict[str, object]]] = {}
    views: dict[Path, bytes] = {}
    for case in every:
        data = case.photo.read_bytes()
        if tight is not None or change is not None:
            # Two cases read each photo: change it once.
            if case.photo not in views:
                views[case.photo] = cropped(data, tight) if tight is not None \
                    else changed(data, str(change))
            data = views[case.photo]
        if mode == MODES[2]:
            taught = lesson_sums(looks.get(case.game, []), {})
            lessons[case.game] = Taught(tuple(taught))
        start = time.perf_counter()
        reading = None
        try:
            reading = read_move(data, list(case.stored),
                                taught=lessons.get(case.game))  # type: ignore[arg-type]
            got, low, warned = marks(sorted(reading.tiles), reading)
            reason = None
        except PhotoUnreadable as exc:
            got, low, warned, reason = [], [], False, exc.reason
        seconds = time.perf_counter() - start
        if mode == MODES[2] and case.want and reading is not None:
            # The players confirm the annotated move, which teaches, with the
            # stored tiles the photo showed as stored (as the store's
            # `photo_lessons.settle` does).
            kinds = {(r, c): (color, shape) for r, c, color, shape in case.want}
            looks.setdefault(case.game, []).extend(
                [*({**x._asdict(), "color": kinds[x.row, x.col][0],
                    "shape": kinds[x.row, x.col][1]}
                   for x in reading.looks if (x.row, x.col) in kinds),
                 *vouched_looks(reading, case.stored)])
        kind = verdict(got, low, warned, bool(reason), [case.want])
        print(json.dumps({"photo": case.photo.name, "move": case.move,
                          "new": bool(case.want), "kind": kind,
                          "seconds": seconds, "got": got,
                          "want": sorted(case.want), "reason": reason}))


CHANGES = ("warm light", "cool light", "a stop darker", "hazy", "turned a quarter",
           "turned an eighth", "a third the size", "blurred", "on a dark table",
           "at a slant")
"""What another table's photo may differ in (`changed`): its light, its
camera's exposure and focus, its turn, its distance, its table's colour,
the slant it is taken at. None was tuned on but "turned an eighth", which
found that a large symbol's box on a tile turned 45° reaches the table
(`scorekeeper.photo.blobs.ENCLOSED`), and "at a slant", which found that
cells need not be square (`scorekeeper.photo.grid._across`)."""


def changed(data: bytes, change: str) -> bytes:
    """The photo as another table's phone might take it (`CHANGES`): a lamp's
    warmth or a window's blue (linear light scaled channel by channel), half
    the light, a haze lifting the blacks, turned a quarter or an eighth (the
    photo grown to hold the board, its new corners the colour of the
    photo's edges), at a third of its size, out of focus, on a dark table
    (`_darker_table`) or at a slant (`SLANT`); saved again as a JPEG."""
    import cv2
    import numpy as np

    from scorekeeper.photo.hues import GAMMA

    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    light = (img.astype(np.float32) / 255) ** GAMMA
    casts = {"warm light": (0.75, 0.95, 1.2), "cool light": (1.25, 1.0, 0.8),
             "a stop darker": (0.5, 0.5, 0.5)}
    if change in casts:
        scaled = np.clip(light * np.array(casts[change], np.float32), 0, 1)
        img = (scaled ** (1 / GAMMA) * 255 + 0.5).astype(np.uint8)
    elif change == "hazy":
        img = (img.astype(np.float32) * 0.6 + 60).astype(np.uint8)
    elif change == "turned a quarter":
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    elif change == "turned an eighth":
        h, w = img.shape[:2]
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), 45, 1.0)
        side = int((w + h) * math.sqrt(0.5))
        turn[:, 2] += (side - w) / 2, (side - h) / 2
        img = cv2.warpAffine(img, turn, (side, side), borderMode=cv2.BORDER_CONSTANT,
                             borderValue=_edge_colour(img))
    elif change == "a third the size":
        img = cv2.resize(img, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA)
    elif change == "blurred":
        img = cv2.GaussianBlur(img, (0, 0), 2.5)
    elif change == "on a dark table":
        img = _darker_table(img, light, GAMMA)
    elif change == "at a slant":
        from photo.synth import keystone

        img = keystone(img, SLANT, _edge_colour(img))
    else:
        raise ValueError(f"no such change: {change}")
    return bytes(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 88])[1])


def _edge_colour(img: object) -> list[int]:
    """The median colour of a photo's edges: what a turned or slanted photo's
    new corners are filled with."""
    import numpy as np

    assert isinstance(img, np.ndarray)
    edges = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    return [int(v) for v in np.median(edges, axis=0)]


SLANT = 0.25
"""Share of the photo's width each top corner moves in ("at a slant"): the
development set's cells, square in its photos (0.97-1 as wide as tall),
become 0.67-0.72 as wide as tall where the board lies, as a phone held
some 45° from straight down foreshortens them
(`tests/photo/test_photo_slant.py` renders such photos)."""

DARK_TABLE = 0.1
"""Share of its light a dark table keeps (`_darker_table`): the development
set's beech, about 0.37 (linear, brightest channel), becomes about 0.04,
dark-stained wood, still 3 to 9 times its tile bodies' 0.004-0.013."""


def _darker_table(img: object, light: object, gamma: float) -> object:
    """The photo with its table darkened to `DARK_TABLE` of its light: the
    table is every light region over 1 % of the photo (it reaches between
    the tiles) and every pixel of its colour (chromaticity within 0.1, L1)
    that those miss, feathered over two pixels. A stand-in: a real dark
    table's grain and the gaps between tiles differ."""
    import cv2
    import numpy as np

    assert isinstance(img, np.ndarray) and isinstance(light, np.ndarray)
    h, w = img.shape[:2]
    lit = (img.max(axis=2) >= 90).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(lit, connectivity=8)
    big = np.zeros(count, bool)
    big[1:] = stats[1:, cv2.CC_STAT_AREA] > 0.01 * h * w
    table = big[labels]
    pix = img.astype(np.float32) + 1
    chroma = pix / pix.sum(axis=2, keepdims=True)
    own = np.median(chroma[table], axis=0)
    table |= (np.abs(chroma - own).sum(axis=2) < 0.1) & (lit > 0)
    grown = cv2.dilate(table.astype(np.uint8), np.ones((5, 5), np.uint8))
    soft = cv2.GaussianBlur(grown.astype(np.float32), (0, 0), 2)
    dark = light * (1 - soft * (1 - DARK_TABLE))[..., None]
    return (np.clip(dark, 0, 1) ** (1 / gamma) * 255 + 0.5).astype(np.uint8)


def summary(rows: Sequence[dict[str, object]]) -> dict[str, object]:
    """Counts by kind, and seconds per photo (median, max)."""
    seconds = [float(str(r["seconds"])) for r in rows]
    return {"cases": len(rows),
            **{kind: sum(r["kind"] == kind for r in rows) for kind in KINDS},
            "median": statistics.median(seconds) if seconds else 0.0,
            "max": max(seconds, default=0.0)}
