"""The engine's hot modules compiled by mypyc from the same source: build, remove, check.

Palace has one rules implementation, in Python. `make native` (`build`) compiles the
modules in `COMPILED` with mypyc, the compiler mypy and black are built with, into
extension modules beside their sources; Python then imports those instead, and random
play runs about 2.2-3.9 times as fast, a rule-bot study about 4.5-5.9 times
(`bench/bench_engine.py` and `bench/bench_studies.py` measure both in one run).
`make pure` (`remove`) goes back to the pure-Python modules, `make native-status` says
which are in use, and ``PALACE_PURE=1`` runs the source for one process (to debug or
profile it). `make app`, `make test` and the other targets compile
first when the sources changed, and carry on in pure Python on a machine that cannot.

A compiled module older than its source would run old rules, and one older than an engine
module it was compiled against (`Rules`, the actions: their annotations are checked at run
time) could fail on a changed type: `import palace` refuses both (`check_fresh`) and says
how to rebuild, so a test never passes on stale code.

>>> all(source_path(name).exists() for name in COMPILED)
True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

COMPILED = (
    "cards", "hands", "table", "deal", "checks", "play", "game", "views", "battle", "worlds",
    "shuffle", "match", "analysis.bots", "analysis.bot_hands",
)  # fmt: skip
"""The modules a hand spends its time in, named from `palace` (the cards, the engine, the rule
bots and the studies' hand loop). `Card` and `SeatView` are native classes there (compiled
code reads their fields directly); the other value types, the rules and the events stay
pure Python: their dataclass idioms are not mypyc's."""


def source_path(name: str) -> Path:
    """The source file of a module of `COMPILED` ("analysis.bots" -> palace/analysis/bots.py)."""
    return HERE / f"{name.replace('.', '/')}.py"


def compiled_path(name: str, suffix: str) -> Path:
    """Where the compiled form of a module of `COMPILED` lies, for one extension suffix."""
    return HERE / f"{name.replace('.', '/')}{suffix}"


HELPER = "_records"
"""A small C module built beside them (``palace/_records.c``, no rules in it): the C forms of
`palace.records.new_record` and `set_fields`, which the source runs in Python."""


def helper_paths() -> list[Path]:
    """The built helper module, for each extension suffix it exists under."""
    return [p for s in extension_suffixes() if (p := HERE / f"{HELPER}{s}").exists()]


GROUP = "palace.engine"
"""The name of the shared library the compiled modules live in (``palace/engine__mypyc…``)."""

STALE_ENV = "PALACE_IGNORE_STALE_BUILD"
"""Set to 1 to import a package whose compiled modules are older than their sources."""

PURE_ENV = "PALACE_PURE"
"""Set to 1 to run the pure-Python modules even where compiled ones are built (to debug,
profile, or run the doctests of `COMPILED`, which a compiled module cannot show)."""


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds ``palace.<name>`` of `COMPILED` as its source file, ahead of the extension."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.partition(".")
        if package != "palace" or name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(name))


def prefer_pure() -> bool:
    """Under ``PALACE_PURE=1``, import `COMPILED` from source from now on; True if so."""
    if os.environ.get(PURE_ENV) != "1":
        return False
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
    return True


def is_compiled() -> bool:
    """True if the engine in use is the compiled one (a compiled module is imported)."""
    game = sys.modules.get("palace.game")
    return game is not None and not str(getattr(game, "__file__", "")).endswith(".py")


def extension_suffixes() -> list[str]:
    """The file endings this Python imports extension modules from."""
    return list(importlib.machinery.EXTENSION_SUFFIXES)


def built_files() -> list[Path]:
    """Every compiled file of this package (the modules and their shared library)."""
    out: list[Path] = []
    for suffix in extension_suffixes():
        out += [compiled_path(n, suffix) for n in COMPILED if compiled_path(n, suffix).exists()]
        out += sorted(HERE.glob(f"engine__mypyc{suffix}"))
    return out + helper_paths()


def compiled_modules() -> list[str]:
    """The modules of `COMPILED` that have a compiled file (and so are imported from it)."""
    return [n for n in COMPILED if any(compiled_path(n, s).exists() for s in extension_suffixes())]


def stale_modules() -> list[str]:
    """Compiled modules whose source changed after they were built."""
    out = []
    for name in COMPILED:
        src = source_path(name)
        for suffix in extension_suffixes():
            so = compiled_path(name, suffix)
            if so.exists() and src.stat().st_mtime > so.stat().st_mtime:
                out.append(name)
    helper_source = HERE / f"{HELPER}.c"
    if any(helper_source.stat().st_mtime > so.stat().st_mtime for so in helper_paths()):
        out.append(HELPER)
    return out


_NOT_COMPILED_AGAINST = ("__init__.py", "native.py", "conftest.py")


