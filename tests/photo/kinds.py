"""Kinds of photos from the benchmark's realistic sets, chosen by what each
photo is made of (its case's own metadata: the move, the paint, the lamp, the
camera), never by its number.

A test names a kind as a predicate on `synth_real.RealCase` and asserts its
rule on the smallest few photos of the kind (`of_kind`); the photos are those
`bench_photo.py --sets real` reads (`bench_photo.REAL_SEED`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from scorekeeper.photo import LOW_CONFIDENCE, PhotoReading, PhotoUnreadable, read_move

from . import synth_real
from .synth import Tile

REAL_SEED = 2020
"""`bench_photo.REAL_SEED`: the benchmark's realistic photos."""

SPAN = 1000
"""Photos of each condition a kind is looked for among."""

Kind = Callable[[synth_real.RealCase], bool]


@cache
def cases(condition: str) -> tuple[synth_real.RealCase, ...]:
    """The benchmark's photos of one condition (metadata only: cheap)."""
    return tuple(synth_real.real_cases(condition, REAL_SEED, SPAN))


@cache
def _pixels(condition: str) -> tuple[int, ...]:
    sizes = []
    for rc in cases(condition):
        tiles = rc.case.stored + rc.case.move
        w, h = synth_real.layout(tiles, rc.case.shot, rc.case.seed, False).size
        sizes.append(w * h)
    return tuple(sizes)


def of_kind(condition: str, kind: Kind, count: int = 3
            ) -> list[synth_real.RealCase]:
    """The `count` smallest photos of a kind among a condition's (the kind
    does not depend on a photo's size, and small photos keep the tests quick;
    of one size, the benchmark's first)."""
    found = [i for i, rc in enumerate(cases(condition)) if kind(rc)]
    assert len(found) >= count, f"only {len(found)} photos of the kind"
    found.sort(key=lambda i: (_pixels(condition)[i], i))
    return [cases(condition)[i] for i in found[:count]]


@cache
def _read(condition: str, index: int) -> PhotoReading | PhotoUnreadable:
    rc = cases(condition)[index]
    try:
        return read_move(synth_real.photo(rc), list(rc.case.stored))
    except PhotoUnreadable as err:
        return err


def reading(rc: synth_real.RealCase) -> PhotoReading:
    """The reading of a benchmark photo (read once however many kinds it is of)."""
    got = _read(rc.condition, cases(rc.condition).index(rc))
    if isinstance(got, PhotoUnreadable):
        raise got
    return got


def refused_or_read(rc: synth_real.RealCase) -> PhotoReading | None:
    """The reading of a benchmark photo, or None where it is refused."""
    got = _read(rc.condition, cases(rc.condition).index(rc))
    return None if isinstance(got, PhotoUnreadable) else got


# --- what a photo is made of ------------------------------------------------------

def value(rc: synth_real.RealCase, color: str) -> float:
    """How light a colour's paint is in a photo's set (HSV value, 0–1)."""
    return next(v for name, _, _, v in rc.real.paint.hsv if name == color)


def lamp(rc: synth_real.RealCase) -> Tile | None:
    """The tile a photo's lamp lies over (None without a lamp)."""
    return synth_real.lamp_tile(rc)


def off_upright(rc: synth_real.RealCase) -> float:
    """Degrees the board is turned from the photo's edges (0–45)."""
    return abs((rc.case.shot.angle + 45) % 90 - 45)


def beside(a: Tile, b: Tile) -> bool:
    """Whether two tiles lie on neighbouring cells."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


# --- what a reading promises ------------------------------------------------------

def read_right(rc: synth_real.RealCase, got: PhotoReading) -> bool:
    """Whether a reading is the photo's move (a first move either way round:
    an empty board has no frame to set it)."""
    if rc.case.stored:
        return sorted(t[:4] for t in got.tiles) == sorted(rc.case.move)
    want = [t[2:] for t in rc.case.move]
    line = [(t.color, t.shape) for t in got.tiles]
    return line in (want, want[::-1])


def right_readings(condition: str, kind: Kind, count: int
                   ) -> list[tuple[synth_real.RealCase, PhotoReading]]:
    """The readings that are the move (`read_right`) among the `count`
    smallest photos of a kind (`of_kind`); refused or misread ones left out."""
    out = []
    for rc in of_kind(condition, kind, count):
        got = refused_or_read(rc)
        if got is not None and read_right(rc, got):
            out.append((rc, got))
    return out


def read_or_warned(rc: synth_real.RealCase, got: PhotoReading,
                   warned: tuple[tuple[int, int], ...]) -> None:
    """Assert that a move of one tile is read right, or its cell is among
    the warnings given (`got.glare` or `got.unread`), and the reading honest."""
    (row, col, *_), = rc.case.move
    assert read_right(rc, got) or (row, col) in warned, rc.case.name
    honest(rc, got)


def honest(rc: synth_real.RealCase, got: PhotoReading) -> None:
    """Assert the reader's weaker promise on a benchmark photo (`honest_move`)."""
    if not rc.case.stored:
        # A first move's cells are the reading's own: compare its line.
        assert read_right(rc, got) or got.glare or got.unread or any(
            t.confidence < LOW_CONFIDENCE for t in got.tiles), got
        return
    honest_move(rc.case.move, got)


def honest_line(rc: synth_real.RealCase, got: PhotoReading) -> None:
    """Assert `honest_move` of a first move, whose cells are the reading's
    own: its line from (0, 0) one way round or the other (as the benchmark
    counts it, `benchmarks/verdicts.py`). `honest` asks less of a first
    move: a doubt on any tile."""
    line = [t[2:] for t in rc.case.move]
    failed = []
    for seq in (line, line[::-1]):
        try:
            honest_move([(0, i, *kind) for i, kind in enumerate(seq)], got)
            return
        except AssertionError as err:
            failed.append(err)
    raise failed[0]


def honest_move(move: tuple[Tile, ...] | list[Tile], got: PhotoReading) -> None:
    """Assert the reader's weaker promise (docs/PHOTO.md): every tile of the
    move is read right, or read otherwise and marked uncertain, or missing
    where the reading warns (glare or an unread tile); nothing else is sure."""
    read = {(t.row, t.col): t for t in got.tiles}
    warned = set(got.glare) | set(got.unread)
    for tile in move:
        seen = read.get(tile[:2])
        if seen is None:
            assert warned, f"{tile} missing without a word"
        elif seen[:4] != tile:
            assert seen.confidence < LOW_CONFIDENCE, f"{seen} read sure, and wrong"
    cells = {t[:2] for t in move}
    for cell, seen in read.items():
        if cell not in cells:
            assert seen.confidence < LOW_CONFIDENCE, f"{seen} is no tile of the move"


def right_and_sure(move: tuple[Tile, ...] | list[Tile], got: PhotoReading) -> bool:
    """Whether a reading is exactly the move, with no tile marked uncertain
    and nothing warned of."""
    read = sorted(t[:4] for t in got.tiles) == sorted(move)
    return read and not (got.unread or got.glare
                         or any(t.confidence < LOW_CONFIDENCE for t in got.tiles))
