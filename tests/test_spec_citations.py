"""The repository owns its spec: every "RULES §n" / "CONTRACT §n" (and "§n.m")
cited anywhere in it names a numbered heading of docs/RULES.md or
docs/CONTRACT.md, and nothing points outside the repository for it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = {"RULES": ROOT / "docs" / "RULES.md", "CONTRACT": ROOT / "docs" / "CONTRACT.md"}

SECTION = r"§\s*(\d+(?:\.\d+)?)"
CITATION = re.compile(
    r"\b(RULES|CONTRACT)(?:\.md)?\s*" + SECTION
    # "RULES §3, §4", "CONTRACT §5 and §10", "RULES §6/§7": one citation each.
    + r"((?:\s*(?:,|/|and|or)\s*§\s*\d+(?:\.\d+)?)*)"
)
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.MULTILINE)
RULE_TEST = re.compile(r"def test_s(\d+)_(\d+)_")
"""Engine tests named after a rule: test_s3_5_… is RULES §3.5."""


def sections(path: Path) -> set[str]:
    """Return the numbers of a document's numbered headings ("3", "3.5")."""
    return set(HEADING.findall(path.read_text(encoding="utf-8")))


def files() -> list[Path]:
    """Return every text file the repository tracks."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode().split("\0")
    found = []
    for name in filter(None, listed):
        path = ROOT / name
        if path.suffix in {".png", ".jpg", ".ttf", ".mo", ".sqlite3", ".gz"}:
            continue
        if path.is_file():
            found.append(path)
    return found


def citations() -> list[tuple[str, str, str]]:
    """Return (file:line, document, section) for every citation in the repo."""
    cited = []
    for path in files():
        if path.name == Path(__file__).name:
            continue  # its own examples of wrong citations
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(source.splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{number}"
            for match in CITATION.finditer(line):
                doc, first, more = match.groups()
                for section in [first, *re.findall(SECTION, more)]:
                    cited.append((where, doc, section))
            for major, minor in RULE_TEST.findall(line):
                cited.append((where, "RULES", f"{major}.{minor}"))
    return cited


def test_every_cited_section_is_a_numbered_heading_of_the_docs() -> None:
    known = {doc: sections(path) for doc, path in DOCS.items()}
    cited = citations()
    missing = [
        f"{where}: {doc} §{section}"
        for where, doc, section in cited
        if section not in known[doc]
    ]
    assert missing == []
    # The walker finds what it checks (a change of its pattern cannot empty it).
    assert len(cited) > 150
    assert {("RULES", "3.5"), ("CONTRACT", "14")} & {
        (doc, section) for _, doc, section in cited
    }


def test_the_docs_number_the_sections_the_code_relies_on() -> None:
    assert {str(n) for n in range(1, 9)} | {f"3.{n}" for n in range(1, 7)} <= (
        sections(DOCS["RULES"])
    )
    assert {str(n) for n in range(1, 15)} <= sections(DOCS["CONTRACT"])


def test_a_section_that_does_not_exist_is_reported() -> None:
    text = "as in RULES §9 and CONTRACT §5, §99; RULES §3.7"
    found = [
        (doc, section)
        for match in CITATION.finditer(text)
        for doc, first, more in [match.groups()]
        for section in [first, *re.findall(SECTION, more)]
    ]
    assert found == [("RULES", "9"), ("CONTRACT", "5"), ("CONTRACT", "99"),
                     ("RULES", "3.7")]
    known = sections(DOCS["RULES"]) | sections(DOCS["CONTRACT"])
    assert {"9", "99", "3.7"}.isdisjoint(sections(DOCS["RULES"])) and "99" not in known


def test_nothing_refers_to_a_spec_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files()
        if path.name != Path(__file__).name
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if "../shared" in line or "/work/shared" in line
    ]
    assert outside == []


ISSUE_CITATION = re.compile(r"[Ii]ssue [0-9]+|[a-z,)] #[0-9]{3,4}\b")
""""issue 12", "photo #675": what CONTRIBUTING.md's commits section keeps out
of the code and docs (a commit body may say it)."""


def test_nothing_cites_an_issue_or_a_single_photo_by_number() -> None:
    # benchmarks/results holds what older code printed, kept as it ran.
    results = ROOT / "benchmarks" / "results"
    citing = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files()
        if path.name != Path(__file__).name and results not in path.parents
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if ISSUE_CITATION.search(line)
    ]
    assert citing == []
    assert ISSUE_CITATION.search("the glare of photo #675 (issue 13)")
