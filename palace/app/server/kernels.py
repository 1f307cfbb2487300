"""The kernel manager behind the class server: culls closed pages, never a page still loading.

jupyter_server culls a kernel that has had no open connection and no activity for
``cull_idle_timeout`` seconds (voila.json: 5 minutes). A page's kernel has no connection
until the browser has loaded Voilà's scripts and opened its websocket; on a crowded
machine that can take minutes, and culling the kernel then leaves the page dead. So a
kernel handed to a page is not culled before that page has connected once, for up to
``first_connection_grace`` seconds; after that (a tab closed while loading, a plain GET
by a script) the usual rule applies. Voilà's pre-heated pool kernels are skipped by
Voilà's own kernel manager, which subclasses this one.

The pool is heated a few kernels at a time, and only once the pages being loaded have
connected to their kernels and had ``page_settle`` seconds to draw (for up to ``page_pause``
seconds in all): a class arriving at once takes the pool, and its pages draw before the pool
refills.

The pool is heated a few kernels at a time (``heat_slots``, one per core by default): a
pool kernel starts only when a slot is free and holds it until it has run the notebook up
to the visitor's link. Voilà starts the whole pool at once, and thirty kernels starting
together on two cores are all ready only when the last one is: heated in turn, the first
are ready in a second or two and serve the first pages while the others warm up.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Integer

from palace.app.server.capacity import default_start_slots

PREHEAT = "VOILA_PREHEAT"  # Voilà's mark on a pool kernel's environment


def waiting_for_visitor(kernel_id: str) -> bool:
    """Has this pool kernel run its notebook up to the visitor's link? It then waits on
    Voilà's request-info socket (`voila.utils.get_query_string`) until a page takes it."""
    from voila.request_info_handler import RequestInfoSocketHandler

    return kernel_id in RequestInfoSocketHandler._waiters


class PalaceKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, patient with pages that have not connected yet."""

    first_connection_grace = Integer(
        900,
        config=True,
        help="Seconds a kernel handed to a page is kept, idle or not, until that page first "
        "connects to it (then the usual culling applies).",
    )

    heat_slots = Integer(0, config=True, help="Pool kernels heated at once (0: one per core).")
    page_pause = Float(
        30.0,
        config=True,
        help="Seconds the pool waits, at most, for the pages being loaded to connect before "
        "it heats another kernel (their browsers first, the refill after).",
    )
    page_settle = Float(
        8.0,
        config=True,
        help="Seconds after a page connects that the pool still leaves the cores to it (its "
        "browser draws the widgets and asks its kernel for their state).",
    )
    heat_patience = Float(
        120.0,
        config=True,
        help="Seconds a pool kernel may hold its heating slot before the next one starts.",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._awaiting_page: dict[str, float] = {}
        self._heating: asyncio.Semaphore | None = None
        self._renders: dict[str, Any] = {}  # pool kernels taken by a page: their render task
        self._pooled: set[str] = set()  # pool kernels no page has taken yet
        self._connected: dict[str, float] = {}  # a page's first connection: when

    def start_kernel(self, *args: Any, **kwargs: Any) -> Any:
        """Start a kernel (a coroutine, as in the async base class), marked as handed to a
        page that has not connected yet."""
        return self._start_marked(*args, **kwargs)

    async def _start_marked(self, *args: Any, **kwargs: Any) -> str:
        pooled = (kwargs.get("env") or {}).get(PREHEAT) == "True"
        if not pooled:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
            self.handed_to_page(kernel_id)
            return kernel_id
        slots = self.heating_slots()
        await slots.acquire()  # a pool kernel waits for a free heating slot
        try:
            await self._pages_first()  # and for the pages being loaded
            kernel_id = await super().start_kernel(*args, **kwargs)
        except BaseException:
            slots.release()
            raise
        self.handed_to_page(kernel_id)
        self._pooled.add(kernel_id)
        asyncio.get_running_loop().create_task(self._release_when_heated(kernel_id, slots))
        return kernel_id

    def heating_slots(self) -> asyncio.Semaphore:
        """The slots pool kernels heat in (made on first use, in the server's loop)."""
        if self._heating is None:
            self._heating = asyncio.Semaphore(self.heat_slots or default_start_slots())
        return self._heating

    def taken_by_page(self, kernel_id: str, render: Any) -> None:
        """A page took this pool kernel: `render` runs the rest of its notebook."""
        self._renders[kernel_id] = render
        self._pooled.discard(kernel_id)

    def pages_loading(self) -> int:
        """Pages handed a kernel whose browser has not connected to it yet, or connected less
        than `page_settle` seconds ago (it is still drawing)."""
        waiting = sum(
            1 for k in list(self._awaiting_page) if k not in self._pooled and self.awaiting_page(k)
        )
        now = time.monotonic()
        for kernel_id, since in list(self._connected.items()):
            if now - since >= self.page_settle:
                del self._connected[kernel_id]  # drawn by now: forgotten
        return waiting + len(self._connected)

    async def _pages_first(self, every: float = 0.2) -> None:
        """Before heating a pool kernel, let the pages being loaded connect (a class that
        arrives at once: their pages draw first, the pool refills after), for at most
        `page_pause` seconds."""
        deadline = time.monotonic() + self.page_pause
        while self.pages_loading() and time.monotonic() < deadline:
            await asyncio.sleep(every)

    def _render_task(self, kernel_id: str) -> Any:
        """The task running this pool kernel's notebook, once Voilà has made it."""
        if kernel_id in self._renders:
            return self._renders[kernel_id]
        for tasks in getattr(self, "_pools", {}).values():  # Voilà's pool (a subclass)
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is None:
                    item = task.result()
                    if item.get("kernel_id") == kernel_id:
                        return item.get("task")
        return None

    async def _release_when_heated(
        self, kernel_id: str, slots: asyncio.Semaphore, every: float = 0.05
    ) -> None:
        """Free the heating slot once the kernel has run its notebook up to the visitor's
        link (or was drawn for a page, died, or took longer than `heat_patience`)."""
        deadline = time.monotonic() + self.heat_patience
        try:
            while time.monotonic() < deadline and kernel_id in self:
                if waiting_for_visitor(kernel_id):
                    break  # it ran the notebook up to the visitor's link
                render = self._render_task(kernel_id)
                if render is not None and render.done():
                    break  # drawn for a page, or stopped
                kernel = self._kernels.get(kernel_id)
                if getattr(kernel, "execution_state", None) == "dead":
                    break
                await asyncio.sleep(every)
        finally:
            self._renders.pop(kernel_id, None)
            slots.release()

    def handed_to_page(self, kernel_id: str) -> None:
        """The kernel now belongs to a page that has yet to connect (a pool kernel taken)."""
        self._awaiting_page[kernel_id] = time.monotonic()

    def awaiting_page(self, kernel_id: str) -> bool:
        """True while the kernel's page has not connected and the grace has not run out."""
        since = self._awaiting_page.get(kernel_id)
        return since is not None and time.monotonic() - since < self.first_connection_grace

    def notify_connect(self, kernel_id: str) -> None:
        if self._awaiting_page.pop(kernel_id, None) is not None and kernel_id not in self._pooled:
            self._connected[kernel_id] = time.monotonic()  # its page is drawing
        super().notify_connect(kernel_id)

    def remove_kernel(self, kernel_id: str) -> Any:
        self._awaiting_page.pop(kernel_id, None)
        self._connected.pop(kernel_id, None)
        self._pooled.discard(kernel_id)
        return super().remove_kernel(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        dead = getattr(kernel, "execution_state", None) == "dead"
        if self.awaiting_page(kernel_id) and not dead:
            return
        await super().cull_kernel_if_idle(kernel_id)
