"""The page's own guards (issue #11 items 6 and 8), in Chromium against `make app`'s server.

* An upload over 1 MB is refused in the browser before it is sent, with the sentence the
  kernel uses for a big file (so both sides say the same thing), and the upload button
  keeps working: a good file loads afterwards.
* Play's number boxes send what was typed: "1e9" and "3.7" reach the kernel as typed and
  are refused by name, instead of the browser turning them into 19 and 37.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pagekit import APP, LOAD_TIMEOUT, TABLE, WAIT, button, field, new_page, open_app, tab

from palace.app.files import LoadError, load_hand_or_scenario
from palace.scenarios import MAX_BYTES, SCENARIO_DIR, load_scenario

pytestmark = pytest.mark.browser

UPLOAD = ".palace-app-replay button.widget-upload"


def kernel_says(name: str, size: int) -> str:
    """What the kernel answers for a file of `size` bytes (the Replay tab's wording)."""
    try:
        load_hand_or_scenario(b" " * size, source=name)
    except LoadError as exc:
        return f"Not loaded: {exc}."
    raise AssertionError("the kernel accepted a file over the limit")


def choose(page: object, name: str, data: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        page.locator(UPLOAD).click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])


def test_a_big_upload_is_refused_before_it_is_sent(browser, palace_server) -> None:
    server = palace_server("--pool_size=0")
    page = new_page(browser)
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(len(data))))
    try:
        page.goto(server.base + APP, wait_until="commit")
        page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
        tab(page, "Replay")
        rep = page.locator(".palace-app-replay")
        assert page.locator(UPLOAD).inner_text().strip() == "Upload .json (0)"
        for size in (MAX_BYTES + 1, 2_000_000, 11 * 2**20):
            name = f"big-{size}.json"
            before = len(sent)
            choose(page, name, b" " * size)
            notice = rep.locator(".palace-upload-refused .palace-alert[role=alert]")
            notice.wait_for(timeout=WAIT)
            said = notice.inner_text().strip()
            assert said == f"✗ {kernel_says(name, size)[:-1]}. The file was not sent.", said
            page.wait_for_timeout(500)
            assert max(sent[before:], default=0) < 64 * 1024, "the file went over the websocket"
            assert page.locator(UPLOAD).inner_text().strip() == "Upload .json (0)"
        page.screenshot(path=str(shots() / "upload-refused.png"))
        # the button still works: a good file loads, and the notice goes
        good = sorted(SCENARIO_DIR.glob("*.json"))[2]
        choose(page, good.name, good.read_bytes())
        rep.locator(".palace-okay", has_text=f"Loaded {good.name}").wait_for(timeout=WAIT)
        rep.locator(".palace-box-title", has_text=load_scenario(good).title).wait_for(timeout=WAIT)
        assert rep.locator(".palace-upload-refused").count() == 0
        assert max(sent) >= len(good.read_bytes()) // 2, "the good file was sent"
        # exactly the limit is still sent to the kernel (which decides)
        at_limit = json.dumps({"x": " " * (MAX_BYTES - 20)}).encode()[:MAX_BYTES]
        choose(page, "at-limit.json", at_limit)
        rep.locator(".palace-alert", has_text="at-limit.json").wait_for(timeout=WAIT)
        assert rep.locator(".palace-upload-refused").count() == 0
    finally:
        page.context.close()


def test_play_boxes_send_what_was_typed(browser, palace_server) -> None:
    server = palace_server("--pool_size=0")
    page = open_app(browser, server.base)
    try:
        play = page.locator(".palace-app-play")
        for label, typed, said in (
            ("Players", "1e9", "Players must be a whole number from 2 to 10 (R1.1); got “1e9”."),
            ("Players", "0", "Players must be a whole number from 2 to 10 (R1.1); got “0”."),
        ):
            box = field(play, label)
            box.fill(typed)
            box.press("Enter")
            button(play, "Deal").click()
            play.locator(".palace-alert", has_text=said).wait_for(timeout=WAIT)
            assert box.input_value() == typed
        field(play, "Players").fill("3")
        field(play, "Players").press("Enter")
        seed = field(play, "Seed")
        seed.fill("3.7")
        seed.press("Enter")
        button(play, "Deal").click()
        play.locator(".palace-alert", has_text="got “3.7”").wait_for(timeout=WAIT)
        seed.fill("9007199254740993")  # 2**53 + 1: a browser number would round it
        seed.press("Enter")
        button(play, "Deal").click()
        play.locator(".palace-okay", has_text="Dealt seed 9007199254740993: 3 players").wait_for(
            timeout=WAIT
        )
    finally:
        page.context.close()


def shots() -> Path:
    path = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "server"
    path.mkdir(parents=True, exist_ok=True)
    return path
