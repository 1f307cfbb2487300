"""Teaching scenarios: the checked `palace-scenario/1` JSON format, its loader, safe data paths."""

# The parts live in modules of one job each; this package re-exports them (CLI: __main__):
# schema (vocabulary, ScenarioError), fields (static field checks), record (Scenario),
# replay (deal and apply), checks (expectations), loader (files, text, dicts),
# draft (authoring), datafiles (safe data/ paths).
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from palace.scenarios.datafiles import DATA, SCENARIO_DIR, data_path, open_data_file
from palace.scenarios.draft import draft_from_game
from palace.scenarios.loader import list_scenarios, load_scenario, load_scenario_text
from palace.scenarios.record import Scenario

# Every public name of the format stays importable from here (tests import MAX_ACTIONS, CLAUSES).
from palace.scenarios.schema import (  # noqa: F401 (re-exported)
    ACTION_KINDS,
    BATTLE_KEYS,
    CLAUSES,
    DEFAULT_SEED,
    EVENT_KEYS,
    EXPECT_KEYS,
    FIELDS,
    FORMAT,
    MAX_ACTIONS,
    MAX_BYTES,
    MAX_CHECKPOINTS,
    OPTIONAL,
    PHASES,
    REQUIRED,
    STATE_KEYS,
    ScenarioError,
)

__all__ = [
    "DATA",
    "FORMAT",
    "MAX_BYTES",
    "SCENARIO_DIR",
    "Scenario",
    "ScenarioError",
    "data_path",
    "draft_from_game",
    "list_scenarios",
    "load_scenario",
    "load_scenario_text",
    "open_data_file",
]


def main(argv: Sequence[str] | None = None) -> int:
    """Check scenario files: ``python -m palace.scenarios [FILE ...]`` (default: all of them)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    paths = [Path(a) for a in args] or sorted(SCENARIO_DIR.glob("*.json"))
    bad = 0
    for p in paths:
        try:
            s = load_scenario(p)
        except ScenarioError as exc:
            bad += 1
            print(f"FAIL {exc}")
        else:
            print(f"ok   {p.name}: {s.title} ({', '.join(s.rules)}; {s.n_actions} actions)")
    return 1 if bad else 0
