"""The Qwirkle rules engine: validation, scoring, game bookkeeping and analysis.

Pure Python, standard library only; the web app builds on it, never the reverse.

>>> from scorekeeper import engine
>>> board = engine.Board()
>>> board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])
2
"""

from .board import Board
from .discipline import (
    MAX_THINKING_SECONDS,
    MOVE_SECONDS,
    ON_ILLEGAL,
    ON_TIMEOUT,
    PENALTY_POINTS,
    Consequence,
    Options,
    Reason,
)
from .errors import (
    ILLEGAL_MOVE_CODES,
    RECORD_ERROR_CODES,
    BadInput,
    EngineError,
    IllegalMove,
    RecordError,
)
from .events import (
    MAX_TABLE,
    MIN_TABLE,
    SeatingError,
    rating_ranks,
    seat_tables,
    table_sizes,
)
from .game import (
    MENDABLE,
    Game,
    PlacedTile,
    Position,
    Preview,
)
from .insights import (
    BestPlay,
    Completing,
    GameAnalysis,
    Hints,
    HotCell,
    MoveAnalysis,
    SeatEfficiency,
    Threat,
    analyse_game,
    analyse_last_move,
    analyse_move,
    best_move,
    best_same_tiles,
    dead_cells,
    efficiency,
    hints,
    hot_cells,
    threats,
)
from .moves import MAX_MOVES, Move, move_record, move_rounds
from .names import (
    MAX_NAME_LENGTH,
    InvalidName,
    check_players,
    check_stored_players,
    name_key,
    normalise_name,
    repair_names,
)
from .near import near_names
from .parse import (
    MAX_COORDINATE,
    MoveInput,
    Placement,
    TileInput,
    parse_move,
    parse_tile,
    parse_tiles,
    thinking_time,
)
from .records import FORMAT, dumps_record, from_record, to_record, write_record
from .results import CLOSING, END_BONUS, EndReason, Final, Standing, ranks, winners
from .rounds import round_sizes, swiss_tables
from .scoring import LineScore, MoveScore
from .search import best_moves, legal_moves
from .standings import (
    SCORINGS,
    Scoring,
    Seat,
    counted_seats,
    measures,
    season_standings,
    standings,
)
from .tiles import CLASSIC, COLOR_NAMES, CUBES, SHAPE_NAMES, Variant

__all__ = [
    "MAX_TABLE",
    "MIN_TABLE",
    "SCORINGS",
    "Scoring",
    "Seat",
    "counted_seats",
    "measures",
    "near_names",
    "round_sizes",
    "season_standings",
    "swiss_tables",
    "standings",
    "Board", "Placement", "MAX_COORDINATE", "MAX_MOVES",
    "EngineError", "BadInput", "IllegalMove", "RecordError", "ILLEGAL_MOVE_CODES",
    "RECORD_ERROR_CODES",
    "Game", "Move", "Final", "EndReason", "CLOSING", "END_BONUS", "MENDABLE",
    "parse_tiles", "parse_tile", "parse_move", "MoveInput", "TileInput",
    "thinking_time",
    "Preview", "Position", "PlacedTile", "Standing", "ranks", "winners", "move_rounds",
    "Options", "Consequence", "Reason", "MOVE_SECONDS", "PENALTY_POINTS",
    "MAX_THINKING_SECONDS", "ON_ILLEGAL", "ON_TIMEOUT",
    "MAX_NAME_LENGTH", "InvalidName", "normalise_name", "name_key", "check_players",
    "check_stored_players", "repair_names",
    "FORMAT", "to_record", "from_record", "dumps_record", "write_record", "move_record",
    "LineScore", "MoveScore", "best_moves", "legal_moves",
    "Variant", "CLASSIC", "CUBES", "COLOR_NAMES", "SHAPE_NAMES",
    "Hints", "Threat", "Completing", "HotCell", "BestPlay", "MoveAnalysis",
    "SeatEfficiency", "GameAnalysis", "hints", "threats", "dead_cells",
    "hot_cells", "best_same_tiles", "best_move", "analyse_move",
    "analyse_last_move", "analyse_game", "efficiency",
    "SeatingError", "rating_ranks", "seat_tables", "table_sizes",
]
