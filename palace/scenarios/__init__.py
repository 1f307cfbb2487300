"""Teaching scenarios: the checked `palace-scenario/1` JSON format, its loader, safe data paths."""

# One concept in modules of one job each, imports running one way (no circles):
# schema (vocabulary, ScenarioError) <- fields (static field checks) <- checks
# (expectations against games) <- record (Scenario: replays itself, checks itself)
# <- loader (files, text, dicts; the CLI) and draft (authoring); datafiles (safe data/
# paths). The shared strict vocabulary (text, names, numbers, JSON) is `palace.strict`.
from __future__ import annotations

from palace.scenarios.datafiles import DATA, SCENARIO_DIR, data_path, open_data_file
from palace.scenarios.draft import draft_from_game
from palace.scenarios.loader import list_scenarios, load_scenario, load_scenario_text, main
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
    MAX_EXPECTATIONS,
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
    "main",
    "open_data_file",
]
