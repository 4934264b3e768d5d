"""Move search: every legal placing move for a hand, best first."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations, permutations

from . import refusals
from .board import Board
from .errors import Cell
from .tiles import COLOR_BIT, COLOR_NAMES, SHAPE_BIT, SHAPE_NAMES, STRIDE

Found = tuple[int, list[tuple[int, int, str, str]]]


def best_moves(
    board: Board, hand: Sequence[tuple[str, str]], limit: int = 10
) -> list[Found]:
    """Return up to `limit` legal placing moves for `hand`, highest score first.

    Exhaustive: every subset of the hand that shares an attribute, in every
    order, in both directions, at every place on the board (gaps filled by
    tiles already there) is considered, so the first answer is the true
    maximum. Points exclude the end bonus. [] when nothing can be placed.
    """
    if limit <= 0:
        return []
    variant = board.variant
    codes: list[int] = []
    for color, shape in hand:
        code = variant.code_of.get((color, shape))
        if code is None:
            raise refusals.unknown_tile(board.variant, color, shape)
        codes.append(code)
    available = board.unplayed_mask()
    hand_mask = 0
    for code in codes:
        hand_mask |= 1 << code
    hand_mask &= available
    if not hand_mask:
        return []
    max_k = min(len(codes), variant.hand_size)
    if not len(board):
        return _opening_moves(board, hand_mask, max_k, limit)

    windows = _windows(board, hand_mask, max_k)
    windows.sort(key=lambda w: -w[0])
    found: list[Found] = []
    for window in windows:
        for tiles in _fill(window):
            found.append((window[0], tiles))
            if len(found) >= limit:
                return found
    return found


Window = tuple[int, bool, int, list[int], tuple[int, ...], tuple[int, ...]]
"""(points, horizontal, line index, empty positions, the hand tiles each empty
cell accepts across the line, the pools of hand tiles that may fill them)."""


def _windows(board: Board, hand_mask: int, max_k: int) -> list[Window]:
    """List every stretch of a row or column a move could fill, with its score.

    A stretch [a, b] is bounded by empty cells, holds at most N cells, its
    existing tiles form a valid line, each empty cell inside accepts some hand
    tile across, some pool of hand tiles that could share the line with its
    tiles (one colour or one shape, none twice) has a tile for each empty cell
    and as many tiles as there are empty cells, and it touches the board. Any
    filling scores the same, since scores depend only on line lengths. Listed
    rows first, then columns, each line by line and by start then end, so
    that ties always come in one order.
    """
    n = board.variant.colors
    grid, width, row0, col0, across = _keyed_board(board, hand_mask)
    get = grid.get
    # The hand's tiles that could join a line: while a window has no tiles of
    # its own, any of one pool per colour and per shape (a set of indices in
    # `free`), else the pools of the line its tiles make.
    color_class, shape_class = _classes(n)
    free = [
        pool for pool in (
            *(c & hand_mask for c in color_class), *(s & hand_mask for s in shape_class)
        ) if pool
    ]
    all_free = (1 << len(free)) - 1
    # enough[k]: the free pools with k tiles or more.
    enough = [
        sum(1 << i for i, pool in enumerate(free) if pool.bit_count() >= k)
        for k in range(max_k + 1)
    ]
    hits: dict[int, int] = {}  # fill -> the free pools with a tile in it
    free_pools: dict[int, tuple[int, ...]] = {}  # set of indices -> the pools
    line_pools: dict[int, tuple[int, ...]] = {}

    windows: list[Window] = []
    for horizontal, cross in ((True, across[0]), (False, across[1])):
        step = 1 if horizontal else width
        # Where a window may touch the board, line by line: a tile in the
        # line, or an empty cell with a tile across.
        touching: dict[int, set[int]] = {}
        for key in (*grid, *cross):
            line, pos = divmod(key, width) if horizontal else divmod(key, width)[::-1]
            touching.setdefault(line, set()).add(pos)
        offset, line_offset = (col0, row0) if horizontal else (row0, col0)
        for line in sorted(touching):
            base = line * width if horizontal else line
            last = None
            for touch in sorted(touching[line]):
                start = touch - n + 1
                if last is not None and start <= last:
                    start = last + 1
                last = touch
                for a in range(start, touch + 1):
                    key = base + a * step
                    if key - step in grid:
                        continue
                    k = 0
                    cm = sm = count = 0
                    cross_points = 0
                    touches = False
                    empties: list[int] = []
                    masks: list[int] = []
                    ways = all_free
                    pools: tuple[int, ...] = ()
                    for b in range(a, a + n):
                        code = get(key)
                        if code is not None:
                            cm |= COLOR_BIT[code]
                            sm |= SHAPE_BIT[code]
                            count += 1
                            line_key = cm | sm << 8 | count << 16
                            found = line_pools.get(line_key)
                            if found is None:
                                if (cm & (cm - 1) == 0 and sm.bit_count() == count
                                        or sm & (sm - 1) == 0
                                        and cm.bit_count() == count):
                                    found = _pools_of_line(
                                        cm, sm, color_class, shape_class, hand_mask
                                    )
                                else:
                                    found = ()  # not a valid line
                                line_pools[line_key] = found
                            pools = ()
                            for pool in found:
                                if pool.bit_count() >= k:
                                    for m in masks:
                                        if not m & pool:
                                            break
                                    else:
                                        pools += (pool,)
                            if not pools:
                                break
                            touches = True
                        else:
                            fill, length = cross.get(key, (hand_mask, 1))
                            if not fill:
                                break
                            k += 1
                            if k > max_k:
                                break
                            if count:
                                kept: tuple[int, ...] = ()
                                for pool in pools:
                                    if pool & fill and pool.bit_count() >= k:
                                        kept += (pool,)
                                if not kept:
                                    break
                                pools = kept
                            else:
                                hit = hits.get(fill)
                                if hit is None:
                                    hit = hits[fill] = sum(
                                        1 << i for i, pool in enumerate(free)
                                        if pool & fill
                                    )
                                ways &= hit & enough[k]
                                if not ways:
                                    break
                            empties.append(b + offset)
                            masks.append(fill)
                            if length > 1:
                                touches = True
                                cross_points += length + (n if length == n else 0)
                        key += step
                        if not k or not touches or key in grid:
                            continue
                        if not horizontal and k == 1:
                            continue  # a lone tile is counted once, with the rows
                        size = b - a + 1
                        points = cross_points
                        if size > 1:
                            points += size + (n if size == n else 0)
                        if count:
                            fills = pools
                        elif k == 1:
                            fills = (fill,)  # a lone tile: any the cell takes
                        else:
                            fills = free_pools.get(ways)  # type: ignore[assignment]
                            if fills is None:
                                fills = free_pools[ways] = tuple(
                                    pool for i, pool in enumerate(free) if ways >> i & 1
                                )
                        windows.append((
                            points, horizontal, line + line_offset, list(empties),
                            tuple(masks), fills,
                        ))
    return windows


Across = dict[int, tuple[int, int]]
"""For each empty cell next to a tile across a line: the hand tiles the line
across it accepts, and that line's length with a tile there."""


