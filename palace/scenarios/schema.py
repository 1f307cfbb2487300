"""The `palace-scenario/1` vocabulary: fields, limits, clauses, expectation keys, frozen values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from palace import strict
from palace.errors import StateError
from palace.events import Phase

FORMAT = "palace-scenario/1"
MAX_BYTES = strict.MAX_FILE_BYTES  # 1 MB: the largest scenario text accepted (uploads, files)
MAX_ACTIONS = strict.MAX_ACTIONS  # a hand is replayed on load: keep uploads cheap to check
MAX_CHECKPOINTS = 100
MAX_EXPECTATIONS = 500  # things `expect` asks in all (each list entry counts): checks stay cheap
MAX_ID = 64  # characters in an id
MAX_TITLE = 200  # characters in a title
MAX_RULE_TAGS = 40

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
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FILE_STEM = re.compile(r"^(?:\d+-)?(?P<id>.+)$")  # "04-tie-banner-count" -> its id


class ScenarioError(StateError):
    """A scenario is malformed or its expectations do not hold; the message names the field.

    The message is cut to `palace.strict.MAX_MESSAGE` characters, whatever the input held.
    """

    def __init__(self, message: str) -> None:
        super().__init__(strict.bounded(str(message)))


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


# ---------------------------------------------------------------------------- frozen values
def freeze(v: Any) -> Any:
    """A read-only copy of parsed JSON: dicts become mapping proxies, lists tuples."""
    if isinstance(v, dict):
        return MappingProxyType({k: freeze(x) for k, x in v.items()})
    if isinstance(v, list):
        return tuple(freeze(x) for x in v)
    return v


def thaw(v: Any) -> Any:
    """The plain JSON form of a `freeze`d value."""
    if isinstance(v, Mapping):
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    return v
