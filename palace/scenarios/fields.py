"""Static checks of a scenario's fields and of the shape of its `expect`, before any deal.

Each check takes the raw JSON value and `where` (the file, or ``upload``) and returns the
checked value or raises `ScenarioError` naming the field. The shared vocabulary (text,
names, whole numbers, cards) is `palace.strict`, the same one saved hands use.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from palace import strict
from palace.actions import Action, action_from_dict
from palace.cards import Card
from palace.errors import CardError, PalaceError, StateError
from palace.numbers import is_whole
from palace.rules import Rules
from palace.scenarios.schema import (
    ACTION_KINDS,
    BATTLE_KEYS,
    CLAUSES,
    EVENT_KEYS,
    EXPECT_KEYS,
    MAX_ACTIONS,
    MAX_CHECKPOINTS,
    MAX_EXPECTATIONS,
    MAX_RULE_TAGS,
    PHASES,
    STATE_KEYS,
    ScenarioError,
)
from palace.table import DEFAULT_NAMES


def text_field(data: dict[str, Any], key: str, where: str, *, limit: int = strict.MAX_TEXT) -> str:
    """The non-empty text of `data[key]`, trimmed (at most `limit` characters)."""
    v = data.get(key)
    return strict.text(v, f"{where}: field {key!r}", limit=limit, error=ScenarioError).strip()


def optional_text(data: dict[str, Any], key: str, where: str) -> str | None:
    """Like `text_field`, but a missing or null field is None."""
    return None if data.get(key) is None else text_field(data, key, where)


def rule_tags(v: Any, where: str) -> tuple[str, ...]:
    """The clauses a scenario teaches: a non-empty list of RULES.md clause numbers."""
    if not isinstance(v, list) or not v or len(v) > MAX_RULE_TAGS:
        raise ScenarioError(
            f"{where}: field 'rules' must be a non-empty list of at most {MAX_RULE_TAGS} "
            f'clauses such as "R8.2", got {strict.got(v)}'
        )
    for i, tag in enumerate(v):
        if not isinstance(tag, str) or tag not in CLAUSES:
            raise ScenarioError(
                f"{where}: rules[{i}] {strict.shown(tag)} is not a clause of RULES.md (R1 to "
                'R11, such as "R8.2")'
            )
    return tuple(v)


def player_names(v: Any, where: str) -> tuple[str, ...]:
    """A player count 2-10 (default names) or 2-10 different names that are not numbers."""
    if is_whole(v):
        if not 2 <= v <= strict.MAX_PLAYERS:
            raise ScenarioError(
                f"{where}: field 'players': Palace needs 2 to 10 players, got "
                f"{strict.shown(v)} (R1.1)"
            )
        return DEFAULT_NAMES[:v]
    if not isinstance(v, list):
        raise ScenarioError(
            f"{where}: field 'players' must be a number 2-10 or a list of names, got "
            f"{strict.kind_of(v)} (R1.1)"
        )
    if not 2 <= len(v) <= strict.MAX_PLAYERS:
        raise ScenarioError(
            f"{where}: field 'players' names {len(v):,} players; Palace needs 2 to 10 (R1.1)"
        )
    names = strict.names(v, f"{where}: players", error=ScenarioError)
    for i, name in enumerate(names):
        if name.isdigit():
            raise ScenarioError(
                f"{where}: players[{i}] {name!r}: a name may not be a number (seats are)"
            )
    return names


def variant(v: Any, where: str) -> Rules:
    """The `Rules` of the scenario: an object of the fields that differ from the defaults."""
    if v is None:
        return Rules()
    if not isinstance(v, dict):
        raise ScenarioError(
            f"{where}: field 'variant' must be an object of Rules fields, got {strict.kind_of(v)}"
        )
    try:
        return Rules.from_dict(v)
    except PalaceError as exc:
        raise ScenarioError(f"{where}: variant: {exc}") from None


def deck(v: Any, where: str) -> tuple[str, ...] | None:
    """The scripted top of the deck: text such as ``"Ah Kc 5s"`` or a list, no card twice."""
    if v is None:
        return None
    strict.card_text(v, f"{where}: field 'deck'", error=ScenarioError)
    items: list[Any] = v.replace(",", " ").split() if isinstance(v, str) else v
    if not items:
        raise ScenarioError(f"{where}: field 'deck' is empty: leave it out for a shuffled deck")
    seen: dict[Card, int] = {}
    for i, item in enumerate(items):
        try:
            card = Card.parse(item)
        except CardError as exc:
            raise ScenarioError(f"{where}: deck card {i + 1} is not a card: {exc}") from None
        if card in seen:
            raise ScenarioError(
                f"{where}: deck card {i + 1} is {card}, which already appears as card "
                f"{seen[card] + 1}; a deck has each of the 52 cards once (R1.2)"
            )
        seen[card] = i
    return tuple(str(c) for c in seen)


def seat_of(ref: Any, players: Sequence[str], where: str) -> int:
    """A seat named by its number or a player's name."""
    if is_whole(ref) and 0 <= ref < len(players):
        return ref
    if isinstance(ref, str) and ref in players:
        return players.index(ref)
    raise ScenarioError(
        f"{where}: {strict.shown(ref)} is not a player: use a seat 0-{len(players) - 1} or one "
        f"of {', '.join(players)}"
    )


