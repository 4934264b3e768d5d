"""Tile sets: colours, shapes, variants and the compact tile codes the engine uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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

TILE_NAME: tuple[str, ...] = tuple(
    f"{COLOR_NAMES[code // STRIDE]} {SHAPE_NAMES[code % STRIDE]}" for code in range(64)
)
"""For each tile code, its name as a player says it ("blue square")."""


def color_of(code: int) -> str:
    """Return the colour name of a tile code."""
    return COLOR_NAMES[code // STRIDE]


def shape_of(code: int) -> str:
    """Return the shape name of a tile code."""
    return SHAPE_NAMES[code % STRIDE]


def plural(shape: str) -> str:
    """Return the plural of a shape name ("crisscross" -> "crisscrosses")."""
    return shape + ("es" if shape.endswith("ss") else "s")


@dataclass(frozen=True)
class Variant:
    """A tile set: N colours and N shapes, `copies` of each tile, hands of H."""

    colors: int = 6
    """Number of colours, which is also the number of shapes (3 to 8)."""
    copies: int = 3
    """Copies of each colour-and-shape tile in the set (1 to 9)."""
    hand_size: int = 6
    """Tiles a player holds while the bag lasts (1 to 12)."""

    def __post_init__(self) -> None:
        for field, low, high in (
            ("colors", 3, 8), ("copies", 1, 9), ("hand_size", 1, 12),
        ):
            value = getattr(self, field)
            if type(value) is not int or not low <= value <= high:
                raise ValueError(
                    f"variant {field} must be a whole number from {low} to {high},"
                    f" not {value!r}"
                )

    @property
    def shapes(self) -> int:
        """Number of shapes (always equal to the number of colours)."""
        return self.colors

    @property
    def name(self) -> str:
        """'classic' for the 108-tile box, 'generalised' for any other set."""
        return "classic" if self == CLASSIC else "generalised"

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
        """Number of tiles in the whole set."""
        return self.colors * self.colors * self.copies

    @property
    def max_players(self) -> int:
        """Largest table: 4 with the classic box (RULES §1), 8 with a custom set."""
        return 4 if self == CLASSIC else 8

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
        """Return the variant as written in a game record (CONTRACT §5)."""
        return {
            "name": self.name,
            "colors": self.colors,
            "shapes": self.shapes,
            "copies": self.copies,
            "hand_size": self.hand_size,
        }

    @classmethod
    def from_dict(cls, data: object) -> Variant:
        """Build a variant from a record's or request's dict; ValueError if invalid."""
        if data is None:
            return CLASSIC
        if not isinstance(data, dict):
            raise ValueError("variant must be an object with colors, copies, hand_size")
        values = {}
        for field, default in (("colors", 6), ("copies", 3), ("hand_size", 6)):
            values[field] = data.get(field, default)
        variant = cls(**values)
        shapes = data.get("shapes", variant.colors)
        if shapes != variant.colors:
            raise ValueError(
                f"variant shapes must equal colors ({variant.colors}), not {shapes!r}"
            )
        name = data.get("name", variant.name)
        if name != variant.name:
            raise ValueError(
                f"variant name {name!r} does not match its numbers"
                f" (expected {variant.name!r})"
            )
        return variant


CLASSIC = Variant()
"""The classic box: 6 colours, 6 shapes, 3 copies, hands of 6 (108 tiles)."""
