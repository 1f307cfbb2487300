"""The kernel manager behind the class server: culls closed pages, never a page still loading.

jupyter_server culls a kernel that has had no open connection and no activity for
``cull_idle_timeout`` seconds (voila.json: 5 minutes). A page's kernel has no connection
until the browser has loaded Voilà's scripts and opened its websocket; on a crowded
machine that can take minutes, and culling the kernel then leaves the page dead. So a
kernel handed to a page is not culled before that page has connected once, for up to
``first_connection_grace`` seconds; after that (a tab closed while loading, a plain GET
by a script) the usual rule applies. Voilà's pre-heated pool kernels are skipped by
Voilà's own kernel manager, which subclasses this one.
"""

from __future__ import annotations

import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer


class PalaceKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, patient with pages that have not connected yet."""

    first_connection_grace = Integer(
        900,
        config=True,
        help="Seconds a kernel handed to a page is kept, idle or not, until that page first "
        "connects to it (then the usual culling applies).",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._awaiting_page: dict[str, float] = {}

    def start_kernel(self, *args: Any, **kwargs: Any) -> Any:
        """Start a kernel (a coroutine, as in the async base class), marked as handed to a
        page that has not connected yet."""
        return self._start_marked(*args, **kwargs)

    async def _start_marked(self, *args: Any, **kwargs: Any) -> str:
        kernel_id: str = await super().start_kernel(*args, **kwargs)
        self.handed_to_page(kernel_id)
        return kernel_id

    def handed_to_page(self, kernel_id: str) -> None:
        """The kernel now belongs to a page that has yet to connect (a pool kernel taken)."""
        self._awaiting_page[kernel_id] = time.monotonic()

    def awaiting_page(self, kernel_id: str) -> bool:
        """True while the kernel's page has not connected and the grace has not run out."""
        since = self._awaiting_page.get(kernel_id)
        return since is not None and time.monotonic() - since < self.first_connection_grace

    def notify_connect(self, kernel_id: str) -> None:
        self._awaiting_page.pop(kernel_id, None)
        super().notify_connect(kernel_id)

    def remove_kernel(self, kernel_id: str) -> Any:
        self._awaiting_page.pop(kernel_id, None)
        return super().remove_kernel(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        dead = getattr(kernel, "execution_state", None) == "dead"
        if self.awaiting_page(kernel_id) and not dead:
            return
        await super().cull_kernel_if_idle(kernel_id)
