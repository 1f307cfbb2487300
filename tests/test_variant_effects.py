"""The variant study: seeded shards on Dask like every study (same tables serially and on two
workers, resumable), paired differences with 95% intervals, findings that say when a
difference is not significant, and the shipped tables consistent with their hands."""

from __future__ import annotations

import math
import pickle
import re
from pathlib import Path

import pandas as pd
import pytest

from palace import Game, PalaceError, RuleBot, Rules, play_out
from palace.analysis import cluster
from palace.analysis import variant_effects as ve
from palace.analysis.shards import Cancelled, Watch
from palace.analysis.variants import VARIANTS, named

SIMS = 8
SERIAL = {"progress": False, "scheduler": "serial"}
SMALL = {"hands": 6, "players": 2, "seed": 5, "simulations": SIMS, "per_shard": 2}


def tables(rows: dict[str, list[dict]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    return ve.summarise(rows), ve.differences(rows)


def test_hands_are_seeded_one_by_one_plain_and_picklable() -> None:
    rows = ve.play_hands(Rules(), seed=7, start=0, stop=4, simulations=SIMS)
    assert rows == ve.play_hands(Rules(), seed=7, start=0, stop=4, simulations=SIMS)
    split = ve.play_hands(Rules(), seed=7, start=0, stop=1, simulations=SIMS) + ve.play_hands(
        Rules(), seed=7, start=1, stop=4, simulations=SIMS
    )
    assert split == rows  # a hand does not depend on the shard it is played in
    assert [r["hand"] for r in rows] == [0, 1, 2, 3]
    assert pickle.loads(pickle.dumps(ve.play_hands)) is ve.play_hands
    assert set(ve.figures(2)) <= set(rows[0])
    # hand i is dealt with seed seed + i by dealer i % players
    g = Game.new(players=2, seed=7 + 3, dealer=1)
    assert rows[3]["net_pos_2"] + rows[3]["net_pos_1"] == 0  # heads-up: one seat's loss
    assert g.dealer == 1


@pytest.mark.parametrize("seed", range(6))
def test_hand_row_counts_what_happened(seed: int) -> None:
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
    for p in range(1, 5):  # position p is the p-th seat left of the dealer; 4 is the dealer
        seat = (g.dealer + p) % 4
        assert row[f"net_pos_{p}"] == g.won[seat] - g.put_in[seat]
    assert sum(row[f"net_pos_{p}"] for p in range(1, 5)) == 0  # chips are conserved (R10)
    assert ve.figures(4)["net_pos_4"] == "value of the dealer (chips per hand)"
    assert ve.figures(4)["net_pos_1"] == "value of the first to act (chips per hand)"


def test_an_unfinished_hand_has_no_row() -> None:
    with pytest.raises(PalaceError, match="not over"):
        ve.hand_row(Game.new(players=2, seed=1))


def test_ci95_is_a_normal_interval_around_the_mean() -> None:
    m, lo, hi, n = ve.ci95([1.0, 2.0, 3.0, math.nan])
    assert (m, n) == (2.0, 3)
    assert lo == pytest.approx(2 - 1.96 / math.sqrt(3))
    assert hi == pytest.approx(2 + 1.96 / math.sqrt(3))


def test_identical_rules_show_no_significant_difference_and_say_so() -> None:
    rows = ve.run_study({"standard": Rules(), "same": Rules()}, **SMALL, **SERIAL)
    diffs = ve.differences(rows)
    assert not diffs["significant"].any()
    assert (diffs["difference"].fillna(0) == 0).all()
    (line,) = ve.findings(diffs)
    assert line.startswith("**same**: no significant difference. Not significant: attacks")
    table = ve.summarise(rows)
    assert ((table["ci95_low"] <= table["mean"]) | table["ci95_low"].isna()).all()


def test_intervals_stay_within_what_a_figure_can_be() -> None:
    """A few hands give wide normal intervals: a share of hands is shown within 0-100% and a
    count never below 0, while a seat's value (chips won or lost) may be negative."""
    hand = {k: 1.0 for k in ve.FIGURES}
    hand.update(end_battle=100.0, raises=0.0, net_pos_1=-6.0, net_pos_2=6.0)
    rows = {"standard": [dict(hand), dict(hand, end_battle=0.0, raises=1.0, net_pos_1=8.0)]}
    table = ve.summarise(rows).xs("standard", level="variant")
    battle = table.loc[ve.FIGURES["end_battle"]]
    assert battle["mean"] == 50.0 and battle["ci95_low"] == 0.0 and battle["ci95_high"] == 100.0
    assert table.loc[ve.FIGURES["raises"], "ci95_low"] == 0.0
    assert table.loc[ve.seat_label(1, 2), "ci95_low"] < -6.0  # a value is not cut


def test_a_real_rule_change_is_found_and_said_in_words() -> None:
    # R9.3 "at_once": heads-up hands become one battle with no soldiers bought
    variants = named(["standard", "two-left-at-once"])
    rows = ve.run_study(variants, hands=40, simulations=SIMS, **SERIAL)
    diffs = ve.differences(rows).set_index("figure")
    assert all(r["buys"] == 0 for r in rows["two left battle at once (R9.3)"])
    buys = diffs.loc[ve.FIGURES["buys"]]
    assert buys["difference"] < 0 and buys["significant"]
    (finding,) = ve.finding_list(diffs.reset_index())
    assert finding.variant == "two left battle at once (R9.3)"
    said = " ".join(finding.changes)
    assert "fewer soldiers are bought (soldiers bought per hand -" in said and "95% CI [" in said
    assert ve.FIGURES["buys"] not in finding.unchanged


def test_the_default_variants_are_named_variants_and_the_first_is_the_baseline() -> None:
    assert set(ve.DEFAULT_VARIANTS) <= set(VARIANTS)
    rows = ve.run_study(hands=2, simulations=2, **SERIAL)
    assert list(rows) == [VARIANTS[s].label for s in ve.DEFAULT_VARIANTS]
    assert set(ve.differences(rows)["variant"]) == set(list(rows)[1:])


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ({"hands": 0}, "hands must be a whole number >= 1, got 0"),
        ({"players": 11}, "players must be a whole number from 2 to 10, got 11"),
        ({"bot": "alpha"}, "bot must be one of 'search', 'odds', 'rules', got 'alpha'"),
        ({"simulations": 0}, "simulations must be a whole number >= 1"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"variants": {}}, "at least one variant"),
        ({"variants": {"x": "no-limit"}}, "variant 'x' must map to a Rules, got str"),
    ],
)
def test_bad_setups_are_refused_naming_the_field(setup: dict, says: str) -> None:
    with pytest.raises(PalaceError, match=re.escape(says)):
        ve.run_study(**{"hands": 2, **setup}, **SERIAL)


