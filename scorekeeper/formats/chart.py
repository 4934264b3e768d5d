"""Server-rendered SVG score chart: each player's running total per round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Protocol

from .. import engine, text
from .base import GameFile

# Colour-blind-friendly line colours (Okabe-Ito), one per seat, up to 8 seats.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "currentColor",  # the ink: black on paper, light in the dark scheme
    "#999999",
)
"""Line colour of each seat, in seat order."""

# Dash patterns keep lines apart when printed in black and white.
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")


class Scored(Protocol):
    """A move as the chart reads it (engine.Move has these)."""

    @property
    def player(self) -> int: ...
    @property
    def mover(self) -> int | None: ...
    @property
    def score(self) -> int: ...
    @property
    def end_bonus(self) -> int: ...


def running_totals(moves: Sequence[Scored], players: int) -> list[list[int]]:
    """Return each seat's running total after every round, starting with 0.

    A round is one turn of every seat in play, starting with the first player
    (engine.move_rounds); a round that is still under way counts as a round.
    The end bonus counts in the round it was earned, a deduction in the round
    of its penalty.
    """
    totals = [0] * players
    series: list[list[int]] = [[0] for _ in range(players)]
    rounds = engine.move_rounds(move.mover for move in moves)
    for index, move in enumerate(moves):
        seat = move.player
        totals[seat] += move.score + move.end_bonus
        if index == len(moves) - 1 or rounds[index + 1] != rounds[index]:
            for s in range(players):
                series[s].append(totals[s])
    return series


def nice_step(top: float) -> int:
    """Return a round tick step for an axis reaching `top`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top / step <= 8:
            return step
    return max(1, int(top) // 8)


FONT = 13
"""Text size in the chart's units. The chart is drawn 360 units wide, a phone's
width, so that a phone shows its text at about this many CSS px (>= 11, issue
18) and a page widens it at most to history.css's max-width (480 px: 17 px)."""

INK = f'fill="currentColor" font-size="{FONT}"'
"""Every text's colour and size: the page's ink, so that a chart reads in the
light and the dark scheme (black in a file of its own)."""


@dataclass(frozen=True)
class Plot:
    """Where a chart draws: its plot area inside a width × height picture."""

    width: int
    height: int
    left: int
    top: int
    plot_w: int
    plot_h: int

    def frame(self, css_class: str, title: str, ticks: Sequence[tuple[float, int]]
              ) -> list[str]:
        """The chart's opening: the svg element, its title, the plot's frame,
        and per y tick (its y, its value) a faint grid line with its label."""
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" '
            f'viewBox="0 0 {self.width} {self.height}" width="100%" role="img" '
            f'aria-labelledby="{css_class}-title" {INK}>',
            f'<title id="{css_class}-title">{escape(title)}</title>',
            f'<rect x="{self.left}" y="{self.top}" width="{self.plot_w}" '
            f'height="{self.plot_h}" fill="none" stroke="currentColor" '
            f'stroke-opacity=".45"/>',
        ]
        for y, value in ticks:
            out.append(
                f'<line x1="{self.left}" y1="{y:.1f}" x2="{self.left + self.plot_w}" '
                f'y2="{y:.1f}" stroke="currentColor" stroke-opacity=".15"/>'
                f'<text x="{self.left - 5}" y="{y:.1f}" text-anchor="end" '
                f'dominant-baseline="middle" {INK}>{value}</text>'
            )
        return out

    def x_tick(self, x: float, label: int) -> str:
        """A label under the plot at x."""
        return (f'<text x="{x:.1f}" y="{self.top + self.plot_h + 16}" '
                f'text-anchor="middle" {INK}>{label}</text>')

    def axis_titles(self, x_title: str, y_title: str, x_title_y: float) -> str:
        """The x axis's title under the plot, the y axis's turned along its left."""
        mid = self.top + self.plot_h / 2
        return (
            f'<text x="{self.left + self.plot_w / 2:.1f}" y="{x_title_y}" '
            f'text-anchor="middle" {INK}>{escape(x_title)}</text>'
            f'<text x="12" y="{mid:.1f}" text-anchor="middle" {INK} '
            f'transform="rotate(-90 12 {mid:.1f})">{escape(y_title)}</text>'
        )


def score_chart_svg(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    *,
    width: int = 360,
    height: int = 230,
    title: str = "Running totals per round",
    round_label: str = "Round",
    points_label: str = "Points",
) -> str:
    """Return an accessible SVG line chart of `series` (one list per player).

    The text is drawn in currentColor (the page's ink, so it reads in the light
    and the dark scheme; black in a file of its own), the grid faint in it; the
    legend, two players a row, stands under the plot."""
    left, right, top = 40, 10, 10
    legend_rows = -(-len(series) // 2)
    plot_w = width - left - right
    plot_h = height - top - 44
    total_h = height + legend_rows * 22
    rounds = max((len(s) for s in series), default=1) - 1
    rounds = max(rounds, 1)
    high = max((max(s) for s in series if s), default=0)
    # A deduction (RULES §7) can take a total below zero.
    low = min((min(s) for s in series if s), default=0)
    step = nice_step(max(high - min(low, 0), 1))
    y_top = max(step, -(-high // step) * step)
    y_bottom = min(0, (low // step) * step)
    span = y_top - y_bottom

    def x(i: int) -> float:
        return left + plot_w * i / rounds

    def y(v: int) -> float:
        return top + plot_h * (1 - (v - y_bottom) / span)

    plot = Plot(width, total_h, left, top, plot_w, plot_h)
    out = plot.frame("score-chart", title,
                     [(y(v), v) for v in range(y_bottom, y_top + 1, step)])
    out += [plot.x_tick(x(r), r) for r in range(0, rounds + 1, nice_step(rounds))]
    out.append(plot.axis_titles(round_label, points_label, top + plot_h + 34))
    for seat, values in enumerate(series):
        color = PALETTE[seat % len(PALETTE)]
        dash = DASHES[seat % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        final = values[-1] if values else 0
        out.append(
            f'<polyline class="series" data-seat="{seat}" fill="none" '
            f'stroke="{color}" stroke-width="2.5"{dash_attr} points="{points}">'
            f"<title>{escape(name)}: {final}</title></polyline>"
        )
        lx = 8 + (seat % 2) * (width // 2)
        ly = height + 8 + (seat // 2) * 22
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" '
            f'stroke="{color}" stroke-width="3"{dash_attr}/>'
            f'<text x="{lx + 30}" y="{ly}" dominant-baseline="middle">'
            f"{escape(name[:16])} {final}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def chart_svg(source: GameFile) -> str:
    """Build a stored game's running-total chart, labelled in the page's language."""
    game = source.game
    return score_chart_svg(
        source.names,
        running_totals(game.moves, game.players),
        title=text.chart_title(),
        round_label=text.round_label(),
        points_label=text.points_label(),
    )
