"""The widget state a notebook stores (``metadata.widgets``), kept to what its outputs show.

An executed notebook saves the state of every widget model its kernel made
(``ExecutePreprocessor.store_widget_state``), so a page without a kernel (GitHub, nbviewer,
JupyterLab, ``make handouts``) can draw its panels. nbclient keeps every model ever opened,
closed ones too, with every trait, and each panel carries its own copy of the style sheet;
`slim` keeps only the models an output's view reaches, drops the traits left at their
defaults (as ``ipywidgets.embed`` does with ``drop_defaults``), and stores each ``<style>``
block once (a style sheet applies to the whole page).

>>> nb = {"cells": [], "metadata": {"widgets": {STATE: {"state": {"x": {}}}}}}
>>> slim(nb)["metadata"]
{}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]+)")
STYLE_BLOCK = re.compile(r"<style>.*?</style>", re.S)
HTML_MODELS = frozenset({"HTMLModel", "HTMLMathModel"})


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def shown_models(nb: Mapping[str, Any]) -> list[str]:
    """The model ids of the widget views in the notebook's outputs, in page order."""
    out = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) or []:
            view = (output.get("data") or {}).get(VIEW)
            if isinstance(view, Mapping) and view.get("model_id"):
                out.append(str(view["model_id"]))
    return out


def reachable(states: Mapping[str, Any], roots: list[str]) -> list[str]:
    """Every model reached from `roots` through ``IPY_MODEL_`` references (children,
    layouts, styles), in the order first reached."""
    seen: dict[str, None] = {}
    todo = list(reversed(roots))
    while todo:
        mid = todo.pop()
        if mid in seen or mid not in states:
            continue
        seen[mid] = None
        refs = [
            m.group(1)
            for s in _strings(states[mid].get("state", {}))
            for m in MODEL_REF.finditer(s)
        ]
        todo.extend(reversed(refs))
    return list(seen)


@cache
def _defaults(model_module: str, model_name: str) -> dict[str, Any]:
    """The JSON defaults of a registered widget model's traits ({} for an unknown model)."""
    from ipywidgets.widgets.widget import _registry

    for (module, _v, name, *_view), klass in _registry.items():
        if module == model_module and name == model_name:
            out = {}
            for key, trait in klass.class_traits(sync=True).items():
                try:
                    out[key] = json.loads(json.dumps(trait.default_value))
                except (TypeError, ValueError):
                    continue  # a default that is not JSON (dynamic): always kept
            return out
    return {}


def _drop_defaults(model: dict[str, Any]) -> None:
    defaults = _defaults(str(model.get("model_module", "")), str(model.get("model_name", "")))
    state = model.get("state", {})
    for key in [k for k, v in state.items() if k in defaults and defaults[k] == v]:
        del state[key]


def _style_once(model: dict[str, Any], seen: set[str]) -> None:
    """An HTML model's ``<style>`` blocks stored before on the page are dropped from it."""
    state = model.get("state", {})
    value = state.get("value")
    if model.get("model_name") not in HTML_MODELS or not isinstance(value, str):
        return
    if "<style>" not in value:
        return

    def once(match: re.Match[str]) -> str:
        block = match.group(0)
        if block in seen:
            return ""
        seen.add(block)
        return block

    state["value"] = STYLE_BLOCK.sub(once, value)


def slim(nb: dict[str, Any]) -> dict[str, Any]:
    """`nb` with its stored widget state cut to what its outputs show (changed in place)."""
    meta = nb.setdefault("metadata", {})
    widgets = meta.get("widgets") or {}
    states: dict[str, Any] = (widgets.get(STATE) or {}).get("state") or {}
    keep = reachable(states, shown_models(nb))
    if not keep:
        meta.pop("widgets", None)
        return nb
    styles: set[str] = set()
    slimmed = {}
    for mid in keep:
        model = states[mid]
        _drop_defaults(model)
        _style_once(model, styles)
        slimmed[mid] = model
    widgets[STATE]["state"] = slimmed
    return nb


def state_size(nb: Mapping[str, Any]) -> int:
    """The bytes of the stored widget state (as JSON), 0 when none is stored."""
    widgets = (nb.get("metadata") or {}).get("widgets")
    return len(json.dumps(widgets, ensure_ascii=False)) if widgets else 0


def main(argv: list[str] | None = None) -> int:
    """``python -m palace.widgets.stored_state NOTEBOOK...``: slim each notebook in place,
    without the cells' timing metadata (the form `make notebooks` stores)."""
    import sys

    paths = sys.argv[1:] if argv is None else argv
    for path in paths:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        before = state_size(nb)
        slim(nb)
        for cell in nb.get("cells", []):
            cell.get("metadata", {}).pop("execution", None)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        print(f"{path}: widget state {before:,} -> {state_size(nb):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
