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
    "classroom": 1,
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


# ---------------------------------------------------------------- private names (issue #9, item 6)
TESTS = Path(__file__).resolve().parent
# The packages whose modules may not import another module's private names. The engine
# core and scenarios/ join once their own clean-up lands (the lead's and H1's work).
PRIVATE_CHECKED = ("engine", "analysis", "scenarios", "widgets", "app", "lessons")


def _is_private(name: str) -> bool:
    """`_x`, not `__x__` (dunders and Jupyter's `_repr_*_` hooks are protocols, not secrets)."""
    if name.startswith("__") and name.endswith("__"):
        return False
    if name.startswith("_repr_") and name.endswith("_"):
        return False
    return name.startswith("_")


def private_imports(source: str, package: str = "palace") -> list[str]:
    """`from palace.x import _y` and `palace_module._y` in `source`, as ``"line: name"``.

    `package` is the importing module's package, to resolve relative imports.
    """
    tree = ast.parse(source)
    modules: set[str] = set()  # local names bound to palace modules
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "palace":
                continue
            for a in node.names:
                if _is_private(a.name):
                    found.append((node.lineno, node.col_offset, f"from {mod} import {a.name}"))
                elif _is_module(f"{mod}.{a.name}"):
                    modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "palace":
                    modules.add(a.asname or a.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            if ast.unparse(node.value) in modules or (
                isinstance(node.value, ast.Attribute)
                and ast.unparse(node.value).startswith("palace.")
            ):
                found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f"{line}: {text}" for line, _, text in sorted(found)]


def palace_private_names() -> set[str]:
    """Every private name palace defines: functions, classes, module constants, methods and
    attributes set on `self`."""
    names: set[str] = set()
    for path in PALACE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if _is_private(n)}


def private_attributes(source: str, private: set[str]) -> list[str]:
    """`obj._x` in test code where `_x` is a private name palace defines (not `self._x`)."""
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f"{line}: {text}" for line, _, text in sorted(found)]


def _checked_modules() -> list[Path]:
    return sorted(
        p
        for p in PALACE.rglob("*.py")
        if package_of(module_name(p)) in PRIVATE_CHECKED or module_name(p) == "palace"
    )


def test_no_module_imports_another_modules_private_names() -> None:
    """A name shared between modules is public: `from palace.app.common import _guard` is not
    allowed (give it a public name, or move it to the module that uses it)."""
    bad = []
    for path in _checked_modules() + sorted(TESTS.rglob("*.py")):
        package = module_name(path) if path.name == "__init__.py" else ""
        if path.is_relative_to(PALACE):
            package = package or module_name(path).rsplit(".", 1)[0]
        for hit in private_imports(path.read_text("utf-8"), package or "tests"):
            bad.append(f"{path.relative_to(PALACE.parent)}:{hit}")
    assert bad == []


def test_tests_use_the_public_surface_of_panels() -> None:
    """Tests click and read what a user of a panel can: `panel.button("next")`, not
    `panel._next`; no private attribute palace defines is touched from tests."""
    private = palace_private_names()
    bad = []
    for path in sorted(TESTS.rglob("*.py")):
        for hit in private_attributes(path.read_text("utf-8"), private):
            bad.append(f"{path.relative_to(TESTS.parent)}:{hit}")
    assert bad == []


def test_the_private_name_checks_find_what_they_look_for() -> None:
    src = (
        "from palace.app.common import _guard, guard\n"
        "from palace.app import common\n"
        "import palace.game\n"
        "from . import _near\n"
        "x = common._box(1) + palace.game._names + common.box\n"
        "from other import _fine\n"
    )
    assert private_imports(src, "palace.app") == [
        "1: from palace.app.common import _guard",
        "4: from palace.app import _near",
        "5: common._box",
        "5: palace.game._names",
    ]
    test_src = "panel._next.click()\nself._next = 1\npanel._repr_mimebundle_()\nhelpers._free\n"
    assert private_attributes(test_src, {"_next"}) == ["1: panel._next"]
    assert not _is_private("_repr_mimebundle_") and not _is_private("__init__")
    assert "_guard" not in palace_private_names()  # renamed: app.common.guard
    assert {"_render", "_Side"} <= palace_private_names()
