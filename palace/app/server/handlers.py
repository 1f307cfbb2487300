"""Voilà's page handler with a door: the class-full page, the line, and "starting" while it waits.

`PalaceRenderHandler` is Voilà's own `TornadoVoilaHandler` (the notebook is executed and
streamed exactly as Voilà does it) with three things around it:

* past the ceiling it answers HTTP 503 with a friendly page instead of starting a kernel;
* when other pages are starting, it sends "Palace is starting: N pages ahead of you" at
  once and updates N until the page's turn comes (`Admission`);
* when the page's kernel is not ready within half a second (a pre-heated kernel still
  warming up), it says "Starting your page…" rather than leaving the tab blank;
* when the page's kernel stops before the page is drawn (Voilà would then send heartbeats
  for ever), it says so, frees the page's place and the page tries again by itself.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.base.handlers import JupyterHandler
from voila.tornado.handler import TornadoVoilaHandler

from palace.app.server.admission import WAITING, Admission
from palace.app.server.kernels import waiting_for_visitor
from palace.app.server.pages import (
    STARTING_NOW,
    WAITING_DONE,
    full_page,
    start_failed,
    waiting_prelude,
    waiting_update,
)

PATIENCE = 0.5  # seconds before a page that is not yet streaming says "starting"
RETRY_SECONDS = 60


def _utcnow() -> Any:
    from jupyter_server._tz import utcnow

    return utcnow()


class KernelRecorder:
    """The kernel manager as Voilà's handler sees it, noting which kernel the page got.

    A page handed a pre-heated kernel has its idle clock reset, and the kernel manager is
    told (`PalaceKernelManager.handed_to_page`), so the culler does not take a kernel that
    warmed up long ago before the browser has connected to it.

    A kernel started for the page is watched until the page is drawn: `stopped` is done
    (with a few words on what happened) if the kernel dies or is restarted meanwhile. Voilà
    cannot draw a page whose kernel stopped, and would wait for it for ever.
    """

    def __init__(self, manager: Any, on_kernel: Callable[[], None] = lambda: None) -> None:
        self._manager = manager
        self._on_kernel = on_kernel  # told once the page has its kernel
        self.kernel_id: str | None = None
        self.stopped: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._watched: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def start_kernel(self, **kwargs: Any) -> str:
        kernel_id: str = await ensure_async(self._manager.start_kernel(**kwargs))
        self.kernel_id = kernel_id
        self._on_kernel()
        self._watch(kernel_id)
        return kernel_id

    async def get_rendered_notebook(self, **kwargs: Any) -> Any:
        result = await self._manager.get_rendered_notebook(**kwargs)
        self.kernel_id = result[2]
        self._on_kernel()  # out of the pool: the next page may count on the rest
        try:
            self._manager.get_kernel(self.kernel_id).last_activity = _utcnow()
        except KeyError:
            pass
        handed = getattr(self._manager, "handed_to_page", None)
        if handed is not None:
            handed(self.kernel_id)  # not culled before its page connects (kernels.py)
        taken = getattr(self._manager, "taken_by_page", None)
        if taken is not None:
            taken(self.kernel_id, result[0])  # its heating slot waits for this render
        return result

    # ------------------------------------------------------------------ the watch
    def _watch(self, kernel_id: str) -> None:
        try:
            kernel = self._manager.get_kernel(kernel_id)
        except KeyError:
            self._give_up("it was gone as soon as it started")
            return
        kernel.add_restart_callback(self._restarted, "restart")
        kernel.add_restart_callback(self._dead, "dead")
        self._watched = kernel

    def unwatch(self) -> None:
        """The page is drawn (or given up): later restarts are the page's own business."""
        if self._watched is not None:
            self._watched.remove_restart_callback(self._restarted, "restart")
            self._watched.remove_restart_callback(self._dead, "dead")
            self._watched = None

    def _restarted(self) -> None:
        self._give_up("it died and was restarted")

    def _dead(self) -> None:
        self._give_up("it died and could not be restarted")

    def _give_up(self, what: str) -> None:
        if not self.stopped.done():
            self.stopped.set_result(what)


