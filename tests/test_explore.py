"""The app's Explore tab: runs in the background, Cancel stops it, big requests are refused."""

from __future__ import annotations

import time

import pytest

from palace import native
from palace.analysis import studies
from palace.analysis.studies import compare_variants
from palace.analysis.variants import named
from palace.app.explore_tab import ExploreTab
from palace.app.study_budget import MAX_STUDY_SECONDS, hands_that_fit, round_down, study_seconds


@pytest.fixture(params=["serial", "local"])
def tab(request: pytest.FixtureRequest) -> ExploreTab:
    return ExploreTab(hands=20, scheduler=request.param)


def test_run_returns_at_once_and_the_table_arrives(tab: ExploreTab) -> None:
    tab.selected = ("standard", "no-limit")
    tab.run_button.click()
    assert tab.run_button.disabled and not tab.cancel_button.disabled  # the click came back
    assert tab.wait(timeout=120)
    assert "Done: 20 hands × 2 variants" in tab.status.value
    assert tab.progress.bar_style == "success" and tab.progress.value == tab.progress.max
    assert not tab.run_button.disabled and tab.cancel_button.disabled
    want = compare_variants(named(["standard", "no-limit"]), hands=20, seed=2026, **SERIAL)
    assert tab.result.equals(want)
    assert "no-limit (R3.3)" in tab.table.value and "palace-df" in tab.table.value


SERIAL = {"progress": False, "scheduler": "serial"}


def test_cancel_stops_the_run_promptly_and_it_can_run_again(
    tab: ExploreTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(studies, "HAND_SEATS_PER_SHARD", 40)  # small shards: a prompt stop
    tab.selected = ("standard", "no-limit", "free-discard")
    tab.hands.value, tab.players.value = 5_000, 4  # a minute or more of play
    assert tab.start()
    deadline = time.monotonic() + 60
    while tab.progress.value < 2 and time.monotonic() < deadline:
        time.sleep(0.02)  # the test thread stays free while the study runs
    assert tab.running and 2 <= tab.progress.value < tab.progress.max
    pressed = time.monotonic()
    tab.cancel_button.click()
    assert tab.wait(timeout=15), "the run did not stop"
    assert time.monotonic() - pressed < 5
    assert "Cancelled after" in tab.status.value and 'role="alert"' in tab.status.value
    assert tab.result is None and tab.table.value == ""
    assert not tab.run_button.disabled and tab.cancel_button.disabled
    # and it runs again, to the end
    tab.hands.value = 30
    tab.run_button.click()
    assert tab.wait(timeout=120)
    assert "Done: 30 hands × 3 variants" in tab.status.value
    assert list(tab.result.columns) == list(named(["standard", "no-limit", "free-discard"]))


@pytest.mark.parametrize(
    ("hands", "players", "seed", "says"),
    [
        (0, 4, 1, "Hands each must be 1 or more, got 0."),
        (100, 11, 1, "Players must be from 2 to 10, got 11."),
        (100, 1, 1, "Players must be from 2 to 10, got 1."),
        (100, 4, -3, "Seed must be 0 or more, got -3."),
    ],
)
def test_bad_fields_are_refused(hands: int, players: int, seed: int, says: str) -> None:
    tab = ExploreTab(hands=20, scheduler="serial")
    tab.hands.value, tab.players.value, tab.seed.value = hands, players, seed
    tab.run_button.click()
    assert not tab.running and tab.result is None
    assert says in tab.status.value and 'role="alert"' in tab.status.value
    assert not tab.run_button.disabled


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_study_over_four_minutes_of_computing_is_refused_with_what_fits(players: int) -> None:
    """The cap is the estimated computing: the most hands that fit run, one more is refused,
    and the refusal names the estimate and the hands that would fit."""
    tab = ExploreTab(hands=20, scheduler="serial")
    tab.selected = ("standard", "no-limit", "free-discard")
    tab.players.value = players
    fit = hands_that_fit("mixed", players, 3)
    assert study_seconds("mixed", fit, players, 3) <= MAX_STUDY_SECONDS
    tab.hands.value = fit + 1
    tab.run_button.click()
    assert not tab.running and tab.result is None and 'role="alert"' in tab.status.value
    assert f"{fit + 1:,} × 3 × {players}); the cap is about 4.0 minutes" in tab.status.value
    assert f"(for example {fit:,} hands each)" in tab.status.value
    tab.hands.value = fit
    assert tab.start(), tab.status.value
    assert "Playing" in tab.status.value and "of computing)" in tab.status.value
    tab.cancel()
    assert tab.wait(timeout=30)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_cap_follows_the_engine_in_use(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tab's note and cap count the engine the server runs: the compiled one plays more
    hands in the same four minutes than its pure-Python source."""
    monkeypatch.setattr(native, "is_compiled", lambda: compiled)
    fit = hands_that_fit("rules", 4, 5)
    assert fit == hands_that_fit("rules", 4, 5, compiled=compiled)
    if compiled:
        assert fit > hands_that_fit("rules", 4, 5, compiled=False)
    tab = ExploreTab(hands=20, scheduler="serial")
    note = tab.children[0].children[1].value
    assert f"about {round_down(fit):,} hands of 4 players for each of 5 variants" in note
    tab.selected = (
        "standard",
        "no-limit",
        "free-discard",
        "call-matches-attack",
        "only-stay-quiet",
    )
    tab.players.value, tab.hands.value = 4, fit + 1
    assert not tab.start() and f"(for example {fit:,} hands each)" in tab.status.value


def test_no_variant_and_a_second_run_are_refused() -> None:
    tab = ExploreTab(hands=20, scheduler="serial")
    tab.selected = ()
    assert not tab.start()
    assert "Pick at least one variant" in tab.status.value
    tab.selected = ("standard",)
    tab.hands.value = 2_000
    assert tab.start()
    assert not tab.start() and "already running" in tab.status.value
    tab.cancel_button.click()
    assert tab.wait(timeout=15)
    with pytest.raises(ValueError, match="unknown variants"):
        tab.selected = ("pot-limit",)
