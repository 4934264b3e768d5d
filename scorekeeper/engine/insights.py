"""Insights: what the table could not see (CONTRACT §11).

Hints read a position: the Qwirkle threats, the dead cells and the hot cells.
The analysis of a game asks of every placing move what the same tiles could
have scored ("same tiles, best spot") and gives each seat an efficiency.

Everything here is read off the engine's own machinery (`Board.frontier`,
`Board.legal_masks`, `Board.check`, `search.best_moves`), so no rule or
scoring fact is written twice. Results are frozen dataclasses whose
`to_dict()` gives the JSON shapes of CONTRACT §11; hot cells and efficiency
are extensions.

For the app: `hints(board)` serves `/hints`; `analyse_last_move(game)` (or
`analyse_move(board_before, move, number)`) analyses one move as it is
written, `MoveAnalysis.to_dict()`/`from_dict()` store it, and
`analyse_game(game, cached=...)` serves `/analysis`, computing only what is
not stored. `best_move(board, hand)` answers an open Qwirkle Cubes hand.

Conventions:

- "Unseen" copies of a kind are those not on the board (in hands or the bag).
  In Qwirkle Cubes a cube can show any face, so a kind's unseen count is the
  cubes of its colour off the board.
- A threat is one line of N−1 tiles that one tile, legally placed alone, turns
  into a line of N (a Qwirkle). The N−1 tiles may be one run or two runs the
  tile joins. A run completable at both ends is one threat whose `completing`
  lists both cells. A line whose missing tile fits nowhere (every copy on the
  board, or each completing cell blocked by its cross line) is no threat.
- A single tile's score depends only on where it goes, not on which tile it
  is, so a hot cell lists every kind that may go there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import refusals
from .board import Board
from .errors import Cell
from .game import Game
from .moves import Move
from .parse import Placement
from .search import best_moves
from .tiles import COLOR_NAMES, SHAPE_NAMES, STRIDE

HOT_CELLS = 5
"""How many hot cells `hints` lists unless asked for another number."""


# -- values --------------------------------------------------------------------


@dataclass(frozen=True)
class Completing:
    """One tile kind that, put on one cell, completes a threatened line."""

    row: int
    """Row of the empty cell."""
    col: int
    """Column of the empty cell."""
    color: str
    """Colour of the completing tile."""
    shape: str
    """Shape of the completing tile."""
    unseen: int
    """Copies of that kind not on the board (for cubes: cubes of its colour)."""

    def to_dict(self) -> dict[str, object]:
        """Return the completing tile as in CONTRACT §11."""
        return {
            "row": self.row, "col": self.col, "color": self.color,
            "shape": self.shape, "unseen": self.unseen,
        }


@dataclass(frozen=True)
class Threat:
    """A line of N−1 tiles that one tile can turn into a Qwirkle."""

    cells: tuple[Cell, ...]
    """The N−1 tiles of the line, in order along it."""
    completing: tuple[Completing, ...]
    """Every (cell, kind) that completes it, by cell then kind."""

    def to_dict(self) -> dict[str, object]:
        """Return the threat as in CONTRACT §11."""
        return {
            "cells": [list(cell) for cell in self.cells],
            "completing": [tile.to_dict() for tile in self.completing],
        }


@dataclass(frozen=True)
class HotCell:
    """An empty cell and the most a single unseen tile scores there."""

    row: int
    """Row of the cell."""
    col: int
    """Column of the cell."""
    points: int
    """Points of one tile put there alone (the same for every kind that fits)."""
    qwirkles: int
    """Lines that tile would complete (0, 1 or 2)."""
    kinds: tuple[tuple[str, str, int], ...]
    """(colour, shape, unseen) of every kind with an unseen copy that fits."""

    def to_dict(self) -> dict[str, object]:
        """Return the hot cell as JSON-ready data (an extension of CONTRACT §11)."""
        return {
            "row": self.row,
            "col": self.col,
            "points": self.points,
            "qwirkles": self.qwirkles,
            "kinds": [
                {"color": color, "shape": shape, "unseen": unseen}
                for color, shape, unseen in self.kinds
            ],
        }


@dataclass(frozen=True)
class Hints:
    """What a position offers: Qwirkle threats, dead cells and hot cells."""

    threats: tuple[Threat, ...]
    """Lines one tile can complete, ordered by their first cell."""
    dead_cells: tuple[Cell, ...]
    """Empty cells next to the board where no unseen tile may go, sorted."""
    hot_cells: tuple[HotCell, ...]
    """The best single-tile scores still open, best first (ties by cell)."""

    def to_dict(self) -> dict[str, object]:
        """Return the hints as CONTRACT §11's answer, plus `hot_cells`."""
        return {
            "threats": [threat.to_dict() for threat in self.threats],
            "dead_cells": [list(cell) for cell in self.dead_cells],
            "hot_cells": [cell.to_dict() for cell in self.hot_cells],
        }


