"""Handouts: every lesson executed and written as one static HTML page that prints whole.

``make handouts`` (``python -m palace.app.handouts [OUT_DIR] [NOTEBOOK ...]``) runs each
lesson notebook (``notebooks/0*.ipynb``) with nbconvert, without its code cells, and
writes ``OUT_DIR/NAME.html`` plus an ``index.html`` linking them, for students without a
server. The panels are drawn from the widget state saved when the lesson ran, by
ipywidgets' own static renderer (``@jupyter-widgets/html-manager``'s ``embed.js``), copied
beside the pages (``OUT_DIR/_widgets/``) so a page needs no network: `widget_manager`
fetches the pinned package once with npm into ``build/vendor/`` (checked against its
SHA-256), or takes a folder from ``PALACE_WIDGET_MANAGER``. Without it (no npm, no copy)
each panel is printed as its text (its ``text()``). A stepping panel's whole hand and a
drill's answer are ``<details>`` blocks in the panel (`palace.widgets.whole_hand`): the
print stylesheet opens the whole hands before printing, and lets the page flow over as
many sheets as it needs (no clipped scroll boxes, no cut cards).
"""

from __future__ import annotations

import hashlib
import html
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from palace.widgets.stored_state import slim

if TYPE_CHECKING:
    from nbformat import NotebookNode

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
OUT = Path(__file__).resolve().parents[2] / "build" / "handouts"
VENDOR = Path(__file__).resolve().parents[2] / "build" / "vendor"
# ipywidgets 8's static renderer: its embed.js draws @jupyter-widgets/controls 2 models
# without require.js; pinned, and its embed.js checked, so a handout is drawn the same way.
HTML_MANAGER = "@jupyter-widgets/html-manager"
HTML_MANAGER_VERSION = "1.0.15"
EMBED_SHA256 = "8f6d2d3f856d8595d1841dec3019d99bbe74d331f2a5178c2a33bfec729e3d6a"
MANAGER_FILES = ("embed.js", "embed.js.LICENSE.txt")  # plus the icon fonts (*.woff2, *.woff)
ASSETS = "_widgets"  # the renderer's folder beside the pages
TIMEOUT = 600  # seconds a cell may run
WIDGET = "application/vnd.jupyter.widget-view+json"

PRINT_CSS = """<style>
@media print {
  html, body, .jp-Notebook, .jp-Cell, .jp-OutputArea, .jp-OutputArea-child,
  .jp-OutputArea-output, .widget-box, .widget-vbox, .widget-hbox, .jp-RenderedHTMLCommon {
    overflow: visible !important; height: auto !important; max-height: none !important; }
  body { margin: 0 !important; padding: 0 !important; }
  .jp-Cell, .palace-box, .palace-quiz-box, .palace-side, .palace-seat, table, figure, img,
  svg { break-inside: avoid; page-break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  .jp-InputPrompt, .jp-OutputPrompt { display: none !important; }
  a[href]::after { content: ""; }
}
.jp-OutputArea-output pre { white-space: pre-wrap; }
.palace-handout-note { font: 14px system-ui, sans-serif; color: #555; margin: 8px 0 16px; }
</style>"""
# A printed page cannot open a <details>: the whole hands open before printing.
OPEN_FOR_PRINT = """<script>
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details.palace-whole-hand").forEach(function (d) { d.open = true; });
});
</script>"""


def lessons(folder: Path = NOTEBOOKS) -> list[Path]:
    """The lesson notebooks: ``0*.ipynb`` (not the app, not the class dashboard)."""
    return sorted(folder.glob("0*.ipynb"))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _usable(folder: Path) -> bool:
    embed = folder / "embed.js"
    return embed.is_file() and _sha256(embed) == EMBED_SHA256


