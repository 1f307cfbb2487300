"""Teaching scenarios: the checked `palace-scenario/1` JSON format, its loader, safe data paths."""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from types import MappingProxyType
from typing import Any

from palace.actions import Action, action_from_dict
from palace.battle import BattleResult
from palace.cards import Card, parse_cards
from palace.errors import CardError, PalaceError, StateError
from palace.events import Event, Phase
from palace.game import Game
from palace.hands import evaluate
from palace.rules import Rules
from palace.table import DEFAULT_NAMES

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

FORMAT = "palace-scenario/1"
DATA = Path(__file__).resolve().parent.parent / "data"
SCENARIO_DIR = DATA / "scenarios"
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


# ---------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class Scenario:
    """One checked teaching position: its metadata, setup and the actions that reach it.

    `game()` deals the hand and applies every action; `game_at(k)` stops after the
    first `k`. `expect` is the (read-only) dict of what must hold, checked on load.
    """

    id: str
    title: str
    summary: str
    rules: tuple[str, ...]
    players: tuple[str, ...]
    dealer: int | None
    seed: int
    variant: Rules
    deck: tuple[str, ...] | None
    actions: tuple[Action, ...]
    expect: Mapping[str, Any] = field(compare=False, repr=False)
    question: str | None = None
    answer: str | None = None
    source: str = field(default="", compare=False)

    @property
    def n_actions(self) -> int:
        """How many player actions the scenario takes."""
        return len(self.actions)

    def game(self) -> Game:
        """A fresh `Game`, dealt from the scenario's setup, after all its actions."""
        return self.game_at(len(self.actions))

    def game_at(self, k: int) -> Game:
        """A fresh `Game` after the first `k` actions (0: right after the deal)."""
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= len(self.actions):
            raise ScenarioError(
                f"{self.id}: game_at needs a whole number 0-{len(self.actions)}, got {k!r}"
            )
        g = _new_game(self, self.source or self.id)
        for i, a in enumerate(self.actions[:k]):
            _apply(g, a, i, self.source or self.id)
        return g

    def check(self) -> None:
        """Replay the scenario and check every expectation; raises `ScenarioError`."""
        _check_expectations(self, self.source or self.id)

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a JSON-ready dict in the ``palace-scenario/1`` format."""
        d: dict[str, Any] = {
            "format": FORMAT,
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "rules": list(self.rules),
            "players": list(self.players),
            "dealer": self.dealer,
            "seed": self.seed,
        }
        if self.variant.changes():
            d["variant"] = self.variant.to_dict()
        if self.deck is not None:
            d["deck"] = " ".join(self.deck)
        d["actions"] = [_action_json(a) for a in self.actions]
        d["expect"] = _thaw(self.expect)
        if self.question is not None:
            d["question"] = self.question
        if self.answer is not None:
            d["answer"] = self.answer
        return d


def _action_json(a: Action) -> dict[str, Any]:
    d = a.to_dict()
    return {k: v for k, v in d.items() if not (k == "amount" and v is None)}


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


# ---------------------------------------------------------------------------- loading
def load_scenario(source: str | Path | Mapping[str, Any]) -> Scenario:
    """Load and check a scenario from a JSON file path or an already-parsed dict.

    Every problem raises `ScenarioError` naming the field: bad JSON (line and column),
    a missing or unknown field, a bad card, deck, player count, variant or action, or an
    expectation that does not hold. The input is never changed.
    """
    if isinstance(source, Mapping):
        try:
            data = copy.deepcopy(dict(source))
        except RecursionError:
            raise ScenarioError("scenario: the data is nested too deeply") from None
        return _from_dict(data, "scenario")
    if not isinstance(source, (str, Path)):
        raise ScenarioError(
            f"load_scenario needs a file path or a dict, got {type(source).__name__}"
        )
    if isinstance(source, str) and source.lstrip().startswith(("{", "[")):
        raise ScenarioError("load_scenario was given JSON text, not a path: use load_scenario_text")
    path = Path(source)
    where = path.name or str(path)
    try:
        if not path.is_file():
            raise ScenarioError(f"{where}: no such scenario file ({path})")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError(_too_big(where, size, MAX_BYTES))
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{where}: cannot read the file: {exc.strerror or exc}") from None
    data = _parse_json(raw, where, MAX_BYTES)
    scenario = _from_dict(data, where)
    m = _STEM.match(path.stem)
    if m is None or m.group("id") != scenario.id:
        raise ScenarioError(
            f"{where}: the file name must be the id, optionally after a number "
            f"(such as '01-{scenario.id}.json'), got {path.name!r}"
        )
    return scenario


def load_scenario_text(
    text: str | bytes, source: str = "upload", *, max_bytes: int = MAX_BYTES
) -> Scenario:
    """Load and check a scenario from JSON text (an upload); more than `max_bytes` is refused."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ScenarioError(f"{source}: expected JSON text, got {type(text).__name__}")
    return _from_dict(_parse_json(text, source, max_bytes), source)


