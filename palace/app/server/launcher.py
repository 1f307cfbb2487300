"""`python -m palace.app.server`: Voilà for a class (what `make app` runs).

`PalaceVoila` is Voilà's own application (every Voilà option and `voila.json` still apply)
with what a classroom needs on top:

* a pre-heated pool of app kernels by default (`--pool_size=N`, 0 turns it off);
* a ceiling on pages served at once (`--max_kernels=N`, default from the machine's memory)
  answered past it by a friendly "the class is full" page;
* a line where `--start_slots=N` pages start at a time, each told how many are ahead (a
  page still starting after `--start_patience=S` seconds no longer holds up the line);
* culling of closed pages that never takes a page still loading (`PalaceKernelManager`);
* the `palace` page template: refuses uploads over 1 MB in the browser before they are
  sent, and says so plainly when the connection to the kernel is lost;
* HTTPS with `--certfile=... --keyfile=...` (Voilà 0.5 alone serves plain HTTP only);
* the instructor's token (``PALACE_INSTRUCTOR_TOKEN``, made up when not set), handed to the
  kernels in their environment and printed once in the instructor's link (issue 15).
"""

from __future__ import annotations

import atexit
import functools
import logging
import os
import ssl
from pathlib import Path
from typing import Any, Final

from jupyter_client.provisioning import KernelProvisionerFactory
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop
from traitlets import Bool, Float, Integer, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from palace.app.files import LoadError, load_hand_or_scenario
from palace.app.server.admission import Admission
from palace.app.server.bundle import ROUTE as BUNDLE_ROUTE
from palace.app.server.bundle import Bundle, BundleHandler
from palace.app.server.bundle import build as build_bundle
from palace.app.server.capacity import default_max_pages, default_pool, default_start_slots
from palace.app.server.forking import NAME as FORKING
from palace.app.server.forking import supported as forking_supported
from palace.app.server.forking import zygote
from palace.app.server.front_end import ROUTE as FRONT_END_ROUTE
from palace.app.server.front_end import FrontEnd, FrontEndHandler
from palace.app.server.front_end import load as load_front_end
from palace.app.server.handlers import PalaceRenderHandler, PalaceStatusHandler
from palace.app.server.kernels import PalaceKernelManager
from palace.app.teacher import ENV_TOKEN, MIN_LENGTH, instructor_query, new_token
from palace.scenarios import MAX_BYTES

JUPYTER_DIR = Path(__file__).resolve().parent / "jupyter"  # templates/palace lives here
TEMPLATE = "palace"


def too_big_sentence() -> str:
    """What the Replay tab says for an upload over the limit, with ``{name}`` and ``{size}``
    left to fill in: taken from the kernel's own check, so the browser's refusal and the
    kernel's can never drift apart."""
    probe = MAX_BYTES + 1
    try:
        load_hand_or_scenario(b" " * probe, source="{name}")
    except LoadError as exc:
        problem = str(exc).replace(f"{probe:,}", "{size}")
    else:  # pragma: no cover - the kernel accepts nothing over the limit
        problem = "{name} is {size} bytes; the limit is " + f"{MAX_BYTES:,} bytes"
    return f"Not loaded: {problem}."  # as ReplayTab words a refused file


def _add_jupyter_path() -> None:
    """Let Voilà find the `palace` template (it searches the Jupyter data path)."""
    here = str(JUPYTER_DIR)
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if here not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([here, *paths])


UNTRUSTED: Final = "Notebook %s is not trusted"  # jupyter_server's contents manager


def served_anyway(record: logging.LogRecord) -> bool:
    """False for the contents manager's "Notebook … is not trusted" warning: Voilà runs the
    notebooks it serves whatever their signature, so the warning said nothing, once a page
    (thirty lines as the pool warmed up) in the instructor's console."""
    return record.msg != UNTRUSTED


