"""Handouts with their panels drawn (palace/app/handouts.py): the page carries the saved
widget state and loads the renderer from beside it, nothing from a CDN; a renderer that is
not the pinned one is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from palace.app.handouts import ASSETS, handout, install_manager, widget_manager
from palace.widgets.stored_state import reachable

STATE_SCRIPT = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-state\+json">\s*(.*?)\s*</script>', re.S
)


def lesson(tmp_path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A lesson"),
        nbformat.v4.new_code_cell(
            "from palace import Game\nfrom palace.widgets import DealStepper\n"
            "DealStepper(Game.new(players=3, seed=2))"
        ),
    ]
    source = tmp_path / "01_lesson.ipynb"
    nbformat.write(nb, source)
    return source


def test_a_handout_draws_its_panels_from_the_saved_state(tmp_path: Path) -> None:
    renderer = tmp_path / "renderer"
    renderer.mkdir()
    (renderer / "embed.js").write_text("/* the renderer */")
    out = tmp_path / "out"
    install_manager(renderer, out)
    page = handout(lesson(tmp_path), out, manager=renderer).read_text()
    assert (out / ASSETS / "embed.js").read_text() == "/* the renderer */"
    assert f"'{ASSETS}/embed.js'" in page  # loaded from beside the page
    for cdn in ("require.min.js", "mathjax/2.7.7/latest.js"):
        assert f'src="https://cdnjs.cloudflare.com/ajax/libs/{cdn}' not in page
    found = STATE_SCRIPT.search(page)
    assert found is not None
    state = json.loads(found.group(1))["state"]
    views = re.findall(r'"model_id": "([0-9a-f]+)"', page)
    assert views and all(v in state for v in views)
    assert reachable(state, views) == list(state)  # cut to what the page shows
    assert "The whole hand, step by step" in found.group(1)  # the stepper's story is there
    assert "beforeprint" in page and "details.palace-whole-hand" in page
    assert "from palace.widgets import" not in page  # no code


def test_a_renderer_other_than_the_pinned_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "embed.js").write_text("/* some other build */")
    monkeypatch.setenv("PALACE_WIDGET_MANAGER", str(tmp_path))
    assert widget_manager(tmp_path / "cache") is None
    assert "is not html-manager" in capsys.readouterr().out
