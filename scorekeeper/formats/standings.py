"""A club night's standings as files: CSV and a printable PDF sheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import i18n, text
from .pdf import FONT
from .scoresheet import neutralise

CSV_COLUMNS = ("rank", "name", "games", "wins", "points", "value", "rating", "as_of")
"""The CSV's header row (the API's keys, in English like the score sheet's CSV);
as_of is the night's date, the day whose end the ratings are as of."""


@dataclass(frozen=True)
class StandingsFile:
    """A club night's standings as the file builders see them."""

    id: int
    """The event's id."""
    name: str
    """The event's name."""
    date: str
    """Its date (ISO)."""
    rows: Sequence[dict[str, Any]]
    """CONTRACT §14 standings rows, each with "rating" (an ordinal or None)."""
    finished: int = 0
    """Finished games counted."""
    running: int = 0
    """Games still being played (not counted)."""
    notes: Sequence[str] = ()
    """Sentences under the heading: how the standings are computed, as of when
    the ratings are."""


@dataclass(frozen=True)
class EventFormat:
    """A file of a club night: how to build it, its media type, its name."""

    name: str
    media_type: str
    build: Callable[[StandingsFile], str | bytes]
    filename: str

    def download_name(self, event_id: int) -> str:
        """Return the file name of event_id's download."""
        return self.filename.format(id=event_id)


def _rating(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def standings_csv(source: StandingsFile) -> str:
    """Return the standings as CSV (UTF-8 with a byte-order mark for spreadsheets)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in source.rows:
        writer.writerow([
            row["rank"], neutralise(row["name"]), row["games"], row["wins"],
            row["points"], row["value"], _rating(row.get("rating")), source.date,
        ])
    return "\ufeff" + buffer.getvalue()


def standings_pdf(source: StandingsFile) -> bytes:
    """Return the standings as an A4 PDF, in the page's language."""
    labels = text.standings_labels()
    from fpdf import FPDF  # as pdf.scoresheet_pdf: only where one is drawn

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    title = text.standings_title(source.name)
    pdf.set_title(title)
    pdf.set_creator("Qwirkle Scorekeeper")
    pdf.set_lang(i18n.current().code)
    pdf.add_font("Sheet", "", str(FONT))
    pdf.add_page()
    pdf.set_font("Sheet", size=16)
    pdf.multi_cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Sheet", size=10)
    pdf.cell(0, 6, f"{text.day(source.date)} · "
             f"{text.standings_note(source.finished, source.running)}",
             new_x="LMARGIN", new_y="NEXT")
    for note in source.notes:
        pdf.multi_cell(0, 5, note, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    widths = {"rank": 18.0, "name": 70.0, "games": 22.0, "wins": 22.0,
              "points": 24.0, "rating": 24.0}
    row_h = 8.0

    def header() -> None:
        pdf.set_font("Sheet", size=10)
        pdf.set_fill_color(235, 235, 235)
        for key, width in widths.items():
            pdf.cell(width, row_h, labels[key], border=1, align="C", fill=True)
        pdf.ln(row_h)

    header()
    pdf.set_font("Sheet", size=11)
    for row in source.rows:
        if pdf.will_page_break(row_h):
            pdf.add_page()
            header()
            pdf.set_font("Sheet", size=11)
        rating = row.get("rating")
        cells = {
            "rank": str(row["rank"]), "name": str(row["name"])[:32],
            "games": str(row["games"]), "wins": str(row["wins"]),
            "points": str(row["points"]),
            "rating": "" if rating is None else text.rating_value(rating),
        }
        for key, width in widths.items():
            pdf.cell(width, row_h, cells[key], border=1,
                     align="L" if key == "name" else "C")
        pdf.ln(row_h)
    return bytes(pdf.output())


EVENT_FORMATS: dict[str, EventFormat] = {
    fmt.name: fmt
    for fmt in (
        EventFormat("standings.csv", "text/csv", standings_csv,
                    "club-night-{id}-standings.csv"),
        EventFormat("standings.pdf", "application/pdf", standings_pdf,
                    "club-night-{id}-standings.pdf"),
    )
}
"""Every file a club night's standings can be downloaded as, by URL name."""
