"""Search speed: OpenSpiel's ISMCTS on the Palace adapter against the engine's own SearchBot.

    .venv/bin/python bench/bench_search.py            # 20 positions per table size

Both search the same positions (the first decision of seeded hands) with the same number
of simulations; times are CPU seconds per decision (`time.process_time`, one process).
OpenSpiel's `open_spiel.python.algorithms.ismcts.ISMCTSBot` resamples worlds through the
adapter's `resample_from_infostate` and plays random rollouts through the pyspiel API;
`SearchBot` clones engine worlds (`view.sample_world`) and plays rule-based rollouts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from palace.analysis.search_bot import SearchBot  # noqa: E402


def positions(players: int, n: int):
    """OpenSpiel states at the first decision of `n` seeded deals (dealer 0)."""
    from palace.analysis import spiel_game as sg

    game = sg.load(None, players=players, dealer=0)
    rng = np.random.RandomState(players)
    out = []
    for _ in range(n):
        state = game.new_initial_state()
        while state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(actions)))
        out.append(state)
    return game, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--simulations", type=int, default=100)
    args = ap.parse_args(argv)
    from open_spiel.python.algorithms import ismcts, mcts

    print(f"{'players':>7} | {'ISMCTS (OpenSpiel, adapter) s':>30} | {'SearchBot (engine) s':>21}")
    for players in (2, 4):
        game, states = positions(players, args.positions)
        ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        os_times, sb_times = [], []
        for i, state in enumerate(states):
            bot = ismcts.ISMCTSBot(
                game, ev, 2.0, args.simulations, random_state=np.random.RandomState(i)
            )
            t = time.process_time()
            bot.step(state)
            os_times.append(time.process_time() - t)
            view = state.engine.view(state.current_player())
            t = time.process_time()
            SearchBot(args.simulations, seed=i).choose(view)
            sb_times.append(time.process_time() - t)
        print(
            f"{players:>7} | {statistics.median(os_times):>30.3f} | "
            f"{statistics.median(sb_times):>21.3f}"
        )
    print(f"(median CPU seconds per decision, {args.simulations} simulations each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
