"""What a rule change does to the game, with players who adapt: variants compared on the same
seeded deals played by `SearchBot` at every seat, with 95% intervals and findings in words.

The unit of work is a *shard*: `play_shard(rules, seed, shard, hands)` plays `hands`
seeded hands and returns one row per hand (plain dicts). It is a plain, picklable
function of its arguments, so a study runs the same serially, in a process pool or on a
Dask cluster (``client.map(play_shard, ...)``); hand `i` of shard `k` is dealt from seed
``seed * 1_000_003 + k * 10_007 + i`` under every variant, so variants are compared on the
same deals (paired differences).

`summarise(rows_by_variant)` gives each figure's mean and 95% interval per variant, and
`differences(rows_by_variant, baseline)` each variant's paired difference from the
baseline with its interval and whether it is significant; `findings(...)` says it in
plain words. ``python -m palace.analysis.variant_effects`` writes the tables to
``data/studies/`` (``variant_effects*.csv`` and ``variant_effects.md``).

The small game's counterpart is exact: `palace.analysis.solver.equilibrium_figures` on
the solved strategies (``data/solved/``), tabled by `small_game_table`.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import statistics
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from palace.analysis.search_bot import SearchBot
from palace.events import EndReason
from palace.game import Game
from palace.rules import Rules

DATA = Path(__file__).resolve().parents[2] / "data" / "studies"
SOLVED = Path(__file__).resolve().parents[2] / "data" / "solved"

VARIANTS: dict[str, Rules] = {
    "standard": Rules(),
    "no-limit (R3.3)": Rules(structure="no-limit"),
    "call matches attack (R7.6)": Rules(call_matches_attack=True),
    "two left battle at once (R9.3)": Rules(two_left="at_once"),
}

# figure -> (label in tables, unit)
FIGURES: dict[str, str] = {
    "attacks": "attacks per hand",
    "attack_rate": "attacks per turn action %",
    "attack_size": "chips per attack",
    "first_attack_turn": "turn of the first attack",
    "buys": "soldiers bought per hand",
    "raises": "raises per hand",
    "turns": "hand length (turn actions)",
    "decisions": "decisions per hand",
    "pot": "pot (chips)",
    "end_fold_to_attack": "ends: a defender folds %",
    "end_battle": "ends: battle showdown %",
    "end_turn_fold": "ends: a fold on a turn %",
    "end_showdown": "ends: showdown (R9.1 / D22) %",
    "end_shared": "ends: pot shared %",
    "net_first_seat": "value of the first seat (chips per hand)",
    "net_dealer": "value of the dealer (chips per hand)",
}
PERCENT = {k for k in FIGURES if k.startswith("end_") or k == "attack_rate"}


def _num(x: object) -> str:
    """A table figure with two decimals."""
    return f"{x:.2f}"


def _seed(seed: int, shard: int, i: int) -> int:
    return seed * 1_000_003 + shard * 10_007 + i


def hand_row(game: Game) -> dict[str, Any]:
    """The figures of one finished hand (see `FIGURES`)."""
    res = game.result
    assert res is not None
    events = game.events
    bets = [e for e in events if e.kind == "bet"]
    turns = game.turns
    shared = len(res.winners) > 1
    # how the hand ended: the last fold or battle showdown decides it (R9.2)
    last = next((e for e in reversed(events) if e.kind == "battle" or e.kind == "fold"), None)
    ending = ""
    if res.reason is EndReason.LAST_STANDING and last is not None:
        if last.kind == "battle":
            ending = "battle"
        elif last.rule in ("R7.5", "R7.9"):
            ending = "fold_to_attack"
        else:
            ending = "turn_fold"
    first = (game.dealer + 1) % game.players  # the first seat to act (R6.1)
    first_attack = next((e for e in events if e.kind == "bet"), None)
    turn_of = 0
    if first_attack is not None:  # turn actions up to and including the first attack
        turn_of = sum(
            1
            for e in events[: first_attack.index + 1]
            if e.kind in ("buy", "discard", "stay", "bet")
            or (e.kind == "fold" and e.rule == "R6.6")
        )
    return {
        "attacks": len(bets),
        "attack_rate": 100.0 * len(bets) / turns if turns else 0.0,
        "attack_size": statistics.fmean(e.amount for e in bets) if bets else math.nan,
        "first_attack_turn": turn_of if first_attack is not None else math.nan,
        "buys": sum(1 for e in events if e.kind == "buy"),
        "raises": sum(1 for e in events if e.kind == "raise"),
        "turns": turns,
        "decisions": len(game.actions),
        "pot": res.pot,
        "end_fold_to_attack": 100.0 * (ending == "fold_to_attack"),
        "end_battle": 100.0 * (ending == "battle"),
        "end_turn_fold": 100.0 * (ending == "turn_fold"),
        "end_showdown": 100.0 * (res.reason is EndReason.SHOWDOWN),
        "end_shared": 100.0 * shared,
        "net_first_seat": game.won[first] - game.put_in[first],
        "net_dealer": game.won[game.dealer] - game.put_in[game.dealer],
    }


def play_shard(
    rules: Rules,
    seed: int,
    shard: int,
    hands: int,
    *,
    players: int = 2,
    simulations: int = 60,
) -> list[dict[str, Any]]:
    """Play `hands` seeded hands with a `SearchBot` at every seat; one row per hand.

    Plain and picklable: the same arguments give the same rows anywhere (a process pool,
    a Dask worker). The dealer moves one seat a hand (R2.3)."""
    rows = []
    for i in range(hands):
        s = _seed(seed, shard, i)
        game = Game.new(players=players, seed=s, rules=rules, dealer=i % players)
        bots = {p: SearchBot(simulations, seed=s * 11 + p) for p in range(players)}
        while not game.is_over:
            seat = game.to_act
            assert seat is not None  # seeded games deal every card at once
            game.apply(bots[seat].choose(game.view(seat)))
        row = hand_row(game)
        row.update(seed=seed, shard=shard, hand=i)
        rows.append(row)
    return rows


# ------------------------------------------------------------------ statistics
def ci95(xs: Iterable[float]) -> tuple[float, float, float, int]:
    """Mean, normal-approximation 95% interval of the mean, and n (NaNs dropped)."""
    v = [x for x in xs if not (isinstance(x, float) and math.isnan(x))]
    if not v:
        return (math.nan, math.nan, math.nan, 0)
    m = statistics.fmean(v)
    half = 1.96 * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else math.nan
    return (m, m - half, m + half, len(v))


def summarise(rows_by_variant: Mapping[str, list[dict[str, Any]]]) -> pd.DataFrame:
    """Each figure's mean and 95% interval per variant (rows: figures; columns: variant x
    mean / low / high / n)."""
    table = {}
    for name, rows in rows_by_variant.items():
        for key, label in FIGURES.items():
            m, lo, hi, n = ci95(r[key] for r in rows)
            table[(label, name)] = {"mean": m, "ci95_low": lo, "ci95_high": hi, "n": n}
    df = pd.DataFrame(table).T
    df.index = pd.MultiIndex.from_tuples(df.index, names=["figure", "variant"])
    df["n"] = df["n"].astype(int)
    return df


def _key(r: dict[str, Any]) -> tuple[int, int, int]:
    return (r["seed"], r["shard"], r["hand"])


def differences(
    rows_by_variant: Mapping[str, list[dict[str, Any]]], baseline: str = "standard"
) -> pd.DataFrame:
    """Each variant minus the baseline, paired by deal: mean difference, its 95% interval,
    the relative change, and whether the interval excludes 0."""
    base = {_key(r): r for r in rows_by_variant[baseline]}
    out = []
    for name, rows in rows_by_variant.items():
        if name == baseline:
            continue
        for key, label in FIGURES.items():
            diffs = [
                r[key] - base[_key(r)][key]
                for r in rows
                if _key(r) in base and not _isnan(r[key]) and not _isnan(base[_key(r)][key])
            ]
            if len(diffs) < 2:  # e.g. the turn of a first attack when one side never attacks
                b = ci95(base[k][key] for k in base)[0]
                v = ci95(r[key] for r in rows)[0]
                d, lo, hi = v - b, math.nan, math.nan
            else:
                d, lo, hi, _ = ci95(diffs)
            b_mean = ci95(r[key] for r in rows_by_variant[baseline])[0]
            rel = 100.0 * d / b_mean if b_mean and not _isnan(b_mean) else math.nan
            significant = not _isnan(lo) and (lo > 0 or hi < 0)
            out.append(
                {
                    "variant": name,
                    "figure": label,
                    "baseline": b_mean,
                    "difference": d,
                    "ci95_low": lo,
                    "ci95_high": hi,
                    "relative %": rel,
                    "significant": significant,
                    "pairs": len(diffs),
                }
            )
    return pd.DataFrame(out)


def _isnan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def findings(diffs: pd.DataFrame) -> list[str]:
    """The differences in plain words, one line per variant: what changed significantly
    (with the interval) and what did not."""
    lines = []
    for variant, part in diffs.groupby("variant", sort=False):
        sig = part[part["significant"]]
        flat = part[~part["significant"]]
        said = []
        for _, r in sig.iterrows():
            rel = "" if _isnan(r["relative %"]) else f" ({r['relative %']:+.0f}%)"
            said.append(
                f"{r['figure']} {r['difference']:+.2f}{rel} "
                f"[95% CI {r['ci95_low']:+.2f}, {r['ci95_high']:+.2f}]"
            )
        text = f"**{variant}**: " + ("; ".join(said) if said else "no significant difference")
        if len(flat):
            text += ". Not significant: " + ", ".join(flat["figure"]) + "."
        else:
            text += "."
        lines.append(text)
    return lines


# ------------------------------------------------------------------ the small game (exact)
def small_game_table(directory: Path = SOLVED) -> pd.DataFrame:
    """The solved small game's equilibrium figures per variant (exact expectations, no
    sampling: no interval needed), from ``data/solved/*_figures.json``."""
    from palace.analysis.solver import FILE_NAMES  # the solver needs OpenSpiel only to solve

    cols = {}
    for label, name in FILE_NAMES.items():
        path = directory / f"{name}_figures.json"
        if path.exists():
            cols[label] = json.loads(path.read_text())
    return pd.DataFrame(cols)


# ------------------------------------------------------------------ running a study
def run_study(
    variants: Mapping[str, Rules] = VARIANTS,
    *,
    seed: int = 2026,
    shards: int = 8,
    hands: int = 50,
    players: int = 2,
    simulations: int = 60,
    workers: int = 1,
    progress: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """Every variant on the same `shards` x `hands` seeded deals; serial with
    ``workers=1``, else a process pool (the same rows either way)."""
    jobs = [(name, rules, k) for name, rules in variants.items() for k in range(shards)]
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            futures = [
                (name, pool.submit(_shard_job, rules, seed, k, hands, players, simulations))
                for name, rules, k in jobs
            ]
            for name, f in futures:
                out[name].extend(f.result())
                if progress:
                    print(f"  {name}: {len(out[name])} hands", flush=True)
    else:
        for name, rules, k in jobs:
            out[name].extend(
                play_shard(rules, seed, k, hands, players=players, simulations=simulations)
            )
            if progress:
                print(f"  {name}: {len(out[name])} hands", flush=True)
    for rows in out.values():
        rows.sort(key=_key)
    return out


def _shard_job(
    rules: Rules, seed: int, shard: int, hands: int, players: int, simulations: int
) -> list[dict[str, Any]]:
    return play_shard(rules, seed, shard, hands, players=players, simulations=simulations)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Variant effects with SearchBot players.")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--hands", type=int, default=50, help="hands per shard (50)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--simulations", type=int, default=60, help="SearchBot budget (60)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(DATA))
    ap.add_argument("--name", default="variant_effects", help="file name stem (variant_effects)")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    rows = run_study(
        seed=args.seed,
        shards=args.shards,
        hands=args.hands,
        players=args.players,
        simulations=args.simulations,
        workers=args.workers,
        progress=True,
    )
    secs = time.perf_counter() - start
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = summarise(rows)
    diffs = differences(rows)
    stem = args.name
    summary.to_csv(out / f"{stem}.csv")
    diffs.to_csv(out / f"{stem}_differences.csv", index=False)
    pd.DataFrame([r | {"variant": v} for v, rs in rows.items() for r in rs]).to_csv(
        out / f"{stem}_hands.csv", index=False
    )
    given = sys.argv[1:] if argv is None else argv
    command = "python -m palace.analysis.variant_effects" + (
        " " + shlex.join(given) if given else ""
    )
    n = args.shards * args.hands
    wide = summary["mean"].unstack("variant")[list(VARIANTS)]
    lo = summary["ci95_low"].unstack("variant")[list(VARIANTS)]
    hi = summary["ci95_high"].unstack("variant")[list(VARIANTS)]
    table = ["| figure | " + " | ".join(VARIANTS) + " |", "| --- |" + " ---: |" * len(VARIANTS)]
    for label in FIGURES.values():
        cells = [
            f"{_num(wide.loc[label, v])} [{_num(lo.loc[label, v])}, {_num(hi.loc[label, v])}]"
            for v in VARIANTS
        ]
        table.append(f"| {label} | " + " | ".join(cells) + " |")
    text = [
        "# Variant effects with adaptive players",
        "",
        "Produced by (from the repository root):",
        "",
        f"    .venv/bin/{command}",
        "",
        f"{n} seeded hands per variant ({args.shards} shards x {args.hands}), {args.players} "
        f"players, `SearchBot({args.simulations} simulations)` at every seat; the same deals "
        "under every variant. Each cell: mean [95% CI]; differences are paired by deal. "
        f"({secs:.0f} s here.) Files: `{stem}.csv` (this table), "
        f"`{stem}_differences.csv` (each variant minus standard), "
        f"`{stem}_hands.csv` (one row per hand).",
        "",
        *table,
        "",
        "## Findings (each variant against the standard rules, paired by deal)",
        "",
        *[f"- {line}" for line in findings(diffs)],
        "",
    ]
    (out / f"{stem}.md").write_text("\n".join(text))
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "FIGURES",
    "VARIANTS",
    "ci95",
    "differences",
    "findings",
    "hand_row",
    "play_shard",
    "run_study",
    "small_game_table",
    "summarise",
]
