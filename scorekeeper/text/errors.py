"""Why the engine refused something: a move, a record, a name, bad input."""

from __future__ import annotations

from .. import engine
from .tiles import WORDS


def error(exc: engine.EngineError) -> str:
    """Return an engine error's sentence (illegal move, record, name, bad input)."""
    return WORDS.sentence(exc.key, exc.params)


def illegal_move(exc: engine.IllegalMove) -> str:
    """Return why a move is refused, naming its cells and tiles."""
    return error(exc)


def record_error(exc: engine.RecordError) -> str:
    """Return why a game record is refused, naming the move."""
    return error(exc)


def invalid_name(exc: engine.InvalidName) -> str:
    """Return why a player name (or a table of names) is refused."""
    return error(exc)
