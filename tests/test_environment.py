"""pyproject.toml and environment.yml must list the same packages.

The runtime dependencies plus the ``test`` and ``agents`` extras of ``pyproject.toml`` are
compared with the conda and pip dependencies of ``environment.yml`` (ignoring
``python``, ``pip`` and the editable ``-e .``), so a dependency added to only
one file fails here.  The YAML is read with a small line parser because
PyYAML is not a dependency of the project.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ENVIRONMENT = ROOT / "environment.yml"

# conda-forge package name -> PyPI distribution name, where they differ.
CONDA_TO_PYPI = {
    "matplotlib-base": "matplotlib",
}
# environment.yml entries that are tooling, not project dependencies.
IGNORED = {"python", "pip"}

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalise(name: str) -> str:
    """PEP 503 style: lowercase, runs of ``-``, ``_`` and ``.`` become ``-``.

    >>> normalise("Jupyter_Lab")
    'jupyter-lab'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    """The package name of a requirement such as ``pandas>=3.1,<3.2``.

    >>> requirement_name("ipywidgets>=8.1,<8.2")
    'ipywidgets'
    >>> requirement_name("python=3.11")
    'python'
    >>> requirement_name("nbval [extra] ; python_version >= '3.11'")
    'nbval'
    """
    match = _NAME.match(spec)
    if match is None:
        raise ValueError(f"cannot read a package name from {spec!r}")
    return normalise(match.group(1))


def pyproject_packages(text: str) -> set[str]:
    project = tomllib.loads(text)["project"]
    extras = project["optional-dependencies"]
    specs = list(project["dependencies"]) + list(extras["test"]) + list(extras.get("agents", []))
    return {requirement_name(spec) for spec in specs}


def _strip_comment(line: str) -> str:
    # A YAML comment starts with '#' at the start or after whitespace.
    return re.sub(r"(^|\s)#.*$", "", line).rstrip()


def environment_sections(text: str) -> tuple[list[str], list[str]]:
    """Return (conda specs, pip specs) from an environment.yml text.

    Understands the block style used by conda: a top-level ``dependencies:``
    list whose items are strings, plus one ``- pip:`` item holding a nested list.

    >>> environment_sections('''
    ... name: x
    ... dependencies:
    ...   - python=3.11  # comment
    ...   - "numpy>=1.26"
    ...   - pip:
    ...       - treys
    ...       - -e .
    ... ''')
    (['python=3.11', 'numpy>=1.26'], ['treys', '-e .'])
    """
    conda: list[str] = []
    pip: list[str] = []
    in_deps = False
    deps_indent = -1
    pip_indent: int | None = None
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        if indent == 0:
            in_deps = stripped == "dependencies:"
            pip_indent = None
            continue
        if not in_deps:
            continue
        if not stripped.startswith("- "):
            raise ValueError(f"unexpected line in dependencies: {raw!r}")
        item = stripped[2:].strip().strip("'\"")
        if pip_indent is not None and indent > pip_indent:
            pip.append(item)
            continue
        pip_indent = None
        if deps_indent < 0:
            deps_indent = indent
        if indent != deps_indent:
            raise ValueError(f"unexpected nesting in dependencies: {raw!r}")
        if item == "pip:":
            pip_indent = indent
        else:
            conda.append(item)
    return conda, pip


def environment_packages(text: str) -> set[str]:
    conda, pip = environment_sections(text)
    names = set()
    for spec in conda:
        name = requirement_name(spec)
        names.add(normalise(CONDA_TO_PYPI.get(name, name)))
    for spec in pip:
        if spec.startswith("-"):  # "-e .", "-r file", index options
            continue
        names.add(requirement_name(spec))
    return names - IGNORED


def test_environment_yml_is_readable() -> None:
    conda, pip = environment_sections(ENVIRONMENT.read_text())
    assert any(requirement_name(spec) == "python" for spec in conda)
    assert "-e ." in pip, "environment.yml must install the project itself (pip: -e .)"


def test_python_version_matches() -> None:
    conda, _ = environment_sections(ENVIRONMENT.read_text())
    python = [spec for spec in conda if requirement_name(spec) == "python"]
    assert python == ["python=3.11"]
    requires = tomllib.loads(PYPROJECT.read_text())["project"]["requires-python"]
    assert requires == ">=3.11"


def test_same_packages_in_pyproject_and_environment() -> None:
    in_pyproject = pyproject_packages(PYPROJECT.read_text())
    in_environment = environment_packages(ENVIRONMENT.read_text())
    assert in_pyproject, "no dependencies read from pyproject.toml"
    only_pyproject = sorted(in_pyproject - in_environment)
    only_environment = sorted(in_environment - in_pyproject)
    assert not only_pyproject and not only_environment, (
        f"only in pyproject.toml: {only_pyproject}; only in environment.yml: {only_environment}"
    )


# Each patch inserts one package into one place of one file.
PATCHES = {
    "pyproject-runtime": ("pyproject", "dependencies = [\n", '    "scipy>=1",\n'),
    "pyproject-test-extra": ("pyproject", "test = [\n", '    "scipy>=1",\n'),
    "environment-conda": ("environment", "  - pip:\n", "  - scipy>=1\n"),
    "environment-pip": ("environment", "      - -e .\n", "      - scipy\n"),
}


@pytest.mark.parametrize("where", sorted(PATCHES))
def test_a_dependency_added_to_one_file_is_caught(where: str) -> None:
    """The comparison really notices a package that is in one file only."""
    target, anchor, line = PATCHES[where]
    texts = {"pyproject": PYPROJECT.read_text(), "environment": ENVIRONMENT.read_text()}
    assert anchor in texts[target], f"{anchor!r} not found in {target}"
    if target == "pyproject":
        texts[target] = texts[target].replace(anchor, anchor + line, 1)
    else:
        texts[target] = texts[target].replace(anchor, line + anchor, 1)
    in_pyproject = pyproject_packages(texts["pyproject"])
    in_environment = environment_packages(texts["environment"])
    assert in_pyproject ^ in_environment == {"scipy"}
