"""Fixtures for end-to-end tests: a local Voila server driven by a real Chromium.

* ``chromium_path``  -- Debian's /usr/bin/chromium, or skip (fail when
  ``PALACE_REQUIRE_BROWSER=1``, as in CI).
* ``browser``        -- one headless Chromium for the session (Python Playwright,
  using the system Chromium, so no browser download is needed).
* ``page``           -- a fresh page whose context aborts every request that is not
  to 127.0.0.1 / localhost, so tests never touch the network.
* ``voila_server``   -- factory: ``voila_server(notebook)`` starts Voila on a free
  loopback port with the repo's voila.json and returns the base URL.
* ``screenshot_dir`` -- build/screenshots/ (git-ignored); printed at the end of the run.
* ``palace_server``  -- factory: ``palace_server(*options)`` starts the Palace server on
  notebooks/ exactly as ``make app`` does (``python -m palace.app.server``) plus the given
  options, on a free loopback port; returns a `PalaceServer` (URL, log, status, pid).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pagekit import PAGES_OPENED, watch

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT_DIR = ROOT / "build" / "screenshots"
VOILA_LOG_DIR = ROOT / "build" / "voila-logs"
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SERVER_START_TIMEOUT = 60.0

_screenshots_taken: list[Path] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter) -> None:
    if _screenshots_taken:
        terminalreporter.write_line(
            f"browser screenshots ({len(_screenshots_taken)}) are in {SCREENSHOT_DIR}/"
        )


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not CHROMIUM.exists():
        message = (
            f"Chromium not found at {CHROMIUM}: install it with "
            "`sudo apt-get install chromium` (Debian/Ubuntu) to run the browser tests"
        )
        if os.environ.get("PALACE_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (PALACE_REQUIRE_BROWSER=1)", pytrace=False)
        pytest.skip(message)
    return str(CHROMIUM)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https", "ws", "wss"}:
        return True  # data:, blob:, about: never leave the machine
    return (parts.hostname or "") in LOOPBACK_HOSTS


def new_loopback_page(browser: object, **context_options: object) -> object:
    """A page in a new context where every non-loopback request is aborted."""
    context = browser.new_context(**context_options)  # type: ignore[attr-defined]

    def guard(route) -> None:
        if _is_loopback(route.request.url):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    context.route("**/*", guard)
    page = context.new_page()
    watch(page)
    return page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """A browser test that fails reports the machine's load, what its pages saw and the
    tail of the servers' logs written during the test (a slow page is otherwise a mystery)."""
    report = yield
    if call.when != "call" or not report.failed:
        return report
    if not item.path.is_relative_to(Path(__file__).parent):
        return report
    lines = [f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"]
    for n, notes in enumerate(PAGES_OPENED[-4:], 1):
        lines.append(f"page {n} of the last {min(4, len(PAGES_OPENED))}:")
        lines.extend(f"  {x}" for x in notes.lines())
    since = time.time() - call.duration - 5
    if VOILA_LOG_DIR.is_dir():
        for log in sorted(VOILA_LOG_DIR.glob("*.log"), key=lambda p: p.stat().st_mtime)[-3:]:
            if log.stat().st_mtime >= since:
                tail = log.read_text("utf-8", errors="replace").splitlines()[-40:]
                lines.append(f"--- last lines of {log.name}:")
                lines.extend(tail)
    report.sections.append(("what the pages and servers saw", "\n".join(lines)))
    return report


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    page = new_loopback_page(browser, viewport={"width": 1280, "height": 900})
    try:
        yield page
    finally:
        page.context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR


@pytest.fixture
def screenshot(page: object, screenshot_dir: Path) -> Callable[[str], Path]:
    """``screenshot("name")`` saves a full-page PNG in build/screenshots/."""

    def take(name: str) -> Path:
        path = screenshot_dir / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        _screenshots_taken.append(path)
        print(f"screenshot: {path}")
        return path

    return take


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(
    url: str, process: subprocess.Popen, log: Path, context: ssl.SSLContext | None = None
) -> None:
    # Poll a static asset, not "/": every GET of a notebook page starts a kernel.
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"voila exited with {process.returncode} before serving; log:\n{log.read_text()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise TimeoutError(f"voila did not serve {url} within {SERVER_START_TIMEOUT:.0f} s")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    # Kernels live in the server's own process group (start_new_session=True);
    # make sure none outlives it.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@pytest.fixture
def voila_server() -> Iterator[Callable[..., str]]:
    """Factory: ``base_url = voila_server(path_to_notebook_or_dir)``."""
    started: list[subprocess.Popen] = []
    logs: list[object] = []

    def start(target: Path | str, *extra_args: str) -> str:
        port = _free_port()
        VOILA_LOG_DIR.mkdir(parents=True, exist_ok=True)
        log = VOILA_LOG_DIR / f"voila-{port}.log"
        log_file = log.open("w")
        logs.append(log_file)
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        command = [
            sys.executable,
            "-m",
            "voila",
            str(target),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            *extra_args,
        ]
        # cwd=ROOT so Voila reads the repository's voila.json.
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        started.append(process)
        base_url = f"http://127.0.0.1:{port}"
        _wait_until_serving(f"{base_url}/voila/static/voila.js", process, log)
        return base_url + "/"

    yield start

    for process in started:
        _stop(process)
    for log_file in logs:
        log_file.close()


# ---------------------------------------------------------------------- make app's server
@dataclass
class PalaceServer:
    """The Palace server (``make app``'s command) started by a test."""

    base: str
    log: Path
    process: subprocess.Popen
    context: ssl.SSLContext | None = None
    _log_file: object = field(default=None, repr=False)

    def get(self, path: str, timeout: float = 30) -> tuple[int, dict[str, str], str]:
        """(status, headers, body) of a GET; error statuses are returned, not raised."""
        try:
            with urllib.request.urlopen(
                self.base + path, timeout=timeout, context=self.context
            ) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def status(self) -> dict:
        """The server's own counts (``/palace/api/status``)."""
        code, _, body = self.get("palace/api/status")
        assert code == 200, body
        return json.loads(body)

    def log_text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def stop(self) -> None:
        _stop(self.process)
        if self._log_file is not None:
            self._log_file.close()  # type: ignore[attr-defined]
            self._log_file = None


def start_palace_server(
    *options: str,
    target: str = "notebooks/",
    scheme: str = "http",
    context: ssl.SSLContext | None = None,
    env: dict[str, str] | None = None,
) -> PalaceServer:
    """``python -m palace.app.server notebooks/`` (what ``make app`` runs) on a free port,
    with `env` added to this process's environment."""
    port = _free_port()
    VOILA_LOG_DIR.mkdir(parents=True, exist_ok=True)
    log = VOILA_LOG_DIR / f"palace-{port}.log"
    log_file = log.open("w")
    env = {**os.environ, **(env or {})}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    command = [
        sys.executable,
        "-m",
        "palace.app.server",
        target,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        *options,
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,  # the repository's voila.json, as for make app
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = PalaceServer(f"{scheme}://127.0.0.1:{port}/", log, process, context, log_file)
    try:
        _wait_until_serving(f"{server.base}voila/static/voila.js", process, log, context)
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture
def palace_server() -> Iterator[Callable[..., PalaceServer]]:
    """Factory: ``server = palace_server(*options)``; every server is stopped afterwards."""
    started: list[PalaceServer] = []

    def start(*options: str, **kwargs: object) -> PalaceServer:
        server = start_palace_server(*options, **kwargs)  # type: ignore[arg-type]
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
