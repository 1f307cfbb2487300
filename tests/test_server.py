"""The class server's logic without a browser (issue #11 items 1 and 3): the line, the ceiling,
the defaults from the machine, the pages it writes, and how `make app`'s options land.

The browser tests (tests/browser/test_server_door.py, test_class_arrives.py) drive the
same server end to end.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from palace.app.files import LoadError, load_hand_or_scenario
from palace.app.server import capacity, front_end
from palace.app.server.admission import GONE, HOLDING, STARTING, WAITING, Admission
from palace.app.server.handlers import KernelRecorder, retire
from palace.app.server.launcher import too_big_sentence
from palace.app.server.pages import (
    RETRY_SPACING_MS,
    WAITING_DONE,
    full_page,
    start_failed,
    waiting_prelude,
    waiting_update,
)
from palace.scenarios import MAX_BYTES

ROOT = Path(__file__).resolve().parents[1]
GB = 2**30


# ---------------------------------------------------------------------- capacity
@pytest.mark.parametrize(
    ("memory", "pool", "pages"),
    [(24 * GB, 6, 64), (24 * GB, 0, 70), (8 * GB, 6, 16), (2 * GB, 6, 1), (512 * GB, 0, 500)],
)
def test_the_ceiling_follows_the_memory(memory: int, pool: int, pages: int) -> None:
    assert capacity.default_max_pages(memory=memory, pool=pool) == pages


def test_the_pool_holds_a_class_where_the_memory_allows() -> None:
    assert capacity.default_pool(max_pages=200) == capacity.CLASS_SIZE == 30
    assert capacity.default_pool(max_pages=8) == 4  # half a small ceiling
    assert capacity.default_pool(max_pages=1) == 0
    # the ceiling comes from the memory: a 24 GB machine pools a class and serves 40 more
    ceiling = capacity.default_max_pages(memory=24 * 2**30, pool=0)
    pool = capacity.default_pool(max_pages=ceiling)
    assert (pool, capacity.default_max_pages(memory=24 * 2**30, pool=pool)) == (30, 40)
    assert capacity.default_start_slots(cores=2) == 2 and capacity.default_start_slots(0) == 1


def test_this_machine_has_a_memory_and_cores() -> None:
    assert (capacity.memory_bytes() or 0) > 256 * 2**20
    assert capacity.cpu_cores() >= 1


# ---------------------------------------------------------------------- the line
def door(max_pages: int = 10, slots: int = 1, alive: set[str] | None = None) -> Admission:
    kernels = alive if alive is not None else set()
    return Admission(max_pages=max_pages, start_slots=slots, is_alive=kernels.__contains__)


def test_pages_start_in_order_of_arrival() -> None:
    d = door(slots=2, alive={"k1"})
    tickets = [d.enter() for _ in range(5)]
    assert [t.state for t in tickets] == [STARTING, STARTING, WAITING, WAITING, WAITING]
    assert [d.ahead(t) for t in tickets] == [0, 0, 0, 1, 2]
    d.started(tickets[1], "k1")  # the second finished first: the third starts
    assert [t.state for t in tickets] == [STARTING, HOLDING, STARTING, WAITING, WAITING]
    assert [d.ahead(t) for t in tickets[3:]] == [0, 1]
    assert d.status() == {
        "pages": 5,
        "waiting": 2,
        "starting": 2,
        "overdue": 0,
        "max_pages": 10,
        "start_slots": 2,
    }


def test_a_page_the_pool_has_a_kernel_for_does_not_queue() -> None:
    """A class served from a full pool: each page a pre-heated kernel waits for starts at
    once, beside the start slots, and still counts against the ceiling; a cold page queues."""
    d = door(max_pages=4, slots=1, alive={"k1", "k2"})
    cold = d.enter()
    warm = [d.enter(warm=True) for _ in range(2)]
    queued = d.enter()
    assert [t.state for t in (cold, *warm, queued)] == [STARTING, STARTING, STARTING, WAITING]
    assert d.warm_starting() == 2 and d.ahead(queued) == 0
    assert d.status()["starting"] == 3 and d.status()["overdue"] == 0
    assert d.enter(warm=True) is None  # the ceiling holds for warm pages too
    d.started(warm[0], "k1")
    assert warm[0].state == HOLDING and d.warm_starting() == 1
    assert queued.state == WAITING  # a warm page's end frees no slot: it took none
    d.started(cold, "k2")
    assert queued.state == STARTING


def test_a_class_as_large_as_the_ready_pool_starts_at_once() -> None:
    """Thirty pages arriving together from a pool of thirty ready kernels: none waits in line,
    whether its kernel is taken before or after the next page arrives (a kernel a page has
    taken has left the pool: it must not be counted twice)."""
    d = door(max_pages=40, slots=1, alive=set())
    ready, tickets = 30, []
    for i in range(30):
        if i % 3 == 2:  # now and then the pages before have taken their kernels
            for t in tickets:
                if not t.served:
                    d.served(t)
                    ready -= 1
        ticket = d.enter(warm=d.pool_has_room(ready))
        assert ticket is not None and ticket.warm and ticket.state == STARTING, i
        tickets.append(ticket)
    assert d.pool_has_room(ready) is False  # the thirty-first page: no kernel left for it
    late = d.enter(warm=d.pool_has_room(ready))
    assert late is not None and not late.warm


def test_a_page_stuck_starting_does_not_hold_up_the_line() -> None:
    """A page whose kernel never finishes starting keeps its place in the class, but after
    `start_patience` seconds the next page in line starts anyway."""
    now = [0.0]
    d = Admission(
        max_pages=10,
        start_slots=1,
        is_alive=lambda k: True,
        start_patience=60,
        clock=lambda: now[0],
    )
    stuck, next_one, last = d.enter(), d.enter(), d.enter()
    assert (stuck.state, next_one.state, last.state) == (STARTING, WAITING, WAITING)

    async def wait() -> bool:
        return await d.wait_turn(next_one, every=0.01)

    async def scenario() -> bool:
        task = asyncio.ensure_future(wait())
        await asyncio.sleep(0.05)
        assert not task.done()  # 0 s: the stuck page still has the slot
        now[0] = 59.0
        await asyncio.sleep(0.05)
        assert not task.done()
        now[0] = 60.0  # the stuck page is overdue: its slot goes to the next page
        return await asyncio.wait_for(task, timeout=5)

    assert asyncio.run(scenario()) is True
    assert next_one.state == STARTING and last.state == WAITING  # one slot: one at a time
    assert d.status()["overdue"] == 1 and d.status()["starting"] == 2
    assert d.pages() == 3  # the stuck page still counts against the ceiling
    d.started(stuck, "k-late")  # it did start in the end: it holds its kernel
    assert stuck.state == HOLDING and last.state == WAITING
    d.started(next_one, "k2")
    assert last.state == STARTING
    with pytest.raises(ValueError, match="start_patience"):
        Admission(max_pages=1, start_slots=1, is_alive=lambda k: True, start_patience=0)


def test_the_ceiling_counts_waiting_starting_and_holding_pages() -> None:
    kernels = {"k1"}
    d = door(max_pages=3, slots=1, alive=kernels)
    first, _, third = d.enter(), d.enter(), d.enter()
    assert d.enter() is None  # full: one holds soon, one starts, one waits
    d.started(first, "k1")
    assert d.enter() is None
    d.leave(third)  # a waiting tab closed
    fourth = d.enter()
    assert fourth is not None and fourth.state == WAITING and third.state == GONE
    kernels.discard("k1")  # the first page's kernel was culled: its place is free
    assert d.pages() == 2 and first.state == GONE
    assert d.enter() is not None


def test_a_page_that_got_no_kernel_frees_its_place() -> None:
    d = door(max_pages=1)
    ticket = d.enter()
    d.started(ticket, None)  # the notebook failed to start
    assert ticket.state == GONE and d.pages() == 0


def test_waiting_reports_each_new_place_and_stops_when_the_page_goes() -> None:
    async def scenario() -> tuple[list[int], bool, list[int], bool]:
        d = door(slots=1)
        running = d.enter()
        a, b = d.enter(), d.enter()
        seen_b: list[int] = []
        task_b = asyncio.ensure_future(d.wait_turn(b, seen_b.append, every=0.01))
        seen_a: list[int] = []
        gone = {"a": False}
        task_a = asyncio.ensure_future(
            d.wait_turn(a, seen_a.append, every=0.01, gone=lambda: gone["a"])
        )
        await asyncio.sleep(0.05)
        gone["a"] = True  # the first waiting tab closed
        got_a = await task_a
        await asyncio.sleep(0.05)
        d.started(running, "k")
        got_b = await task_b
        return seen_b, got_b, seen_a, got_a

    seen_b, got_b, seen_a, got_a = asyncio.run(scenario())
    assert seen_b == [1, 0] and got_b is True  # 1 ahead, then next, then its turn
    assert seen_a == [0] and got_a is False


def test_the_line_needs_room() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        door(max_pages=0)


# ---------------------------------------------------------------------- pages
def test_the_waiting_note_says_how_many_are_ahead() -> None:
    page = waiting_prelude(3)
    assert "Starting your page: 3 pages ahead of you." in page
    assert "\n<body>\n" in page, "<body> must have no attributes: Voilà's page adds its own"
    assert 'role="status"' in page and page.startswith("<!DOCTYPE html>")
    assert "Starting your page…" in waiting_prelude(None)
    assert json.dumps("Starting your page: 1 page ahead of you.") in waiting_update(1)
    assert "you are next" in waiting_update(0)
    assert "palaceWaitDone()" in WAITING_DONE


def test_the_full_page_is_friendly() -> None:
    page = full_page(40, 40)
    assert "The class is full" in page and "Try again in a minute" in page
    assert "serving 40 pages right now, as many as this server allows (40)" in page
    assert 'role="alert"' in page and "location.reload()" in page


def test_a_page_that_did_not_start_says_so_and_tries_again_once() -> None:
    page = start_failed("Palace could not start this page: its kernel stopped <early>.")
    assert 'role="alert"' in page and "This page did not start" in page
    assert "its kernel stopped &lt;early&gt;." in page  # the text is escaped
    assert "Try again now" in page and "location.reload()" in page
    # one automatic retry, then not again within two minutes (no reload loop)
    assert f"now-last>{RETRY_SPACING_MS}" in page and RETRY_SPACING_MS >= 60_000
    assert "It did not start the last time either" in page
    assert "document.body.appendChild(box)" in page  # out of Voilà's hidden cells block


# ---------------------------------------------------------------------- kernels that stop
class FakeKernel:
    """A kernel manager's kernel: restart callbacks, readiness and life, as jupyter_client."""

    def __init__(self, alive_after: int = 0) -> None:
        self.callbacks: dict[str, list] = {"restart": [], "dead": []}
        self.polls_until_alive = alive_after
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.ready.set_result(None)

    def add_restart_callback(self, f, event: str = "restart") -> None:
        self.callbacks[event].append(f)

    def remove_restart_callback(self, f, event: str = "restart") -> None:
        self.callbacks[event].remove(f)

    async def is_alive(self) -> bool:
        self.polls_until_alive -= 1
        return self.polls_until_alive < 0

    def fire(self, event: str) -> None:
        for f in list(self.callbacks[event]):
            f()


