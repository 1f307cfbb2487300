"""The teacher's class dashboard (``notebooks/class.ipynb``): every question's right and wrong
answers, who is stuck, who joined, and the position pushed to the class, refreshed live.

Only the teacher's page shows it (`class_page`): under Voilà the page's link must carry the
instructor's token; a notebook run in one's own Jupyter (no Voilà) is the teacher's. The
refresh is driven by the browser: a small `Play` widget ticks every two seconds while the
page is open and each tick reads the class store once (no thread in the kernel).
"""

from __future__ import annotations

import time

from ipywidgets import HTML, Button, Layout, VBox

from palace.app.common import flow_row, guard, message_html, titled_box
from palace.app.deep_links import page_query, parse_link
from palace.app.teacher import page_is_teachers
from palace.app.ticker import Ticker
from palace.classroom import ClassStore, ClassSummary
from palace.classroom.store import summarise
from palace.widgets.theme import esc, root, style_widget
from palace.words import plural

REFRESH_MS = 2000

DASHBOARD_CSS = """<style>
.palace-class table { border-collapse: collapse; font-size: 15px; width: 100%; }
.palace-class th, .palace-class td { padding: 5px 10px; border-bottom: 1px solid #e5e7eb;
  text-align: left; }
.palace-class thead th { background: #f1f5f9; }
.palace-class td.num { text-align: right; font-variant-numeric: tabular-nums; width: 70px; }
.palace-class .right { color: #166534; font-weight: 700; }
.palace-class .wrong { color: #991b1b; font-weight: 700; }
.palace-class .stuck { color: #991b1b; }
.palace-class-bar { display: inline-block; height: 10px; border-radius: 5px;
  background: #15803d; vertical-align: middle; }
.palace-class-bar.wrong-bar { background: #dc2626; }
</style>"""


class TeacherOnly(VBox):
    """What anyone but the teacher sees on a teacher's page."""

    def __init__(self) -> None:
        self.notice = HTML(
            root(
                '<div class="palace-alert" role="alert">This page is for the teacher. Open it '
                "with the instructor link that <code>make app</code> printed.</div>"
            )
        )
        super().__init__([style_widget(), self.notice])
        self.add_class("palace-teacher-only")

    def text(self) -> str:
        return "This page is for the teacher."

    def __repr__(self) -> str:
        return "TeacherOnly()"


