"""The `palace-scenario/1` vocabulary: fields, limits, clauses, expectation keys, JSON values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from palace.errors import StateError
from palace.events import Phase

FORMAT = "palace-scenario/1"
MAX_BYTES = 1 << 20  # 1 MB: the largest scenario text accepted (uploads, files)
MAX_ACTIONS = 5000  # a hand is replayed on load: keep uploads cheap to check
MAX_CHECKPOINTS = 100

REQUIRED = ("format", "id", "title", "summary", "rules", "players", "actions", "expect")
OPTIONAL = ("dealer", "seed", "variant", "deck", "question", "answer")
FIELDS = REQUIRED + OPTIONAL
DEFAULT_SEED = 7

# Clause numbers of RULES.md: section -> how many sub-clauses it has (R11 has none).
_CLAUSES = {1: 3, 2: 3, 3: 4, 4: 5, 5: 3, 6: 7, 7: 9, 8: 7, 9: 4, 10: 4, 11: 0}
CLAUSES: frozenset[str] = frozenset(
    [f"R{s}" for s in _CLAUSES]
    + [f"R{s}.{k}" for s, n in _CLAUSES.items() for k in range(1, n + 1)]
)
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_STEM = re.compile(r"^(?:\d+-)?(?P<id>.+)$")


class ScenarioError(StateError):
    """A scenario is malformed or its expectations do not hold; the message names the field."""


# ---------------------------------------------------------------------------- expectations
EVENT_KEYS = ("kind", "rule", "seat", "cards", "amount", "text")
BATTLE_KEYS = (
    "attacker",
    "defender",
    "winner",
    "rule",
    "decided_by",
    "attacker_hand",
    "defender_hand",
    "attacker_excluded",
    "defender_excluded",
    "without_exclusion",
)
STATE_KEYS = (
    "over",
    "phase",
    "to_act",
    "pot",
    "winner",
    "winners",
    "reason",
    "result_rule",
    "shares",
    "active",
    "banners",
    "soldiers",
    "zones",
    "legal",
    "illegal",
    "events",
    "no_events",
    "battles",
)
EXPECT_KEYS = (*STATE_KEYS, "checkpoints")
PHASES = tuple(p.value for p in Phase)
ACTION_KINDS = ("buy", "discard", "bet", "stay", "fold", "call", "raise", "trim")


# ---------------------------------------------------------------------------- JSON values
def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "text"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return MappingProxyType({k: _freeze(x) for k, x in v.items()})
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {k: _thaw(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v
