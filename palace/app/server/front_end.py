"""The page's own front end: the app's widgets drawn without JupyterLab's application.

Voilà's page draws a notebook's widgets with a JupyterLab application: some 4 MB of script
(notebook model, editors, language server client, …) that each browser evaluates before it
draws anything, about a second of a browser's CPU per page. The page needs far less: a
connection to its kernel, ipywidgets' controls and JupyterLab's output renderers. That is
``light/src/page.js``, built with esbuild into ``light/dist/`` (``make page``; about a
quarter of the script). Voilà's server still runs the notebook and writes the page; this
script then draws each output in place, with the classes Voilà's front end gives it.

The server serves the built script and style sheet at ``voila/palace/page/NAME?v=DIGEST``,
gzipped and kept by browsers for good, and the page template loads them instead of
Voilà's. Without a build (no Node.js), or with ``--PalaceVoila.light_page=False``, the page
is Voilà's own, as before.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tornado.web

from palace.app.server.bundle import Asset, packed, send_for_good

DIST = Path(__file__).resolve().parent / "light" / "dist"
"""Where ``make page`` puts the built front end."""
SCRIPT = "palace-page.js"
STYLE = "palace-page.css"
ROUTE = "voila/palace/page/"
KINDS = {SCRIPT: "text/javascript", STYLE: "text/css"}
_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class FrontEnd:
    """The built script and style sheet."""

    assets: dict[str, Asset]

    def url(self, name: str) -> str:
        """The address of a file, relative to the server's base URL."""
        return f"{ROUTE}{name}?v={self.assets[name].digest}"

    def resources(self) -> dict[str, str]:
        """What the page template reads: the script's and the style sheet's addresses."""
        return {"script": self.url(SCRIPT), "style": self.url(STYLE)}


def load(folder: Path = DIST, *, log: logging.Logger | Any = _LOG) -> FrontEnd | None:
    """The built front end in `folder`, or None (the page is then Voilà's own)."""
    assets = {}
    for name in KINDS:
        path = folder / name
        if not path.is_file():
            log.warning(
                "Palace: pages use Voilà's own front end: %s is not built (make page needs "
                "Node.js and npm)",
                path,
            )
            return None
        body = path.read_bytes()
        gzipped, digest = packed(body)
        assets[name] = Asset(body=body, gzipped=gzipped, digest=digest)
    return FrontEnd(assets=assets)


class FrontEndHandler(tornado.web.RequestHandler):
    """``GET voila/palace/page/NAME``: a file of the built front end."""

    def initialize(self, front_end: FrontEnd) -> None:
        self._front_end = front_end

    def get(self, name: str) -> None:
        asset = self._front_end.assets.get(name)
        if asset is None:
            raise tornado.web.HTTPError(404)
        send_for_good(self, asset.body, asset.gzipped, asset.digest, KINDS[name])
