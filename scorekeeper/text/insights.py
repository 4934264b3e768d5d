"""Insights: the hints panel and how well a move used its tiles."""

from __future__ import annotations

from .. import engine
from ..i18n import gettext
from .numbers import percent
from .tiles import tile_name


def hint_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the words the hints panel's script (static/hints.js) shows."""
    return {
        "threats": gettext("Qwirkle threats: %(n)s", n="%(n)s"),
        "threat": gettext("%(tile)s makes a Qwirkle (%(n)s still out)",
                          tile="%(tile)s", n="%(n)s"),
        "hot": gettext("Best single tile: %(points)s", points="%(points)s"),
        "hot_next": gettext("Next best: %(points)s", points="%(points)s"),
        "dead": gettext("Dead cells: %(n)s", n="%(n)s"),
        "none": gettext("No Qwirkle can be completed with one tile now."),
        "failed": gettext("The hints could not be loaded. Try again."),
        "best": gettext("Best move: %(points)s (%(tiles)s)", points="%(points)s",
                        tiles="%(tiles)s"),
        "no_best": gettext("None of these cubes can be placed."),
        "tile_names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
    }



def best_spot_line(score: int, best: int) -> str:
    """Return a placing move's "same tiles, best spot" line with its efficiency."""
    if best <= score:
        return gettext("Same tiles, best spot: this was it (%(best)s).", best=best)
    return gettext(
        "Same tiles, best spot: %(best)s (scored %(score)s, %(efficiency)s).",
        best=best, score=score, efficiency=percent(score / best if best else None),
    )
