"""Lesson 08 served by Voilà, in one render: its studies open from the stored tables (no
study runs at open, issue 26), "Run it again" computes one in the page and shows the same
figures, the adaptive players' study sits beside the rule bots', and the lesson passes the
checks every lesson passes (no error, axe-core)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pagekit import WIDGETS_DRAWN, button, check_lesson

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08_rule_explorer.ipynb"
STUDY = ".palace-study"


def test_rule_explorer_opens_on_stored_studies_and_runs_one_again_to_the_same_figures(
    voila_server, page, screenshot
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    url = voila_server(NOTEBOOK)
    page.goto(url, timeout=300_000)
    # the output of the last cells: every cell above has run by then
    page.get_by_text("hidden sets)").first.wait_for(timeout=300_000)
    page.get_by_text("chips to pos 1 %").first.wait_for(timeout=60_000)
    page.wait_for_function(WIDGETS_DRAWN, timeout=60_000)
    studies = page.locator(STUDY)
    assert studies.count() == 5  # sections 1 to 4: deal, rejects, exclusion, hands, variants
    for k in range(5):
        assert "Stored table (data/studies/" in studies.nth(k).inner_text()
    body = page.inner_text("body")
    assert "Shown: the first 12 of 38 rows." in body  # the rejects table, cut on the page
    assert page.locator(".widget-hprogress").count() == 0  # no progress bar: nothing computes
    page.get_by_text("4 · Rule variants side by side").scroll_into_view_if_needed()
    screenshot("08-rule-explorer")

    # section 2's study, run again in the page: the same seed and sizes, the same table
    flips = studies.nth(2)
    flips.scroll_into_view_if_needed()
    stored = flips.locator("table").inner_text()
    assert re.search(r"^\s*4\s+\d+\s+18\.22", stored, re.M)  # army size 4: 18.22% flipped
    button(flips, "Run it again").click()
    flips.get_by_text("Computed just now: 500,000 pairs of armies").wait_for(timeout=120_000)
    assert flips.locator("table").inner_text() == stored
    assert not flips.locator("button").is_disabled()
    screenshot("08-rule-explorer-run-again")

    # the adaptive players' study beside the rule bots' (issue 14)
    assert "4b · Players who adapt" in body
    assert "no-limit (R3.3): more attacks" in body and "95% CI [" in body
    assert "seen only by search bots" in body
    page.get_by_text("Which comparison can see a rule's effect?").scroll_into_view_if_needed()
    screenshot("adaptive-lesson-08")

    # what every lesson must pass (test_learning_browser.py checks the others)
    check_lesson(page, NOTEBOOK.name)
