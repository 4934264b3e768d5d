"""A deliberately plain second implementation of RULES §3–§4, used as an oracle.

Slow and simple on purpose: it walks the board cell by cell and collects every
rule a move breaks (not just the first), so the property tests can check that
the engine accepts exactly the moves this accepts, scores them the same, and
names one of the rules that really is broken when it refuses.
"""

from __future__ import annotations

from collections import Counter

Cell = tuple[int, int]


def judge(
    tiles: dict[Cell, tuple[str, str]],
    move: list[tuple[int, int, str, str]],
    colors: tuple[str, ...],
    shapes: tuple[str, ...],
    copies: int,
    hand_size: int | None = None,
) -> tuple[set[str], int | None]:
    """Return (the codes of every rule the move breaks, its points or None)."""
    broken: set[str] = set()
    n = len(colors)
    if not move:
        return {"empty_move"}, None
    if hand_size is not None and len(move) > hand_size:
        broken.add("too_many_tiles")
    if any(color not in colors or shape not in shapes for _, _, color, shape in move):
        return broken | {"unknown_tile"}, None
    cells = [(r, c) for r, c, _, _ in move]
    if len(set(cells)) < len(cells):
        broken.add("same_cell_twice")
    if any(cell in tiles for cell in cells):
        broken.add("occupied")
    used = Counter(tiles.values()) + Counter((col, sh) for _, _, col, sh in move)
    if any(count > copies for count in used.values()):
        broken.add("tile_exhausted")
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        broken.add("not_in_line")
    if broken & {"same_cell_twice", "occupied", "not_in_line"}:
        return broken, None

    after = dict(tiles)
    for r, c, color, shape in move:
        after[(r, c)] = (color, shape)

    if len(move) > 1:
        if len(rows) == 1:
            (r,) = rows
            span = [(r, c) for c in range(min(cols), max(cols) + 1)]
        else:
            (c,) = cols
            span = [(r, c) for r in range(min(rows), max(rows) + 1)]
        if any(cell not in after for cell in span):
            broken.add("gap")
    if tiles and not any(
        (r + dr, c + dc) in tiles
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
    ):
        broken.add("not_connected")

    lines = []
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            start = (r, c)
            while (start[0] - dr, start[1] - dc) in after:
                start = (start[0] - dr, start[1] - dc)
            line = []
            cell = start
            while cell in after:
                line.append(cell)
                cell = (cell[0] + dr, cell[1] + dc)
            if len(line) >= 2 and line not in lines:
                lines.append(line)
    points = 0
    for line in lines:
        kinds = [after[cell] for cell in line]
        if len(line) > n:
            broken.add("line_too_long")
        if len(set(kinds)) < len(kinds):
            broken.add("duplicate_in_line")
        if len({k[0] for k in kinds}) > 1 and len({k[1] for k in kinds}) > 1:
            broken.add("mixed_line")
        points += len(line) + (n if len(line) == n else 0)
    if not lines:
        points = len(move)
    return broken, (None if broken else points)
