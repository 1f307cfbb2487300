"""Run every benchmark in turn (``make bench``): engine, evaluators, odds, bots, studies,
the local cluster's upkeep, Explore's study budget, a class.

Each script runs its peers side by side on the same inputs and prints ratios and its goals
(issue 28: the engine with the deal against RLCard and OpenSpiel, the deal's time, the
million RuleBot hands, the SearchBot studies); run this on a quiet machine (two cores are
shared, so a busy neighbour changes the numbers). ``--quick``: shorter rounds and samples,
a 20,000-hand long run (its million-hand time worked out from it), 10 app pages.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = [
    ("engine: hands/s and actions/s", ["bench_engine.py"]),
    ("hand evaluators: palace vs treys, eval7, phevaluator", ["bench_evaluate.py"]),
    ("exact battle odds per target", ["bench_odds.py"]),
    ("OddsBot vs RuleBot", ["bot_match.py", "--quick"]),
    (
        "studies: serial vs a 2-worker Dask LocalCluster, a million RuleBot hands",
        ["bench_studies.py"],
    ),
    (
        "the local cluster: Dask's upkeep and shard sizes, side by side",
        ["cluster_upkeep.py"],
    ),
    ("SearchBot studies: a sample of the variant-effects hands", ["bench_study_search.py"]),
    ("Explore's study budget: estimated against measured, both engines", ["explore_budget.py"]),
    ("a class arriving at once: 30 app pages in Chromium (make app's server)", ["load_app.py"]),
]


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    goals: list[tuple[str, str]] = []
    for title, argv in RUNS:
        if quick and argv[0] == "bench_evaluate.py":
            argv = [*argv, "--quick"]
        if quick and argv[0] == "bench_studies.py":
            argv = [*argv, "--hands", "1000", "--big", "20000", "--profile", "0"]
        if quick and argv[0] == "bench_engine.py":
            argv = [*argv, "--seconds", "1", "--rounds", "2"]
        if quick and argv[0] == "bench_study_search.py":
            argv = [*argv, "--sample", "2"]
        if quick and argv[0] == "cluster_upkeep.py":
            argv = [*argv, "--idle", "4", "--hands", "20000", "--pairs", "1"]
        if quick and argv[0] == "explore_budget.py":
            argv = [*argv, "--quick"]
        if quick and argv[0] == "load_app.py":
            argv = [*argv, "--pages", "10"]
        print(f"\n=== {title} ===", flush=True)
        rc = _run([sys.executable, str(HERE / argv[0]), *argv[1:]], title, goals)
        if rc:
            _summary(goals)
            return rc
    _summary(goals)
    return 0


def _run(cmd: list[str], title: str, goals: list[tuple[str, str]]) -> int:
    """Run one script, its output shown as it comes; keep the lines that name a goal."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            if "goal" in line or "target" in line:
                goals.append((title, line.strip()))
    return proc.returncode


def _summary(goals: list[tuple[str, str]]) -> None:
    """Every goal line of the run, gathered under its benchmark, met or not."""
    print("\n=== the goals of this run, against their targets ===")
    shown = None
    for title, line in goals:
        if title != shown:
            print(f"{title}:")
            shown = title
        print(f"  {line}")


if __name__ == "__main__":
    raise SystemExit(main())
