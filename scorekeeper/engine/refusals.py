"""Why a placing move is refused: each IllegalMove the board raises, naming the
cells and tiles at fault (RULES §3; the codes: CONTRACT §7).

The board finds the fault; these build its refusal, so that the checks read
as the rules do and a message's parameters have one home.
"""

from __future__ import annotations

from .errors import Cell, IllegalMove
from .tiles import COLOR_BIT, COLOR_NAMES, SHAPE_BIT, SHAPE_NAMES, STRIDE, Variant


def kind(code: int) -> tuple[str, str]:
    """Return the (colour, shape) of a tile code, as messages name tiles."""
    return COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE]


def unknown_tile(
    variant: Variant, color: object, shape: object, cell: Cell | None = None
) -> IllegalMove:
    """A tile the set has no such colour, or no such shape, for."""
    at = "_at" if cell is not None else ""
    cells = (cell,) if cell is not None else ()
    if color not in variant.color_names:
        return IllegalMove(
            "unknown_tile", "unknown_color" + at,
            {"cell": cell, "value": color, "colors": variant.color_names}
            if cell is not None
            else {"value": color, "colors": variant.color_names},
            cells,
        )
    return IllegalMove(
        "unknown_tile", "unknown_shape" + at,
        {"cell": cell, "value": shape, "shapes": variant.shape_names}
        if cell is not None
        else {"value": shape, "shapes": variant.shape_names},
        cells,
    )


def too_many(variant: Variant, k: int) -> IllegalMove:
    """More tiles than a hand holds."""
    return IllegalMove(
        "too_many_tiles", None, {"hand_size": variant.hand_size, "count": k}
    )


def first_move_too_small(variant: Variant, cell: Cell) -> IllegalMove:
    """A first move of fewer tiles than the set asks for (Qwirkle Cubes)."""
    return IllegalMove(
        "first_move_too_small", None,
        {"minimum": variant.min_first_move}, (cell,),
    )


def same_cell_twice(cell: Cell) -> IllegalMove:
    """Two tiles of one move on one cell."""
    return IllegalMove("same_cell_twice", None, {"cell": cell}, (cell,))


def not_in_line(cell: Cell, other: Cell) -> IllegalMove:
    """A move's tiles in neither one row nor one column."""
    return IllegalMove(
        "not_in_line", None, {"cell": cell, "cell2": other}, (cell, other)
    )


def exhausted(
    variant: Variant, counts: list[int], code: int, cell: Cell, times: int
) -> IllegalMove:
    """A tile placed more often than the set has copies of it (`counts`: the
    copies of each code on the board)."""
    copies = variant.copies
    on_board = counts[code]
    if on_board >= copies:
        return IllegalMove(
            "tile_exhausted", "tile_exhausted_all",
            {"copies": copies, "kinds": kind(code), "tile": kind(code),
             "cell": cell},
            (cell,),
        )
    return IllegalMove(
        "tile_exhausted", "tile_exhausted_more",
        {"count": on_board + times, "kinds": kind(code), "copies": copies},
        (cell,),
    )


def occupied(cells: dict[Cell, int], cell: Cell) -> IllegalMove:
    """A tile put on a cell that already holds one."""
    return IllegalMove(
        "occupied", None, {"cell": cell, "tile": kind(cells[cell])}, (cell,),
    )


def gap(cell: Cell) -> IllegalMove:
    """An empty cell inside the move's line."""
    return IllegalMove("gap", None, {"cell": cell}, (cell,))


def not_connected(placed_cells: tuple[Cell, ...]) -> IllegalMove:
    """A move that touches no tile on the board."""
    return IllegalMove(
        "not_connected", None, {"cells": placed_cells}, placed_cells
    )


def duplicate(
    cells: dict[Cell, int], line: list[Cell], horizontal: bool,
    placed_cells: tuple[Cell, ...],
) -> IllegalMove:
    """A line holding one tile twice, naming a placed copy where there is one."""
    direction = "row" if horizontal else "column"
    codes = [cells[cell] for cell in line]
    # Prefer naming a placed tile: that is the one the player can change.
    order = [i for i, cell in enumerate(line) if cell in placed_cells] + [
        i for i, cell in enumerate(line) if cell not in placed_cells
    ]
    for i in order:
        code = codes[i]
        if codes.count(code) > 1:
            cell = line[i]
            return IllegalMove(
                "duplicate_in_line", None,
                {"tile": kind(code), "cell": cell,
                 "line": line_name(codes, direction), "span": line},
                (cell, *(c for c in line if cells[c] == code and c != cell)),
            )
    raise AssertionError("no duplicate in a line flagged as duplicate")


def mixed(
    cells: dict[Cell, int], line: list[Cell], horizontal: bool,
    placed_cells: tuple[Cell, ...],
) -> IllegalMove:
    """A line sharing neither a colour nor a shape, naming the placed tile that
    breaks what the board's tiles of the line share, where they share one."""
    direction = "row" if horizontal else "column"
    existing = [cells[cell] for cell in line if cell not in placed_cells]
    if len(existing) >= 2:
        cm = sm = 0
        for code in existing:
            cm |= COLOR_BIT[code]
            sm |= SHAPE_BIT[code]
        if cm & (cm - 1) == 0 or sm & (sm - 1) == 0:
            same_color = cm & (cm - 1) == 0
            for cell in line:
                if cell not in placed_cells:
                    continue
                code = cells[cell]
                fits = (COLOR_BIT[code] == cm) if same_color else (
                    SHAPE_BIT[code] == sm
                )
                if not fits:
                    params: dict[str, object] = {
                        "tile": kind(code), "cell": cell,
                        "line": line_name(existing, direction),
                        "span": line,
                    }
                    if same_color:
                        params["color"] = COLOR_NAMES[cm.bit_length() - 1]
                    else:
                        params["shape"] = SHAPE_NAMES[sm.bit_length() - 1]
                    return IllegalMove(
                        "mixed_line",
                        "mixed_line_color" if same_color else "mixed_line_shape",
                        params, (cell,),
                    )
    return IllegalMove(
        "mixed_line", None,
        {"direction": direction, "span": line,
         "tiles": [kind(cells[cell]) for cell in line]},
        tuple(cell for cell in line if cell in placed_cells) or tuple(line),
    )


def line_name(codes: list[int], direction: str) -> tuple[str, str, str]:
    """Return (direction, kind, value) naming a line by what its tiles share."""
    cm = sm = 0
    for code in codes:
        cm |= COLOR_BIT[code]
        sm |= SHAPE_BIT[code]
    if cm & (cm - 1) == 0 and sm & (sm - 1) != 0:
        return direction, "color", COLOR_NAMES[cm.bit_length() - 1]
    if sm & (sm - 1) == 0 and cm & (cm - 1) != 0:
        return direction, "shape", SHAPE_NAMES[sm.bit_length() - 1]
    return direction, "", ""