class ClassDashboard(VBox):
    """Right/wrong counts per question, stuck students and the latest push, refreshed live."""

    def __init__(self, store: ClassStore | None = None, *, live: bool = True) -> None:
        self.store = store or ClassStore()
        self.refresh_button = Button(
            description="Refresh", icon="refresh", layout=Layout(width="120px")
        )
        self.clear_button = Button(
            description="Start a new lesson",
            icon="eraser",
            tooltip="forget this session's answers (asks first)",
            layout=Layout(width="190px"),
        )
        self.confirm_button = Button(
            description="Yes, forget every answer",
            button_style="danger",
            layout=Layout(width="220px", display="none"),
        )
        self.ticker = Ticker(REFRESH_MS, live=live)  # the browser's timer drives the refresh
        self.heading = HTML()
        self.questions = HTML()
        self.students = HTML()
        self.pushed = HTML()
        self.message = HTML()
        self.refresh_button.on_click(self._on_refresh)
        self.clear_button.on_click(self._on_clear)
        self.confirm_button.on_click(self._on_confirm)
        self.ticker.observe(self._on_tick, names="value")
        css = style_widget()
        css.value += DASHBOARD_CSS
        super().__init__(
            [
                css,
                self.heading,
                flow_row(self.refresh_button, self.clear_button, self.confirm_button, self.ticker),
                self.message,
                titled_box("Questions", self.questions),
                titled_box("Students", self.students),
                titled_box("Pushed to the class", self.pushed),
            ],
            layout=Layout(width="100%", grid_gap="10px", max_width="1100px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-class")
        self.summary: ClassSummary = summarise(self.store.session, [], [])
        self.refreshed_at = 0.0
        self.refresh()

    def __repr__(self) -> str:
        return f"ClassDashboard(session={self.store.session!r})"

    def say(self, text: str, *, ok: bool) -> None:
        self.message.value = message_html(text, ok=ok)

    # ------------------------------------------------------------------ public
    def refresh(self) -> ClassSummary:
        """Read the class store once and redraw (an empty class when there is none yet)."""
        if self.store.exists():
            self.summary = self.store.summary()
            push = self.store.latest_push()
        else:
            self.summary, push = summarise(self.store.session, [], []), None
        self.refreshed_at = time.time()
        s = self.summary
        self.heading.value = root(
            '<span class="palace-title">The class</span> '
            f'<span class="palace-subtitle">session “{esc(s.session)}” · '
            f"{plural(len(s.students), 'student')} · {plural(s.answers, 'answer')} · "
            f"{len(s.stuck)} stuck · updated {time.strftime('%H:%M:%S')} · "
            f"{esc(self.store.where)}</span>"
        )
        self.questions.value = root(self._questions_html())
        self.students.value = root(self._students_html())
        if push is None:
            self.pushed.value = root('<div class="palace-note">Nothing pushed yet.</div>')
        else:
            self.pushed.value = root(
                f"<div><b>{esc(push.note or 'A position')}</b> · <code>?{esc(push.query)}</code>"
                f" · at {time.strftime('%H:%M:%S', time.localtime(push.at))}</div>"
            )
        return s

    def text(self) -> str:
        """The dashboard in plain text."""
        s = self.summary
        lines = [
            f"Session {s.session}: {plural(len(s.students), 'student')}, "
            f"{plural(s.answers, 'answer')}"
        ]
        if not s.questions:
            lines.append("No answers yet.")
        for q in s.questions:
            stuck = f" · stuck: {', '.join(q.stuck)}" if q.stuck else ""
            lines.append(f"{q.question}: {q.right} right, {q.wrong} wrong{stuck}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ drawing
    def _questions_html(self) -> str:
        s = self.summary
        if not s.questions:
            return (
                '<div class="palace-note">No answers yet. Students join in the app (their name '
                "at the top), then every check-yourself and drill answer appears here.</div>"
            )
        rows = []
        for q in s.questions:
            total = max(q.answers, 1)
            bar = (
                f'<span class="palace-class-bar" style="width:{120 * q.right // total}px"></span>'
                f'<span class="palace-class-bar wrong-bar" '
                f'style="width:{120 * q.wrong // total}px"></span>'
            )
            stuck = ", ".join(esc(n) for n in q.stuck) or "—"
            rows.append(
                f"<tr><td>{esc(q.question)}</td><td class='num right'>{q.right}</td>"
                f"<td class='num wrong'>{q.wrong}</td><td class='num'>{q.students}</td>"
                f"<td>{bar}</td><td class='stuck'>{stuck}</td></tr>"
            )
        return (
            "<table><thead><tr><th>Question</th><th>Right</th><th>Wrong</th><th>Students</th>"
            "<th></th><th>Stuck (wrong twice, not yet right)</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )

    def _students_html(self) -> str:
        s = self.summary
        if not s.students:
            return '<div class="palace-note">Nobody has joined yet.</div>'
        rows = []
        for st in s.students:
            stuck = ", ".join(esc(q) for q in st.stuck_on) or "—"
            rows.append(
                f"<tr><td>{esc(st.name)}</td><td class='num right'>{st.right}</td>"
                f"<td class='num wrong'>{st.wrong}</td><td class='stuck'>{stuck}</td></tr>"
            )
        return (
            "<table><thead><tr><th>Student</th><th>Right</th><th>Wrong</th><th>Stuck on</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        )

    # ------------------------------------------------------------------ callbacks
    @guard
    def _on_tick(self, _: dict) -> None:
        self.refresh()

    @guard
    def _on_refresh(self, _: Button) -> None:
        self.refresh()

    def _on_clear(self, _: Button) -> None:
        self.confirm_button.layout.display = None
        self.say("Forget every answer of this session? Press the red button to confirm.", ok=False)

    @guard
    def _on_confirm(self, _: Button) -> None:
        self.store.clear()
        self.confirm_button.layout.display = "none"
        self.say("A new lesson: the session's answers, students and pushes are forgotten.", ok=True)
        self.refresh()


def class_page(store: ClassStore | None = None, query: str | None = None) -> VBox:
    """The dashboard for the teacher's page, `TeacherOnly` for anyone else (`query`: the
    page's query string, default this page's own)."""
    link = parse_link(page_query() if query is None else query)
    if not page_is_teachers(link.instructor):
        return TeacherOnly()
    return ClassDashboard(store)
