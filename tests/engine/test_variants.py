"""Variants are data: one description per game system (engine/tiles.py's
System table), asked through the Variant, never a string test of "cubes"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from scorekeeper import engine
from scorekeeper.engine.tiles import SYSTEM_TABLE

ROOT = Path(__file__).resolve().parents[2]


def test_no_code_tests_which_system_a_variant_is() -> None:
    found = []
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                values = [node.left, *node.comparators]
                if any(isinstance(v, ast.Constant) and v.value in ("cubes", "tiles")
                       for v in values):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr == "is_cubes":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for path in (ROOT / "templates").rglob("*.html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"is_cubes|==\s*['\"]cubes['\"]", line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


def test_the_walker_sees_a_string_test() -> None:
    tree = ast.parse('if variant.system == "cubes": pass')
    assert any(isinstance(node, ast.Compare) for node in ast.walk(tree))


def test_each_variant_answers_from_its_systems_description() -> None:
    for variant in (engine.CLASSIC, engine.CUBES, engine.Variant(colors=4, copies=2)):
        rules = SYSTEM_TABLE[variant.system]
        assert variant.rules is rules
        assert (variant.allows_trade, variant.allows_pass, variant.unit,
                variant.min_first_move, variant.supply_per_color,
                variant.open_hands) == (
            rules.allows_trade, rules.allows_pass, rules.unit,
            rules.min_first_move, rules.supply_per_color, rules.open_hands)
    assert engine.CUBES.to_dict()["system"] == "cubes"
    assert "system" not in engine.CLASSIC.to_dict()
    assert engine.Variant.from_dict({"name": "cubes"}) == engine.CUBES
