"""Issue 15 in the app: links to a moment (bad values refused whole), the instructor's token,
a student's page, Save as scenario, pushes, presenter mode, the dashboard and the quiz hook."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from traitlets import TraitError

from palace.app.authoring import (
    ScenarioExists,
    build_scenario,
    save_scenario,
    scenario_id,
)
from palace.app.dashboard import ClassDashboard, TeacherOnly, class_page
from palace.app.deep_links import link_query, only_this_machine, page_base, parse_link
from palace.app.palace_app import PalaceApp
from palace.app.teacher import is_instructor, page_is_teachers
from palace.classroom import ClassStore, leave
from palace.game import Game
from palace.scenarios import SCENARIO_DIR, load_scenario
from palace.widgets.quiz import CheckYourself

SCENARIO = "03-exclusion-turns-win-into-loss"
TOKEN = "teacher-token-123"


@pytest.fixture
def store(tmp_path: Path) -> ClassStore:
    return ClassStore(tmp_path / "class.sqlite3")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page Voilà serves, on a server whose instructor token is TOKEN."""
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    monkeypatch.setenv("PALACE_INSTRUCTOR_TOKEN", TOKEN)


def app(store: ClassStore) -> PalaceApp:
    a = PalaceApp(teacher=False, advisor=None)
    a.classroom.store = store  # a test database instead of data/class
    return a


# ---------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("seed=abc", "seed must be a whole number"),
        ("seed=1e3", "seed must be a whole number"),
        ("seed=99999999999999999999", "seed must be a whole number"),
        ("players=1", "players must be a whole number from 2 to 10 (R1.1)"),
        ("players=", "the box is empty"),
        ("variant=ultra", "is not a rule variant; known: standard, no-limit"),
        ("scenario=nope", "there is no scenario 'nope' in data/scenarios"),
        ("scenario=../../etc/passwd", "is not a scenario name"),
        (f"scenario={SCENARIO}&event=-1", "event must be a whole number from 0"),
        (f"scenario={SCENARIO}&event=x", "event must be a whole number"),
        ("event=3", "event needs the hand it is in"),
        (f"scenario={SCENARIO}&hand=x.json", "not both"),
        (f"scenario={SCENARIO}&seed=3", "not with scenario= or hand="),
        ("seed=1&seed=2", "seed is given twice"),
        ("presenter=maybe", "presenter must be 1 or 0"),
        ("color=red", "unknown field 'color'"),
        ("seed=" + "9" * 3000, "characters long"),
    ],
)
def test_bad_link_values_are_named(query: str, words: str) -> None:
    link = parse_link(query)
    assert not link.ok
    assert any(words in p for p in link.problems), link.problems


def test_good_links_and_names() -> None:
    link = parse_link(f"scenario={SCENARIO}&event=23&presenter=1&theme=dark")
    assert (link.scenario, link.event, link.presenter, link.opens) == (
        f"{SCENARIO}.json",
        23,
        True,
        "replay",
    )
    assert parse_link("scenario=exclusion-turns-win-into-loss").scenario == f"{SCENARIO}.json"
    assert parse_link("").opens is None and parse_link(None).ok
    assert parse_link(f"instructor={TOKEN}").instructor == TOKEN
    assert TOKEN not in repr(parse_link(f"instructor={TOKEN}&seed=3"))
    q = link_query(hand="hands/my hand.json", event=4, presenter=True)
    assert q == "hand=hands/my+hand.json&event=4&presenter=1"
    assert parse_link(q).hand == "hands/my hand.json"


def test_page_base_from_voilas_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERVER_NAME", raising=False)
    assert page_base() is None
    monkeypatch.setenv("SERVER_NAME", "192.168.1.20")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/app.ipynb")
    assert page_base() == "http://192.168.1.20:8866/voila/render/app.ipynb"
    assert not only_this_machine(page_base())
    monkeypatch.setenv("SERVER_NAME", "127.0.0.1")
    assert only_this_machine(page_base())


# ---------------------------------------------------------------------------- opening
def test_a_deep_link_lands_on_its_event(store: ClassStore) -> None:
    a = app(store)
    assert a.open_link(f"scenario={SCENARIO}&event=23") == []
    assert a.tabs.selected_index == 1
    assert a.replay.stepper is not None and a.replay.stepper.index == 23
    assert a.classroom.moment().query == f"scenario={SCENARIO}&event=23"


