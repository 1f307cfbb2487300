"""A light app page (issue 26): what the first page builds, and what it builds later."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ipywidgets import Widget
from ipywidgets.widgets.widget import _instances

from palace.app.palace_app import PalaceApp
from palace.widgets.theme import shared_layout

ROOT = Path(__file__).resolve().parents[1]
APP_NOTEBOOK = ROOT / "notebooks" / "app.ipynb"
MAX_FIRST_PAGE = 150  # issue 26: at most 150 widget models when the page is first drawn
TOKEN = "a-teachers-token-long-enough-0123456789"

COUNT = """
import json, sys
from ipywidgets.widgets.widget import _instances
cells = json.load(open(sys.argv[1]))["cells"]
for cell in cells:
    if cell["cell_type"] == "code":
        exec("".join(cell["source"]), globals())
print(json.dumps({"models": len(_instances), "built": app.built_tabs(), "teacher": app.teacher}))
"""


def models() -> dict:
    """The kernel's widget registry: every model the page is sent."""
    return _instances


def first_page(query: str = "") -> dict:
    """Run app.ipynb's cells in a fresh Python, as a served kernel does, and count the
    widget models in the kernel's registry (each one is a message to the page and a model
    in the browser)."""
    env = dict(os.environ, PALACE_INSTRUCTOR_TOKEN=TOKEN, QUERY_STRING=query)
    env["PYTHONWARNINGS"] = "ignore"
    out = subprocess.run(
        [sys.executable, "-c", COUNT, str(APP_NOTEBOOK)],
        cwd=APP_NOTEBOOK.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_students_first_page_builds_only_what_is_shown() -> None:
    page = first_page()
    assert not page["teacher"]
    assert page["built"] == ["Play"]  # the other four tabs wait until they are opened
    assert page["models"] <= MAX_FIRST_PAGE, page


def test_the_teachers_page_is_light_too() -> None:
    page = first_page(f"instructor={TOKEN}")
    assert page["teacher"]
    assert page["built"] == ["Play"]
    assert page["models"] <= MAX_FIRST_PAGE + 20, page  # plus the teacher's tools


def test_a_tab_is_built_the_first_time_it_is_opened() -> None:
    app = PalaceApp(advisor=None)
    assert app.built_tabs() == ["Play"]
    app.select("Battle lab")
    assert app.built_tabs() == ["Play", "Battle lab"]
    assert "Battle lab" in app.text()
    app.select("Explore")
    app.select("Lessons")
    assert app.built_tabs() == ["Play", "Battle lab", "Explore", "Lessons"]
    assert app.replay.game is not None  # used from code: built then
    assert app.built_tabs() == list(app.tabs.titles)


def test_a_tab_built_late_follows_the_header_switches() -> None:
    app = PalaceApp(advisor=None)
    app.set_four_color(True)
    app.set_view("all")
    app.select("Replay")
    assert app.replay.four_color
    assert app.replay.stepper is not None and app.replay.stepper.reveal_all
    app.select("Battle lab")
    assert app.battle_lab.explorer.four_color


def test_a_new_hand_reuses_the_action_buttons() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    picker = play.picker
    assert picker is not None
    play.deal(8)
    before = len(models())
    for seed in (9, 10, 11):
        play.deal(seed)
        assert play.picker is picker  # the same buttons, showing the new hand
        assert play.game.seed == seed and picker.game is play.game
    assert len(models()) <= before + 3  # at most a new cover or note, never a panel


def test_the_action_buttons_follow_a_new_seat_and_table_size() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.players.value = 6
    play.bots[0].value = True
    play.bots[2].value = False  # Cat plays
    assert play.deal(3)
    picker = play.picker
    assert picker is not None and picker.seat == 2
    attacks = re.findall(r"\] (Attack \w+)", picker.text())
    assert attacks == [f"Attack {n}" for n in ("Ann", "Bob", "Dan", "Eve", "Fay")]
    assert play.deal(4)  # a new hand, the same seat: the same five buttons
    assert play.picker is picker
    assert re.findall(r"\] (Attack \w+)", picker.text()) == attacks


def test_stakes_and_bots_are_built_when_opened() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    assert play.more_button.value is False
    assert "Small bet" not in json.dumps([c.description for c in _controls(play)])
    play.more_button.value = True
    assert "Small bet s" in [c.description for c in _controls(play)]
    play.small_bet.value = 3
    play.big_bet.value = 6
    assert play.deal(4)
    assert (play.game.rules.small_bet, play.game.rules.big_bet) == (3, 6)


def _controls(widget: Widget) -> list[Widget]:
    found, stack = [], [widget]
    while stack:
        w = stack.pop()
        if getattr(w, "description", None):
            found.append(w)
        stack.extend(getattr(w, "children", ()) or ())
    return found


def test_a_shared_layout_cannot_be_changed() -> None:
    layout = shared_layout(width="123px")
    assert shared_layout(width="123px") is layout
    with pytest.raises(AttributeError, match="shared by several widgets"):
        layout.display = "none"
    assert layout.display is None
