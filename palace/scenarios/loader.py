"""Loading scenarios from files, JSON text and dicts: parsed, checked field by field, replayed."""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from palace.scenarios.checks import _check_expectations
from palace.scenarios.datafiles import SCENARIO_DIR
from palace.scenarios.fields import (
    _actions,
    _check_expect_shape,
    _deck,
    _players,
    _rule_tags,
    _text_field,
    _variant,
)
from palace.scenarios.record import Scenario
from palace.scenarios.schema import (
    _ID,
    _STEM,
    DEFAULT_SEED,
    FIELDS,
    FORMAT,
    MAX_BYTES,
    REQUIRED,
    ScenarioError,
    _freeze,
    _is_int,
    _json_type,
)


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
