"""Voilà's front end in one script: the page's seventy-odd script chunks in one gzipped response.

Voilà's page loads its front end as some seventy webpack chunks, one request each, about
4 MB in all, uncompressed. Thirty browsers opening the app at once make some 3,000 requests
of the server, and each browser spends much of its start on them. The chunks are plain
``(self.webpackChunk…||[]).push(…)`` scripts: loaded together ahead of Voilà's own
``voila.js``, they are simply there when its loader asks for them, and it fetches none.

So the server reads the chunks the app page needs (`CHUNKS`, recorded for the Voilà
release `make app` installs) once at start, joins them, gzips the result, and serves it at
``voila/palace/bundle.js?v=DIGEST`` (cached by browsers for good: a new bundle has a new
digest). The page template loads it first. A chunk missing from the bundle is fetched by
Voilà as before, so a page always works; with another Voilà release the bundle is left out
(the server says so) until ``python -m palace.app.server.bundle`` records the new list.

Only Voilà's own chunks are joined: the widget manager's extension chunks keep loading as
Voilà loads them (joined too, they let the page draw a widget before its model arrived).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import tornado.web

CHUNKS = Path(__file__).resolve().parent / "voila_chunks.json"
"""``{"voila": VERSION, "chunks": [file names in the order the page loads them]}``."""

ROUTE = "voila/palace/bundle.js"
CHUNK_NAME = re.compile(r"^\d+\.voila\.js$")
_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Asset:
    """A file served for good: plain and gzipped, and the digest that names this version."""

    body: bytes
    gzipped: bytes
    digest: str


@dataclass(frozen=True)
class Bundle(Asset):
    """The joined chunks (their names, in order) as one script."""

    chunks: tuple[str, ...]


def find(name: str, static_paths: Sequence[str]) -> Path | None:
    """Where Voilà serves ``voila/static/<name>`` from (its first static path holding it)."""
    for folder in static_paths:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


def read_list(path: Path = CHUNKS) -> tuple[str, list[str]]:
    """The recorded Voilà version and chunk names; a malformed file names its fault."""
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("voila"), str):
        raise ValueError(f"{path.name}: 'voila' must be the Voilà version the list was made for")
    chunks = data.get("chunks")
    if not isinstance(chunks, list) or not all(
        isinstance(c, str) and CHUNK_NAME.match(c) for c in chunks
    ):
        raise ValueError(f"{path.name}: 'chunks' must be a list of names like '1234.voila.js'")
    return data["voila"], chunks


def build(
    static_paths: Sequence[str],
    *,
    listing: Path = CHUNKS,
    voila_version: str | None = None,
    log: logging.Logger | Any = _LOG,
) -> Bundle | None:
    """The bundle of the recorded chunks found in `static_paths`, or None (a list made for
    another Voilà, or no chunk found): the page then loads Voilà's chunks one by one."""
    try:
        made_for, names = read_list(listing)
    except (OSError, ValueError) as exc:
        log.warning("Palace: Voilà's chunks are served one by one (%s)", exc)
        return None
    installed = voila_version if voila_version is not None else version("voila")
    if made_for != installed:
        log.warning(
            "Palace: Voilà's chunks are served one by one: the list was recorded for Voilà %s "
            "and this is Voilà %s (python -m palace.app.server.bundle records it anew)",
            made_for,
            installed,
        )
        return None
    parts, found = [], []
    for name in names:
        path = find(name, static_paths)
        if path is None:
            log.warning(
                "Palace: the chunk %s is not installed: Voilà will fetch what it needs", name
            )
            continue
        parts.append(path.read_bytes().rstrip() + b"\n;\n")
        found.append(name)
    if not parts:
        return None
    body = b"".join(parts)
    gzipped, digest = packed(body)
    return Bundle(body=body, gzipped=gzipped, digest=digest, chunks=tuple(found))


def packed(body: bytes) -> tuple[bytes, str]:
    """A file served for good: gzipped once, and the digest that names this version."""
    return gzip.compress(body, compresslevel=9, mtime=0), hashlib.sha256(body).hexdigest()[:20]


class BundleHandler(tornado.web.RequestHandler):
    """``GET voila/palace/bundle.js``: the bundle, gzipped for a browser that accepts it,
    kept by the browser for good (its address carries the digest)."""

    def initialize(self, bundle: Bundle) -> None:
        self._bundle = bundle

    def get(self) -> None:
        bundle = self._bundle
        send_for_good(self, bundle.body, bundle.gzipped, bundle.digest, "text/javascript")


def send_for_good(
    handler: tornado.web.RequestHandler, body: bytes, gzipped: bytes, digest: str, kind: str
) -> None:
    """Answer with a file whose address carries its digest: kept by the browser for good,
    gzipped for a browser that accepts it, and "not modified" for one that has it."""
    handler.set_header("Content-Type", f"{kind}; charset=utf-8")
    handler.set_header("Cache-Control", "public, max-age=31536000, immutable")
    handler.set_header("Vary", "Accept-Encoding")
    handler.set_header("ETag", f'"{digest}"')
    if handler.request.headers.get("If-None-Match", "") == f'"{digest}"':
        handler.set_status(304)
        return
    if "gzip" in handler.request.headers.get("Accept-Encoding", ""):
        handler.set_header("Content-Encoding", "gzip")
        handler.finish(gzipped)
    else:
        handler.finish(body)


# ---------------------------------------------------------------------- recording the list
def record(url: str, chromium: str = "/usr/bin/chromium", timeout: float = 120.0) -> list[str]:
    """Open `url` (the app page of a server started without the bundle) in Chromium; the
    Voilà chunks it fetched, in order, until its Play table was drawn and two quiet seconds
    after."""
    import asyncio

    from playwright.async_api import async_playwright

    async def run() -> list[str]:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            page = await browser.new_page()
            names: list[str] = []

            def note(request: Any) -> None:
                name = request.url.split("?")[0].rsplit("/", 1)[-1]
                if "/voila/static/" in request.url and CHUNK_NAME.match(name):
                    names.append(name)

            page.on("request", note)
            await page.goto(url)
            await page.wait_for_selector(".palace-table", timeout=timeout * 1000)
            await asyncio.sleep(2)
            await browser.close()
            return list(dict.fromkeys(names))

    return asyncio.run(run())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m palace.app.server.bundle``: record the chunks the app page loads with the
    Voilà installed here, into `CHUNKS` (a maintainer's step after upgrading Voilà)."""
    import argparse
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[3]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "palace.app.server",
            "notebooks/",
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--pool_size=0",
            "--PalaceVoila.bundle=False",
            "--PalaceVoila.light_page=False",  # the page Voilà's front end draws
        ],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}/"
        for _ in range(240):
            try:
                urllib.request.urlopen(base + "palace/api/status", timeout=2).close()
                break
            except OSError:
                time.sleep(0.5)
        names = record(base + "voila/render/app.ipynb", args.chromium)
    finally:
        server.terminate()
        server.wait(timeout=30)
    CHUNKS.write_text(
        json.dumps({"voila": version("voila"), "chunks": names}, indent=1) + "\n", "utf-8"
    )
    print(f"{len(names)} chunks of Voilà {version('voila')} recorded in {CHUNKS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
