"""Game records (`qwirkle-game/1`, CONTRACT §5) as files."""

from __future__ import annotations

from .. import engine
from .base import GameFile


def record_text(source: GameFile) -> str:
    """Build a stored game's record, serialised as the corpus files are."""
    return engine.dumps_record(engine.to_record(source.game, source.names))
