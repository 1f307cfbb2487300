"""Studies on Dask: bot hands/s serially vs a 2-worker LocalCluster, and a million-hand run.

Run: ``.venv/bin/python bench/bench_studies.py [--hands N] [--big N] [--profile N]``.
In one run, on the same inputs (four-player hands, `RuleBot` at every seat, the standard
rules, `palace.analysis.studies.compare_variants`):

1. hands/s on the serial path (no Dask) and on a `LocalCluster` of 2 worker processes
   (started before the clock runs; its start-up time is printed apart), best of
   ``--rounds`` interleaved runs each, the ratio, and a check that both tables are identical;
   the same shards on two plain `multiprocessing` processes, in the same rounds, are the
   peer that shows what Dask itself costs, and the CPU seconds per hand show what the
   machine allows; each round's figures are printed too, and the cluster-vs-serial ratio
   within each round (a shared machine's speed moves between rounds more than within one);
2. ``--big`` hands (default 1,000,000) on the same 2-worker cluster: the time, hands/s,
   and the goal (at most 60 s on this 2-core machine); a run that passes ``--budget``
   seconds (default 900) is cancelled and extrapolated from the hands it finished;
3. where the time of one hand goes: a profile of ``--profile`` serial hands, by function
   (own time), engine vs bot vs view, on the pure-Python source (``PALACE_PURE=1``, in a
   process of its own: a compiled module is one opaque call to cProfile).

With the compiled engine (`make native`), the serial row is also run on the pure-Python
source in a second process, interleaved with the others, for the ratio compiling buys.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pandas as pd

from palace.analysis import cluster
from palace.analysis.bot_hands import hand_totals
from palace.analysis.shards import Cancelled, Watch
from palace.analysis.studies import compare_variants, hands_per_shard
from palace.native import PURE_ENV, is_compiled
from palace.rules import Rules

AIM_SECONDS = 60  # a million four-player RuleBot hands on the LocalCluster (issue 28)


def timed(
    hands: int, scheduler: str, seed: int, watch: Watch | None = None
) -> tuple[pd.DataFrame, float]:
    start = time.perf_counter()
    df = compare_variants(
        {"standard": Rules()},
        hands=hands,
        players=4,
        seed=seed,
        bot="rules",
        progress=False,
        scheduler=scheduler,
        watch=watch,
    )
    return df, time.perf_counter() - start


def _shard(start: int, stop: int, seed: int) -> dict:
    return hand_totals(Rules(), players=4, seed=seed, bot="rules", start=start, stop=stop)


def pooled(pool: ProcessPoolExecutor, hands: int, seed: int) -> float:
    """The same shards on plain worker processes (no Dask): the baseline for Dask's cost."""
    per = hands_per_shard(4, hands)
    starts = list(range(0, hands, per))
    t0 = time.perf_counter()
    list(pool.map(_shard, starts, [min(hands, s + per) for s in starts], [seed] * len(starts)))
    return time.perf_counter() - t0


def on_source(*argv: str) -> subprocess.CompletedProcess[str]:
    """This script with `argv`, in a new process on the pure-Python source."""
    return subprocess.run(
        [sys.executable, __file__, *argv],
        env={**os.environ, PURE_ENV: "1"},
        capture_output=True,
        text=True,
        check=True,
    )


def source_serial(hands: int, seed: int) -> tuple[str, float]:
    """The serial row on the pure-Python source (its own process): its table as CSV text
    and the seconds it took."""
    out = on_source("--serial-only", "--hands", str(hands), "--seed", str(seed))
    row = json.loads(out.stdout.strip().splitlines()[-1])
    return row["table"], float(row["seconds"])


