"""The rule explorer's studies: agree with the engine, reproducible from a seed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from palace import Game, PalaceError
from palace.analysis.studies import (
    banner_deal_counts,
    banner_deal_distribution,
    banner_deal_stats,
    category_frequencies,
    compare_variants,
    exclusion_flip_rate,
    simulate_banner_deal,
)
from palace.analysis.variants import named

SERIAL = {"progress": False, "scheduler": "serial"}


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
    df = banner_deal_stats(banner_deal_counts(players=[2, 4, 8], deals=300, seed=1, **SERIAL))
    assert list(df.index) == [2, 4, 8]
    assert (df["deals"] == 300).all()
    assert (df["mean cards dealt"] >= df.index).all()
    assert df.loc[2, "mean rejects"] < df.loc[4, "mean rejects"]
    again = banner_deal_stats(banner_deal_counts(players=[2, 4, 8], deals=300, seed=1, **SERIAL))
    pd.testing.assert_frame_equal(df, again)


def test_banner_deal_counts_match_the_simulation_deal_by_deal():
    """The shard's histogram counts exactly the deals `simulate_banner_deal` plays."""
    from palace.analysis.studies import banner_deal_shard

    rng = np.random.default_rng([7, 5, 0])
    decks = rng.random((400, 52)).argsort(axis=1).tolist()
    rejects = [simulate_banner_deal(deck, 5)[1] for deck in decks]
    shard = banner_deal_shard(players=5, deals=400, seed=7, block=0)
    assert shard["rejects"] == np.bincount(rejects).tolist()
    assert shard["reshuffled"] == 0  # R4.4 cannot happen with five players


def test_category_frequencies_sum_to_100_and_exclusion_weakens_hands():
    df = category_frequencies(sizes=[5, 9], hands=20_000, seed=3, **SERIAL)
    sums = df.sum(axis=0)
    assert np.allclose(sums.values, 100, atol=0.01)
    for k in (5, 9):
        assert df.loc["High card", (k, "one suit excluded")] > df.loc["High card", (k, "all count")]
    assert df.loc["no counting cards", (5, "all count")] == 0


def test_exclusion_flip_rate_is_reproducible_and_grows_with_army_size():
    a = exclusion_flip_rate(sizes=[4, 9], battles=30_000, seed=5, **SERIAL)
    b = exclusion_flip_rate(sizes=[4, 9], battles=30_000, seed=5, **SERIAL)
    pd.testing.assert_frame_equal(a, b)
    assert 0 < a.loc[4, "winner changed %"] < a.loc[9, "winner changed %"] < 100
    assert a.loc[9, "cards lost per side"] > a.loc[4, "cards lost per side"]


def test_compare_variants_same_seeds_side_by_side():
    variants = named(["standard", "no-limit"])
    df = compare_variants(variants, hands=40, seed=9, **SERIAL)
    assert list(df.columns) == ["standard (limit)", "no-limit (R3.3)"]
    assert (df.loc["hands"] == 40).all()
    pos = [r for r in df.index if r.startswith("chips to pos")]
    assert np.allclose(df.loc[pos].sum(axis=0), 100, atol=0.1)
    pd.testing.assert_frame_equal(df, compare_variants(variants, hands=40, seed=9, **SERIAL))


def test_compare_variants_agrees_with_the_hands_played_one_by_one():
    """The sharded totals give the averages of the per-hand rows of the same hands."""
    from palace.analysis.bot_hands import play_hands
    from palace.rules import Rules

    rules = Rules(stacks=20)
    rows = play_hands(rules, 60, players=3, seed=4, bot="mixed")
    df = compare_variants({"x": rules}, hands=60, players=3, seed=4, **SERIAL)["x"]
    assert df["pot"] == round(rows["pot"].mean(), 2)
    assert df["battles per hand"] == round(rows["battles"].mean(), 2)
    assert df["ended by showdown %"] == round(100 * (rows["ending"] == "showdown").mean(), 2)
    won = rows[["won pos 1", "won pos 2", "won pos 3"]].sum()
    assert df["chips to pos 2 %"] == round(100 * won["won pos 2"] / won.sum(), 2)


def test_study_inputs_are_checked_naming_the_field():
    with pytest.raises(PalaceError, match="hands must be a whole number >= 1"):
        compare_variants(named(["standard"]), hands=0, **SERIAL)
    with pytest.raises(PalaceError, match="seed must be a whole number >= 0"):
        exclusion_flip_rate(sizes=[4], battles=10, seed=-1, **SERIAL)
    with pytest.raises(PalaceError, match="bot must be one of"):
        compare_variants(named(["standard"]), hands=2, bot="clever", **SERIAL)
    with pytest.raises(PalaceError, match="unknown variant 'pot-limit'"):
        named(["pot-limit"])


def test_banner_deal_distribution_matches_the_stats():
    counts = banner_deal_counts(players=[3, 9], deals=500, seed=4, **SERIAL)
    dist = banner_deal_distribution(counts)
    stats = banner_deal_stats(counts)
    assert np.allclose(dist.sum(axis=0), 100)
    for n in (3, 9):
        mean = float((dist.index.to_numpy() * dist[n]).sum() / 100)
        assert abs(mean - stats.loc[n, "mean rejects"]) < 1e-9
        assert dist[n].iloc[stats.loc[n, "max rejects"] + 1 :].sum() == 0
