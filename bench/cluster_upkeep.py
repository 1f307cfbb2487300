"""Palace's local Dask cluster against one at Dask's own settings, and shard sizes, side by side.

``python bench/cluster_upkeep.py [--idle S] [--hands N] [--pairs P]``:

1. **Idle upkeep**: a 2-worker `LocalCluster` at Dask's default settings and the one a study
   starts (`palace.analysis.cluster.local_cluster`, Dask's upkeep turned down:
   `QUIET_UPKEEP`), each left idle for S seconds: the CPU its processes use (this process,
   which holds the scheduler and the nannies, and each worker), in % of one core.
2. **Rule-bot hands** (`compare_variants`, four players, standard rules, N hands), P pairs on a
   fresh cluster of each kind, the pair's order alternating: hands a second and this
   process's CPU seconds per 1,000 hands.
3. **Shard sizes** on Palace's cluster: the same N hands at 4,000 and at
   `studies.HAND_SEATS_PER_SHARD` hand-seats a shard, P alternating pairs.

The machine is shared: read the pairs (each pair meets the same moment), not single runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psutil

from palace.analysis import cluster, studies
from palace.analysis.studies import compare_variants
from palace.rules import Rules

WORKERS = 2


@contextmanager
def started(kind: str) -> Iterator[Any]:
    """A fresh 2-worker cluster: "dask" (Dask's defaults) or "palace" (`local_cluster`)."""
    local = cluster.local_cluster(WORKERS, cluster.QUIET_UPKEEP if kind == "palace" else {})
    try:
        yield local
    finally:
        cluster.close(local.scheduler_address)  # the study's client for this address
        local.close()


def workers_of(local: Any) -> list[psutil.Process]:
    from distributed import Client

    with Client(local.scheduler_address, set_as_default=False) as probe:
        return [psutil.Process(pid) for pid in probe.run(os.getpid).values()]


def cpu(procs: list[psutil.Process]) -> list[float]:
    """CPU seconds so far of this process, then of each worker."""
    return [time.process_time()] + [sum(p.cpu_times()[:2]) for p in procs]


def idle(kind: str, seconds: float) -> list[float]:
    """% of one core each process uses while the cluster has nothing to do."""
    with started(kind) as local:
        procs = workers_of(local)
        time.sleep(2)  # past start-up
        before = cpu(procs)
        time.sleep(seconds)
        return [100 * (b - a) / seconds for a, b in zip(before, cpu(procs), strict=True)]


def play(local: Any, hands: int) -> tuple[float, float]:
    """Hands a second of a rule-bot study on `local`, and this process's CPU s per 1,000."""
    address = local.scheduler_address
    kwargs: dict[str, Any] = {"players": 4, "bot": "rules", "progress": False, "seed": 1}
    compare_variants({"standard": Rules()}, hands=8, scheduler=address, **kwargs)  # imports
    cpu0, t0 = time.process_time(), time.perf_counter()
    compare_variants({"standard": Rules()}, hands=hands, scheduler=address, **kwargs)
    took = time.perf_counter() - t0
    return hands / took, 1000 * (time.process_time() - cpu0) / hands


def pairs(
    names: tuple[str, str], run: Callable[[str], tuple[float, float]], count: int
) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    for i in range(count):
        for name in names if i % 2 == 0 else names[::-1]:
            out[name].append(run(name))
    return out


def report(title: str, out: dict[str, list[tuple[float, float]]]) -> None:
    print(f"\n{title}")
    first, second = out
    for name, rows in out.items():
        rates = [r for r, _ in rows]
        main = statistics.median(m for _, m in rows)
        print(
            f"  {name:>26}: {', '.join(f'{r:,.0f}' for r in rates)} hands/s "
            f"(median {statistics.median(rates):,.0f}); this process {main:.4f} CPU s / 1,000 hands"
        )
    wins = sum(b[0] > a[0] for a, b in zip(out[first], out[second], strict=True))
    print(f"  {second} faster in {wins} of {len(out[first])} pairs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle", type=float, default=8.0, help="idle seconds measured per cluster")
    ap.add_argument("--hands", type=int, default=60_000, help="hands of each rule-bot run")
    ap.add_argument("--pairs", type=int, default=3, help="alternating pairs (0: skip)")
    args = ap.parse_args()

    print(f"idle upkeep, {WORKERS} workers, % of one core over {args.idle:g} s:")
    for kind, label in (("dask", "Dask's defaults"), ("palace", "Palace's (QUIET_UPKEEP)")):
        main_, *workers = idle(kind, args.idle)
        total = main_ + sum(workers)
        print(
            f"  {label:>26}: this process {main_:.1f}%, workers "
            f"{', '.join(f'{w:.1f}%' for w in workers)}; together {total:.1f}%"
        )
    if not args.pairs:
        return

    def on_fresh(kind: str) -> tuple[float, float]:
        with started(kind) as local:
            return play(local, args.hands)

    report(
        f"{args.hands:,} four-player rule-bot hands on a fresh cluster, {args.pairs} pairs:",
        pairs(("dask", "palace"), on_fresh, args.pairs),
    )
    size = studies.HAND_SEATS_PER_SHARD
    with started("palace") as local:

        def sized(name: str) -> tuple[float, float]:
            studies.HAND_SEATS_PER_SHARD = int(name.split()[0].replace(",", ""))
            try:
                return play(local, args.hands)
            finally:
                studies.HAND_SEATS_PER_SHARD = size

        report(
            f"{args.hands:,} hands on Palace's cluster by shard size (hand-seats), "
            f"{args.pairs} pairs:",
            pairs(("4,000 a shard", f"{size:,} a shard"), sized, args.pairs),
        )


if __name__ == "__main__":
    main()
