"""The sentences that name what a set is made of: tiles, or cubes."""

from __future__ import annotations

from .. import engine
from ..engine.messages import N_, N_plural
from ..i18n import gettext, ngettext

UNIT_TEXTS: dict[str, dict[str, str | tuple[str, str]]] = {
    "tile": {
        "placed": N_plural("Placed %(num)d tile", "Placed %(num)d tiles"),
        "last": N_(
            "%(name)s placed their last tile with the bag empty: +%(n)d end bonus."
        ),
        "stalled": N_(
            "No tile left in the game can be placed anywhere: no end bonus."
        ),
        "board": N_plural("The board, %(num)d tile", "The board, %(num)d tiles"),
        "first": N_("Tap the square to place the first tile."),
        "entry": N_("Tap a dashed square next to the board, then pick the tile."),
        "supply": N_("Unseen tiles"),
        "ready": N_plural(
            "%(num)d tile ready: confirm to score.",
            "%(num)d tiles ready: confirm to score.",
        ),
    },
    "cube": {
        "placed": N_plural("Placed %(num)d cube", "Placed %(num)d cubes"),
        "last": N_(
            "%(name)s placed their last cube with the bag empty: +%(n)d end bonus."
        ),
        "stalled": N_(
            "No cube left in the game can be placed anywhere: no end bonus."
        ),
        "board": N_plural("The board, %(num)d cube", "The board, %(num)d cubes"),
        "first": N_(
            "Tap the square to place the first cube (the first move places at"
            " least %(n)d cubes)."
        ),
        "entry": N_(
            "Tap a dashed square next to the board, then pick the cube's colour and"
            " face."
        ),
        "supply": N_("Cubes left"),
        "ready": N_plural(
            "%(num)d cube ready: confirm to score.",
            "%(num)d cubes ready: confirm to score.",
        ),
    },
}
"""The sentences that name what a set is made of, by the variant's unit."""


def by_unit(
    variant: engine.Variant, key: str, num: int = 0, **variables: object
) -> str:
    """Return the unit's sentence `key`, translated and filled in (num chooses
    between singular and plural)."""
    template = UNIT_TEXTS[variant.unit][key]
    if isinstance(template, tuple):
        return ngettext(template[0], template[1], num, **variables)
    return gettext(template, **variables)
