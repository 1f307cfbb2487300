"""The app's Lessons tab: links to each lesson notebook, titled from its first heading."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ipywidgets import HTML, Button, Layout, VBox

from palace.app.common import guard, message_html
from palace.scenarios import MAX_BYTES
from palace.widgets.theme import esc, root

LESSON_DIR = Path(__file__).resolve().parents[2] / "notebooks"
APP_NOTEBOOK = "app.ipynb"
TEACHER_NOTEBOOK = "class.ipynb"  # the teacher's dashboard is not a lesson


@dataclass(frozen=True)
class Lesson:
    file: str
    title: str
    about: str


_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"(\*\*|__|\*|`)")


def _plain(markdown: str) -> str:
    """Markdown prose as plain text: links keep their words, emphasis and code marks go."""
    text = _MD_LINK.sub(r"\1", markdown)
    text = _MD_MARKS.sub("", text)
    return " ".join(text.lstrip("> ").split())


def _notebook_title(path: Path, limit: int = 170) -> tuple[str, str]:
    """A notebook's first heading and the first paragraph after it (plain text)."""
    fallback = path.stem.replace("_", " ").strip()
    try:
        if path.stat().st_size > 20 * MAX_BYTES:
            return fallback, ""
        nb = json.loads(path.read_text("utf-8"))
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "markdown":
                continue
            src = cell.get("source", "")
            text = src if isinstance(src, str) else "".join(src)
            lines = text.splitlines()
            heading = next((i for i, ln in enumerate(lines) if ln.startswith("#")), None)
            if heading is None:
                continue
            title = _plain(lines[heading].lstrip("#")) or fallback
            rest = "\n".join(lines[heading + 1 :])
            paragraphs = [p.strip() for p in re.split(r"\n\s*\n", rest) if p.strip()]
            about = ""
            for p in paragraphs:
                if not p.startswith(("#", "|", "```", "<", "!", "$")):
                    about = _plain(p)
                    break
            if len(about) > limit:
                about = about[: limit - 1].rsplit(" ", 1)[0] + "…"
            elif about.endswith(":"):
                about = about[:-1] + "…"  # the list or table it introduces is in the lesson
            return title, about
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    return fallback, ""


def lesson_notebooks(folder: str | Path = LESSON_DIR) -> list[Lesson]:
    """Every ``*.ipynb`` in `folder` except the app, in file-name order, with its title."""
    root_ = Path(folder)
    if not root_.is_dir():
        return []
    out = []
    for p in sorted(root_.glob("*.ipynb")):
        if p.name in (APP_NOTEBOOK, TEACHER_NOTEBOOK):
            continue
        title, about = _notebook_title(p)
        out.append(Lesson(p.name, title, about))
    return out


class LessonsTab(VBox):
    """Links that open each lesson notebook rendered by Voilà, in a new browser tab.

    With ``make app`` Voilà serves the notebooks folder: the app is
    ``/voila/render/app.ipynb`` and a lesson ``/voila/render/NAME.ipynb``, so a link
    relative to the app's page, ``./NAME.ipynb``, opens it. (``../render/NAME.ipynb`` reaches
    the same page there, but not when Voilà runs inside Jupyter Server, on JupyterHub or
    Binder, where the app is ``.../voila/render/notebooks/app.ipynb``: the sibling link
    works in both.)
    """

    def __init__(self, folder: str | Path = LESSON_DIR) -> None:
        self.folder = Path(folder)
        self.html = HTML(layout=Layout(width="100%"))
        self.refresh_button = Button(
            description="Refresh list", icon="refresh", layout=Layout(width="140px")
        )
        self.refresh_button.on_click(self._on_refresh)
        super().__init__(
            [self.html, self.refresh_button], layout=Layout(width="100%", grid_gap="8px")
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-lessons")
        self.lessons: list[Lesson] = []
        self.refresh()

    @staticmethod
    def href(name: str) -> str:
        return f"./{name}"

    def refresh(self) -> None:
        self.lessons = lesson_notebooks(self.folder)
        script = os.environ.get("SCRIPT_NAME", "")
        single = bool(script) and not script.endswith(".ipynb")
        warn = ""
        if single:
            warn = message_html(
                "This server shows only the app notebook, so lesson links cannot open: serve "
                "the notebooks folder instead (make app, or voila notebooks/).",
                ok=False,
            )
        if not self.lessons:
            self.html.value = warn + root(
                '<div class="palace-note">No lesson notebooks yet in '
                f"<code>{esc(self.folder.name)}/</code>.</div>"
            )
            return
        items = []
        for lesson in self.lessons:
            about = (
                f'<div class="palace-lesson-about">{esc(lesson.about)}</div>'
                if lesson.about
                else ""
            )
            items.append(
                f'<li><a href="{esc(self.href(lesson.file))}" target="_blank" rel="noopener">'
                f"{esc(lesson.title)}</a>"
                f'<span class="palace-lesson-file">{esc(lesson.file)}</span>{about}</li>'
            )
        self.html.value = warn + root(
            '<div class="palace-box-title">Lessons</div>'
            '<div class="palace-note">Each link opens the lesson, run by Voilà, in a new '
            "browser tab (with its own kernel, so it starts fresh).</div>"
            f'<ul class="palace-lessons">{"".join(items)}</ul>'
        )

    @guard
    def _on_refresh(self, _: Button) -> None:
        self.refresh()

    def say(self, text: str, *, ok: bool) -> None:
        self.html.value = message_html(text, ok=ok) + self.html.value

    def text(self) -> str:
        return "\n".join(f"{lesson.title} -> {self.href(lesson.file)}" for lesson in self.lessons)
