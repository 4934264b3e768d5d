"""Tiles and colours: their names, colour-blind letters, and the names of sets."""

from __future__ import annotations

from .. import engine
from ..engine.messages import N_, Words
from ..i18n import gettext, ngettext

WORDS = Words(gettext, ngettext)
"""The engine's message words (tile names, cells, directions) in the page's language."""

COLOR_LETTERS: dict[str, str] = {
    "red": N_("R"), "orange": N_("O"), "yellow": N_("Y"), "green": N_("G"),
    "blue": N_("B"), "purple": N_("P"), "pink": N_("K"), "brown": N_("N"),
}
"""The letter on each colour's tiles in colour-blind mode (pink K, brown N, so
that no two colours share one)."""


def color_name(color: str) -> str:
    """Return a colour's name: "red"."""
    return WORDS.color(color)


def shape_name(shape: str) -> str:
    """Return a shape's name: "circle"."""
    return WORDS.shape(shape)


def tile_name(color: str, shape: str) -> str:
    """Return a tile's name: "red circle"."""
    return WORDS.tile((color, shape))


def color_letter(color: str) -> str:
    """Return the letter colour-blind mode writes on a tile of this colour."""
    return gettext(COLOR_LETTERS[color])


def color_letters(variant: engine.Variant) -> dict[str, str]:
    """Return the colour-blind letter of every colour of the set."""
    return {color: color_letter(color) for color in variant.color_names}


BOX_NAMES: dict[str, str] = {"classic": "", "cubes": N_("Qwirkle Cubes")}
"""What lists call each boxed set ("" for the classic box, which needs no name)."""


def set_name(variant: engine.Variant) -> str:
    """Name a set for lists: the box's name, else what sets a custom set apart."""
    box = BOX_NAMES.get(variant.name)
    if box is not None:
        return gettext(box) if box else ""
    return ngettext(
        "%(c)d colours, %(num)d copy", "%(c)d colours, %(num)d copies",
        variant.copies, c=variant.colors,
    )


def set_description(variant: engine.Variant) -> str:
    """Describe a set that is not the classic box, for a sheet's heading."""
    if variant.name == "classic":
        return ""
    return ngettext(
        "%(c)d colours, %(num)d copy, hands of %(h)d",
        "%(c)d colours, %(num)d copies, hands of %(h)d",
        variant.copies, c=variant.colors, h=variant.hand_size,
    )


def variant_comment(name: str) -> str:
    """Return the note a play logged elsewhere (BG Stats) carries for its set."""
    return gettext("Variant: %(name)s", name=name)
