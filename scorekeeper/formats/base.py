"""What a file is made from, and what the registry says about each format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import engine


@dataclass(frozen=True)
class GameFile:
    """A stored game as the file builders see it (no database, no request)."""

    id: int
    """The game's id."""
    names: tuple[str, ...]
    """Player names in seat order."""
    game: engine.Game
    """The replayed game."""
    created_at: str
    """When the game was created (ISO timestamp)."""
    first_move_at: str | None = None
    """When its first move was stored, if any."""
    last_move_at: str | None = None
    """When its last move was stored, if any."""

    @property
    def started_at(self) -> str:
        """When play started: the first move, else the creation."""
        return self.first_move_at or self.created_at


@dataclass(frozen=True)
class Format:
    """A file people take away: how to build it, its media type, its name."""

    name: str
    """The file's name in URLs: "scoresheet.csv"."""
    media_type: str
    """Its Content-Type."""
    build: Callable[[GameFile], str | bytes]
    """Builds the file's body."""
    filename: str | None = None
    """The name a download gets ("qwirkle-{id}.csv"); None: shown, not saved."""
    heavy: bool = False
    """Built in the helper process (web/helper.py): drawing it takes long
    enough (a PDF of 1,000 moves, a few hundred ms) to hold up every other
    request's thread."""

    def download_name(self, game_id: int) -> str | None:
        """Return the file name for game_id's download, or None."""
        return self.filename.format(id=game_id) if self.filename else None
