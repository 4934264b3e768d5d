"""Where a tile may go: for each empty cell beside the board, the tiles legal
there alone (RULES §3.5, §3.6), for the page's picker, the hints and the end
of a game that no tile can continue.

Board takes these methods from Placements; they read its tiles and keep two
memos on it (the masks per cell until the next play or pop, the tiles a run
accepts by its masks).
"""

from __future__ import annotations

from . import refusals
from .errors import Cell
from .tiles import COLOR_NAMES, PACKED, SHAPE_NAMES, STRIDE, Variant


class Placements:
    """The board's move generation: masks of the tiles each cell takes."""

    __slots__ = ("_masks", "_allowed_memo")

    variant: Variant
    _cells: dict[Cell, int]
    _counts: list[int]
    _color_counts: list[int]
    _per_color: bool
    _masks: dict[Cell, int] | None
    """legal_masks' answer, dropped by every play and pop."""
    _allowed_memo: dict[int, int]
    """allowed's answers, by the run's masks and length."""

    def unplayed_mask(self) -> int:
        """Return a mask of the tile codes that still have a copy off the board."""
        copies = self.variant.copies
        counts = self._color_counts if self._per_color else self._counts
        shift = STRIDE.bit_length() - 1 if self._per_color else 0
        mask = 0
        for code in self.variant.codes:
            if counts[code >> shift] < copies:
                mask |= 1 << code
        return mask


    def allowed(self, cm: int, sm: int, n: int) -> int:
        """Return the tile codes that may join a run of n tiles with these masks.

        cm and sm are the OR of the run's colour and shape bits; the run may be
        two runs about to be joined by the new tile.
        """
        key = cm | sm << 8 | n << 16
        memo = self._allowed_memo
        found = memo.get(key)
        if found is not None:
            return found
        size = self.variant.colors
        mask = 0
        if n == 0:
            mask = self.variant.all_mask
        elif n < size:
            if cm & (cm - 1) == 0 and sm.bit_count() == n:
                color = cm.bit_length() - 1
                for shape in range(size):
                    if not sm >> shape & 1:
                        mask |= 1 << (color * STRIDE + shape)
            if sm & (sm - 1) == 0 and cm.bit_count() == n:
                shape = sm.bit_length() - 1
                for color in range(size):
                    if not cm >> color & 1:
                        mask |= 1 << (color * STRIDE + shape)
        memo[key] = mask
        return mask

    def cross_masks(self, cell: Cell) -> tuple[int, int, int, int]:
        """For an empty cell: (row_mask, row_len, col_mask, col_len).

        A mask holds the tiles the existing run(s) in that direction accept; a
        length counts the tiles that line would hold with one tile put on the cell.
        """
        get = self._cells.get
        r, c = cell
        m = 0
        x = c - 1
        code = get((r, x))
        while code is not None:
            m |= PACKED[code]
            x -= 1
            code = get((r, x))
        y = c + 1
        code = get((r, y))
        while code is not None:
            m |= PACKED[code]
            y += 1
            code = get((r, y))
        row_n = y - x - 2
        row_mask = self.allowed(m & 0xFF, m >> 8, row_n)
        m = 0
        x = r - 1
        code = get((x, c))
        while code is not None:
            m |= PACKED[code]
            x -= 1
            code = get((x, c))
        y = r + 1
        code = get((y, c))
        while code is not None:
            m |= PACKED[code]
            y += 1
            code = get((y, c))
        col_n = y - x - 2
        col_mask = self.allowed(m & 0xFF, m >> 8, col_n)
        return row_mask, row_n + 1, col_mask, col_n + 1

    def frontier(self) -> list[Cell]:
        """Return the empty cells that touch a tile, in a stable order."""
        cells = self._cells
        seen: dict[Cell, None] = {}
        for r, c in cells:
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell not in cells:
                    seen[cell] = None
        return list(seen)

    def legal_masks(self) -> dict[Cell, int]:
        """Return, for each frontier cell, a mask of the tiles legal there alone.

        Tiles whose copies are all on the board are left out (tile_exhausted).
        Cached until the next play or pop.
        """
        if self._masks is not None:
            return self._masks
        available = self.unplayed_mask()
        if not self._cells:
            masks = {(0, 0): available}
        else:
            masks = {}
            for cell in self.frontier():
                row_mask, _, col_mask, _ = self.cross_masks(cell)
                mask = row_mask & col_mask & available
                if mask:
                    masks[cell] = mask
        self._masks = masks
        return masks

    def legal_cells(self, color: str, shape: str) -> set[Cell]:
        """Return the cells where this tile alone may go ((0, 0) when empty)."""
        code = self.variant.code_of.get((color, shape))
        if code is None:
            raise refusals.unknown_tile(self.variant, color, shape)
        bit = 1 << code
        return {cell for cell, mask in self.legal_masks().items() if mask & bit}

    def legal_map(self) -> dict[tuple[str, str], set[Cell]]:
        """Return legal_cells for every tile of the set at once."""
        result: dict[tuple[str, str], set[Cell]] = {
            (COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE]): set()
            for code in self.variant.codes
        }
        by_code = {code: result[(COLOR_NAMES[code // STRIDE],
                                 SHAPE_NAMES[code % STRIDE])]
                   for code in self.variant.codes}
        for cell, mask in self.legal_masks().items():
            while mask:
                low = mask & -mask
                by_code[low.bit_length() - 1].add(cell)
                mask ^= low
        return result

    def can_place_any(self, kinds: int) -> bool:
        """Return whether any tile in the code mask `kinds` fits some cell alone."""
        if not kinds:
            return False
        if not self._cells:
            return True
        if self._masks is not None:
            return any(mask & kinds for mask in self._masks.values())
        cells = self._cells
        checked: set[Cell] = set()
        # Newest tiles first: their neighbourhood is the likeliest to be open.
        for r, c in reversed(cells):
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in cells or cell in checked:
                    continue
                checked.add(cell)
                row_mask, _, col_mask, _ = self.cross_masks(cell)
                if row_mask & col_mask & kinds:
                    return True
        return False
