"""Explore's estimate of a study's computing against the computing measured, on both engines.

``python bench/explore_budget.py [--quick]``: plays seeded hands the way an Explore study
does (`hand_totals` for rule, random and mixed bots; `variant_effects.play_hands` for search
bots at 16 simulations) over 2-10 players and every named variant, on the compiled engine and,
in a second process, on its pure-Python source (``PALACE_PURE=1``). For each engine it prints
the most CPU seconds measured per unit of work (a hand-seat; a hand per simulation per
player²) beside the figure `palace.app.study_budget` estimates with, and says whether the
estimate covers every measurement (the goal: Explore's caps and notes err on the long side,
so a study said to take about four minutes does not take more on this machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from palace.app.study_budget import SEARCH_SIMULATIONS as SIMULATIONS  # Explore's default

LINEUPS = ("rules", "mixed", "random")
PLAYERS = (2, 4, 6, 10)
SEARCH_PLAYERS = (2, 4, 6)


def measure(quick: bool) -> dict[str, object]:
    """The most CPU seconds per unit measured on the engine this process runs."""
    from palace.analysis.bot_hands import hand_totals
    from palace.analysis.variant_effects import play_hands
    from palace.analysis.variants import named
    from palace.native import is_compiled

    compiled = is_compiled()
    variants = named()
    hands = (60 if quick else 200) // (1 if compiled else 4)  # the source: a quarter
    hand_totals(next(iter(variants.values())), players=4, seed=1, bot="rules", start=0, stop=5)
    worst_seat: tuple[float, str] = (0.0, "")  # measured after a first few hands (caches)
    for bot in LINEUPS:
        for players in PLAYERS:
            for label, rules in variants.items():
                t0 = time.process_time()
                hand_totals(rules, players=players, seed=5, bot=bot, start=0, stop=hands)
                per = (time.process_time() - t0) / (hands * players)
                worst_seat = max(worst_seat, (per, f"{bot} bots, {players} players, {label}"))
    search_variants = list(variants.items())[: 2 if quick else 4]
    worst_search: tuple[float, str] = (0.0, "")
    for players in SEARCH_PLAYERS:
        n = max(2, (24 if compiled else 6) // players)
        for label, rules in search_variants:
            t0 = time.process_time()
            play_hands(
                rules, seed=3, start=0, stop=n, players=players, bot="search",
                simulations=SIMULATIONS,
            )  # fmt: skip
            per = (time.process_time() - t0) / (n * SIMULATIONS * players**2)
            worst_search = max(worst_search, (per, f"{players} players, {label}"))
    return {"compiled": compiled, "hand_seat": worst_seat, "search_unit": worst_search}


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    if "--child" in sys.argv[1:]:
        print(json.dumps(measure(quick)))
        return 0
    from palace.app.study_budget import unit_costs

    print("Explore's study budget: the estimate per unit of work against the most measured")
    print(f"(CPU seconds; search bots at {SIMULATIONS} simulations; every named variant)\n")
    runs = []
    for pure in (False, True):
        env = dict(os.environ, PALACE_PURE="1" if pure else "0")
        argv = [sys.executable, __file__, "--child", *(["--quick"] if quick else [])]
        out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    covered = True
    print(f"{'engine':<10} {'unit':<42} {'measured':>10} {'estimate':>10} {'ratio':>7}  worst case")
    for run in runs:
        costs = unit_costs(bool(run["compiled"]))
        engine = "compiled" if run["compiled"] else "source"
        for key, unit, estimate in (
            ("hand_seat", "a hand-seat (rule, mixed, random bots)", costs.hand_seat),
            ("search_unit", "a search hand per simulation per player²", costs.search_unit),
        ):
            measured, where = run[key]
            covered = covered and measured <= estimate
            print(
                f"{engine:<10} {unit:<42} {measured * 1e3:>8.3f}ms {estimate * 1e3:>8.3f}ms "
                f"{estimate / measured:>6.2f}x  {where}"
            )
    verdict = "met" if covered else "not met"
    print(
        f"\nExplore's estimates cover every measured cost (goal: estimate >= measured): {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
