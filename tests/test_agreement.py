"""Refusals read correctly for every tile in nl, de, fr and es.

The agreement rules are data, declared beside the catalogs in
scorekeeper/translations/grammar.toml: each shape's gender, each colour's form
by gender, and which words agree with a tile's or a shape's name. These tests
render every refusal the engine has, for every one of the classic set's 36 tile
kinds, in the page's language, and hold each sentence to those rules.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from scorekeeper import engine, i18n, text
from scorekeeper.engine.messages import COUNTED_BY, MESSAGES, TILE_NAMES
from scorekeeper.i18n import TRANSLATIONS

GRAMMAR: dict[str, Any] = tomllib.loads(
    (TRANSLATIONS / "grammar.toml").read_text(encoding="utf-8"))
LANGUAGES = ("nl", "de", "fr", "es")
KINDS = engine.CLASSIC.kinds
REFUSALS = list(MESSAGES)[: list(MESSAGES).index("variant_system")]
"""Every sentence an illegal move can get (the templates before the malformed
input's)."""
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def other_kind(kind: tuple[str, str]) -> tuple[str, str]:
    """A tile sharing nothing with `kind`, for lists of two."""
    return next(k for k in KINDS if k[0] != kind[0] and k[1] != kind[1])


def params_for(key: str, kind: tuple[str, str], line_kind: str) -> dict[str, Any]:
    """Fill every parameter a refusal's template names, around one tile kind."""
    template = MESSAGES[key]
    forms = template if isinstance(template, tuple) else (template,)
    names = {name for form in forms for name in PLACEHOLDER.findall(form)}
    color, shape = kind
    line = ("row", "color", color) if line_kind == "color" else (
        "column", "shape", shape)
    values: dict[str, Any] = {
        "tile": kind, "kinds": kind, "tiles": [kind, other_kind(kind)],
        "color": color, "shape": shape, "colors": ["red", "blue"],
        "shapes": ["circle", "square"], "line": line, "direction": line[0],
        "cell": (0, 1), "cell2": (1, 2), "cells": [(0, 1)], "span": [(0, 0), (0, 2)],
        "value": "magenta",
    }
    params = {name: values.get(name, 3) for name in names}
    if isinstance(template, tuple):
        params.pop("num", None)
        params[COUNTED_BY.get(key, "num")] = 2
    return params


def refusals(lang: str) -> Iterator[tuple[str, tuple[str, str], str]]:
    """Every refusal for every tile kind, as the page writes it in `lang`."""
    with i18n.language(lang):
        for key in REFUSALS:
            for kind in KINDS:
                for line_kind in ("color", "shape"):
                    yield key, kind, text.WORDS.sentence(
                        key, params_for(key, kind, line_kind))


def word_before(sentence: str, start: int, invariable: list[str]) -> str:
    """The word that agrees with what stands at `start`: the one right before
    it, past words that show no gender ("" after punctuation)."""
    before = sentence[:start].rstrip()
    while before and (before[-1].isalpha() or before[-1] == "'"):
        word = re.split(r"[\s(]", before)[-1]
        if word.lower() not in invariable:
            return word.lower()
        before = before[: -len(word)].rstrip()
    return ""


def agreement_faults(lang: str, sentence: str, kind: tuple[str, str]) -> list[str]:
    """What in `sentence` breaks `lang`'s declared rules around tile `kind`."""
    rules = GRAMMAR[lang]
    color, shape = kind
    gender = rules["shapes"][shape]["gender"]
    noun = rules["shapes"][shape]["noun"]
    with i18n.language(lang):
        name = text.tile_name(color, shape)
    faults = []
    spans = [m.span() for m in re.finditer(re.escape(name), sentence)]
    for start, _ in spans:
        word = word_before(sentence, start, rules["invariable"])
        allowed = rules["before_tile"].get(word)
        if allowed is not None and gender not in allowed:
            faults.append(f"{word!r} before {name!r} ({gender})")
    for match in re.finditer(rf"(?<!\w){re.escape(noun)}(?!\w)", sentence):
        if any(start <= match.start() < end for start, end in spans):
            continue
        word = word_before(sentence, match.start(), rules["invariable"])
        allowed = rules["before_shape"].get(word)
        if allowed is not None and gender not in allowed:
            faults.append(f"{word!r} before {noun!r} ({gender})")
    return faults


def expected_name(lang: str, kind: tuple[str, str]) -> str:
    rules: Mapping[str, Any] = GRAMMAR[lang]
    color, shape = kind
    noun = rules["shapes"][shape]["noun"]
    form = rules["colors"][color][rules["shapes"][shape]["gender"]]
    return f"{form} {noun}" if rules["order"] == "color shape" else f"{noun} {form}"


def test_the_classic_set_has_36_kinds_and_every_refusal_is_rendered() -> None:
    assert len(KINDS) == 36
    assert {"occupied", "duplicate_in_line", "mixed_line_color", "mixed_line_shape",
            "mixed_line", "tile_exhausted_all", "pass_not_allowed"} <= set(REFUSALS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tile_name_agrees_with_its_shapes_declared_gender(lang: str) -> None:
    rules = GRAMMAR[lang]
    assert set(rules["shapes"]) == set(engine.messages.SHAPE_WORDS)
    with i18n.language(lang):
        for color, shape in TILE_NAMES:
            assert text.shape_name(shape) == rules["shapes"][shape]["noun"]
            assert text.tile_name(color, shape) == expected_name(lang, (color, shape))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_for_every_tile_follows_the_declared_agreement(
        lang: str) -> None:
    faults = []
    seen = 0
    for key, kind, sentence in refusals(lang):
        assert "%(" not in sentence, sentence
        assert not re.search(r"\(-?\d+, -?\d+\)", sentence), sentence  # no cells
        with i18n.language(lang):
            if "%(tile)s" in str(MESSAGES[key]):
                assert text.tile_name(*kind) in sentence, (key, sentence)
                seen += 1
        faults += [f"{key}: {fault}: {sentence}"
                   for fault in agreement_faults(lang, sentence, kind)]
    assert not faults, "\n".join(faults[:20])
    assert seen >= 4 * 36 * 2  # occupied, duplicate, both mixed_line kinds, …


@pytest.mark.parametrize(("lang", "sentence", "kind"), [
    # The review's sentences (shared/reviews/translations.md §2A): the rules
    # catch each of them.
    ("nl", "De groen vierkant zou de tweede groen vierkant worden.",
     ("green", "square")),
    ("es", "sería la segunda círculo rojo de la fila", ("red", "circle")),
    ("fr", "serait le deuxième étoile rayonnante rouge", ("red", "starburst")),
    ("de", "wäre der zweite Stein roter Kreis in der Zeile", ("red", "circle")),
    ("de", "es müsste ein Raute sein", ("green", "diamond")),
])
def test_the_rules_catch_the_reviews_wrong_agreements(
        lang: str, sentence: str, kind: tuple[str, str]) -> None:
    assert agreement_faults(lang, sentence, kind)


def test_a_refusal_from_the_engine_reads_whole_in_dutch() -> None:
    board = engine.Board()
    board.play([(0, 0, "green", "square"), (0, 1, "green", "circle")])
    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(0, 2, "green", "square")])
    with i18n.language("nl"):
        assert text.illegal_move(refused.value) == (
            "Er ligt al zo'n blokje (groen vierkant) in de horizontale rij met"
            " groene blokjes: elk blokje komt maar één keer in een rij.")
    assert refused.value.cells


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_with_a_tiles_name_follows_the_declared_agreement(
        lang: str) -> None:
    """Beyond refusals: hints, photo labels, the board's cell names…"""
    from scorekeeper import catalogs

    faults = []
    messages = [m for m in catalogs.read(lang)
                if m.id and "%(tile)s" in (m.id if isinstance(m.id, str) else m.id[0])]
    assert len(messages) >= 8
    for message in messages:
        forms = message.string if isinstance(message.string, tuple) else (
            message.string,)
        for form in forms:
            for kind in KINDS:
                with i18n.language(lang):
                    name = text.tile_name(*kind)
                values = {n: "X" for n in PLACEHOLDER.findall(form)}
                values["tile"] = name
                sentence = re.sub(r"%\((\w+)\)[sd]",
                                  lambda m, v=values: v[m.group(1)], form)
                faults += [f"{fault}: {sentence}"
                           for fault in agreement_faults(lang, sentence, kind)]
    assert not faults, "\n".join(faults[:20])