def actions(v: Any, players: Sequence[str], where: str) -> tuple[Action, ...]:
    """The actions, each an `Action` dict whose `target` may be a name (at most 5000)."""
    if not isinstance(v, list):
        raise ScenarioError(f"{where}: field 'actions' must be a list, got {strict.kind_of(v)}")
    if len(v) > MAX_ACTIONS:
        raise ScenarioError(
            f"{where}: field 'actions' has {len(v):,} actions; at most {MAX_ACTIONS:,} are allowed"
        )
    out = []
    for i, item in enumerate(v):
        if isinstance(item, dict) and isinstance(item.get("target"), str):
            item = dict(
                item, target=seat_of(item["target"], players, f"{where}: actions[{i}].target")
            )
        try:
            out.append(action_from_dict(item, where=f"actions[{i}]"))
        except StateError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    return tuple(out)


# ---------------------------------------------------------------------------- expect's shape
def known_keys(obj: Any, known: Sequence[str], where: str) -> dict[str, Any]:
    """`obj` if it is an object whose keys are all in `known` (with a "did you mean")."""
    if not isinstance(obj, dict):
        raise ScenarioError(f"{where} must be an object, got {strict.kind_of(obj)}")
    for k in obj:
        if k not in known:
            near = difflib.get_close_matches(str(k), known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ScenarioError(
                f"{where}: unknown key {strict.shown(k, 24)}{hint}; known: {', '.join(known)}"
            )
    return obj


def check_expect_shape(expect: Any, where: str, n_actions: int, *, top: bool) -> None:
    """Structural checks that need no game: key names, types, checkpoint positions."""
    known_keys(expect, EXPECT_KEYS if top else ("after", *STATE_KEYS), where)
    for key in ("events", "no_events", "battles", "illegal", "legal", "winners", "active"):
        if key in expect and not isinstance(expect[key], list):
            raise ScenarioError(f"{where}.{key} must be a list, got {strict.kind_of(expect[key])}")
    for key in ("shares", "banners", "soldiers", "zones"):
        if key in expect and not isinstance(expect[key], dict):
            raise ScenarioError(
                f"{where}.{key} must be an object, got {strict.kind_of(expect[key])}"
            )
    for i, m in enumerate(expect.get("events", [])):
        known_keys(m, EVENT_KEYS, f"{where}.events[{i}]")
    for i, m in enumerate(expect.get("no_events", [])):
        known_keys(m, EVENT_KEYS, f"{where}.no_events[{i}]")
    for i, m in enumerate(expect.get("battles", [])):
        known_keys(m, BATTLE_KEYS, f"{where}.battles[{i}]")
    for i, m in enumerate(expect.get("illegal", [])):
        known_keys(m, ("action", "reason"), f"{where}.illegal[{i}]")
        if "action" not in m:
            raise ScenarioError(f"{where}.illegal[{i}] needs an 'action'")
    for k in expect.get("legal", []):
        if not isinstance(k, str) or k not in ACTION_KINDS:
            raise ScenarioError(
                f"{where}.legal: {strict.shown(k)} is not an action kind "
                f"({', '.join(ACTION_KINDS)})"
            )
    if "phase" in expect and (
        not isinstance(expect["phase"], str) or expect["phase"] not in PHASES
    ):
        raise ScenarioError(
            f"{where}.phase must be one of {', '.join(map(repr, PHASES))}, got "
            f"{strict.shown(expect['phase'])}"
        )
    if top:
        cps = expect.get("checkpoints", [])
        if not isinstance(cps, list):
            raise ScenarioError(f"{where}.checkpoints must be a list, got {strict.kind_of(cps)}")
        if len(cps) > MAX_CHECKPOINTS:
            raise ScenarioError(
                f"{where}.checkpoints has {len(cps):,} entries; at most {MAX_CHECKPOINTS} are "
                "allowed"
            )
        size = sum(_expectations(cp) for cp in cps if isinstance(cp, dict)) + _expectations(expect)
        if size > MAX_EXPECTATIONS:
            raise ScenarioError(
                f"{where} asks {size:,} things (each list entry counts); at most "
                f"{MAX_EXPECTATIONS} are allowed"
            )
        for i, cp in enumerate(cps):
            w = f"{where}.checkpoints[{i}]"
            check_expect_shape(cp, w, n_actions, top=False)
            after = cp.get("after")
            if not is_whole(after) or not 0 <= after <= n_actions:
                raise ScenarioError(
                    f"{w}.after must be a number of actions 0-{n_actions}, got "
                    f"{strict.shown(after)}"
                )
    elif "after" not in expect:
        raise ScenarioError(f"{where} needs 'after': how many actions to take first")


def _expectations(state: dict[str, Any]) -> int:
    """How many things one expectation object asks (each entry of a list or object is one)."""
    return sum(
        len(v) if isinstance(v, (list, dict)) else 1
        for k, v in state.items()
        if k not in ("checkpoints", "after")
    )
