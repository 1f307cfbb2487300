"""Handouts: every lesson executed and written as one static HTML page that prints whole.

``make handouts`` (``python -m palace.app.handouts [OUT_DIR] [NOTEBOOK ...]``) runs each
lesson notebook (``notebooks/0*.ipynb``) with nbconvert, without its code cells, and
writes ``OUT_DIR/NAME.html`` plus an ``index.html`` linking them, for students without a
server. The interactive panels need a kernel: a handout shows each panel as the text it
prints (its ``text()``), so nothing needs a network or a script. A print stylesheet lets
the page flow over as many sheets as it needs (no clipped scroll boxes, no cut cards).
"""

from __future__ import annotations

import html
import sys
from collections.abc import Sequence
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
OUT = Path(__file__).resolve().parents[2] / "build" / "handouts"
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


def lessons(folder: Path = NOTEBOOKS) -> list[Path]:
    """The lesson notebooks: ``0*.ipynb`` (not the app, not the class dashboard)."""
    return sorted(folder.glob("0*.ipynb"))


def handout(notebook: Path, out_dir: Path) -> Path:
    """Execute one notebook and write it as a static HTML page; the page's path."""
    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    nb = nbformat.read(notebook, as_version=4)
    ExecutePreprocessor(timeout=TIMEOUT, store_widget_state=False).preprocess(
        nb, {"metadata": {"path": str(notebook.parent)}}
    )
    for cell in nb.cells:  # a panel needs a kernel (and a CDN): print what it shows instead
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET in data and "text/plain" in data:
                del data[WIDGET]
    nb.metadata.pop("widgets", None)
    exporter = HTMLExporter(template_name="lab")
    exporter.exclude_input = True
    exporter.exclude_input_prompt = True
    exporter.exclude_output_prompt = True
    body, _ = exporter.from_notebook_node(nb)
    note = (
        '<div class="palace-handout-note">Palace handout: this lesson as it ran, without its '
        "code. The panels are interactive only in the app (<code>make app</code>).</div>"
    )
    body = body.replace("</head>", PRINT_CSS + "</head>", 1)
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
    pages = []
    for nb in books:
        print(f"handout: {nb.name}", flush=True)
        pages.append(handout(nb, out_dir))
    print(f"wrote {len(pages)} handouts and {index(pages, out_dir)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
