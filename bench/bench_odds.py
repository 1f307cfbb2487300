"""Time `palace.analysis.odds.battle_odds` per target over many random mid-hand positions (seeded).

    .venv/bin/python bench/bench_odds.py                 # 200 positions, both engines
    .venv/bin/python bench/bench_odds.py --positions 50 --engine python

Each position comes from a seeded 4-player hand played by `RuleBot`s for a random number
of actions; every target the seat to act could battle (R7.1, R7.2) is timed. Prints
mean / p95 / max milliseconds per target and the number of hidden palace sets
enumerated (C(unseen, 3), R5).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from palace.analysis.bots import RuleBot  # noqa: E402
from palace.analysis.odds import battle_targets, odds_from  # noqa: E402
from palace.game import Game  # noqa: E402
from palace.views import SeatView  # noqa: E402


def positions(n: int, seed: int, players: int) -> list[tuple[SeatView, list[int]]]:
    """`n` (view, targets) pairs from seeded hands, each some actions into the hand."""
    rng = random.Random(seed)
    out: list[tuple[SeatView, list[int]]] = []
    hand = 0
    while len(out) < n:
        g = Game.new(players=players, seed=seed * 10_000 + hand, dealer=hand % players)
        hand += 1
        bots = {s: RuleBot() for s in range(players)}
        for _ in range(rng.randint(0, 30)):
            if g.is_over:
                break
            g.apply(bots[g.to_act].choose(g.view(g.to_act)))
        if g.is_over:
            continue
        v = g.view(g.to_act)
        targets = battle_targets(v)
        if targets:
            out.append((v, targets))
    return out


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(round(q * (len(ys) - 1))))]


def run(engine: str, cases: list[tuple[SeatView, list[int]]]) -> dict[str, float]:
    times, sets = [], []
    v0, t0 = cases[0]
    odds_from(v0, t0[0], v0.unseen, engine=engine)  # warm up (imports, tables)
    for v, targets in cases:
        unseen = v.unseen
        for t in targets:
            start = time.perf_counter()
            o = odds_from(v, t, unseen, engine=engine)
            times.append((time.perf_counter() - start) * 1000)
            sets.append(o.sets)
    return {
        "targets": len(times),
        "mean_ms": statistics.fmean(times),
        "p95_ms": percentile(times, 0.95),
        "max_ms": max(times),
        "sets_mean": statistics.fmean(sets),
        "sets_min": min(sets),
        "sets_max": max(sets),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200, help="positions to time (200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the positions (1)")
    ap.add_argument("--players", type=int, default=4, help="players per hand (4)")
    ap.add_argument(
        "--engine",
        choices=["python", "numpy", "both"],
        default="both",
        help="evaluator behind battle_odds: python, numpy, or both (default)",
    )
    args = ap.parse_args(argv)
    cases = positions(args.positions, args.seed, args.players)
    engines = ["python", "numpy"] if args.engine == "both" else [args.engine]
    print(
        f"battle_odds over {len(cases)} positions ({args.players} players, seed {args.seed}); "
        "ms per target"
    )
    print(f"{'engine':8} {'targets':>7} {'mean':>7} {'p95':>7} {'max':>7}   sets (mean, min-max)")
    for e in engines:
        r = run(e, cases)
        print(
            f"{e:8} {r['targets']:7d} {r['mean_ms']:7.2f} {r['p95_ms']:7.2f} {r['max_ms']:7.2f}"
            f"   {r['sets_mean']:.0f}, {r['sets_min']}-{r['sets_max']}"
        )
    print("battle_odds itself uses numpy when palace.analysis.batch imports (engine='auto').")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
