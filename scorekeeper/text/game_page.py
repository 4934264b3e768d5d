"""The game page: the board's names, its hints, and its scripts' sentences."""

from __future__ import annotations

from .. import engine
from ..i18n import gettext, ngettext
from .tiles import tile_name
from .units import by_unit


def board_label(variant: engine.Variant, tiles: int) -> str:
    """Return the board's accessible name: "The board, 12 tiles"."""
    return by_unit(variant, "board", num=tiles)


def board_label_forms(variant: engine.Variant) -> dict[str, str]:
    """Return the board's name for no tile, one, and more ("0", "1", "n"),
    for a page's script to name the board as tiles are placed (its number
    put in): the catalog's plural rule says how 0 and 1 read (French: "0
    pion"); every language here reads 2 and more alike."""
    return {"0": board_label(variant, 0), "1": board_label(variant, 1),
            "n": board_label(variant, 2)}


def first_move_hint(variant: engine.Variant) -> str:
    """Return the hint on an empty board."""
    return by_unit(variant, "first", n=variant.min_first_move)


def entry_hint(variant: engine.Variant) -> str:
    """Return the hint above the move entry before a tile is picked."""
    return by_unit(variant, "entry")


def supply_heading(variant: engine.Variant) -> str:
    """Return the heading of the tracker of what is still off the board."""
    return by_unit(variant, "supply")


def cubes_hint(variant: engine.Variant = engine.CUBES) -> str:
    """Describe Qwirkle Cubes for the new-game form (RULES §7)."""
    return ngettext(
        "Qwirkle Cubes: %(num)d cube of each colour, open hands, no trading or"
        " passing; the first move places at least %(n)d cubes.",
        "Qwirkle Cubes: %(num)d cubes of each colour, open hands, no trading or"
        " passing; the first move places at least %(n)d cubes.",
        variant.copies, n=variant.min_first_move,
    )


def board_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the sentences the game page's scripts show (they build none).

    Templates hold %(name)s-style gaps the scripts fill with numbers and names.
    Where the plural rule matters (it varies by language), a list holds the
    sentence for every count: "ready" one per number of pending tiles (0
    unused), "left" the tracker's "… left" of a set counted per colour for
    every count from 0 to a colour's copies, the colour's name still a gap.
    """
    return {
        "illegal": gettext("That move is not allowed."),
        "conflict": gettext(
            "Another device entered a move first; here is the game now."
        ),
        "forbidden": gettext(
            "This device may not enter moves for this game: scan the game's code"
            " from the device that started it."
        ),
        "refused": gettext("The move was refused (%(status)s)."),
        "offline": gettext("No connection to the scorekeeper. Try again."),
        "ready": ready_strings(variant),
        "to_play": gettext("%(name)s to play", name="%(name)s"),
        "game_over": gettext("Game over"),
        "last_move": last_move_line("%(name)s", "%(move)s"),
        "hand": gettext("hand %(n)s", n="%(n)s"),
        "undone": gettext("The last move was taken back."),
        "move_line": gettext("%(name)s: %(what)s", name="%(name)s", what="%(what)s"),
        "nothing_to_undo": gettext("There is no move to undo."),
        "left": [
            ngettext("%(color)s %(num)d left", "%(color)s %(num)d left", n,
                     color="%(color)s")
            for n in range(variant.copies + 1)
        ] if variant.supply_per_color else [],
        **board_cell_strings(variant),
    }


def board_cell_strings(variant: engine.Variant) -> dict[str, object]:
    """Return what board.js says of cells and picker tiles: the
    screen reader's names of the cell under the keyboard cursor, the picker's
    names with the count left (one per count, the plural rule applied here),
    every tile's name, and why a cell or a greyed tile takes nothing."""
    cell = {"row": "%(row)s", "col": "%(col)s"}
    return {
        "cell_tile": gettext("%(tile)s, row %(row)s, column %(col)s",
                             tile="%(tile)s", **cell),
        "cell_pending": gettext("%(tile)s, not confirmed yet, row %(row)s,"
                                " column %(col)s", tile="%(tile)s", **cell),
        "cell_free": gettext("free cell, row %(row)s, column %(col)s", **cell),
        "cell_dead": gettext("dead cell, row %(row)s, column %(col)s", **cell),
        "cell_empty": gettext("empty, row %(row)s, column %(col)s", **cell),
        "pick": [
            ngettext("%(tile)s, %(num)d left", "%(tile)s, %(num)d left", n,
                     tile="%(tile)s")
            for n in range(variant.copies + 1)
        ],
        "names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
        "none_fit": gettext(
            "Nothing left can go on this cell. Tap a greyed tile to see why."
        ),
        "dead": gettext(
            "A dead cell: nothing left can go here. Tap a greyed tile to see why."
        ),
        "zoom": gettext("Zoomed in: tap the cell again to place a tile."),
    }


def last_move_line(name: str, move: str) -> str:
    """Return the status line's last move: "Last move (Ann): red line 3 = 3"."""
    return gettext("Last move (%(name)s): %(move)s", name=name, move=move)


def ready_strings(variant: engine.Variant) -> list[str]:
    """Return what board.js says with n tiles pending, indexed by n (0 unused),
    so that each language's plural rule is applied here, not in JavaScript."""
    return [""] + [
        by_unit(variant, "ready", num=n) for n in range(1, variant.hand_size + 1)
    ]