def _keyed_board(
    board: Board, hand_mask: int
) -> tuple[dict[int, int], int, int, int, tuple[Across, Across]]:
    """Key the board's tiles by one int per cell, and find the lines across.

    Returns (tiles by key, the width of a row in keys, the row and column of
    key 0, what crosses rows and what crosses columns). A row has room for a
    window's length and one more cell beyond the board on either side, so a
    step along it is +1 and a step down a column +width, and no walk wraps.
    An empty cell not in a dict accepts the whole hand and makes no line
    across.
    """
    n = board.variant.colors
    allowed = board.allowed
    rows = [r for r, _ in board._cells]
    cols = [c for _, c in board._cells]
    row0, col0 = min(rows) - n - 2, min(cols) - n - 2
    width = max(cols) - col0 + n + 3
    grid = {
        (r - row0) * width + c - col0: code for (r, c), code in board._cells.items()
    }
    get = grid.get
    across: tuple[Across, Across] = ({}, {})
    for key in grid:
        for cross, step in ((across[0], width), (across[1], 1)):
            for cell in (key - step, key + step):
                if cell in grid or cell in cross:
                    continue
                cm = sm = 0
                x = cell - step
                code = get(x)
                while code is not None:
                    cm |= COLOR_BIT[code]
                    sm |= SHAPE_BIT[code]
                    x -= step
                    code = get(x)
                y = cell + step
                code = get(y)
                while code is not None:
                    cm |= COLOR_BIT[code]
                    sm |= SHAPE_BIT[code]
                    y += step
                    code = get(y)
                size = (y - x) // step - 1
                cross[cell] = (allowed(cm, sm, size - 1) & hand_mask, size)
    return grid, width, row0, col0, across