def list_scenarios(folder: str | Path = SCENARIO_DIR) -> list[Scenario]:
    """Every ``*.json`` scenario in `folder`, loaded and checked, sorted by file name."""
    root = Path(folder)
    if not root.is_dir():
        raise ScenarioError(f"no scenario folder at {root}")
    return [load_scenario(p) for p in sorted(root.glob("*.json"), key=lambda p: p.name)]


def _too_big(where: str, size: int, limit: int) -> str:
    return f"{where}: the scenario is {size:,} bytes; the limit is {limit:,} bytes (1 MB)"


def _parse_json(text: str | bytes | bytearray, where: str, max_bytes: int) -> Any:
    if isinstance(text, str):
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise ScenarioError(
                _too_big(where, len(text.encode("utf-8", "surrogatepass")), max_bytes)
            )
    else:
        if len(text) > max_bytes:
            raise ScenarioError(_too_big(where, len(text), max_bytes))
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScenarioError(
                f"{where}: not UTF-8 text (bad byte at offset {exc.start})"
            ) from None

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise ScenarioError(f"{where}: the key {k!r} appears twice in one object")
            out[k] = v
        return out

    def constant(name: str) -> Any:
        raise ScenarioError(f"{where}: {name} is not allowed in a scenario (use a number)")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            f"{where}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise ScenarioError(f"{where}: the JSON is nested too deeply") from None


