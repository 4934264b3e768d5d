"""Check the move against the rules (RULES §3): what the new tiles
read may be, given that one move is one line sharing one attribute.

Takes the tiles read (`tiles.ReadTile`, or the `PhotoReading` made of them)
and the stored board; gives the reading the rules allow: doubtful readings
that break the move's shared attribute take the shared one, and where the
rules refuse the move as read, the likeliest reading among its uncertain
tiles' `likely` kinds that they allow. Its thresholds, named at its top:
`BREAKS_RULE`, `RULE_TRIES` and `RULE_READINGS`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace
from itertools import islice, product

import numpy as np

from ..engine import Board, EngineError, Variant
from .reading import PhotoReading, PhotoTile
from .tiles import DOUBTFUL, Cell, ReadTile

SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""The four cells beside a cell, (row, col) steps."""

RULE_TRIES = 256
"""Readings of the uncertain tiles tried against the rules, likeliest first
(a count, for time: each is one engine check)."""

RULE_READINGS = 4096
"""Readings of the uncertain tiles ranked to find those likeliest: every one
of a hand of six with four kinds each (a variant's larger hand, the first
of them)."""

BREAKS_RULE = 0.5
"""Confidence (0 to 1): a reading that breaks the move's shared attribute
and is less sure than this takes the shared value (and is marked uncertain
either way). Set on the renders."""


def by_the_rules(reading: PhotoReading, stored: Sequence[tuple[int, int, str, str]],
                  variant: Variant) -> PhotoReading:
    """The reading, or where the rules refuse it as read, the likeliest one
    they allow among what its uncertain tiles may be (`PhotoTile.likely`).

    A blurred square and a clover overlap their templates alike (0.949
    against 0.950 in one glare photo): where only one of them fits the line, the
    rules tell them apart as the eye could not. The tiles stay uncertain,
    so the table still looks; their likeliest kinds now lead with the
    reading the rules allow."""
    tiles = reading.tiles
    if not any(t.likely for t in tiles):
        return reading
    try:
        board = Board.laid(stored, variant)
    except EngineError:
        return reading
    if _allowed(board, tiles):
        return reading
    options = [t.likely or ((t.color, t.shape),) for t in tiles]

    def cost(ranks: tuple[int, ...]) -> tuple[int, float]:
        # By the sum of each tile's rank among its kinds: one runner-up before
        # two; among as many, the runners-up of the tiles read least surely
        # (a red and an orange in one line, both read orange, in a first
        # move where the red was the less sure of the two).
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
    return reading


def _allowed(board: Board, tiles: Sequence[PhotoTile]) -> bool:
    """True when the rules allow these tiles as one move on the board."""
    try:
        board.check([(t.row, t.col, t.color, t.shape) for t in tiles])
    except EngineError:
        return False
    return True


def one_attribute(new: list[tuple[Cell, ReadTile]]) -> None:
    """Tiles placed in one move share their colour or their shape (RULES §3):
    when their colours all differ, their shapes must agree, and the other way
    round. A doubtful reading that breaks this is read as the shared value; a
    clear one is left for the engine to refuse. Both are marked uncertain."""
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
        # One shape, so every colour differs (RULES §3.5, no duplicate tile):
        # two tiles read alike are one misread, and either may be it (a dark
        # orange beside a red, both read red).
        if len({getattr(rd, attr) for rd in reads}) != 1:
            continue
        count = Counter(getattr(rd, other) for rd in reads)
        for rd in reads:
            if count[getattr(rd, other)] > 1:
                setattr(rd, f"{other}_conf",
                        min(getattr(rd, f"{other}_conf"), DOUBTFUL))


def line_ends(new: Collection[Cell]) -> list[tuple[Cell, Cell]]:
    """Each end of the new tiles' line, with the step (rows, columns) out of
    it: along the row or the column they share (both, for a lone tile)."""
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    steps = ([(0, 1), (0, -1)] if len(rows) == 1 else []) + \
        ([(1, 0), (-1, 0)] if len(cols) == 1 else [])
    ends = []
    for dr, dc in steps:
        ends.append((max(new, key=lambda t: t[0] * dr + t[1] * dc), (dr, dc)))
    return ends


def bridged(new: list[Cell], board: Collection[Cell], unseen: set[Cell]) -> bool:
    """True when the new tiles reach the board along their line through cells
    the photo cannot read (a move of two whose tile beside the board is under
    the lamp: the far one alone was refused as not touching the board)."""
    for (r, c), (dr, dc) in line_ends(new):
        while (r + dr, c + dc) in unseen:
            r, c = r + dr, c + dc
            if any((r + a, c + b) in board for a, b in SIDES):
                return True
    return False


def doubtful_off_line(reads: dict[Cell, ReadTile], new: set[Cell]
                       ) -> dict[Cell, ReadTile]:
    """The reads without the doubtful new tiles that break the move's line: a
    tile read only through a lamp's wash (`cells.Cell.washed`) or beside glare,
    off the line of the new tiles read plainly. Such a guess at a lit empty
    cell made a move of two "not one line" and the photo was refused (in
    glare, and in a rendered board); its cell stays a glare warning."""
    if len({r for r, _ in new}) <= 1 or len({c for _, c in new}) <= 1:
        return reads
    plain = [key for key in new
             if not (reads[key].cell.washed or reads[key].glare)]
    if not plain:
        return reads
    rows = {r for r, _ in plain}
    cols = {c for _, c in plain}

    def in_line(key: Cell) -> bool:
        return (len(rows) == 1 and key[0] in rows) or \
            (len(cols) == 1 and key[1] in cols)

    return {key: rd for key, rd in reads.items()
            if key not in new or key in plain or in_line(key)}
