"""The map is the code's: every import in ``gm/`` (read with ``ast``, imports inside functions and
type-only ones included) goes down the layer table of ``docs/architecture.md`` or stays in its
layer, and no two modules import each other, directly or round a circle.  The table is read from
the document itself, so the two cannot drift; an import the table would refuse is allowed only as
a *lazy seam*: inside a function, marked ``# layer seam`` on its line, and listed in the
document's seam table (which lists nothing that is not in the code)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import gm

GM = Path(gm.__file__).resolve().parent
DOC = GM.parent / "docs" / "architecture.md"
SEAM_MARK = "# layer seam"


@dataclass(frozen=True)
class Import:
    source: str  # importing module
    target: str  # imported gm module
    line: int
    lazy: bool  # inside a function
    typing_only: bool  # under ``if TYPE_CHECKING:``
    seam: bool  # marked ``# layer seam``

    def __str__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(GM.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(GM.rglob("*.py"))}


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"docs/architecture.md has no '## {title}' section"
    return match.group(1)


def _table_rows(text: str) -> list[list[str]]:
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in text.splitlines() if ln.startswith("|")]
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]  # no header, no rule


@cache
def layers() -> list[tuple[str, list[str]]]:
    """The layer table, bottom first: (layer name, module prefixes)."""
    table = []
    for name, where, *_ in _table_rows(_section("Layers")):
        paths = [re.sub(r"/<[^>]+>$", "", p) for p in re.findall(r"`(gm/[^`]*)`", where)]
        assert paths, f"layer {name!r} names no path"
        assert [p for p in paths if not (GM.parent / p).exists()] == [], f"layer {name!r} names a path that is not there"
        # a file is its module; a folder holds every module under it (``gm/__init__.py`` is the package gm)
        table.append((name, [p.removesuffix("/__init__.py").removesuffix(".py").replace("/", ".") + ("" if p.endswith(".py") else ".") for p in paths]))
    return table[::-1]


def layer_of(module: str) -> int:
    """The index (0 = bottom) of the layer whose longest matching prefix holds ``module``."""
    best = max(
        ((len(p), i) for i, (_, prefixes) in enumerate(layers()) for p in prefixes if module == p or module + "." == p or (p.endswith(".") and module.startswith(p))),
        default=None,
    )
    assert best is not None, f"{module} is in no layer of docs/architecture.md"
    return best[1]


def _resolve(source: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = source.split(".") if path.name == "__init__.py" else source.split(".")[:-1]
            base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
        # ``from gm.x import y`` imports the module gm.x.y when there is one, else the name y of gm.x
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules() else base for a in node.names]
    found = []
    for name in names:
        while name and name not in modules():  # ``import gm.x.y`` names the module even for an attribute
            name = name.rpartition(".")[0]
        if name.startswith("gm") and name:
            found.append(name)
    return sorted(set(found))


def _visit(node: ast.AST, source: str, path: Path, lines: list[str], lazy: bool, typing_only: bool, found: list[Import]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            end = child.end_lineno or child.lineno
            seam = any(SEAM_MARK in lines[i - 1] for i in range(child.lineno, end + 1))
            found.extend(Import(source, t, child.lineno, lazy, typing_only, seam) for t in _resolve(source, path, child) if t != source)
            continue
        inner_lazy = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        if isinstance(child, ast.If) and ast.unparse(child.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}:
            for stmt in child.body:
                _visit(ast.Module(body=[stmt], type_ignores=[]), source, path, lines, inner_lazy, True, found)
            for stmt in child.orelse:
                _visit(ast.Module(body=[stmt], type_ignores=[]), source, path, lines, inner_lazy, typing_only, found)
        else:
            _visit(child, source, path, lines, inner_lazy, typing_only, found)


@cache
def imports() -> list[Import]:
    found: list[Import] = []
    for source, path in modules().items():
        text = path.read_text(encoding="utf-8")
        _visit(ast.parse(text), source, path, text.splitlines(), False, False, found)
    return found


@cache
def documented_seams() -> set[tuple[str, str]]:
    """The seam table of docs/architecture.md: (importing module, imported module)."""
    seams = set()
    for row in _table_rows(_section("Lazy seams")):
        names = re.findall(r"`(gm[\w.]*)`", " | ".join(row[:2]))
        assert len(names) == 2, f"a seam row names its two modules: {row}"
        seams.add((names[0], names[1]))
    return seams


def test_every_module_has_a_layer() -> None:
    assert layers()[0][0] == "core" and len(layers()) >= 4
    assert {m: layer_of(m) for m in modules()}  # layer_of fails naming the module that has none


def test_imports_only_go_down_the_layers() -> None:
    """A module imports its own layer or those below it, type-only imports included: a lower layer
    names nothing above it."""
    names = [name for name, _ in layers()]
    upward = [
        f"{imp} ({names[layer_of(imp.source)]} imports {names[layer_of(imp.target)]})"
        for imp in imports()
        if layer_of(imp.target) > layer_of(imp.source) and not imp.seam
    ]
    assert upward == []


def test_no_import_circles_between_modules() -> None:
    """No module reaches itself through the imports it runs (at load or inside a function; lazy
    seams and type-only imports aside): a circle is two modules that cannot be understood, tested or
    moved apart."""
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    for imp in imports():
        if not imp.seam and not imp.typing_only:
            graph[imp.source].add(imp.target)
    circles = [c for c in _strongly_connected(graph) if len(c) > 1]
    assert circles == []


def documented_type_only_circles() -> list[list[str]]:
    """The type-only circles docs/architecture.md lists: each bullet's parenthesis of modules."""
    text = DOC.read_text()
    block = text[text.index("**Type-only circles.**"):text.index("A new circle that runs")]
    out = []
    for bullet in block.split("\n- ")[1:]:
        inside = re.search(r"\(([^)]*)\)", bullet)
        assert inside, f"a type-only circle's bullet lists its modules in parentheses: {bullet[:80]}"
        out.append(sorted(re.findall(r"`(gm[\w.]*)`", inside.group(1))))
    return sorted(out)


