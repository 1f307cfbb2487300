"""Serving a class (issue #11 items 1, 3, 4, 7): the line, the ceiling, culling, lost connections.

Each test starts `make app`'s server (``python -m palace.app.server notebooks/``) with a
setting made small enough to see in seconds: one page starting at a time, a ceiling of one
page, culling after a few seconds of idleness. Screenshots go to build/screenshots/server/.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest
from pagekit import (
    APP,
    LOAD_TIMEOUT,
    LOST,
    TABLE,
    WAIT,
    button,
    kernel_id,
    kernel_process,
    new_page,
    open_app,
    until,
    watching,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots" / "server"
NO_POOL = "--pool_size=0"
CONFIG = r'<script id="jupyter-config-data" type="application/json">(.*?)</script>'


def shot(page: object, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    print(f"screenshot: {SHOTS / name}.png")


def alive(server, kernel: str) -> bool:
    return server.get(f"api/kernels/{kernel}")[0] == 200


# ---------------------------------------------------------------------- the line
def test_waiting_pages_say_how_many_are_ahead(palace_server, browser) -> None:
    server = palace_server(NO_POOL, "--start_slots=1")
    pages = [new_page(browser) for _ in range(4)]
    try:
        for page in pages:
            page.evaluate(f"() => {{ window.location.href = '{server.base}{APP}'; }}")
        # the browser sends the four requests in an order of its own: find the page that is
        # furthest back in the line (the server starts one page at a time here)
        line = re.compile(r"Starting your page: (you are next|[123] pages? ahead of you)\.")

        read = "() => document.getElementById('palace-wait-line')?.innerText ?? ''"

        found: list[tuple[object, str]] = []

        def behind() -> bool:
            """a page says how many pages are ahead of it"""
            for page in pages:
                try:
                    text = page.evaluate(read)
                except Exception:  # noqa: BLE001 - the page is between two documents
                    continue
                if "ahead of you" in text:
                    found.append((page, text))
                    return True
            return False

        until(behind, timeout=WAIT / 1000, every=0.1)
        last, text = found[-1]
        assert line.fullmatch(text), text
        assert last.locator("#palace-wait[role=status]").count() == 1
        shot(last, "waiting-in-line")
        for page in pages:
            page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
            assert page.locator("#palace-wait").count() == 0
        assert last.title() == "Palace Poker"  # the waiting page's title went with its note
        assert server.status()["pages"] == 4
    finally:
        for page in pages:
            page.context.close()


# ---------------------------------------------------------------------- the ceiling
def test_past_the_ceiling_the_class_is_full(palace_server, browser) -> None:
    server = palace_server(
        NO_POOL,
        "--max_kernels=1",
        "--MappingKernelManager.cull_idle_timeout=4",
        "--MappingKernelManager.cull_interval=1",
    )
    first = open_app(browser, server.base)
    kernels = server.status()["kernels"]
    code, headers, body = server.get(APP)
    assert code == 503 and headers.get("Retry-After") == "60"
    assert "The class is full" in body and "Try again in a minute" in body
    assert "Traceback" not in body and "Error" not in body
    code, _, body = server.get("voila/render/01_cards_and_hands.ipynb")
    assert code == 503 and "The class is full" in body  # lessons count too
    assert server.status()["kernels"] == kernels, "a refused page must not start a kernel"
    second = new_page(browser)
    try:
        response = second.goto(server.base + APP, timeout=LOAD_TIMEOUT)
        assert response is not None and response.status == 503
        full = second.locator(".palace-full[role=alert]")
        assert full.locator("h1").inner_text() == "The class is full"
        assert "as many as this server allows (1)" in full.inner_text()
        shot(second, "class-is-full")
        # the first page's tab closes: its place frees once its kernel is culled
        first.context.close()
        until(lambda: server.status()["pages"] == 0, timeout=120)
        button(second, "Try again").click()
        second.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
    finally:
        second.context.close()
    assert "the class is full" in server.log_text()


# ---------------------------------------------------------------------- culling
def test_a_closed_page_is_culled_and_an_open_one_kept(palace_server, browser) -> None:
    idle, every = 5, 1
    server = palace_server(
        NO_POOL,
        f"--MappingKernelManager.cull_idle_timeout={idle}",
        f"--MappingKernelManager.cull_interval={every}",
    )
    kept = open_app(browser, server.base)
    closed = open_app(browser, server.base)
    try:
        kept_id, closed_id = kernel_id(kept), kernel_id(closed)
        assert alive(server, kept_id) and alive(server, closed_id)
        closed.context.close()
        started = time.monotonic()
        seconds = until(lambda: not alive(server, closed_id), timeout=120)
        print(f"the closed page's kernel was culled {seconds:.1f} s after its tab closed")
        # the open page has been idle longer than the timeout too: it is kept
        time.sleep(max(0.0, 3 * (idle + every) - (time.monotonic() - started)))
        assert alive(server, kept_id)
        log = server.log_text()
        assert closed_id in log.split("Culling", 1)[-1] and f"({kept_id})" not in log
        play = kept.locator(".palace-app-play")
        button(play, "Next seed").click()
        play.locator(".palace-okay", has_text="Dealt seed 8").wait_for(timeout=WAIT)
        assert server.status()["pages"] == 1
    finally:
        kept.context.close()


def test_a_page_still_loading_is_not_culled(palace_server) -> None:
    """A kernel waits for its page's first connection (a crowded machine can take minutes
    to load the page), up to a grace period; then a page that never came is culled."""
    idle, grace = 2, 12
    server = palace_server(
        NO_POOL,
        f"--MappingKernelManager.cull_idle_timeout={idle}",
        "--MappingKernelManager.cull_interval=1",
        f"--PalaceKernelManager.first_connection_grace={grace}",
    )
    requested = time.monotonic()
    code, _, body = server.get(APP, timeout=LOAD_TIMEOUT / 1000)  # no browser ever connects
    assert code == 200
    kernel = json.loads(re.search(CONFIG, body, re.S).group(1))["kernelId"]
    time.sleep(3 * idle + 1)
    assert alive(server, kernel), "culled before its page could connect"
    until(lambda: not alive(server, kernel), timeout=grace + 60)
    assert time.monotonic() - requested >= grace  # the grace ran out first


# ---------------------------------------------------------------------- lost connections
def test_a_killed_kernel_says_the_connection_was_lost(palace_server, browser) -> None:
    server = palace_server(NO_POOL)
    page = open_app(browser, server.base)
    try:
        watching(page)
        old = kernel_id(page)
        assert page.locator("#palace-lost").count() == 0
        kernel_process(server.process.pid, old).kill()
        banner = page.locator("#palace-lost[role=alert]")
        banner.wait_for(timeout=60_000)
        assert banner.locator(".palace-lost-text").inner_text() == LOST
        shot(page, "connection-lost")
        button(banner, "Reload").click()
        page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
        assert kernel_id(page) != old and page.locator("#palace-lost").count() == 0
    finally:
        page.context.close()


def test_a_dropped_connection_says_so(palace_server, browser) -> None:
    server = palace_server(NO_POOL)
    page = open_app(browser, server.base)
    try:
        watching(page)
        os.killpg(server.process.pid, signal.SIGKILL)  # the server and its kernels are gone
        banner = page.locator("#palace-lost[role=alert]")
        banner.wait_for(timeout=60_000)
        assert banner.locator(".palace-lost-text").inner_text() == LOST
        assert button(banner, "Reload").count() == 1
    finally:
        page.context.close()


# ---------------------------------------------------------------------- a kernel that dies
FLAKY_KERNEL = Path(__file__).resolve().parent / "fixtures" / "flaky_kernel.py"


def flaky_kernels(folder: Path) -> dict[str, str]:
    """The environment for a server whose first kernel dies as it starts (a taken port, an
    out-of-memory kill): a `python3` kernelspec first on the Jupyter path."""
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True)
    command = [sys.executable, str(FLAKY_KERNEL), "-f", "{connection_file}"]
    kernel = {"argv": command, "display_name": "Python 3 (dies once)", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))
    return {"JUPYTER_PATH": str(folder), "FLAKY_KERNEL_MARKER": str(folder / "died")}


def test_a_page_whose_kernel_dies_while_starting_says_so_and_tries_again(
    palace_server, browser, tmp_path
) -> None:
    """Voilà alone would keep such a page blank for ever and its start slot taken."""
    env = flaky_kernels(tmp_path)
    server = palace_server(NO_POOL, "--start_slots=1", env=env)
    page = new_page(browser)
    try:
        page.goto(server.base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
        # read in the page the moment it shows (visible): it reloads itself 3 s later
        shown = page.wait_for_function(
            """() => { const box = document.querySelector('#palace-failed [role=alert]');
                       return box && box.checkVisibility() ? box.innerText : null; }""",
            timeout=120_000,
        ).json_value()
        assert shown.splitlines()[0] == "This page did not start", shown
        assert "Palace could not start this page: its kernel stopped while starting." in shown
        assert "Trying again in a few seconds" in shown and "Try again now" in shown
        assert Path(env["FLAKY_KERNEL_MARKER"]).exists()
        page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)  # it reloaded itself
        assert page.locator("#palace-failed").count() == 0
        log = server.log_text()
        assert "stopped while its page was starting (it died and was restarted)" in log
        # the dead page's place and start slot are free; its restarted kernel is shut down
        until(lambda: server.status()["kernels"] == 1, timeout=90)
        assert server.status()["pages"] == 1 and server.status()["starting"] == 0
    finally:
        page.context.close()
