"""A second, independent Qwirkle engine: the yardstick for bench_engine.py.

Written from RULES.md §3-§4 alone, without reading scorekeeper.engine, the way
a programmer would write it the first time: a dict board of (colour, shape)
pairs, a move checked rule by rule and then scored line by line, and a
best-move search that tries every placement around the board the usual way
(anchor cell, subset of the hand sharing an attribute, order, direction,
offset) and asks its own `check` about each one. Plain and sensible: not
deliberately slow, not tuned either. Classic set by default; the numbers are
parameters.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

Cell = tuple[int, int]
Kind = tuple[str, str]
Tile = tuple[int, int, str, str]

DIRECTIONS = ((0, 1), (1, 0))
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Illegal(ValueError):
    """A move the rules refuse."""


class Board:
    """Tiles on the table: a dict from (row, col) to (colour, shape)."""

    def __init__(self, colors: int = 6, copies: int = 3, hand_size: int = 6) -> None:
        self.line_max = colors
        self.copies = copies
        self.hand_size = hand_size
        self.tiles: dict[Cell, Kind] = {}
        self.counts: Counter[Kind] = Counter()

    def play(self, move: list[Tile]) -> int:
        """Check and score a move, put its tiles down, return its points."""
        points = self.check(move)
        for r, c, color, shape in move:
            self.tiles[(r, c)] = (color, shape)
            self.counts[(color, shape)] += 1
        return points

    def undo(self, move: list[Tile]) -> None:
        """Take a move's tiles off the board again."""
        for r, c, color, shape in move:
            del self.tiles[(r, c)]
            self.counts[(color, shape)] -= 1

    def check(self, move: list[Tile]) -> int:
        """Return a move's points (RULES §4); raise Illegal if it breaks §3."""
        if not move:
            raise Illegal("empty move")
        if len(move) > self.hand_size:
            raise Illegal("too many tiles")
        new: dict[Cell, Kind] = {}
        for r, c, color, shape in move:
            if (r, c) in new:
                raise Illegal("same cell twice")
            if (r, c) in self.tiles:
                raise Illegal("occupied")
            new[(r, c)] = (color, shape)
        for kind, count in Counter(new.values()).items():
            if self.counts[kind] + count > self.copies:
                raise Illegal("not that many copies")
        rows = {r for r, _ in new}
        cols = {c for _, c in new}
        if len(rows) > 1 and len(cols) > 1:
            raise Illegal("not in one line")

        def at(cell: Cell) -> Kind | None:
            kind = new.get(cell)
            return kind if kind is not None else self.tiles.get(cell)

        if len(rows) == 1:
            (r,) = rows
            span = [(r, c) for c in range(min(cols), max(cols) + 1)]
        else:
            (c,) = cols
            span = [(r, c) for r in range(min(rows), max(rows) + 1)]
        if any(at(cell) is None for cell in span):
            raise Illegal("gap")
        if self.tiles and not any(
            (r + dr, c + dc) in self.tiles for r, c in new for dr, dc in NEIGHBOURS
        ):
            raise Illegal("not connected")

        # The line along the move once, then the line across each placed tile.
        along = DIRECTIONS[0] if len(rows) == 1 else DIRECTIONS[1]
        across = DIRECTIONS[1] if len(rows) == 1 else DIRECTIONS[0]
        lines = [self._line(span[0], along, at)]
        lines += [self._line(cell, across, at) for cell in new]
        points = 0
        for line in lines:
            if len(line) < 2:
                continue
            self._check_line(line)
            points += len(line)
            if len(line) == self.line_max:
                points += self.line_max  # a Qwirkle
        if points == 0:
            points = 1  # a lone first tile
        return points

    @staticmethod
    def _line(cell: Cell, step: tuple[int, int], at) -> list[Kind]:
        """The tiles of the run through `cell` in direction `step`."""
        dr, dc = step
        r, c = cell
        while at((r - dr, c - dc)) is not None:
            r, c = r - dr, c - dc
        line = []
        kind = at((r, c))
        while kind is not None:
            line.append(kind)
            r, c = r + dr, c + dc
            kind = at((r, c))
        return line

    def _check_line(self, line: list[Kind]) -> None:
        if len(line) > self.line_max:
            raise Illegal("line too long")
        if len(set(line)) < len(line):
            raise Illegal("duplicate in line")
        if len({color for color, _ in line}) > 1 and len({s for _, s in line}) > 1:
            raise Illegal("mixed line")

    def frontier(self) -> list[Cell]:
        """The empty cells next to a tile."""
        found = {}
        for r, c in self.tiles:
            for dr, dc in NEIGHBOURS:
                cell = (r + dr, c + dc)
                if cell not in self.tiles:
                    found[cell] = None
        return list(found)


def groups(hand: list[Kind]) -> list[tuple[Kind, ...]]:
    """Every set of distinct hand tiles that share a colour or a shape."""
    kinds = sorted(set(hand))
    found = set()
    for attribute in (0, 1):
        values = {kind[attribute] for kind in kinds}
        for value in values:
            same = [kind for kind in kinds if kind[attribute] == value]
            for mask in range(1, 1 << len(same)):
                found.add(tuple(k for i, k in enumerate(same) if mask >> i & 1))
    return sorted(found)


def all_moves(board: Board, hand: list[Kind]) -> list[tuple[int, list[Tile]]]:
    """Every legal move of the hand with its points, best first."""
    anchors = board.frontier() if board.tiles else [(0, 0)]
    seen: set[frozenset] = set()
    found: list[tuple[int, list[Tile]]] = []
    for subset in groups(hand):
        if len(subset) > board.hand_size:
            continue
        for order in permutations(subset):
            for anchor in anchors:
                for dr, dc in DIRECTIONS:
                    for offset in range(len(order)):
                        move = place(board, order, anchor, (dr, dc), offset)
                        key = frozenset(move)
                        if key in seen:
                            continue
                        seen.add(key)
                        try:
                            points = board.check(move)
                        except Illegal:
                            continue
                        found.append((points, move))
    found.sort(key=lambda item: -item[0])
    return found


def place(
    board: Board, order: tuple[Kind, ...], anchor: Cell, step: tuple[int, int],
    offset: int,
) -> list[Tile]:
    """Lay `order` along `step`, tile `offset` on `anchor`, skipping full cells."""
    dr, dc = step
    cells = [anchor]
    r, c = anchor
    for _ in range(offset):
        r, c = r - dr, c - dc
        while (r, c) in board.tiles:
            r, c = r - dr, c - dc
        cells.insert(0, (r, c))
    r, c = anchor
    for _ in range(len(order) - offset - 1):
        r, c = r + dr, c + dc
        while (r, c) in board.tiles:
            r, c = r + dr, c + dc
        cells.append((r, c))
    return [
        (r, c, color, shape)
        for (r, c), (color, shape) in zip(cells, order, strict=True)
    ]


def best_moves(
    board: Board, hand: list[Kind], limit: int = 10
) -> list[tuple[int, list[Tile]]]:
    """The `limit` highest-scoring legal moves of the hand."""
    return all_moves(board, hand)[:limit]
