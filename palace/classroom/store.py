"""`ClassStore`: a class session in a real database: who joined, every answer, positions pushed.

The default is SQLite (the standard library) in WAL mode at ``data/class/class.sqlite3``:
every app and lesson kernel of ``make app`` opens the same file, readers never wait for
writers, and a writer waits (``busy_timeout``) instead of failing with "database is
locked". ``PALACE_CLASS_DB`` names another database: a path to a SQLite file, or any
SQLAlchemy URL (``postgresql+psycopg://user:pw@host/palace`` for a JupyterHub whose users'
servers run on several machines; needs the ``classdb`` extra and the driver).

Each call opens a connection, runs one short transaction and closes it, so a store is
cheap, safe to share between threads and never holds a lock between calls.

>>> import tempfile, pathlib
>>> store = ClassStore(pathlib.Path(tempfile.mkdtemp()) / "demo.sqlite3")
>>> store.join("Ann")
'Ann'
>>> store.record_answer("Ann", "lesson-04/who-wins", False, "picked Bob")
>>> store.record_answer("Ann", "lesson-04/who-wins", True, "picked Cat")
>>> [(q.question, q.right, q.wrong) for q in store.summary().questions]
[('lesson-04/who-wins', 1, 1)]
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from palace import strict
from palace.errors import StateError

DATA = Path(__file__).resolve().parents[2] / "data"
DEFAULT_PATH = DATA / "class" / "class.sqlite3"
ENV_DB = "PALACE_CLASS_DB"
ENV_SESSION = "PALACE_CLASS_SESSION"
DEFAULT_SESSION = "class"
BUSY_SECONDS = 30.0  # a writer waits this long for another's transaction before failing
MAX_QUESTION = 200  # characters in a question id
MAX_DETAIL = 500  # characters of an answer's detail (what was picked)
MAX_QUERY = 2000  # characters of a pushed link's query string
MAX_PUSHED = 1 << 20  # bytes of a pushed hand (the 1 MB file limit)
STUCK_AFTER = 2  # wrong answers to one question, with no right one yet: stuck

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS students (session VARCHAR(80) NOT NULL, "
    "name VARCHAR(80) NOT NULL, joined FLOAT NOT NULL, PRIMARY KEY (session, name))",
    "CREATE TABLE IF NOT EXISTS answers (id VARCHAR(32) PRIMARY KEY, "
    "session VARCHAR(80) NOT NULL, student VARCHAR(80) NOT NULL, "
    "question VARCHAR(200) NOT NULL, correct INTEGER NOT NULL, detail TEXT NOT NULL, "
    "at FLOAT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS answers_by_session ON answers (session, question)",
    "CREATE TABLE IF NOT EXISTS pushes (id VARCHAR(32) PRIMARY KEY, "
    "session VARCHAR(80) NOT NULL, query TEXT NOT NULL, note TEXT NOT NULL, "
    "hand TEXT NOT NULL, at FLOAT NOT NULL)",
)
# SQLite (3.24+) and PostgreSQL both read this: joining twice, or at once, is one row
_JOIN = (
    "INSERT INTO students (session, name, joined) VALUES (:s, :n, :t) "
    "ON CONFLICT (session, name) DO NOTHING"
)


class ClassError(StateError):
    """A class-store value was refused (a name, a question id) or the database failed."""


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class QuestionCount:
    """One question's answers: right and wrong counts (every attempt), who is stuck on it."""

    question: str
    right: int
    wrong: int
    students: int  # different students who answered it
    stuck: tuple[str, ...]  # STUCK_AFTER or more wrong answers and none right yet

    @property
    def answers(self) -> int:
        return self.right + self.wrong


@dataclass(frozen=True)
class StudentCount:
    """One student's answers in the session."""

    name: str
    right: int
    wrong: int
    stuck_on: tuple[str, ...]


