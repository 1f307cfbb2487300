"""The class store: 30 students answering at once lose nothing, bad values are refused, the
recorder hook lesson widgets call, and the SQLAlchemy path (PALACE_CLASS_DB)."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import threading
from pathlib import Path

import pytest

from palace.classroom import (
    ClassError,
    ClassStore,
    current_recorder,
    join,
    leave,
    page_student,
    record,
    record_answer,
)

STUDENTS = 30
QUESTIONS = ("01/deck", "04/who-wins", "05/exclusion", "06/fold")
ROUNDS = 3  # each student answers every question this many times


def expected_answer(student: int, question: int, attempt: int) -> bool:
    """A fixed pattern of right and wrong answers, so the totals are known beforehand."""
    return (student * 7 + question * 3 + attempt) % 4 == 0


def one_student(where: str, student: int, start, failures) -> None:  # noqa: ANN001
    """A student's kernel: its own store object, answering as fast as it can."""
    store = ClassStore(where)
    start.wait()
    try:
        store.join(f"Student {student:02d}")
        for attempt in range(ROUNDS):
            for q, question in enumerate(QUESTIONS):
                store.record_answer(
                    f"Student {student:02d}",
                    question,
                    expected_answer(student, q, attempt),
                    f"attempt {attempt}",
                )
    except Exception as exc:  # noqa: BLE001 - the parent asserts there is none
        failures.put(f"{student}: {type(exc).__name__}: {exc}")


def expected_totals() -> dict[str, tuple[int, int]]:
    totals = {}
    for q, question in enumerate(QUESTIONS):
        right = sum(expected_answer(s, q, a) for s in range(STUDENTS) for a in range(ROUNDS))
        totals[question] = (right, STUDENTS * ROUNDS - right)
    return totals


