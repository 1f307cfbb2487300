"""The widget state a notebook stores (palace/widgets/stored_state.py): what a page without a
kernel needs to draw every panel the outputs show, and nothing else."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ipywidgets import HTML, Button, Layout, VBox, Widget

from palace.widgets.stored_state import (
    STATE,
    VIEW,
    reachable,
    shown_models,
    slim,
    state_size,
)
from palace.widgets.theme import CARD_CSS, PANEL_CSS

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
MAX_STATE = 600_000  # bytes of stored widget state a lesson may carry


def notebook(*shown: Widget, extra: tuple[Widget, ...] = ()) -> dict[str, Any]:
    """A notebook showing `shown` (one output each) with every model's full state stored, as
    nbclient stores it: `extra` are models the kernel made that no output shows."""
    everything: list[Widget] = []
    todo = list(shown) + list(extra)
    while todo:
        w = todo.pop()
        if w in everything:
            continue
        everything.append(w)
        for name in w.keys:
            value = getattr(w, name)
            todo.extend(
                v
                for v in (value if isinstance(value, tuple) else (value,))
                if isinstance(v, Widget)
            )
    state = Widget.get_manager_state(drop_defaults=False, widgets=everything)
    cells = [
        {
            "cell_type": "code",
            "metadata": {},
            "source": "",
            "execution_count": i,
            "outputs": [
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {VIEW: w.get_view_spec(), "text/plain": repr(w)},
                }
            ],
        }
        for i, w in enumerate(shown, 1)
    ]
    return {
        "cells": cells,
        "metadata": {"widgets": {STATE: state}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def models(nb: dict[str, Any]) -> dict[str, Any]:
    return nb["metadata"]["widgets"][STATE]["state"]


def test_keeps_what_the_outputs_reach_and_drops_the_rest() -> None:
    label = HTML("<b>shown</b>")
    button = Button(description="Go")
    panel = VBox([label, button])
    gone = Button(description="replaced")  # a picker a panel replaced: no output reaches it
    nb = notebook(panel, extra=(gone,))
    assert gone.model_id in models(nb)
    slim(nb)
    kept = models(nb)
    for w in (panel, label, button, label.layout, button.layout, button.style):
        assert w.model_id in kept
    assert gone.model_id not in kept and gone.layout.model_id not in kept
    assert reachable(kept, shown_models(nb)) == list(kept)


def test_drops_defaults_but_keeps_every_value_that_differs() -> None:
    button = Button(description="Go", disabled=True, layout=Layout(width="92px"))
    nb = notebook(button)
    full = copy.deepcopy(models(nb))
    slim(nb)
    state = models(nb)[button.model_id]["state"]
    assert state["description"] == "Go" and state["disabled"] is True
    assert "icon" not in state and "tooltip" not in state  # defaults: the page fills them
    assert "_model_name" not in state  # each model still names itself beside its state
    assert models(nb)[button.model_id]["model_name"] == "ButtonModel"
    layout = models(nb)[button.layout.model_id]["state"]
    assert layout == {"width": "92px"}
    # nothing that differs from a default is lost
    for mid, model in models(nb).items():
        for key, value in model["state"].items():
            assert full[mid]["state"][key] == value
    assert state_size(nb) < len(json.dumps(full))


def test_each_style_sheet_is_stored_once() -> None:
    sheet = CARD_CSS + PANEL_CSS
    first, second = HTML(sheet), HTML(sheet)  # e.g. two kernels' sheets, or a row's own copy
    shown = HTML(sheet + "<div>cards</div>")
    nb = notebook(VBox([first, HTML("a")]), VBox([second, shown]))
    slim(nb)
    values = [m["state"].get("value", "") for m in models(nb).values()]
    for block in re.findall(r"<style>.*?</style>", sheet, re.S):
        assert sum(v.count(block) for v in values) == 1
    assert any(v == "<div>cards</div>" for v in values)  # the content stays


def test_a_notebook_without_views_stores_no_state() -> None:
    nb = notebook(extra=(Button(),))
    slim(nb)
    assert "widgets" not in nb["metadata"] and state_size(nb) == 0


@pytest.mark.parametrize("name", [p.name for p in sorted(NOTEBOOKS.glob("0*.ipynb"))])
def test_stored_lessons_carry_the_state_of_every_panel_they_show(name: str) -> None:
    """`make notebooks` stores each lesson with the state of its panels, so GitHub, nbviewer
    and JupyterLab without a kernel draw them; kept small."""
    nb = json.loads((NOTEBOOKS / name).read_text())
    views = shown_models(nb)
    if not views:
        assert "widgets" not in nb["metadata"]
        return
    state = nb["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    missing = [v for v in views if v not in state]
    assert not missing, f"{name}: run `make notebooks NB=notebooks/{name}` ({len(missing)} panels)"
    assert reachable(state, views) == list(state)  # nothing stored that no output shows
    assert state_size(nb) < MAX_STATE