@dataclass(frozen=True)
class BestPlay:
    """A highest-scoring legal placing move and its points (end bonus excluded)."""

    points: int
    """What the move scores; 0 when no tile can be placed."""
    tiles: tuple[Placement, ...]
    """The tiles of one move achieving it; empty when none can be placed."""

    def tiles_dicts(self) -> list[dict[str, object]]:
        """Return the tiles as CONTRACT §5 tile objects."""
        return [
            {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
            for t in self.tiles
        ]


@dataclass(frozen=True)
class MoveAnalysis:
    """"Same tiles, best spot" for one placing move."""

    number: int
    """The move's number, from 1, counting every move (trades and passes too)."""
    player: int
    """Seat of the player who moved."""
    score: int
    """What the move scored (end bonus excluded)."""
    best_same_tiles: int
    """The most any legal move of some of the same tiles could have scored on
    the board as it was (end bonus excluded); never below `score`."""
    best: tuple[Placement, ...]
    """One move achieving `best_same_tiles`: the move itself when it did."""

    @property
    def missed(self) -> int:
        """Points the player left lying with these tiles."""
        return self.best_same_tiles - self.score

    def to_dict(self) -> dict[str, object]:
        """Return the move's analysis as in CONTRACT §11."""
        return {
            "number": self.number,
            "player": self.player,
            "score": self.score,
            "best_same_tiles": self.best_same_tiles,
            "best": BestPlay(self.best_same_tiles, self.best).tiles_dicts(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MoveAnalysis:
        """Rebuild an analysis stored with to_dict(); ValueError if malformed."""
        values: list[int] = []
        for key in ("number", "player", "score", "best_same_tiles"):
            value = data.get(key)
            if type(value) is not int:
                raise ValueError(f"a move analysis needs a whole-number {key!r}")
            values.append(value)
        raw = data.get("best")
        if not isinstance(raw, list):
            raise ValueError("a move analysis needs a 'best' list of tiles")
        best: list[Placement] = []
        for tile in raw:
            if not isinstance(tile, Mapping):
                raise ValueError("each 'best' tile is a {row, col, color, shape}")
            row, col = tile.get("row"), tile.get("col")
            color, shape = tile.get("color"), tile.get("shape")
            if (type(row) is not int or type(col) is not int
                    or not isinstance(color, str) or not isinstance(shape, str)):
                raise ValueError("each 'best' tile is a {row, col, color, shape}")
            best.append(Placement(row, col, color, shape))
        number, player, score, best_points = values
        return cls(number, player, score, best_points, tuple(best))


@dataclass(frozen=True)
class SeatEfficiency:
    """One seat's points from placing against the points their tiles offered."""

    player: int
    """The seat."""
    scored: int
    """Points the seat scored by placing (end bonus excluded)."""
    available: int
    """Sum of best_same_tiles over the seat's placing moves."""

    @property
    def ratio(self) -> float | None:
        """scored ÷ available, from 0 to 1; None before the seat has placed."""
        return self.scored / self.available if self.available else None

    def to_dict(self) -> dict[str, object]:
        """Return the seat's efficiency as JSON-ready data (an extension)."""
        return {
            "player": self.player,
            "scored": self.scored,
            "available": self.available,
            "efficiency": self.ratio,
        }


@dataclass(frozen=True)
class GameAnalysis:
    """Every placing move's analysis and each seat's efficiency."""

    moves: tuple[MoveAnalysis, ...]
    """One entry per placing move, in order."""
    efficiency: tuple[SeatEfficiency, ...]
    """One entry per seat, in seat order."""

    def to_dict(self) -> dict[str, object]:
        """Return CONTRACT §11's analysis answer, plus `efficiency`."""
        return {
            "moves": [move.to_dict() for move in self.moves],
            "efficiency": [seat.to_dict() for seat in self.efficiency],
        }


# -- hints ---------------------------------------------------------------------


def _unseen_by_code(board: Board) -> dict[int, int]:
    """Map each tile code of the set to its unseen copies (cubes: per colour)."""
    unseen = board.unseen()
    supply_key = board.variant.supply_key
    return {
        code: unseen[
            supply_key(COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE])
        ]
        for code in board.variant.codes
    }


def _codes(mask: int) -> list[int]:
    """List the tile codes in a mask, lowest first."""
    codes = []
    while mask:
        low = mask & -mask
        codes.append(low.bit_length() - 1)
        mask ^= low
    return codes


def hints(board: Board, hot: int = HOT_CELLS) -> Hints:
    """Return the Qwirkle threats, dead cells and `hot` hottest cells of a board.

    An empty board has no cell next to it, so it has no hints.
    """
    if not len(board):
        return Hints((), (), ())
    masks = board.legal_masks()
    unseen = _unseen_by_code(board)
    lines: dict[tuple[Cell, ...], list[Completing]] = {}
    dead: list[Cell] = []
    hot_cells: list[HotCell] = []
    for cell in board.frontier():
        mask = masks.get(cell, 0)
        if not mask:
            dead.append(cell)
            continue
        codes = _codes(mask)
        kinds = [(COLOR_NAMES[code // STRIDE], SHAPE_NAMES[code % STRIDE], unseen[code])
                 for code in codes]
        # A lone tile's lines, and so its score, are the same whichever tile
        # it is: the board scores one and that stands for all.
        score = board.check([(*cell, *kinds[0][:2])])
        hot_cells.append(HotCell(cell[0], cell[1], score.points, score.qwirkles,
                                 tuple(kinds)))
        for line in score.lines:
            if line.qwirkle:
                others = tuple(other for other in line.cells if other != cell)
                lines.setdefault(others, []).extend(
                    Completing(cell[0], cell[1], color, shape, left)
                    for color, shape, left in kinds
                )
    order = board.variant.code_of
    threats = tuple(
        Threat(cells, tuple(sorted(
            completing,
            key=lambda t: (t.row, t.col, order[(t.color, t.shape)]),
        )))
        for cells, completing in sorted(lines.items())
    )
    hot_cells.sort(key=lambda h: (-h.points, h.row, h.col))
    return Hints(threats, tuple(sorted(dead)), tuple(hot_cells[:max(0, hot)]))


def threats(board: Board) -> tuple[Threat, ...]:
    """Return the board's Qwirkle threats (see `hints`)."""
    return hints(board, hot=0).threats


def dead_cells(board: Board) -> tuple[Cell, ...]:
    """Return the empty cells next to the board where no unseen tile may go."""
    return hints(board, hot=0).dead_cells


def hot_cells(board: Board, limit: int = HOT_CELLS) -> tuple[HotCell, ...]:
    """Return the `limit` best single-tile scores open to unseen tiles."""
    return hints(board, hot=limit).hot_cells


# -- best moves ----------------------------------------------------------------


def _kinds(tiles: Iterable[Sequence[object]]) -> list[tuple[str, str]]:
    """Take (colour, shape) from placed tiles given as (row, col, colour, shape)."""
    kinds: list[tuple[str, str]] = []
    for tile in tiles:
        try:
            _, _, color, shape = tile
        except (TypeError, ValueError):
            raise ValueError(
                f"a placed tile is (row, col, color, shape), not {tile!r}"
            ) from None
        if not isinstance(color, str) or not isinstance(shape, str):
            raise ValueError(f"a tile's color and shape are names, not {tile!r}")
        kinds.append((color, shape))
    return kinds


def _best(board: Board, hand: Sequence[tuple[str, str]]) -> BestPlay:
    """Return the best legal move of some of `hand`'s tiles (0 and () if none)."""
    found = best_moves(board, hand, limit=1)
    if not found:
        return BestPlay(0, ())
    points, tiles = found[0]
    return BestPlay(points, tuple(Placement(*tile) for tile in tiles))


def best_same_tiles(
    board_before: Board, placed_tiles: Iterable[Sequence[object]]
) -> BestPlay:
    """Return the best legal move made of some of the tiles a player placed.

    `board_before` is the board as it was before the move; `placed_tiles` are
    the move's (row, col, colour, shape) tiles, of which only the kinds count.
    The points exclude the end bonus, so they are never below the move's own.
    """
    return _best(board_before, _kinds(placed_tiles))


def best_move(board: Board, hand: Sequence[tuple[str, str]]) -> BestPlay | None:
    """Return the best move for an open hand (Qwirkle Cubes), or None if none fits.

    `hand` lists the (colour, shape) of each tile or cube held, faces as
    rolled. ValueError (IllegalMove for an unknown tile) when the hand is
    larger than the set's hands or holds more of a tile (for cubes: of a
    colour) than is off the board.
    """
    variant = board.variant
    if len(hand) > variant.hand_size:
        raise ValueError(
            f"a hand holds at most {variant.hand_size} tiles, not {len(hand)}"
        )
    kinds: list[tuple[str, str]] = []
    held: dict[tuple[str, str], int] = {}
    for kind in hand:
        try:
            color, shape = kind
        except (TypeError, ValueError):
            raise ValueError(f"a hand's tile is (color, shape), not {kind!r}") from None
        if not isinstance(color, str) or not isinstance(shape, str):
            raise ValueError(f"a hand's tile is (color, shape), not {kind!r}")
        kinds.append((color, shape))
        if (color, shape) not in variant.code_of:
            raise refusals.unknown_tile(board.variant, color, shape)
        key = variant.supply_key(color, shape)
        held[key] = held.get(key, 0) + 1
    unseen = board.unseen()
    for (color, shape), count in held.items():
        if count > unseen[(color, shape)]:
            what = (f"{color} {variant.unit}s" if variant.supply_per_color
                    else f"{color} {shape} {variant.unit}s")
            raise ValueError(
                f"the hand holds {count} {what}, but only {unseen[(color, shape)]}"
                " are off the board"
            )
    best = _best(board, kinds)
    return best if best.tiles else None


# -- game analysis -------------------------------------------------------------


def analyse_move(board_before: Board, move: Move, number: int) -> MoveAnalysis:
    """Analyse one placing move, given the board as it was before it.

    When the move itself scores the most, `best` is the move, so a page draws
    a different placement only where one scores more.
    """
    if move.type != "place":
        raise ValueError(f"only placing moves are analysed, not a {move.type!r}")
    best = best_same_tiles(board_before, move.tiles)
    if best.points == move.score:
        return MoveAnalysis(number, move.player, move.score, move.score, move.tiles)
    return MoveAnalysis(number, move.player, move.score, best.points, best.tiles)


def analyse_last_move(game: Game) -> MoveAnalysis | None:
    """Analyse a game's last move when it placed tiles (None otherwise).

    For the app to call right after recording a move; the game is not changed.
    """
    if not game.moves or game.moves[-1].type != "place":
        return None
    before = game.board.copy()
    before.pop()
    return analyse_move(before, game.moves[-1], len(game.moves))


def efficiency(
    analyses: Iterable[MoveAnalysis], players: int
) -> tuple[SeatEfficiency, ...]:
    """Sum each seat's scored and available points over its analysed moves.

    Over several games, add the seats' `scored` and `available` and divide
    the sums: a ratio of sums, not a mean of ratios.
    """
    scored = [0] * players
    available = [0] * players
    for analysis in analyses:
        scored[analysis.player] += analysis.score
        available[analysis.player] += analysis.best_same_tiles
    return tuple(
        SeatEfficiency(seat, scored[seat], available[seat]) for seat in range(players)
    )


def analyse_game(
    game: Game, cached: Mapping[int, MoveAnalysis] | None = None
) -> GameAnalysis:
    """Analyse every placing move of a game and each seat's efficiency.

    `cached` maps move numbers to analyses already stored; those are reused
    as they are (the caller drops them when an undo or a correction changes
    the moves), and only the others are computed.
    """
    cached = cached or {}
    board = Board(game.variant)
    analyses: list[MoveAnalysis] = []
    for number, move in enumerate(game.moves, start=1):
        if move.type != "place":
            continue
        known = cached.get(number)
        analyses.append(known if known is not None
                        else analyse_move(board, move, number))
        board.play(move.tiles)
    return GameAnalysis(tuple(analyses), efficiency(analyses, game.players))
