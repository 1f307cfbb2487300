"""End to end: a saved hand naming a player "\\ud800" is refused, and the page keeps working.

Issue #11: such a file used to be accepted; the Replay list then could not send its
options, and every later upload and Play's Save hand said "Something went wrong
(UnicodeEncodeError ...)" until the page was reloaded. Here Chromium uploads it through
the real widget, then a good file, then saves a hand in Play, on one page, no reload.
Screenshots go to build/screenshots/hostile-upload-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pagekit import button, tab

from palace import Game, Stay

pytestmark = pytest.mark.browser

APP = "voila/render/app.ipynb"
LOAD_TIMEOUT = 120_000  # ms: a kernel start on a busy two-core machine
WAIT = 30_000  # ms: one round trip to the kernel


def hand_bytes(first_name: str) -> bytes:
    """A saved hand (three players, one action) whose first player is `first_name`."""
    g = Game.new(players=["Ann", "Bob", "Cat"], seed=3)
    g.apply(Stay())
    text = json.dumps(g.to_dict())  # ASCII JSON: a lone surrogate travels as \\ud800
    return text.replace('"Ann"', json.dumps(first_name)).encode("ascii")


def upload(page: object, name: str, data: bytes) -> None:
    button = page.locator(".palace-app-replay button.widget-upload")
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])


def test_surrogate_name_is_refused_and_the_page_still_works(
    voila_server: Callable[..., str], page: object, screenshot: Callable[[str], Path]
) -> None:
    base = voila_server("notebooks/")
    page.goto(base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
    page.locator(".palace-app .palace-app-play .palace-table").wait_for(timeout=LOAD_TIMEOUT)
    tab(page, "Replay")
    rep = page.locator(".palace-app-replay")
    title = rep.locator(".palace-box-title").nth(1).inner_text()

    upload(page, "evil.json", hand_bytes("\ud800"))
    alert = rep.locator(".palace-alert", has_text="evil.json")
    alert.wait_for(timeout=WAIT)
    text = alert.inner_text()
    assert "players[0] holds the character U+D800" in text and "stays loaded" in text, text
    assert rep.locator(".palace-box-title").nth(1).inner_text() == title
    screenshot("hostile-upload-1-refused")

    upload(page, "good.json", hand_bytes("Zoë"))
    rep.locator(".palace-okay", has_text="Loaded good.json").wait_for(timeout=WAIT)
    rep.locator(".palace-box-title", has_text="Zoë, Bob, Cat").wait_for(timeout=WAIT)
    screenshot("hostile-upload-2-good-file")

    tab(page, "Play")
    play = page.locator(".palace-app-play")
    button(play, "Save hand").click()
    play.locator(".palace-okay", has_text="Saved: download").wait_for(timeout=WAIT)
    play.locator("a.palace-download").wait_for(timeout=WAIT)
    tab(page, "Replay")
    options = rep.locator("select").first.locator("option")
    labels = [options.nth(i).inner_text().replace("\xa0", " ") for i in range(options.count())]
    assert any(label.startswith("Saved · seed") for label in labels), labels
    assert any("good.json" in label for label in labels), labels
    body = page.locator("body").inner_text()
    assert "Something went wrong" not in body and "UnicodeEncodeError" not in body
    screenshot("hostile-upload-3-after-save")
