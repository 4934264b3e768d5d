"""The board: checking, scoring and applying placing moves (RULES §3, §4)."""

from __future__ import annotations

from collections.abc import Iterable

from . import quick_play, refusals
from .errors import BadInput, Cell, IllegalMove
from .parse import MAX_COORDINATE, Placement, TileInput
from .placements import Placements
from .quick_play import GRID_REACH, GRID_ROW, line_table
from .scoring import LineScore, MoveScore
from .tiles import (
    CLASSIC,
    COLOR_BIT,
    COLOR_NAMES,
    PACKED,
    SHAPE_BIT,
    SHAPE_NAMES,
    STRIDE,
    Variant,
)

LINE_FAULT_RANK = {"line_too_long": 0, "mixed_line": 1, "duplicate_in_line": 2}
"""Which fault of a line is reported when a move's lines have several."""

def _line_cells(line: int, first: int, length: int, horizontal: bool) -> list[Cell]:
    """List the cells of row (or column) `line` from index `first`, `length` long."""
    if horizontal:
        return [(line, x) for x in range(first, first + length)]
    return [(y, line) for y in range(first, first + length)]


class Board(Placements):
    """A position: the tiles on the table, with the moves that put them there."""

    __slots__ = (
        "variant", "_cells", "_counts", "_color_counts", "_history", "_per_color",
        "_code_of", "_copies", "_hand_size", "_lines", "_grid",
    )

    def __init__(self, variant: Variant | None = None) -> None:
        self.variant: Variant = variant if variant is not None else CLASSIC
        """The tile set in play."""
        # Supply counted per colour (Qwirkle Cubes): one more count to keep.
        self._per_color = self.variant.supply_per_color
        # The tiles again, keyed by one int per cell: the quick path of play
        # walks rows and columns with one addition per step.
        # (None for cubes, and for hands of one tile: the quick path of play
        # takes a move of two tiles without looking at the hand size.)
        self._grid: dict[int, int] | None = (
            None if self._per_color or self.variant.hand_size < 2 else {}
        )
        # Read on every play; attributes of the board are quicker to reach.
        self._code_of = self.variant.code_of
        self._copies = self.variant.copies
        self._hand_size = self.variant.hand_size
        self._lines = line_table(self.variant.colors)
        # cell -> tile code; insertion order is placement order.
        self._cells: dict[Cell, int] = {}
        self._counts: list[int] = [0] * 64
        # Qwirkle Cubes checks its supply per colour (RULES §7); counted for
        # cubes only, so that plays of tiles skip it.
        self._color_counts: list[int] = [0] * STRIDE
        self._history: list[tuple[Cell, ...]] = []
        # legal_masks' answer, dropped by every play and pop so that it never
        # goes stale.
        self._masks: dict[Cell, int] | None = None
        self._allowed_memo: dict[int, int] = {}

    @classmethod
    def laid(cls, tiles: Iterable[TileInput], variant: Variant | None = None) -> Board:
        """Return a board with these tiles as they lie, as one move, unchecked:
        a stored position whose moves were checked when they were played
        (the photo reader weighs a reading of the next move against it).

        Raises BadInput or IllegalMove (unknown tile) for a tile it cannot name.
        """
        board = cls(variant)
        tiles = list(tiles)
        placed = board._parse(tiles) if tiles else []
        for cell, code in placed:
            board._cells[cell] = code
        if placed:
            board._apply(placed)
        return board

    def __repr__(self) -> str:
        return f"<Board {len(self._cells)} tiles, {len(self._history)} moves>"

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    # -- reading ---------------------------------------------------------------

    def get(self, cell: Cell) -> tuple[str, str] | None:
        """Return the (colour, shape) on a cell, or None when it is empty."""
        code = self._cells.get(cell)
        if code is None:
            return None
        return COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE]

    def tiles(self) -> list[Placement]:
        """Return every tile on the board in the order it was placed."""
        return [
            Placement(r, c, COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE])
            for (r, c), code in self._cells.items()
        ]

    def count(self, color: str, shape: str) -> int:
        """Return how many copies of a tile lie on the board."""
        code = self.variant.code_of.get((color, shape))
        return 0 if code is None else self._counts[code]

    def unseen(self) -> dict[tuple[str, str], int]:
        """Return, for every tile of the set, the copies not on the board.

        For Qwirkle Cubes, where a cube shows any shape, the keys are
        (colour, "") and the counts are cubes of that colour off the board.
        """
        copies = self.variant.copies
        if self._per_color:
            return {
                (COLOR_NAMES[color], ""): copies - self._color_counts[color]
                for color in range(self.variant.colors)
            }
        counts = self._counts
        return {
            (COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE]):
                copies - counts[code]
            for code in self.variant.codes
        }

    # -- moves -----------------------------------------------------------------

    def play(self, tiles: Iterable[TileInput]) -> int:
        """Check, score and apply a placing move; return its points.

        Raises IllegalMove and leaves the board unchanged when the move breaks a rule.
        The common moves take the quick path of quick_play.py, which hands any
        move it doubts to `_play_in_full`; a new rule goes into both.
        """
        if type(tiles) is not list and type(tiles) is not tuple:
            tiles = list(tiles)  # read twice when the quick path gives up
        return quick_play.play(self, tiles)

    def _play_in_full(self, tiles: list[TileInput] | tuple[TileInput, ...]) -> int:
        """Play a move by the full path: every check, and the exact fault if any."""
        placed = self._parse(tiles)
        points = self._evaluate(placed, None)
        self._apply(placed)
        return points

    def play_scored(self, tiles: Iterable[TileInput]) -> MoveScore:
        """Like play, but return the full breakdown of the move's lines."""
        placed = self._parse(tiles)
        lines: list[LineScore] = []
        points = self._evaluate(placed, lines)
        self._apply(placed)
        return MoveScore(points, tuple(lines))

    def check(self, tiles: Iterable[TileInput]) -> MoveScore:
        """Return what a placing move would score, line by line, without applying it.

        Raises IllegalMove when the move breaks a rule.
        """
        placed = self._parse(tiles)
        lines: list[LineScore] = []
        points = self._evaluate(placed, lines)
        for cell, _ in placed:
            del self._cells[cell]
        return MoveScore(points, tuple(lines))

    def mend_fault(self, tiles: Iterable[TileInput]) -> IllegalMove | None:
        """For a move refused only for a gap or for touching no tile: return the
        fault more tiles of the same move cannot mend, or None if they still may.

        More tiles may fill the gaps and reach the board along the move's line
        (along either line of a lone tile), within one hand; every line the
        tiles already make must still take them: the known tiles across the
        line's span must share a colour or a shape, each once, and fit its
        length. A page lets a move's tiles be entered in any order by this.
        """
        placed = self._parse(tiles)
        cells = self._cells
        k = len(placed)
        used = {cell for cell, _ in placed}
        if k == 0 or len(used) < k or any(cell in cells for cell in used):
            return None  # not refused for a gap: nothing to add here
        rows = {cell[0] for cell in used}
        cols = {cell[1] for cell in used}
        if k > 1 and len(rows) > 1 and len(cols) > 1:
            return None
        directions = [len(rows) == 1] if k > 1 else [True, False]
        for cell, code in placed:
            cells[cell] = code
        try:
            return self._mend_fault(placed, directions)
        finally:
            for cell, _ in placed:
                del cells[cell]

    def _mend_fault(
        self, placed: list[tuple[Cell, int]], directions: list[bool]
    ) -> IllegalMove | None:
        """mend_fault with the tiles in _cells; directions: True for a row."""
        cells = self._cells
        placed_cells = tuple(cell for cell, _ in placed)
        on_board = len(cells) > len(placed_cells)
        spare = self.variant.hand_size - len(placed)
        reach = not on_board
        fault_seen: IllegalMove | None = None  # why the board's nearest run is shut
        for horizontal in directions:
            line = placed_cells[0][0] if horizontal else placed_cells[0][1]

            def at(i: int, line: int = line, horizontal: bool = horizontal) -> Cell:
                return (line, i) if horizontal else (i, line)

            along = [cell[1] if horizontal else cell[0] for cell in placed_cells]
            lo, hi = min(along), max(along)
            while at(lo - 1) in cells:
                lo -= 1
            while at(hi + 1) in cells:
                hi += 1
            span = [at(i) for i in range(lo, hi + 1)]
            known = [cell for cell in span if cell in cells]
            fault = self._known_line_fault(known, len(span), horizontal, placed_cells)
            if fault is not None:
                return fault
            holes = [cell for cell in span if cell not in cells]
            if len(holes) > spare:
                return refusals.gap(holes[0])
            if reach:
                continue
            # Board tiles in the span, or beside a cell more tiles may take:
            # the holes, and the cells beyond either end within the hand.
            if len(known) > len(placed_cells):
                reach = True
                continue
            reachable = list(placed_cells) + holes
            for step, end in ((-1, lo), (1, hi)):
                for j in range(1, spare - len(holes) + 1):
                    cell = at(end + step * j)
                    if cell not in cells:
                        reachable.append(cell)
                        continue
                    # Filled up to a run of the board: one line with it then.
                    far = end + step * j
                    while at(far + step) in cells:
                        far += step
                    joined = [at(i) for i in range(min(lo, far), max(hi, far) + 1)]
                    blocked = self._known_line_fault(
                        [cell for cell in joined if cell in cells], len(joined),
                        horizontal, placed_cells,
                    )
                    if blocked is None:
                        reach = True
                    else:
                        fault_seen = fault_seen or blocked
                    break
            reach = reach or any(
                side in cells
                for cell in reachable
                for side in self._beside(cell, horizontal)
            )
        if len(directions) == 1:
            across = not directions[0]
            for r, c in placed_cells:
                run = self._run_row if across else self._run_col
                first, length, m = run(r, c)
                if length > 1:
                    try:
                        self._line_points(r if across else c, first, length, m,
                                          across, placed_cells, None)
                    except IllegalMove as fault:
                        return fault
        if reach:
            return None
        return fault_seen or refusals.not_connected(placed_cells)

    @staticmethod
    def _beside(cell: Cell, horizontal: bool) -> tuple[Cell, Cell]:
        """The two cells across a row (above and below) or a column (left, right)."""
        r, c = cell
        return ((r - 1, c), (r + 1, c)) if horizontal else ((r, c - 1), (r, c + 1))

    def _known_line_fault(
        self, known: list[Cell], length: int, horizontal: bool,
        placed_cells: tuple[Cell, ...],
    ) -> IllegalMove | None:
        """The fault of a line of `length` cells whose tiles so far are `known`."""
        if len(known) < 2:
            return None
        n = self.variant.colors
        if length > n:
            return IllegalMove(
                "line_too_long", None,
                {"direction": "row" if horizontal else "column", "span": known,
                 "length": length, "max": n},
                tuple(known),
            )
        cm = sm = 0
        for cell in known:
            cm |= COLOR_BIT[self._cells[cell]]
            sm |= SHAPE_BIT[self._cells[cell]]
        if cm & (cm - 1) == 0:
            ok = sm.bit_count() == len(known)
        elif sm & (sm - 1) == 0:
            ok = cm.bit_count() == len(known)
        else:
            return refusals.mixed(self._cells, known, horizontal, placed_cells)
        if ok:
            return None
        return refusals.duplicate(self._cells, known, horizontal, placed_cells)

    def pop(self) -> list[Placement]:
        """Take back the last placing move; return its tiles. IndexError if none."""
        cells = self._history.pop()
        removed = []
        grid = self._grid
        for cell in cells:
            code = self._cells.pop(cell)
            if grid is not None:
                del grid[cell[0] * GRID_ROW + cell[1]]
            if self._per_color:
                self._color_counts[code // STRIDE] -= 1
            self._counts[code] -= 1
            removed.append(
                Placement(cell[0], cell[1], COLOR_NAMES[code // STRIDE],
                          SHAPE_NAMES[code % STRIDE])
            )
        self._masks = None
        return removed

    def copy(self) -> Board:
        """Return an independent board with the same tiles and move history."""
        other = Board(self.variant)
        other._cells = dict(self._cells)
        other._grid = None if self._grid is None else dict(self._grid)
        other._counts = list(self._counts)
        other._color_counts = list(self._color_counts)
        other._history = list(self._history)
        return other

    # -- internals ---------------------------------------------------------------

    def _parse(self, tiles: Iterable[TileInput]) -> list[tuple[Cell, int]]:
        code_of = self.variant.code_of
        placed: list[tuple[Cell, int]] = []
        for tile in tiles:
            try:
                row, col, color, shape = tile
            except (TypeError, ValueError):
                raise BadInput("tile_shape", {"value": tile}) from None
            if type(row) is not int or type(col) is not int:
                raise BadInput("tile_cell_of", {"value": tile})
            if not (-MAX_COORDINATE <= row <= MAX_COORDINATE
                    and -MAX_COORDINATE <= col <= MAX_COORDINATE):
                raise BadInput(
                    "tile_too_far", {"value": (row, col), "max": MAX_COORDINATE}
                )
            try:
                code = code_of.get((color, shape))
            except TypeError:  # unhashable colour or shape: not a tile name
                code = None
            if code is None:
                raise refusals.unknown_tile(self.variant, color, shape, (row, col))
            placed.append(((row, col), code))
        if not placed:
            raise IllegalMove("empty_move")
        return placed

    def _apply(self, placed: list[tuple[Cell, int]]) -> None:
        # _evaluate has already written the tiles into _cells.
        counts = self._counts
        color_counts = self._color_counts
        grid = self._grid
        for (r, c), code in placed:
            counts[code] += 1
            if self._per_color:
                color_counts[code // STRIDE] += 1
            if grid is not None:
                if -GRID_REACH < c < GRID_REACH:
                    grid[r * GRID_ROW + c] = code
                else:
                    self._grid = grid = None
        self._history.append(tuple(cell for cell, _ in placed))
        self._masks = None

    def _evaluate(
        self, placed: list[tuple[Cell, int]], detail: list[LineScore] | None
    ) -> int:
        """Validate a move and return its points, leaving its tiles in _cells.

        On any IllegalMove the tiles are taken out again, so a refused move
        leaves the board exactly as it was.
        """
        variant = self.variant
        cells = self._cells
        k = len(placed)
        if k > variant.hand_size:
            raise refusals.too_many(self.variant, k)
        counts = self._counts
        copies = variant.copies
        if self._per_color:
            self._check_color_supply(placed)
            # Per-kind counts never limit cubes: any face may repeat.
            copies = 1 << 30
        if k == 1:
            cell, code = placed[0]
            if counts[code] >= copies:
                raise refusals.exhausted(self.variant, self._counts, code, cell, 1)
            if cell in cells:
                raise refusals.occupied(self._cells, cell)
            first_move = not cells
            if first_move and variant.min_first_move > 1:
                raise refusals.first_move_too_small(self.variant, cell)
            cells[cell] = code
            try:
                return self._score_single(cell, code, first_move, detail)
            except IllegalMove:
                del cells[cell]
                raise

        codes = {code for _, code in placed}
        for cell, code in placed:
            if counts[code] >= copies:
                raise refusals.exhausted(self.variant, self._counts, code, cell, 1)
        if len(codes) < k:
            for code in codes:
                times = sum(1 for _, c in placed if c == code)
                if counts[code] + times > copies:
                    cell = next(cell for cell, c in placed if c == code)
                    raise refusals.exhausted(
                        self.variant, self._counts, code, cell, times
                    )
        used = {cell for cell, _ in placed}
        if len(used) < k:
            used = set()
            for cell, _ in placed:
                if cell in used:
                    raise refusals.same_cell_twice(cell)
                used.add(cell)
        for cell, _ in placed:
            if cell in cells:
                raise refusals.occupied(self._cells, cell)
        row0, col0 = placed[0][0]
        if len({cell[0] for cell in used}) == 1:
            horizontal = True
        elif len({cell[1] for cell in used}) == 1:
            horizontal = False
        else:
            off_row = next(cell for cell, _ in placed if cell[0] != row0)
            off_col = next(cell for cell, _ in placed if cell[1] != col0)
            if off_row == off_col:
                off_col = placed[0][0]
            raise refusals.not_in_line(off_col, off_row)

        first_move = not cells
        for cell, code in placed:
            cells[cell] = code
        try:
            return self._score_line_move(placed, horizontal, first_move, detail)
        except IllegalMove:
            for cell, _ in placed:
                del cells[cell]
            raise

    def _check_color_supply(self, placed: list[tuple[Cell, int]]) -> None:
        """Refuse a move that would put more cubes of a colour down than exist."""
        copies = self.variant.copies
        wanted = [0] * STRIDE
        for _, code in placed:
            wanted[code // STRIDE] += 1
        for cell, code in placed:
            color = code // STRIDE
            on_board = self._color_counts[color]
            if on_board + wanted[color] > copies:
                raise IllegalMove(
                    "tile_exhausted", "cubes_exhausted",
                    {"count": on_board + wanted[color], "color": COLOR_NAMES[color],
                     "cell": cell, "copies": copies},
                    (cell,),
                )

    def _run_row(self, r: int, c: int) -> tuple[int, int, int]:
        """Walk the row run through the occupied cell (r, c).

        Return (its first column, length, packed mask: colour bits | shape
        bits << 8). Masks are gathered on the way so that no list of cells is
        built unless a message or breakdown needs one.
        """
        get = self._cells.get
        m = PACKED[self._cells[(r, c)]]
        x = c - 1
        code = get((r, x))
        while code is not None:
            m |= PACKED[code]
            x -= 1
            code = get((r, x))
        first = x + 1
        x = c + 1
        code = get((r, x))
        while code is not None:
            m |= PACKED[code]
            x += 1
            code = get((r, x))
        return first, x - first, m

    def _run_col(self, r: int, c: int) -> tuple[int, int, int]:
        """Walk the column run through the occupied cell (r, c); see _run_row."""
        get = self._cells.get
        m = PACKED[self._cells[(r, c)]]
        y = r - 1
        code = get((y, c))
        while code is not None:
            m |= PACKED[code]
            y -= 1
            code = get((y, c))
        first = y + 1
        y = r + 1
        code = get((y, c))
        while code is not None:
            m |= PACKED[code]
            y += 1
            code = get((y, c))
        return first, y - first, m

    def _score_single(
        self, cell: Cell, code: int, first_move: bool,
        detail: list[LineScore] | None,
    ) -> int:
        r, c = cell
        row_first, row_len, row_m = self._run_row(r, c)
        col_first, col_len, col_m = self._run_col(r, c)
        if row_len == 1 and col_len == 1:
            if not first_move:
                raise refusals.not_connected((cell,))
            if detail is not None:
                detail.append(LineScore("single", (cell,), "tile", "", 1, False))
            return 1
        lines = []
        if row_len > 1:
            lines.append((r, row_first, row_len, row_m, True))
        if col_len > 1:
            lines.append((c, col_first, col_len, col_m, False))
        return self._score_lines(lines, (cell,), detail)

    def _score_line_move(
        self, placed: list[tuple[Cell, int]], horizontal: bool, first_move: bool,
        detail: list[LineScore] | None,
    ) -> int:
        cells = self._cells
        placed_cells = tuple(cell for cell, _ in placed)
        k = len(placed_cells)
        if horizontal:
            r = placed_cells[0][0]
            positions = [cell[1] for cell in placed_cells]
            lo = min(positions)
            first, length, m = self._run_row(r, lo)
            if first + length <= max(positions):
                raise refusals.gap((r, first + length))
            line = r
        else:
            c = placed_cells[0][1]
            positions = [cell[0] for cell in placed_cells]
            lo = min(positions)
            first, length, m = self._run_col(lo, c)
            if first + length <= max(positions):
                raise refusals.gap((first + length, c))
            line = c

        crosses = []
        if horizontal:
            for r, c in placed_cells:
                if (r - 1, c) in cells or (r + 1, c) in cells:
                    crosses.append((r, c, self._run_col(r, c)))
        else:
            for r, c in placed_cells:
                if (r, c - 1) in cells or (r, c + 1) in cells:
                    crosses.append((r, c, self._run_row(r, c)))

        if not first_move and length == k and not crosses:
            raise refusals.not_connected(placed_cells)
        if crosses:
            crosses.sort()
        try:
            points = self._line_points(
                line, first, length, m, horizontal, placed_cells, detail
            )
            for r, c, (start, size, mask) in crosses:
                points += self._line_points(
                    c if horizontal else r, start, size, mask, not horizontal,
                    placed_cells, detail,
                )
        except IllegalMove:
            lines = [(line, first, length, m, horizontal)] + [
                (c if horizontal else r, start, size, mask, not horizontal)
                for r, c, (start, size, mask) in crosses
            ]
            raise self._worst_fault(lines, placed_cells) from None
        return points

    def _score_lines(
        self, lines: list[tuple[int, int, int, int, bool]],
        placed_cells: tuple[Cell, ...], detail: list[LineScore] | None,
    ) -> int:
        """Validate and score the lines a move touches, the line along it first."""
        points = 0
        try:
            for line in lines:
                points += self._line_points(*line, placed_cells, detail)
        except IllegalMove:
            raise self._worst_fault(lines, placed_cells) from None
        return points

    def _worst_fault(
        self, lines: list[tuple[int, int, int, int, bool]],
        placed_cells: tuple[Cell, ...],
    ) -> IllegalMove:
        """Return the most basic fault among a move's lines.

        Ranking the faults keeps the code from depending on which line was
        looked at first, which would change when the board is turned or mirrored.
        """
        faults = []
        for line in lines:
            try:
                self._line_points(*line, placed_cells, None)
            except IllegalMove as fault:
                faults.append(fault)
        return min(faults, key=lambda fault: LINE_FAULT_RANK[fault.code])

    def _line_points(
        self, line: int, first: int, length: int, m: int, horizontal: bool,
        placed_cells: tuple[Cell, ...], detail: list[LineScore] | None,
    ) -> int:
        """Validate one line of 2+ tiles and return its points (RULES §3.5, §4).

        The line is row `line` (or column `line`) from index `first` on; m is
        its packed colour and shape mask.
        """
        n = self.variant.colors
        cm = m & 0xFF
        sm = m >> 8
        if length > n:
            cells = _line_cells(line, first, length, horizontal)
            raise IllegalMove(
                "line_too_long", None,
                {"direction": "row" if horizontal else "column", "span": cells,
                 "length": length, "max": n},
                tuple(cells),
            )
        if cm & (cm - 1) == 0:
            if sm.bit_count() != length:
                raise refusals.duplicate(self._cells,
                    _line_cells(line, first, length, horizontal), horizontal,
                    placed_cells,
                )
            is_color = True
        elif sm & (sm - 1) == 0:
            if cm.bit_count() != length:
                raise refusals.duplicate(self._cells,
                    _line_cells(line, first, length, horizontal), horizontal,
                    placed_cells,
                )
            is_color = False
        else:
            raise refusals.mixed(self._cells,
                _line_cells(line, first, length, horizontal), horizontal, placed_cells
            )
        if length == n:
            points = length + n
            qwirkle = True
        else:
            points = length
            qwirkle = False
        if detail is not None:
            detail.append(LineScore(
                "row" if horizontal else "column",
                tuple(_line_cells(line, first, length, horizontal)),
                "color" if is_color else "shape",
                COLOR_NAMES[cm.bit_length() - 1] if is_color
                else SHAPE_NAMES[sm.bit_length() - 1],
                points,
                qwirkle,
            ))
        return points
