"""Print the names the Jinja templates use, as Python that vulture reads.

Vulture reads only Python, so a function or attribute that only a template
uses (``text.rating_detail``, ``form.name_error``) would look dead to it.
.ci/run writes this output to a file and passes it to vulture beside the
package. Names inside quotes are left out: in a template they are words to
translate or endpoints, whose views vulture keeps by their decorators.
"""

from __future__ import annotations

import keyword
import re
import sys
from pathlib import Path

TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
"""A Jinja expression or statement."""

QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
"""A string literal inside a tag."""

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""An identifier."""


def template_names(folder: Path) -> set[str]:
    """Return every identifier in the tags of the templates under folder."""
    names: set[str] = set()
    for path in folder.rglob("*.html"):
        for tag in TAG.findall(path.read_text(encoding="utf-8")):
            names.update(NAME.findall(QUOTED.sub("", tag)))
    return {name for name in names if not keyword.iskeyword(name)}


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "templates")
    for name in sorted(template_names(folder)):
        print(f"_.{name}")