@cache
def _classes(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tile codes of each colour, and of each shape, of an n-colour set."""
    color_class = [0] * n
    shape_class = [0] * n
    for color in range(n):
        for shape in range(n):
            bit = 1 << (color * STRIDE + shape)
            color_class[color] |= bit
            shape_class[shape] |= bit
    return tuple(color_class), tuple(shape_class)


def _pools_of_line(
    cm: int, sm: int, color_class: Sequence[int], shape_class: Sequence[int],
    hand_mask: int,
) -> tuple[int, ...]:
    """The hand's tiles that may join a valid line: its colour's, then its shape's."""
    count = max(cm.bit_count(), sm.bit_count())  # the line is valid
    pools = []
    if cm & (cm - 1) == 0 and sm.bit_count() == count:
        # One colour: its tiles whose shapes the line lacks.
        pool = color_class[cm.bit_length() - 1] & hand_mask
        for shape, tiles in enumerate(shape_class):
            if sm >> shape & 1:
                pool &= ~tiles
        pools.append(pool)
    if sm & (sm - 1) == 0 and cm.bit_count() == count:
        pool = shape_class[sm.bit_length() - 1] & hand_mask
        for color, tiles in enumerate(color_class):
            if cm >> color & 1:
                pool &= ~tiles
        pools.append(pool)
    return tuple(pool for pool in pools if pool)


def _fill(window: Window) -> Iterator[list[tuple[int, int, str, str]]]:
    """Yield every assignment of distinct hand tiles to a window's empty cells."""
    _, horizontal, line, empties, masks, pools = window

    def at(pos: int) -> Cell:
        return (line, pos) if horizontal else (pos, line)

    k = len(empties)
    for pool in pools:
        yield from _assign(masks, pool, empties, at, k)


def _assign(
    masks: Sequence[int], pool: int, empties: Sequence[int],
    at: Callable[[int], Cell], k: int,
) -> Iterator[list[tuple[int, int, str, str]]]:
    """Yield placements giving each empty cell a distinct tile from pool."""
    chosen: list[int] = []

    def rec(i: int, left: int) -> Iterator[list[tuple[int, int, str, str]]]:
        if i == k:
            yield [
                (*at(pos), COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE])
                for pos, code in zip(empties, chosen, strict=True)
            ]
            return
        options = masks[i] & left
        while options:
            low = options & -options
            options ^= low
            chosen.append(low.bit_length() - 1)
            yield from rec(i + 1, left ^ low)
            chosen.pop()

    yield from rec(0, pool)


def _opening_moves(board: Board, hand_mask: int, max_k: int, limit: int) -> list[Found]:
    """Moves on an empty board: a row from (0, 0) rightwards, in every order."""
    n = board.variant.colors
    groups: set[int] = set()
    for attr in range(n):
        color_group = hand_mask & sum(1 << (attr * STRIDE + s) for s in range(n))
        shape_group = hand_mask & sum(1 << (c * STRIDE + attr) for c in range(n))
        for group in (color_group, shape_group):
            if group:
                groups.add(group)
    subsets: set[int] = set()
    # Qwirkle Cubes opens with at least 2 cubes (RULES §7).
    smallest = board.variant.min_first_move
    for group in groups:
        bits = [1 << i for i in range(64) if group >> i & 1]
        for size in range(smallest, min(len(bits), max_k) + 1):
            for combo in combinations(bits, size):
                subsets.add(sum(combo))
    ranked = sorted(
        subsets,
        key=lambda s: -(s.bit_count() + (n if s.bit_count() == n else 0)),
    )
    found: list[Found] = []
    for subset in ranked:
        size = subset.bit_count()
        points = size + (n if size == n else 0)
        codes = [i for i in range(64) if subset >> i & 1]
        for order in permutations(codes):
            found.append((points, [
                (0, col, COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE])
                for col, code in enumerate(order)
            ]))
            if len(found) >= limit:
                return found
    return found


def legal_moves(board: Board, hand: Sequence[tuple[str, str]]) -> list[Found]:
    """Return every legal placing move for `hand`, best first (may be long)."""
    return best_moves(board, hand, limit=10**9)