@dataclass(frozen=True)
class ClassSummary:
    """What the teacher's dashboard shows: every question and every student who joined."""

    session: str
    questions: tuple[QuestionCount, ...]
    students: tuple[StudentCount, ...]

    @property
    def answers(self) -> int:
        return sum(q.answers for q in self.questions)

    @property
    def stuck(self) -> tuple[str, ...]:
        """Students stuck on at least one question, by name."""
        return tuple(s.name for s in self.students if s.stuck_on)


@dataclass(frozen=True)
class Push:
    """A position the teacher sent to every student's app."""

    id: str
    query: str  # a deep link's query string (palace.app.deep_links), never the token
    note: str  # "look at this battle"
    hand: str  # a saved hand's JSON when the position is not in data/, else ""
    at: float


# ---------------------------------------------------------------------------- checks
def student_name(value: Any) -> str:
    """A student's name as the class shows it: 1-40 characters of clean text, trimmed."""
    return strict.name(value, "the student's name", error=ClassError)


def question_id(value: Any) -> str:
    """A question's id: 1-200 characters of clean text on one line."""
    text = strict.text(value, "the question id", limit=MAX_QUESTION, error=ClassError).strip()
    if "\n" in text or "\r" in text or "\t" in text:
        raise ClassError(f"the question id must be on one line, got {strict.shown(value)}")
    return text


def session_name(value: Any) -> str:
    """A session's name: 1-80 characters of clean text."""
    return strict.text(value, "the class session", limit=80, error=ClassError).strip()