class FakeManager:
    def __init__(self, kernel: FakeKernel | None = None) -> None:
        self.kernels = {"k1": kernel} if kernel else {}
        self.shut_down: list[str] = []

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.kernels

    async def start_kernel(self, **kwargs: object) -> str:
        return "k1"

    def get_kernel(self, kernel_id: str) -> FakeKernel:
        return self.kernels[kernel_id]

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        self.shut_down.append(kernel_id)
        del self.kernels[kernel_id]


@pytest.mark.parametrize(
    ("event", "said"),
    [("restart", "it died and was restarted"), ("dead", "it died and could not be restarted")],
)
def test_a_page_hears_when_its_kernel_stops_while_starting(event: str, said: str) -> None:
    async def run() -> tuple[str, dict]:
        kernel = FakeKernel()
        recorder = KernelRecorder(FakeManager(kernel))
        assert await recorder.start_kernel(kernel_name="python3") == "k1"
        assert not recorder.stopped.done()
        kernel.fire(event)
        kernel.fire("dead")  # a later event changes nothing
        recorder.unwatch()  # the page is given up: the kernel's callbacks are its own again
        return recorder.stopped.result(), kernel.callbacks

    what, callbacks = asyncio.run(run())
    assert what == said and callbacks == {"restart": [], "dead": []}


