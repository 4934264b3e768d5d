"""Read a move from a photo of the board: the entry point of the photo package."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from itertools import islice, product

import cv2
import numpy as np

from ..engine import CLASSIC, Board, EngineError, Variant
from . import hues
from .cells import GLARE, TILE_BODY, read_cells
from .cells import Cell as GridCell
from .classify import Classifier, Example, four_fold
from .decode import decode
from .errors import PhotoUnreadable
from .grid import Grid, find_grid, halved, refit
from .lessons import Taught
from .reading import Conflict, Look, PhotoReading, PhotoTile
from .register import Placement, register, turn

Cell = tuple[int, int]

LOW_CONFIDENCE = 0.25
"""Below this a read tile is worth a second look (the page marks it)."""

BLURRED = 0.165
"""Symbol edges wider than this share of a tile (median over the tiles) are too
blurred to tell a starburst from a circle: the photo is refused, not guessed.
Sharp photos measure 0.05–0.13 (the benchmark's blurriest small tiles)."""


SMALL = 3
"""Symbols found up to this many make a small board (see `_read`)."""


@dataclass
class _Read:
    """One tile read in the photo's own grid."""

    cell: GridCell
    color: int = 0
    shape: int = 0
    color_conf: float = 0.0
    shape_conf: float = 0.0
    color_scores: np.ndarray | None = None
    shape_scores: np.ndarray | None = None
    hue: float = 0.0
    saturation: float = 1.0
    value: float = 1.0
    glare: bool = False
    """Glare on or beside the symbol: its reading may be wrong."""
    faint: bool = False
    """Its symbol was found only as faint paint: its shape may be lost."""
    loose: bool = False
    """The board was lined up on fewer than three stored tiles (glare hid
    the others): its cell may be off."""

    @property
    def confidence(self) -> float:
        conf = min(self.color_conf, self.shape_conf)
        if self.glare or self.faint or self.loose:
            conf = min(conf, LOW_CONFIDENCE / 2)
        return round(float(conf), 3)

    def likely(self, clf: Classifier) -> tuple[tuple[str, str], ...]:
        """The kinds it may be, best first (itself first), when uncertain."""
        if self.confidence >= LOW_CONFIDENCE:
            return ()
        colors = _ranked(self.color_scores, self.color, self.color_conf)
        shapes = _ranked(self.shape_scores, self.shape, self.shape_conf)
        kinds = sorted(((pc * ps, c, s) for c, pc in colors for s, ps in shapes),
                       key=lambda x: -x[0])
        out = [(clf.colors[self.color], clf.shapes[self.shape])]
        for _, c, s in kinds:
            kind = (clf.colors[c], clf.shapes[s])
            if kind not in out:
                out.append(kind)
        return tuple(out[:4])


def _ranked(scores: np.ndarray | None, best: int, conf: float
            ) -> list[tuple[int, float]]:
    """A reading's two or three likeliest values with rough weights: the one
    read, then the runners-up, weighted by how unsure the reading was."""
    if scores is None:
        return [(best, 1.0)]
    order = [int(k) for k in np.argsort(-np.asarray(scores)) if int(k) != best][:2]
    doubt = 1.0 - conf
    return [(best, 1.0)] + [(k, doubt * (0.6 if i == 0 else 0.3))
                            for i, k in enumerate(order)]


def read_move(image: bytes, stored: Sequence[tuple[int, int, str, str]],
              variant: Variant = CLASSIC, taught: Taught | None = None
              ) -> PhotoReading:
    """Return the tiles a photo shows beyond the stored board (row, col, colour,
    shape); raise PhotoUnreadable when it cannot be read as one move. `taught`
    is what the table's confirmed moves taught (`memory`)."""
    try:
        reading = _read(image, stored, variant, taught or Taught())
    except PhotoUnreadable:
        raise
    except (cv2.error, ArithmeticError, IndexError, ValueError,
            np.linalg.LinAlgError) as exc:
        # A photo must never fail the request: an unforeseen numeric corner is
        # reported as unreadable, with the cause chained for the log.
        raise PhotoUnreadable("not_read") from exc
    return _by_the_rules(reading, stored, variant)


RULE_TRIES = 256
"""Readings of the uncertain tiles tried against the rules, likeliest first."""

RULE_READINGS = 4096
"""Readings of the uncertain tiles ranked to find those likeliest: every one
of a hand of six with four kinds each (a variant's larger hand, the first
of them)."""


def _by_the_rules(reading: PhotoReading, stored: Sequence[tuple[int, int, str, str]],
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


def _read(image: bytes, stored: Sequence[tuple[int, int, str, str]],
          variant: Variant, taught: Taught) -> PhotoReading:
    """Read a photo (see `read_move`)."""
    img = decode(image)
    grid = find_grid(img)
    # Round a small board read two cells out: a lamp over a tile at its end
    # hides the symbol there and can darken none of the rim of the next.
    margin = 2 if len(grid.centres) <= SMALL else 1
    cells = read_cells(img, grid, margin)
    grid, cells = _step_of_two(img, grid, cells, margin)
    for _ in range(3):
        # Every symbol read is a point the grid must go through: fit again
        # while that finds more tiles (a slanted board, glare on some symbols).
        found = {key: cell.centre for key, cell in cells.items()
                 if cell.is_tile and cell.centre is not None}
        if len(found) <= len(grid.centres):
            break
        grid, before = refit(grid, found), grid
        if _settled(before, grid):
            break
        again = read_cells(img, grid, margin)
        if _tile_count(again) <= len(found):
            break
        cells = again
    if _tile_on_edge(cells):
        # A tile read on the window's edge (its symbol found from the margin,
        # not by the grid) has neighbours the window does not show: a tile
        # of the move there, its symbol too dark to find, was missing without
        # a word. Read one cell further out.
        wider = read_cells(img, grid, margin + 1)
        if _tile_count(wider) >= _tile_count(cells):
            cells = wider
    reads = {key: _Read(cell, faint=key in grid.faint)
             for key, cell in cells.items() if cell.is_tile}
    reads = _main_group(reads)
    if not reads:
        raise PhotoUnreadable("no_tiles")
    if np.median([rd.cell.edge for rd in reads.values()]) > BLURRED:
        raise PhotoUnreadable("blurred")
    empty = {key for key, cell in cells.items() if cell.body < 0.25}
    clf = Classifier(variant.color_names, variant.shape_names)
    _mark_glare(reads, cells)
    # No paint at all is tile bodies, unless the set's taught white (a first
    # move of its white tiles) could be what shows.
    if _no_paint(reads) and not hues.pale_paint(
            [rd.cell.color for rd in reads.values() if rd.cell.color is not None],
            taught.pale()):
        raise PhotoUnreadable("no_tiles")
    _label(reads, clf, {}, taught, grid.pitch)
    board = {(r, c): (color, shape) for r, c, color, shape in stored}
    if not board:
        return _first_move(reads, cells, clf, variant)
    index = {(r, c): (clf.colors.index(color) if color in clf.colors else -1,
                      clf.shapes.index(shape) if shape in clf.shapes else -1)
             for (r, c), (color, shape) in board.items()}
    placement: Placement | None = None
    for _ in range(3):
        labels = {key: (rd.color, rd.shape) for key, rd in reads.items()}
        fit = register(labels, empty, index)
        if fit is None or fit == placement:
            break
        placement = fit
        # Learn this photo's light and print from the stored tiles it shows,
        # read every tile again, and see whether the board lines up otherwise.
        examples = []
        anchors = {}
        for key, rd in reads.items():
            tile = board.get(placement.to_board(key))
            cell = rd.cell
            # Not from under the lamp: a symbol read through glare keeps a
            # little of its colour, not its hue.
            if tile is not None and cell.color is not None and cell.mask is not None \
                    and cell.glare < GLARE:
                examples.append(Example(cell.color, cell.mask, *tile, key))
                anchors[key] = tile[0]
        clf.learn(examples)
        _label(reads, clf, anchors, taught, grid.pitch)
    if placement is None:
        raise PhotoUnreadable("no_match", matched=0, stored=len(board))
    joined = _joined_by_paint(reads, cells, placement, board)
    if joined:
        reads = {**reads, **joined}
        _mark_glare(reads, cells)
        _label(reads, clf, anchors, taught, grid.pitch)
    return _result(reads, cells, placement, board, clf, variant)


def _joined_by_paint(reads: dict[Cell, _Read], cells: dict[Cell, GridCell],
                     placement: Placement, board: dict[Cell, tuple[str, str]]
                     ) -> dict[Cell, _Read]:
    """Tiles read from paint on a rim too light to vouch for a tile
    (`cells.Cell.probe`), where they join the new tiles, which touch nothing,
    to the board along their line (RULES §3.4), marked uncertain; else none.
    A dark green diamond's rim in cool light was 0.73 dark, under the 0.75
    that vouches for a tile: the move's other tile, beyond it, touched
    nothing and the photo was refused."""
    new = [key for key in reads if placement.to_board(key) not in board]

    def touches(key: Cell) -> bool:
        r, c = placement.to_board(key)
        return any((r + dr, c + dc) in board for dr, dc in SIDES)

    if not new or any(touches(key) for key in new):
        return {}
    for (r, c), (dr, dc) in _line_ends(new):
        joined = {}
        while (r + dr, c + dc) not in reads and \
                (cell := cells.get((r + dr, c + dc))) is not None and \
                cell.probe is not None:
            r, c = r + dr, c + dc
            joined[(r, c)] = _Read(cell.probe, faint=True)
            if touches((r, c)):
                return joined
    return {}


SETTLED = 0.05
"""A refit that moves no cell more than this share of a step reads nothing
new (`_settled`)."""


def _settled(before: Grid, after: Grid) -> bool:
    """True when reading the cells again on the refitted grid would read them
    as before: its window is the same, and no cell moved more than `SETTLED`
    of a step (one more symbol in a board of fifty hardly moves it; reading
    again cost a third of a phone photo's time)."""
    def bounds(grid: Grid) -> tuple[int, int, int, int]:
        rows = [r for r, _ in grid.centres]
        cols = [c for _, c in grid.centres]
        return min(rows), min(cols), max(rows), max(cols)

    if bounds(before) != bounds(after):
        return False
    lattice = np.array([[(c, r) for r, c in after.centres]], np.float64)
    moved = cv2.perspectiveTransform(lattice, after.homography) - \
        cv2.perspectiveTransform(lattice, before.homography)
    return float(np.linalg.norm(moved[0], axis=1).max()) < SETTLED * before.pitch


STEP_OF_TWO = 0.4
"""A symbol's extent over the grid's step below which the step may be two
tiles: symbols fill 50-80 % of a tile (rotated, their box no less than 0.36
of the step in the benchmark's photos); two tiles apart, 28-34 %."""

FEW_SYMBOLS = 3
"""Up to this many symbols, none of them may be a tile apart."""


def _step_of_two(img: np.ndarray, grid: Grid, cells: dict[Cell, GridCell],
                 margin: int) -> tuple[Grid, dict[Cell, GridCell]]:
    """The grid and its cells read again at half the step, where the few
    symbols found lie two tiles apart with a tile read between each two: a
    first move of three whose middle symbol is dark paint on a dark table
    (or the table's own colour) was read as two neighbours, the middle tile
    missing without a word."""
    keys = list(grid.centres)
    if not 1 < len(keys) <= FEW_SYMBOLS or grid.symbol >= STEP_OF_TWO * grid.pitch:
        return grid, cells
    half = halved(grid)
    between = {(r0 + r1, c0 + c1) for i, (r0, c0) in enumerate(keys)
               for r1, c1 in keys[i + 1:] if abs(r0 - r1) + abs(c0 - c1) == 1}
    if not between:
        return grid, cells
    again = read_cells(img, half, margin)
    if all((cell := again.get(key)) is not None and cell.is_tile for key in between):
        return half, again
    return grid, cells


SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""The four cells beside a cell, (row, col) steps."""


def _unseen(reads: dict[Cell, _Read], cells: dict[Cell, GridCell],
            placement: Placement) -> set[Cell]:
    """Board cells the photo shows but cannot read: blown out by a lamp, or a
    tile body whose symbol was not read. A tile of the move may lie there."""
    return {placement.to_board(key) for key, cell in cells.items()
            if key not in reads and (cell.glare >= GLARE or cell.body >= UNREAD_BODY)}


def _line_ends(new: Collection[Cell]) -> list[tuple[Cell, Cell]]:
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


def _bridged(new: list[Cell], board: Collection[Cell], unseen: set[Cell]) -> bool:
    """True when the new tiles reach the board along their line through cells
    the photo cannot read (a move of two whose tile beside the board is under
    the lamp: the far one alone was refused as not touching the board)."""
    for (r, c), (dr, dc) in _line_ends(new):
        while (r + dr, c + dc) in unseen:
            r, c = r + dr, c + dc
            if any((r + a, c + b) in board for a, b in SIDES):
                return True
    return False


def _no_paint(reads: dict[Cell, _Read]) -> bool:
    """True when no tile read shows paint: every "symbol" is colourless and
    none is under glare (which whitens real paint). No paint is grey, so such
    a reading found tile bodies, not symbols: a grid a tile off, its step
    taken from two symbols two tiles apart, reads grey bodies between them
    and leaves tiles out without a word."""
    colors = [rd.cell.color for rd in reads.values()
              if rd.cell.color is not None and not rd.glare]
    return len(colors) == len(reads) and all(
        hues.hsv(np.asarray(c))[1] < hues.GREY for c in colors)


def _main_group(reads: dict[Cell, _Read]) -> dict[Cell, _Read]:
    """Keep the largest group of tiles: the board. Tiles lying elsewhere on the
    table are not part of it; a tile or two left unread within the board must
    not split it, so tiles up to two cells apart count as one group."""
    left = set(reads)
    best: set[Cell] = set()
    near = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
    while left:
        start = left.pop()
        group = {start}
        todo = [start]
        while todo:
            r, c = todo.pop()
            for n in ((r + dr, c + dc) for dr, dc in near):
                if n in left:
                    left.discard(n)
                    group.add(n)
                    todo.append(n)
        if len(group) > len(best):
            best = group
    return {key: reads[key] for key in best}


def _mark_glare(reads: dict[Cell, _Read], cells: dict[Cell, GridCell]) -> None:
    """Mark the read tiles with glare on them or on a neighbouring cell."""
    for key, rd in reads.items():
        rd.glare = _under_glare(key, cells)


def _under_glare(key: Cell, cells: dict[Cell, GridCell]) -> bool:
    """True when glare blew out the cell or one beside it."""
    r, c = key
    return any((n := cells.get((r + dr, c + dc))) is not None and n.glare >= GLARE
               for dr in (-1, 0, 1) for dc in (-1, 0, 1) if not (dr and dc))


def _glare_cells(reads: Collection[Cell], cells: dict[Cell, GridCell]
                 ) -> list[Cell]:
    """Cells (photo grid) next to the read tiles, or on them, where glare blew
    the photo out: a tile may hide there."""
    near = {(r + dr, c + dc) for r, c in reads for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)}
    return sorted(key for key in near
                  if (cell := cells.get(key)) is not None and cell.glare >= GLARE)


def _tile_count(cells: dict[Cell, GridCell]) -> int:
    """How many of the cells show a tile with a readable symbol."""
    return sum(cell.is_tile for cell in cells.values())


def _tile_on_edge(cells: dict[Cell, GridCell]) -> bool:
    """True when a tile is on the outermost row or column of the cells: read,
    or a tile body or painted symbol not read (in cool light, a dark red
    diamond unread on the edge left the move's dark red circle two cells
    beyond it missing without a word)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    if not rows:
        return False
    edge_rows, edge_cols = (min(rows), max(rows)), (min(cols), max(cols))
    return any((cell.is_tile or _unread_tile(cell))
               and (r in edge_rows or c in edge_cols)
               for (r, c), cell in cells.items())


UNREAD_BODY = TILE_BODY
"""A cell's rim this dark is a tile body even without a readable symbol."""

SURE_CONFLICT = 0.15
"""A stored tile read otherwise with less confidence than this says nothing
against where the board lies (a blurred symbol is not a drifted board)."""


def _unread_cells(reads: Collection[Cell], cells: dict[Cell, GridCell],
                  new: Collection[Cell] = ()) -> list[Cell]:
    """Cells next to the read tiles (photo grid) that show a tile body but no
    readable symbol, or a painted symbol on a rim too light to vouch for a
    tile (`cells.HALF_BODY`); next to a tile of the move (`new`), on a rim
    lighter still (`cells.FAINT_BODY`)."""
    near = {(r + dr, c + dc) for r, c in reads for dr, dc in SIDES}
    beside_new = {(r + dr, c + dc) for r, c in new for dr, dc in SIDES}
    return sorted(key for key in near - set(reads)
                  if (cell := cells.get(key)) is not None
                  and _unread_tile(cell, beside_move=key in beside_new))


def _unread_tile(cell: GridCell, beside_move: bool = False) -> bool:
    """True when a tile may lie on the cell but was not read: a tile body
    without a readable symbol, or paint on a rim too light to vouch for one
    (`cells.Cell.hint`; beside a tile of the move, on a lighter rim too)."""
    return not cell.is_tile and (cell.body >= UNREAD_BODY or cell.hint
                                 or (beside_move and cell.paint))


def _label(reads: dict[Cell, _Read], clf: Classifier, anchors: dict[Cell, str],
           taught: Taught, pitch: float | None = None) -> None:
    """Name each read tile's colour (all together, from this photo's own
    hues: `hues`) and shape; `anchors` are the stored colours of read tiles
    that lie on stored ones; `pitch` is the tile's size in the photo."""
    keys = [key for key, rd in reads.items()
            if rd.cell.color is not None and rd.cell.mask is not None]
    named: list[hues.Named] | None = None
    pale = taught.pale()
    if hues.known(clf.colors):
        measured = [hues.hsv(np.asarray(reads[key].cell.color)) for key in keys]
        named = hues.name_colors(
            [h for h, _, _ in measured], [s for _, s, _ in measured], clf.colors,
            {i: anchors[key] for i, key in enumerate(keys) if key in anchors},
            taught.hues(), pale,
        )
        for key, (h, s, v) in zip(keys, measured, strict=True):
            reads[key].hue, reads[key].saturation, reads[key].value = h, s, v
    for i, key in enumerate(keys):
        rd = reads[key]
        assert rd.cell.color is not None and rd.cell.mask is not None
        if named is not None:
            rd.color, rd.color_conf = named[i].index, named[i].confidence
            rd.color_scores = -named[i].costs
            if measured[i][1] < hues.GREY and clf.colors[named[i].index] not in pale:
                # No paint is grey: a colourless "symbol" is something else
                # (a tile body lighter than a dark table, a grid a tile off).
                rd.color_conf = min(rd.color_conf, LOW_CONFIDENCE / 2)
        else:
            color = clf.color(rd.cell.color)
            rd.color, rd.color_conf = color.index, color.confidence
            rd.color_scores = color.scores
        shape = clf.shape(rd.cell.mask, key, taught.four_fold(), pitch)
        rd.shape, rd.shape_conf = shape.index, shape.confidence
        rd.shape_scores = shape.scores


BREAKS_RULE = 0.5
"""A reading that breaks the move's shared attribute and is less sure than
this takes the shared value (and is marked uncertain either way)."""


def _one_attribute(new: list[tuple[Cell, _Read]]) -> None:
    """Tiles placed in one move share their colour or their shape (RULES §3):
    when their colours all differ, their shapes must agree, and the other way
    round. A doubtful reading that breaks this is read as the shared value; a
    clear one is left for the engine to refuse. Both are marked uncertain."""
    if len(new) < 2:
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
            setattr(rd, f"{attr}_conf", min(conf, LOW_CONFIDENCE / 2))
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
                        min(getattr(rd, f"{other}_conf"), LOW_CONFIDENCE / 2))


def _first_move(reads: dict[Cell, _Read], grid_cells: dict[Cell, GridCell],
                clf: Classifier, variant: Variant) -> PhotoReading:
    """An empty board: the tiles in a frame of their own, in row 0 from (0, 0)."""
    reads = _doubtful_off_line(reads, set(reads))
    cells = list(reads)
    if len(cells) > variant.hand_size:
        raise PhotoUnreadable("too_many_tiles", count=len(cells),
                              limit=variant.hand_size)
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        raise PhotoUnreadable("not_one_line", cells=sorted(cells))
    _one_attribute(list(reads.items()))
    quarter = 0 if len(rows) == 1 else 1
    turned = {turn(cell, quarter): rd for cell, rd in reads.items()}
    r0 = min(r for r, _ in turned)
    c0 = min(c for _, c in turned)
    tiles = tuple(
        PhotoTile(r - r0, c - c0, clf.colors[rd.color], clf.shapes[rd.shape],
                  rd.confidence, rd.likely(clf))
        for (r, c), rd in sorted(turned.items())
    )
    looks = tuple(_look(r - r0, c - c0, rd)
                  for (r, c), rd in sorted(turned.items()) if rd.cell.mask is not None)
    glare = tuple((r - r0, c - c0) for r, c in
                  (turn(cell, quarter) for cell in _glare_cells(reads, grid_cells)))
    unread = tuple((r - r0, c - c0) for r, c in
                   (turn(cell, quarter)
                    for cell in _unread_cells(reads, grid_cells, reads)))
    return PhotoReading(tiles, 0, (), 0, glare, looks, unread)


def _doubtful_off_line(reads: dict[Cell, _Read], new: set[Cell]
                       ) -> dict[Cell, _Read]:
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


def _guessed(reads: dict[Cell, _Read], placement: Placement,
             board: dict[Cell, tuple[str, str]], clf: Classifier) -> list[PhotoTile]:
    """The new tiles, each marked uncertain: the board they were placed by,
    or the way they join it, is too little to be sure of."""
    new = []
    for key, rd in reads.items():
        at = placement.to_board(key)
        if at not in board:
            rd.loose = True
            new.append(PhotoTile(at[0], at[1], clf.colors[rd.color],
                                 clf.shapes[rd.shape], rd.confidence, rd.likely(clf)))
    return new


def _result(reads: dict[Cell, _Read], cells: dict[Cell, GridCell],
            placement: Placement, board: dict[Cell, tuple[str, str]],
            clf: Classifier, variant: Variant) -> PhotoReading:
    """Sort the read tiles into matched, conflicting and new; check the move."""
    new_keys = {key for key in reads if placement.to_board(key) not in board}
    reads = _doubtful_off_line(reads, new_keys)
    _one_attribute([(key, rd) for key, rd in reads.items() if key in new_keys])
    matched = guessed = 0
    conflicts = []
    new = []
    looks = []
    stored_looks: list[Look] = []
    for key, rd in reads.items():
        at = placement.to_board(key)
        tile = board.get(at)
        seen = (clf.colors[rd.color], clf.shapes[rd.shape])
        if tile is not None and rd.cell.mask is not None and not rd.glare:
            # Read as stored or not: the stored board says what it is.
            stored_looks.append(_look(*at, rd))
        if tile is None:
            new.append(PhotoTile(at[0], at[1], seen[0], seen[1], rd.confidence,
                                 rd.likely(clf)))
            if rd.cell.mask is not None:
                looks.append(_look(*at, rd))
        elif tile == seen:
            matched += 1
        else:
            wrong = []
            if tile[0] != seen[0]:
                wrong.append(rd.color_conf)
            if tile[1] != seen[1]:
                wrong.append(rd.shape_conf)
            conflicts.append(Conflict(at[0], at[1], tile, seen, round(min(wrong), 3)))
            if max(wrong) < SURE_CONFLICT:
                # Unsure in all it gets wrong (a lamp over the symbol): the
                # tile is as good as unread, whatever the guess.
                guessed += 1
    seen_cells = {placement.to_board(key) for key in cells}
    in_view = sum(1 for cell in board if cell in seen_cells)
    # Stored tiles the photo shows but cannot read (glare on or beside their
    # cell, or a tile body whose symbol was not read) say nothing against
    # the placement: a lamp over a small board can leave two stored tiles to
    # line it up by. Lined up on so few, the new tiles are marked uncertain.
    hidden = {key for key, cell in cells.items()
              if key not in reads and placement.to_board(key) in board
              and (_under_glare(key, cells) or cell.hint
                   or cell.body >= UNREAD_BODY)}
    unreadable = len(hidden) + guessed
    least = max(min(2, len(board)), min(3, len(board) - unreadable))
    # More than half of the readable stored tiles in view: where only half
    # lie where the placement puts them, the other half say it is off as
    # surely (a grid half a tile off over part of the board, its tiles
    # unread, and a tile of the move among them missing without a word).
    if matched < least or matched <= 0.5 * (in_view - unreadable):
        raise PhotoUnreadable("no_match", matched=matched, stored=len(board))
    if matched < min(3, len(board)):
        new = _guessed(reads, placement, board, clf)
    new.sort()
    if len(new) > variant.hand_size:
        raise PhotoUnreadable("too_many_tiles", count=len(new), limit=variant.hand_size)
    if new:
        rows = {t.row for t in new}
        cols = {t.col for t in new}
        touches = any((t.row + dr, t.col + dc) in board
                      for t in new for dr, dc in SIDES)
        cells_of = [(t.row, t.col) for t in new]
        if (len(rows) > 1 and len(cols) > 1) or not (
                touches or _bridged(cells_of, board, _unseen(reads, cells, placement))):
            raise PhotoUnreadable("not_one_line", cells=cells_of)
        if not touches:
            # Joined to the board only through a cell the photo cannot show:
            # the move's tile there is missing, and the others are a guess.
            new = sorted(_guessed(reads, placement, board, clf))
    # Only confident contradictions: a blurred symbol is not a drifted board.
    sure = tuple(sorted(c for c in conflicts if c.confidence >= SURE_CONFLICT))
    # The board the photo shows: the tiles read and the stored ones it
    # hides; glare or a tile body beside a hidden one is beside the board.
    shown = set(reads) | hidden
    glare = tuple(sorted(placement.to_board(key) for key in _glare_cells(shown, cells)))
    unread = tuple(sorted(
        at for at in (placement.to_board(key)
                      for key in _unread_cells(shown, cells, new_keys & set(reads)))
        if at not in board))
    return PhotoReading(tuple(new), matched, sure, in_view, glare,
                        tuple(sorted(looks)), unread, tuple(sorted(stored_looks)))


def _look(row: int, col: int, rd: _Read) -> Look:
    """What a read tile (its symbol read) looked like, on a board cell."""
    assert rd.cell.mask is not None
    return Look(row, col, round(rd.hue, 2), round(four_fold(rd.cell.mask), 4),
                round(rd.saturation, 3), round(rd.value, 3))
