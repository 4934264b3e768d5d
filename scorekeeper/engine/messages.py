"""Every sentence the engine's errors say, once, as templates with named parameters.

An engine error carries a message key and structured parameters (cells, tiles
as (colour, shape) pairs, counts, a line's direction and kind); `str(exc)` is
the template filled in English. The sentences name tiles and lines, never
coordinates the board does not show: the cells stay in the
parameters, and the page marks them on the board. A tile's name stands where
no article, ordinal or adjective has to agree with it (the rules a
test checks are in translations/grammar.toml). `scorekeeper.text` fills the
same template through gettext, so a page shows it in its own language. `N_`
only marks a string for the translation catalog (`N_plural` a singular/plural
pair).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

Cell = tuple[int, int]


def N_(message: str) -> str:
    """Mark a template for the translation catalog; return it unchanged."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a (singular, plural) pair for the catalog as one plural entry."""
    return (singular, plural)


Template = str | tuple[str, str]
"""A sentence, or a (singular, plural) pair chosen by the parameter `num` (or
the one COUNTED_BY names)."""

MESSAGES: dict[str, Template] = {
    # -- placing moves (RULES §3) --
    "empty_move": N_("A move must place at least one tile."),
    "empty_trade": N_("A trade swaps at least one tile."),
    "unknown_color": N_(
        "There is no colour %(value)s in this set (colours: %(colors)s)."
    ),
    "unknown_color_at": N_(
        "One of these tiles has the colour %(value)s, which this set does not"
        " have (colours: %(colors)s)."
    ),
    "unknown_shape": N_(
        "There is no shape %(value)s in this set (shapes: %(shapes)s)."
    ),
    "unknown_shape_at": N_(
        "One of these tiles has the shape %(value)s, which this set does not"
        " have (shapes: %(shapes)s)."
    ),
    "too_many_tiles": N_(
        "A move places at most %(hand_size)d tiles (a full hand); this one places"
        " %(count)d."
    ),
    "first_move_too_small": N_(
        "In Qwirkle Cubes the first move places at least %(minimum)d cubes sharing a"
        " colour or shape (re-roll until you can)."
    ),
    "tile_exhausted_all": N_plural(
        "The set has only one such tile (%(tile)s) and it is already on the"
        " board, so this one cannot be right.",
        "The set has %(num)d × %(tile)s and all are already on the board, so"
        " this one cannot be right.",
    ),
    "tile_exhausted_more": N_(
        "This move would put %(count)d × %(kinds)s on the board; the set has only"
        " %(copies)d."
    ),
    "cubes_exhausted": N_plural(
        "This move would put %(num)d cube of colour %(color)s on the board;"
        " the set has only %(copies)d.",
        "This move would put %(num)d cubes of colour %(color)s on the board;"
        " the set has only %(copies)d.",
    ),
    "same_cell_twice": N_(
        "This move uses one cell twice: each tile needs a cell of its own."
    ),
    "occupied": N_("This cell already holds a tile: %(tile)s."),
    "not_in_line": N_(
        "These tiles are not in one row or one column: a move places its tiles in"
        " a single line."
    ),
    "gap": N_(
        "A cell between the placed tiles is empty: the tiles of one move must form"
        " one unbroken line with the board."
    ),
    "not_connected": N_(
        "No tile of this move touches a tile on the board: at least one must touch"
        " one along a side (corners do not count)."
    ),
    "line_too_long": N_plural(
        "This %(direction)s would be %(num)d tile long; a line holds at most"
        " %(max)d.",
        "This %(direction)s would be %(num)d tiles long; a line holds at most"
        " %(max)d.",
    ),
    "duplicate_in_line": N_(
        "This %(tile)s is already in the %(line)s: a line holds each tile once."
    ),
    "mixed_line_color": N_(
        "This %(tile)s does not fit the %(line)s: it would have to be %(color)s."
    ),
    "mixed_line_shape": N_(
        "This %(tile)s does not fit the %(line)s: it would have to be a"
        " %(shape)s."
    ),
    "mixed_line": N_(
        "This %(direction)s would hold %(tiles)s: the tiles of a line must share"
        " one colour or one shape."
    ),
    # -- turns (RULES §5, §6, §7) --
    "game_over": N_(
        "The game is over: no more moves can be recorded (undo the last move to"
        " reopen it)."
    ),
    "too_many_moves": N_(
        "A game holds at most %(max)d moves; this one has reached the limit."
    ),
    "hand_places": N_plural(
        "Player %(player)d holds %(num)d tile; this move places %(count)d.",
        "Player %(player)d holds %(num)d tiles; this move places %(count)d.",
    ),
    "hand_trades": N_plural(
        "Player %(player)d holds %(num)d tile; this move trades %(count)d.",
        "Player %(player)d holds %(num)d tiles; this move trades %(count)d.",
    ),
    "trade_not_allowed": N_(
        "Qwirkle Cubes has no trading: a player who cannot place re-rolls their"
        " cubes until they can."
    ),
    "first_move_trade": N_(
        "The first move of the game places tiles; it cannot be a trade."
    ),
    "trade_exceeds_bag": N_plural(
        "The bag holds %(num)d tile; a trade of %(count)d would need more.",
        "The bag holds %(num)d tiles; a trade of %(count)d would need more.",
    ),
    "trade_bag_empty": N_(
        "The bag is empty, so there is nothing to trade for: a player who cannot"
        " place passes."
    ),
    "pass_not_allowed": N_plural(
        "The bag still holds %(num)d tile: a player who cannot place must trade;"
        " passing is only allowed once the bag is empty.",
        "The bag still holds %(num)d tiles: a player who cannot place must trade;"
        " passing is only allowed once the bag is empty.",
    ),
    "pass_not_allowed_cubes": N_(
        "Qwirkle Cubes has no passing: a player who cannot place re-rolls their"
        " cubes until they can."
    ),
    # -- table discipline (RULES §7, CONTRACT §10) --
    "no_penalty_illegal": N_(
        "This table gives no penalty for an illegal move: the player takes the"
        " move back and tries again."
    ),
    "no_penalty_timeout": N_(
        "This table gives no penalty for running out of thinking time."
    ),
    # -- a player who leaves (RULES §7.5) --
    "not_in_play": N_(
        "Player %(player)d is out of the game already: only a player in play can"
        " leave."
    ),
    # -- malformed input (a ValueError, never a rule) --
    "variant_system": N_("variant system must be one of %(systems)s, not %(value)s"),
    "variant_range": N_(
        "variant %(field)s must be a whole number from %(low)d to %(high)d,"
        " not %(value)s"
    ),
    "variant_not_object": N_(
        "variant must be an object with colors, copies, hand_size"
    ),
    "variant_shapes": N_(
        "variant shapes must equal colors (%(count)d), not %(value)s"
    ),
    "variant_name": N_(
        "variant name %(value)s does not match its numbers (expected %(expected)s)"
    ),
    "game_players": N_("a %(variant)s game has 2 to %(max)d players, not %(value)s"),
    "game_first_player": N_(
        "first_player must be a seat from 0 to %(last)d, not %(value)s"
    ),
    "tiles_not_list": N_("tiles must be a list of {row, col, color, shape} objects"),
    "tile_not_object": N_("each tile must be an object with row, col, color, shape"),
    "tile_missing": N_("a tile is missing %(value)s"),
    "tile_cell_type": N_("a tile's row and col must be whole numbers"),
    "tile_name_type": N_("a tile's color and shape must be strings"),
    "tile_shape": N_("a placed tile is (row, col, color, shape), not %(value)s"),
    "tile_cell_of": N_("row and col must be whole numbers, not %(value)s"),
    "tile_too_far": N_(
        "row and col must lie between -%(max)d and %(max)d, not %(value)s"
    ),
    "trade_count": N_("a trade count is a whole number, not %(value)s"),
    "move_not_object": N_("a move must be an object with a 'type'"),
    "move_trade_count": N_("a trade needs a whole-number 'count'"),
    "move_type": N_(
        "a move's type is 'place', 'trade', 'pass', 'penalty' or 'leave', not"
        " %(value)s"
    ),
    "move_seconds": N_(
        "a move's seconds (thinking time) must be a whole number from 0 to"
        " %(high)d, not %(value)s"
    ),
    "penalty_reason": N_(
        "a penalty's reason is 'illegal' or 'timeout', not %(value)s"
    ),
    "penalty_seconds": N_("a penalty carries no thinking time (seconds)"),
    "leave_seconds": N_("a leave carries no thinking time (seconds)"),
    "leave_player": N_(
        "a leave's player must be a seat from 0 to %(last)d, not %(value)s"
    ),
    "close_reason": N_(
        "a game is closed as 'ended' or 'abandoned', not %(value)s"
    ),
    "options_not_object": N_("options must be an object with %(names)s"),
    "options_unknown": N_(
        "options has no setting %(value)s (the settings are %(names)s)"
    ),
    "options_move_seconds": N_(
        "move_seconds must be null (no thinking time) or a whole number of"
        " seconds from %(low)d to %(high)d, not %(value)s"
    ),
    "options_choice": N_("%(field)s must be one of %(choices)s, not %(value)s"),
    "options_penalty_points": N_(
        "penalty_points must be a whole number from %(low)d to %(high)d,"
        " not %(value)s"
    ),
    # -- player names (CONTRACT §8) --
    "name_empty": N_("Every player needs a name."),
    "name_too_long": N_(
        "A name may have at most %(max)d characters (%(value)s is longer)."
    ),
    "name_forbidden_character": N_(
        "The name %(value)s holds a character a name may not have (%(character)s)."
    ),
    "name_not_normal": N_(
        "The name %(value)s is not written in its normal form (%(normal)s):"
        " spaces collapsed, none at either end."
    ),
    "names_duplicate": N_(
        "Two players may not share a name: each player needs a different name"
        " (%(name)s is taken, whatever its case and spacing)."
    ),
    "players_too_few": N_("Enter at least two player names."),
    "players_too_many": N_("This set allows at most %(high)d players."),
    # -- game records (CONTRACT §5) --
    "record_not_object": N_("A game record must be a JSON object."),
    "record_format": N_("This is not a %(format)s record (format is %(value)s)."),
    "record_variant": N_("The record's variant is invalid: %(reason)s."),
    "record_players": N_("The record's players must be a list of names."),
    "record_names": N_("%(reason)s"),
    "record_moves": N_("The record's moves must be a list."),
    "record_options": N_("The record's options are invalid: %(reason)s."),
    "record_first_player": N_(
        "Move 1 is by player %(value)s, but the record's first player is"
        " %(first)s."
    ),
    "record_start": N_("The record cannot start a game: %(reason)s."),
    "record_too_many_moves": N_plural(
        "The record holds %(num)d move; a game holds at most %(max)d.",
        "The record holds %(num)d moves; a game holds at most %(max)d.",
    ),
    "record_move_not_object": N_("Move %(number)d is not an object."),
    "record_out_of_turn": N_(
        "Move %(number)d is by player %(value)s, but it is player %(current)d's turn."
    ),
    "record_move_illegal": N_("Move %(number)d is illegal: %(reason)s"),
    "record_move_malformed": N_("Move %(number)d is malformed: %(reason)s"),
    "record_score": N_(
        "Move %(number)d is recorded as %(value)s points, but the rules give it"
        " %(score)d."
    ),
    "record_final_goes_on": N_(
        "Final result: the record says the game ended, but after its last move it"
        " goes on."
    ),
    "record_final_ended": N_(
        "Final result: the game ended (%(end)s), but the record says it runs."
    ),
    "record_final_differs": N_(
        "Final result: the record's final result is %(value)s, the replay gives"
        " %(actual)s."
    ),
}
"""Every engine error's sentence, by message key."""