def test_a_seed_link_deals_that_hand(store: ClassStore) -> None:
    a = app(store)
    assert a.open_link("seed=12&players=4&variant=no-limit") == []
    g = a.play.game
    assert (g.seed, g.players) == (12, 4)
    assert g.rules.to_dict() == Game.new(4, 12, rules=_rules("no-limit")).rules.to_dict()
    assert a.classroom.moment().query == "seed=12&players=4&variant=no-limit"


def _rules(slug: str):  # noqa: ANN202
    from palace.analysis.variants import variant

    return variant(slug).rules


def test_a_bad_link_leaves_the_default_app_and_says_why(store: ClassStore) -> None:
    a = app(store)
    before = a.play.game.to_dict()
    problems = a.open_link(f"scenario={SCENARIO}&event=999")
    assert problems == ["event 999 is not in this hand: its events are #0 to #40"] or (
        problems and "is not in this hand" in problems[0]
    )
    assert a.tabs.selected_index == 0
    assert a.play.game.to_dict() == before
    assert "This link was not opened" in a.play.message.value
    assert a.open_link("seed=12&players=99") and a.play.game.to_dict() == before


def test_a_hand_link_inside_data(store: ClassStore) -> None:
    a = app(store)
    assert a.open_link(f"hand=scenarios/{SCENARIO}.json&event=5") == []
    assert a.replay.stepper is not None and a.replay.stepper.index == 5
    problems = a.open_link("hand=../../pyproject.toml")
    assert problems and "'..'" in problems[0]


# ---------------------------------------------------------------------------- the token
def test_the_token_comparison() -> None:
    assert is_instructor(TOKEN, TOKEN)
    assert not is_instructor(TOKEN[:-1], TOKEN)
    assert not is_instructor(None, TOKEN) and not is_instructor("", TOKEN)
    assert not is_instructor("anything", "")


def test_student_and_teacher_pages(store: ClassStore, served: None) -> None:
    student = app(store)
    student.open_page("")
    assert not student.teacher
    assert "all" not in [v for _, v in student.view_mode.options]
    assert student.classroom.set_teacher is not None
    guessed = app(store)
    guessed.open_page("instructor=teacher-token-124")
    assert not guessed.teacher and [v for _, v in guessed.view_mode.options] == ["players", "seat"]
    teacher = app(store)
    teacher.open_page(f"instructor={TOKEN}")
    assert teacher.teacher
    assert [v for _, v in teacher.view_mode.options] == ["players", "seat", "all"]
    # the teacher's own page links the dashboard with the token; a copied link never has it
    teacher.open_link(f"scenario={SCENARIO}&event=10")
    assert TOKEN in teacher.classroom.dashboard_link.value
    assert TOKEN not in (teacher.classroom.link() or "")
    assert TOKEN not in student.classroom.dashboard_link.value


def test_a_students_replay_shows_a_scenario_whole_without_a_reveal_control(
    store: ClassStore, served: None
) -> None:
    a = app(store)
    a.open_page(f"scenario={SCENARIO}&event=23")
    stepper = a.replay.stepper
    assert stepper is not None and not stepper.reveal_control
    assert "Reveal all cards" not in _descriptions(a)
    assert stepper.reveal_all  # D29: a teaching position is shown whole, like a diagram
    stepper.reveal_all = False  # a played or uploaded hand keeps the players' view ...
    assert not stepper.reveal_all and "Reveal all cards" not in _descriptions(a)
    with pytest.raises(TraitError, match="Invalid selection"):
        a.set_view("all")  # not an option on this page
    assert a.table_view() == (None, False)


def _descriptions(widget) -> str:  # noqa: ANN001
    out = [str(getattr(widget, "description", ""))]
    for child in getattr(widget, "children", ()):
        out.append(_descriptions(child))
    return " ".join(out)


def test_a_notebook_run_in_ones_own_jupyter_is_the_teachers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.delenv("PALACE_INSTRUCTOR_TOKEN", raising=False)
    assert page_is_teachers(None)
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    assert not page_is_teachers(None)


def test_the_dashboard_page_needs_the_token(store: ClassStore, served: None) -> None:
    assert isinstance(class_page(store, ""), TeacherOnly)
    assert isinstance(class_page(store, "instructor=wrong-token"), TeacherOnly)
    assert isinstance(class_page(store, f"instructor={TOKEN}"), ClassDashboard)