# ---------------------------------------------------------------------------- the store
class ClassStore:
    """A class session's answers in SQLite (WAL) or any SQLAlchemy database.

    `where`: a path to a SQLite file, or a URL with a scheme (``sqlite:///...``,
    ``postgresql+psycopg://...``: SQLAlchemy). None: ``PALACE_CLASS_DB``, else
    ``data/class/class.sqlite3``. `session`: the class session's name (None:
    ``PALACE_CLASS_SESSION``, else "class"); one database may hold many sessions.
    """

    def __init__(self, where: str | Path | None = None, *, session: str | None = None) -> None:
        if where is None:
            where = os.environ.get(ENV_DB) or DEFAULT_PATH
        self.session = session_name(session or os.environ.get(ENV_SESSION) or DEFAULT_SESSION)
        self._engine: Any = None
        self._path: Path | None = None
        text = str(where)
        if isinstance(where, str) and "://" in text:
            self._engine = _sqlalchemy_engine(text)
            self.where = _hide_password(text)
        else:
            self._path = Path(where)
            self.where = str(self._path)
        self._ready = False

    def __repr__(self) -> str:
        return f"ClassStore({self.where!r}, session={self.session!r})"

    def exists(self) -> bool:
        """False for a SQLite file not made yet (a dashboard then shows an empty class
        without creating it); a database server is taken to exist."""
        return self._path is None or self._path.exists()

    # ------------------------------------------------------------------ connections
    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[_Cursor]:
        """One short transaction (committed on success, rolled back on error); a read
        (`write=False`) takes no write lock, so it never waits for a writer (WAL)."""
        if not self._ready:
            self._create()
        with self._raw_transaction(write=write) as cur:
            yield cur

    @contextmanager
    def _raw_transaction(self, *, write: bool = True) -> Iterator[_Cursor]:
        if self._engine is not None:
            with self._engine.begin() as conn:
                yield _Cursor(conn, sqlalchemy=True)
            return
        assert self._path is not None
        conn = _sqlite_connect(self._path)
        try:
            # a writer takes the write lock now (waiting if need be), so it never has to
            # upgrade a read lock later, which SQLite refuses with "database is locked"
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _Cursor(conn, sqlalchemy=False)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def _create(self) -> None:
        if self._path is not None:
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ClassError(
                    f"cannot create the class folder {self._path.parent}: {exc}"
                ) from None
        for attempt in range(5):  # two servers creating the tables at once on PostgreSQL
            try:
                with self._raw_transaction() as cur:
                    for statement in SCHEMA:
                        cur.run(statement)
                break
            except Exception:
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))
        self._ready = True

    # ------------------------------------------------------------------ writing
    def join(self, student: str) -> str:
        """Add a student to the session (joining twice is fine); their checked name."""
        name = student_name(student)
        with self._transaction(write=False) as cur:
            cur.run(_JOIN, s=self.session, n=name, t=time.time())
        return name

    def record_answer(self, student: str, question: str, correct: bool, detail: str = "") -> None:
        """Record one answer (a student who has not joined joins now)."""
        name = student_name(student)
        qid = question_id(question)
        if not isinstance(correct, bool):
            raise ClassError(f"'correct' must be true or false, got {strict.shown(correct)}")
        shown = strict.printable(str(detail), MAX_DETAIL)
        now = time.time()
        with self._transaction() as cur:  # writes only: no read lock to upgrade
            cur.run(_JOIN, s=self.session, n=name, t=now)
            cur.run(
                "INSERT INTO answers (id, session, student, question, correct, detail, at) "
                "VALUES (:i, :s, :n, :q, :c, :d, :t)",
                i=uuid.uuid4().hex,
                s=self.session,
                n=name,
                q=qid,
                c=int(correct),
                d=shown,
                t=now,
            )

    def push(self, query: str, note: str = "", hand: str = "") -> Push:
        """Send a position to every student's app (the latest push is what they see)."""
        query = strict.text(query, "the pushed link", limit=MAX_QUERY, error=ClassError)
        note = strict.printable(note, 200)
        if len(hand.encode("utf-8")) > MAX_PUSHED:
            raise ClassError("the pushed hand is over 1 MB: push a scenario or a shorter hand")
        item = Push(uuid.uuid4().hex, query, note, hand, time.time())
        with self._transaction() as cur:
            cur.run(
                "INSERT INTO pushes (id, session, query, note, hand, at) "
                "VALUES (:i, :s, :q, :n, :h, :t)",
                i=item.id,
                s=self.session,
                q=item.query,
                n=item.note,
                h=item.hand,
                t=item.at,
            )
        return item

    def clear(self) -> None:
        """Forget this session's students, answers and pushes (a new lesson, same name)."""
        with self._transaction() as cur:
            for table in ("students", "answers", "pushes"):
                cur.run(f"DELETE FROM {table} WHERE session = :s", s=self.session)

    # ------------------------------------------------------------------ reading
    def latest_push(self) -> Push | None:
        with self._transaction(write=False) as cur:
            row = cur.one(
                "SELECT id, query, note, hand, at FROM pushes WHERE session = :s "
                "ORDER BY at DESC, id DESC LIMIT 1",
                s=self.session,
            )
        return None if row is None else Push(row[0], row[1], row[2], row[3], float(row[4]))

    def students(self) -> tuple[str, ...]:
        with self._transaction(write=False) as cur:
            rows = cur.all(
                "SELECT name FROM students WHERE session = :s ORDER BY joined, name",
                s=self.session,
            )
        return tuple(r[0] for r in rows)

    def answers(self) -> list[tuple[str, str, bool, str]]:
        """Every answer of the session in the order given: (student, question, correct, detail)."""
        with self._transaction() as cur:
            rows = cur.all(
                "SELECT student, question, correct, detail FROM answers WHERE session = :s "
                "ORDER BY at, id",
                s=self.session,
            )
        return [(r[0], r[1], bool(r[2]), r[3]) for r in rows]

    def summary(self) -> ClassSummary:
        """Right/wrong counts per question and per student, and who is stuck (one read)."""
        with self._transaction(write=False) as cur:
            per = cur.all(
                "SELECT question, student, SUM(correct), COUNT(*) FROM answers "
                "WHERE session = :s GROUP BY question, student",
                s=self.session,
            )
            joined = cur.all(
                "SELECT name FROM students WHERE session = :s ORDER BY joined, name",
                s=self.session,
            )
        return summarise(self.session, [r[0] for r in joined], per)