COUNTED_BY: dict[str, str] = {
    "tile_exhausted_all": "copies",
    "cubes_exhausted": "count",
    "line_too_long": "length",
    "record_too_many_moves": "count",
}
"""The parameter that chooses a plural template's form where it is not `num`
(the engine's parameters keep their names; the template says %(num)d)."""

COLOR_WORDS: tuple[str, ...] = (
    N_("red"), N_("orange"), N_("yellow"), N_("green"), N_("blue"), N_("purple"),
    N_("pink"), N_("brown"),
)
"""The colour names, marked for the catalog (the names are their own msgids)."""

SHAPE_WORDS: tuple[str, ...] = (
    N_("circle"), N_("crisscross"), N_("diamond"), N_("square"), N_("starburst"),
    N_("clover"), N_("heart"), N_("triangle"),
)
"""The shape names, marked for the catalog."""

SHAPE_PLURALS: dict[str, str] = {
    "circle": N_("circles"), "crisscross": N_("crisscrosses"),
    "diamond": N_("diamonds"), "square": N_("squares"),
    "starburst": N_("starbursts"), "clover": N_("clovers"),
    "heart": N_("hearts"), "triangle": N_("triangles"),
}
"""The plural of each shape name, as a line of them is named ("column of
squares")."""

TILE_NAMES: dict[tuple[str, str], str] = {
    ("red", "circle"): N_("red circle"),
    ("red", "crisscross"): N_("red crisscross"),
    ("red", "diamond"): N_("red diamond"),
    ("red", "square"): N_("red square"),
    ("red", "starburst"): N_("red starburst"),
    ("red", "clover"): N_("red clover"),
    ("red", "heart"): N_("red heart"),
    ("red", "triangle"): N_("red triangle"),
    ("orange", "circle"): N_("orange circle"),
    ("orange", "crisscross"): N_("orange crisscross"),
    ("orange", "diamond"): N_("orange diamond"),
    ("orange", "square"): N_("orange square"),
    ("orange", "starburst"): N_("orange starburst"),
    ("orange", "clover"): N_("orange clover"),
    ("orange", "heart"): N_("orange heart"),
    ("orange", "triangle"): N_("orange triangle"),
    ("yellow", "circle"): N_("yellow circle"),
    ("yellow", "crisscross"): N_("yellow crisscross"),
    ("yellow", "diamond"): N_("yellow diamond"),
    ("yellow", "square"): N_("yellow square"),
    ("yellow", "starburst"): N_("yellow starburst"),
    ("yellow", "clover"): N_("yellow clover"),
    ("yellow", "heart"): N_("yellow heart"),
    ("yellow", "triangle"): N_("yellow triangle"),
    ("green", "circle"): N_("green circle"),
    ("green", "crisscross"): N_("green crisscross"),
    ("green", "diamond"): N_("green diamond"),
    ("green", "square"): N_("green square"),
    ("green", "starburst"): N_("green starburst"),
    ("green", "clover"): N_("green clover"),
    ("green", "heart"): N_("green heart"),
    ("green", "triangle"): N_("green triangle"),
    ("blue", "circle"): N_("blue circle"),
    ("blue", "crisscross"): N_("blue crisscross"),
    ("blue", "diamond"): N_("blue diamond"),
    ("blue", "square"): N_("blue square"),
    ("blue", "starburst"): N_("blue starburst"),
    ("blue", "clover"): N_("blue clover"),
    ("blue", "heart"): N_("blue heart"),
    ("blue", "triangle"): N_("blue triangle"),
    ("purple", "circle"): N_("purple circle"),
    ("purple", "crisscross"): N_("purple crisscross"),
    ("purple", "diamond"): N_("purple diamond"),
    ("purple", "square"): N_("purple square"),
    ("purple", "starburst"): N_("purple starburst"),
    ("purple", "clover"): N_("purple clover"),
    ("purple", "heart"): N_("purple heart"),
    ("purple", "triangle"): N_("purple triangle"),
    ("pink", "circle"): N_("pink circle"),
    ("pink", "crisscross"): N_("pink crisscross"),
    ("pink", "diamond"): N_("pink diamond"),
    ("pink", "square"): N_("pink square"),
    ("pink", "starburst"): N_("pink starburst"),
    ("pink", "clover"): N_("pink clover"),
    ("pink", "heart"): N_("pink heart"),
    ("pink", "triangle"): N_("pink triangle"),
    ("brown", "circle"): N_("brown circle"),
    ("brown", "crisscross"): N_("brown crisscross"),
    ("brown", "diamond"): N_("brown diamond"),
    ("brown", "square"): N_("brown square"),
    ("brown", "starburst"): N_("brown starburst"),
    ("brown", "clover"): N_("brown clover"),
    ("brown", "heart"): N_("brown heart"),
    ("brown", "triangle"): N_("brown triangle"),
}
"""Every tile's name, whole: a language may put the shape first or make the
colour agree with it ("cercle rouge", "blaues Quadrat")."""

