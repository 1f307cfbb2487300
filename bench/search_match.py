"""SearchBot against OddsBot and RuleBot: net chips per hand per seat, 95% CI, decision times.

    .venv/bin/python bench/search_match.py                 # 1,000 deals x 2 seatings per opponent
    .venv/bin/python bench/search_match.py --quick         # 60 deals, no files written

Design (duplicate format, as `bench/bot_match.py`): every deal (seed, dealer) is played
twice with the seats swapped, so each bot holds every seat and gets the cards the other
had. Heads-up by default (two players, the default rules: limit, s = 2, b = 4, unlimited
chips, R9.3 `two_left="after_quiet_round"`); ``--players 4`` alternates the two kinds
round the table. The margin per deal is (mean net of a SearchBot seat) minus (mean net of
an opponent seat), averaged over the two seatings; the 95% interval is mean +- 1.96
standard errors over deals. Decision times are CPU seconds (`time.process_time`) of the
SearchBot's `choose`, one process per core.

Writes `data/search_match.csv` and `data/search_match.md` (command, tables, verdicts).
"""

from __future__ import annotations

import argparse
import csv
import os
import shlex
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot_match import ci95  # noqa: E402

from palace.analysis.bots import RuleBot  # noqa: E402
from palace.analysis.odds_bot import OddsBot  # noqa: E402
from palace.analysis.search_bot import SearchBot  # noqa: E402
from palace.game import Game  # noqa: E402
from palace.rules import Rules  # noqa: E402

OPPONENTS = {"OddsBot": OddsBot, "RuleBot": RuleBot}


class Timed:
    """A bot whose decision times (CPU seconds) are recorded."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, view):
        t = time.process_time()
        a = self.bot.choose(view)
        if len(view.legal) > 1:
            self.times.append(time.process_time() - t)
        return a


def play_deal(job: tuple[str, int, int, int, int]) -> dict:
    """Both seatings of one deal against one opponent kind."""
    opponent, deal, seed_base, players, sims = job
    out: dict = {"times": []}
    for flip in (0, 1):
        g = Game.new(players=players, seed=seed_base + deal, dealer=deal % players)
        search_seats = [s for s in range(players) if (s + flip) % 2 == 0]
        bots = {}
        for s in range(players):
            if s in search_seats:
                bots[s] = Timed(SearchBot(sims, seed=seed_base + 7919 * deal + 31 * s + flip))
            else:
                bots[s] = OPPONENTS[opponent]()
        while not g.is_over:
            g.apply(bots[g.to_act].choose(g.view(g.to_act)))
        net = [g.won[s] - g.put_in[s] for s in range(players)]
        others = [s for s in range(players) if s not in search_seats]
        out[f"search{flip}"] = sum(net[s] for s in search_seats) / len(search_seats)
        out[f"other{flip}"] = sum(net[s] for s in others) / len(others)
        out["turns"] = out.get("turns", 0) + g.turns
        for s in search_seats:
            out["times"].extend(bots[s].times)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per opponent (1000)")
    ap.add_argument("--quick", action="store_true", help="60 deals; write no files")
    ap.add_argument("--seed", type=int, default=3, help="deals are seed*1,000,000 + i (3)")
    ap.add_argument("--players", type=int, default=2, help="players, even (2)")
    ap.add_argument("--simulations", type=int, default=200, help="SearchBot budget (200)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--out", default=str(ROOT / "data" / "search_match.csv"))
    args = ap.parse_args(argv)
    deals = 60 if args.quick else args.deals
    seed_base = args.seed * 1_000_000
    summary = []
    times: list[float] = []
    start = time.perf_counter()
    for opponent in OPPONENTS:
        jobs = [(opponent, d, seed_base, args.players, args.simulations) for d in range(deals)]
        if args.workers > 1:
            with Pool(args.workers) as pool:
                rows = pool.map(play_deal, jobs, chunksize=max(1, deals // (16 * args.workers)))
        else:
            rows = [play_deal(j) for j in jobs]
        search = [(r["search0"] + r["search1"]) / 2 for r in rows]
        other = [(r["other0"] + r["other1"]) / 2 for r in rows]
        margin = [a - b for a, b in zip(search, other, strict=True)]
        for r in rows:
            times.extend(r["times"])
        summary.append((opponent, ci95(search), ci95(other), ci95(margin)))
        print(f"vs {opponent}: margin {ci95(margin)}", flush=True)
    secs = time.perf_counter() - start
    times.sort()
    p50 = statistics.median(times) if times else 0.0
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    top = times[-1] if times else 0.0

    given = sys.argv[1:] if argv is None else argv
    command = "python bench/search_match.py" + (" " + shlex.join(given) if given else "")
    hands = 2 * deals
    lines = [
        f"{hands} hands per opponent ({deals} deals x 2 seatings), {args.players} players, "
        f"default rules ({Rules().label()}), SearchBot({args.simulations} simulations), "
        f"seeds {seed_base}-{seed_base + deals - 1}",
        "",
        "| opponent | SearchBot net per hand per seat [95% CI] | opponent net [95% CI] | "
        "margin per deal [95% CI] | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for opponent, s, o, m in summary:
        lines.append(
            f"| {opponent} | {s[0]:+.2f} [{s[1]:+.2f}, {s[2]:+.2f}] | "
            f"{o[0]:+.2f} [{o[1]:+.2f}, {o[2]:+.2f}] | {m[0]:+.2f} [{m[1]:+.2f}, {m[2]:+.2f}] "
            f"| {verdict(m)} |"
        )
    lines += [
        "",
        f"SearchBot decisions timed: {len(times):,}; CPU seconds per decision: median "
        f"{p50:.3f}, 95th percentile {p95:.3f}, max {top:.3f} (limit 1.0 s).",
    ]
    print("\n".join(lines))
    print(f"({secs:.0f} s wall on {args.workers} worker(s))")
    if args.quick:
        return 0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["opponent", "deals", "hands", "who", "mean_net_per_hand", "ci95_low", "ci95_high"]
        )
        for opponent, s, o, m in summary:
            w.writerow([opponent, deals, hands, "SearchBot", *(f"{x:.4f}" for x in s)])
            w.writerow([opponent, deals, hands, opponent, *(f"{x:.4f}" for x in o)])
            w.writerow([opponent, deals, hands, "margin", *(f"{x:.4f}" for x in m)])
        w.writerow(
            [
                "decision_cpu_seconds",
                len(times),
                "",
                "median/p95/max",
                f"{p50:.4f}",
                f"{p95:.4f}",
                f"{top:.4f}",
            ]
        )
    out.with_suffix(".md").write_text(
        "# SearchBot against OddsBot and RuleBot\n\n"
        f"Produced by (from the repository root):\n\n    .venv/bin/{command}\n\n"
        "Seeded and reproducible. Mean net chips (won minus put in) per hand per seat; the "
        "margin is per deal (both seatings), with a normal-approximation 95% interval over "
        f"deals. `{out.name}` holds the same numbers. Method: the docstring of "
        "`bench/search_match.py`.\n\n" + "\n".join(lines) + "\n"
    )
    print(f"wrote {out} and {out.with_suffix('.md').name}")
    return 0


def verdict(m: tuple[float, float, float]) -> str:
    mean, lo, hi = m
    if lo > 0:
        return f"SearchBot wins by {mean:+.2f} chips a hand (interval above 0)"
    if hi < 0:
        return f"SearchBot loses by {mean:+.2f} chips a hand (interval below 0)"
    return "no clear winner (interval includes 0)"


if __name__ == "__main__":
    raise SystemExit(main())
