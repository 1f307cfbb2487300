"""OddsBot against RuleBot over many seeded hands: net chips per hand, with a 95% CI.

    .venv/bin/python bench/bot_match.py            # 2,000 hands (1,000 deals x 2 seatings)
    .venv/bin/python bench/bot_match.py --quick    # 200 hands, no files written

Design (duplicate format): every deal (seed, dealer) is played twice, with the bots'
seats swapped: four players alternate OddsBot / RuleBot, then RuleBot / OddsBot, so each
kind of bot holds every seat and every position relative to the dealer equally often
and gets the same cards the other had. The dealer moves one seat a deal (R2.3). Stakes
are the default rules (s = 2, b = 4, limit, unlimited chips: R3).

Net chips = chips won minus chips put in over the hand (R3.2, R10); the table is
zero-sum. For each deal the *margin* is (mean net of an OddsBot seat) minus (mean net of
a RuleBot seat), averaged over the two seatings; the deals are independent, so the 95%
confidence interval is mean +- 1.96 standard errors over deals (normal approximation).

The OddsBot thresholds were tuned on other seeds (50,000+); the default `--seed 1`
plays deals 1,000,000+ so the reported margin is measured on hands not used to tune.
Writes `data/bot_match.csv` (the summary) and `data/bot_match.md` (command and table).
"""

from __future__ import annotations

import argparse
import csv
import os
import shlex
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from palace.analysis import variant_effects  # noqa: E402
from palace.analysis.bots import RuleBot, play_out  # noqa: E402
from palace.analysis.odds_bot import OddsBot  # noqa: E402
from palace.game import Game  # noqa: E402

KINDS = ("OddsBot", "RuleBot")


def seat_kinds(players: int, flip: int) -> list[str]:
    """Alternating seats: OddsBot on even seats (flip 0) or on odd seats (flip 1)."""
    return [KINDS[(s + flip) % 2] for s in range(players)]


def play_deal(job: tuple[int, int, int]) -> dict[str, float]:
    """Both seatings of one deal; returns each kind's mean net per seat, per seating."""
    deal, seed_base, players = job
    out: dict[str, float] = {}
    for flip in (0, 1):
        kinds = seat_kinds(players, flip)
        g = Game.new(players=players, seed=seed_base + deal, dealer=deal % players)
        bots = {s: OddsBot() if k == "OddsBot" else RuleBot() for s, k in enumerate(kinds)}
        play_out(g, bots)
        net = [g.won[s] - g.put_in[s] for s in range(players)]
        for kind in KINDS:
            seats = [s for s in range(players) if kinds[s] == kind]
            out[f"{kind}{flip}"] = sum(net[s] for s in seats) / len(seats)
    return out


def ci95(xs: list[float]) -> tuple[float, float, float]:
    """Mean and the normal-approximation 95% interval of the mean (the studies' own)."""
    mean, low, high, _ = variant_effects.ci95(xs)
    return mean, low, high


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands to play, even (2000)")
    ap.add_argument("--quick", action="store_true", help="200 hands; write no files")
    ap.add_argument("--seed", type=int, default=1, help="deals are seed*1,000,000 + i (1)")
    ap.add_argument("--players", type=int, default=4, help="players, even, 2-10 (4)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--out", default=str(ROOT / "data" / "bot_match.csv"))
    args = ap.parse_args(argv)
    hands = 200 if args.quick else args.hands
    if hands < 4 or hands % 2 or args.players % 2 or not 2 <= args.players <= 10:
        ap.error("--hands must be even and >= 4; --players even, 2-10")
    deals = hands // 2
    seed_base = args.seed * 1_000_000
    jobs = [(d, seed_base, args.players) for d in range(deals)]
    start = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers) as pool:
            rows = pool.map(play_deal, jobs, chunksize=max(1, deals // (8 * args.workers)))
    else:
        rows = [play_deal(j) for j in jobs]
    secs = time.perf_counter() - start

    per_kind = {k: [(r[f"{k}0"] + r[f"{k}1"]) / 2 for r in rows] for k in KINDS}
    margin = [o - r for o, r in zip(per_kind["OddsBot"], per_kind["RuleBot"], strict=True)]
    summary = []
    for kind in KINDS:
        m, lo, hi = ci95(per_kind[kind])
        summary.append((kind, m, lo, hi))
    mm, mlo, mhi = ci95(margin)
    seat_hands = hands * args.players // 2

    given = sys.argv[1:] if argv is None else argv
    command = "python bench/bot_match.py" + (" " + shlex.join(given) if given else "")
    lines = [
        f"{hands} hands ({deals} deals x 2 seatings), {args.players} players, "
        f"seeds {seed_base}-{seed_base + deals - 1}",
        "",
        "| bot | seat-hands | mean net chips per hand per seat | 95% CI |",
        "| --- | ---: | ---: | --- |",
    ]
    for kind, m, lo, hi in summary:
        lines.append(f"| {kind} | {seat_hands} | {m:+.2f} | [{lo:+.2f}, {hi:+.2f}] |")
    lines += [
        f"| margin (OddsBot - RuleBot) | {deals} deals | {mm:+.2f} | [{mlo:+.2f}, {mhi:+.2f}] |",
        "",
        verdict(mm, mlo, mhi),
    ]
    print("\n".join(lines))
    print(f"({secs:.0f} s on {args.workers} worker(s))")
    if args.quick:
        return 0

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bot", "hands", "seat_hands", "mean_net_per_hand", "ci95_low", "ci95_high"])
        for kind, m, lo, hi in summary:
            w.writerow([kind, hands, seat_hands, f"{m:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
        w.writerow(["margin", hands, deals, f"{mm:.4f}", f"{mlo:.4f}", f"{mhi:.4f}"])
    md = out.with_suffix(".md")
    md.write_text(
        "# OddsBot vs RuleBot\n\n"
        f"Produced by (from the repository root):\n\n    .venv/bin/{command}\n\n"
        "It is seeded and reproducible: the same command gives the same numbers.\n"
        "Mean net chips (won minus put in) per hand, per seat of each bot; the margin is "
        "per deal (both seatings), with a normal-approximation 95% interval over deals. "
        f"`{out.name}` holds the same numbers. Method: see the docstring of "
        "`bench/bot_match.py`.\n\n" + "\n".join(lines) + "\n"
    )
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} and {md.name}")
    return 0


def verdict(m: float, lo: float, hi: float) -> str:
    if lo > 0:
        return (
            f"OddsBot wins: an OddsBot seat nets {m:+.2f} chips a hand more than a RuleBot "
            "seat (the 95% interval is above 0)."
        )
    if hi < 0:
        return (
            f"OddsBot loses: an OddsBot seat nets {m:+.2f} chips a hand against a RuleBot "
            "seat (the 95% interval is below 0)."
        )
    return f"No clear winner: the margin {m:+.2f} has a 95% interval that includes 0."


if __name__ == "__main__":
    raise SystemExit(main())