COLOR_TILES: dict[str, str] = {
    "red": N_("red tiles"), "orange": N_("orange tiles"),
    "yellow": N_("yellow tiles"), "green": N_("green tiles"),
    "blue": N_("blue tiles"), "purple": N_("purple tiles"),
    "pink": N_("pink tiles"), "brown": N_("brown tiles"),
}
"""Tiles of one colour, as a line of them is named ("row of red tiles")."""

DIRECTIONS: dict[str, str] = {"row": N_("row"), "column": N_("column")}
"""The two directions of a line."""


class Gettext(Protocol):
    """gettext(message, **variables): the translated message, filled in."""

    def __call__(self, message: str, **variables: Any) -> str: ...


class Ngettext(Protocol):
    """ngettext(singular, plural, num, **variables), as Flask-Babel has it."""

    def __call__(
        self, singular: str, plural: str, num: int, **variables: Any
    ) -> str: ...


def _english(message: str, **variables: Any) -> str:
    return message % variables if variables else message


def _english_plural(singular: str, plural: str, num: int, **variables: Any) -> str:
    return (singular if num == 1 else plural) % {"num": num, **variables}


class Words:
    """Writes message parameters and fills templates in one language.

    The default is English with no catalog, which is what `str(exc)` says;
    `scorekeeper.text` makes one with the app's gettext.
    """

    def __init__(
        self, gettext: Gettext = _english, ngettext: Ngettext = _english_plural
    ) -> None:
        self.gettext = gettext
        """Translate and fill one template."""
        self.ngettext = ngettext
        """Translate and fill a (singular, plural) template pair."""

    # -- the words --

    def color(self, name: str) -> str:
        """Return a colour's name ("red")."""
        return self.gettext(name)

    def shape(self, name: str) -> str:
        """Return a shape's name ("circle")."""
        return self.gettext(name)

    def tile(self, kind: Sequence[str]) -> str:
        """Return a tile's name: "red circle"."""
        return self.gettext(TILE_NAMES[(kind[0], kind[1])])

    def tiles(self, kinds: Sequence[Sequence[str]]) -> str:
        """Return tile names as a list: "red circle, blue square"."""
        return ", ".join(self.tile(kind) for kind in kinds)

    def colors(self, names: Sequence[str]) -> str:
        """Return colour names as a list."""
        return ", ".join(self.color(name) for name in names)

    def shapes(self, names: Sequence[str]) -> str:
        """Return shape names as a list."""
        return ", ".join(self.shape(name) for name in names)

    def cell(self, cell: Sequence[int]) -> str:
        """Return a cell as players read it: "(row, col)"."""
        return f"({cell[0]}, {cell[1]})"

    def cells(self, cells: Sequence[Sequence[int]]) -> str:
        """Return cells as a list: "(0, 1), (0, 2)"."""
        return ", ".join(self.cell(cell) for cell in cells)

    def span(self, cells: Sequence[Sequence[int]]) -> str:
        """Return a line's extent: "(0, 3)–(4, 3)"."""
        return f"{self.cell(cells[0])}–{self.cell(cells[-1])}"

    def direction(self, direction: str) -> str:
        """Return "row" or "column"."""
        return self.gettext(DIRECTIONS[direction])

    def line(self, line: Sequence[str]) -> str:
        """Name a line (direction, kind, value): "row of red tiles", "column of
        squares", or only its direction when it shares nothing."""
        direction, kind, value = line
        if kind == "color":
            return self.gettext(
                N_("%(direction)s of %(tiles)s"),
                direction=self.direction(direction),
                tiles=self.gettext(COLOR_TILES[value]),
            )
        if kind == "shape":
            return self.gettext(
                N_("%(direction)s of %(shapes)s"),
                direction=self.direction(direction),
                shapes=self.gettext(SHAPE_PLURALS[value]),
            )
        return self.direction(direction)

    def quoted(self, value: object) -> str:
        """Return a value as the input had it (repr): "'pink'", "None"."""
        return repr(value)

    def reason(self, error: object) -> str:
        """Return the sentence of a nested error (an engine error's own message)."""
        key = getattr(error, "key", None)
        params = getattr(error, "params", None)
        if isinstance(key, str) and isinstance(params, Mapping):
            return self.sentence(key, params)
        return str(error)

    # -- the sentences --

    def sentence(self, key: str, params: Mapping[str, object]) -> str:
        """Return the message `key` filled with `params` written in this language."""
        template = MESSAGES[key]
        values = {
            name: _RENDER.get(name, _raw)(self, value) for name, value in params.items()
        }
        if isinstance(template, tuple):
            counted = COUNTED_BY.get(key, "num")
            num = params[counted]
            if not isinstance(num, int):
                raise TypeError(f"message {key!r} needs a whole-number {counted}")
            values.pop(counted, None)
            return self.ngettext(template[0], template[1], num, **values)
        return self.gettext(template, **values)


def _raw(_words: Words, value: Any) -> Any:
    return value


_RENDER: dict[str, Callable[[Words, Any], Any]] = {
    "cell": Words.cell,
    "cell2": Words.cell,
    "cells": Words.cells,
    "span": Words.span,
    "tile": Words.tile,
    "tiles": Words.tiles,
    "kinds": Words.tile,
    "color": Words.color,
    "shape": Words.shape,
    "colors": Words.colors,
    "shapes": Words.shapes,
    "direction": Words.direction,
    "line": Words.line,
    "value": Words.quoted,
    "first": Words.quoted,
    "actual": Words.quoted,
    "normal": Words.quoted,
    "reason": Words.reason,
}
"""How each parameter name is written; any other parameter (counts, numbers,
format tags) is used as it is."""

ENGLISH = Words()
"""English without a catalog: the words of `str(exc)`."""
