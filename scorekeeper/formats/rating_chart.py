"""A player's rating history as an SVG line chart, in the score chart's style.

Drawn narrow (a phone's width in user units) so that its 13-unit text stays
at least 11 px on a 360 px screen; text and axes take the page's text colour
(currentColor), so the chart reads in dark mode as in light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from .chart import PALETTE, Plot, nice_step


def rating_chart_svg(
    points: Sequence[tuple[float, float, float]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    band_label: str,
    width: int = 360,
    height: int = 220,
) -> str:
    """Return an accessible SVG chart of a player's rating after each rated game.

    points: (ordinal, mu, sigma) per game, oldest first. The line is the rating
    (the ordinal), the shaded band mu ± sigma.
    """
    left, right, top, bottom = 40, 10, 12, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    count = max(len(points), 1)
    values = [p[0] for p in points] + [p[1] + p[2] for p in points] + [
        p[1] - p[2] for p in points
    ] + [0.0]
    high, low = max(values), min(values)
    step = nice_step(max(int(high - low) + 1, 1))
    y_top = max(math.ceil(high / step), 1) * step
    y_bottom = min(math.floor(low / step), 0) * step
    span = max(y_top - y_bottom, 1)

    def x(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - y_bottom) / span)

    color = PALETTE[0]
    plot = Plot(width, height, left, top, plot_w, plot_h)
    out = plot.frame("rating-chart", title,
                     [(y(v), v) for v in range(y_bottom, y_top + 1, step)])
    games = len(points)
    out += [plot.x_tick(x(i), i + 1)
            for i in range(0, games, nice_step(max(games - 1, 1)))]
    out.append(plot.axis_titles(x_label, y_label, height - 4))
    if points:
        upper = [f"{x(i):.1f},{y(mu + sigma):.1f}" for i, (_, mu, sigma)
                 in enumerate(points)]
        lower = [f"{x(i):.1f},{y(mu - sigma):.1f}" for i, (_, mu, sigma)
                 in enumerate(points)]
        out.append(
            f'<polygon class="band" fill="{color}" fill-opacity="0.18" '
            f'stroke="none" points="{" ".join(upper + lower[::-1])}">'
            f"<title>{escape(band_label)}</title></polygon>"
        )
        line = " ".join(f"{x(i):.1f},{y(p[0]):.1f}" for i, p in enumerate(points))
        out.append(
            f'<polyline class="series" fill="none" stroke="{color}" '
            f'stroke-width="2.5" points="{line}"/>'
        )
        if len(points) == 1:
            # One game: the band is a bar, the line a dot.
            _, mu, sigma = points[0]
            out.append(
                f'<line x1="{x(0):.1f}" y1="{y(mu - sigma):.1f}" x2="{x(0):.1f}" '
                f'y2="{y(mu + sigma):.1f}" stroke="{color}" stroke-opacity="0.3" '
                f'stroke-width="14"/>'
            )
            out.append(
                f'<circle cx="{x(0):.1f}" cy="{y(points[0][0]):.1f}" r="4" '
                f'fill="{color}"/>'
            )
    out.append("</svg>")
    return "".join(out)
