"""Keep the translation catalogs in step with the source (run from a checkout).

    python -m scorekeeper.catalogs update   # extract, merge into every .po, compile
    python -m scorekeeper.catalogs check    # report what is missing; exit 1 if any

`update` extracts every marked string (`_`, `gettext`, `ngettext`, `N_`,
`N_plural`, `lazy_gettext` in the package, `_`/`gettext`/`ngettext` in the
templates; nothing is written for the template itself), merges them into each
language's
`messages.po` (a changed msgid keeps its old translation, marked fuzzy), fills
the English catalog from the msgids (English is the source language), and
compiles every `.po` into the `.mo` beside it, which is committed. Then it
reports, per language, each msgid still untranslated or fuzzy, or whose
placeholders differ from the msgid's: translate those in the `.po` and run
`update` again. tests/test_catalogs.py fails on the same report.
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import DEFAULT, DOMAIN, LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: the package and the top-level templates/ beside it."""

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "N_plural": (1, 2),
    "_l": None,
    "lazy_gettext": None,
}
"""The calls that mark a string (the numbers: which arguments are the msgids;
(1, "c"): the first is the context)."""

METHODS = [
    ("scorekeeper/**.py", "python"),
    ("templates/**.html", "jinja2.ext:babel_extract"),
]
"""What is extracted from where, relative to the checkout."""

PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|\{\w+\}")
"""A %(name)s or {name} placeholder (with its conversion)."""

PROJECT = "qwirkle-scorekeeper"

HEADER = (
    "# Qwirkle Scorekeeper's words in one language.\n"
    "# Game terms: scorekeeper/translations/GLOSSARY.md. Keep every %(name)s.\n"
    "# After editing: python -m scorekeeper.catalogs update"
)
"""The comment at the top of a new .po file."""


def extract(root: Path = ROOT) -> Catalog:
    """Return the template catalog of every marked string under the checkout."""
    if not (root / "templates").is_dir():
        raise SystemExit("run this from a checkout: templates/ is missing")
    template = Catalog(project=PROJECT, fuzzy=False)
    found = extract_from_dir(
        str(root), METHODS, keywords=KEYWORDS, comment_tags=("Translators:",),
        options_map={"templates/**.html": {"extensions": "jinja2.ext.i18n"}},
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        template.add(
            message, None, [(filename, lineno)], auto_comments=comments,
            context=context,
            flags=("python-format",) if "%(" in _first(message) else (),
        )
    return template


def _name(message: Message) -> str:
    """Return a message's msgid as a report names it (with its context)."""
    msgid = _first(message.id)
    return f"{message.context}|{msgid}" if message.context else msgid


def _first(message: str | tuple[str, ...] | list[str]) -> str:
    return message if isinstance(message, str) else message[0]


def _forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Return a msgid or msgstr as a tuple of its forms."""
    if value is None:
        return ("",)
    return (value,) if isinstance(value, str) else tuple(value)


def po_path(code: str, folder: Path = TRANSLATIONS) -> Path:
    """Return the .po file of a language."""
    return folder / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(code: str, folder: Path = TRANSLATIONS) -> Catalog:
    """Return a language's catalog as stored."""
    with po_path(code, folder).open("rb") as handle:
        return read_po(handle, locale=code, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    """Return a catalog compiled to .mo bytes (fuzzy entries left out)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    # No line numbers: an edit elsewhere in a file must not touch every catalog.
    # No "#| msgid" of a fuzzy entry's old msgid: babel reads those lines back
    # as translator comments, which then wrap into fragments on every update.
    write_po(out, catalog, width=88, omit_header=False, sort_output=False,
             include_previous=False, include_lineno=False)
    path.write_bytes(out.getvalue())
    path.with_suffix(".mo").write_bytes(compiled(catalog))


def _fill_english(catalog: Catalog) -> None:
    """English is the source: its msgstrs are the msgids."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(message.id)
        else:
            message.string = message.id
        if message.fuzzy:
            message.flags.discard("fuzzy")


def placeholders(text: str) -> list[str]:
    """Return the placeholders of a string, sorted (repeats kept once)."""
    return sorted(set(PLACEHOLDER.findall(text)))


@dataclass(frozen=True)
class Problem:
    """One catalog entry a translator must look at."""

    language: str
    kind: str
    """"missing", "untranslated", "fuzzy", "placeholders" or "stale .mo"."""
    msgid: str
    detail: str = ""

    def __str__(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.language}: {self.kind}: {self.msgid!r}{detail}"


def _placeholder_problem(message: Message) -> str:
    """Return how a translation's placeholders differ from its msgid's ("" if not)."""
    ids = _forms(message.id)
    strings = _forms(message.string)
    allowed = [placeholders(i) for i in ids]
    for index, string in enumerate(strings):
        if string and placeholders(string) not in allowed:
            return (
                f"form {index} has {placeholders(string)}, the msgid"
                f" {' or '.join(str(a) for a in allowed)}"
            )
    return ""


def problems(
    languages: Iterable[str] = LANGUAGES, folder: Path = TRANSLATIONS,
    template: Catalog | None = None,
) -> list[Problem]:
    """Return every missing, untranslated, fuzzy or mismatched entry, and every
    .mo that is not its .po compiled."""
    found: list[Problem] = []
    for code in languages:
        path = po_path(code, folder)
        if not path.is_file():
            found.append(Problem(code, "missing", str(path)))
            continue
        catalog = read(code, folder)
        if template is not None:
            for message in template:
                if message.id and catalog.get(message.id, message.context) is None:
                    found.append(Problem(code, "missing", _name(message)))
        for message in catalog:
            if not message.id:
                continue
            msgid = _name(message)
            strings = _forms(message.string)
            if message.fuzzy:
                found.append(Problem(code, "fuzzy", msgid))
            elif not all(strings):
                found.append(Problem(code, "untranslated", msgid))
            else:
                detail = _placeholder_problem(message)
                if detail:
                    found.append(Problem(code, "placeholders", msgid, detail))
        mo = path.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != compiled(catalog):
            found.append(Problem(code, "stale .mo", str(mo), "run update"))
    return found


def update(languages: Iterable[str] = LANGUAGES, folder: Path = TRANSLATIONS) -> None:
    """Extract, merge into every language's .po, fill English, compile."""
    template = extract()
    for code in languages:
        path = po_path(code, folder)
        if path.is_file():
            catalog = read(code, folder)
        else:
            catalog = Catalog(
                locale=code, domain=DOMAIN, project=PROJECT, fuzzy=False,
                header_comment=HEADER,
            )
        # update() shares the template's messages: each language gets a copy.
        catalog.update(
            copy.deepcopy(template), update_header_comment=False,
            update_creation_date=False,
        )
        catalog.obsolete.clear()
        if code == DEFAULT:
            _fill_english(catalog)
        catalog.fuzzy = False
        _write(catalog, path)


def main(argv: list[str] | None = None) -> int:
    """Run `update` or `check`; print the report; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    if command not in ("update", "check"):
        print(__doc__)
        return 2
    if command == "update":
        update()
    found = problems(template=extract())
    for problem in found:
        print(problem)
    counts = {
        code: sum(1 for m in read(code) if m.id) for code in LANGUAGES
        if po_path(code).is_file()
    }
    print("msgids:", ", ".join(f"{code} {n}" for code, n in counts.items()))
    print(f"{len(found)} problem(s)" if found else "all catalogs complete")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
