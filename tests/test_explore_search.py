"""Explore with search bots: the same study as `variant_effects`, every figure with its 95%
interval, findings in words beside the table, a cap that counts the search's cost, and a
Cancel that stops it."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from palace.analysis import variant_effects as ve
from palace.analysis.variants import named
from palace.app.explore_tab import ExploreTab
from palace.app.study_budget import MAX_STUDY_SECONDS, hands_that_fit, study_seconds


def search_tab(scheduler: str = "serial", **setup: object) -> ExploreTab:
    tab = ExploreTab(hands=20, scheduler=scheduler)
    tab.bot.value = "search"
    for name, value in setup.items():
        getattr(tab, name).value = value
    return tab


@pytest.mark.parametrize("scheduler", ["serial", "local"])
def test_a_tiny_search_run_shows_intervals_and_findings(scheduler: str) -> None:
    tab = search_tab(scheduler, hands=6, players=2, simulations=4)
    tab.selected = ("standard", "two-left-at-once")
    tab.run_button.click()
    assert tab.run_button.disabled and not tab.cancel_button.disabled  # the click came back
    assert tab.wait(timeout=120)
    assert "Done: 6 hands × 2 variants with search bots (4 simulations)" in tab.status.value
    assert tab.progress.bar_style == "success" and tab.progress.value == tab.progress.max
    # the tab ran the module's study: the same seeded hands give the same table
    rows = ve.run_study(
        named(["standard", "two-left-at-once"]),
        hands=6,
        players=2,
        seed=2026,
        simulations=4,
        progress=False,
        scheduler="serial",
    )
    pd.testing.assert_frame_equal(tab.result, ve.summarise(rows), check_exact=True)
    # every figure of the table carries an interval
    shown = ve.ci_table(tab.result)
    assert "soldiers bought per hand" in tab.table.value and "95% interval" in tab.table.value
    for label in shown.index:
        assert label in tab.table.value
    assert shown.loc["pot (chips)", "standard (limit)"] in tab.table.value
    assert shown.loc["pot (chips)", "standard (limit)"].count("[") == 1
    # findings in words, beside the table and in the text
    (finding,) = tab.finding_list
    assert finding.variant == "two left battle at once (R9.3)"
    assert "two left battle at once (R9.3)" in tab.findings.value
    assert "against standard (limit)" in tab.findings.value
    assert "Not significant" in tab.findings.value or finding.changes
    assert "== Findings ==" in tab.text() and str(finding) in tab.text()
    assert 'src="data:image/png;base64,' in tab.chart.value


def test_switching_to_search_bots_shows_the_budget_and_lowers_the_hands() -> None:
    tab = ExploreTab(hands=200, scheduler="serial")
    assert tab.simulations.layout.display == "none"
    tab.bot.value = "search"
    assert tab.simulations.layout.display is None
    assert tab.hands.value < 200 and "Hands each is now" in tab.status.value
    assert study_seconds("search", tab.hands.value, 4, 5, tab.simulations.value) <= 60
    assert tab.hands.value > hands_that_fit("search", 4, 5, tab.simulations.value, seconds=60) // 2
    tab.bot.value = "rules"
    assert tab.simulations.layout.display == "none"


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ({"hands": 2_000, "players": 4}, "the cap is about 4.0 minutes of computing"),
        ({"hands": 400, "players": 10}, "Lower Hands each, Simulations, Players"),
        ({"hands": 10, "simulations": 0}, "Simulations must be from 1 to 200, got 0."),
        ({"hands": 10, "simulations": 500}, "Simulations must be from 1 to 200, got 500."),
    ],
)
def test_search_work_beyond_the_cap_is_refused(setup: dict, says: str) -> None:
    tab = search_tab(**setup)
    tab.run_button.click()
    assert not tab.running and tab.result is None
    assert says in tab.status.value and 'role="alert"' in tab.status.value
    assert not tab.run_button.disabled


def test_the_cap_counts_the_search_cost() -> None:
    """Hands that rule bots may play are refused to search bots when the search is long."""
    tab = ExploreTab(hands=2_000, scheduler="serial")
    tab.selected = ("standard", "no-limit")
    tab.players.value = 4
    assert study_seconds("search", 2_000, 4, 2, tab.simulations.value) > MAX_STUDY_SECONDS
    tab.bot.value = "rules"
    assert tab.start()  # 2,000 rule-bot hands are fine
    tab.cancel()
    assert tab.wait(timeout=30)
    tab.bot.value = "search"
    tab.hands.value = 2_000
    assert not tab.start() and "The search bots would think for about" in tab.status.value


def test_cancel_stops_a_search_run_promptly() -> None:
    tab = search_tab(hands=150, players=4, simulations=16)
    tab.selected = ("standard", "no-limit")
    assert tab.start()
    deadline = time.monotonic() + 60
    while tab.progress.value < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tab.running and 1 <= tab.progress.value < tab.progress.max
    pressed = time.monotonic()
    tab.cancel_button.click()
    assert tab.wait(timeout=15), "the run did not stop"
    assert time.monotonic() - pressed < 5  # a shard is about a second of play
    assert "Cancelled after" in tab.status.value and tab.result is None
    assert tab.findings.value == "" and not tab.run_button.disabled
