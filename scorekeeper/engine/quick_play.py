"""The quick path of `Board.play`: the common moves, checked and scored fast.

`Board.play` runs on every move of every replay, preview and search, so its
commonest cases (one, two or three tiles, or a line of tiles, on a board of
tiles near the origin) are written out here by hand: cells are single ints in
`Board._grid`, each line is one lookup in `line_table`, and moves of one to
three tiles are read without loops or lists.

What it may skip: naming the rule a move breaks. It never raises IllegalMove
itself. At the first doubt (a malformed tile, an unknown kind, a copy too many,
a cell taken or named twice, tiles not in one line, a gap, a line that is not
valid, no tile touched) it takes its tiles out of `_grid` again and hands the
move to `Board._play_in_full`, the full path (`_parse` and `_evaluate`), which
finds and names the broken rule. It also hands over what it was not written
for: the first move (an empty board: so the first move's size is never its
concern), a set whose supply is counted per colour, i.e. Qwirkle Cubes (the
board keeps no `_grid` for it: the quick path counts copies per kind), hands
of one tile, and tiles beyond GRID_REACH. `Board.play_scored` and
`Board.check` always take the full path.

So a rule added to the engine must be added to `_evaluate` (the full path)
AND here, as one more reason to give up, or the quick path will accept a move
the full path refuses. tests/engine/test_quick_play.py is its equivalence
test: for random legal and illegal moves on real positions of every kind of
set, `play` must answer exactly as `Board.check` (always the full path) does,
points or the same exception, and leave the board as it was;
benchmarks/bench_engine.py measures it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import Cell
from .parse import MAX_COORDINATE
from .tiles import PACKED

if TYPE_CHECKING:
    from .board import Board

TileInput = Sequence[Any]

GRID_ROW = 1021
"""In Board._grid the cell (row, col) has the key row * GRID_ROW + col: a step
along a row adds 1, a step down a column GRID_ROW. (Not a power of two, so
that neighbouring cells spread over a dict's slots.)"""

GRID_REACH = 400
"""_grid holds tiles whose column lies strictly within ±GRID_REACH, so that no
walk along a row (which stops at the first empty cell) reaches another row's
keys. A board with a tile beyond has no _grid, and plays take the full path.
(Rows are bounded by MAX_COORDINATE alone: the quick path hands a tile on a row
beyond it to the full path, which refuses it.)"""

_LINE_TABLES: dict[int, dict[int, int]] = {}


def line_table(n: int) -> dict[int, int]:
    """Map every valid line of 2..n tiles of an n-colour set to its points.

    The key is the line's packed mask (PACKED, OR-ed over its tiles) plus
    `span << 16`, span being how far apart the two empty cells that end the
    line are in _grid keys: length + 1 along a row, (length + 1) * GRID_ROW
    down a column, which is what the walks in play measure. A line is valid
    exactly when its key is here, since one shared colour (or shape) and as
    many distinct shapes (or colours) as tiles is what RULES §3.5 asks: one
    lookup replaces the bit tests on the hot path.
    """
    table = _LINE_TABLES.get(n)
    if table is None:
        table = {}
        for one in range(n):
            for others in range(1 << n):
                length = others.bit_count()
                if length < 2:
                    continue
                points = length + (n if length == n else 0)
                for span in (length + 1, (length + 1) * GRID_ROW):
                    # One colour with these shapes, one shape with these colours.
                    table[1 << one | others << 8 | span << 16] = points
                    table[others | 1 << (one + 8) | span << 16] = points
        _LINE_TABLES[n] = table
    return table


def play(board: Board, tiles: list[TileInput] | tuple[TileInput, ...]) -> int:
    """Check, score and apply a placing move on `board`; return its points.

    Answers exactly as `Board._play_in_full` would, which it calls for any move
    it does not take to the end itself.
    """
    grid = board._grid
    if not grid:
        # An empty board, cubes, or a tile beyond the grid's reach.
        return board._play_in_full(tiles)
    code_of = board._code_of
    counts = board._counts
    copies = board._copies
    k = len(tiles)
    if k == 1:  # the commonest move
        try:
            row, col, color, shape = tiles[0]
            code = code_of[color, shape]
        except (TypeError, ValueError, KeyError):
            return board._play_in_full(tiles)
        if (type(row) is not int or type(col) is not int
                or not -GRID_REACH < col < GRID_REACH
                or not -MAX_COORDINATE <= row <= MAX_COORDINATE
                or counts[code] >= copies):
            return board._play_in_full(tiles)
        key = row * GRID_ROW + col
        if key in grid:
            return board._play_in_full(tiles)
        get = grid.get
        lines = board._lines
        # The row through the tile, then the column.
        points = 0
        x = key - 1
        other = get(x)
        y = key + 1
        after = get(y)
        if other is not None or after is not None:
            m = PACKED[code]
            while other is not None:
                m |= PACKED[other]
                x -= 1
                other = get(x)
            while after is not None:
                m |= PACKED[after]
                y += 1
                after = get(y)
            points = lines.get(m | (y - x) << 16, -1)
            if points < 0:
                return board._play_in_full(tiles)
        x = key - GRID_ROW
        other = get(x)
        y = key + GRID_ROW
        after = get(y)
        if other is not None or after is not None:
            m = PACKED[code]
            while other is not None:
                m |= PACKED[other]
                x -= GRID_ROW
                other = get(x)
            while after is not None:
                m |= PACKED[after]
                y += GRID_ROW
                after = get(y)
            found = lines.get(m | (y - x) << 16)
            if found is None:
                return board._play_in_full(tiles)
            points += found
        if not points:
            return board._play_in_full(tiles)  # touches no tile
        grid[key] = code
        cell = (row, col)
        board._cells[cell] = code
        counts[code] += 1
        board._history.append((cell,))
        board._masks = None
        return points

    # A line of tiles. Read it into (key, code) pairs, put it in _grid,
    # and find its extent lo..hi; `step` walks along it, `across` over
    # it. Moves of two and three tiles, the commonest, are read without
    # loops or lists: here those cost more than the checks themselves.
    if k == 2:
        try:
            (row, col, color, shape), (row2, col2, color2, shape2) = tiles
            code = code_of[color, shape]
            code2 = code_of[color2, shape2]
        except (TypeError, ValueError, KeyError):
            return board._play_in_full(tiles)
        if (type(row) is not int or type(col) is not int
                or type(row2) is not int or type(col2) is not int
                or not -GRID_REACH < col < GRID_REACH
                or not -GRID_REACH < col2 < GRID_REACH
                or not -MAX_COORDINATE <= row <= MAX_COORDINATE
                or not -MAX_COORDINATE <= row2 <= MAX_COORDINATE
                or counts[code] >= copies or counts[code2] >= copies):
            return board._play_in_full(tiles)
        if row == row2:
            step, across = 1, GRID_ROW
        elif col == col2:
            step, across = GRID_ROW, 1
        else:
            return board._play_in_full(tiles)
        key = row * GRID_ROW + col
        key2 = row2 * GRID_ROW + col2
        if key in grid or key2 in grid or key == key2:
            return board._play_in_full(tiles)
        grid[key] = code
        grid[key2] = code2
        pairs: Sequence[tuple[int, int]] = ((key, code), (key2, code2))
        placed = PACKED[code] | PACKED[code2]
        lo, hi = (key, key2) if key < key2 else (key2, key)
    elif k == 3 and board._hand_size > 2:
        try:
            ((row, col, color, shape), (row2, col2, color2, shape2),
             (row3, col3, color3, shape3)) = tiles
            code = code_of[color, shape]
            code2 = code_of[color2, shape2]
            code3 = code_of[color3, shape3]
        except (TypeError, ValueError, KeyError):
            return board._play_in_full(tiles)
        if (type(row) is not int or type(col) is not int
                or type(row2) is not int or type(col2) is not int
                or type(row3) is not int or type(col3) is not int
                or not -GRID_REACH < col < GRID_REACH
                or not -GRID_REACH < col2 < GRID_REACH
                or not -GRID_REACH < col3 < GRID_REACH
                or not -MAX_COORDINATE <= row <= MAX_COORDINATE
                or not -MAX_COORDINATE <= row2 <= MAX_COORDINATE
                or not -MAX_COORDINATE <= row3 <= MAX_COORDINATE
                or counts[code] >= copies or counts[code2] >= copies
                or counts[code3] >= copies):
            return board._play_in_full(tiles)
        if row == row2 == row3:
            step, across = 1, GRID_ROW
        elif col == col2 == col3:
            step, across = GRID_ROW, 1
        else:
            return board._play_in_full(tiles)
        key = row * GRID_ROW + col
        key2 = row2 * GRID_ROW + col2
        key3 = row3 * GRID_ROW + col3
        if (key in grid or key2 in grid or key3 in grid
                or key == key2 or key == key3 or key2 == key3):
            return board._play_in_full(tiles)
        grid[key] = code
        grid[key2] = code2
        grid[key3] = code3
        pairs = ((key, code), (key2, code2), (key3, code3))
        placed = PACKED[code] | PACKED[code2] | PACKED[code3]
        lo = min(key, key2, key3)
        hi = max(key, key2, key3)
    else:
        if not 2 < k <= board._hand_size:
            return board._play_in_full(tiles)
        try:
            row, col = tiles[0][0], tiles[0][1]
            horizontal = tiles[1][0] == row
        except (TypeError, IndexError, KeyError):
            return board._play_in_full(tiles)
        if horizontal:
            line, step, across = row, 1, GRID_ROW
        else:
            line, step, across = col, GRID_ROW, 1
        # Each tile goes into _grid as soon as it is read, so that
        # "occupied" and "the same cell twice" are one test.
        pairs = []
        new: dict[Cell, int] = {}
        placed = 0
        try:
            for row, col, color, shape in tiles:
                code = code_of[color, shape]
                if (type(row) is not int or type(col) is not int
                        or (row if horizontal else col) != line
                        or not -MAX_COORDINATE <= row <= MAX_COORDINATE
                        or counts[code] >= copies):
                    return _give_up(board, pairs, tiles)
                key = row * GRID_ROW + col
                if key in grid:
                    return _give_up(board, pairs, tiles)
                grid[key] = code
                pairs.append((key, code))
                new[row, col] = code
                placed |= PACKED[code]
        except (TypeError, ValueError, KeyError):
            return _give_up(board, pairs, tiles)
        lo = min(pairs)[0]
        hi = max(pairs)[0]
        # All on one row or column: the extreme columns (or the one) in reach.
        if horizontal:
            base = line * GRID_ROW
            ok = -GRID_REACH < lo - base and hi - base < GRID_REACH
        else:
            ok = -GRID_REACH < line < GRID_REACH
        if not ok:
            return _give_up(board, pairs, tiles)

    get = grid.get
    lines = board._lines
    # The line along the move: from its first cell on (from its last when
    # no tile of the board lies between them), then back.
    if hi - lo == (k - 1) * step:
        m = placed
        y = hi + step
    else:
        m = 0
        y = lo
    other = get(y)
    while other is not None:
        m |= PACKED[other]
        y += step
        other = get(y)
    if y <= hi:
        return _give_up(board, pairs, tiles)  # a gap
    x = lo - step
    other = get(x)
    while other is not None:
        m |= PACKED[other]
        x -= step
        other = get(x)
    # (Two copies of one tile in the move make it invalid here.)
    points = lines.get(m | (y - x) << 16, -1)
    if points < 0:
        return _give_up(board, pairs, tiles)
    touches = y - x > (k + 1) * step
    # The line across each placed tile, where it has a neighbour.
    # (Names of their own: the two-tile apply below reads code and code2.)
    for spot, kind in pairs:
        x = spot - across
        other = get(x)
        y = spot + across
        after = get(y)
        if other is None and after is None:
            continue
        touches = True
        m = PACKED[kind]
        while other is not None:
            m |= PACKED[other]
            x -= across
            other = get(x)
        while after is not None:
            m |= PACKED[after]
            y += across
            after = get(y)
        found = lines.get(m | (y - x) << 16)
        if found is None:
            return _give_up(board, pairs, tiles)
        points += found
    if not touches:
        return _give_up(board, pairs, tiles)  # not connected
    # Apply (written out for two and three tiles, as above).
    cells = board._cells
    if k == 2:
        cell = (row, col)
        cell2 = (row2, col2)
        cells[cell] = code
        cells[cell2] = code2
        counts[code] += 1
        counts[code2] += 1
        board._history.append((cell, cell2))
    elif k == 3:
        cell = (row, col)
        cell2 = (row2, col2)
        cell3 = (row3, col3)
        cells[cell] = code
        cells[cell2] = code2
        cells[cell3] = code3
        counts[code] += 1
        counts[code2] += 1
        counts[code3] += 1
        board._history.append((cell, cell2, cell3))
    else:
        cells.update(new)
        for _, code in pairs:
            counts[code] += 1
        board._history.append(tuple(new))
    board._masks = None
    return points


def _give_up(
    board: Board, pairs: Sequence[tuple[int, int]],
    tiles: list[TileInput] | tuple[TileInput, ...],
) -> int:
    """Take a refused quick move's tiles out of _grid; play it in full."""
    grid = board._grid
    if grid is not None:  # the quick path runs only on a board with a grid
        for key, _ in pairs:
            grid.pop(key, None)
    return board._play_in_full(tiles)