# ------------------------------------------------------------------ on Dask, like every study
def test_serial_and_two_local_workers_give_the_same_tables() -> None:
    from distributed import LocalCluster

    variants = named(["standard", "no-limit"])
    want = tables(ve.run_study(variants, **SMALL, **SERIAL))
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0"
    ) as local:
        address = local.scheduler_address
        try:
            got = tables(ve.run_study(variants, **SMALL, progress=False, scheduler=address))
        finally:
            cluster.close(address)
    for a, b in zip(got, want, strict=True):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    # and the shard size changes nothing either
    one_by_one = tables(ve.run_study(variants, **(SMALL | {"per_shard": 1}), **SERIAL))
    pd.testing.assert_frame_equal(one_by_one[0], want[0], check_exact=True)


def test_an_interrupted_study_resumes_where_it_stopped(tmp_path: Path) -> None:
    variants = named(["standard", "one-raise"])
    seen: list[tuple[int, int]] = []

    def stop_after_two(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 2:
            watch.cancel.set()

    watch = Watch(on_progress=stop_after_two)
    with pytest.raises(Cancelled):
        ve.run_study(variants, **SMALL, **SERIAL, cache=tmp_path, watch=watch)
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("variant-effects-search-")
    assert len(list(folder.glob("shard-*.json"))) == 2
    starts: list[int] = []
    rows = ve.run_study(
        variants, **SMALL, **SERIAL, cache=tmp_path, watch=Watch(lambda d, _t: starts.append(d))
    )
    assert starts[0] == 2 and starts[-1] == seen[-1][1] == 6  # 2 variants x 3 shards
    fresh = ve.run_study(variants, **SMALL, **SERIAL)
    for a, b in zip(tables(rows), tables(fresh), strict=True):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_the_command_line_writes_tables_that_load_back(tmp_path: Path) -> None:
    args = ["--hands", "4", "--simulations", "4", "--variants", "standard", "no-limit"]
    assert ve.main([*args, "--scheduler", "serial", "--quiet", "--no-cache", "--out",
                    str(tmp_path), "--name", "tiny"]) == 0  # fmt: skip
    text = (tmp_path / "tiny.md").read_text()
    command = "--seed 2026 --hands 4 --players 2 --bot search --simulations 4 --variants"
    assert (
        f"python -m palace.analysis.variant_effects {command} standard no-limit --name tiny" in text
    )
    assert "## Findings (each variant against standard (limit), paired by deal)" in text
    stored = ve.load("tiny", tmp_path)
    assert list(stored.table.columns) == ["standard (limit)", "no-limit (R3.3)"]
    assert stored.baseline == "standard (limit)"
    rows = ve.run_study(named(["standard", "no-limit"]), hands=4, simulations=4, **SERIAL)
    assert [str(f) for f in stored.findings()] == [str(f) for f in ve.finding_list(
        ve.differences(rows))]  # fmt: skip
    with pytest.raises(PalaceError, match="no stored study 'nothing'"):
        ve.load("nothing", tmp_path)


# ------------------------------------------------------------------ the shipped tables
@pytest.mark.parametrize("name", ["variant_effects", "variant_effects_rules", "variant_effects_4p"])
def test_the_shipped_tables_are_the_summary_of_their_hands(name: str) -> None:
    stored = ve.load(name)
    hands = pd.read_csv(ve.DATA / f"{name}_hands.csv")
    labels = [v.label for v in VARIANTS.values()]
    names = list(dict.fromkeys(hands["variant"]))
    assert set(names) <= set(labels) and names[0] == "standard (limit)"
    rows = {
        v: [
            {k: (float(x) if isinstance(x, float) else x) for k, x in r.items() if k != "variant"}
            for r in part.to_dict("records")
        ]
        for v, part in hands.groupby("variant", sort=False)
    }
    again = ve.summarise(rows)
    pd.testing.assert_frame_equal(again, stored.summary, check_exact=False, rtol=1e-4)
    diffs = ve.differences(rows)
    assert list(diffs["significant"]) == list(stored.differences["significant"])
    assert "Produced by" in stored.about and "python -m palace.analysis.variant_effects" in (
        stored.about
    )


@pytest.mark.parametrize("name", ["variant_effects", "variant_effects_rules", "variant_effects_4p"])
def test_the_shipped_hands_are_what_the_engine_plays_now(name: str) -> None:
    """The first hands of each variant, played again with the command's own seed, players,
    bots and simulations, give the stored rows: a rule change that moves a hand fails here
    until the study is made again (as a stale 20-chip table once went unnoticed)."""
    command = ve.load(name).about
    flags = dict(re.findall(r"--(seed|players|bot|simulations) (\w+)", command))
    hands = pd.read_csv(ve.DATA / f"{name}_hands.csv")
    by_label = {v.label: v for v in VARIANTS.values()}
    for label, part in hands.groupby("variant", sort=False):
        stored = part.sort_values("hand").head(2).drop(columns="variant").to_dict("records")
        played = ve.play_hands(
            by_label[label].rules,
            seed=int(flags["seed"]),
            start=0,
            stop=2,
            players=int(flags["players"]),
            bot=flags["bot"],
            simulations=int(flags.get("simulations", 60)),
        )
        for old, new in zip(stored, played, strict=True):
            assert old.keys() == new.keys(), label
            for key, value in old.items():
                assert new[key] == pytest.approx(value, rel=1e-4, abs=1e-4), (label, key)


def test_two_studies_side_by_side_say_which_one_sees_a_change() -> None:
    both = {
        "search bots": ve.load("variant_effects"),
        "rule bots": ve.load("variant_effects_rules"),
    }
    table = ve.contrast(both, ["buys", "attack_size"])
    assert list(table.columns) == ["search bots", "rule bots"]
    assert set(table.index.get_level_values("figure")) == {
        ve.FIGURES["buys"],
        ve.FIGURES["attack_size"],
    }
    for cell in table.to_numpy().ravel():
        assert cell.endswith((" *", " ·")) and "[" in cell
    lines = ve.seen_by(both)
    assert len(lines) == 3 and lines[0].startswith("no-limit (R3.3): figures that change")
    # rule bots play every deal the same under no-limit: only the search bots see buying change
    assert "seen only by search bots:" in lines[0] and ve.FIGURES["buys"] in lines[0]
