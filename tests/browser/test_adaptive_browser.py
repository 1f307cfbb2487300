"""The app served by Voilà: search bots explain their moves in Play, and Explore compares
variants with search bots, with 95% intervals and the findings in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pagekit import button, field

pytestmark = pytest.mark.browser

APP = Path(__file__).resolve().parents[2] / "notebooks" / "app.ipynb"
LOAD = 180_000  # ms: a kernel start on a busy two-core machine
WAIT = 60_000


def test_search_bots_explain_and_explore_finds_effects(voila_server, page, screenshot) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_server(APP), timeout=LOAD)
    play = page.locator(".palace-app .palace-app-play")
    play.locator(".palace-table").wait_for(timeout=LOAD)

    # Play: the computer seats are search bots; their moves are narrated with their reasons
    button(play, "Stakes and bots…").click()  # the setup's second part, built when opened
    field(play, "Computer").select_option(label="Search bots (think ahead)")
    play.locator(".palace-okay", has_text="played by search bots").wait_for(timeout=WAIT)
    button(play, "Deal").click()
    play.locator(".palace-okay", has_text="Dealt seed 7").wait_for(timeout=WAIT)
    button(play, "Stay").first.click()  # Ann acts first (seed 7); then the bots answer
    why = play.locator(".palace-narration-why")
    why.first.wait_for(timeout=WAIT)
    assert "sampled worlds" in " ".join(why.all_inner_texts())
    assert "Error displaying widget" not in page.inner_text("body")
    # the narration is redrawn whole as each bot answers: scroll to it in one step in the page
    # (a locator's scroll waits for the element to be stable, and a redraw can detach it)
    page.evaluate(
        "() => document.querySelector('.palace-app-play .palace-narration-why')"
        "?.scrollIntoView({block: 'center'})"
    )
    screenshot("adaptive-play-search-bots")

    # Explore: search bots, a small run, every figure with its interval, findings in words
    page.locator(".palace-app").get_by_role("tab", name="Explore", exact=True).click()
    ex = page.locator(".palace-app-explore")
    field(ex, "Bots").select_option(label="search bots (adapt to the rules; 95% CIs)")
    field(ex, "Simulations").wait_for(timeout=WAIT)
    for label, value in (("Players", 2), ("Hands each", 12)):
        box = field(ex, label)
        box.fill(str(value))
        box.press("Enter")
    button(ex, "Run").click()
    ex.locator(".palace-okay", has_text="Done: 12 hands").wait_for(timeout=300_000)
    table = ex.locator(".palace-df table").inner_text()
    assert "soldiers bought per hand" in table and re.search(r"\d\.\d\d \[-?\d", table)
    findings = ex.get_by_text("Findings: each variant against standard (limit)")
    findings.wait_for(timeout=WAIT)
    assert "no-limit (R3.3)" in ex.inner_text()
    assert ex.locator('img[src^="data:image/png;base64,"]').count() == 1
    findings.scroll_into_view_if_needed()
    screenshot("adaptive-explore-search-bots")
