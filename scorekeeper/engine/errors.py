"""The engine's exceptions."""

from __future__ import annotations

Cell = tuple[int, int]

ILLEGAL_MOVE_CODES: frozenset[str] = frozenset({
    "occupied", "same_cell_twice", "not_in_line", "gap", "not_connected",
    "mixed_line", "duplicate_in_line", "line_too_long", "tile_exhausted",
    "unknown_tile", "empty_move", "too_many_tiles", "first_move_trade",
    "trade_exceeds_bag", "pass_not_allowed", "game_over",
    # Extensions for Qwirkle Cubes (RULES §7):
    "trade_not_allowed", "first_move_too_small",
})
"""The illegal-move codes of CONTRACT §7, plus two for Qwirkle Cubes."""


class IllegalMove(ValueError):
    """A move the rules refuse; `.code` is a CONTRACT §7 code, str() a sentence."""

    def __init__(self, code: str, message: str, cells: tuple[Cell, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        """The CONTRACT §7 code naming the broken rule."""
        self.message = message
        """A sentence a player understands, naming the cells and line."""
        self.cells = cells
        """The cells the message names, for the app to mark."""

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r}, {self.cells!r})"


class RecordError(ValueError):
    """A game record that cannot be replayed: malformed, illegal or mis-scored."""

    def __init__(self, code: str, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        """What is wrong: 'bad_record', 'out_of_turn', 'score_mismatch',
        'final_mismatch' or an illegal-move code."""
        self.message = message
        """A sentence naming the move number and the reason."""
        self.move_number = move_number
        """The 1-based number of the offending move, or None for the whole record."""


def cell_text(cell: Cell) -> str:
    """Write a cell as players read it: (row, col)."""
    return f"({cell[0]}, {cell[1]})"


def span_text(cells: list[Cell] | tuple[Cell, ...]) -> str:
    """Write a line's extent: (0, 3)–(4, 3)."""
    return f"{cell_text(cells[0])}–{cell_text(cells[-1])}"
