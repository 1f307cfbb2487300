"""Lesson 08 served by Voilà, in one render (its studies make it the longest lesson to draw):
the studies run on Dask and every widget draws, the adaptive players' study sits beside the
rule bots', and the lesson passes the checks every lesson passes (no error, axe-core)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pagekit import WIDGETS_DRAWN, check_lesson

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08_rule_explorer.ipynb"


def test_rule_explorer_shows_its_progress_bar_the_adaptive_study_and_no_errors(
    voila_server, page, screenshot
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    url = voila_server(NOTEBOOK)
    page.goto(url, timeout=300_000)
    # the output of the last cells: every study above has run by then
    page.get_by_text("hidden sets)").first.wait_for(timeout=300_000)
    page.get_by_text("chips to pos 1 %").first.wait_for(timeout=60_000)
    # the progress bar of section 4 (tqdm, kept when done) is drawn once its model arrives
    done = page.locator(".widget-hprogress .progress-bar-success")
    done.first.wait_for(timeout=60_000)
    assert done.count() == 1  # one bar, for the one study that shows progress
    body = page.inner_text("body")
    assert re.search(r"\b(\d+)/\1\s\[", body)  # every shard of the variant study, n/n
    # a closed progress bar would leave "Error displaying widget: model not found" behind
    assert "Error displaying widget" not in body and "model not found" not in body
    page.get_by_text("4 · Rule variants side by side").scroll_into_view_if_needed()
    screenshot("08-rule-explorer")

    # the adaptive players' study beside the rule bots' (issue 14)
    assert "4b · Players who adapt" in body
    assert "no-limit (R3.3): more attacks" in body and "95% CI [" in body
    assert "seen only by search bots" in body
    page.get_by_text("Which comparison can see a rule's effect?").scroll_into_view_if_needed()
    screenshot("adaptive-lesson-08")

    # what every lesson must pass (test_learning_browser.py checks the others)
    page.wait_for_function(WIDGETS_DRAWN, timeout=60_000)
    check_lesson(page, NOTEBOOK.name)
