"""The game corpus the tests own: records scored by an independent implementation.

`tests/data/games/` holds complete games in the `qwirkle-game/1` format and one
file of illegal-move probes (`qwirkle-probes/1`); its README says how they were
made. This module is the one loader: tests and benchmarks read the corpus here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GAMES = Path(__file__).resolve().parent / "data" / "games"
"""The folder of corpus files."""

PROBES = GAMES / "probes-classic-1000.json"
"""Moves tried on a real mid-game position, each illegal (with its code) or legal."""


def game_files(prefix: str = "") -> list[Path]:
    """Return the corpus's game records (probes excluded) whose names start so."""
    return sorted(
        path for path in GAMES.glob(f"{prefix}*.json")
        if not path.name.startswith("probes-")
    )


def load(name: str | Path) -> dict[str, Any]:
    """Return one corpus file, by path or by file name, as parsed JSON."""
    path = name if isinstance(name, Path) else GAMES / name
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def record_before(game: str, place: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return a corpus game's record up to its `place`-th placing move (scores
    left for the app to compute), and that move."""
    record = load(f"{game}.json")
    moves: list[dict[str, Any]] = []
    placed = 0
    for move in record["moves"]:
        if move["type"] == "place":
            placed += 1
            if placed == place:
                return {**record, "moves": moves, "final": None}, move
        moves.append({k: v for k, v in move.items() if k != "score"})
    raise ValueError(f"{game} has no placing move {place}")