# ---------------------------------------------------------------------------- the class
def test_dashboard_counts_answers_from_the_quiz_hook(store: ClassStore) -> None:
    board = ClassDashboard(store, live=False)
    assert board.text() == "Session class: 0 students, 0 answers\nNo answers yet."
    assert not (store.where and Path(store.where).exists())  # an empty class is not created
    recorded: list[tuple[str, bool, str]] = []
    q = CheckYourself("2 + 2?", ["4", "5"], "4", "arithmetic", question_id="sums/two")
    q.recorder = lambda qid, ok, detail: recorded.append((qid, ok, detail))
    q.choose("5")
    q.reveal()
    q.reveal()  # a second press is not a second answer
    assert recorded == [("sums/two", False, "5")]
    # the default recorder: the page's student, into the class store
    from palace.classroom import join

    try:
        join("Ann", store=store)
        q2 = CheckYourself("2 + 2?", ["4", "5"], "4", "arithmetic", question_id="sums/two")
        q2.button("5").click()
        q2.reveal_button.click()
        q2.reset_button.click()
        q2.button("4").click()
        q2.reveal_button.click()
    finally:
        leave()
    board.refresh_button.click()
    assert board.text() == "Session class: 1 student, 2 answers\nsums/two: 1 right, 1 wrong"


def test_default_question_ids_tell_apart_questions_worded_alike() -> None:
    a = CheckYourself("Who wins?", ["Ann", "Bob"], "Ann", "x")
    b = CheckYourself("Who wins?", ["Ann", "Bob"], "Bob", "y")
    assert a.question_id != b.question_id and a.question_id.startswith("Who wins? #")


def test_push_reaches_a_students_app(store: ClassStore, served: None) -> None:
    teacher, student = app(store), app(store)
    teacher.open_page(f"instructor={TOKEN}&scenario={SCENARIO}&event=23")
    student.open_page("")
    assert student.classroom.check_push() is None
    assert student.classroom.push() is None  # a student cannot push
    pushed = teacher.classroom.push("look at this battle")
    assert pushed is not None and TOKEN not in pushed.query
    got = student.classroom.check_push()
    assert got is not None and got.note == "look at this battle"
    assert "look at this battle" in student.classroom.push_banner.value
    student.classroom.open_push_button.click()
    assert student.tabs.selected_index == 1 and student.replay.stepper.index == 23
    assert student.classroom.check_push() is None  # seen
    # a hand in Play travels whole (its moves are not in a seed link)
    teacher.select("Play")
    teacher.play.deal(5)
    teacher.classroom.push("this deal")
    student.classroom.check_push()
    assert student.classroom.open_push() == []
    assert student.replay.game is not None and student.replay.game.seed == 5


def test_presenter_steps_and_moves_replay(store: ClassStore, served: None) -> None:
    a = app(store)
    a.open_page(f"instructor={TOKEN}&scenario={SCENARIO}&event=20&presenter=1")
    p = a.classroom.presenter
    assert p.layout.display is None and a.tabs.layout.display == "none"
    assert p.index == 20
    p.next_button.click()
    assert p.index == 21 and a.replay.stepper.index == 21
    p.back_button.click()
    p.back_button.click()
    assert a.replay.stepper.index == 19
    p.go(23)
    assert p.battle.layout.display is None  # the battle of event 23 is on screen
    assert "Cat" in p.battle.html
    p.leave_button.click()
    assert a.tabs.layout.display is None and p.layout.display == "none"
    # a student's presenter keeps the student's view: the palace cards stay hidden (R8.4)
    s = app(store)
    s.open_page(f"scenario={SCENARIO}&event=23&presenter=1")
    sp = s.classroom.presenter
    assert sp.index == 23 and sp.battle.layout.display == "none"


# ---------------------------------------------------------------------------- authoring
def test_scenario_ids_are_sanitised() -> None:
    assert scenario_id("../../Exclusion: a WIN?") == "exclusion-a-win"
    assert len(scenario_id("word " * 40)) <= 64


