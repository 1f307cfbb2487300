"""A study as seeded shards: run in this process or on Dask, each result saved as it finishes.

A `Plan` lists its shards in order; each shard is a module-level function and keyword
arguments that include the study's seed and the shard's index, so a shard's result depends
on nothing else. `run` returns the results in shard order whatever order they finished in,
so the serial path, one worker and N workers give the same tables. With a `cache` folder,
every finished shard is written to ``<cache>/<plan>-<digest>/shard-NNNNN.json`` at once,
and a later run of the same plan (same study, inputs and Palace code) reads those back and
computes only the missing shards: an interrupted study resumes where it stopped.

>>> plan = Plan("squares", tuple(Shard(pow, {"base": i, "exp": 2}) for i in range(4)))
>>> run(plan, scheduler="serial")
[0, 1, 4, 9]
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from palace.analysis.cluster import client_for
from palace.errors import PalaceError

PALACE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Shard:
    """One piece of a study: ``task(**kwargs)`` returns numbers that JSON can hold."""

    task: Callable[..., Any]
    kwargs: Mapping[str, Any]


@dataclass(frozen=True)
class Plan:
    """A study's shards in order; `name` labels the progress bar and the cache folder."""

    name: str
    shards: tuple[Shard, ...]

    def digest(self) -> str:
        """A fingerprint of the study's inputs and of the Palace code that computes it."""
        spec = [
            [f"{s.task.__module__}.{s.task.__qualname__}", _jsonable(dict(s.kwargs))]
            for s in self.shards
        ]
        text = json.dumps([self.name, spec, code_fingerprint()], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def folder(self, cache: Path) -> Path:
        """Where this plan's shard results live under `cache`."""
        return Path(cache) / f"{self.name}-{self.digest()}"


class Cancelled(PalaceError):
    """The run was cancelled; `done` of `total` shards had finished (and were saved)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"cancelled after {done} of {total} shards")
        self.done, self.total = done, total


@dataclass
class Watch:
    """For a panel: `on_progress(done, total)` after each shard; `cancel.set()` stops the run."""

    on_progress: Callable[[int, int], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)


@cache
def code_fingerprint() -> str:
    """A hash of the engine and analysis sources: a cached shard is reused only by the same code."""
    h = hashlib.sha256()
    for path in sorted([*PALACE.glob("*.py"), *(PALACE / "analysis").glob("*.py")]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def add_up(parts: Iterable[Any]) -> Any:
    """Shard results added up in the order given: numbers add, lists add element by
    element (the shorter padded with zeros, as histograms), dicts add key by key.

    >>> add_up([{"n": 1, "hist": [2, 1], "by": {"a": 1}}, {"n": 2, "hist": [1], "by": {"b": 4}}])
    {'n': 3, 'hist': [3, 1], 'by': {'a': 1, 'b': 4}}
    """
    total: Any = None
    for part in parts:
        total = part if total is None else _add(total, part)
    return total


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, dict):
        return {
            k: _add(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in {**a, **b}
        }
    if isinstance(a, list):
        n = max(len(a), len(b))
        return [
            _add(x, y) for x, y in zip(a + [0] * (n - len(a)), b + [0] * (n - len(b)), strict=True)
        ]
    return a + b


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):  # Rules
        return {type(value).__name__: _jsonable(to_dict())}
    raise PalaceError(f"a shard argument must be plain data, got {type(value).__name__}")


def _normal(result: Any) -> Any:
    """The result as it reads back from its file, so fresh and cached runs agree exactly."""
    return json.loads(json.dumps(result))


def _call(task: Callable[..., Any], kwargs: Mapping[str, Any]) -> Any:
    return task(**kwargs)


def _shard_file(folder: Path, index: int) -> Path:
    return folder / f"shard-{index:05d}.json"


def _save(folder: Path, index: int, result: Any) -> None:
    path = _shard_file(folder, index)
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, path)  # a shard file is either whole or absent


def _load(folder: Path | None, total: int) -> dict[int, Any]:
    found: dict[int, Any] = {}
    if folder is None:
        return found
    for i in range(total):
        path = _shard_file(folder, i)
        if path.exists():
            try:
                found[i] = json.loads(path.read_text())
            except (OSError, ValueError):  # a damaged file: compute that shard again
                continue
    return found


class _Progress:
    """A tqdm bar (a widget in notebooks, text in a terminal) and the panel's callback."""

    def __init__(self, plan: Plan, done: int, show: bool, watch: Watch | None) -> None:
        self.total, self.done = len(plan.shards), done
        self.watch = watch
        self.bar: Any = None
        self._shown: Any = None  # the notebook output of the bar, redrawn when it closes
        if show:
            from tqdm.auto import tqdm
            from tqdm.notebook import tqdm_notebook

            # leave=True: the bar stays, so a served notebook never points at a closed widget
            widget = issubclass(tqdm, tqdm_notebook)
            self.bar = tqdm(
                total=self.total,
                initial=done,
                desc=plan.name,
                unit="shard",
                **({"display": False} if widget else {}),
            )
            if widget:  # shown with a display id, so the stored output ends at "160/160"
                from IPython.display import display

                self._shown = display(self.bar.container, display_id=True)
        self._tell()

    def _tell(self) -> None:
        if self.watch is not None and self.watch.on_progress is not None:
            self.watch.on_progress(self.done, self.total)

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        self._tell()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self._shown is not None:  # the text a page without the widget shows: the end
            self._shown.update(self.bar.container)


def run(
    plan: Plan,
    *,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    progress: bool = False,
    watch: Watch | None = None,
) -> list[Any]:
    """Every shard's result, in shard order (see the module). `scheduler`: see
    `palace.analysis.cluster`; `cache`: a folder for resumable runs (None: no files);
    `progress`: show a progress bar; `watch`: a panel's progress callback and cancel flag."""
    total = len(plan.shards)
    folder = plan.folder(Path(cache)) if cache is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    results = _load(folder, total)
    todo = [i for i in range(total) if i not in results]
    bar = _Progress(plan, total - len(todo), progress, watch)
    try:
        if todo:
            client = client_for(scheduler)
            if client is None:
                _run_serial(plan, todo, results, folder, bar, watch)
            else:
                _run_dask(client, plan, todo, results, folder, bar, watch)
    finally:
        bar.close()
    return [results[i] for i in range(total)]


def _finish(i: int, result: Any, results: dict, folder: Path | None, bar: _Progress) -> None:
    result = _normal(result)
    if folder is not None:
        _save(folder, i, result)
    results[i] = result
    bar.step()


def _cancelled(watch: Watch | None) -> bool:
    return watch is not None and watch.cancel.is_set()


def _run_serial(
    plan: Plan,
    todo: list[int],
    results: dict[int, Any],
    folder: Path | None,
    bar: _Progress,
    watch: Watch | None,
) -> None:
    for i in todo:
        if _cancelled(watch):
            raise Cancelled(bar.done, bar.total)
        shard = plan.shards[i]
        _finish(i, shard.task(**shard.kwargs), results, folder, bar)


def _run_dask(
    client: Any,
    plan: Plan,
    todo: list[int],
    results: dict[int, Any],
    folder: Path | None,
    bar: _Progress,
    watch: Watch | None,
) -> None:
    digest = plan.digest()
    finished: queue.Queue[Any] = queue.Queue()
    pending: dict[Any, int] = {}
    for i in todo:  # submitted in shard order: the scheduler starts the first ones first
        shard = plan.shards[i]
        fut = client.submit(
            _call, shard.task, dict(shard.kwargs), key=f"palace-{plan.name}-{digest}-{i:05d}"
        )
        pending[fut] = i
        fut.add_done_callback(finished.put)
    try:
        while pending:
            try:
                fut = finished.get(timeout=0.1)
            except queue.Empty:
                if _cancelled(watch):
                    raise Cancelled(bar.done, bar.total) from None
                continue
            i = pending.pop(fut)
            _finish(i, fut.result(), results, folder, bar)
            fut.release()
            if _cancelled(watch) and pending:
                raise Cancelled(bar.done, bar.total)
    finally:
        if pending:  # cancelled or failed: free the workers of what is left
            client.cancel(list(pending))
