"""Page helpers shared by the serving tests: open the app, find a page's kernel and process.

Imported by tests in this folder (pytest puts the folder on sys.path); fixtures live in
conftest.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import psutil

APP = "voila/render/app.ipynb"
TABLE = ".palace-app .palace-app-play .palace-table"
IOPUB_TIMEOUT = "Timeout waiting for IOPub output"
LOAD_TIMEOUT = 300_000  # ms: a page on a busy two-core machine shared with other work
WAIT = 30_000  # ms: one round trip to the kernel
SERIOUS = ("serious", "critical")  # the axe-core impacts a page must not have
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
VOILA_ERRORS = ("There was an error when executing cell", "Traceback", "Execution error")
WIDGETS_DRAWN = """() => !document.querySelector('.jp-OutputArea-output .widget-loading, '
     + '.jp-OutputArea-output .jupyter-widgets-loading')"""
LOST = (
    "The connection to Palace was lost. Reload the page; a hand saved with Save hand can be "
    "loaded again in Replay."
)


class PageNotes:
    """What happened to one page (see `watch`): events with their times, the requests still
    unanswered and the websocket frames each way, for the report of a test that fails."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.pending: dict[object, str] = {}
        self.frames = {"received": 0, "sent": 0}

    def count(self, way: str) -> None:
        self.frames[way] += 1

    def lines(self, last: int = 25) -> list[str]:
        lines = self.seen[-last:] or ["(nothing noted)"]
        if self.frames["received"] or self.frames["sent"]:
            lines.append(
                f"websocket frames: {self.frames['received']} received, {self.frames['sent']} sent"
            )
        lines.extend(f"still waiting for: {url}" for url in list(self.pending.values())[:8])
        return lines


PAGES_OPENED: list[PageNotes] = []
"""What happened to each page opened by a test (see `watch`), attached by conftest.py to the
report of a browser test that fails."""


def watch(page: object) -> None:
    """Note what a page went through, for the report of a test that fails: its document's
    response and whether the streamed page finished, loads, console and page errors, failed
    requests, requests still unanswered, websockets opened and closed and their frames."""
    start = time.monotonic()
    notes = PageNotes()
    PAGES_OPENED.append(notes)
    seen = notes.seen

    def note(text: str) -> None:
        if "ERR_BLOCKED_BY_CLIENT" in text:
            return  # the loopback guard's own work: a CDN request aborted
        seen.append(f"{time.monotonic() - start:7.1f} s  {text}")

    def document(request: object) -> bool:
        return request.resource_type == "document"  # type: ignore[attr-defined]

    def sent(request: object) -> None:
        notes.pending[request] = request.url.split("?")[0]  # type: ignore[attr-defined]

    def answered(request: object) -> None:
        notes.pending.pop(request, None)

    on = page.on  # type: ignore[attr-defined]
    on("console", lambda m: m.type == "error" and note(f"console error: {m.text}"))
    on("pageerror", lambda e: note(f"page error: {e}"))
    on("request", sent)
    on("requestfailed", answered)
    on("requestfinished", answered)
    on("requestfailed", lambda r: note(f"request failed: {r.url} ({r.failure})"))
    on("response", lambda r: document(r.request) and note(f"document {r.status}: {r.url}"))
    on("requestfinished", lambda r: document(r) and note(f"document streamed whole: {r.url}"))
    on("domcontentloaded", lambda _p: note("DOM content loaded"))
    on("load", lambda _p: note("page loaded"))

    def socket(ws: object) -> None:
        url = ws.url.split("?")[0]  # type: ignore[attr-defined]
        note(f"websocket opened: {url}")
        ws.on("close", lambda _ws: note(f"websocket closed: {url}"))  # type: ignore[attr-defined]
        ws.on("framereceived", lambda _f: notes.count("received"))  # type: ignore[attr-defined]
        ws.on("framesent", lambda _f: notes.count("sent"))  # type: ignore[attr-defined]

    on("websocket", socket)


def new_page(browser: object, **options: object) -> object:
    """A page in a fresh context (its own kernel) that may reach only this machine."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)  # type: ignore[attr-defined]

    def guard(route) -> None:
        url = route.request.url
        local = url.startswith(("http://127.0.0.1", "https://127.0.0.1", "data:", "blob:"))
        route.continue_() if local else route.abort("blockedbyclient")

    context.route("**/*", guard)
    page = context.new_page()
    watch(page)
    return page


def open_app(browser: object, base: str, **options: object) -> object:
    page = new_page(browser, **options)
    page.goto(base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
    page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
    return page


def kernel_id(page: object) -> str:
    """The kernel a Voilà page talks to (its page config)."""
    return page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )


def kernel_process(server_pid: int, kernel: str) -> psutil.Process:
    """The kernel's process: a child of the server whose connection file names the kernel."""
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            if any(f"kernel-{kernel}" in part for part in child.cmdline()):
                return child
        except psutil.Error:
            continue
    raise LookupError(f"no process for kernel {kernel}")


def watching(page: object) -> None:
    """Wait until the page's connection guard watches the kernel (palace-page.js)."""
    page.wait_for_function(
        "() => document.documentElement.getAttribute('data-palace-watch') === 'on'",
        timeout=WAIT,
    )


def until(check: Callable[[], bool], timeout: float, every: float = 0.5) -> float:
    """Seconds until `check()` is true; AssertionError after `timeout` seconds."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"not true after {timeout:.0f} s: {check.__doc__ or check}")
        time.sleep(every)
    return time.monotonic() - started


def tab(page: object, title: str) -> None:
    page.locator(".palace-app").get_by_role("tab", name=title, exact=True).click()
    page.locator(".palace-app .lm-TabBar-tab.lm-mod-current").get_by_text(
        title, exact=True
    ).wait_for()


def button(scope: object, label: str) -> object:
    return scope.locator("button", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


def field(scope: object, label: str) -> object:
    box = scope.locator(
        ".widget-inline-hbox",
        has=scope.page.locator("label.widget-label", has_text=re.compile(f"^{re.escape(label)}$")),
    )
    return box.locator("input, select").first


def axe_problems(page: object) -> list[str]:
    """Serious and critical axe-core violations on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']} — "
        + "; ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in found
        if v["impact"] in SERIOUS
    ]


def check_lesson(page: object, name: str) -> None:
    """A rendered lesson shows no error, no traceback and no widget that failed to draw, and
    axe-core finds no serious or critical problem on it (issue 12)."""
    assert page.locator(STDERR).count() == 0, page.locator(STDERR).all_inner_texts()
    outputs = " ".join(page.locator(".jp-OutputArea").all_inner_texts())
    assert "Error displaying widget" not in outputs, f"{name}: {outputs[:300]}"
    assert "model not found" not in outputs
    for bad in VOILA_ERRORS:
        assert bad not in outputs, f"{name}: {bad!r} in the outputs"
    error = re.search(r".{0,80}\b\w*Error\b.{0,80}", outputs)
    assert error is None, f"{name}: an error in the outputs: {error.group(0)!r}"
    problems = axe_problems(page)
    assert not problems, f"{name}: {problems}"