def test_a_kernel_gone_at_once_is_a_stopped_start() -> None:
    class Forgetful(FakeManager):
        def get_kernel(self, kernel_id: str) -> FakeKernel:
            raise KeyError(kernel_id)

    async def run() -> str:
        recorder = KernelRecorder(Forgetful())
        await recorder.start_kernel()
        recorder.unwatch()
        return recorder.stopped.result()

    assert asyncio.run(run()) == "it was gone as soon as it started"


def test_a_stopped_pages_kernel_is_shut_down_after_its_restart() -> None:
    async def run() -> tuple[list[str], int, list[str]]:
        restarting = FakeManager(FakeKernel(alive_after=3))  # alive on the fourth look
        await retire(restarting, "k1", every=0.001)
        gone = FakeManager()  # jupyter_server took a kernel that stayed dead off the map
        await retire(gone, "k1", every=0.001)
        return restarting.shut_down, len(restarting.kernels), gone.shut_down

    shut, left, untouched = asyncio.run(run())
    assert shut == ["k1"] and left == 0 and untouched == []


# ---------------------------------------------------------------------- make app's options
def configured(*argv: str, prelude: str = "") -> dict:
    """How the server reads `argv` (run in a child: Voilà installs signal handlers), after
    running `prelude` there."""
    code = (
        "import json, sys\n" + prelude + "\n"
        "from palace.app.server.launcher import PalaceVoila\n"
        "from jupyter_client.provisioning import KernelProvisionerFactory\n"
        "app = PalaceVoila()\n"
        "app.initialize(sys.argv[1:])\n"
        "vc = app.voila_configuration\n"
        "print(json.dumps({'template': vc.template, 'pool': app.pool_size,\n"
        "    'preheat': vc.preheat_kernel, 'ceiling': app._ceiling(app.pool_size),\n"
        "    'resources': dict(app.config.VoilaConfiguration.resources),\n"
        "    'iopub': app.config.VoilaExecutor.iopub_timeout,\n"
        "    'cull': app.config.MappingKernelManager.cull_idle_timeout,\n"
        "    'cull_connected': app.config.MappingKernelManager.cull_connected,\n"
        "    'certfile': app.certfile, 'patience': app.start_patience, 'forking': app.forking,\n"
        "    'provisioner': KernelProvisionerFactory.instance().default_provisioner_name}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, "notebooks/", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if run.returncode:
        raise RuntimeError(run.stderr[-2000:])
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_make_app_defaults() -> None:
    got = configured()
    assert got["template"] == "palace" and got["preheat"] is True
    assert got["pool"] == capacity.default_pool(max_pages=capacity.default_max_pages(pool=0))
    assert got["ceiling"] == capacity.default_max_pages(pool=got["pool"])
    page = got["resources"]["palace"].pop("page", None)
    bundle = got["resources"]["palace"].pop("bundle", None)
    assert got["resources"]["palace"] == {
        "max_upload_bytes": MAX_BYTES,
        "too_big": too_big_sentence(),
    }
    if front_end.load(front_end.DIST) is not None:
        # pages drawn by Palace's own front end (front_end.py), Voilà's chunks not needed
        assert set(page) == {"script", "style"} and bundle is None
        assert re.fullmatch(r"voila/palace/page/palace-page\.js\?v=[0-9a-f]{20}", page["script"])
    else:
        # Voilà's script chunks in one script, under the digest of what it holds (bundle.py)
        assert page is None
        assert re.fullmatch(r"voila/palace/bundle\.js\?v=[0-9a-f]{20}", bundle)
    # each page's kernel a fork of the zygote (forking.py)
    assert got["provisioner"] == "palace-forking-provisioner" and got["forking"] is True
    # voila.json: a generous IOPub wait (the 4 s default left pages blank), culling of
    # pages with no open tab after 5 minutes, open pages never culled
    assert got["iopub"] >= 60 and got["cull"] == 300 and got["cull_connected"] is False


def test_make_app_options() -> None:
    got = configured(
        "--pool_size=0", "--max_kernels=7", "--certfile=/nonexistent.pem", "--start_patience=45"
    )
    assert (got["pool"], got["preheat"], got["ceiling"]) == (0, False, 7)
    assert got["patience"] == 45 and configured()["patience"] == 180
    assert got["certfile"] == "/nonexistent.pem"
    plain = configured(
        "--fork_kernels=False", "--PalaceVoila.bundle=False", "--PalaceVoila.light_page=False"
    )
    assert plain["provisioner"] == "local-provisioner"  # kernels started anew
    assert plain["forking"] is False  # and the server says so at start
    assert "bundle" not in plain["resources"]["palace"]  # the chunks one by one
    assert "page" not in plain["resources"]["palace"]  # Voilà's own front end
    voilas = configured("--PalaceVoila.light_page=False")
    assert "page" not in voilas["resources"]["palace"] and "bundle" in voilas["resources"]["palace"]
    # where kernels cannot be forked (no pidfd: macOS, Windows, Linux before 5.3), every
    # kernel starts as a new process, with no option needed
    elsewhere = configured(prelude="import os; del os.pidfd_open")
    assert elsewhere["provisioner"] == "local-provisioner" and elsewhere["forking"] is False
    with pytest.raises(RuntimeError, match="--keyfile needs --certfile"):
        configured("--keyfile=/k.pem")


def test_the_console_is_not_filled_with_trust_warnings() -> None:
    """Voilà runs the notebooks it serves, signed or not: the contents manager's warning
    about an unsigned notebook (once a page) does not reach the instructor's console, and
    its other warnings still do."""
    code = (
        "import sys, nbformat\n"
        "from jupyter_server.services.contents.largefilemanager import LargeFileManager\n"
        "from palace.app.server.launcher import PalaceVoila\n"
        "app = PalaceVoila()\n"
        "app.initialize(sys.argv[1:])\n"
        "cm = LargeFileManager(parent=app)\n"
        "nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('1')])\n"
        "cm.mark_trusted_cells(nb, 'app.ipynb')\n"
        "cm.log.warning('Trusting notebook %s', 'other.ipynb')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, "notebooks/", "--pool_size=0", "--fork_kernels=False"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "Trusting notebook other.ipynb" in run.stderr  # the log still speaks
    assert "not trusted" not in run.stderr


def _make_app_command(*variables: str) -> str:
    """The server command `make app` would run with these make variables (`make -n`)."""
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "app", *variables],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (line,) = [ln for ln in out.splitlines() if ln.startswith('echo "+ ')]
    return line


def test_make_app_variables_reach_the_server() -> None:
    plain = _make_app_command()
    assert "-m palace.app.server notebooks/" in plain and "--fork_kernels" not in plain
    got = _make_app_command("FORK=0", "POOL=3", "MAX_KERNELS=9")
    assert "--fork_kernels=False" in got
    assert "--pool_size=3" in got and "--max_kernels=9" in got
    assert "--fork_kernels" not in _make_app_command("FORK=1")


def test_plain_voila_still_reads_voila_json() -> None:
    """voila.json holds nothing only the Palace server knows (no template name)."""
    data = json.loads((ROOT / "voila.json").read_text())
    assert "template" not in data["VoilaConfiguration"]
    template = ROOT / "palace/app/server/jupyter/voila/templates/palace"
    assert json.loads((template / "conf.json").read_text()) == {"base_template": "lab"}
    js = (template / "static" / "palace-page.js").read_text()
    assert "config.too_big" in js and "config.max_upload_bytes" in js


def test_the_browser_refuses_big_files_with_the_kernels_sentence() -> None:
    sentence = too_big_sentence()
    assert sentence.startswith("Not loaded: {name}") and "{size} bytes" in sentence
    filled = sentence.replace("{name}", "big.json").replace("{size}", f"{2_000_000:,}")
    try:
        load_hand_or_scenario(b" " * 2_000_000, source="big.json")
    except LoadError as exc:
        assert filled == f"Not loaded: {exc}."
    else:
        raise AssertionError("the kernel accepted a file over the limit")


# ---------------------------------------------------------------------- heating the pool
def test_the_pool_heats_a_few_kernels_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A class's pool heats `heat_slots` kernels at a time: the next starts when one has run
    the notebook up to its visitor's link, so the first are ready long before the last;
    a page's own kernel never waits for the pool, and the pool waits for the pages being
    loaded to connect and draw (`page_settle`) before it heats another kernel."""
    from types import SimpleNamespace

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.request_info_handler import RequestInfoSocketHandler

    from palace.app.server.kernels import PalaceKernelManager

    started: list[str] = []

    async def fake_start(self: PalaceKernelManager, *args: object, **kwargs: object) -> str:
        kernel_id = f"k{len(started)}"
        started.append(kernel_id)
        self._kernels[kernel_id] = SimpleNamespace(execution_state="busy")
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", fake_start)
    waiters = RequestInfoSocketHandler._waiters

    async def run() -> list[list[str]]:
        manager = PalaceKernelManager(heat_slots=2, page_settle=0.4)
        pooled = {"env": {"VOILA_PREHEAT": "True"}}
        tasks = [asyncio.create_task(manager.start_kernel(**pooled)) for _ in range(5)]
        seen = []
        await asyncio.sleep(0.2)
        seen.append(list(started))  # two heating, three waiting for a slot
        page = await manager.start_kernel(env={})  # a page's own kernel: at once
        seen.append(list(started))
        waiters["k0"] = object()  # k0 waits for its visitor: heated
        await asyncio.sleep(0.3)
        seen.append(list(started))  # a free slot, but the page has not connected yet
        assert manager.pages_loading() == 1
        manager.notify_connect("k2")  # its browser connected, and draws the page
        await asyncio.sleep(0.2)
        assert manager.pages_loading() == 1
        seen.append(list(started))  # the page has the cores while it draws
        await asyncio.sleep(0.4)
        assert manager.pages_loading() == 0
        seen.append(list(started))
        for kernel_id in ("k1", "k3"):
            waiters[kernel_id] = object()
        await asyncio.sleep(0.3)
        seen.append(list(started))  # k4 and k5 heating
        await asyncio.gather(*tasks)
        late = asyncio.create_task(manager.start_kernel(**pooled))
        await asyncio.sleep(0.2)
        seen.append(list(started))  # both slots still taken
        del manager._kernels["k4"]  # a kernel that stopped frees its slot too
        await asyncio.sleep(0.2)
        seen.append(list(started))
        await late
        assert page == "k2"
        return seen

    try:
        seen = asyncio.run(run())
    finally:
        for kernel_id in ("k0", "k1", "k3"):
            waiters.pop(kernel_id, None)
    assert seen == [
        ["k0", "k1"],
        ["k0", "k1", "k2"],
        ["k0", "k1", "k2"],
        ["k0", "k1", "k2"],
        ["k0", "k1", "k2", "k3"],
        ["k0", "k1", "k2", "k3", "k4", "k5"],
        ["k0", "k1", "k2", "k3", "k4", "k5"],
        ["k0", "k1", "k2", "k3", "k4", "k5", "k6"],
    ]