def _text_field(data: dict[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    v = data.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ScenarioError(f"{where}: field {key!r} must be non-empty text, got {v!r}")
    return v.strip()


def _from_dict(data: Any, where: str) -> Scenario:
    try:
        return _build(data, where)
    except RecursionError:
        raise ScenarioError(f"{where}: the scenario is nested too deeply") from None


def _build(data: Any, where: str) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError(
            f"{where}: a scenario must be a JSON object {{...}}, got {_json_type(data)}"
        )
    early_id = data.get("id")
    if where in ("scenario", "upload") and isinstance(early_id, str) and _ID.match(early_id):
        where = f"{where} ({early_id})"
    for key in data:
        if key not in FIELDS:
            near = difflib.get_close_matches(str(key), FIELDS, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ScenarioError(
                f"{where}: unknown field {key!r}{hint}; known fields: {', '.join(FIELDS)}"
            )
    for key in REQUIRED:
        if key not in data:
            raise ScenarioError(f"{where}: missing field {key!r}")
    if data["format"] != FORMAT:
        raise ScenarioError(f"{where}: field 'format' must be {FORMAT!r}, got {data['format']!r}")
    sid = data["id"]
    if not isinstance(sid, str) or not _ID.match(sid):
        raise ScenarioError(
            f"{where}: field 'id' must be lower-case words joined by '-', such as "
            f"'exclusion-kills-flush', got {sid!r}"
        )
    title = _text_field(data, "title", where)
    summary = _text_field(data, "summary", where)
    question = _text_field(data, "question", where, optional=True)
    answer = _text_field(data, "answer", where, optional=True)
    if question is not None and answer is None:
        raise ScenarioError(f"{where}: a 'question' needs an 'answer' that explains it")
    if answer is not None and question is None:
        raise ScenarioError(f"{where}: an 'answer' needs the 'question' it answers")
    rules = _rule_tags(data["rules"], where)
    players = _players(data["players"], where)
    n = len(players)
    dealer = data.get("dealer")
    if dealer is not None and (not _is_int(dealer) or not 0 <= dealer < n):
        raise ScenarioError(
            f"{where}: field 'dealer' must be a seat 0-{n - 1} or null (draw for it, R2), "
            f"got {dealer!r} (R2.3)"
        )
    seed = data.get("seed", DEFAULT_SEED)
    if not _is_int(seed):
        raise ScenarioError(f"{where}: field 'seed' must be a whole number, got {seed!r}")
    variant = _variant(data.get("variant"), where)
    deck = _deck(data.get("deck"), where)
    actions = _actions(data["actions"], players, where)
    expect = data["expect"]
    if not isinstance(expect, dict):
        raise ScenarioError(f"{where}: field 'expect' must be an object, got {_json_type(expect)}")
    _check_expect_shape(expect, f"{where}: expect", len(actions), top=True)
    scenario = Scenario(
        id=sid,
        title=title,
        summary=summary,
        rules=rules,
        players=players,
        dealer=dealer,
        seed=seed,
        variant=variant,
        deck=deck,
        actions=actions,
        expect=_freeze(expect),
        question=question,
        answer=answer,
        source=where,
    )
    _check_expectations(scenario, where)
    return scenario


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


# ---------------------------------------------------------------------------- the game
def _new_game(s: Scenario, where: str) -> Game:
    try:
        return Game.new(
            players=list(s.players),
            seed=s.seed,
            rules=s.variant,
            deck=None if s.deck is None else list(s.deck),
            dealer=s.dealer,
        )
    except PalaceError as exc:
        raise ScenarioError(f"{where}: the hand cannot be dealt: {exc}") from None


def _apply(g: Game, a: Action, i: int, where: str) -> None:
    reason = g.why_illegal(a)
    if reason is not None:
        who = g.names[g.to_act] if g.to_act is not None else "nobody"
        raise ScenarioError(
            f"{where}: actions[{i}] ({g.describe(a)} by {who}) is illegal: {reason}"
        )
    g.apply(a)


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


def _check_expectations(s: Scenario, where: str) -> None:
    expect = _thaw(s.expect)
    games: dict[int, Game] = {}
    # Step once through the actions, keeping the games the checkpoints ask for.
    wanted = {cp["after"] for cp in expect.get("checkpoints", [])}
    g = _new_game(s, where)
    if 0 in wanted:
        games[0] = _new_game(s, where)
    for i, a in enumerate(s.actions):
        _apply(g, a, i, where)
        if i + 1 in wanted:
            games[i + 1] = g.replay()
    for i, cp in enumerate(expect.get("checkpoints", [])):
        state = {k: v for k, v in cp.items() if k != "after"}
        _check_state(
            games[cp["after"]],
            state,
            s.players,
            f"{where}: expect.checkpoints[{i}] (after {cp['after']} actions)",
        )
    state = {k: v for k, v in expect.items() if k != "checkpoints"}
    _check_state(g, state, s.players, f"{where}: expect")


def _fail(where: str, key: str, want: Any, got: Any) -> ScenarioError:
    return ScenarioError(f"{where}.{key} does not hold: expected {want}, got {got}")


def _seat_name(players: Sequence[str], seat: int | None) -> str:
    return "nobody" if seat is None else f"{players[seat]} (seat {seat})"


def _cards_set(v: Any, where: str) -> frozenset[Card]:
    try:
        return frozenset(parse_cards(v))
    except (CardError, TypeError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def _fmt(cards: Any) -> str:
    return " ".join(sorted((str(c) for c in cards), key=lambda c: Card.parse(c).index)) or "none"


def _check_state(g: Game, exp: dict[str, Any], players: Sequence[str], where: str) -> None:
    res = g.result

    def seat(ref: Any, key: str) -> int:
        return _seat(ref, players, f"{where}.{key}")

    def need_result(key: str) -> Any:
        if res is None:
            raise ScenarioError(f"{where}.{key} does not hold: the hand is not over ({g.phase})")
        return res

    for key, want in exp.items():
        check = _STATE_CHECKS[key]
        check(g, want, players, where, key, seat, need_result)


_Check = Callable[..., None]


def _c_over(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if not isinstance(want, bool):
        raise ScenarioError(f"{where}.{key} must be true or false, got {want!r}")
    if g.is_over != want:
        raise _fail(where, key, want, g.is_over)


def _c_phase(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if g.phase.value != want:
        raise _fail(where, key, repr(want), repr(g.phase.value))


def _c_to_act(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    w = None if want is None else seat(want, key)
    if g.to_act != w:
        raise _fail(where, key, _seat_name(players, w), _seat_name(players, g.to_act))


def _c_pot(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if not _is_int(want):
        raise ScenarioError(f"{where}.{key} must be a whole number, got {want!r}")
    if g.pot != want:
        raise _fail(where, key, want, g.pot)


def _c_winner(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = seat(want, key)
    if r.winners != (w,):
        got = ", ".join(_seat_name(players, s) for s in r.winners)
        raise _fail(where, key, f"{_seat_name(players, w)} alone", got)


def _c_winners(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = {seat(x, key) for x in want}
    if set(r.winners) != w:
        raise _fail(
            where, key, sorted(players[s] for s in w), sorted(players[s] for s in r.winners)
        )


def _c_reason(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    if r.reason != want:
        raise _fail(where, key, repr(want), repr(r.reason))


def _c_result_rule(
    g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any
) -> None:
    r = res(key)
    if r.rule != want:
        raise _fail(where, key, repr(want), repr(r.rule))


def _c_shares(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = {seat(k, key): v for k, v in want.items()}
    got = {s: v for s, v in r.shares.items()}
    if w != got:
        show = lambda d: {players[s]: v for s, v in sorted(d.items())}  # noqa: E731
        raise _fail(where, key, show(w), show(got))


def _c_active(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    w = {seat(x, key) for x in want}
    got = {s for s in range(g.players) if g.active[s]}
    if w != got:
        raise _fail(where, key, sorted(players[s] for s in w), sorted(players[s] for s in got))


def _c_banners(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    for ref, card in want.items():
        s = seat(ref, key)
        w = _cards_set(card, f"{where}.{key}.{ref}")
        got = g.banner(s)
        if got is None or frozenset({got}) != w:
            raise _fail(where, f"{key}.{players[s]}", _fmt(w), got)


def _c_soldiers(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    for ref, w in want.items():
        s = seat(ref, key)
        got = g.soldiers(s)
        if _is_int(w):
            if len(got) != w:
                raise _fail(
                    where, f"{key}.{players[s]}", f"{w} soldiers", f"{len(got)} ({_fmt(got)})"
                )
        elif _cards_set(w, f"{where}.{key}.{ref}") != frozenset(got):
            raise _fail(where, f"{key}.{players[s]}", _fmt(_cards_set(w, where)), _fmt(got))


def _c_zones(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    zones = g.zones()
    for name, w in want.items():
        if name not in zones:
            raise ScenarioError(
                f"{where}.{key}: unknown zone {name!r} "
                "(deck, discard, rejects, seat0.soldiers, ...)"
            )
        if not _is_int(w):
            raise ScenarioError(f"{where}.{key}.{name} must be a card count, got {w!r}")
        if len(zones[name]) != w:
            raise _fail(where, f"{key}.{name}", f"{w} cards", len(zones[name]))


def _c_legal(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    got = sorted({a.kind for a in g.legal_actions()}, key=ACTION_KINDS.index)
    if set(got) != set(want):
        raise _fail(where, key, sorted(want, key=ACTION_KINDS.index), got)


def _c_illegal(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    for i, item in enumerate(want):
        w = f"{where}.{key}[{i}]"
        (a,) = _actions([item["action"]], players, w)
        reason = g.why_illegal(a)
        if reason is None:
            raise ScenarioError(f"{w} does not hold: {g.describe(a)} is legal here")
        part = item.get("reason")
        if part is not None and part not in reason:
            raise _fail(w, "reason", f"a reason containing {part!r}", repr(reason))


def _event_matches(e: Event, m: dict[str, Any], players: Sequence[str], where: str) -> bool:
    for k, v in m.items():
        if k == "kind" and e.kind != v:
            return False
        if k == "rule" and e.rule != v:
            return False
        if k == "seat" and e.seat != (None if v is None else _seat(v, players, f"{where}.seat")):
            return False
        if k == "cards" and frozenset(e.cards) != _cards_set(v, f"{where}.cards"):
            return False
        if k == "amount" and e.amount != v:
            return False
        if k == "text" and str(v) not in e.text:
            return False
    return True


def _c_events(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    events = g.events
    pos = 0
    for i, m in enumerate(want):
        w = f"{where}.{key}[{i}]"
        while pos < len(events) and not _event_matches(events[pos], m, players, w):
            pos += 1
        if pos == len(events):
            earlier = any(_event_matches(e, m, players, w) for e in events)
            where_ = " (it happens, but before the previous expected event)" if earlier else ""
            raise ScenarioError(f"{w} does not hold: no event matches {m}{where_}")
        pos += 1


def _c_no_events(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    for i, m in enumerate(want):
        w = f"{where}.{key}[{i}]"
        for e in g.events:
            if _event_matches(e, m, players, w):
                raise ScenarioError(f"{w} does not hold: event #{e.index} matches: {e.text}")


def _no_exclusion_winner(r: BattleResult, a: int, d: int) -> int | None:
    """Who would win the battle if R8.2 did not exist (R8.4, then R8.5)."""
    ah, dh = evaluate(r.attacker_hand.cards), evaluate(r.defender_hand.cards)
    if ah != dh:
        return a if ah > dh else d
    if r.attacker_banner_count != r.defender_banner_count:
        return a if r.attacker_banner_count > r.defender_banner_count else d
    return None


def _c_battles(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    battles = [e for e in g.events if e.kind == "battle"]
    if len(battles) != len(want):
        raise _fail(where, f"{key} (how many)", len(want), len(battles))
    for i, (e, m) in enumerate(zip(battles, want, strict=True)):
        w = f"{where}.{key}[{i}]"
        r: BattleResult = e.detail["battle"]
        a, d = e.detail["attacker"], e.detail["defender"]
        facts: dict[str, Any] = {
            "attacker": a,
            "defender": d,
            "winner": e.seat,
            "rule": e.rule,
            "decided_by": r.decided_by,
        }
        for k, v in m.items():
            if k in ("attacker", "defender", "winner"):
                ws = None if v is None else _seat(v, players, f"{w}.{k}")
                if facts[k] != ws:
                    raise _fail(w, k, _seat_name(players, ws), _seat_name(players, facts[k]))
            elif k in ("rule", "decided_by"):
                if facts[k] != v:
                    raise _fail(w, k, repr(v), repr(facts[k]))
            elif k in ("attacker_hand", "defender_hand"):
                h = r.attacker_hand if k == "attacker_hand" else r.defender_hand
                if str(v) not in h.describe():
                    raise _fail(w, k, f"a hand described with {v!r}", repr(h.describe()))
            elif k in ("attacker_excluded", "defender_excluded"):
                h = r.attacker_hand if k == "attacker_excluded" else r.defender_hand
                if _cards_set(v, f"{w}.{k}") != frozenset(h.excluded):
                    raise _fail(w, k, _fmt(_cards_set(v, w)), _fmt(h.excluded))
            elif k == "without_exclusion":
                ws = None if v is None else _seat(v, players, f"{w}.{k}")
                got = _no_exclusion_winner(r, a, d)
                if got != ws:
                    raise _fail(w, k, _seat_name(players, ws), _seat_name(players, got))


_STATE_CHECKS: dict[str, _Check] = {
    "over": _c_over,
    "phase": _c_phase,
    "to_act": _c_to_act,
    "pot": _c_pot,
    "winner": _c_winner,
    "winners": _c_winners,
    "reason": _c_reason,
    "result_rule": _c_result_rule,
    "shares": _c_shares,
    "active": _c_active,
    "banners": _c_banners,
    "soldiers": _c_soldiers,
    "zones": _c_zones,
    "legal": _c_legal,
    "illegal": _c_illegal,
    "events": _c_events,
    "no_events": _c_no_events,
    "battles": _c_battles,
}


# ---------------------------------------------------------------------------- safe paths
def data_path(name: str, *, root: str | Path | None = None) -> Path:
    """The file `name` inside the data folder (default: the repository's ``data/``).

    Only relative names with ``/`` separators are accepted; absolute paths, drive
    letters, backslashes, ``..`` parts and symbolic links that lead outside the folder
    raise `ScenarioError`. The file must exist.
    """
    base = Path(DATA if root is None else root)
    if not isinstance(name, str):
        raise ScenarioError(f"a data file name must be text, got {type(name).__name__}")
    shown = repr(name) if len(name) <= 80 else repr(name[:77] + "...")
    if not name.strip():
        raise ScenarioError("a data file name must not be empty")
    if "\x00" in name or len(name) > 255:
        raise ScenarioError(f"{shown} is not a usable file name")
    if "\\" in name:
        raise ScenarioError(f"{shown}: use '/' between folders, not '\\'")
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).drive or name.startswith("~"):
        raise ScenarioError(
            f"{shown} is an absolute path: name a file inside the data folder, such as "
            f"'scenarios/01-quiet-round-showdown.json'"
        )
    if ".." in PurePosixPath(name).parts:
        raise ScenarioError(f"{shown} uses '..': only files inside the data folder can be opened")
    try:
        top = base.resolve(strict=True)
    except OSError:
        raise ScenarioError(f"the data folder {base} does not exist") from None
    target = top / name
    try:
        real = target.resolve(strict=True)
    except OSError:
        raise ScenarioError(f"{shown}: no such file in the data folder") from None
    if not real.is_relative_to(top):
        raise ScenarioError(f"{shown} leads outside the data folder (a symbolic link): refused")
    if not real.is_file():
        raise ScenarioError(f"{shown} is not a file in the data folder")
    return real


def open_data_file(name: str, *, root: str | Path | None = None) -> Path:
    """Resolve a user-typed name to a checked file inside ``data/`` (see `data_path`).

    The app's "open by name" uses it: ``load_scenario(open_data_file("scenarios/01-x.json"))``.
    """
    return data_path(name, root=root)


# ---------------------------------------------------------------------------- authoring
def draft_from_game(
    game: Game,
    *,
    id: str,
    title: str,
    summary: str,
    rules: Sequence[str],
    question: str | None = None,
    answer: str | None = None,
) -> dict[str, Any]:
    """A scenario dict that replays `game`, with an `expect` recording how it stands now.

    Play a hand in a notebook, then save ``json.dumps(draft_from_game(g, ...))`` as
    ``data/scenarios/NN-<id>.json`` and trim `expect` to the points the lesson makes.
    """
    saved = game.to_dict()
    expect: dict[str, Any] = {"over": game.is_over, "phase": game.phase.value}
    if game.to_act is not None:
        expect["to_act"] = game.names[game.to_act]
    expect["active"] = [game.names[s] for s in range(game.players) if game.active[s]]
    res = game.result
    if res is not None:
        expect["winners"] = [game.names[s] for s in res.winners]
        expect["reason"] = res.reason
        expect["result_rule"] = res.rule
        expect["shares"] = {game.names[s]: v for s, v in res.shares.items()}
    battles = []
    for e in game.events:
        if e.kind == "battle":
            battles.append(
                {
                    "attacker": game.names[e.detail["attacker"]],
                    "defender": game.names[e.detail["defender"]],
                    "winner": None if e.seat is None else game.names[e.seat],
                    "rule": e.rule,
                }
            )
    if battles:
        expect["battles"] = battles
    d: dict[str, Any] = {
        "format": FORMAT,
        "id": id,
        "title": title,
        "summary": summary,
        "rules": list(rules),
        "players": saved["players"],
        "dealer": saved["dealer"],
        "seed": saved["seed"],
    }
    if game.rules.changes():
        d["variant"] = game.rules.changes()
    if saved["deck"] is not None:
        d["deck"] = " ".join(saved["deck"])
    d["actions"] = [_action_json(a) for a in game.actions]
    d["expect"] = expect
    if question is not None:
        d["question"] = question
        d["answer"] = answer
    return d


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


if __name__ == "__main__":
    raise SystemExit(main())
