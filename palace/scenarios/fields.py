"""Static checks of a scenario's fields and of the shape of its `expect`, before any deal."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from palace.actions import Action, action_from_dict
from palace.cards import Card
from palace.errors import CardError, PalaceError, StateError
from palace.rules import Rules
from palace.scenarios.schema import (
    ACTION_KINDS,
    BATTLE_KEYS,
    CLAUSES,
    EVENT_KEYS,
    EXPECT_KEYS,
    MAX_ACTIONS,
    MAX_CHECKPOINTS,
    PHASES,
    STATE_KEYS,
    ScenarioError,
    _is_int,
    _json_type,
)
from palace.table import DEFAULT_NAMES


def _text_field(data: dict[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    v = data.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ScenarioError(f"{where}: field {key!r} must be non-empty text, got {v!r}")
    return v.strip()


def _rule_tags(v: Any, where: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not v:
        raise ScenarioError(
            f"{where}: field 'rules' must be a non-empty list of clauses such as \"R8.2\", "
            f"got {v!r}"
        )
    for i, tag in enumerate(v):
        if tag not in CLAUSES:
            raise ScenarioError(
                f"{where}: rules[{i}] {tag!r} is not a clause of RULES.md (R1 to R11, such as "
                f'"R8.2")'
            )
    return tuple(v)


def _players(v: Any, where: str) -> tuple[str, ...]:
    if _is_int(v):
        if not 2 <= v <= 10:
            raise ScenarioError(
                f"{where}: field 'players': Palace needs 2 to 10 players, got {v} (R1.1)"
            )
        return DEFAULT_NAMES[:v]
    if not isinstance(v, list):
        raise ScenarioError(
            f"{where}: field 'players' must be a number 2-10 or a list of names, got "
            f"{_json_type(v)} (R1.1)"
        )
    if not 2 <= len(v) <= 10:
        raise ScenarioError(
            f"{where}: field 'players' names {len(v)} players; Palace needs 2 to 10 (R1.1)"
        )
    names = []
    for i, name in enumerate(v):
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(f"{where}: players[{i}] must be a non-empty name, got {name!r}")
        if name.strip() in names:
            raise ScenarioError(f"{where}: players[{i}] {name!r} is named twice")
        if name.strip().isdigit():
            raise ScenarioError(f"{where}: players[{i}] {name!r}: a name may not be a number")
        names.append(name.strip())
    return tuple(names)


def _variant(v: Any, where: str) -> Rules:
    if v is None:
        return Rules()
    if not isinstance(v, dict):
        raise ScenarioError(
            f"{where}: field 'variant' must be an object of Rules fields, got {_json_type(v)}"
        )
    try:
        return Rules.from_dict(v)
    except PalaceError as exc:
        raise ScenarioError(f"{where}: variant: {exc}") from None
    except TypeError as exc:
        raise ScenarioError(f"{where}: variant: {exc}") from None


def _deck(v: Any, where: str) -> tuple[str, ...] | None:
    if v is None:
        return None
    if isinstance(v, str):
        items: list[Any] = v.replace(",", " ").split()
    elif isinstance(v, list):
        items = v
    else:
        raise ScenarioError(
            f"{where}: field 'deck' must be text such as \"As Kd 7h\" or a list of cards, "
            f"got {_json_type(v)}"
        )
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


def _seat(ref: Any, players: Sequence[str], where: str) -> int:
    if _is_int(ref) and 0 <= ref < len(players):
        return ref
    if isinstance(ref, str) and ref in players:
        return players.index(ref)
    raise ScenarioError(
        f"{where}: {ref!r} is not a player: use a seat 0-{len(players) - 1} or one of "
        f"{', '.join(players)}"
    )


def _actions(v: Any, players: Sequence[str], where: str) -> tuple[Action, ...]:
    if not isinstance(v, list):
        raise ScenarioError(f"{where}: field 'actions' must be a list, got {_json_type(v)}")
    if len(v) > MAX_ACTIONS:
        raise ScenarioError(
            f"{where}: field 'actions' has {len(v)} actions; at most {MAX_ACTIONS} are allowed"
        )
    out = []
    for i, item in enumerate(v):
        if isinstance(item, dict) and isinstance(item.get("target"), str):
            item = dict(
                item, target=_seat(item["target"], players, f"{where}: actions[{i}].target")
            )
        try:
            out.append(action_from_dict(item, where=f"actions[{i}]"))
        except StateError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    return tuple(out)


# ---------------------------------------------------------------------------- expect's shape
def _keys(obj: Any, known: Sequence[str], where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ScenarioError(f"{where} must be an object, got {_json_type(obj)}")
    for k in obj:
        if k not in known:
            near = difflib.get_close_matches(str(k), known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ScenarioError(f"{where}: unknown key {k!r}{hint}; known: {', '.join(known)}")
    return obj


def _check_expect_shape(expect: Any, where: str, n_actions: int, *, top: bool) -> None:
    """Structural checks that need no game: key names, types, checkpoint positions."""
    _keys(expect, EXPECT_KEYS if top else ("after", *STATE_KEYS), where)
    for key in ("events", "no_events", "battles", "illegal", "legal", "winners", "active"):
        if key in expect and not isinstance(expect[key], list):
            raise ScenarioError(f"{where}.{key} must be a list, got {_json_type(expect[key])}")
    for key in ("shares", "banners", "soldiers", "zones"):
        if key in expect and not isinstance(expect[key], dict):
            raise ScenarioError(f"{where}.{key} must be an object, got {_json_type(expect[key])}")
    for i, m in enumerate(expect.get("events", [])):
        _keys(m, EVENT_KEYS, f"{where}.events[{i}]")
    for i, m in enumerate(expect.get("no_events", [])):
        _keys(m, EVENT_KEYS, f"{where}.no_events[{i}]")
    for i, m in enumerate(expect.get("battles", [])):
        _keys(m, BATTLE_KEYS, f"{where}.battles[{i}]")
    for i, m in enumerate(expect.get("illegal", [])):
        _keys(m, ("action", "reason"), f"{where}.illegal[{i}]")
        if "action" not in m:
            raise ScenarioError(f"{where}.illegal[{i}] needs an 'action'")
    for k in expect.get("legal", []):
        if k not in ACTION_KINDS:
            raise ScenarioError(
                f"{where}.legal: {k!r} is not an action kind ({', '.join(ACTION_KINDS)})"
            )
    if "phase" in expect and expect["phase"] not in PHASES:
        raise ScenarioError(
            f"{where}.phase must be one of {', '.join(map(repr, PHASES))}, got {expect['phase']!r}"
        )
    if top:
        cps = expect.get("checkpoints", [])
        if not isinstance(cps, list):
            raise ScenarioError(f"{where}.checkpoints must be a list, got {_json_type(cps)}")
        if len(cps) > MAX_CHECKPOINTS:
            raise ScenarioError(
                f"{where}.checkpoints has {len(cps)} entries; at most {MAX_CHECKPOINTS} are allowed"
            )
        for i, cp in enumerate(cps):
            w = f"{where}.checkpoints[{i}]"
            _check_expect_shape(cp, w, n_actions, top=False)
            after = cp.get("after")
            if not _is_int(after) or not 0 <= after <= n_actions:
                raise ScenarioError(
                    f"{w}.after must be a number of actions 0-{n_actions}, got {after!r}"
                )
    else:
        if "after" not in expect:
            raise ScenarioError(f"{where} needs 'after': how many actions to take first")
