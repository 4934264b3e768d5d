"""Check the move against the rules (RULES §3): one line whose tiles share
one attribute. Doubtful readings that break it take the shared one; where
the rules refuse the move as read, the likeliest reading they allow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice, product

import numpy as np

from ..engine import Board, EngineError, Variant
from .reading import Cell, PhotoReading, PhotoTile
from .tiles import DOUBTFUL, ReadTile

RULE_TRIES = 256
"""Readings tried against the rules, likeliest first (each an engine check)."""

RULE_READINGS = 4096
"""Readings ranked: all of a hand of six with four kinds each."""

BREAKS_RULE = 0.5
"""Confidence under which a reading breaking the shared attribute takes it
(the renders)."""


def by_the_rules(reading: PhotoReading, stored: Sequence[tuple[int, int, str, str]],
                  variant: Variant) -> PhotoReading:
    """The reading, or where the rules refuse it, the likeliest they allow
    among its uncertain tiles' kinds (`PhotoTile.likely`), still uncertain;
    where they allow none, every new tile uncertain (`_doubted`): misread,
    or a move the players must take back."""
    tiles = reading.tiles
    if not tiles:
        return reading
    try:
        board = Board.laid(stored, variant)
    except EngineError:
        return reading
    if _allowed(board, tiles):
        return reading
    options = [t.likely or ((t.color, t.shape),) for t in tiles]

    def cost(ranks: tuple[int, ...]) -> tuple[int, float]:
        # One runner-up before two; among as many, those of the least sure tiles.
        return sum(ranks), sum(t.confidence for t, k in zip(tiles, ranks, strict=True)
                               if k)

    readings = sorted(islice(product(*(range(len(o)) for o in options)),
                             RULE_READINGS), key=cost)
    for ranks in readings[1:RULE_TRIES]:
        kinds = [option[k] for option, k in zip(options, ranks, strict=True)]
        tried = tuple(
            t._replace(color=kind[0], shape=kind[1],
                    likely=(kind, *(other for other in t.likely if other != kind))
                    if t.likely else ())
            for t, kind in zip(tiles, kinds, strict=True))
        if _allowed(board, tried):
            return replace(reading, tiles=tried)
    return replace(reading, tiles=tuple(map(_doubted, tiles)))


def _doubted(tile: PhotoTile) -> PhotoTile:
    """A tile of a move the rules refuse, as read: at most `DOUBTFUL` sure
    (a stored tile a loose lattice slipped a cell reads as a new one beside
    itself, RULES §3.5), its kinds to look at itself first."""
    return tile._replace(confidence=min(tile.confidence, DOUBTFUL),
                         likely=tile.likely or ((tile.color, tile.shape),))


def _allowed(board: Board, tiles: Sequence[PhotoTile]) -> bool:
    """True when the rules allow these tiles as one move on the board."""
    try:
        board.check([(t.row, t.col, t.color, t.shape) for t in tiles])
    except EngineError:
        return False
    return True


def one_attribute(new: list[tuple[Cell, ReadTile]]) -> None:
    """A move's tiles share colour or shape (RULES §3): a doubtful reading that
    breaks it takes the shared value, a clear one is left for the engine; both
    are marked uncertain, as are two tiles of one line read alike (§3.5)."""
    if len(new) <= 1:
        return
    reads = [rd for _, rd in new]
    for attr, other in (("shape", "color"), ("color", "shape")):
        if len({getattr(rd, other) for rd in reads}) != len(reads):
            continue
        if len({getattr(rd, attr) for rd in reads}) == 1:
            continue
        scores = [getattr(rd, f"{attr}_scores") for rd in reads]
        if any(s is None for s in scores):
            continue
        shared = int(np.argmax(np.sum(scores, axis=0)))
        for rd in reads:
            conf = getattr(rd, f"{attr}_conf")
            if getattr(rd, attr) == shared:
                continue
            if conf < BREAKS_RULE:
                setattr(rd, attr, shared)
            # Either misread or an illegal move: either way worth a look.
            setattr(rd, f"{attr}_conf", min(conf, DOUBTFUL))
    for attr, other in (("shape", "color"), ("color", "shape")):
        # Either of two read alike may be the misread one (a dark orange
        # beside a red, both read red).
        if len({getattr(rd, attr) for rd in reads}) != 1:
            continue
        count = Counter(getattr(rd, other) for rd in reads)
        for rd in reads:
            if count[getattr(rd, other)] > 1:
                setattr(rd, f"{other}_conf",
                        min(getattr(rd, f"{other}_conf"), DOUBTFUL))


def doubtful_off_line(reads: dict[Cell, ReadTile], new: set[Cell]
                       ) -> dict[Cell, ReadTile]:
    """The reads without new tiles read only through a lamp's wash or beside
    glare off the line of those read plainly (its cell stays a glare warning)."""
    if len({r for r, _ in new}) <= 1 or len({c for _, c in new}) <= 1:
        return reads
    plain = [key for key in new if not (reads[key].cell.washed or reads[key].glare)]
    rows, cols = {r for r, _ in plain}, {c for _, c in plain}
    return {key: rd for key, rd in reads.items()
            if not plain or key not in new or key in plain
            or (len(rows) == 1 and key[0] in rows)
            or (len(cols) == 1 and key[1] in cols)}
