"""The hook lesson widgets call to record a student's answer: `record`, `join`, `AnswerRecorder`.

A widget that checks an answer (``CheckYourself``, a drill) takes an optional
``recorder``: any callable ``recorder(question_id, correct, detail)``. Given none, it calls
`record`, which records for the student of this page when there is one and does nothing
otherwise (a notebook run by a teacher, a test). The student of a page is the name given
to `join` in this kernel (the app's "Join the class" box), else the page's ``student=``
query value, else the ``palace_student`` cookie the app sets when a student joins (so the
lessons a student opens from the app know who they are; ``voila.json`` passes the Cookie
header to the kernel as ``HTTP_COOKIE``).

Recording never breaks a lesson: a database problem is logged and `record` returns False.

>>> import tempfile, pathlib
>>> from palace.classroom.store import ClassStore
>>> store = ClassStore(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")
>>> me = join("Ann", store=store)
>>> record("04/who-wins", True, "Cat wins")
True
>>> leave(); record("04/who-wins", True)  # nobody joined: nothing recorded
False
>>> store.summary().questions[0].right
1
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, unquote

from palace.classroom.store import ClassError, ClassStore, student_name

log = logging.getLogger("palace.classroom")

Recorder = Callable[[str, bool, str], object]
"""What a widget is given: ``recorder(question_id, correct, detail)``."""

COOKIE = "palace_student"  # set by the app's page script when a student joins


class AnswerRecorder:
    """Records one student's answers in a class store (the default store when None)."""

    def __init__(self, student: str, store: ClassStore | None = None) -> None:
        self.student = student_name(student)
        self._store = store

    @property
    def store(self) -> ClassStore:
        if self._store is None:
            self._store = ClassStore()
        return self._store

    def __repr__(self) -> str:
        return f"AnswerRecorder({self.student!r})"

    def __call__(self, question_id: str, correct: bool, detail: str = "") -> bool:
        """Record the answer; False (logged, never raised) if the database refused it."""
        try:
            self.store.record_answer(self.student, question_id, bool(correct), detail)
        except Exception:  # noqa: BLE001 - a lesson must go on without the class store
            log.exception("palace classroom: could not record %s's answer", self.student)
            return False
        return True


_current: AnswerRecorder | None = None


def join(student: str, store: ClassStore | None = None) -> AnswerRecorder:
    """This kernel's student from now on (ClassError for a bad name); joins the session."""
    global _current
    rec = AnswerRecorder(student, store)
    rec.store.join(rec.student)
    _current = rec
    return rec


def leave() -> None:
    """Nobody is recorded in this kernel any more (the page's own student is not read again)."""
    global _current, _page_read
    _current = None
    _page_read = True


_page_read = False


def current_recorder() -> AnswerRecorder | None:
    """The recorder of this page's student, or None when nobody has joined."""
    global _current, _page_read
    if _current is None and not _page_read:
        _page_read = True
        name = page_student()
        if name is not None:
            _current = AnswerRecorder(name)
    return _current


def record(question_id: str, correct: bool, detail: str = "") -> bool:
    """Record an answer for this page's student; False when nobody joined or it failed."""
    rec = current_recorder()
    return False if rec is None else rec(question_id, correct, detail)


def record_answer(
    student: str,
    question_id: str,
    correct: bool,
    detail: str = "",
    *,
    store: ClassStore | None = None,
) -> None:
    """Record one answer of a named student (raises `ClassError` on a bad value)."""
    (store or ClassStore()).record_answer(student, question_id, correct, detail)


def page_student(query: str | None = None, cookie: str | None = None) -> str | None:
    """The student named by the page: ``student=`` in the query string (QUERY_STRING),
    else the ``palace_student`` cookie (HTTP_COOKIE); None when neither gives a good name."""
    query = os.environ.get("QUERY_STRING", "") if query is None else query
    cookie = os.environ.get("HTTP_COOKIE", "") if cookie is None else cookie
    candidates = parse_qs(query, keep_blank_values=False).get("student", [])[:1]
    try:
        jar = SimpleCookie()
        jar.load(cookie)
        if COOKIE in jar:
            candidates.append(unquote(jar[COOKIE].value))
    except CookieError:
        pass
    for value in candidates:
        try:
            return student_name(value)
        except ClassError:
            continue
    return None
