"""The rule explorer's studies: agree with the engine, reproducible from a seed."""

from __future__ import annotations

import numpy as np
import pandas as pd

from palace import Game
from palace.analysis.studies import (
    STANDARD_VARIANTS,
    banner_deal_stats,
    category_frequencies,
    compare_variants,
    exclusion_flip_rate,
    simulate_banner_deal,
)


def test_banner_deal_simulation_matches_the_engine():
    for seed in range(150):
        players = 2 + seed % 9
        g = Game.new(players=players, seed=seed)
        ante = next(e for e in g.events if e.kind in ("ante", "banner", "reject"))
        deck = [c.index for c in g.state_at(ante.index - 1).zones["deck"]]
        dealt, rejected, reshuffles = simulate_banner_deal(deck, players)
        kinds = [e.kind for e in g.events]
        assert rejected == kinds.count("reject")
        assert dealt == kinds.count("reject") + kinds.count("banner")
        assert reshuffles == kinds.count("reshuffle")


def test_banner_deal_stats_shape_and_growth():
    df = banner_deal_stats(players=[2, 4, 8], deals=300, seed=1, progress=False)
    assert list(df.index) == [2, 4, 8]
    assert (df["mean cards dealt"] >= df.index).all()
    assert df.loc[2, "mean rejects"] < df.loc[4, "mean rejects"]
    pd.testing.assert_frame_equal(
        df, banner_deal_stats(players=[2, 4, 8], deals=300, seed=1, progress=False)
    )


def test_category_frequencies_sum_to_100_and_exclusion_weakens_hands():
    df = category_frequencies(sizes=[5, 9], hands=20_000, seed=3, progress=False)
    sums = df.sum(axis=0)
    assert np.allclose(sums.values, 100, atol=0.01)
    for k in (5, 9):
        assert df.loc["High card", (k, "one suit excluded")] > df.loc["High card", (k, "all count")]
    assert df.loc["no counting cards", (5, "all count")] == 0


def test_exclusion_flip_rate_is_reproducible_and_grows_with_army_size():
    a = exclusion_flip_rate(sizes=[4, 9], battles=30_000, seed=5, progress=False)
    b = exclusion_flip_rate(sizes=[4, 9], battles=30_000, seed=5, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert 0 < a.loc[4, "winner changed %"] < a.loc[9, "winner changed %"] < 100
    assert a.loc[9, "cards lost per side"] > a.loc[4, "cards lost per side"]


def test_compare_variants_same_seeds_side_by_side():
    variants = {k: STANDARD_VARIANTS[k] for k in ("standard (limit)", "no-limit")}
    df = compare_variants(variants, hands=40, seed=9, progress=False)
    assert list(df.columns) == list(variants)
    pos = [r for r in df.index if r.startswith("chips to pos")]
    assert np.allclose(df.loc[pos].sum(axis=0), 100, atol=0.1)
    pd.testing.assert_frame_equal(df, compare_variants(variants, hands=40, seed=9, progress=False))


def test_banner_deal_distribution_matches_the_stats():
    from palace.analysis.studies import banner_deal_distribution, banner_deal_samples

    samples = banner_deal_samples(players=[3, 9], deals=500, seed=4, progress=False)
    dist = banner_deal_distribution(samples=samples)
    stats = banner_deal_stats(samples=samples)
    assert np.allclose(dist.sum(axis=0), 100)
    for n in (3, 9):
        mean = float((dist.index.to_numpy() * dist[n]).sum() / 100)
        assert abs(mean - stats.loc[n, "mean rejects"]) < 1e-9
        assert dist[n].iloc[stats.loc[n, "max rejects"] + 1 :].sum() == 0
