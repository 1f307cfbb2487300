"""The variant study: seeded picklable shards, paired differences with 95% intervals, and
findings that say when a difference is not significant."""

from __future__ import annotations

import math
import pickle

import pytest

from palace import Game, RuleBot, Rules, play_out
from palace.analysis import variant_effects as ve

SIMS = 8


def test_a_shard_is_seeded_plain_and_picklable():
    rows = ve.play_shard(Rules(), 7, 1, 3, simulations=SIMS)
    again = ve.play_shard(Rules(), 7, 1, 3, simulations=SIMS)
    assert rows == again and len(rows) == 3
    assert pickle.loads(pickle.dumps(ve.play_shard)) is ve.play_shard
    assert set(ve.FIGURES) <= set(rows[0])
    assert [(r["shard"], r["hand"]) for r in rows] == [(1, 0), (1, 1), (1, 2)]


@pytest.mark.parametrize("seed", range(6))
def test_hand_row_counts_what_happened(seed):
    g = play_out(Game.new(players=4, seed=seed), {s: RuleBot() for s in range(4)})
    row = ve.hand_row(g)
    assert row["attacks"] == sum(1 for e in g.events if e.kind == "bet")
    assert row["buys"] == sum(1 for e in g.events if e.kind == "buy")
    assert row["pot"] == g.result.pot and row["turns"] == g.turns
    for key in ve.FIGURES:
        if key.startswith("end_"):
            assert row[key] in (0.0, 100.0)
    ends = row["end_fold_to_attack"] + row["end_battle"] + row["end_turn_fold"]
    assert ends == (100.0 if g.result.reason == "last standing" else 0.0)  # one way to end
    first = (g.dealer + 1) % 4
    assert row["net_first_seat"] == g.won[first] - g.put_in[first]


def test_ci95_is_a_normal_interval_around_the_mean():
    m, lo, hi, n = ve.ci95([1.0, 2.0, 3.0, math.nan])
    assert (m, n) == (2.0, 3)
    assert lo == pytest.approx(2 - 1.96 / math.sqrt(3)) and hi == pytest.approx(
        2 + 1.96 / math.sqrt(3)
    )


def test_identical_rules_show_no_significant_difference_and_say_so():
    rows = ve.run_study({"standard": Rules(), "same": Rules()}, shards=2, hands=2, simulations=SIMS)
    diffs = ve.differences(rows)
    assert not diffs["significant"].any()
    assert (diffs["difference"].fillna(0) == 0).all()
    (line,) = ve.findings(diffs)
    assert line.startswith("**same**: no significant difference")
    table = ve.summarise(rows)
    assert (table["ci95_low"] <= table["mean"]).all() or table["mean"].isna().any()


def test_a_real_rule_change_is_found():
    # R9.3 "at_once": heads-up hands become one battle with no soldiers bought
    variants = {"standard": Rules(), "at once": Rules(two_left="at_once")}
    rows = ve.run_study(variants, shards=1, hands=8, simulations=SIMS)
    diffs = ve.differences(rows).set_index("figure")
    buys = diffs.loc[ve.FIGURES["buys"]]
    assert all(r["buys"] == 0 for r in rows["at once"])
    assert buys["difference"] < 0
    line = ve.findings(diffs.reset_index())[0]
    assert "soldiers bought per hand" in line
