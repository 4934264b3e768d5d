"""CONTRACT §8, the one name rule: normalise, refuse, and the key of a player."""

from __future__ import annotations

import pytest

from scorekeeper import engine
from scorekeeper.engine import InvalidName, check_players, name_key, normalise_name


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("Ann \t\n  Lee", "Ann Lee"),
        ("Ann\u00a0Lee", "Ann Lee"),  # no-break space is white space
        ("Ann\u2028Lee", "Ann Lee"),  # so is the line separator
        ("Zoe\u0308", "Zoë"),  # NFC: e + combining diaeresis is one character
        ("Łukasz ☺", "Łukasz ☺"),
        ("x" * 40, "x" * 40),
        ("A" + " " * 60 + "B", "A B"),  # counted after collapsing
    ],
)
def test_names_are_stored_collapsed_trimmed_and_composed(raw: str, stored: str) -> None:
    assert normalise_name(raw) == stored


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "name_empty"),
        (" \t ", "name_empty"),
        ("x" * 41, "name_too_long"),
        ("Bo\x00b", "name_forbidden_character"),  # Cc: NUL
        ("Bo\x1b[31mb", "name_forbidden_character"),  # Cc: ESC
        ("Bo\x7fb", "name_forbidden_character"),  # Cc: DEL
        ("Bo\u200bb", "name_forbidden_character"),  # Cf: zero-width space
        ("Bo\u202eb", "name_forbidden_character"),  # Cf: right-to-left override
        ("Bo\u2066b", "name_forbidden_character"),  # Cf: left-to-right isolate
        ("Bo\u00adb", "name_forbidden_character"),  # Cf: soft hyphen
        ("\ufeffBob", "name_forbidden_character"),  # Cf: byte-order mark
        ("Bo\ud800b", "name_forbidden_character"),  # Cs: a lone surrogate
        ("Bo\u0378b", "name_forbidden_character"),  # Cn: unassigned
    ],
)
def test_each_refused_kind_of_name_has_its_code(raw: str, code: str) -> None:
    with pytest.raises(InvalidName) as refused:
        normalise_name(raw)

    assert refused.value.code == code
    assert isinstance(refused.value, ValueError)
    assert str(refused.value)


def test_a_refused_character_is_named_in_the_message() -> None:
    with pytest.raises(InvalidName) as refused:
        normalise_name("Bo\u202eb")

    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in str(refused.value)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Ann Lee", "ann  lee"), ("Ann Lee", "AnnLee"), ("ANN", "ann"),
     ("Straße", "STRASSE"), ("Ｂｏｂ", "Bob"), ("Zoë", "Zoe\u0308")],
)
def test_names_equal_ignoring_case_and_spacing_are_one_player(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


def test_different_names_have_different_keys() -> None:
    assert name_key("Ann") != name_key("Anna")
    assert name_key("Zoë") != name_key("Zoe")


def test_a_table_is_two_to_the_sets_players_with_distinct_players() -> None:
    classic, custom = engine.CLASSIC, engine.Variant(colors=5, copies=2)

    assert check_players([" Ann ", "Bob\tSmith"], classic) == ["Ann", "Bob Smith"]
    assert len(check_players([f"P{i}" for i in range(8)], custom)) == 8
    for names, variant, code in [
        (["Ann"], classic, "players_count"),
        (["A", "B", "C", "D", "E"], classic, "players_count"),
        ([f"P{i}" for i in range(9)], custom, "players_count"),
        (["Ann Lee", "ann  lee"], classic, "names_duplicate"),
        (["Ann", ""], classic, "name_empty"),
    ]:
        with pytest.raises(InvalidName) as refused:
            check_players(names, variant)
        assert refused.value.code == code, names


def test_stored_names_must_already_be_normal() -> None:
    assert engine.check_stored_players(["Ann", "Bob"], engine.CLASSIC) == ["Ann", "Bob"]
    with pytest.raises(InvalidName) as refused:
        engine.check_stored_players(["Ann", " Chris"], engine.CLASSIC)

    assert refused.value.code == "name_not_normal"


def test_names_stored_before_the_rule_are_repaired_with_a_reason() -> None:
    repaired = engine.repair_names(
        ["Ann  Lee", "Bo\x00b", "ann lee", "Player 2", "", "Cas"]
    )

    assert repaired == [
        ("Ann Lee", "normalised"),
        ("Player 2", "name_forbidden_character"),
        ("ann lee 2", "duplicate"),
        ("Player 2 2", "duplicate"),
        ("Player 5", "name_empty"),
        ("Cas", ""),
    ]
    keys = [name_key(name) for name, _ in repaired]
    assert len(set(keys)) == len(keys)
    assert all(normalise_name(name) == name for name, _ in repaired)


def test_a_suffix_keeps_a_repaired_name_within_the_limit() -> None:
    long = "x" * 40

    repaired = engine.repair_names([long, long.upper()])

    assert repaired[1] == ("X" * 38 + " 2", "duplicate")
