"""The printable score sheet: what the sheet page and its PDF show."""

from __future__ import annotations

from dataclasses import dataclass

from .. import engine, text, timestamps
from .base import GameFile
from .scoresheet import Cell, ScoreSheet, score_sheet


@dataclass(frozen=True)
class SheetView:
    """Everything a printed score sheet shows."""

    sheet: ScoreSheet
    """Rounds and totals."""
    winners: tuple[int, ...]
    """Winning seats (empty while the game runs)."""
    winner_line: str
    """"Winner: Ann", or that the game still runs."""
    qwirkles: tuple[int, ...]
    """Qwirkles per seat."""
    started_at: str
    """When play started (ISO timestamp)."""
    date: str
    """That moment in the reader's language and zone ("26 nov. 2026 14:05")."""
    duration: str
    """How long the game took: "1 h 05 min"."""
    reason: str
    """How the game ended ("" while it runs)."""
    set_description: str
    """The set, when it is not the classic box."""


def sheet_view(source: GameFile) -> SheetView:
    """Return the printed sheet of a stored game."""
    game = source.game
    final = game.final
    winners = final.winners if final is not None else ()
    return SheetView(
        sheet=score_sheet(source.names, game),
        winners=winners,
        winner_line=(
            text.end_reason(final.reason.value)
            if final is not None and not final.scored
            else text.winners_line(source.names, winners)
        ),
        qwirkles=tuple(game.qwirkles),
        started_at=source.started_at,
        date=text.date(source.started_at),
        duration=text.duration(
            timestamps.duration_minutes(source.first_move_at, source.last_move_at)
        ),
        reason=(
            text.final_reason(final, source.names, game.variant)
            if final is not None else ""
        ),
        set_description=text.set_description(game.variant),
    )


PENALTY_MARK = "!"
"""How a sheet marks a penalty (RULES §7), beside its 0 or deduction."""

EXCLUDED_MARK = "✕"
"""How a sheet marks the penalty that excluded a player."""


def cell_text(cell: Cell | None) -> str:
    """Return a score-sheet cell as written on paper, e.g. "18 Q" or "9 (+6)"."""
    if cell is None:
        return ""
    if cell.type == "trade":
        written = "0 ⇄"
    elif cell.type == "pass":
        written = "0 –"
    elif cell.type == "penalty":
        written = f"{cell.points} {PENALTY_MARK}"
        if cell.excludes:
            written += " " + EXCLUDED_MARK
    else:
        written = str(cell.points)
    if cell.qwirkles:
        written += " Q" * cell.qwirkles
    if cell.end_bonus:
        written += f" (+{cell.end_bonus})"
    return written


def legend(variant: engine.Variant, penalties: bool = False) -> str:
    """Return the key to cell_text's marks, as the PDF prints it (with the
    penalty marks when the sheet has penalties)."""
    key = text.sheet_legend(
        variant, trade="0 ⇄", passed="0 –", bonus=f"(+{engine.END_BONUS})",
        winner="*",
    )
    if penalties:
        key += " " + text.penalty_legend(
            penalty=PENALTY_MARK, excluded=EXCLUDED_MARK
        )
    return key