def test_thirty_students_in_separate_processes_lose_nothing(tmp_path: Path) -> None:
    where = str(tmp_path / "class.sqlite3")  # a fresh file: the tables are created in the race
    ctx = mp.get_context("spawn")
    start, failures = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=one_student, args=(where, s, start, failures)) for s in range(STUDENTS)
    ]
    for p in procs:
        p.start()
    start.set()
    reads = 0
    board = ClassStore(where)  # the teacher's dashboard reads while the class writes
    while any(p.is_alive() for p in procs):
        if board.exists():
            board.summary()  # raises on "database is locked"
            reads += 1
    for p in procs:
        p.join(timeout=300)
        assert p.exitcode == 0
    problems = []
    while not failures.empty():
        problems.append(failures.get())
    assert problems == []  # in particular no "database is locked"

    summary = ClassStore(where).summary()
    assert len(summary.students) == STUDENTS
    assert summary.answers == STUDENTS * ROUNDS * len(QUESTIONS)
    got = {q.question: (q.right, q.wrong) for q in summary.questions}
    assert got == expected_totals()
    assert all(q.students == STUDENTS for q in summary.questions)
    # per student, the same numbers again
    for s, st in enumerate(sorted(summary.students, key=lambda x: x.name)):
        right = sum(expected_answer(s, q, a) for q in range(len(QUESTIONS)) for a in range(ROUNDS))
        assert (st.right, st.wrong) == (right, ROUNDS * len(QUESTIONS) - right)
    # the default store is in WAL mode: readers do not wait for writers
    mode = sqlite3.connect(where).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_thirty_students_as_threads_of_one_process(tmp_path: Path) -> None:
    """Threads sharing one ClassStore object (a kernel with callbacks on several threads)."""
    store = ClassStore(tmp_path / "threads.sqlite3")
    barrier = threading.Barrier(STUDENTS)
    errors: list[str] = []

    def student(s: int) -> None:
        barrier.wait()
        try:
            for attempt in range(ROUNDS):
                for q, question in enumerate(QUESTIONS):
                    store.record_answer(f"S{s}", question, expected_answer(s, q, attempt), "thread")
        except Exception as exc:  # noqa: BLE001
            errors.append(str(exc))

    threads = [threading.Thread(target=student, args=(s,)) for s in range(STUDENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    got = {q.question: (q.right, q.wrong) for q in store.summary().questions}
    assert got == expected_totals()


def test_stuck_means_wrong_twice_and_never_right(tmp_path: Path) -> None:
    store = ClassStore(tmp_path / "c.sqlite3")
    store.join("Dee")  # joined, never answered: listed with nothing
    store.record_answer("Ann", "q1", False)
    store.record_answer("Ann", "q1", False)
    store.record_answer("Bob", "q1", False)
    store.record_answer("Bob", "q1", False)
    store.record_answer("Bob", "q1", True)  # got there in the end: not stuck
    store.record_answer("Cat", "q1", False)  # one wrong answer: not stuck yet
    s = store.summary()
    (q1,) = s.questions
    assert (q1.right, q1.wrong, q1.students, q1.stuck) == (1, 5, 3, ("Ann",))
    assert s.stuck == ("Ann",)
    by_name = {st.name: st for st in s.students}
    assert (by_name["Dee"].right, by_name["Dee"].wrong) == (0, 0)
    assert by_name["Ann"].stuck_on == ("q1",)


def test_sessions_are_apart_and_clear_forgets_one(tmp_path: Path) -> None:
    where = tmp_path / "c.sqlite3"
    a, b = ClassStore(where, session="monday"), ClassStore(where, session="tuesday")
    a.record_answer("Ann", "q", True)
    b.record_answer("Bob", "q", False)
    assert [st.name for st in a.summary().students] == ["Ann"]
    a.clear()
    assert a.summary().answers == 0
    assert b.summary().answers == 1


@pytest.mark.parametrize(
    ("student", "question", "correct", "words"),
    [
        ("", "q", True, "non-empty name"),
        ("x" * 41, "q", True, "at most 40"),
        ("Ann\x00", "q", True, "not allowed"),
        (7, "q", True, "must be a name"),
        ("Ann", "", True, "non-empty"),
        ("Ann", "a\nb", True, "one line"),
        ("Ann", "q" * 201, True, "at most 200"),
        ("Ann", "q", "yes", "true or false"),
        ("Ann", "q", 1, "true or false"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_written(
    tmp_path: Path, student: object, question: object, correct: object, words: str
) -> None:
    store = ClassStore(tmp_path / "c.sqlite3")
    with pytest.raises(ClassError, match=words):
        store.record_answer(student, question, correct)  # type: ignore[arg-type]
    assert store.summary().answers == 0
    assert store.students() == ()


def test_pushes_latest_wins(tmp_path: Path) -> None:
    store = ClassStore(tmp_path / "c.sqlite3")
    assert store.latest_push() is None
    store.push("scenario=01-quiet-round-showdown&event=3", "first")
    second = store.push("seed=12&players=4", "look at this battle", hand='{"x": 1}')
    got = store.latest_push()
    assert got is not None
    assert (got.id, got.query, got.note, got.hand) == (
        second.id,
        "seed=12&players=4",
        "look at this battle",
        '{"x": 1}',
    )


def test_recorder_hook_records_for_the_joined_student_only(tmp_path: Path) -> None:
    store = ClassStore(tmp_path / "c.sqlite3")
    leave()
    try:
        assert current_recorder() is None
        assert record("q", True) is False  # nobody joined: nothing written
        rec = join("  Ann  ", store=store)
        assert rec.student == "Ann"
        assert record("q", True, "picked A") is True
        assert rec("q", False, "picked B") is True
        record_answer("Bob", "q", False, store=store)
    finally:
        leave()
    assert store.answers() == [
        ("Ann", "q", True, "picked A"),
        ("Ann", "q", False, "picked B"),
        ("Bob", "q", False, ""),
    ]


def test_a_broken_database_never_breaks_the_lesson(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the class folder should be")
    leave()
    try:
        from palace.classroom import AnswerRecorder

        broken = AnswerRecorder("Ann", ClassStore(blocker / "class.sqlite3"))
        assert broken("q", True) is False  # logged, not raised
    finally:
        leave()


@pytest.mark.parametrize(
    ("query", "cookie", "name"),
    [
        ("student=Ann", "", "Ann"),
        ("seed=3&student=Bob%20Lee", "", "Bob Lee"),
        ("", "palace_student=Cat%20Roy; _xsrf=abc", "Cat Roy"),
        ("student=Ann", "palace_student=Cat", "Ann"),  # the link wins over the cookie
        ("student=", "", None),
        ("student=" + "x" * 80, "", None),
        ("student=%00", "palace_student=Dee", "Dee"),  # a bad link value: the cookie
        ("", 'palace_student="unbalanced', None),
        ("", "", None),
    ],
)
def test_page_student_from_query_or_cookie(query: str, cookie: str, name: str | None) -> None:
    assert page_student(query, cookie) == name


def test_sqlalchemy_url_path(tmp_path: Path) -> None:
    """PALACE_CLASS_DB as a SQLAlchemy URL: the same store over SQLAlchemy (here SQLite)."""
    pytest.importorskip("sqlalchemy")
    url = f"sqlite:///{tmp_path / 'sa.sqlite3'}"
    store = ClassStore(url, session="hub")
    store.join("Ann")
    store.join("Ann")  # twice is one row
    for s in range(5):
        store.record_answer(f"S{s}", "q", s % 2 == 0, "")
    store.push("scenario=x", "look")
    s = store.summary()
    assert (s.questions[0].right, s.questions[0].wrong) == (3, 2)
    assert store.students()[0] == "Ann" and len(store.students()) == 6
    assert store.latest_push() is not None


def test_the_environment_variable_chooses_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PALACE_CLASS_DB", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("PALACE_CLASS_SESSION", "period 3")
    store = ClassStore()
    assert store.where == str(tmp_path / "env.sqlite3") and store.session == "period 3"
    store.record_answer("Ann", "q", True)
    assert (tmp_path / "env.sqlite3").exists()
    monkeypatch.setenv("PALACE_CLASS_DB", "postgresql://teacher:secret@db.example/palace")
    pytest.importorskip("sqlalchemy")
    try:
        hidden = ClassStore()
    except ClassError as exc:  # no PostgreSQL driver here: the message hides the password
        assert "secret" not in str(exc) and "***" in str(exc)
    else:
        assert "secret" not in hidden.where and "***" in hidden.where