def newer_engine_sources() -> list[str]:
    """Engine modules left in pure Python (``palace/*.py``: cards, rules, actions, events, ...)
    changed after the build: the compiled code was checked against their old types."""
    built = [f.stat().st_mtime for f in built_files()]
    if not built:
        return []
    oldest = min(built)
    compiled = {source_path(name) for name in COMPILED}
    return sorted(
        p.name
        for p in HERE.glob("*.py")
        if p not in compiled and p.name not in _NOT_COMPILED_AGAINST and p.stat().st_mtime > oldest
    )


def check_fresh() -> None:
    """Raise ImportError if a compiled module is older than its source or than an engine
    module it was compiled against (see module doc); under ``PALACE_PURE=1`` set the source
    modules to be imported instead."""
    if prefer_pure() or os.environ.get(STALE_ENV) == "1":
        return
    fix = (
        "run `make native` to compile again, or `make pure` to run pure Python "
        f"({STALE_ENV}=1 imports it anyway)"
    )
    stale = stale_modules()
    if stale:
        raise ImportError(
            f"palace: the compiled {', '.join(stale)} {'is' if len(stale) == 1 else 'are'} "
            f"older than the source: {fix}"
        )
    newer = newer_engine_sources()
    if newer:
        raise ImportError(
            f"palace: {', '.join(newer)} changed after the engine was compiled against it: {fix}"
        )


def remove() -> list[Path]:
    """Delete the compiled files; the pure-Python modules are used from the next import."""
    files = built_files()
    for f in files:
        f.unlink()
    return files


def build(quiet: bool = True) -> list[str]:
    """Compile `COMPILED` in place with mypyc (needs mypy and a C compiler); on failure
    nothing compiled is left behind, so the pure-Python modules run."""
    from mypyc.build import mypycify  # a build tool, not a run-time dependency
    from setuptools import Extension, setup

    remove()
    root = HERE.parent
    sources = [str(source_path(name)) for name in COMPILED]
    with tempfile.TemporaryDirectory(prefix="palace-native-") as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)  # setuptools reads no project file here; the results are copied back
        for name in COMPILED:
            Path(tmp, "palace", *name.split(".")[:-1]).mkdir(parents=True, exist_ok=True)
        try:
            config = ["--config-file", str(root / "pyproject.toml")]  # mypy's settings
            ext = mypycify(config + sources, group_name=GROUP, target_dir="c")
            ext.append(Extension(f"palace.{HELPER}", [str(HERE / f"{HELPER}.c")]))
            args = ["-q"] if quiet else []
            args += ["build_ext", "--inplace", "--build-temp", "o", "--build-lib", "lib"]
            setup(name="palace-native", ext_modules=ext, script_args=args)
            for built in Path(tmp, "palace").rglob("*"):
                if built.suffix == ".so" or built.name.endswith(tuple(extension_suffixes())):
                    target = HERE / built.relative_to(Path(tmp, "palace"))
                    shutil.copy2(built, target.with_name(target.name + ".tmp"))
                    os.replace(target.with_name(target.name + ".tmp"), target)
        except BaseException:
            remove()
            raise
        finally:
            os.chdir(cwd)
    return compiled_modules()


def ensure() -> str:
    """Build if a module is not compiled or older than its source; say what happened.
    A machine that cannot compile (no mypy, no C compiler) runs pure Python."""
    built = compiled_modules() == list(COMPILED) and bool(helper_paths())
    if built and not stale_modules() + newer_engine_sources():
        return "palace: the compiled engine is up to date"
    try:
        done = build()
    except (Exception, SystemExit) as exc:  # setuptools reports a failed compile by exiting
        return f"palace: could not compile ({exc}); running pure Python"
    return f"palace: compiled with mypyc: {', '.join(done)}"


def main(argv: list[str] | None = None) -> int:
    """``python -c "from palace.native import main; main()" build|ensure|remove|status``
    (``make native``, ``make pure``)."""
    args = sys.argv[1:] if argv is None else argv
    what = args[0] if args else "status"
    if what == "build":
        print("palace: compiled with mypyc:", ", ".join(build()))
    elif what == "ensure":
        print(ensure())
    elif what == "remove":
        print(f"palace: removed {len(remove())} compiled files; pure Python from now on")
    elif what == "status":
        done = compiled_modules()
        stale = stale_modules()
        print("palace: compiled:", ", ".join(done) if done else "none (pure Python)")
        if newer_engine_sources():
            print("palace: changed since the build (rebuild):", ", ".join(newer_engine_sources()))
        if done and os.environ.get(PURE_ENV) == "1":
            print(f"palace: {PURE_ENV}=1: the pure-Python modules are in use")
        if stale:
            print("palace: older than their source (rebuild):", ", ".join(stale))
    else:
        print("usage: build | ensure | remove | status", file=sys.stderr)
        return 2
    return 0
