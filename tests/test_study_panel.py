"""Stored study tables read back as the studies make them, and the panel that shows them."""

from __future__ import annotations

import pandas as pd
import pytest

from palace.analysis.stored_studies import STUDIES, load_study, run_words, stored_command
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


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_running_a_stored_study_again_gives_the_stored_table(name: str) -> None:
    """`StoredStudy.of` reruns at the stored seed and sizes: the reader's new run is the
    stored table, figure for figure (the studies are seeded). A rule change that moves a
    figure fails here until ``python -m palace.analysis.studies`` stores the tables again."""
    panel = StoredStudy.of(name)
    stored = panel.table
    assert run_words(name) in panel.text_note()
    fresh = panel.rerun()
    assert panel.source == "run" and "Computed just now" in panel.text()
    pd.testing.assert_frame_equal(fresh, stored, check_exact=False, rtol=1e-12)


def test_the_panel_shows_the_rows_and_columns_asked_for_and_keeps_the_whole_table() -> None:
    panel = StoredStudy.of("banner_rejects", rows=12)
    whole = load_study("banner_rejects")
    assert panel.table.equals(whole) and panel.shown.equals(whole.head(12))
    assert f"Shown: the first 12 of {len(whole)} rows." in panel.text_note()
    assert panel.text().count("\n") == 12 + 2  # the note, the header, the name row, 12 rows
    cats = StoredStudy.of("categories", columns=[7, 9])
    assert list(dict.fromkeys(cats.shown.columns.get_level_values(0))) == [7, 9]
    assert "Shown:" not in cats.text_note()  # every row, two of its hand sizes


def test_a_column_or_row_count_the_study_has_not_is_refused_by_name() -> None:
    with pytest.raises(PalaceError, match=r"no column 12: its columns are 4, 5, 6, 7, 8, 9"):
        StoredStudy.of("categories", columns=[7, 12])
    with pytest.raises(PalaceError, match="rows=0"):
        StoredStudy.of("banner_deal", rows=0)
