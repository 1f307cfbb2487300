"""Voilà's page handler with a door: the class-full page, the line, and "starting" while it waits.

`PalaceRenderHandler` is Voilà's own `TornadoVoilaHandler` (the notebook is executed and
streamed exactly as Voilà does it) with three things around it:

* past the ceiling it answers HTTP 503 with a friendly page instead of starting a kernel;
* when other pages are starting, it sends "Palace is starting: N pages ahead of you" at
  once and updates N until the page's turn comes (`Admission`);
* when the page's kernel is not ready within half a second (a pre-heated kernel still
  warming up), it says "Starting your page…" rather than leaving the tab blank.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import PurePosixPath
from typing import Any

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.base.handlers import JupyterHandler
from voila.tornado.handler import TornadoVoilaHandler

from palace.app.server.admission import WAITING, Admission
from palace.app.server.pages import (
    STARTING_NOW,
    WAITING_DONE,
    full_page,
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
    """

    def __init__(self, manager: Any) -> None:
        self._manager = manager
        self.kernel_id: str | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def start_kernel(self, **kwargs: Any) -> str:
        kernel_id: str = await ensure_async(self._manager.start_kernel(**kwargs))
        self.kernel_id = kernel_id
        return kernel_id

    async def get_rendered_notebook(self, **kwargs: Any) -> Any:
        result = await self._manager.get_rendered_notebook(**kwargs)
        self.kernel_id = result[2]
        try:
            self._manager.get_kernel(self.kernel_id).last_activity = _utcnow()
        except KeyError:
            pass
        handed = getattr(self._manager, "handed_to_page", None)
        if handed is not None:
            handed(self.kernel_id)  # not culled before its page connects (kernels.py)
        return result


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
        ticket = door.enter()
        if ticket is None:
            self._refuse_full()
            return
        self._recorder = KernelRecorder(self.settings["kernel_manager"])
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
            self._fail(exc)
        finally:
            if ticket.state == WAITING:
                door.leave(ticket)
            else:
                door.started(ticket, self._recorder.kernel_id)

    # ------------------------------------------------------------------ the page
    async def _stream(self, path: str | None) -> None:
        generator = self.get_generator(path=path)
        first = asyncio.ensure_future(generator.__anext__())
        if not self._waiting_shown:
            done, _ = await asyncio.wait({first}, timeout=PATIENCE)
            if not done:
                self._show_waiting(None)
        try:
            html: str | None = await first
        except StopAsyncIteration:
            html = None
        if self._waiting_shown:
            self.write(WAITING_DONE)
        while html is not None:
            self.write(html)
            self.flush()
            try:
                html = await generator.__anext__()
            except StopAsyncIteration:
                html = None

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

    def _fail(self, exc: Exception) -> None:
        text = (
            "Palace could not start this page "
            f"({type(exc).__name__}). Reload the page to try again."
        )
        self.write(f"<script>palaceWait({json.dumps(text)})</script>\n")
        self.flush()

    def _refuse_full(self) -> None:
        door = self._admission
        self.log.warning("Palace: the class is full (%s pages); a page was refused", door.pages())
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_SECONDS))
        self._page_headers()
        self.finish(full_page(door.pages(), door.max_pages, RETRY_SECONDS))


def pool_ready(manager: Any) -> int:
    """Pre-heated kernels that have run their notebook and wait for a visitor.

    Reads Voilà 0.5's pool (``VoilaKernelManager._pools``: notebook -> tasks whose result
    holds the render task); 0 without a pool.
    """
    ready = 0
    for tasks in getattr(manager, "_pools", {}).values():
        for task in tasks:
            if not task.done() or task.cancelled() or task.exception() is not None:
                continue
            render = task.result().get("task")
            if render is not None and render.done():
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
