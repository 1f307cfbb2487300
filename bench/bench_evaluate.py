"""Hand-evaluator speed: palace (scalar and numpy batch) beside treys, eval7 and phevaluator.

Run from the repository root::

    .venv/bin/python bench/bench_evaluate.py           # about a minute
    .venv/bin/python bench/bench_evaluate.py --quick   # a few seconds

One seeded deal of nine-card hands (the most a player holds in a battle, R8.1), each
with one suit excluded (the opponent's banner suit, R8.2), is timed on:

* ``palace.evaluate`` - the scalar API (`Card` objects in, a `Hand` out);
* ``palace.hand_value`` - the scalar core (card indices in, an int out);
* ``palace.analysis.batch.evaluate_batch`` - numpy, with ``threads=1`` and with every CPU.

The peers do not know banner-suit exclusion and take at most seven cards (treys'
``Evaluator.evaluate``, ``eval7.evaluate`` and ``phevaluator.evaluate_7cards`` all
document 5-7 cards; eval7 happens to accept more, undocumented, so it is not used
that way), so the like-for-like comparison is a second workload: the
first seven cards of the same hands, no exclusion, timed on every evaluator. The
ratio table divides our speed by each peer's on those seven-card hands. Peers are
optional (``pip install -e '.[bench]'``); a missing one is skipped with a note.
Every peer's ranking is checked against ours on the seven-card hands before timing.

Inputs are converted to each library's card type before the clock starts; a scalar
evaluator is timed as a Python loop over the hands (per-call overhead included, as
a user would see it); the batch evaluator is timed on whole arrays. Each figure is
the best of several repeats. The batch evaluator uses no BLAS, so OpenBLAS / MKL
thread settings do not affect it: its ``threads`` argument is the only knob.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    import palace  # noqa: F401
except ImportError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from palace import Card, Suit, evaluate, hand_value  # noqa: E402
from palace.analysis.batch import default_threads, evaluate_batch  # noqa: E402


def deal(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` nine-card hands (distinct cards, int8 indices) and an excluded suit each."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52), dtype=np.float32)
    hands = rng.permuted(np.argpartition(keys, 9, axis=1)[:, :9], axis=1).astype(np.int8)
    return hands, rng.integers(0, 4, n).astype(np.int8)


def best_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    """Items per second: ``count`` items per call of ``run``, best of ``repeats``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def load_peer(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def load_average() -> float:
    """The 1-minute load average (0 where the platform has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def check_order(name: str, ours: list[int], theirs: list[int], lower_is_better: bool) -> None:
    """Abort if a peer orders some pair of consecutive hands differently from palace."""
    flip = -1 if lower_is_better else 1
    for i in range(0, len(ours) - 1, 2):
        if sign(ours[i] - ours[i + 1]) != flip * sign(theirs[i] - theirs[i + 1]):
            raise SystemExit(
                f"{name} disagrees with palace on hand pair {i}: results not comparable"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    n_scalar, n_batch, repeats = (10_000, 400_000, 2) if args.quick else (100_000, 4_000_000, 5)
    lanes = default_threads()
    load_before = load_average()  # before our own work raises it

    hands, exclude = deal(n_batch, args.seed)
    rows9, ex9 = hands[:n_scalar].tolist(), exclude[:n_scalar].tolist()
    cards9 = [[Card.from_index(c) for c in row] for row in rows9]
    suits9 = [Suit(s) for s in ex9]
    rows7 = [row[:7] for row in rows9]
    cards7 = [row[:7] for row in cards9]
    hands7 = np.ascontiguousarray(hands[:, :7])
    ours7 = [hand_value(r) for r in rows7]

    results: list[tuple[str, str, float]] = []  # (evaluator, workload, hands per second)
    notes: list[str] = []

    def timed(label: str, workload: str, run: Callable[[], object], count: int) -> None:
        rate = best_rate(run, count, repeats)
        results.append((label, workload, rate))
        print(f"  {label:<36} {workload:<22} {rate / 1e6:10.3f} M/s", flush=True)

    w9, w7 = "9 cards, 1 suit out", "7 cards"
    try:
        version = importlib.metadata.version("palace-poker")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    print(
        f"palace {version} numpy {np.__version__} "
        f"python {platform.python_version()} on {os.cpu_count()} CPUs "
        f"({'quick' if args.quick else 'full'} run)"
    )
    print(f"timing ... (load average {load_before:.2f})")
    # ---- palace, nine cards with exclusion (the Palace Poker workload)
    timed(
        "palace.evaluate",
        w9,
        lambda: [evaluate(c, s) for c, s in zip(cards9, suits9, strict=True)],
        n_scalar,
    )
    timed(
        "palace.hand_value",
        w9,
        lambda: [hand_value(r, s) for r, s in zip(rows9, ex9, strict=True)],
        n_scalar,
    )
    timed(
        "evaluate_batch threads=1", w9, lambda: evaluate_batch(hands, exclude, threads=1), n_batch
    )
    if lanes > 1:
        timed(
            f"evaluate_batch threads={lanes}",
            w9,
            lambda: evaluate_batch(hands, exclude, threads=lanes),
            n_batch,
        )
    # ---- seven cards, no exclusion: what every peer can do
    timed("palace.evaluate", w7, lambda: [evaluate(c) for c in cards7], n_scalar)
    timed("palace.hand_value", w7, lambda: [hand_value(r) for r in rows7], n_scalar)
    timed("evaluate_batch threads=1", w7, lambda: evaluate_batch(hands7, threads=1), n_batch)
    if lanes > 1:
        timed(
            f"evaluate_batch threads={lanes}",
            w7,
            lambda: evaluate_batch(hands7, threads=lanes),
            n_batch,
        )

    peers: list[str] = []
    treys = load_peer("treys")
    if treys is None:
        notes.append("treys not installed: skipped (pip install -e '.[bench]')")
    else:
        ev = treys.Evaluator().evaluate
        t7 = [[treys.Card.new(str(c)) for c in row] for row in cards7]
        check_order("treys", ours7, [ev(h[:2], h[2:]) for h in t7], lower_is_better=True)
        timed("treys Evaluator.evaluate", w7, lambda: [ev(h[:2], h[2:]) for h in t7], n_scalar)
        peers.append("treys Evaluator.evaluate")
    eval7 = load_peer("eval7")
    if eval7 is None:
        notes.append("eval7 not installed: skipped (pip install -e '.[bench]')")
    else:
        e7 = [[eval7.Card(str(c)) for c in row] for row in cards7]
        check_order("eval7", ours7, [eval7.evaluate(h) for h in e7], lower_is_better=False)
        timed("eval7.evaluate", w7, lambda: [eval7.evaluate(h) for h in e7], n_scalar)
        peers.append("eval7.evaluate")
    ph = load_peer("phevaluator")
    if ph is None:
        notes.append("phevaluator not installed: skipped (pip install -e '.[bench]')")
    else:
        f7, to_id = ph.evaluate_7cards, ph.Card.to_id
        p7 = [[to_id(str(c)) for c in row] for row in cards7]
        check_order("phevaluator", ours7, [f7(*h) for h in p7], lower_is_better=True)
        timed("phevaluator.evaluate_7cards", w7, lambda: [f7(*h) for h in p7], n_scalar)
        peers.append("phevaluator.evaluate_7cards")

    # ---- the table
    rate = {(name, work): r for name, work, r in results}
    ours = [(name, work) for name, work, _ in results if name not in peers]
    print()
    head = f"{'evaluator':<36} {'workload':<22} {'hands/s':>13}"
    short = {
        "treys Evaluator.evaluate": "treys",
        "eval7.evaluate": "eval7",
        "phevaluator.evaluate_7cards": "pheval",
    }
    head += "".join(f" {'/' + short[p] + ' (7)':>13}" for p in peers)
    print(head)
    print("-" * len(head))
    for name, work in ours + [(p, w7) for p in peers]:
        line = f"{name:<36} {work:<22} {rate[name, work]:>13,.0f}"
        line += "".join(f" {rate[name, work] / rate[p, w7]:>12.2f}x" for p in peers)
        print(line)
    print()
    print("Ratios divide each row's speed by the peer's on the seven-card hands (peers take at")
    print("most 7 cards and know no exclusion). Scalar rows: a Python loop of calls; batch rows:")
    print(f"whole arrays of {n_batch:,} hands. Best of {repeats} repeats each. No BLAS is used,")
    print("so OpenBLAS/MKL thread variables are irrelevant.")
    nine_card_peers(cards9, rows9, rate, lanes, repeats, notes)
    if load_before > 0.5:
        notes.append(
            f"load average {load_before:.2f} at the start: other processes may have shared the "
            "CPUs, so the figures (the threaded ones most) may be low; rerun on an idle machine"
        )
    for note in notes:
        print("note:", note)


def nine_card_peers(
    cards9: list[list[Card]],
    rows9: list[list[int]],
    rate: dict[tuple[str, str], float],
    lanes: int,
    repeats: int,
    notes: list[str],
) -> None:
    """The Palace Poker hand itself: nine cards. Peers run on all nine (they know no
    exclusion); palace runs with one suit excluded, so it does at least as much work.

    treys documents 5-7 cards, so its nine-card figure is the best of the 126 five-card
    subsets through its own five-card lookup (what treys does inside for 6 and 7 cards).
    eval7 accepts nine cards although its documentation says seven; it is checked
    against palace's order here before it is timed.
    """
    from itertools import combinations

    n = len(cards9)
    ours9 = [hand_value(r) for r in rows9]
    got: dict[str, float] = {}
    treys = load_peer("treys")
    if treys is not None:
        m = min(n, 2_000)
        five = treys.Evaluator()._five
        t9 = [[treys.Card.new(str(c)) for c in row] for row in cards9[:m]]

        def treys9() -> list[int]:
            return [min(five(list(c)) for c in combinations(h, 5)) for h in t9]

        check_order("treys (9)", ours9[:m], treys9(), lower_is_better=True)
        got["treys, best of 126 fives"] = best_rate(treys9, m, max(1, repeats // 2))
    eval7 = load_peer("eval7")
    if eval7 is not None:
        e9 = [[eval7.Card(str(c)) for c in row] for row in cards9]
        check_order("eval7 (9)", ours9, [eval7.evaluate(h) for h in e9], lower_is_better=False)
        got["eval7.evaluate"] = best_rate(lambda: [eval7.evaluate(h) for h in e9], n, repeats)
    if not got:
        return
    w9 = "9 cards, 1 suit out"
    print()
    print("Nine cards, the Palace Poker hand (peers on all nine, no exclusion):")
    for name, r in got.items():
        print(f"  {name:<36} {'9 cards':<22} {r / 1e6:10.3f} M/s")
    ours = [("palace.evaluate", w9), ("palace.hand_value", w9), ("evaluate_batch threads=1", w9)]
    if lanes > 1:
        ours.append((f"evaluate_batch threads={lanes}", w9))
    for name, work in ours:
        ratios = "  ".join(
            f"{rate[name, work] / r:9.1f}x {peer.split(',')[0]}" for peer, r in got.items()
        )
        print(f"  {name:<36} {rate[name, work] / 1e6:10.3f} M/s  = {ratios}")


if __name__ == "__main__":
    main()
