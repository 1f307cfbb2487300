"""Take the documentation's screenshots from a running Palace server (`make app`).

Usage: ``python docs/images/screenshots.py [BASE_URL]`` (default http://127.0.0.1:8866/)
with the server started by ``make app``; writes ``docs/images/app-play.png`` and
``docs/images/lesson-exclusion.png``. Chromium is the system one (/usr/bin/chromium).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
LOAD_MS = 300_000  # a page's kernel on a busy two-core machine
WIDGETS_DRAWN = """() => document.querySelector('.jp-OutputArea-output .jupyter-widgets')
    && !document.querySelector('.widget-loading, .jupyter-widgets-loading')"""


def _open(page: Page, url: str) -> None:
    page.goto(url, timeout=LOAD_MS, wait_until="load")
    page.wait_for_function(WIDGETS_DRAWN, timeout=LOAD_MS)


def app_play(page: Page, base: str) -> None:
    """The app's Play tab on a four-player deal, the first seat's view, bots at the others."""
    page.set_viewport_size({"width": 1280, "height": 2400})  # the whole tab, then a clip
    _open(page, f"{base}voila/render/app.ipynb?seed=12&players=4")
    page.wait_for_selector(".palace-app .palace-app-play .palace-table", timeout=LOAD_MS)
    page.wait_for_timeout(3_000)  # the bots play their first moves, narrated
    table = page.locator(".palace-app .palace-app-play .palace-table").first
    box = table.bounding_box()
    assert box is not None, "the Play table is not drawn"
    top = max(0.0, box["y"] - 220)  # the narration above the table, then the table
    page.screenshot(
        path=str(HERE / "app-play.png"),
        clip={"x": 0, "y": top, "width": 1280, "height": 760},
    )
    page.set_viewport_size({"width": 1280, "height": 800})


def lesson(page: Page, base: str) -> None:
    """Lesson 5's explorer: the same battle with and without banner-suit exclusion."""
    _open(page, f"{base}voila/render/05_banner_suit_exclusion.ipynb")
    page.wait_for_timeout(2_000)
    page.screenshot(path=str(HERE / "lesson-exclusion.png"), full_page=False)


def main(argv: list[str]) -> int:
    base = argv[1] if len(argv) > 1 else "http://127.0.0.1:8866/"
    base = base if base.endswith("/") else base + "/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        app_play(page, base)
        lesson(page, base)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
