"""A class in the room, in Chromium against `make app`'s server (issue 15).

A deep link lands on its event (from the pre-heated pool and from a fresh kernel); a bad
link shows the usual app with a message; presenter mode fits one 1920×1080 screen at 150%
with the battle visible and answers the arrow keys; a student's page has no reveal control
and cannot reach the dashboard (nor see the token); the dashboard updates live as students
join and answer, and a pushed position reaches a student's app.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PalaceServer, new_loopback_page, start_palace_server
from pagekit import APP, LOAD_TIMEOUT, WAIT, button

from palace.classroom import ClassStore

TOKEN = "browser-test-token-42"
SCENARIO = "03-exclusion-turns-win-into-loss"
EVENT = ".palace-app-replay .palace-event"


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PalaceServer, Path]]:
    db = tmp_path_factory.mktemp("class") / "class.sqlite3"
    saved = {k: os.environ.get(k) for k in ("PALACE_INSTRUCTOR_TOKEN", "PALACE_CLASS_DB")}
    os.environ["PALACE_INSTRUCTOR_TOKEN"] = TOKEN
    os.environ["PALACE_CLASS_DB"] = str(db)
    try:
        server = start_palace_server("--pool_size=1", "--max_kernels=12")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        yield server, db
    finally:
        server.stop()


def open_page(browser: object, url: str, wait_for: str, **options: object) -> object:
    options = {"viewport": {"width": 1280, "height": 900}, **options}
    page = new_loopback_page(browser, **options)
    page.goto(url, wait_until="commit", timeout=LOAD_TIMEOUT)
    page.locator(wait_for).first.wait_for(timeout=LOAD_TIMEOUT)
    return page


def test_the_server_prints_the_instructor_link(classroom: tuple[PalaceServer, Path]) -> None:
    server, _ = classroom
    assert f"{APP}?instructor={TOKEN}" in server.log_text()


def test_a_deep_link_lands_on_its_event_in_a_students_page(
    classroom: tuple[PalaceServer, Path], browser: object, screenshot_dir: Path
) -> None:
    server, _ = classroom
    for _ in range(2):  # the first page takes the pre-heated kernel, the second a new one
        page = open_page(browser, f"{server.base}{APP}?scenario={SCENARIO}&event=23", EVENT)
        page.locator(EVENT, has_text="step 24 of ").wait_for(timeout=WAIT)
        assert page.locator(".palace-app .lm-TabBar-tab.lm-mod-current").inner_text() == "Replay"
        # a student's page: no "All cards", no "Reveal all cards", no teacher row, no token
        assert page.get_by_text("All cards", exact=True).count() == 0
        assert page.get_by_text("Reveal all cards (instructor)").count() == 0
        assert (
            button(page, "Push to the class").count() == 0
            or not button(page, "Push to the class").is_visible()
        )
        assert TOKEN not in page.content()
        page.screenshot(path=str(screenshot_dir / "classroom-deep-link.png"), full_page=True)
        page.context.close()


def test_a_bad_link_gives_the_usual_app_and_a_message(
    classroom: tuple[PalaceServer, Path], browser: object
) -> None:
    server, _ = classroom
    page = open_page(browser, f"{server.base}{APP}?seed=abc&players=99", ".palace-alert")
    alert = page.locator(".palace-alert").first.inner_text()
    assert "This link was not opened" in alert and "players must be a whole number" in alert
    assert page.locator(".palace-app-play .palace-table").is_visible()
    assert "Traceback" not in page.content()
    page.context.close()


def test_presenter_fits_a_1080p_projector_at_150_percent(
    classroom: tuple[PalaceServer, Path], browser: object, screenshot_dir: Path
) -> None:
    server, _ = classroom
    url = f"{server.base}{APP}?instructor={TOKEN}&scenario={SCENARIO}&event=23&presenter=1"
    # 1920×1080 at 150% zoom: a 1280×720 CSS viewport drawn with 1.5 device pixels a pixel
    page = open_page(
        browser,
        url,
        ".palace-presenter .palace-battleview .palace-battle",
        viewport={"width": 1280, "height": 720},
        device_scale_factor=1.5,
    )
    sentence = page.locator(".palace-presenter-sentence")
    sentence.filter(has_text="step 24 of ").wait_for(timeout=WAIT)
    battle = page.locator(".palace-presenter .palace-battleview")
    table = page.locator(".palace-presenter .palace-table")
    page.screenshot(path=str(screenshot_dir / "classroom-presenter-1080p-150.png"))
    for part in (battle, table, sentence, page.locator(".palace-presenter-next")):
        box = part.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, box
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 720 + 2
    font = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector("
        "'.palace-presenter-sentence div')).fontSize)"
    )
    assert font >= 24  # the sentence large
    page.screenshot(path=str(screenshot_dir / "classroom-presenter-1080p-150.png"))
    page.keyboard.press("ArrowRight")
    sentence.filter(has_text="step 25 of ").wait_for(timeout=WAIT)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    sentence.filter(has_text="step 23 of ").wait_for(timeout=WAIT)
    page.context.close()


def test_a_student_cannot_reach_the_dashboard(
    classroom: tuple[PalaceServer, Path], browser: object
) -> None:
    server, _ = classroom
    for query in ("", "?instructor=guessed-token-42", f"?instructor={TOKEN[:-1]}"):
        page = open_page(browser, f"{server.base}voila/render/class.ipynb{query}", ".palace-alert")
        assert "This page is for the teacher" in page.locator(".palace-alert").inner_text()
        assert page.locator(".palace-class").count() == 0
        assert TOKEN not in page.content()
        page.context.close()


def test_the_dashboard_updates_live_and_a_push_reaches_students(
    classroom: tuple[PalaceServer, Path], browser: object, screenshot_dir: Path
) -> None:
    server, db = classroom
    board = open_page(
        browser, f"{server.base}voila/render/class.ipynb?instructor={TOKEN}", ".palace-class"
    )
    board.get_by_text("No answers yet.", exact=False).first.wait_for(timeout=WAIT)
    student = open_page(browser, f"{server.base}{APP}", ".palace-app-play .palace-table")
    student.locator(".palace-classroom input[placeholder='your name']").fill("Zoë")
    button(student, "Join the class").click()
    student.get_by_text("Joined as Zoë").wait_for(timeout=WAIT)
    cookie = [c for c in student.context.cookies() if c["name"] == "palace_student"]
    assert cookie and cookie[0]["value"] == "Zo%C3%AB"  # the lessons this browser opens know
    # answers arrive (as lesson widgets record them) and the board shows them by itself
    store = ClassStore(db)
    store.record_answer("Zoë", "04/who-wins", False, "Bob wins")
    store.record_answer("Zoë", "04/who-wins", False, "tie")
    store.record_answer("Max", "04/who-wins", True, "Cat wins")
    row = board.locator(".palace-class tr", has_text="04/who-wins").first
    row.wait_for(timeout=WAIT)
    assert row.locator("td.right").inner_text() == "1"
    assert row.locator("td.wrong").inner_text() == "2"
    assert "Zoë" in row.locator("td.stuck").inner_text()
    board.get_by_text("2 students · 3 answers", exact=False).wait_for(timeout=WAIT)
    board.screenshot(path=str(screenshot_dir / "classroom-dashboard.png"), full_page=True)
    # the teacher pushes a position; the student's app offers it and opens it
    teacher = open_page(
        browser,
        f"{server.base}{APP}?instructor={TOKEN}&scenario={SCENARIO}&event=23",
        EVENT,
    )
    teacher.locator(".palace-classroom input[placeholder='look at this battle']").fill(
        "Look at this battle"
    )
    button(teacher, "Push to the class").click()
    teacher.get_by_text("Pushed to the class").wait_for(timeout=WAIT)
    student.get_by_text("Your teacher shared a position").wait_for(timeout=WAIT)
    button(student, "Open it").click()
    student.locator(EVENT, has_text="step 24 of ").wait_for(timeout=WAIT)
    student.screenshot(path=str(screenshot_dir / "classroom-pushed.png"), full_page=True)
    board.get_by_text("Look at this battle").wait_for(timeout=WAIT)
    for p in (board, student, teacher):
        p.context.close()
