"""The translation catalogs: complete, in step with the source, compiled as committed.

A failure names the language, the kind of problem and the msgid; run
`python -m scorekeeper.catalogs update`, translate what it lists and commit the
.po and .mo files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from scorekeeper import catalogs, i18n, text
from scorekeeper.engine.messages import COLOR_WORDS

LANGUAGES = i18n.LANGUAGES


@pytest.fixture(scope="module")
def template() -> Catalog:
    """Every marked string of the source, extracted now."""
    return catalogs.extract()


def report(problems: list[catalogs.Problem]) -> str:
    """Return problems one a line, for an assertion message."""
    return "\n".join(str(p) for p in problems) + (
        "\n(run python -m scorekeeper.catalogs update, translate, commit)"
    )


def test_every_marked_string_is_in_every_catalog(template: Catalog) -> None:
    found = catalogs.problems(template=template)
    missing = [p for p in found if p.kind == "missing"]
    assert missing == [], report(missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_entry_is_untranslated_or_fuzzy(language: str) -> None:
    found = [
        p for p in catalogs.problems([language])
        if p.kind in ("untranslated", "fuzzy")
    ]
    assert found == [], report(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_msgid(language: str) -> None:
    found = [p for p in catalogs.problems([language]) if p.kind == "placeholders"]
    assert found == [], report(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_committed_mo_is_its_po_compiled(language: str) -> None:
    path = catalogs.po_path(language)
    assert path.with_suffix(".mo").read_bytes() == catalogs.compiled(
        catalogs.read(language)
    ), f"{language}: the .mo is stale (run python -m scorekeeper.catalogs update)"


def test_no_catalog_holds_an_entry_the_source_no_longer_marks(
    template: Catalog,
) -> None:
    stale = [
        f"{code}: {catalogs._name(m)!r}"
        for code in LANGUAGES
        for m in catalogs.read(code)
        if m.id and template.get(m.id, m.context) is None
    ]
    assert stale == []


# --- the checker finds what it must ---


def write_po(
    folder: Path, code: str, entries: list[tuple[object, object, bool]]
) -> None:
    """Write a catalog of (msgid, msgstr, fuzzy) and its compiled .mo."""
    catalog = Catalog(locale=code, domain=i18n.DOMAIN, fuzzy=False)
    for msgid, msgstr, fuzzy in entries:
        catalog.add(msgid, msgstr, flags=("fuzzy",) if fuzzy else ())  # type: ignore[arg-type]
    catalogs._write(catalog, catalogs.po_path(code, folder))


def test_the_checker_reports_each_kind_of_problem_with_its_language_and_msgid(
    tmp_path: Path,
) -> None:
    write_po(tmp_path, "nl", [
        ("Bag", "Zak", False),
        ("Board", "", False),
        ("Round", "Ronde", True),
        ("Game %(id)d", "Spel %(n)d", False),
        ("Hello {name}", "Hallo {naam}", False),
        (("%(num)d tile", "%(num)d tiles"), ("%(num)d blokje", "%(count)d blokjes"),
         False),
        (("%(num)d move", "%(num)d moves"), ("%(num)d zet", "%(num)d zetten"), False),
    ])
    template = Catalog()
    template.add("Bag")
    template.add("Pass")

    found = {(p.language, p.kind, p.msgid)
             for p in catalogs.problems(["nl"], tmp_path, template)}

    assert found == {
        ("nl", "missing", "Pass"),
        ("nl", "untranslated", "Board"),
        ("nl", "fuzzy", "Round"),
        ("nl", "placeholders", "Game %(id)d"),
        ("nl", "placeholders", "Hello {name}"),
        ("nl", "placeholders", "%(num)d tile"),
    }


def test_the_checker_reports_a_mo_that_is_not_its_po_compiled(tmp_path: Path) -> None:
    write_po(tmp_path, "de", [("Bag", "Beutel", False)])
    assert catalogs.problems(["de"], tmp_path) == []
    mo = catalogs.po_path("de", tmp_path).with_suffix(".mo")
    shutil.copy(catalogs.po_path("de").with_suffix(".mo"), mo)

    kinds = [p.kind for p in catalogs.problems(["de"], tmp_path)]

    assert kinds == ["stale .mo"]


def test_a_catalog_reads_back_as_it_was_written(tmp_path: Path) -> None:
    # A msgid changed since its translation: babel's merge keeps the old
    # msgid beside the fuzzy entry, long enough to wrap.
    catalog = Catalog(locale="de", domain=i18n.DOMAIN, fuzzy=False)
    changed = catalog.add("The sentence as the source now says it. " * 3,
                          "Der Satz, wie er war.", flags=("fuzzy",))
    changed.previous_id = ["The sentence as the source said it before. " * 3]
    path = catalogs.po_path("de", tmp_path)
    catalogs._write(catalog, path)
    written = path.read_bytes()

    again = catalogs.read("de", tmp_path)
    catalogs._write(again, path)

    assert [m.user_comments for m in again if m.id] == [[]]
    assert path.read_bytes() == written


# --- the words the rule books use ---


@pytest.mark.parametrize("language", LANGUAGES)
def test_colour_blind_letters_are_one_per_colour_in_each_language(
    language: str,
) -> None:
    with i18n.language(language):
        letters = [text.color_letter(color) for color in COLOR_WORDS]
    assert len(set(letters)) == len(letters), letters
    assert all(len(letter) == 1 for letter in letters)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", {"Unseen tiles": "blokjes", "Bag": "Zak", "Pass": "Beurt overslaan",
                "Trade": "Ruilen", "Game %(id)d": "Spel"}),
        ("de", {"Unseen tiles": "Steine", "Bag": "Beutel", "Trade": "Tauschen",
                "Move": "Zug", "Game %(id)d": "Spiel"}),
        ("fr", {"Unseen tiles": "pions", "Bag": "Sac", "Trade": "Échanger",
                "Move": "Coup", "Game %(id)d": "Partie"}),
        ("es", {"Unseen tiles": "fichas", "Bag": "Bolsa", "Trade": "Cambiar",
                "Move": "Jugada", "Game %(id)d": "Partida"}),
    ],
)
def test_game_terms_are_the_rule_books_words(
    language: str, words: dict[str, str]
) -> None:
    with i18n.language(language):
        for msgid, word in words.items():
            assert word.lower() in i18n.gettext(msgid).lower(), (language, msgid)


def test_spanish_calls_a_game_partida_and_the_hand_mano() -> None:
    # "juego 6" read as "game 6" under a player (GLOSSARY §13).
    with i18n.language("es"):
        assert i18n.gettext("hand %(n)s", n=6) == "6 en mano"
        assert "juego" not in i18n.gettext("New game").lower()
        assert i18n.gettext("Game %(id)d", id=3) == "Partida 3"
