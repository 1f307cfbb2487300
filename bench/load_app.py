"""A class arriving at once: N app pages requested together from `make app`'s server.

    .venv/bin/python bench/load_app.py                 # 30 pages in Chromium (the issue's test)
    .venv/bin/python bench/load_app.py --pages 10      # fewer
    .venv/bin/python bench/load_app.py --http          # plain GETs, no browser
    .venv/bin/python bench/load_app.py --pool 0        # without the pre-heated pool
    .venv/bin/python bench/load_app.py --cold          # do not wait for the pool to warm up
    .venv/bin/python bench/load_app.py --kernel --against build/base   # one page's kernel,
                                                       # this tree beside another checkout
    .venv/bin/python bench/load_app.py --kernel --notebook 08_rule_explorer.ipynb  # a lesson
    .venv/bin/python bench/load_app.py --page-cpu 8    # one page's browser CPU: Palace's
                                                       # front end beside Voilà's

The server is started exactly as `make app` starts it (`python -m palace.app.server
notebooks/`, the repository's voila.json, the same defaults); by default the bench waits
until the pre-heated pool is full, as a class arrives at a server the teacher started
before the lesson. Then every page is requested in the same instant.

A page counts as rendered when the app's widgets are drawn (browser: the Play table is
visible; --http: the page holds the app's widget output), and the run reports how many
rendered, the "Timeout waiting for IOPub output" lines in the server log (each one is a
blank page), and the time to the first widget: from the request to the drawn table. Runs
on this machine's own browsers, so their drawing competes with the server and the kernels
for the same cores; to keep closer to a class (where every student's computer draws its
own page) the browsers run at a lower priority (`--nice`, default 15), five pages to a
Chromium process (`--per-browser`). Exit status 0 only when every page rendered and the
log holds no IOPub timeout. Every run also reports the kernel memory per page (the
kernels' unique memory, USS, and their resident size, RSS, after the pages were drawn).

`--kernel` measures one page's kernel alone, as a page makes it work: a kernel started,
app.ipynb's cells run, then the widget states asked for as the browser's widget manager
asks for them (``request_states``); it reports the kernel's CPU time from its start to that
answer, the time from the kernel being ready to that answer (a page's opening, once its
kernel runs), the widget models and IOPub messages, and its memory. `--notebook` opens
another page of notebooks/ the same way (a lesson: issue 26 asks lesson 08 to open within
5 s of its kernel starting). `--against DIR` runs the same
in another checkout of the project (today's code, e.g. ``git worktree add build/base
<commit>``), in alternating rounds, and prints both with their ratio.

`--page-cpu N` measures what one page costs its browser, the part of a class's wait this
machine's cores spend in the benchmark above: two servers of this tree, one drawing its
pages with Palace's front end (`make app`'s default, `palace/app/server/front_end.py`) and
one with Voilà's (``--PalaceVoila.light_page=False``), and N cold pages of each, one at a
time and alternating, each in a fresh browser context of one Chromium; for each, the CPU
seconds of Chromium's processes from the request to two quiet seconds after the table was
drawn, and the time to the drawn table. Medians, ranges and their ratio are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
APP = "voila/render/app.ipynb"
TABLE = ".palace-app .palace-app-play .palace-table"
IOPUB = "Timeout waiting for IOPub output"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
DRAWN_SCRIPT = (
    "new MutationObserver(function (_, watch) {"
    f"  var t = document.querySelector({json.dumps(TABLE)});"
    "  if (t && t.getBoundingClientRect().height > 0) {"
    "    window.palaceDrawn = Date.now(); watch.disconnect(); }"
    "}).observe(document, {childList: true, subtree: true, attributes: true,"
    "  attributeFilter: ['style', 'class']});"
)
"""The moment the page draws the Play table, noted by the page itself (the clock is the
machine's): waiting for a selector in Playwright polls every page on each animation frame,
and thirty pages polled so take the cores the pages are drawn with."""
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
"""Chromium resolves no name but the loopback: the page's links to a CDN fail at once, in the
browser (a route in Playwright would carry every request through its driver instead)."""
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", OFFLINE]
"""Every benchmark browser: headless on this machine, and only this machine (no fonts or
icons from the network)."""
ZYGOTE = "palace.app.server.zygote"  # the process `make app`'s kernels are forked from
CONTROL_VERSION = "1.0.0"  # ipywidgets 8's jupyter.widget.control protocol


def kernel_page(root: Path, notebook: str = "app.ipynb", fork: bool = False) -> dict:
    """One page's kernel (the app, or a lesson), from its start to the widget states the page
    asks for; a cell that fails stops the run (a page that errs is not a fast page). `fork`:
    started as `make app` starts it, a fork of the zygote (this tree only)."""
    import uuid

    import psutil
    from jupyter_client import KernelManager
    from jupyter_client.provisioning import KernelProvisionerFactory

    cells = json.loads((root / "notebooks" / notebook).read_text("utf-8"))["cells"]
    env = dict(os.environ, PYTHONPATH=str(root), PALACE_INSTRUCTOR_TOKEN="t" * 32)
    factory = KernelProvisionerFactory.instance()
    if fork:
        from palace.app.server.forking import NAME, zygote

        zygote().start()
        asyncio.run(zygote().ready())  # started with the server, long before a page
        factory.default_provisioner_name = NAME
    else:
        factory.default_provisioner_name = "local-provisioner"
    manager = KernelManager(kernel_name="python3")
    t0 = time.monotonic()
    manager.start_kernel(cwd=str(root / "notebooks"), env=env)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        ready = time.monotonic()
        process = psutil.Process(manager.provisioner.process.pid)  # type: ignore[union-attr]
        messages = 0
        models = 0
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            msg_id = client.execute("".join(cell["source"]))
            while True:
                msg = client.get_iopub_msg(timeout=120)
                messages += 1
                models += msg["msg_type"] == "comm_open"
                if msg["msg_type"] == "error":
                    raise RuntimeError(f"{notebook}: {msg['content']['ename']} in a cell")
                done = msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
                if done and msg["parent_header"].get("msg_id") == msg_id:
                    break
        comm_id = uuid.uuid4().hex  # the page's widget manager: "send me every state"
        for kind, content in (
            (
                "comm_open",
                {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            ),
            ("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}),
        ):
            message = client.session.msg(kind, content, metadata={"version": CONTROL_VERSION})
            client.shell_channel.send(message)
        size = 0
        while True:
            msg = client.get_iopub_msg(timeout=120)
            messages += 1
            data = msg["content"].get("data", {}) if msg["msg_type"] == "comm_msg" else {}
            if data.get("method") == "update_states":
                size = len(json.dumps(data))
                break
        cpu = process.cpu_times()
        memory = process.memory_full_info()
        return {
            "cpu": cpu.user + cpu.system,
            "wall": time.monotonic() - t0,
            "open": time.monotonic() - ready,
            "models": models,
            "messages": messages,
            "state_kb": size / 1024,
            "uss": memory.uss / 2**20,
            "rss": memory.rss / 2**20,
        }
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def kernel_report(
    roots: dict[str, tuple[Path, bool]], rounds: int, notebook: str = "app.ipynb"
) -> None:
    """`rounds` alternating rounds of `kernel_page` per tree (and way of starting the
    kernel); medians, and the ratio of the first to the last."""
    runs: dict[str, list[dict]] = {name: [] for name in roots}
    for _ in range(rounds):
        for name, (root, fork) in roots.items():
            runs[name].append(kernel_page(root, notebook, fork))
    keys = ("cpu", "wall", "open", "models", "messages", "state_kb", "uss", "rss")
    medians = {n: {k: statistics.median(r[k] for r in rs) for k in keys} for n, rs in runs.items()}
    print(f"one page's kernel ({notebook}), median of {rounds} alternating rounds")
    print(
        "  tree: kernel CPU s (start to widget states) · wall s · open s (kernel ready to "
        "widget states) · widget models · IOPub messages · states KB · USS MB · RSS MB"
    )
    for name, m in medians.items():
        print(
            f"  {name}: {m['cpu']:.2f} · {m['wall']:.2f} · {m['open']:.2f} · {m['models']:.0f} · "
            f"{m['messages']:.0f} · {m['state_kb']:.0f} · {m['uss']:.0f} · {m['rss']:.0f}"
        )
    if len(medians) >= 2:
        (a, ma), (b, mb) = list(medians.items())[0], list(medians.items())[-1]
        print(
            f"  {a} / {b}: CPU {ma['cpu'] / mb['cpu']:.2f} · models "
            f"{ma['models'] / mb['models']:.2f} · open {ma['open'] / mb['open']:.2f} · "
            f"messages {ma['messages'] / mb['messages']:.2f}"
            f" · USS {ma['uss'] / mb['uss']:.2f}"
        )


def zygote_cpu() -> None:
    """What the zygote of the `--kernel` runs cost once (its imports), beside the pages."""
    import psutil

    from palace.app.server.forking import zygote

    process = zygote().process
    if process is None:
        return
    cpu = psutil.Process(process.pid).cpu_times()
    memory = psutil.Process(process.pid).memory_full_info()
    print(
        "  the zygote, once a server (its imports, and every fork): "
        f"CPU {cpu.user + cpu.system:.2f} s · USS {memory.uss / 2**20:.0f} MB"
    )
    zygote().stop()


def kernel_memory(server_pid: int) -> tuple[list[tuple[float, float]], float]:
    """(USS MB, RSS MB) of every kernel under the server (a fork of the zygote shows its
    kernel command), and the zygote's own USS MB (once a server, 0 without one)."""
    import psutil

    out, zygote_uss = [], 0.0
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            command = " ".join(child.cmdline())
            if ZYGOTE in command:
                zygote_uss = child.memory_full_info().uss / 2**20
                continue
            if "ipykernel" not in command:
                continue
            memory = child.memory_full_info()
        except psutil.Error:
            continue
        out.append((memory.uss / 2**20, memory.rss / 2**20))
    return out, zygote_uss


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def status(base: str) -> dict:
    with urllib.request.urlopen(base + "palace/api/status", timeout=10) as response:
        return json.load(response)


class Server:
    """`make app`'s server on a free loopback port, its log in a temporary file."""

    def __init__(self, extra: list[str], root: Path = ROOT) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log_path = Path(tempfile.mkstemp(prefix="palace-load-", suffix=".log")[1])
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONPATH"] = str(root)  # its kernels too import this checkout's palace
        command = [
            sys.executable,
            "-m",
            "palace.app.server",
            "notebooks/",
            "--no-browser",
            f"--port={self.port}",
            "--Voila.ip=127.0.0.1",
            *extra,
        ]
        self._log = self.log_path.open("w")
        self.process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_serving(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                status(self.base)
                return
            except OSError:
                time.sleep(0.3)
        raise TimeoutError("the server did not start")

    def wait_pool(self, pool: int, timeout: float = 300) -> float:
        """Wait until `pool` pre-heated kernels have run the app; the seconds it took."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if status(self.base)["pool_ready"] >= pool:
                return time.monotonic() - started
            time.sleep(0.5)
        raise TimeoutError("the pool did not fill")

    def pool_size(self) -> int:
        """The pool size the server reports in its first lines."""
        match = re.search(r"(\d+) pre-heated app kernel", self.log())
        return int(match.group(1)) if match else 0

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # no kernel outlives the server
        except (ProcessLookupError, PermissionError):
            pass
        self._log.close()


# ---------------------------------------------------------------------- browsers
def niced_chromium(nice: int) -> str:
    """A Chromium that runs at a lower priority than the server and its kernels."""
    if nice <= 0:
        return CHROMIUM
    fd, path = tempfile.mkstemp(prefix="palace-chromium-", suffix=".sh")
    with os.fdopen(fd, "w") as script:
        script.write(f'#!/bin/sh\nexec nice -n {nice} {CHROMIUM} "$@"\n')
    os.chmod(path, 0o755)
    return path


async def browser_run(
    base: str, pages: int, timeout: float, per_browser: int, nice: int
) -> list[dict]:
    """Every page in a context of its own (its own kernel), `per_browser` pages to a Chromium
    process: one browser holding thirty busy pages is a test harness, not a classroom. The
    browsers run at a lower priority (`nice`): in a class they run on the students' own
    computers and do not take the server's CPU."""
    from playwright.async_api import async_playwright

    executable = niced_chromium(nice)
    async with async_playwright() as pw:
        browsers = [
            await pw.chromium.launch(
                executable_path=executable,
                headless=True,
                args=BROWSER_ARGS,
            )
            for _ in range(-(-pages // per_browser))
        ]
        tabs = []
        for i in range(pages):
            context = await browsers[i // per_browser].new_context(
                viewport={"width": 1280, "height": 900}
            )
            await context.add_init_script(DRAWN_SCRIPT)
            tabs.append(await context.new_page())

        async def one(tab) -> dict:
            t0 = time.time()
            result: dict = {"rendered": False, "waited": False}
            try:
                await tab.goto(base + APP, wait_until="commit", timeout=timeout * 1000)
                result["waited"] = await tab.locator("#palace-wait").count() > 0
                drawn = await tab.wait_for_function(
                    "window.palaceDrawn", polling=500, timeout=timeout * 1000
                )
                result["rendered"] = True
                result["seconds"] = await drawn.json_value() / 1000 - t0
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                result["error"] = type(exc).__name__
                result["seconds"] = time.time() - t0
            return result

        try:
            return await asyncio.gather(*(one(tab) for tab in tabs))
        finally:
            for browser in browsers:
                await browser.close()
            if executable != CHROMIUM:
                os.unlink(executable)


def _tree_cpu(root) -> float:
    """CPU seconds of a process and its descendants (and their reaped children)."""
    import psutil

    total = 0.0
    for proc in [root, *root.children(recursive=True)]:
        try:
            t = proc.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.NoSuchProcess:
            pass
    return total


async def page_cpu_run(bases: dict[str, str], rounds: int, timeout: float) -> dict:
    """For each server, `rounds` cold pages, alternating: (Chromium CPU s, seconds to draw)."""
    import psutil
    from playwright.async_api import async_playwright

    got: dict[str, list[tuple[float, float]]] = {name: [] for name in bases}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=BROWSER_ARGS,
        )
        chromium = next(
            p
            for p in psutil.Process().children(recursive=True)
            if "chrom" in p.name() and not any(a.startswith("--type=") for a in p.cmdline())
        )
        try:
            for _ in range(rounds):
                for name, base in bases.items():
                    context = await browser.new_context(viewport={"width": 1280, "height": 900})
                    await context.add_init_script(DRAWN_SCRIPT)
                    tab = await context.new_page()
                    await asyncio.sleep(1.0)
                    cpu0, t0 = _tree_cpu(chromium), time.time()
                    await tab.goto(base + APP, wait_until="commit", timeout=timeout * 1000)
                    drawn = await tab.wait_for_function(
                        "window.palaceDrawn", polling=200, timeout=timeout * 1000
                    )
                    seconds = await drawn.json_value() / 1000 - t0
                    await asyncio.sleep(2.0)
                    got[name].append((_tree_cpu(chromium) - cpu0, seconds))
                    await context.close()
        finally:
            await browser.close()
    return got


def page_cpu_report(rounds: int, timeout: float) -> None:
    servers = {
        "Palace's front end (make app)": Server(["--pool_size=2"]),
        "Voilà's front end (--PalaceVoila.light_page=False)": Server(
            ["--pool_size=2", "--PalaceVoila.light_page=False"]
        ),
    }
    try:
        for server in servers.values():
            server.wait_serving()
            server.wait_pool(2)
        got = asyncio.run(page_cpu_run({n: s.base for n, s in servers.items()}, rounds, timeout))
    finally:
        for server in servers.values():
            server.stop()
    print(
        f"one cold page at a time, {rounds} of each, alternating (Chromium's CPU seconds, "
        "request to two quiet seconds after the table was drawn):"
    )
    medians = {}
    for name, runs in got.items():
        cpu = sorted(c for c, _ in runs)
        drawn = sorted(d for _, d in runs)
        medians[name] = statistics.median(cpu)
        print(
            f"  {name:<52} CPU median {medians[name]:.2f} s ({cpu[0]:.2f}-{cpu[-1]:.2f}); "
            f"drawn after a median {statistics.median(drawn):.2f} s"
        )
    ours, voilas = medians.values()
    print(f"  Palace's front end ÷ Voilà's: {ours / voilas:.2f}× the browser CPU of a page")


# ---------------------------------------------------------------------- plain GETs
def http_run(base: str, pages: int, timeout: float) -> list[dict]:
    results: list[dict] = [{} for _ in range(pages)]
    gate = threading.Barrier(pages)

    def get(i: int) -> None:
        gate.wait()
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(base + APP, timeout=timeout) as response:
                body = response.read().decode("utf-8", errors="replace")
            results[i] = {"rendered": WIDGET_MIME in body, "waited": "palace-wait" in body}
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            results[i] = {"rendered": False, "error": type(exc).__name__}
        results[i]["seconds"] = time.monotonic() - t0

    threads = [threading.Thread(target=get, args=(i,)) for i in range(pages)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


# ---------------------------------------------------------------------- report
def report(results: list[dict], log: str, label: str, what: str) -> bool:
    rendered = [r for r in results if r["rendered"]]
    times = sorted(r["seconds"] for r in rendered)
    timeouts = log.count(IOPUB)
    print(f"{label}: {len(rendered)} of {len(results)} pages rendered; IOPub timeouts: {timeouts}")
    if times:
        print(
            f"  {what} (s): "
            f"first {times[0]:.1f} · median {statistics.median(times):.1f} · "
            f"90% {times[int(0.9 * (len(times) - 1))]:.1f} · last {times[-1]:.1f}"
        )
    waited = sum(1 for r in results if r.get("waited"))
    print(f"  pages that showed the 'starting, N ahead of you' note first: {waited}")
    for i, r in enumerate(results):
        if not r["rendered"]:
            print(f"  page {i}: not rendered after {r['seconds']:.0f} s ({r.get('error')})")
    return len(rendered) == len(results) and timeouts == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--pool", type=int, default=None, help="pool size (default: make app's)")
    ap.add_argument("--http", action="store_true", help="plain GETs instead of Chromium")
    ap.add_argument("--cold", action="store_true", help="do not wait for the pool to fill")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per page")
    ap.add_argument("--per-browser", type=int, default=5, help="pages per Chromium process")
    ap.add_argument(
        "--nice", type=int, default=15, help="browsers' niceness (0: same priority as the server)"
    )
    ap.add_argument("--root", type=Path, default=ROOT, help="serve another checkout")
    ap.add_argument(
        "--warm",
        type=float,
        default=None,
        help="seconds to let the pool warm instead of asking the server (a server whose "
        "status cannot tell)",
    )
    ap.add_argument("--kernel", action="store_true", help="one page's kernel alone (CPU, models)")
    ap.add_argument("--against", type=Path, help="--kernel: another checkout to compare with")
    ap.add_argument("--rounds", type=int, default=5, help="--kernel: alternating rounds")
    ap.add_argument(
        "--notebook",
        default="app.ipynb",
        help="--kernel: the page to open, in notebooks/ (08_rule_explorer.ipynb: the "
        "heaviest lesson)",
    )
    ap.add_argument(
        "--page-cpu",
        type=int,
        default=0,
        metavar="N",
        help="one page's browser CPU, Palace's front end beside Voilà's, N pages of each",
    )
    ap.add_argument("extra", nargs="*", help="more server options (after --)")
    args = ap.parse_args()
    if args.page_cpu:
        page_cpu_report(args.page_cpu, args.timeout)
        return 0
    if args.kernel:
        roots = {
            "this tree, forked (make app)": (ROOT, True),
            "this tree, a new process": (ROOT, False),
        }
        if args.against is not None:
            roots[str(args.against)] = (args.against.resolve(), False)
        kernel_report(roots, args.rounds, args.notebook)
        zygote_cpu()
        return 0
    extra = list(args.extra)
    if args.pool is not None:
        extra.append(f"--pool_size={args.pool}")
    server = Server(extra, args.root.resolve())
    try:
        server.wait_serving()
        if args.warm is not None:
            time.sleep(args.warm)
            warm = args.warm
        else:
            warm = 0.0 if args.cold else server.wait_pool(server.pool_size())
        print(f"server: {server.base} (log {server.log_path}); status {status(server.base)}")
        if not args.cold:
            print(f"  the pre-heated pool was full {warm:.0f} s after the server answered")
        t0 = time.monotonic()
        if args.http:
            results = http_run(server.base, args.pages, args.timeout)
            label = f"{args.pages} plain GETs at once"
        else:
            results = asyncio.run(
                browser_run(server.base, args.pages, args.timeout, args.per_browser, args.nice)
            )
            label = (
                f"{args.pages} Chromium pages at once ({args.per_browser} per browser, "
                f"nice {args.nice})"
            )
        print(f"  all done in {time.monotonic() - t0:.1f} s; status {status(server.base)}")
        what = "page with the app's widget output" if args.http else "time to first widget"
        ok = report(results, server.log(), label, what)
        memory, zygote_uss = kernel_memory(server.process.pid)
        if memory:
            uss = statistics.median(m[0] for m in memory)
            rss = statistics.median(m[1] for m in memory)
            print(
                f"  kernel memory per page (median of {len(memory)} kernels): "
                f"USS {uss:.0f} MB · RSS {rss:.0f} MB"
                + (
                    f"; the zygote they fork from, once: USS {zygote_uss:.0f} MB"
                    if zygote_uss
                    else ""
                )
            )
    finally:
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
