"""The package's layers: which part of pnp may import which, and no import cycles.

The developer guide's layering, checked on the code's own imports (lazy ones
inside functions included, since they are dependencies all the same):
data → render → printing → builder; games → sim; the rulebook, the card
linter and ``pnp check`` on top; the CLI above everything. Engines and the
simulator never import the renderer, the print code or the rulebook, so a
rules change cannot reach the PDFs and an engine package stays free of the
PDF libraries. A new top-level module or package fails here until it is
given its place in :data:`ALLOWED`.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PNP = Path(__file__).resolve().parent.parent / "pnp"

_BASE = {"errors", "units", "fileio", "project", "sizes"}
#: What each top-level part of pnp may import (besides itself).
ALLOWED: dict[str, set[str]] = {
    "pnp": set(),
    "errors": set(),
    "intervals": set(),
    "webfont": set(),   # the IPAexGothic web-font subsetter: rulebook and sim pages
    "units": {"errors"},
    "fileio": {"errors"},
    "limits": set(),  # limits the commands share (workers per run)
    "options": {"errors", "limits"},
    "project": {"errors"},
    "sizes": {"errors", "units"},
    "data": _BASE,
    "render": _BASE,
    "printing": _BASE | {"data", "render"},
    "builder": _BASE | {"data", "render", "printing"},
    "games": {"errors", "units", "intervals", "data"},
    "sim": {"errors", "fileio", "intervals", "webfont", "limits", "data", "games"},
    "lint": _BASE | {"data", "render", "printing", "builder"},
    "rulebook": _BASE | {"webfont", "data", "render", "printing", "builder", "games"},
    "check": _BASE | {"data", "render", "builder", "games", "sim", "lint"},  # caches: builder
    "cli": set(),  # the top: may import every part (checked below)
}


def _modules() -> dict[str, Path]:
    """Every module of pnp by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in PNP.rglob("*.py"):
        parts = path.relative_to(PNP.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the pnp modules it imports anywhere in its body (``from p import sub`` → p.sub)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against this module's package
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _part(module: str) -> str:
    """The top-level part of pnp a module belongs to (``pnp.games.fortuna.engine`` → games)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "pnp"


def test_every_part_imports_only_the_layers_below_it() -> None:
    """No part of pnp imports one above it or beside it (the guide's layers)."""
    modules = _modules()
    parts = {_part(m) for m in modules}
    assert parts <= set(ALLOWED), f"give these a layer in ALLOWED: {sorted(parts - set(ALLOWED))}"
    wrong = []
    for module, targets in _imports(modules).items():
        part = _part(module)
        for target in targets:
            other = _part(target)
            # ``pnp`` itself (its __init__: version, PROJECT_ROOT) imports nothing
            if other not in (part, "pnp") and part != "cli" and other not in ALLOWED[part]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_no_import_cycles_between_modules() -> None:
    """The module import graph has no cycle (lazy imports count)."""
    graph = _imports(_modules())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        """Tarjan's strongly connected components, from ``v``."""
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert not cycles, f"import cycles: {cycles}"


def test_the_checks_see_a_wrong_import(tmp_path: Path) -> None:
    """The graph catches a lazy upward import and a cycle (so the tests above can fail)."""
    modules = {"pnp.games.x": tmp_path / "x.py", "pnp.render.y": tmp_path / "y.py"}
    modules["pnp.games.x"].write_text("def f():\n    from pnp.render import y\n", encoding="utf-8")
    modules["pnp.render.y"].write_text("import pnp.games.x\n", encoding="utf-8")
    graph = _imports(modules)
    assert graph["pnp.games.x"] == {"pnp.render.y"}
    assert graph["pnp.render.y"] == {"pnp.games.x"}
    assert "render" not in ALLOWED["games"]
