"""Shared helpers for the engine tests: a seeded bot, random moves, symmetries."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from corpus import GAMES, PROBES, load
from corpus import game_files as corpus_records

from scorekeeper import engine

Tile = tuple[int, int, str, str]
"""A placement as the engine API takes it: (row, col, color, shape)."""

Kind = tuple[str, str]
"""A tile kind: (color, shape)."""

__all__ = ["GAMES", "PROBES", "corpus_records", "load"]


def record_tiles(move: dict) -> list[Tile]:
    """Turn a record move's tile dicts into engine placements."""
    return [(t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"]]


def full_set(variant: engine.Variant) -> list[Kind]:
    """Return every physical tile of a set, copies included."""
    return [
        (color, shape)
        for color in variant.color_names
        for shape in variant.shape_names
        for _ in range(variant.copies)
    ]


# The 8 symmetries of the square grid (rotations and mirrors).
SYMMETRIES: list[Callable[[int, int], tuple[int, int]]] = [
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
    lambda r, c: (-c, -r),
]


def transform(
    move: Iterable[Tile], sym: Callable[[int, int], tuple[int, int]]
) -> list[Tile]:
    """Apply a grid symmetry to the cells of a move."""
    return [(*sym(r, c), color, shape) for r, c, color, shape in move]


def frontier(board: engine.Board) -> set[tuple[int, int]]:
    """Return the empty cells next (side to side) to a tile on the board."""
    cells = set()
    for r, c, _, _ in board.tiles():
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if board.get((r + dr, c + dc)) is None:
                cells.add((r + dr, c + dc))
    return cells


def is_legal(board: engine.Board, move: list[Tile]) -> bool:
    """Tell whether the engine accepts a move (checked, not applied)."""
    try:
        board.check(move)
    except engine.IllegalMove:
        return False
    return True


def random_legal_move(
    board: engine.Board, hand: list[Kind], rng: random.Random
) -> list[Tile] | None:
    """Build a random legal move from a hand, or None when no tile fits.

    Starts from a random legal single tile (legal_cells) and extends the line at
    either end, jumping over tiles already on the board, while the engine
    accepts the longer move.  Built independently of best_moves.
    """
    kinds = sorted(set(hand))
    rng.shuffle(kinds)
    for kind in kinds:
        cells = sorted(board.legal_cells(*kind))
        if cells:
            break
    else:
        return None
    r, c = rng.choice(cells)
    move: list[Tile] = [(r, c, *kind)]
    rest = list(hand)
    rest.remove(kind)
    dr, dc = rng.choice([(0, 1), (1, 0)])
    for _ in range(rng.randint(0, len(rest))):
        taken = {(t[0], t[1]) for t in move}

        def occupied(cell: tuple[int, int], taken: set = taken) -> bool:
            return cell in taken or board.get(cell) is not None

        ends = []
        for sign in (1, -1):
            cell = (r, c)
            while occupied(cell):
                cell = (cell[0] + sign * dr, cell[1] + sign * dc)
            ends.append(cell)
        options = [
            (end, kind)
            for end in ends
            for kind in sorted(set(rest))
            if is_legal(board, move + [(*end, *kind)])
        ]
        if not options:
            break
        end, kind = rng.choice(options)
        move.append((*end, *kind))
        rest.remove(kind)
    rng.shuffle(move)
    return move


@dataclass
class Position:
    """A board reached by a seeded bot, with the moves that built it."""

    board: engine.Board
    moves: list[list[Tile]]
    bag: list[Kind]
    hand: list[Kind] = field(default_factory=list)


def build_position(
    seed: int,
    n_moves: int,
    variant: engine.Variant | None = None,
    use_best: bool = False,
) -> Position:
    """Play a seeded bot from an empty board for up to n_moves placing moves.

    The bot draws real tiles from a shuffled set (so no tile is ever
    exhausted) and plays either a random legal move or one of best_moves'
    answers.  Returns the board, the moves and a fresh hand for the next move.
    """
    variant = variant or engine.Variant()
    rng = random.Random(seed)
    bag = full_set(variant)
    rng.shuffle(bag)
    board = engine.Board(variant)
    moves: list[list[Tile]] = []
    hand = [bag.pop() for _ in range(min(variant.hand_size, len(bag)))]
    stuck = 0
    while len(moves) < n_moves and hand and stuck < 20:
        if use_best:
            options = engine.best_moves(board, hand, limit=5)
            move = list(rng.choice(options)[1]) if options else None
        else:
            move = random_legal_move(board, hand, rng)
        if move is None:
            # Trade the whole hand (tiles go back into the bag) and try again.
            stuck += 1
            bag.extend(hand)
            rng.shuffle(bag)
            hand = [bag.pop() for _ in range(min(variant.hand_size, len(bag)))]
            continue
        stuck = 0
        board.play(move)
        moves.append(move)
        for _, _, color, shape in move:
            hand.remove((color, shape))
        while len(hand) < variant.hand_size and bag:
            hand.append(bag.pop())
    return Position(board=board, moves=moves, bag=bag, hand=hand)


def replay(
    moves: list[list[Tile]], variant: engine.Variant | None = None
) -> engine.Board:
    """Build a board by playing the given moves in order."""
    board = engine.Board(variant)
    for move in moves:
        board.play(move)
    return board
