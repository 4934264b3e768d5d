"""The move the photo shows: the tiles read, placed on the stored board
(`register`), sorted into stored tiles matched, stored tiles read otherwise
and new tiles, with the warnings (glare, a tile unread). Raises
`PhotoUnreadable` when too few stored tiles match, too many tiles are new,
or the new ones are not one line joined to the board.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..engine import Variant
from .cells import GLARE, TILE_BODY, may_hide_tile
from .cells import Cell as GridCell
from .classify import Classifier
from .errors import PhotoUnreadable
from .reading import SIDES, Cell, Conflict, Look, PhotoReading, PhotoTile
from .register import Placement, turn
from .rules import doubtful_off_line, one_attribute
from .tiles import DOUBTFUL, ReadTile, under_glare

SURE_CONFLICT = 0.15
"""Confidence under which a stored tile read otherwise says nothing against
the placement (realistic glare, a lamp over a stored tile)."""

MISNAMED = 2
"""Stored tiles the photo shows (clear of glare and faint paint) whose shape
the shape model names wrongly as one shape, less those it names so rightly,
from which that shape is doubtful in the photo (`_doubt_misnamed`). On
`benchmarks/bench_screen.py`'s 1,708 photos, doubting each colour or shape
any stored tile was named wrongly turned 69 right readings unsure, each
named wrongly and surely 25, to make one confident wrong reading unsure;
from two, it turns that one and no right reading (the development set's
readings unchanged)."""


def first_move(reads: dict[Cell, ReadTile], grid_cells: dict[Cell, GridCell],
               found: Collection[Cell], clf: Classifier, variant: Variant
               ) -> PhotoReading:
    """An empty board: the tiles in a frame of their own, in row 0 from (0, 0);
    `found`: cells where a symbol was found and no tile read, warned of."""
    reads = doubtful_off_line(reads, set(reads))
    _one_line(sorted(reads), variant, first=True)
    one_attribute(list(reads.items()))
    quarter = 0 if len({r for r, _ in reads}) == 1 else 1
    turned = [turn(cell, quarter) for cell in reads]
    at = Placement(quarter, (-min(r for r, _ in turned),
                             -min(c for _, c in turned))).to_board
    tiles = tuple(_tiles(reads, set(reads), at, clf))
    looks = tuple(sorted(_look(*at(key), rd) for key, rd in reads.items()
                         if rd.cell.mask is not None))
    glare = tuple(at(key) for key in _glare_cells(reads, grid_cells))
    unread = {at(key) for key in _unread_cells(reads, grid_cells, reads, found)}
    unread |= _gaps([(t.row, t.col) for t in tiles], {})
    return PhotoReading(tiles, 0, (), 0, glare, looks, tuple(sorted(unread)))


def _tiles(reads: dict[Cell, ReadTile], keys: set[Cell],
           at: Callable[[Cell], Cell], clf: Classifier) -> list[PhotoTile]:
    """The tiles read on `keys` as new tiles on the board (`at`), in line order."""
    return sorted(PhotoTile(*at(key), clf.colors[rd.color], clf.shapes[rd.shape],
                            rd.confidence, rd.likely(clf))
                  for key, rd in reads.items() if key in keys)


def placed_move(reads: dict[Cell, ReadTile], cells: dict[Cell, GridCell],
                found: Collection[Cell], placement: Placement,
                board: dict[Cell, tuple[str, str]], clf: Classifier,
                variant: Variant) -> PhotoReading:
    """Sort the read tiles into matched, conflicting and new; check the move
    (`found`: as `first_move`'s)."""
    new_keys = {key for key in reads if placement.to_board(key) not in board}
    reads = doubtful_off_line(reads, new_keys)
    one_attribute([(key, rd) for key, rd in reads.items() if key in new_keys])
    matched = guessed = 0
    conflicts = []
    # Per shape name, stored tiles named so wrongly less those named so rightly.
    wrongly: dict[str, int] = {}
    looks = []
    stored_looks: list[Look] = []
    for key, rd in reads.items():
        at = placement.to_board(key)
        tile = board.get(at)
        seen = (clf.colors[rd.color], clf.shapes[rd.shape])
        if tile is not None and rd.cell.mask is not None and not rd.glare:
            # Read as stored or not: the stored board says what it is.
            stored_looks.append(_look(*at, rd))
            if not rd.faint:
                slip = 1 if tile[1] != seen[1] else -1
                wrongly[seen[1]] = wrongly.get(seen[1], 0) + slip
        if tile is None:
            if rd.cell.mask is not None:
                looks.append(_look(*at, rd))
        elif tile == seen:
            matched += 1
        else:
            confs = (rd.color_conf, rd.shape_conf)
            wrong = [conf for was, now, conf in zip(tile, seen, confs, strict=True)
                     if was != now]
            conflicts.append(Conflict(at[0], at[1], tile, seen, round(min(wrong), 3)))
            if max(wrong) < SURE_CONFLICT:
                # Unsure in all it gets wrong (a lamp over the symbol): the
                # tile is as good as unread, whatever the guess.
                guessed += 1
    in_view = len(board.keys() & {placement.to_board(key) for key in cells})
    # Stored tiles the photo shows but cannot read say nothing against the
    # placement.
    hidden = {key for key, cell in cells.items()
              if key not in reads and placement.to_board(key) in board
              and (under_glare(key, cells) or cell.hint
                   or cell.body >= TILE_BODY)}
    unreadable = len(hidden) + guessed
    least = max(min(2, len(board)), min(3, len(board) - unreadable))
    # More than half of the readable stored tiles in view, or the other half
    # say as surely that it is off.
    if matched < least or matched <= 0.5 * (in_view - unreadable):
        raise PhotoUnreadable("no_match", matched=matched, stored=len(board))
    _doubt_misnamed(reads, new_keys, {name for name, more in wrongly.items()
                                      if more >= MISNAMED}, clf)
    new = _tiles(reads, new_keys, placement.to_board, clf)
    cells_of = [(t.row, t.col) for t in new]
    _one_line(cells_of, variant)
    if new and not any((r + dr, c + dc) in board
                       for r, c in cells_of for dr, dc in SIDES):
        raise PhotoUnreadable("not_one_line", cells=cells_of)
    # Only confident contradictions: a blurred symbol is not a drifted board.
    sure = tuple(sorted(c for c in conflicts if c.confidence >= SURE_CONFLICT))
    shown = set(reads) | hidden

    def open_cells(keys: Collection[Cell]) -> set[Cell]:
        # A stored tile's cell holds no tile of the move: a warning there
        # (glare, a tile unread) hides none.
        return {at for at in map(placement.to_board, keys) if at not in board}

    glare = tuple(sorted(open_cells(_glare_cells(shown, cells))))
    unread = open_cells(_unread_cells(shown, cells, new_keys & set(reads), found))
    unread |= _gaps(cells_of, board)
    return PhotoReading(tuple(new), matched, sure, in_view, glare,
                        tuple(sorted(looks)), tuple(sorted(unread)),
                        tuple(sorted(stored_looks)))


def _doubt_misnamed(reads: dict[Cell, ReadTile], new_keys: Collection[Cell],
                    misnamed: Collection[str], clf: Classifier) -> None:
    """At most `DOUBTFUL` sure of a new tile's shape where the shape model
    names the photo's stored tiles so wrongly (`MISNAMED`): in this photo's
    focus and light it confuses that shape with another."""
    for key in new_keys & reads.keys():
        if clf.shapes[reads[key].shape] in misnamed:
            reads[key].shape_conf = min(reads[key].shape_conf, DOUBTFUL)


def _one_line(cells: list[Cell], variant: Variant, first: bool = False) -> None:
    """Refuse new tiles (sorted) more than a hand, or not in one line; `first`:
    on an empty board (the refusal says so: lay the tiles touching)."""
    said = {"first_move": True} if first else {}
    if len(cells) > variant.hand_size:
        raise PhotoUnreadable("too_many_tiles", count=len(cells),
                              limit=variant.hand_size, **said)
    if len({r for r, _ in cells}) > 1 and len({c for _, c in cells}) > 1:
        raise PhotoUnreadable("not_one_line", cells=cells, **said)


def _gaps(line: list[Cell], board: Collection[Cell]) -> set[Cell]:
    """Empty cells between the new tiles of one line (`_one_line` passed;
    board coordinates): a move is one unbroken line (RULES §3.2), so a tile
    there went unread (dark paint on a tile body as light as it)."""
    if not line:
        return set()
    (r0, c0), (r1, c1) = min(line), max(line)
    span = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
    return span - set(line) - set(board)


def _look(row: int, col: int, rd: ReadTile) -> Look:
    """What a read tile looked like, on a board cell."""
    hue, saturation, value = rd.hsv
    return Look(row, col, round(hue, 2), round(saturation, 3), round(value, 3))


def _glare_cells(reads: Collection[Cell], cells: dict[Cell, GridCell]
                 ) -> list[Cell]:
    """Cells on or next to the read tiles that glare blew out."""
    near = {(r + dr, c + dc) for r, c in reads for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)}
    return sorted(key for key in near
                  if (cell := cells.get(key)) is not None and cell.glare >= GLARE)


def _unread_cells(reads: Collection[Cell], cells: dict[Cell, GridCell],
                  new: Collection[Cell], found: Collection[Cell]) -> list[Cell]:
    """Cells next to the read tiles that may hide a tile (`cells.may_hide_tile`),
    and those `found`, where a symbol was found and no tile read."""
    near = {(r + dr, c + dc) for r, c in reads for dr, dc in SIDES}
    beside_new = {(r + dr, c + dc) for r, c in new for dr, dc in SIDES}
    return sorted({key for key in near - set(reads)
                   if (cell := cells.get(key)) is not None
                   and may_hide_tile(cell, beside_move=key in beside_new)}
                  | (set(found) - set(reads)))

