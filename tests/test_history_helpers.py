"""Helpers for the history, players and export tests: corpus games, HTML parsing.

(Named test_* for its one self-check of the parser.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html.parser import HTMLParser
from typing import Any

from corpus import game_files, load

from scorekeeper import engine

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


def corpus_record(name: str = "classic-10001.json") -> dict[str, Any]:
    """Return one corpus record as a dict."""
    return load(name)


class Stored:
    """A game for store.backup.restore_backup: a record with chosen names and times.

    Created at `start`, then one move a minute; finished with its last move.
    """

    def __init__(
        self, record: dict[str, Any], names: list[str], start: datetime
    ) -> None:
        self.game, _ = engine.from_record(record)
        self.names = names
        self.created_at = start.isoformat()
        self.move_times = [
            (start + timedelta(minutes=1 + i)).isoformat()
            for i in range(len(self.game.moves))
        ]
        self.updated_at = self.finished_at = self.move_times[-1]


def corpus_names() -> list[str]:
    """Return the file names of the corpus's game records (probes excluded)."""
    return [path.name for path in game_files()]


@dataclass
class Node:
    """An element of a parsed page."""

    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        """Return the element's text content with white space collapsed."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def iter(self) -> list[Node]:
        """Return this element and all elements inside it, in document order."""
        out = [self]
        for child in self.children:
            if isinstance(child, Node):
                out.extend(child.iter())
        return out

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Node]:
        """Return descendant elements with the tag and attributes (True = present)."""
        found = []
        for node in self.iter()[1:]:
            if tag is not None and node.tag != tag:
                continue
            ok = True
            for key, want in attrs.items():
                key = key.replace("_", "-").rstrip("-")
                if want is True:
                    ok = ok and key in node.attrs
                elif key == "class":
                    ok = ok and want in node.attrs.get("class", "").split()
                else:
                    ok = ok and node.attrs.get(key) == want
            if ok:
                found.append(node)
        return found

    def find(self, tag: str | None = None, **attrs: str | bool) -> Node:
        """Return the first matching element (AssertionError when there is none)."""
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: bytes | str) -> Node:
    """Parse a page into a Node tree."""
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def test_parser_finds_elements_by_attribute() -> None:
    doc = parse('<p data-x="1">a <b class="k j">b</b></p><input name=q value="v">')
    assert doc.find("p", data_x="1").text() == "a b"
    assert doc.find(class_="j").tag == "b"
    assert doc.find("input", name="q").attrs["value"] == "v"