def profile(hands: int, seed: int) -> None:
    assert not is_compiled(), "profile the source: PALACE_PURE=1"
    prof = cProfile.Profile()
    prof.enable()
    timed(hands, "serial", seed)
    prof.disable()
    stats = pstats.Stats(prof)
    # Stats.stats: {(file, line, function): (calls, primitive calls, own s, cumulative s, callers)}
    total = sum(v[2] for v in stats.stats.values())  # own time of every function
    by_area: dict[str, float] = {}
    for (path, _line, _name), v in stats.stats.items():
        p = path.replace(os.sep, "/")
        if "/palace/analysis/bots" in p or "/palace/hands" in p:
            area = "bots (RuleBot decisions, hand evaluation)"
        elif "/palace/views" in p:
            area = "views (what a seat may see)"
        elif "/palace/analysis/" in p:
            area = "study bookkeeping"
        elif "/palace/" in p:
            area = "engine (deal, legal actions, apply, events)"
        else:
            area = "Python and libraries"
        by_area[area] = by_area.get(area, 0.0) + v[2]
    print(f"\nwhere the time of {hands:,} serial hands goes (own time, cProfile):")
    for area, t in sorted(by_area.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * t / total:5.1f}%  {area}")
    entry = {
        ("game.py", "new"): "Game.new (dealer draw, banners, palaces)",
        ("game.py", "view"): "game.view(seat) for every decision (incl. its legal actions)",
        ("bots.py", "choose"): "RuleBot.choose (reads the view, evaluates hands)",
        ("game.py", "apply"): "game.apply (checks and performs the action, records events)",
    }
    print("\nentry points (cumulative time; a lazily built view may be finished inside a bot):")
    for (path, _line, name), v in stats.stats.items():
        label = entry.get((os.path.basename(path), name))
        if label and "/palace/" in path.replace(os.sep, "/"):
            print(f"  {100 * v[3] / total:5.1f}%  {label}")
    print("\ntop functions by own time:")
    stats.sort_stats("tottime").print_stats(12)


