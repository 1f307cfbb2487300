"""A class arriving at once (issue #11 item 1): six app pages requested in the same instant.

The server is `make app`'s (``python -m palace.app.server notebooks/`` with the repository's
voila.json and the default pool), started just before the class arrives, the hardest case:
the pre-heated kernels may still be warming up. Every page must draw the app; a page left
blank (no widget: the notebook runner gave up waiting for output) never shows the Play
table and fails the test. The same measurement with 30 pages is `bench/load_app.py`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagekit import APP, IOPUB_TIMEOUT, LOAD_TIMEOUT, TABLE, kernel_id, new_page

pytestmark = pytest.mark.browser

PAGES = 6


@pytest.fixture
def class_browser(browser, tmp_path: Path, chromium_path: str) -> Iterator[object]:
    """A Chromium at a lower priority than the server and its kernels: in a class the
    browsers run on the students' computers, not on the server's cores."""
    wrapper = tmp_path / "chromium.sh"
    wrapper.write_text(f'#!/bin/sh\nexec nice -n 10 {chromium_path} "$@"\n')
    wrapper.chmod(0o755)
    niced = browser.browser_type.launch(
        executable_path=str(wrapper), headless=True, args=["--no-sandbox", "--disable-gpu"]
    )
    try:
        yield niced
    finally:
        niced.close()


def test_six_pages_at_once_all_draw_the_app(palace_server, class_browser) -> None:
    server = palace_server()
    pages = [new_page(class_browser) for _ in range(PAGES)]
    try:
        url = json.dumps(server.base + APP)
        started = time.monotonic()
        for page in pages:  # start every navigation before waiting for any
            page.evaluate(f"() => {{ window.location.href = {url}; }}")
        seconds = []
        for page in pages:
            page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
            seconds.append(time.monotonic() - started)
        print(
            f"{PAGES} pages at once: first widget after "
            + ", ".join(f"{s:.1f}" for s in sorted(seconds))
            + " s"
        )
        log = server.log_text()
        assert log.count(IOPUB_TIMEOUT) == 0, "a page ran out of time waiting for its output"
        assert len({kernel_id(p) for p in pages}) == PAGES, "every page has its own kernel"
        for page in pages:
            assert page.locator("#palace-wait").count() == 0  # the waiting note is gone
            assert page.title() == "Palace Poker"
        assert server.status()["pages"] == PAGES
    finally:
        for page in pages:
            page.context.close()
