"""The SearchBot studies' speed: a sample of the variant-effects hands, timed and compared
with the stored tables, and the whole study's time worked out from it.

Run: ``.venv/bin/python bench/bench_study_search.py [--sample N]``. It plays the first N
hands (default 6) of each of the four variants of ``make studies``' two SearchBot studies
with the same seeds, bots and simulations: four players at 40 simulations (500 hands a
variant; the aim: the study in <= 180 s) and heads-up at 60 (1,000 hands a variant; the
aim: <= 60 s). Serially, in one process: the whole study's time is N hands' CPU time
scaled to the study's hands (a sample of the first hands only: later hands may be longer
or shorter). Each row is checked against ``data/studies/*_hands.csv``, the stored rows.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from palace.analysis.variant_effects import play_hands  # noqa: E402
from palace.analysis.variants import named  # noqa: E402
from palace.native import is_compiled  # noqa: E402

VARIANTS = ("standard", "no-limit", "call-matches-attack", "two-left-at-once")
STUDIES = (
    # name, players, simulations, hands a variant, aim in seconds, today's time
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=6, help="hands a variant, per study")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rules = named(VARIANTS)
    print(f"Palace engine: {'compiled (make native)' if is_compiled() else 'pure Python'}")
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
        verdict = "within" if whole <= aim else "over"
        print(
            f"{name}: {players} players, SearchBot({sims}) at every seat: {played} hands in "
            f"{spent:.1f} CPU s ({1000 * spent / played:.0f} ms a hand); the study "
            f"({hands} x {len(rules)}) takes about {whole:,.0f} s serially (about "
            f"{whole / 2:,.0f} s on two free cores); aim <= {aim:.0f} s: {verdict}"
        )
        print(f"  rows equal to the stored table's: {same} of {played}")


if __name__ == "__main__":
    main()