def widget_manager(cache: Path = VENDOR) -> Path | None:
    """The folder of the static widget renderer (``embed.js`` and its icon fonts), or None.

    ``PALACE_WIDGET_MANAGER`` names a folder holding it; else the copy in `cache`, fetched
    there once with ``npm pack`` (the pinned `HTML_MANAGER_VERSION`). A copy whose
    ``embed.js`` does not match `EMBED_SHA256` is not used."""
    given = os.environ.get("PALACE_WIDGET_MANAGER")
    if given:
        folder = Path(given)
        if not _usable(folder):
            print(f"handouts: {folder}/embed.js is not html-manager {HTML_MANAGER_VERSION}")
            return None
        return folder
    folder = cache / f"html-manager-{HTML_MANAGER_VERSION}"
    if _usable(folder):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        print("handouts: npm not found, so the panels are printed as text")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            subprocess.run(
                [npm, "pack", f"{HTML_MANAGER}@{HTML_MANAGER_VERSION}", "--silent"],
                cwd=tmp,
                check=True,
                capture_output=True,
                timeout=300,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"handouts: npm pack {HTML_MANAGER} failed ({exc}): panels printed as text")
            return None
        packs = list(Path(tmp).glob("*.tgz"))
        if not packs:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        with tarfile.open(packs[0]) as tar:
            for member in tar.getmembers():
                name = member.name.removeprefix("package/dist/")
                if (
                    member.isfile()
                    and "/" not in name
                    and (name in MANAGER_FILES or name.endswith((".woff2", ".woff")))
                ):
                    data = tar.extractfile(member)
                    if data is not None:
                        (folder / name).write_bytes(data.read())
    if not _usable(folder):
        print(f"handouts: the fetched embed.js does not match {EMBED_SHA256[:12]}…")
        shutil.rmtree(folder, ignore_errors=True)
        return None
    return folder


def install_manager(manager: Path, out_dir: Path) -> Path:
    """Copy the renderer beside the pages (``OUT_DIR/_widgets``); its folder."""
    target = out_dir / ASSETS
    target.mkdir(parents=True, exist_ok=True)
    for f in manager.iterdir():
        if f.is_file():
            shutil.copyfile(f, target / f.name)
    return target


def _without_views(nb: NotebookNode) -> None:
    """Each panel as its text (no renderer): the views and the stored state go."""
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET in data and "text/plain" in data:
                del data[WIDGET]
    nb.metadata.pop("widgets", None)


def handout(notebook: Path, out_dir: Path, *, manager: Path | None = None) -> Path:
    """Execute one notebook and write it as a static HTML page; the page's path.

    manager: the static widget renderer's folder (`widget_manager`): the panels are drawn
    from their saved state (copied to ``OUT_DIR/_widgets`` by `install_manager`). None:
    each panel is printed as its text."""
    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    nb = nbformat.read(notebook, as_version=4)
    ExecutePreprocessor(timeout=TIMEOUT, store_widget_state=manager is not None).preprocess(
        nb, {"metadata": {"path": str(notebook.parent)}}
    )
    if manager is None:
        _without_views(nb)
    else:
        slim(nb)
    exporter = HTMLExporter(template_name="lab")
    exporter.exclude_input = True
    exporter.exclude_input_prompt = True
    exporter.exclude_output_prompt = True
    exporter.widget_renderer_url = f"{ASSETS}/embed.js"
    body, _ = exporter.from_notebook_node(nb)
    # require.js (from a CDN) serves only embed-amd.js; the page loads embed.js itself
    body = body.replace(f'<script src="{exporter.require_js_url}"></script>', "", 1)
    # no lesson writes mathematics: MathJax (from a CDN) would only hold up an offline page
    body = body.replace(f'<script src="{exporter.mathjax_url}"> </script>', "", 1)
    if manager is None:
        shown = "The panels are printed as the text they show; they are interactive in the app"
    else:
        shown = (
            "The panels are drawn as they were when the lesson ran (open “the whole hand, "
            "step by step” to read a hand move by move, “Show the answer” under a question); "
            "they answer your clicks only in the app"
        )
    note = (
        '<div class="palace-handout-note">Palace handout: this lesson as it ran, without its '
        f"code. {shown} (<code>make app</code>).</div>"
    )
    body = body.replace("</head>", PRINT_CSS + OPEN_FOR_PRINT + "</head>", 1)
    body = body.replace("<main>", "<main>" + note, 1) if "<main>" in body else body
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{notebook.stem}.html"
    target.write_text(body, encoding="utf-8")
    return target


def index(pages: Sequence[Path], out_dir: Path) -> Path:
    items = "".join(
        f'<li><a href="{html.escape(p.name)}">{html.escape(p.stem.replace("_", " "))}</a></li>'
        for p in pages
    )
    target = out_dir / "index.html"
    target.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Palace handouts'
        "</title></head><body><h1>Palace Poker: the lessons</h1><ul>" + items + "</ul></body>"
        "</html>\n",
        encoding="utf-8",
    )
    return target


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args[0]) if args else OUT
    books = [Path(a) for a in args[1:]] or lessons()
    manager = widget_manager()
    if manager is not None:
        print(f"handouts: panels drawn by {HTML_MANAGER} {HTML_MANAGER_VERSION} ({manager})")
        install_manager(manager, out_dir)
    pages = []
    for nb in books:
        print(f"handout: {nb.name}", flush=True)
        pages.append(handout(nb, out_dir, manager=manager))
    print(f"wrote {len(pages)} handouts and {index(pages, out_dir)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