def test_a_saved_scenario_loads_back_and_passes_its_checks(tmp_path: Path) -> None:
    sc = load_scenario(SCENARIO_DIR / f"{SCENARIO}.json")
    game = sc.game()
    data, built = build_scenario(
        game,
        title="Bob's straight is gone",
        summary="Exclusion takes the diamond.",
        question="Who wins?",
        answer="Cat, with a pair of eights (R8.2).",
        rules="R8.2, r8.4",
        event=20,
    )
    assert built.rules == ("R8.2", "R8.4") and data["id"] == "bob-s-straight-is-gone"
    assert len(built.game().events) <= 21 + 10  # the hand stops at the moment's action
    (tmp_path / "07-other.json").write_text("{}")
    path = save_scenario(data, tmp_path)
    assert path.name == "08-bob-s-straight-is-gone.json"
    again = load_scenario(path)  # loads back and runs its own checks
    assert again.title == "Bob's straight is gone" and again.question == "Who wins?"
    with pytest.raises(ScenarioExists, match="press Replace"):
        save_scenario(data, tmp_path)
    assert json.loads(path.read_text())["title"] == "Bob's straight is gone"
    data2 = {**data, "title": "Changed"}
    save_scenario(data2, tmp_path, overwrite=True)
    assert load_scenario(path).title == "Changed"


def test_the_authoring_panel(tmp_path: Path, store: ClassStore, served: None) -> None:
    from palace.app.authoring import ScenarioAuthor

    a = app(store)
    a.open_page(f"instructor={TOKEN}&scenario={SCENARIO}&event=23")
    author = ScenarioAuthor(a.classroom.moment_game, folder=tmp_path)
    author.save_button.click()
    assert "Give the scenario a title" in author.message.value
    author.title_box.value = "A test moment"
    author.rules_box.value = "R99"
    author.check_button.click()
    assert "Not a scenario yet" in author.message.value
    author.rules_box.value = "R8.2"
    author.question_box.value = "Who wins?"
    author.save_button.click()
    assert "a 'question' needs an 'answer'" in html.unescape(author.message.value)
    author.answer_box.value = "Cat."
    author.save_button.click()
    assert author.saved is not None and author.saved.exists()
    first = author.saved.read_text()
    author.summary_box.value = "Another summary"
    author.save_button.click()
    assert "already in data/scenarios" in author.message.value
    assert author.replace_button.layout.display is None
    assert author.saved.read_text() == first  # nothing overwritten without asking
    author.replace_button.click()
    assert "Another summary" in author.saved.read_text()
    author.download_button.click()
    assert "data:application/json;base64," in author.download.value


# ---------------------------------------------------------------------------- handouts
def test_a_handout_is_static_and_prints_its_panels_as_text(tmp_path: Path) -> None:
    import nbformat

    from palace.app.handouts import handout

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A lesson\nText that cites R1.2."),
        nbformat.v4.new_code_cell(
            "from palace.widgets.quiz import CheckYourself\n"
            "CheckYourself('Does a suit outrank another?', ['Yes', 'No'], 'No', 'R1.2')"
        ),
    ]
    source = tmp_path / "01_lesson.ipynb"
    nbformat.write(nb, source)
    page = handout(source, tmp_path / "out").read_text()
    assert "A lesson" in page and "Q: Does a suit outrank another?" in page
    assert "application/vnd.jupyter.widget-view+json" not in page  # nothing needs a kernel
    assert "@media print" in page and "overflow: visible !important" in page
    assert "from palace.widgets.quiz import" not in page  # no code


def test_copy_link_and_qr_code_name_the_moment_without_the_token(
    store: ClassStore, served: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SERVER_NAME", "192.168.1.20")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/app.ipynb")
    a = app(store)
    a.open_page(f"instructor={TOKEN}&scenario={SCENARIO}&event=23")
    a.classroom.show_link_button.click()
    url = f"http://192.168.1.20:8866/voila/render/app.ipynb?scenario={SCENARIO}&event=23"
    assert a.classroom.link_text.value == url
    assert "Copy to clipboard" in a.classroom.copy_button.value
    a.classroom.qr_toggle.value = True
    assert "<svg" in a.classroom.qr.value and a.classroom.qr.layout.display is None
    assert TOKEN not in a.classroom.copy_button.value + a.classroom.link_text.value
    # an upload has no link: the app says so rather than writing a wrong one
    hand = Game.new(3, 9)
    a.replay.load_bytes(json.dumps(hand.to_dict()), "mine.json")
    a.classroom.show_link_button.click()
    assert "no link can name it" in a.classroom.message.value
