"""The layout's import rules, read from the source with ast.

Imports run one way: web -> formats, text, store -> engine. The engine imports
nothing of ours; nothing below web imports a blueprint or __main__; no blueprint
imports another; the cache does not import the store's writers.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"



def blueprints() -> set[str]:
    """Return every module of web/ that makes a Blueprint (found, not listed:
    a new blueprint is covered without editing this test)."""
    found = set()
    for path in (PACKAGE / "web").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None))
                    == "Blueprint"):
                found.add(".".join(
                    path.relative_to(PACKAGE.parent).with_suffix("").parts))
                break
    return found


BLUEPRINTS = blueprints()

REGISTRARS = {"scorekeeper.web", "scorekeeper.web.api"}
"""The modules that gather blueprints to register them (the API's at /api)."""

ALLOWED = {
    "engine": {"engine"},
    "i18n": set(),
    "catalogs": {"i18n"},
    "config": set(),
    "net": set(),
    "processes": set(),
    # The workers of --workers N: a socket and processes, nothing of the app.
    "prefork": set(),
    # Reading a stored timestamp: the standard library only.
    "timestamps": set(),
    # Compact JSON text, the moves table's and the API's: the standard library only.
    "compact_json": set(),
    # How many connections a process holds, and waitress's server with each
    # route's body limit and batched accepts: waitress and the standard library.
    "connections": set(),
    "guarded_waitress": set(),
    "text": {"text", "engine", "i18n", "timestamps"},
    "store": {"store", "engine", "compact_json"},
    "formats": {"formats", "text", "engine", "i18n", "timestamps"},
    # Reading a photo knows the tile set, nothing of the app.
    "photo": {"photo", "engine"},
    # The photo route hands a photo to the reader (in a worker process).
    "web": {"web", "formats", "text", "store", "engine", "i18n", "net", "photo",
            "processes", "timestamps", "compact_json"},
    "app": {"config", "store", "web"},
    # Serving knows the largest body the app takes (a backup's) and each
    # route's (web.bodies), its connections, its children's lifetime and its
    # workers.
    "serve": {"app", "formats", "processes", "prefork", "connections",
              "guarded_waitress", "web"},
    # The command reads and writes backups and snapshots besides serving.
    "main": {"config", "net", "app", "serve", "store", "formats"},
}
"""For each layer, the layers of ours it may import."""


def modules() -> dict[str, Path]:
    """Return every module of the package by dotted name."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer(module: str) -> str:
    """Return the layer a module belongs to."""
    if module == "scorekeeper":
        return "app"
    if module == "scorekeeper.__main__":
        return "main"
    return module.split(".")[1]


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Return the modules of ours that module imports (submodules resolved)."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # "from . import engine" imports the submodule; "from .x import y"
            # imports from module x.
            names = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in known
                else source
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            if name.split(".")[0] != "scorekeeper":
                continue
            while name not in known:
                name = name.rsplit(".", 1)[0]
            found.add(name)
    found.discard(module)
    return found


def graph() -> dict[str, set[str]]:
    """Return module -> the modules of ours it imports."""
    known = modules()
    return {module: imports(module, path, known) for module, path in known.items()}


def test_imports_run_from_web_through_formats_text_and_store_to_the_engine() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if layer(target) not in ALLOWED[layer(module)]
    ]
    assert wrong == []


def test_no_blueprint_imports_another_and_none_imports_main() -> None:
    edges = graph()
    wrong = [
        f"{module} imports {target}"
        for module, targets in edges.items()
        for target in targets
        if (target in BLUEPRINTS and module not in REGISTRARS)
        or (target == "scorekeeper.__main__")
    ]
    assert wrong == []


def test_the_cache_does_not_import_the_stores_writers() -> None:
    assert "scorekeeper.store.games" not in graph()["scorekeeper.store.cache"]


def test_the_engine_imports_only_the_standard_library() -> None:
    ours_or_stdlib = {"scorekeeper"} | set(__import__("sys").stdlib_module_names)
    for module, path in modules().items():
        if layer(module) != "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            assert set(roots) <= ours_or_stdlib, (module, roots)


def test_the_graph_sees_the_imports_it_checks() -> None:
    # The walker itself: it must find the edges the rules are about.
    edges = graph()
    assert "scorekeeper.engine.errors" in edges["scorekeeper.engine.board"]
    assert "scorekeeper.store.cache" in edges["scorekeeper.store.games"]
    assert "scorekeeper.text" in edges["scorekeeper.web.api.games"]
    assert BLUEPRINTS <= set().union(*(edges[module] for module in REGISTRARS))


def test_every_blueprint_is_found() -> None:
    # The ones there were when this was written; any later one is found too.
    assert {"scorekeeper.web." + name
            for name in ("api.games", "api.events", "api.files", "table", "history",
                         "players", "files", "tv", "assets")} <= BLUEPRINTS
    assert "scorekeeper.web.pages" not in BLUEPRINTS
