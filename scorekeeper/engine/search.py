"""Move search: every legal placing move for a hand, best first."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, permutations

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
            raise board._unknown_tile(color, shape)
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
        for tiles in _fill(board, window, hand_mask):
            found.append((window[0], tiles))
            if len(found) >= limit:
                return found
    return found


Window = tuple[int, bool, int, int, int, list[int], int, int, int]
"""(points, horizontal, line index, start, end, empty positions, existing colour
mask, existing shape mask, existing count)."""


def _windows(board: Board, hand_mask: int, max_k: int) -> list[Window]:
    """List every stretch of a row or column a move could fill, with its score.

    A stretch [a, b] is bounded by empty cells, holds at most N cells, its
    existing tiles form a valid line, each empty cell inside accepts some hand
    tile across, and it touches the board. Any filling scores the same, since
    scores depend only on line lengths.
    """
    cells = board._cells
    n = board.variant.colors
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    rmin, rmax, cmin, cmax = min(rows), max(rows), min(cols), max(cols)
    fill_cache: dict[tuple[Cell, bool], tuple[int, int]] = {}

    def cross(cell: Cell, horizontal: bool) -> tuple[int, int]:
        # (tiles of the hand this empty cell accepts across the move, cross length)
        key = (cell, horizontal)
        found = fill_cache.get(key)
        if found is None:
            row_mask, row_len, col_mask, col_len = board.cross_masks(cell)
            if horizontal:
                found = (col_mask & hand_mask, col_len)
            else:
                found = (row_mask & hand_mask, row_len)
            fill_cache[key] = found
        return found

    windows: list[Window] = []
    for horizontal in (True, False):
        if horizontal:
            line_range = range(rmin - 1, rmax + 2)
            pos_lo, pos_hi = cmin - n, cmax + n
        else:
            line_range = range(cmin - 1, cmax + 2)
            pos_lo, pos_hi = rmin - n, rmax + n
        for line in line_range:
            def at(pos: int, line: int = line, horizontal: bool = horizontal) -> Cell:
                return (line, pos) if horizontal else (pos, line)

            for a in range(pos_lo, pos_hi + 1):
                if at(a - 1) in cells:
                    continue
                k = 0
                cm = sm = count = 0
                cross_points = 0
                touches = False
                empties: list[int] = []
                for b in range(a, a + n):
                    cell = at(b)
                    code = cells.get(cell)
                    if code is not None:
                        cm |= COLOR_BIT[code]
                        sm |= SHAPE_BIT[code]
                        count += 1
                        if not ((cm & (cm - 1) == 0 and sm.bit_count() == count)
                                or (sm & (sm - 1) == 0 and cm.bit_count() == count)):
                            break
                        touches = True
                    else:
                        fill, length = cross(cell, horizontal)
                        if not fill:
                            break
                        k += 1
                        if k > max_k:
                            break
                        empties.append(b)
                        if length > 1:
                            touches = True
                            cross_points += length + (n if length == n else 0)
                    if not k or not touches or at(b + 1) in cells:
                        continue
                    if not horizontal and k == 1:
                        continue  # a lone tile is counted once, with the rows
                    size = b - a + 1
                    points = cross_points
                    if size > 1:
                        points += size + (n if size == n else 0)
                    windows.append(
                        (points, horizontal, line, a, b, list(empties), cm, sm, count)
                    )
    return windows


def _fill(
    board: Board, window: Window, hand_mask: int
) -> Iterator[list[tuple[int, int, str, str]]]:
    """Yield every assignment of distinct hand tiles to a window's empty cells."""
    _, horizontal, line, _, _, empties, cm, sm, count = window
    n = board.variant.colors

    def at(pos: int) -> Cell:
        return (line, pos) if horizontal else (pos, line)

    masks = []
    for pos in empties:
        row_mask, _, col_mask, _ = board.cross_masks(at(pos))
        masks.append((col_mask if horizontal else row_mask) & hand_mask)

    k = len(empties)
    if k == 1 and count == 0:
        pools = [masks[0]]
    else:
        pools = []
        if count == 0 or (cm & (cm - 1) == 0 and sm.bit_count() == count):
            colors = range(n) if count == 0 else (cm.bit_length() - 1,)
            for color in colors:
                pool = 0
                for shape in range(n):
                    if not sm >> shape & 1 or count == 0:
                        pool |= 1 << (color * STRIDE + shape)
                pools.append(pool & hand_mask)
        if count == 0 or (sm & (sm - 1) == 0 and cm.bit_count() == count):
            shapes = range(n) if count == 0 else (sm.bit_length() - 1,)
            for shape in shapes:
                pool = 0
                for color in range(n):
                    if not cm >> color & 1 or count == 0:
                        pool |= 1 << (color * STRIDE + shape)
                pools.append(pool & hand_mask)
    for pool in pools:
        if pool.bit_count() < k or any(not (m & pool) for m in masks):
            continue
        yield from _assign(masks, pool, empties, at, k)


def _assign(
    masks: list[int], pool: int, empties: list[int], at: Callable[[int], Cell],
    k: int,
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
    smallest = 2 if board.variant.is_cubes else 1
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

