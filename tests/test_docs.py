"""The docs point at what the repository holds: every file path they name
exists, every relative link resolves, and the README stays one short page."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
NAMING_PATHS = {README: 2, ROOT / "docs" / "ARCHITECTURE.md": 100}
"""The pages whose every `path` must exist, with how many they name at least
(the other pages may name a URL or a format in backticks that looks like one)."""
README_MAX_LINES = 220

CODE = re.compile(r"`([^`\s]+)`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"")
SUFFIXES = {".py", ".js", ".css", ".md", ".html", ".toml", ".json", ".png",
            ".txt", ".po", ".mo", ".svg", ".cfg"}
PLACEHOLDER = re.compile(r"<[^>]*>|\*|…")


@cache
def tracked() -> tuple[str, ...]:
    """Return every path git tracks, relative to the repository's root."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode()
    return tuple(name for name in listed.split("\0") if name)


@cache
def top_level() -> frozenset[str]:
    """Return the repository's top-level names (folders and files)."""
    return frozenset(name.split("/", 1)[0] for name in tracked())


def ignored(path: str) -> bool:
    """Whether git ignores a path: a file the program makes as it runs."""
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT,
                          check=False).returncode == 0


def named_paths(text: str) -> list[str]:
    """Return the backticked words of a page that name a file or folder: a
    path from a top-level folder, or a file name with a known suffix."""
    tops = top_level()
    found = []
    for word in CODE.findall(text):
        word = word.rstrip(".,:;")
        first = word.split("/", 1)[0]
        if "/" in word and first in tops:
            found.append(word)
        elif "/" not in word and Path(PLACEHOLDER.sub("", word)).suffix in SUFFIXES:
            found.append(word)
    return found


def exists(path: str) -> bool:
    """Whether a named path exists: placeholders (`<area>`, `*`) match any
    name; a bare file name may live in any folder; a package folder `x/` is
    met by a module `x.py` of the same import name, so that turning a module
    into a package changes no page."""
    names = tracked()
    pattern = PLACEHOLDER.sub("[^/]*", re.escape(path.rstrip("/")).replace("\\*", "*"))
    if "/" not in path:
        pattern = r"(?:.*/)?" + pattern
    matcher = re.compile(pattern + r"(?:/.*)?")
    if any(matcher.fullmatch(name) for name in names):
        return True
    if path.endswith("/"):
        module = re.compile(re.escape(path.rstrip("/")) + r"\.py")
        if any(module.fullmatch(name) for name in names):
            return True
    return ignored(path)  # made at run time (the instance folder), never committed


def relative_links(page: Path) -> list[str]:
    """Return a page's links and images that point inside the repository."""
    links = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:|#", target):
            continue
        links.append(target.split("#", 1)[0])
    return links


@pytest.mark.parametrize("page", NAMING_PATHS, ids=lambda p: p.name)
def test_every_path_the_page_names_exists(page: Path) -> None:
    named = named_paths(page.read_text(encoding="utf-8"))

    missing = [path for path in named if not exists(path)]

    assert missing == []
    assert len(named) >= NAMING_PATHS[page]  # the walker finds what it checks


@pytest.mark.parametrize("page", [README, *DOCS, ROOT / "CONTRIBUTING.md",
                                  ROOT / "benchmarks" / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    links = relative_links(page)

    broken = [link for link in links if not (page.parent / link).exists()]

    assert broken == []


def test_the_readme_links_every_page_of_the_docs() -> None:
    readme = README.read_text(encoding="utf-8")

    unlinked = [page.name for page in DOCS if f"(docs/{page.name})" not in readme]

    assert unlinked == []


def test_the_readme_stays_one_short_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()

    assert len(lines) <= README_MAX_LINES


def test_a_missing_path_and_a_broken_link_are_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See `scorekeeper/engine/nothing.py`, `static/core.js` and"
                    " [gone](gone.md), [here](page.md), [web](https://example.org).\n",
                    encoding="utf-8")

    named = named_paths(page.read_text(encoding="utf-8"))

    assert named == ["scorekeeper/engine/nothing.py", "static/core.js"]
    assert [path for path in named if not exists(path)] == [
        "scorekeeper/engine/nothing.py"]
    assert relative_links(page) == ["gone.md", "page.md"]
    assert not exists("templates/<area>/nothing.html")
    assert exists("templates/<area>/")
