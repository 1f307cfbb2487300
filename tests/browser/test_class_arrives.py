"""A class arriving at once (issue #11 item 1): six app pages requested in the same instant.

The server is `make app`'s (``python -m palace.app.server notebooks/`` with the repository's
voila.json and the default pool), started just before the class arrives, the hardest case:
the pre-heated kernels may still be warming up. Every page must draw the app; a page left
blank (no widget: the notebook runner gave up waiting for output) never shows the Play
table and fails the test. The same measurement with 30 pages is `bench/load_app.py`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagekit import (
    APP,
    IOPUB_TIMEOUT,
    LOAD_TIMEOUT,
    TABLE,
    kernel_id,
    kernel_process,
    new_page,
    tab,
    until,
)

pytestmark = pytest.mark.browser

PAGES = 6
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


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


def test_a_class_as_large_as_the_pool_does_not_wait_in_line(palace_server) -> None:
    """Four pages at once from a pool of four ready kernels, one start slot: every page
    takes a pre-heated kernel at once; none is told to wait. (How the door counts a pool
    that pages are taking kernels from meanwhile: tests/test_server.py.)"""
    server = palace_server("--pool_size=4", "--start_slots=1")
    until(lambda: server.status()["pool_ready"] == 4, timeout=240)
    gate = threading.Barrier(4)
    bodies: list[str] = []

    def get() -> None:
        gate.wait()
        code, _, body = server.get(APP, timeout=240)
        assert code == 200
        bodies.append(body)

    threads = [threading.Thread(target=get) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(bodies) == 4
    assert all(WIDGET_VIEW in body for body in bodies), "every page holds the app"
    assert not any("palace-wait" in body for body in bodies), "a page waited in line"


def _opened(server, browser) -> tuple[object, list[object]]:
    """The app page drawn in a fresh context, and every response it took to draw it."""
    page = new_page(browser)
    responses: list[object] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(server.base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
    page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
    return page, responses


def _works_from_a_forked_kernel(server, page) -> None:
    """The page's kernel is a fork of the zygote, and a tab built when first opened draws."""
    kernel = kernel_process(server.process.pid, kernel_id(page))
    assert "palace.app.server.zygote" in " ".join(kernel.parent().cmdline())
    tab(page, "Replay")
    page.locator(".palace-app-replay .palace-stepper").wait_for(timeout=60_000)


def test_the_page_is_drawn_by_palaces_front_end_from_a_forked_kernel(
    palace_server, browser
) -> None:
    """What makes a class's pages light (palace/app/server/front_end.py, zygote.py): the page
    is drawn by Palace's own front end, one gzipped script and one style sheet, with none of
    Voilà's JupyterLab application (no voila.js, no chunk), and the page's kernel is a fork
    of the zygote, which had imported the kernel and the app. The page works as before."""
    server = palace_server("--pool_size=1")
    page, responses = _opened(server, browser)
    try:
        urls = [r.url.split("?")[0] for r in responses]  # type: ignore[attr-defined]
        voila = [
            u for u in urls if re.search(r"/voila/(static/(\d+\.)?voila\.js|palace/bundle\.js)$", u)
        ]
        assert voila == [], f"Voilà's front end loaded: {voila}"
        ours = [r for r in responses if "/voila/palace/page/palace-page." in r.url]  # type: ignore[attr-defined]
        assert sorted(r.url.split("?")[0].rsplit(".", 1)[1] for r in ours) == ["css", "js"]  # type: ignore[attr-defined]
        for response in ours:
            assert response.status == 200  # type: ignore[attr-defined]
            assert response.headers.get("content-encoding") == "gzip"  # type: ignore[attr-defined]
        assert page.evaluate("document.documentElement.dataset.palacePage") == "drawn"
        _works_from_a_forked_kernel(server, page)
    finally:
        page.context.close()  # type: ignore[attr-defined]


def test_without_palaces_front_end_voilas_scripts_come_in_one_response(
    palace_server, browser
) -> None:
    """Where Palace's front end is not built or is turned off, the page is Voilà's own
    (palace/app/server/bundle.py): its script chunks come in one gzipped response (none is
    fetched on its own), from a forked kernel, and the page works as before."""
    server = palace_server("--pool_size=1", "--PalaceVoila.light_page=False")
    page, responses = _opened(server, browser)
    try:
        urls = [r.url.split("?")[0] for r in responses]  # type: ignore[attr-defined]
        chunks = [u for u in urls if re.search(r"/voila/static/\d+\.voila\.js$", u)]
        assert chunks == [], f"fetched one by one: {chunks}"
        bundles = [r for r in responses if "/voila/palace/bundle.js" in r.url]  # type: ignore[attr-defined]
        assert len(bundles) == 1 and bundles[0].status == 200  # type: ignore[attr-defined]
        assert bundles[0].headers.get("content-encoding") == "gzip"  # type: ignore[attr-defined]
        assert page.evaluate("document.documentElement.dataset.palacePage") is None  # type: ignore[attr-defined]
        _works_from_a_forked_kernel(server, page)
    finally:
        page.context.close()  # type: ignore[attr-defined]