class PalaceRenderHandler(TornadoVoilaHandler):
    """Serve a notebook page through the door (`Admission`)."""

    def initialize(self, **kwargs: Any) -> None:
        self._admission: Admission = kwargs.pop("admission")
        super().initialize(**kwargs)
        self._recorder: KernelRecorder | None = None
        self._gone = False
        self._waiting_shown = False

    @property
    def kernel_manager(self) -> Any:
        if self._recorder is not None:
            return self._recorder
        return self.settings["kernel_manager"]

    def on_connection_close(self) -> None:
        self._gone = True
        super().on_connection_close()

    def _is_notebook(self, path: str | None) -> bool:
        target = self.notebook_path or path or ""
        suffixes = {
            ".ipynb",
            *(x.lower() for x in self.voila_configuration.extension_language_mapping),
        }
        return PurePosixPath(target).suffix.lower() in suffixes

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        if not self._is_notebook(path) or (self.notebook_path and path):
            await super().get(path)  # Voilà redirects these to /voila/files: no kernel
            return
        door = self._admission
        notebook = self.notebook_path or path
        # a page the pool has a kernel for does not wait in line
        warm = door.pool_has_room(pool_ready(self.settings["kernel_manager"], notebook))
        ticket = door.enter(warm=warm)
        if ticket is None:
            self._refuse_full()
            return
        self._recorder = KernelRecorder(
            self.settings["kernel_manager"], on_kernel=lambda: door.served(ticket)
        )
        try:
            if ticket.state == WAITING:
                self._show_waiting(door.ahead(ticket))
                if not await door.wait_turn(ticket, report=self._report, gone=lambda: self._gone):
                    return
                self.write(STARTING_NOW)
                self.flush()
            await self._stream(path)
        except Exception as exc:
            if not self._waiting_shown:
                raise
            self.log.exception("Palace: the page %s could not start", path)
            self._fail(f"Palace could not start this page ({type(exc).__name__}).")
        finally:
            self._recorder.unwatch()
            if ticket.state == WAITING:
                door.leave(ticket)
            else:
                door.started(ticket, self._recorder.kernel_id)

    # ------------------------------------------------------------------ the page
    async def _stream(self, path: str | None) -> None:
        assert self._recorder is not None  # get() made it
        stopped = self._recorder.stopped
        generator = self.get_generator(path=path)
        pending = asyncio.ensure_future(generator.__anext__())
        if not self._waiting_shown:
            done, _ = await asyncio.wait({pending}, timeout=PATIENCE)
            if not done:
                self._show_waiting(None)
        begun = False
        while True:
            await asyncio.wait({pending, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not pending.done():  # the kernel stopped: Voilà would wait for it for ever
                pending.cancel()
                await self._kernel_stopped(stopped.result())
                return
            try:
                html: str = pending.result()
            except StopAsyncIteration:
                return
            if self._waiting_shown and not begun:
                self.write(WAITING_DONE)  # Voilà's page begins: the waiting note goes
            begun = True
            self.write(html)
            self.flush()
            pending = asyncio.ensure_future(generator.__anext__())

    async def _kernel_stopped(self, what: str) -> None:
        """The page's kernel stopped before the page was drawn: say so, free the page's
        place, and shut the kernel down once jupyter_client is done restarting it (a
        restarted kernel would hold memory no page uses)."""
        assert self._recorder is not None
        kernel_id, self._recorder.kernel_id = self._recorder.kernel_id, None
        self.log.warning(
            "Palace: the kernel %s stopped while its page was starting (%s); the page was "
            "told to try again",
            kernel_id,
            what,
        )
        if kernel_id is not None:
            task = asyncio.ensure_future(retire(self.settings["kernel_manager"], kernel_id))
            _RETIRING.add(task)
            task.add_done_callback(_RETIRING.discard)
        self._fail("Palace could not start this page: its kernel stopped while starting.")

    def _page_headers(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.set_header("Pragma", "no-cache")
        self.set_header("Expires", "0")

    def _show_waiting(self, ahead: int | None) -> None:
        self._page_headers()
        self.write(waiting_prelude(ahead))
        self.flush()
        self._waiting_shown = True

    def _report(self, ahead: int) -> None:
        self.write(waiting_update(ahead))
        self.flush()

    def _fail(self, text: str) -> None:
        """Tell the page it did not start; it tries again by itself, at most once in two
        minutes (pages.py)."""
        self.write(start_failed(text))
        self.flush()

    def _refuse_full(self) -> None:
        door = self._admission
        self.log.warning("Palace: the class is full (%s pages); a page was refused", door.pages())
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_SECONDS))
        self._page_headers()
        self.finish(full_page(door.pages(), door.max_pages, RETRY_SECONDS))


_RETIRING: set[asyncio.Future[None]] = set()  # kernels being shut down (kept from the GC)


async def retire(manager: Any, kernel_id: str, every: float = 0.5, patience: float = 60.0) -> None:
    """Shut down a kernel no page uses, after any restart in progress has finished.

    jupyter_client tells the page's watch that a kernel is restarting before it restarts it;
    a shutdown sent meanwhile would be undone by the restart. A kernel that stayed dead is
    taken off the map by jupyter_server itself.
    """
    for _ in range(int(patience / every)):
        await asyncio.sleep(every)
        if kernel_id not in manager:
            return
        kernel = manager.get_kernel(kernel_id)
        if kernel.ready.done() and await ensure_async(kernel.is_alive()):
            break
    if kernel_id in manager:
        try:
            await ensure_async(manager.shutdown_kernel(kernel_id, now=True))
        except KeyError:  # gone meanwhile
            pass


def pool_ready(manager: Any, notebook: str | None = None) -> int:
    """Pre-heated kernels that have run their notebook and wait for a visitor (`notebook`'s
    only, when given: the path Voilà names its pool by).

    Reads Voilà 0.5's pool (``VoilaKernelManager._pools``: notebook -> tasks whose result
    holds the kernel and its render task): a kernel is ready once it waits for its visitor's
    link (`waiting_for_visitor`); 0 without a pool.
    """
    ready = 0
    pools: dict[str, Any] = getattr(manager, "_pools", {})
    for name, tasks in pools.items():
        if notebook is not None and name != notebook:
            continue
        for task in tasks:
            if not task.done() or task.cancelled() or task.exception() is not None:
                continue
            item = task.result()
            render = item.get("task")
            if waiting_for_visitor(item.get("kernel_id", "")) or (
                render is not None and render.done()
            ):
                ready += 1
    return ready


class PalaceStatusHandler(JupyterHandler):
    """``GET /palace/api/status``: pages served, waiting and starting, the ceiling (JSON)."""

    def initialize(self, **kwargs: Any) -> None:
        self._admission: Admission = kwargs["admission"]

    @tornado.web.authenticated
    def get(self) -> None:
        status: dict[str, Any] = dict(self._admission.status())
        manager = self.settings["kernel_manager"]
        status["kernels"] = len(manager.list_kernel_ids())
        status["pool_ready"] = pool_ready(manager)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.finish(json.dumps(status))
