"""Files people take away, built from the engine's data (no Flask, no SQL).

- `scoresheet`: the score sheet's rows, its CSV (CONTRACT §6) and what the
  printed sheet shows; `pdf`: that sheet as a PDF
- `record`: game records (CONTRACT §5); `backup`: `qwirkle-backup/1` files
- `chart`: the running-total chart (SVG); `bgstats`: BG Stats push-play links
- `standings`: a club night's standings (CSV, PDF); `rating_chart`: a
  player's rating history (SVG)

FORMATS maps each per-game file's name to its builder and media type; one
route serves them all (web/files.py). EVENT_FORMATS does the same for a club
night's files (web/events.py) and a season's (web/seasons.py).
"""

from __future__ import annotations

from .base import Format, GameFile
from .chart import chart_svg
from .pdf import pdf_file
from .record import record_text
from .scoresheet import csv_file
from .standings import EVENT_FORMATS, EventFormat, StandingsFile

FORMATS: dict[str, Format] = {
    fmt.name: fmt
    for fmt in (
        Format("scoresheet.csv", "text/csv", csv_file, "qwirkle-{id}.csv"),
        Format("scoresheet.pdf", "application/pdf", pdf_file,
               "qwirkle-{id}-scoresheet.pdf", heavy=True),
        Format("record.json", "application/json", record_text, "qwirkle-{id}.json"),
        Format("chart.svg", "image/svg+xml", chart_svg),
    )
}
"""Every file a stored game can be downloaded as, by its name in the URL."""


def build(name: str, source: GameFile) -> str | bytes:
    """Build the file `name` of a game (by reference, so a worker process can)."""
    return FORMATS[name].build(source)


__all__ = [
    "EVENT_FORMATS", "FORMATS", "EventFormat", "Format", "GameFile", "StandingsFile",
    "build",
]
