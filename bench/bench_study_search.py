"""The SearchBot studies' speed: ``make studies``' two SearchBot studies timed whole on the
Dask cluster and their tables compared with the stored ones, or a sample worked out.

Run: ``.venv/bin/python bench/bench_study_search.py [--sample N]``. By default it runs the
two studies as ``make studies`` does (``python -m palace.analysis.variant_effects``, a
`LocalCluster` on this machine's cores, no cache), with the same seeds, bots and
simulations: four players at 40 simulations (500 hands a variant; the goal: the study in
<= 180 s) and heads-up at 60 (1,000 hands a variant; the goal: <= 60 s). The wall time is
from the command's start to its end (Python's start and the cluster's included), and each
table it writes is compared, byte for byte, with ``data/studies/``'s.

``--sample N`` plays instead the first N hands of each variant serially, in one process, and
scales their CPU time to the study's hands (a sample of the first hands only: later hands
may be longer or shorter; two free cores halve it); each row is checked against
``data/studies/*_hands.csv``.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from palace.analysis.variant_effects import play_hands  # noqa: E402
from palace.analysis.variants import named  # noqa: E402
from palace.native import is_compiled  # noqa: E402

VARIANTS = ("standard", "no-limit", "call-matches-attack", "two-left-at-once")
STUDIES = (
    # name, players, simulations, hands a variant, goal in seconds
    ("variant_effects_4p", 4, 40, 500, 180.0),
    ("variant_effects", 2, 60, 1000, 60.0),
)


def stored_rows(name: str) -> dict[tuple[str, int], dict[str, str]]:
    """The stored rows of a study, by (variant label, hand)."""
    path = ROOT / "data" / "studies" / f"{name}_hands.csv"
    if not path.exists():
        return {}
    with path.open() as f:
        return {(r["variant"], int(r["hand"])): r for r in csv.DictReader(f)}


def same_row(row: dict[str, object], stored: dict[str, str]) -> bool:
    """A played row equals its stored one (numbers to the csv's 6 significant digits)."""
    for key, text in stored.items():
        if key in ("variant", "hand"):
            continue
        value = row.get(key)
        if text == "":
            if not (value is None or (isinstance(value, float) and math.isnan(value))):
                return False
        elif value is None or not math.isclose(float(text), float(value), rel_tol=1e-5):  # type: ignore[arg-type]
            return False
    return True


def whole_study(name: str, players: int, sims: int, hands: int, aim: float, seed: int) -> None:
    """Run one study as `make studies` does, time it, and compare its tables with the stored."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [
            sys.executable, "-m", "palace.analysis.variant_effects", "--seed", str(seed),
            "--variants", *VARIANTS, "--hands", str(hands), "--players", str(players),
            "--bot", "search", "--simulations", str(sims), "--name", name, "--out", out,
            "--no-cache", "--quiet",
        ]  # fmt: skip
        cpu0 = os.times()
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        took = time.perf_counter() - t0
        cpu1 = os.times()
        cpu = (cpu1.children_user - cpu0.children_user) + (
            cpu1.children_system - cpu0.children_system
        )
        written = sorted(p.name for p in Path(out).glob(f"{name}*.csv"))
        equal = [
            n for n in written
            if (ROOT / "data" / "studies" / n).exists()
            and (Path(out) / n).read_bytes() == (ROOT / "data" / "studies" / n).read_bytes()
        ]  # fmt: skip
    verdict = "met" if took <= aim else "not met"
    print(
        f"{name}: {players} players, SearchBot({sims}) at every seat, {hands} hands x "
        f"{len(VARIANTS)} variants on the Dask cluster: {took:,.1f} s wall ({cpu:,.1f} CPU s, "
        f"{1000 * cpu / (hands * len(VARIANTS)):.0f} ms a hand); goal <= {aim:.0f} s: {verdict}"
    )
    print(
        f"  tables byte-identical to data/studies/: {len(equal)} of {len(written)}"
        + ("" if len(equal) == len(written) else f" (differ: {sorted(set(written) - set(equal))})")
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sample",
        type=int,
        default=0,
        help="play N hands a variant serially and scale (0: run whole)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rules = named(VARIANTS)
    print(f"Palace engine: {'compiled (make native)' if is_compiled() else 'pure Python'}")
    if args.sample <= 0:
        for name, players, sims, hands, aim in STUDIES:
            whole_study(name, players, sims, hands, aim, args.seed)
        return
    for name, players, sims, hands, aim in STUDIES:
        stored = stored_rows(name)
        spent, played, same = 0.0, 0, 0
        for label, r in rules.items():
            t0 = time.process_time()
            rows = play_hands(
                r, seed=args.seed, start=0, stop=args.sample, players=players, bot="search",
                simulations=sims,
            )  # fmt: skip
            spent += time.process_time() - t0
            played += len(rows)
            same += sum(
                1 for row in rows if (label, row["hand"]) in stored
                and same_row(row, stored[(label, row["hand"])])
            )  # fmt: skip
        whole = spent / played * hands * len(rules)
        verdict = "met" if whole <= aim else "not met"
        print(
            f"{name}: {players} players, SearchBot({sims}) at every seat: {played} hands in "
            f"{spent:.1f} CPU s ({1000 * spent / played:.0f} ms a hand); the study "
            f"({hands} x {len(rules)}) takes about {whole:,.0f} s serially (about "
            f"{whole / 2:,.0f} s on two free cores); goal <= {aim:.0f} s: {verdict}"
        )
        print(f"  rows equal to the stored table's: {same} of {played}")


if __name__ == "__main__":
    main()