def big(hands: int, budget: float, address: str, seed: int) -> None:
    """The long run, stopped (and extrapolated) if it passes `budget` seconds."""
    print(f"\n{hands:,} four-player RuleBot hands on the 2-worker cluster…", flush=True)
    watch = Watch()
    timer = threading.Timer(budget, watch.cancel.set)
    timer.start()
    start = time.perf_counter()
    try:
        df, took = timed(hands, address, seed, watch)
        done = hands
    except Cancelled as stopped:
        took = time.perf_counter() - start
        done = stopped.done * hands_per_shard(4, hands)
        df = None
    finally:
        timer.cancel()
    rate = done / took
    million = 1_000_000 / rate
    verdict = "met" if million <= AIM_SECONDS else "not met"
    head = f"{done:,} hands in {took:,.1f} s" + (
        "" if df is not None else f" (stopped at the {budget:,.0f} s budget)"
    )
    print(
        f"{head}: {rate:,.0f} hands/s; 1,000,000 hands take {million:,.1f} s at this rate; "
        f"goal <= {AIM_SECONDS} s: {verdict}"
    )
    if df is not None:
        print(df.round(2).to_string())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--hands", type=int, default=16_000, help="hands for the serial vs 2-worker row"
    )
    ap.add_argument("--big", type=int, default=1_000_000, help="hands of the long run (0: skip)")
    ap.add_argument(
        "--budget", type=float, default=900, help="seconds before the long run stops early"
    )
    ap.add_argument("--profile", type=int, default=300, help="hands to profile (0: skip)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the first row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--serial-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--profile-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serial_only:
        df, took = timed(args.hands, "serial", args.seed)
        print(json.dumps({"table": df.to_csv(), "seconds": took}))
        return
    if args.profile_only:
        profile(args.profile, args.seed)
        return
    compiled = is_compiled()
    engine = "compiled (make native)" if compiled else "pure Python (not compiled: make native)"
    print(f"machine: {os.cpu_count()} cores; four players, RuleBot at every seat")
    print(f"Palace engine: {engine}")

    cpu0 = time.process_time()
    serial_df, serial_t = timed(args.hands, "serial", args.seed)
    serial_cpu = time.process_time() - cpu0
    from distributed import Client

    t0 = time.perf_counter()
    with cluster.local_cluster(2) as local:  # the cluster a study or Explore starts
        address = local.scheduler_address
        timed(8, address, args.seed)  # workers import Palace before the clock runs
        started = time.perf_counter() - t0
        serial_ts, dask_ts, pool_ts, source_ts = [serial_t], [], [], []
        pool = ProcessPoolExecutor(2, mp_context=get_context("spawn"))
        pooled(pool, 8, args.seed)  # the processes import Palace before the clock runs
        with Client(address, set_as_default=False) as probe:
            before = sum(probe.run(time.process_time).values())
            dask_df, t = timed(args.hands, address, args.seed)
            dask_cpu = sum(probe.run(time.process_time).values()) - before
        dask_ts.append(t)
        pool_ts.append(pooled(pool, args.hands, args.seed))
        source_tables = set()
        if compiled:
            table, t = source_serial(args.hands, args.seed)
            source_tables.add(table)
            source_ts.append(t)
        for _ in range(1, args.rounds):  # interleaved, best of each: a busy neighbour
            serial_ts.append(timed(args.hands, "serial", args.seed)[1])  # slows them alike
            dask_df, t = timed(args.hands, address, args.seed)
            dask_ts.append(t)
            pool_ts.append(pooled(pool, args.hands, args.seed))
            if compiled:
                table, t = source_serial(args.hands, args.seed)
                source_tables.add(table)
                source_ts.append(t)
        pool.shutdown()
        serial_t, dask_t, pool_t = min(serial_ts), min(dask_ts), min(pool_ts)
        same = serial_df.equals(dask_df) and source_tables <= {serial_df.to_csv()}
        rows = [
            ("serial (no Dask)", args.hands / serial_t, 1.0),
            ("LocalCluster, 2 workers", args.hands / dask_t, serial_t / dask_t),
            ("2 plain processes, no Dask", args.hands / pool_t, serial_t / pool_t),
        ]
        if source_ts:
            source_t = min(source_ts)
            rows.append(("serial, pure-Python source", args.hands / source_t, serial_t / source_t))
        print(f"\n{'path':>26} | {'hands/s':>9} | vs serial   (best of {args.rounds} interleaved)")
        for name, rate, ratio in rows:
            print(f"{name:>26} | {rate:9,.1f} | {ratio:8.2f}x")
        print("each round, hands/s (the machine's variance):")
        for name, ts in (("serial", serial_ts), ("cluster", dask_ts), ("plain", pool_ts)):
            print(f"  {name:>8}: {', '.join(f'{args.hands / t:,.0f}' for t in ts)}")
        each = sorted(s / d for s, d in zip(serial_ts, dask_ts, strict=True))
        print(
            f"the cluster vs serial within each round: {', '.join(f'{r:.2f}x' for r in each)} "
            f"(median {each[len(each) // 2]:.2f}x: a round's two runs meet the same machine)"
        )
        print(
            f"(cluster start-up {started:.1f} s, not counted; tables identical"
            f"{' (serial, cluster, source)' if source_tables else ''}: {same})"
        )
        if source_ts:
            print(
                f"the compiled engine plays {min(source_ts) / serial_t:.2f}x as many hands a "
                "second as its pure-Python source (PALACE_PURE=1), serially"
            )
        print(
            f"CPU seconds per 1,000 hands: serial {1000 * serial_cpu / args.hands:.2f}, "
            f"the two workers together {1000 * dask_cpu / args.hands:.2f}: on two free cores "
            f"the ratio would be about {2 * serial_cpu / dask_cpu:.2f}x"
        )
        print(
            f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: above the "
            "core count, other work shares the cores and the ratio falls short of 2)"
        )
        if not same:
            raise SystemExit("the tables differ (serial, Dask, or the pure-Python source)")

        if args.big:
            big(args.big, args.budget, address, args.seed)
        cluster.close(address)

    if args.profile:
        argv = ["--profile-only", "--profile", str(args.profile), "--seed", str(args.seed)]
        print(on_source(*argv).stdout)


if __name__ == "__main__":
    main()
