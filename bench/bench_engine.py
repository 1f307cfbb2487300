"""Engine speed: random-bot complete hands/s and actions/s for 2, 4 and 10 players.

Run: ``.venv/bin/python bench/bench_engine.py [--hands N]``. Three measurements on the
same seeds in one run:

- hands/s: complete hands (dealer draw, deal, play to the end) with `RandomBot`s that
  read `game.view(seat)` for every decision;
- actions/s (bots): actions chosen through the view and applied, per second of play
  (the deal excluded);
- actions/s (engine): `legal_actions()` + a seeded random pick + `apply()`, no views.
"""

from __future__ import annotations

import argparse
import random
import time

from palace import Game, RandomBot


def run(players: int, hands: int) -> dict[str, float]:
    deal_t = play_t = raw_t = 0.0
    actions = raw_actions = 0
    for seed in range(hands):
        t0 = time.perf_counter()
        g = Game.new(players=players, seed=seed)
        t1 = time.perf_counter()
        bots = [RandomBot(seed * 16 + s) for s in range(players)]
        while not g.is_over:
            seat = g.to_act
            g.apply(bots[seat].choose(g.view(seat)))
            actions += 1
        t2 = time.perf_counter()
        deal_t += t1 - t0
        play_t += t2 - t1
        # the bare engine: same seed, no views
        g = Game.new(players=players, seed=seed)
        rng = random.Random(seed)
        t3 = time.perf_counter()
        while not g.is_over:
            legal = g.legal_actions()
            kinds = sorted({a.kind for a in legal})
            kind = rng.choice(kinds)
            g.apply(rng.choice([a for a in legal if a.kind == kind]))
            raw_actions += 1
        raw_t += time.perf_counter() - t3
    return {
        "players": players,
        "hands/s": hands / (deal_t + play_t),
        "actions/hand": actions / hands,
        "actions/s (bots, view each move)": actions / play_t,
        "actions/s (engine only)": raw_actions / raw_t,
        "deal ms": 1000 * deal_t / hands,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    rows = [run(n, args.hands) for n in (2, 4, 10)]
    keys = list(rows[0])
    widths = [max(12, len(k)) for k in keys]
    print(" | ".join(f"{k:>{w}}" for k, w in zip(keys, widths, strict=True)))
    for r in rows:
        print(
            " | ".join(
                f"{r[k]:>{w},.1f}" if isinstance(r[k], float) else f"{r[k]:>{w}}"
                for k, w in zip(keys, widths, strict=True)
            )
        )


if __name__ == "__main__":
    main()
