"""The package's shape (docs/architecture.md): layers as folders, arrows only going down.

engine core (palace/*.py) <- analysis/, scenarios/ <- widgets/ <- app/, lessons/ <- notebooks.
Every import counts, including the ones inside functions, so a lazy import cannot hide a
circle or an arrow that runs back up a layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PALACE = Path(__file__).resolve().parents[1] / "palace"

# Packages by layer; a module may import its own package and any lower layer, never a
# higher layer and never a peer package of the same layer.
LAYERS: dict[str, int] = {
    "engine": 0,
    "analysis": 1,
    "scenarios": 1,
    "widgets": 2,
    "app": 3,
    "lessons": 3,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PALACE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str) -> str:
    """`engine` for the core modules, else the layer folder (`analysis`, `app`, ...)."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in LAYERS:
        return parts[1]
    return "engine"


def _is_module(name: str) -> bool:
    base = PALACE.parent / name.replace(".", "/")
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def palace_imports(path: Path) -> set[str]:
    """Every `palace...` module a file imports (top level and inside functions)."""
    tree = ast.parse(path.read_text("utf-8"))
    me = module_name(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "palace")
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import: resolve against this module's package
                base = me.split(".")
                if path.name != "__init__.py":
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "palace":
                continue
            # `from palace.analysis import batch` names a module: that is the import
            subs = {f"{mod}.{a.name}" for a in node.names}
            modules = {s for s in subs if _is_module(s)}
            found.update(modules)
            if modules != subs:
                found.add(mod)
    found.discard(me)
    return found


def graph() -> dict[str, set[str]]:
    return {module_name(p): palace_imports(p) for p in sorted(PALACE.rglob("*.py"))}


def test_the_layer_folders_exist() -> None:
    for folder in LAYERS:
        if folder != "engine":
            assert (PALACE / folder / "__init__.py").exists(), folder


def test_no_module_imports_the_top_level_facade() -> None:
    """`palace/__init__.py` re-exports the public API; modules inside never import it."""
    bad = [m for m, deps in graph().items() if m != "palace" and "palace" in deps]
    assert bad == []


def test_imports_only_go_down_the_layers() -> None:
    wrong = []
    for mod, deps in graph().items():
        if mod == "palace":
            continue
        mine = package_of(mod)
        for dep in deps:
            theirs = package_of(dep)
            if dep == "palace" or theirs == mine:
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{mod} ({mine}) imports {dep} ({theirs})")
    assert wrong == []


def _cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles() -> None:
    g = graph()
    # a package's __init__ re-exports its modules: that is not a circle back to it
    g = {m: {d for d in ds if not (m.startswith(d + ".") and d != "palace")} for m, ds in g.items()}
    assert _cycles(g) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize(
    ("module", "package"),
    [("palace.game", "engine"), ("palace.analysis.odds", "analysis"), ("palace.app", "app")],
)
def test_package_of(module: str, package: str) -> None:
    assert package_of(module) == package