def test_the_type_only_circles_are_the_documented_ones() -> None:
    """Counting imports made for type annotations too, the circles are exactly those the document
    lists and explains (a new one, or one that grew, is looked at and written down, or undone)."""
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    for imp in imports():
        if not imp.seam:
            graph[imp.source].add(imp.target)
    found = sorted(sorted(c) for c in _strongly_connected(graph) if len(c) > 1)
    assert found == documented_type_only_circles()


def test_a_game_imports_no_other_game() -> None:
    """Games share a layer but nothing else: what two games have in common is in the core."""
    def game(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if parts[:2] == ["gm", "games"] and len(parts) > 2 else None

    assert [str(imp) for imp in imports() if game(imp.source) and game(imp.target) and game(imp.source) != game(imp.target)] == []


def test_every_seam_is_lazy_marked_and_documented() -> None:
    """A seam is an import inside a function marked ``# layer seam`` and listed in the document's seam
    table; every row of that table is one in the code."""
    marked = [imp for imp in imports() if imp.seam]
    assert [str(imp) for imp in marked if not imp.lazy] == []
    in_code = {(imp.source, imp.target) for imp in marked}
    assert sorted(in_code - documented_seams()) == [], "marked in the code, missing from docs/architecture.md"
    assert sorted(documented_seams() - in_code) == [], "in docs/architecture.md, not in the code"


def test_the_layer_test_sees_what_it_must() -> None:
    """The reader resolves relative imports, ``from package import module`` and imports inside
    functions and TYPE_CHECKING blocks (so the tests above cannot pass by reading nothing)."""
    by_source: dict[str, set[str]] = {}
    for imp in imports():
        by_source.setdefault(imp.source, set()).add(imp.target)
    assert len(imports()) > 500 and len(modules()) > 150
    assert "gm.core.state" in by_source["gm.core.game"]
    assert any(imp.typing_only for imp in imports()) and any(imp.lazy for imp in imports())
    names = [name for name, _ in layers()]
    assert names[layer_of("gm.games.grid_football.engine")] == "games"
    assert names[layer_of("gm.session.session")] == "sessions"
    assert layer_of("gm.cli.app") == len(names) - 1


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return sorted(components)