def summarise(session: str, joined: Sequence[str], per: Sequence[Sequence[Any]]) -> ClassSummary:
    """The summary from (question, student, right, answers) rows: stuck means
    `STUCK_AFTER` or more wrong answers to a question and no right one yet."""
    questions: dict[str, list[int]] = {}
    stuck_q: dict[str, list[str]] = {}
    people: dict[str, list[int]] = {name: [0, 0] for name in joined}
    stuck_s: dict[str, list[str]] = {}
    for question, student, right, total in per:
        right, total = int(right or 0), int(total)
        wrong = total - right
        q = questions.setdefault(question, [0, 0, 0])
        q[0] += right
        q[1] += wrong
        q[2] += 1
        s = people.setdefault(student, [0, 0])
        s[0] += right
        s[1] += wrong
        if right == 0 and wrong >= STUCK_AFTER:
            stuck_q.setdefault(question, []).append(student)
            stuck_s.setdefault(student, []).append(question)
    return ClassSummary(
        session,
        tuple(
            QuestionCount(q, r, w, n, tuple(sorted(stuck_q.get(q, ()))))
            for q, (r, w, n) in sorted(questions.items())
        ),
        tuple(
            StudentCount(name, r, w, tuple(sorted(stuck_s.get(name, ()))))
            for name, (r, w) in people.items()
        ),
    )


# ---------------------------------------------------------------------------- backends
class _Cursor:
    """Named-parameter SQL on a sqlite3 connection or a SQLAlchemy connection."""

    def __init__(self, conn: Any, *, sqlalchemy: bool) -> None:
        self._conn = conn
        self._sqlalchemy = sqlalchemy

    def _execute(self, sql: str, params: Mapping[str, Any]) -> Any:
        if self._sqlalchemy:
            from sqlalchemy import text

            return self._conn.execute(text(sql), dict(params))
        return self._conn.execute(sql, dict(params))

    def run(self, sql: str, **params: Any) -> None:
        self._execute(sql, params)

    def one(self, sql: str, **params: Any) -> tuple | None:
        row = self._execute(sql, params).fetchone()
        return None if row is None else tuple(row)

    def all(self, sql: str, **params: Any) -> list[tuple]:
        return [tuple(r) for r in self._execute(sql, params).fetchall()]


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (we BEGIN ourselves), waiting for locks, in WAL mode."""
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise ClassError(f"cannot open the class database {path}: {exc}") from None
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    for attempt in range(50):  # switching to WAL needs a moment alone with the file
        try:
            if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() == "wal":
                break
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05 * (attempt + 1))
    conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; a commit is one fsync less
    return conn


def _sqlalchemy_engine(url: str) -> Any:
    try:
        from sqlalchemy import create_engine
    except ImportError:
        raise ClassError(
            f"{ENV_DB} is a database URL, which needs SQLAlchemy: "
            "pip install 'palace-poker[classdb]' and the database's driver"
        ) from None
    args: dict[str, Any] = {"pool_pre_ping": True, "future": True}
    if url.startswith("sqlite"):
        args["connect_args"] = {"timeout": BUSY_SECONDS}
    try:
        return create_engine(url, **args)
    except Exception as exc:  # noqa: BLE001 - a bad URL or missing driver, said plainly
        raise ClassError(f"{ENV_DB}: cannot use {_hide_password(url)}: {exc}") from None


def _hide_password(url: str) -> str:
    """The URL with any password replaced by ***, for messages and the dashboard."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    auth, at, host = rest.rpartition("@")
    if ":" in auth:
        auth = auth.split(":", 1)[0] + ":***"
    return f"{head}://{auth}{at}{host}"