class PalaceVoila(Voila):
    """Voilà with a pool, a ceiling, a line at the door, page guards and optional HTTPS."""

    description = Unicode("palace-voila [OPTIONS] NOTEBOOK_OR_FOLDER: Voila for a class.")

    max_kernels = Integer(
        0,
        config=True,
        help="Most pages served at once (each runs a kernel; the pre-heated pool comes on "
        "top). 0: half the machine's memory at 170 MB a page.",
    )
    start_slots = Integer(
        0, config=True, help="Pages started at once; the others wait in line. 0: one per core."
    )
    start_patience = Float(
        180.0,
        config=True,
        help="Seconds a page may take to start before the next page in line starts anyway "
        "(a stuck kernel must not hold up the class).",
    )
    fork_kernels = Bool(
        True,
        config=True,
        help="Start each page's kernel as a fork of one that has imported the kernel and the "
        "app (palace.app.server.zygote): a fraction of the CPU and memory of a new one.",
    )
    bundle = Bool(
        True,
        config=True,
        help="Serve Voilà's script chunks as one gzipped script (palace.app.server.bundle): "
        "a page makes a quarter of the requests.",
    )
    light_page = Bool(
        True,
        config=True,
        help="Draw pages with Palace's own front end (palace.app.server.front_end: a quarter "
        "of Voilà's script, built by make page) instead of Voilà's JupyterLab application.",
    )
    certfile = Unicode("", config=True, help="TLS certificate (PEM): serve HTTPS.")
    keyfile = Unicode("", config=True, help="TLS private key (PEM) for certfile.")

    aliases = {
        **Voila.aliases,
        "max_kernels": "PalaceVoila.max_kernels",
        "start_slots": "PalaceVoila.start_slots",
        "start_patience": "PalaceVoila.start_patience",
        "fork_kernels": "PalaceVoila.fork_kernels",
        "certfile": "PalaceVoila.certfile",
        "keyfile": "PalaceVoila.keyfile",
    }

    admission: Admission | None = None
    scripts: Bundle | None = None  # Voilà's chunks in one script (`bundle`)
    front_end: FrontEnd | None = None  # Palace's own front end (`light_page`)
    forking = False  # each page's kernel a fork of the zygote (`fork_kernels`, where supported)

    def initialize(self, argv: Any = None) -> None:
        _add_jupyter_path()
        super().initialize(argv)
        self.log.addFilter(served_anyway)  # the contents manager logs to the app's log
        vc = self.voila_configuration
        given = self.config.VoilaConfiguration
        if "template" not in given:
            vc.template = TEMPLATE
            self.setup_template_dirs()
        if "multi_kernel_manager_class" not in given:
            vc.multi_kernel_manager_class = PalaceKernelManager
        if "default_pool_size" not in given:
            vc.default_pool_size = default_pool(max_pages=self._ceiling(pool=0))
        if "preheat_kernel" not in given:
            vc.preheat_kernel = vc.default_pool_size > 0
        resources = dict(given.get("resources") or {})
        resources["palace"] = {"max_upload_bytes": MAX_BYTES, "too_big": too_big_sentence()}
        if self.light_page:
            self.front_end = load_front_end(log=self.log)
        if self.front_end is not None:
            resources["palace"]["page"] = self.front_end.resources()
        elif self.bundle:
            self.scripts = build_bundle(self.static_paths, log=self.log)
        if self.scripts is not None:
            resources["palace"]["bundle"] = f"{BUNDLE_ROUTE}?v={self.scripts.digest}"
        given.resources = resources
        if self.keyfile and not self.certfile:
            raise ValueError("--keyfile needs --certfile")
        token = os.environ.get(ENV_TOKEN, "").strip()
        if token and len(token) < MIN_LENGTH:
            raise ValueError(f"{ENV_TOKEN} must be at least {MIN_LENGTH} characters long")
        os.environ[ENV_TOKEN] = token or new_token()  # the kernels inherit it
        os.environ["PALACE_SCHEME"] = "https" if self.certfile else "http"
        if self.fork_kernels and not forking_supported():
            self.log.info(
                "Palace: each page's kernel starts as a new process here (forking them from "
                "a zygote needs Linux 5.3 or later)"
            )
        elif self.fork_kernels:
            self.forking = True
            factory = KernelProvisionerFactory.instance(parent=self)
            if "default_provisioner_name" not in self.config.KernelProvisionerFactory:
                factory.default_provisioner_name = FORKING
            zygote().start()  # it imports the kernel and the app while the server starts
            atexit.register(zygote().stop)

    def _ceiling(self, pool: int) -> int:
        return self.max_kernels if self.max_kernels > 0 else default_max_pages(pool=pool)

    @property
    def pool_size(self) -> int:
        vc = self.voila_configuration
        return vc.default_pool_size if vc.preheat_kernel else 0

    def init_handlers(self) -> list:
        handlers = super().init_handlers()
        manager = self.kernel_manager
        self.admission = Admission(
            max_pages=self._ceiling(pool=self.pool_size),
            start_slots=self.start_slots if self.start_slots > 0 else default_start_slots(),
            is_alive=lambda kernel_id: kernel_id in manager,
            start_patience=self.start_patience,
        )
        door = {"admission": self.admission}
        ours = []
        for route in handlers:
            pattern, handler, *rest = route
            if handler is TornadoVoilaHandler:
                route = (pattern, PalaceRenderHandler, {**(rest[0] if rest else {}), **door})
            ours.append(route)
        status = url_path_join(self.server_url, "/palace/api/status")
        ours.insert(0, (status, PalaceStatusHandler, door))
        if self.front_end is not None:
            front = url_path_join(self.server_url, FRONT_END_ROUTE, "([^/]+)")
            ours.insert(0, (front, FrontEndHandler, {"front_end": self.front_end}))
        if self.scripts is not None:
            scripts = url_path_join(self.server_url, BUNDLE_ROUTE)
            ours.insert(0, (scripts, BundleHandler, {"bundle": self.scripts}))
        return ours

    def listen(self) -> None:
        door = self.admission
        culling = self.config.MappingKernelManager.get("cull_idle_timeout", 0)
        self.log.info(
            "Palace: at most %s pages at once, %s starting at a time (for up to %s s each), "
            "%s pre-heated app kernel(s), kernels %s, pages drawn by %s, pages idle without a "
            "connection culled after %s s, %s",
            door.max_pages if door else "?",
            door.start_slots if door else "?",
            f"{door.start_patience:g}" if door else "?",
            self.pool_size,
            "forked from a zygote" if self.forking else "started as new processes",
            "Palace's front end" if self.front_end else "Voilà's front end",
            culling or "never",
            "HTTPS" if self.certfile else "plain HTTP",
        )
        if self.certfile:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.certfile, self.keyfile or None)
            self.app.listen = functools.partial(self.app.listen, ssl_options=context)
            settings: dict[str, Any] = dict(getattr(self, "tornado_settings", {}))
            self.tornado_settings = {
                **settings,
                "xsrf_cookie_kwargs": {"secure": True},
            }
            self.app.settings.update(self.tornado_settings)
        IOLoop.current().add_callback(self._print_instructor_link)  # once the port is bound
        super().listen()

    def _print_instructor_link(self) -> None:
        print(f"Palace instructor link (keep it to yourself): {self.instructor_link()}", flush=True)

    def instructor_link(self) -> str:
        """The app's address with the token: "All cards", authoring and the class dashboard."""
        ip = self.ip if self.ip not in ("", "0.0.0.0", "::") else "<this machine's address>"
        app = "" if self.notebook_path else "voila/render/app.ipynb"
        return f"{self._url(ip)}{app}?{instructor_query(os.environ[ENV_TOKEN])}"

    def _url(self, ip: str) -> str:
        url = super()._url(ip)
        return "https" + url[len("http") :] if self.certfile else url


main = PalaceVoila.launch_instance
