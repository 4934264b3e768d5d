"""Tile sets: colours, shapes, variants and the compact tile codes the engine uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import BadInput

COLOR_NAMES: tuple[str, ...] = (
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown",
)
"""Colour names in set order; a variant with N colours uses the first N."""

SHAPE_NAMES: tuple[str, ...] = (
    "circle", "crisscross", "diamond", "square", "starburst", "clover", "heart",
    "triangle",
)
"""Shape names in set order; a variant with N shapes uses the first N."""

STRIDE = 8
"""Tile code = colour index * STRIDE + shape index, so every variant shares one
table of codes and a set of tiles fits in a 64-bit mask."""

COLOR_BIT: tuple[int, ...] = tuple(1 << (code // STRIDE) for code in range(64))
"""For each tile code, a mask with one bit for its colour."""

SHAPE_BIT: tuple[int, ...] = tuple(1 << (code % STRIDE) for code in range(64))
"""For each tile code, a mask with one bit for its shape."""

PACKED: tuple[int, ...] = tuple(
    COLOR_BIT[code] | SHAPE_BIT[code] << 8 for code in range(64)
)
"""For each tile code, its colour bit and its shape bit (shifted by 8) in one
int, so a line's masks gather with one OR per tile."""

def color_of(code: int) -> str:
    """Return the colour name of a tile code."""
    return COLOR_NAMES[code // STRIDE]


def shape_of(code: int) -> str:
    """Return the shape name of a tile code."""
    return SHAPE_NAMES[code % STRIDE]


SYSTEMS = ("tiles", "cubes")
"""Game systems: the tile game, and Qwirkle Cubes (RULES §7)."""


@dataclass(frozen=True)
class Variant:
    """A tile set: N colours and N shapes, `copies` of each tile, hands of H.

    With system 'cubes' (Qwirkle Cubes, RULES §7) `copies` counts the cubes of
    each colour: a cube shows any shape, so supply is checked per colour.
    """

    colors: int = 6
    """Number of colours, which is also the number of shapes (3 to 8)."""
    copies: int = 3
    """Copies of each colour-and-shape tile (1 to 9); for cubes, cubes per
    colour (1 to 30)."""
    hand_size: int = 6
    """Tiles a player holds while the bag lasts (1 to 12)."""
    system: str = "tiles"
    """'tiles' for Qwirkle, 'cubes' for Qwirkle Cubes."""

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise BadInput(
                "variant_system", {"systems": ", ".join(SYSTEMS), "value": self.system}
            )
        max_copies = 30 if self.system == "cubes" else 9
        for field, low, high in (
            ("colors", 3, 8), ("copies", 1, max_copies), ("hand_size", 1, 12),
        ):
            value = getattr(self, field)
            if type(value) is not int or not low <= value <= high:
                raise BadInput(
                    "variant_range",
                    {"field": field, "low": low, "high": high, "value": value},
                )

    @property
    def shapes(self) -> int:
        """Number of shapes (always equal to the number of colours)."""
        return self.colors

    @property
    def name(self) -> str:
        """'classic' for the 108-tile box, 'cubes' for Qwirkle Cubes,
        'generalised' for any other set."""
        if self.system == "cubes":
            return "cubes"
        return "classic" if self == CLASSIC else "generalised"

    @property
    def is_cubes(self) -> bool:
        """True for Qwirkle Cubes: no trades, no passes, supply per colour.

        Outside the engine ask the behaviour instead (allows_trade, unit, …).
        """
        return self.system == "cubes"

    @property
    def allows_trade(self) -> bool:
        """Whether a player may trade tiles (not in Qwirkle Cubes, RULES §7)."""
        return self.system != "cubes"

    @property
    def allows_pass(self) -> bool:
        """Whether a player may pass once the bag is empty (not in Qwirkle Cubes)."""
        return self.system != "cubes"

    @property
    def unit(self) -> str:
        """What a player holds and places: 'tile', or 'cube' in Qwirkle Cubes."""
        return "cube" if self.system == "cubes" else "tile"

    @property
    def min_first_move(self) -> int:
        """Fewest tiles the first move places: 2 for Qwirkle Cubes, else 1."""
        return 2 if self.system == "cubes" else 1

    @property
    def supply_per_color(self) -> bool:
        """Whether the supply is counted per colour (a cube shows any shape)
        rather than per colour and shape."""
        return self.system == "cubes"

    def supply_key(self, color: str, shape: str) -> tuple[str, str]:
        """Return the key under which the supply of this kind is counted.

        (color, shape) for tiles; (color, "") for cubes, counted per colour.
        """
        return (color, "") if self.supply_per_color else (color, shape)

    @cached_property
    def supply_keys(self) -> tuple[tuple[str, str], ...]:
        """Every supply key of the set, in order (the keys of Board.unseen())."""
        if self.supply_per_color:
            return tuple((color, "") for color in self.color_names)
        return tuple(
            (color, shape) for color in self.color_names for shape in self.shape_names
        )

    @cached_property
    def kinds(self) -> tuple[tuple[str, str], ...]:
        """Every (colour, shape) of the set, colour by colour."""
        return tuple(
            (color, shape) for color in self.color_names for shape in self.shape_names
        )

    @property
    def color_names(self) -> tuple[str, ...]:
        """The colour names this set uses, in order."""
        return COLOR_NAMES[: self.colors]

    @property
    def shape_names(self) -> tuple[str, ...]:
        """The shape names this set uses, in order."""
        return SHAPE_NAMES[: self.colors]

    @property
    def total_tiles(self) -> int:
        """Number of tiles (or cubes) in the whole set."""
        if self.system == "cubes":
            return self.colors * self.copies
        return self.colors * self.colors * self.copies

    @property
    def max_players(self) -> int:
        """Largest table: 4 with a box (RULES §1, §7), 8 with a custom set."""
        return 4 if self in (CLASSIC, CUBES) else 8

    @cached_property
    def codes(self) -> tuple[int, ...]:
        """Every tile code of this set, colour by colour."""
        n = self.colors
        return tuple(c * STRIDE + s for c in range(n) for s in range(n))

    @cached_property
    def all_mask(self) -> int:
        """A mask with one bit per tile code of this set."""
        mask = 0
        for code in self.codes:
            mask |= 1 << code
        return mask

    @cached_property
    def code_of(self) -> dict[tuple[str, str], int]:
        """Map (colour, shape) names to tile codes, for the names this set uses."""
        return {(color_of(code), shape_of(code)): code for code in self.codes}

    def to_dict(self) -> dict[str, object]:
        """Return the variant as written in a game record (CONTRACT §5).

        'system' appears only for cubes, so tile records keep the contract's shape.
        """
        data: dict[str, object] = {
            "name": self.name,
            "colors": self.colors,
            "shapes": self.shapes,
            "copies": self.copies,
            "hand_size": self.hand_size,
        }
        if self.system != "tiles":
            data["system"] = self.system
        return data

    @classmethod
    def from_dict(cls, data: object) -> Variant:
        """Build a variant from a record's or request's dict; ValueError if invalid."""
        if data is None:
            return CLASSIC
        if not isinstance(data, dict):
            raise BadInput("variant_not_object")
        values = {}
        system = data.get("system", "cubes" if data.get("name") == "cubes" else "tiles")
        for field, default in (
            ("colors", 6), ("copies", 15 if system == "cubes" else 3),
            ("hand_size", 6),
        ):
            values[field] = data.get(field, default)
        values["system"] = system
        variant = cls(**values)
        shapes = data.get("shapes", variant.colors)
        if shapes != variant.colors:
            raise BadInput(
                "variant_shapes", {"count": variant.colors, "value": shapes}
            )
        name = data.get("name", variant.name)
        if name != variant.name:
            raise BadInput(
                "variant_name", {"value": name, "expected": repr(variant.name)}
            )
        return variant


CLASSIC = Variant()
"""The classic box: 6 colours, 6 shapes, 3 copies, hands of 6 (108 tiles)."""

CUBES = Variant(colors=6, copies=15, hand_size=6, system="cubes")
"""The Qwirkle Cubes box: 90 cubes, 15 of each of 6 colours, hands of 6."""
