"""The engine's exceptions: a code, a message key and structured parameters.

`str(exc)` is the English sentence (`messages.MESSAGES[exc.key]` filled with
`exc.params`); `scorekeeper.text` writes the same sentence in a page's language.
"""

from __future__ import annotations

from collections.abc import Mapping

from .messages import ENGLISH

Cell = tuple[int, int]

ILLEGAL_MOVE_CODES: frozenset[str] = frozenset({
    "occupied", "same_cell_twice", "not_in_line", "gap", "not_connected",
    "mixed_line", "duplicate_in_line", "line_too_long", "tile_exhausted",
    "unknown_tile", "empty_move", "too_many_tiles", "first_move_trade",
    "trade_exceeds_bag", "pass_not_allowed", "game_over",
    # The length limit every path shares (CONTRACT §8):
    "too_many_moves",
    # Extensions for Qwirkle Cubes (RULES §7):
    "trade_not_allowed", "first_move_too_small",
    # Table discipline (CONTRACT §10): a penalty this table does not give.
    "no_penalty",
    # A player who leaves (RULES §7.5): a seat already out of play.
    "not_in_play",
})
"""The illegal-move codes of CONTRACT §7, the move limit, two for Qwirkle Cubes,
one for table discipline (§10) and one for a player who leaves."""

RECORD_ERROR_CODES: frozenset[str] = frozenset({
    "bad_record", "out_of_turn", "score_mismatch", "final_mismatch",
    "invalid_players",
}) | ILLEGAL_MOVE_CODES
"""Every code a RecordError may carry: its own, or the illegal move's."""


class EngineError(ValueError):
    """A refusal whose sentence is a message template filled with parameters."""

    def __init__(self, key: str, params: Mapping[str, object] | None = None) -> None:
        self.key = key
        """The message key in `messages.MESSAGES`."""
        self.params: dict[str, object] = dict(params or {})
        """The message's parameters: cells, tiles as (colour, shape), counts…"""
        self._sentence: str | None = None
        super().__init__(key)

    def __str__(self) -> str:
        """The English sentence, written when first asked for: the picker's
        options try every tile kind and refuse most, and read none of those."""
        if self._sentence is None:
            self._sentence = ENGLISH.sentence(self.key, self.params)
        return self._sentence

    @property
    def message(self) -> str:
        """The English sentence (as str(exc))."""
        return str(self)


class BadInput(EngineError):
    """Input of the wrong shape or type (not a rule): a variant, tile or move."""


class IllegalMove(EngineError):
    """A move the rules refuse; `.code` is a CONTRACT §7 code, str() a sentence."""

    def __init__(
        self, code: str, key: str | None = None,
        params: Mapping[str, object] | None = None, cells: tuple[Cell, ...] = (),
        move_number: int | None = None,
    ) -> None:
        self.code = code
        """The CONTRACT §7 code naming the broken rule."""
        self.cells = cells
        """The cells the refusal concerns, for the app to mark (the sentence names
        tiles and lines, not coordinates)."""
        self.move_number = move_number
        """In a replay of many moves, the 1-based number of the refused one."""
        super().__init__(key or code, params)

    def at_move(self, number: int) -> IllegalMove:
        """Return the same refusal, saying it is move `number` of a replay."""
        return IllegalMove(self.code, self.key, self.params, self.cells, number)

    def __repr__(self) -> str:
        return (
            f"IllegalMove({self.code!r}, {self.key!r}, {self.params!r},"
            f" {self.cells!r})"
        )


class RecordError(EngineError):
    """A game record that cannot be replayed: malformed, illegal or mis-scored."""

    def __init__(
        self, code: str, key: str, params: Mapping[str, object] | None = None,
        move_number: int | None = None,
    ) -> None:
        self.code = code
        """What is wrong: 'bad_record', 'out_of_turn', 'score_mismatch',
        'final_mismatch', 'invalid_players' or an illegal-move code."""
        self.move_number = move_number
        """The 1-based number of the offending move, or None for the whole record."""
        super().__init__(key, params)
