"""One voice and one word per concept in each catalog.

GLOSSARY.md §13 lists, per language, the words to use and the synonyms and
forms of address to avoid; every msgstr of that language's catalog is held to
it.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import catalogs
from scorekeeper.i18n import TRANSLATIONS

GLOSSARY = (TRANSLATIONS / "GLOSSARY.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (nl|de|fr|es|en) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", re.M)


def avoided() -> dict[str, list[tuple[str, str]]]:
    """Per language, (concept, phrase) for every phrase to avoid."""
    section = GLOSSARY[GLOSSARY.index("## 13."):]
    rules: dict[str, list[tuple[str, str]]] = {}
    for lang, concept, _use, avoid in ROW.findall(section):
        for phrase in re.findall(r"`([^`]+)`", avoid):
            rules.setdefault(lang, []).append((concept.strip(), phrase))
    return rules


AVOIDED = avoided()


def strings(lang: str) -> list[str]:
    found = []
    for message in catalogs.read(lang):
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else (
                message.string,)
            found += [form for form in forms if form]
    return found


def matches(phrase: str, sentence: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", sentence) is not None


def test_the_glossary_lists_avoided_words_for_every_translated_language() -> None:
    assert set(AVOIDED) >= {"nl", "de", "fr", "es"}
    assert {concept for concept, _ in AVOIDED["es"]} >= {"address", "hand", "board"}


@pytest.mark.parametrize("lang", ["nl", "de", "fr", "es"])
def test_no_catalog_uses_a_word_its_glossary_avoids(lang: str) -> None:
    faults = [
        f"{concept}: {phrase!r} in {sentence!r}"
        for sentence in strings(lang)
        for concept, phrase in AVOIDED[lang]
        if matches(phrase, sentence)
    ]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize(("lang", "sentence"), [
    # Strings the catalogs once held: each breaks a rule.
    ("es", "Ya no cabe nada en esta casilla. Toca una ficha gris para ver por qué."),
    ("es", "juego %(n)s"),
    ("fr", "Trop de pions dans une main."),
    ("de", "Spielt ihr gemütlich, lass das hier, wie es ist."),
    ("nl", "Nog niet verstuurd: de scorekeeper is niet bereikbaar."),
])
def test_the_rules_catch_the_old_wording(lang: str, sentence: str) -> None:
    assert any(matches(phrase, sentence) for _, phrase in AVOIDED[lang])


@pytest.mark.parametrize(("lang", "sentence"), [
    ("es", "Le toca a Ana"),  # third person, not tú
    ("es", "Este juego no tiene el color rosa."),  # the boxed set
    ("fr", "saisissez le coup à la main"),
    ("fr", "Place 2"),  # a seat
    ("de", "Punktestand nach jeder Runde"),
])
def test_the_rules_leave_the_right_senses_alone(lang: str, sentence: str) -> None:
    assert not any(matches(phrase, sentence) for _, phrase in AVOIDED[lang])
