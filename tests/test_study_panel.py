"""Stored study tables read back as the studies make them, and the panel that shows them."""

from __future__ import annotations

import pandas as pd
import pytest

from palace.analysis.stored_studies import STUDIES, load_study, stored_command
from palace.analysis.studies import (
    banner_deal_counts,
    banner_deal_distribution,
    banner_deal_stats,
    category_frequencies,
    exclusion_flip_rate,
)
from palace.analysis.variants import VARIANTS
from palace.errors import PalaceError
from palace.widgets.study_panel import StoredStudy


@pytest.fixture(scope="module")
def live() -> dict[str, pd.DataFrame]:
    """Each study computed now at a small size (its shape does not depend on the size)."""
    counts = banner_deal_counts(deals=40, seed=5, progress=False)
    return {
        "banner_deal": banner_deal_stats(counts),
        "banner_rejects": banner_deal_distribution(counts),
        "exclusion_flips": exclusion_flip_rate(battles=4000, seed=5, progress=False),
        "categories": category_frequencies(hands=4000, seed=5, progress=False),
    }


@pytest.mark.parametrize("name", ["banner_deal", "exclusion_flips", "categories"])
def test_a_stored_table_reads_back_as_its_study_makes_it(
    name: str, live: dict[str, pd.DataFrame]
) -> None:
    stored, fresh = load_study(name), live[name]
    pd.testing.assert_index_equal(stored.columns, fresh.columns)
    pd.testing.assert_index_equal(stored.index, fresh.index)
    assert list(stored.dtypes) == list(fresh.dtypes)


def test_the_rejects_table_reads_back_with_its_player_columns(
    live: dict[str, pd.DataFrame],
) -> None:
    stored, fresh = load_study("banner_rejects"), live["banner_rejects"]
    assert list(stored.columns) == list(fresh.columns) == list(range(2, 11))
    assert stored.columns.name == fresh.columns.name == "players"
    assert stored.index.name == fresh.index.name == "rejects"
    assert (stored.sum().round(6) == 100).all()  # each player count's shares sum to 100%


def test_the_variants_table_names_every_variant() -> None:
    stored = load_study("variants")
    assert list(stored.columns) == [v.label for v in VARIANTS.values()]
    assert stored.loc["hands"].min() >= 1


def test_an_unknown_study_is_refused_by_name() -> None:
    with pytest.raises(PalaceError, match="no stored study 'flops'.*exclusion_flips"):
        load_study("flops")
    with pytest.raises(PalaceError, match="no stored study"):
        StoredStudy("flops", lambda: pd.DataFrame(), runs="nothing")


def test_the_panel_shows_the_stored_table_until_the_reader_runs_it() -> None:
    runs: list[pd.DataFrame] = []
    panel = StoredStudy(
        "exclusion_flips",
        lambda: exclusion_flip_rate(battles=4000, seed=5, progress=False),
        runs="4,000 battles per army size, seed 5",
    )
    panel.on_run(runs.append)
    assert panel.source == "stored" and panel.table.equals(load_study("exclusion_flips"))
    assert "data/studies/exclusion_flips.csv" in panel.text()
    assert stored_command() in panel.text_note()
    panel.run_button.click()
    assert panel.source == "run" and len(runs) == 1 and runs[0] is panel.table
    assert (panel.table["battles"] < 4001).all()  # the new run's size, not the stored one
    assert "Computed just now: 4,000 battles" in panel.text()
    assert set(STUDIES) >= {panel.name}


def test_running_a_stored_study_again_gives_the_stored_table() -> None:
    """`StoredStudy.of` reruns at the stored seed and sizes: the reader's new run is the
    stored table, figure for figure (the studies are seeded)."""
    panel = StoredStudy.of("banner_deal")
    stored = panel.table
    assert "20,000 banner deals for each player count, seed 2026" in panel.text_note()
    fresh = panel.rerun()
    assert panel.source == "run" and "Computed just now" in panel.text()
    pd.testing.assert_frame_equal(fresh, stored, check_exact=False, rtol=1e-12)
