"""Handouts in Chromium: lessons 1 and 6 built as static pages (palace/app/handouts.py) and
opened from a plain local web server, with no kernel and every non-loopback request
blocked: the panels are drawn from their saved state, the guided first hand's battle shows
its cards, the stepper tells its whole hand, and the drill's question shows with its answer
behind a closed details element.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagekit import check_lesson

from palace.app.handouts import handout, install_manager, widget_manager
from palace.lessons import FIRST_HAND_STEPS
from palace.lessons.guided import first_hand
from palace.widgets import PlayController

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ("01_cards_and_hands", "06_play_a_hand")
# every widget output holds a drawn view beside its <script> (the renderer puts it there)
EVERY_VIEW_DRAWN = """() => {
  const outs = [...document.querySelectorAll('div.jupyter-widgets.jp-OutputArea-output')];
  return outs.length > 0 && outs.every(o => [...o.children].some(c => c.tagName !== 'SCRIPT'));
}"""
DRAWN = 120_000  # ms: the renderer draws every panel of a lesson (a busy two-core machine)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def handouts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A folder served on 127.0.0.1 where `Site.build` writes a lesson's handout as `make
    handouts` does (the renderer copied beside it)."""
    manager = widget_manager()
    if manager is None:
        message = "no static widget renderer (npm pack @jupyter-widgets/html-manager failed)"
        if os.environ.get("PALACE_REQUIRE_BROWSER") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    out = tmp_path_factory.mktemp("handouts")
    install_manager(manager, out)
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(out, manager, f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()


class Site:
    """The served folder of handouts."""

    def __init__(self, folder: Path, manager: Path, url: str) -> None:
        self.folder, self.manager, self.url = folder, manager, url

    def build(self, name: str) -> str:
        """Execute lesson `name` into a handout; its URL."""
        handout(ROOT / "notebooks" / f"{name}.ipynb", self.folder, manager=self.manager)
        return f"{self.url}/{name}.html"


def open_handout(page: object, url: str) -> list[str]:
    """Open a handout and wait for its panels; the page's script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url, wait_until="load", timeout=DRAWN)  # type: ignore[attr-defined]
    page.wait_for_function(EVERY_VIEW_DRAWN, timeout=DRAWN)  # type: ignore[attr-defined]
    return errors


def played_battle() -> tuple[str, ...]:
    """The names of the cards shown down in the guided hand's battle, from the engine."""
    game, bots = first_hand()
    ctl = PlayController(game, human=0, bots=dict(bots))
    for step in FIRST_HAND_STEPS:
        if step.expect is not None:
            ctl.act(next(a for a in ctl.game.legal_actions() if step.wants(a)))
    battle = next(e for e in ctl.game.events if e.kind == "battle")
    return tuple(c.name for c in battle.cards)


def test_guided_first_hand_shows_its_battle_and_the_drill_its_answer(
    page: object, handouts: Site, screenshot
) -> None:
    errors = open_handout(page, handouts.build(LESSONS[0]))
    check_lesson(page, LESSONS[0])  # no panel that failed to draw, no serious axe problem
    guided = page.locator(".palace-guided")  # type: ignore[attr-defined]
    assert guided.count() == 1
    # the panel as drawn when the lesson ran: the guide's first step and its buttons
    assert "step 1 of" in guided.locator(".palace-guide-step").inner_text().lower()
    story = guided.locator("details.palace-whole-hand")
    battle = story.locator(".palace-whole-battle")
    assert not battle.is_visible()  # closed until the reader opens it
    story.locator("summary").click()
    battle.scroll_into_view_if_needed()
    assert battle.is_visible()
    shown = battle.locator(".palace-card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    for card in played_battle():
        assert any(label.startswith(card) for label in shown), (card, shown)
    # every step of the guide is told, in order, to the pot
    heads = story.locator(".palace-whole-step-head").all_inner_texts()
    assert [re.sub(r"\s+R\d.*$", "", h) for h in heads] == [
        f"Step {i} of {len(FIRST_HAND_STEPS)}: {s.title}" for i, s in enumerate(FIRST_HAND_STEPS, 1)
    ]
    screenshot("handout-01-guided-hand")

    drill = page.locator(".palace-drill").last  # type: ignore[attr-defined]
    drill.scroll_into_view_if_needed()
    question = drill.locator(".palace-drill-q")
    assert question.is_visible() and question.inner_text().strip().endswith("?")
    answer = drill.locator("details.palace-answer")
    assert answer.count() == 1
    words = answer.locator("p")
    assert not words.is_visible()
    answer.locator("summary").click()
    assert words.is_visible() and words.inner_text().startswith("Answer: ")
    drill.screenshot(path=str(ROOT / "build" / "screenshots" / "handout-01-drill.png"))
    assert not errors, errors


def test_stepper_tells_the_whole_hand(page: object, handouts: Site, screenshot) -> None:
    errors = open_handout(page, handouts.build(LESSONS[1]))
    check_lesson(page, LESSONS[1])
    stepper = page.locator(".palace-stepper").first  # type: ignore[attr-defined]
    title = stepper.locator(".palace-subtitle").first.inner_text()
    steps = int(re.search(r"(\d+) steps", title).group(1))  # type: ignore[union-attr]
    story = stepper.locator("details.palace-whole-hand")
    summary = story.locator("summary")
    assert f"({steps} steps)" in summary.inner_text()
    items = story.locator("li")
    assert items.count() == steps
    assert not items.first.is_visible()
    summary.click()
    assert items.first.is_visible()
    items.last.scroll_into_view_if_needed()
    assert items.last.is_visible()
    texts = items.all_inner_texts()
    assert [int(t.split()[0]) for t in texts] == list(range(1, steps + 1))
    assert all(len(t.split()) > 2 for t in texts)  # a number, a clause and a sentence each
    # the step drawn when the lesson ran is the one its story ends with
    shown = stepper.locator(".palace-event-text").first.inner_text().strip()
    assert texts[-1].rstrip().endswith(shown)
    screenshot("handout-06-stepper")
    assert not errors, errors
