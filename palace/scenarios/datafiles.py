"""Safe paths inside the repository's ``data/`` folder, for file names a user types."""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath

from palace.scenarios.schema import ScenarioError

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIO_DIR = DATA / "scenarios"


def data_path(name: str, *, root: str | Path | None = None) -> Path:
    """The file `name` inside the data folder (default: the repository's ``data/``).

    Only relative names with ``/`` separators are accepted; absolute paths, drive
    letters, backslashes, ``..`` parts and symbolic links that lead outside the folder
    raise `ScenarioError`. The file must exist.
    """
    base = Path(DATA if root is None else root)
    if not isinstance(name, str):
        raise ScenarioError(f"a data file name must be text, got {type(name).__name__}")
    shown = repr(name) if len(name) <= 80 else repr(name[:77] + "...")
    if not name.strip():
        raise ScenarioError("a data file name must not be empty")
    if "\x00" in name or len(name) > 255:
        raise ScenarioError(f"{shown} is not a usable file name")
    if "\\" in name:
        raise ScenarioError(f"{shown}: use '/' between folders, not '\\'")
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).drive or name.startswith("~"):
        raise ScenarioError(
            f"{shown} is an absolute path: name a file inside the data folder, such as "
            f"'scenarios/01-quiet-round-showdown.json'"
        )
    if ".." in PurePosixPath(name).parts:
        raise ScenarioError(f"{shown} uses '..': only files inside the data folder can be opened")
    try:
        top = base.resolve(strict=True)
    except OSError:
        raise ScenarioError(f"the data folder {base} does not exist") from None
    target = top / name
    try:
        real = target.resolve(strict=True)
    except OSError:
        raise ScenarioError(f"{shown}: no such file in the data folder") from None
    if not real.is_relative_to(top):
        raise ScenarioError(f"{shown} leads outside the data folder (a symbolic link): refused")
    if not real.is_file():
        raise ScenarioError(f"{shown} is not a file in the data folder")
    return real


def open_data_file(name: str, *, root: str | Path | None = None) -> Path:
    """Resolve a user-typed name to a checked file inside ``data/`` (see `data_path`).

    The app's "open by name" uses it: ``load_scenario(open_data_file("scenarios/01-x.json"))``.
    """
    return data_path(name, root=root)
