"""Loading scenarios from files, JSON text and dicts: parsed, checked field by field, replayed.

Also the command line (`main`): ``python -m palace.scenarios [FILE ...]`` checks files.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from palace import strict
from palace.numbers import is_whole
from palace.scenarios import fields
from palace.scenarios.datafiles import SCENARIO_DIR
from palace.scenarios.record import Scenario
from palace.scenarios.schema import (
    DEFAULT_SEED,
    FIELDS,
    FILE_STEM,
    FORMAT,
    ID_PATTERN,
    MAX_BYTES,
    MAX_ID,
    MAX_TITLE,
    REQUIRED,
    ScenarioError,
    freeze,
)


def load_scenario(source: str | Path | Mapping[str, Any]) -> Scenario:
    """Load and check a scenario from a JSON file path or an already-parsed dict.

    Every problem raises `ScenarioError` naming the field: bad JSON (line and column),
    a missing or unknown field, a bad card, deck, player count, variant or action, or an
    expectation that does not hold. The input is never changed.
    """
    if isinstance(source, Mapping):
        data = dict(source)
        strict.check_tree(data, "scenario", error=ScenarioError)  # bounded before copying
        return _from_dict(copy.deepcopy(data), "scenario")
    if not isinstance(source, (str, Path)):
        raise ScenarioError(
            f"load_scenario needs a file path or a dict, got {type(source).__name__}"
        )
    if isinstance(source, str) and source.lstrip().startswith(("{", "[")):
        raise ScenarioError("load_scenario was given JSON text, not a path: use load_scenario_text")
    path = Path(source)
    where = strict.printable(path.name or str(path), 120)
    try:
        if not path.is_file():
            raise ScenarioError(f"{where}: no such scenario file ({strict.printable(str(path))})")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError(
                f"{where}: the scenario is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (1 MB)"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{where}: cannot read the file: {exc.strerror or exc}") from None
    data = strict.parse_json(raw, where, error=ScenarioError, what="scenario")
    scenario = _from_dict(data, where)
    m = FILE_STEM.match(path.stem)
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
    where = strict.printable(str(source), 120)
    if not isinstance(text, (str, bytes, bytearray)):
        raise ScenarioError(f"{where}: expected JSON text, got {type(text).__name__}")
    data = strict.parse_json(text, where, max_bytes=max_bytes, error=ScenarioError, what="scenario")
    return _from_dict(data, where)


def list_scenarios(folder: str | Path = SCENARIO_DIR) -> list[Scenario]:
    """Every ``*.json`` scenario in `folder`, loaded and checked, sorted by file name."""
    root = Path(folder)
    if not root.is_dir():
        raise ScenarioError(f"no scenario folder at {root}")
    return [load_scenario(p) for p in sorted(root.glob("*.json"), key=lambda p: p.name)]


def main(argv: Sequence[str] | None = None) -> int:
    """Check scenario files: ``python -m palace.scenarios [FILE ...]`` (default: all of them)."""
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


def _from_dict(data: Any, where: str) -> Scenario:
    """A checked `Scenario` from parsed, bounded JSON (`strict.check_tree` has passed)."""
    if not isinstance(data, dict):
        raise ScenarioError(
            f"{where}: a scenario must be a JSON object {{...}}, got {strict.kind_of(data)}"
        )
    early_id = data.get("id")
    if (
        where in ("scenario", "upload")
        and isinstance(early_id, str)
        and len(early_id) <= MAX_ID
        and ID_PATTERN.match(early_id)
    ):
        where = f"{where} ({early_id})"
    strict.known_keys(data, FIELDS, where, error=ScenarioError)
    for key in REQUIRED:
        if key not in data:
            raise ScenarioError(f"{where}: missing field {key!r}")
    if data["format"] != FORMAT:
        raise ScenarioError(
            f"{where}: field 'format' must be {FORMAT!r}, got {strict.shown(data['format'])}"
        )
    sid = data["id"]
    if not isinstance(sid, str) or len(sid) > MAX_ID or not ID_PATTERN.match(sid):
        raise ScenarioError(
            f"{where}: field 'id' must be lower-case words joined by '-' (at most {MAX_ID} "
            f"characters), such as 'exclusion-kills-flush', got {strict.shown(sid)}"
        )
    title = fields.text_field(data, "title", where, limit=MAX_TITLE)
    summary = fields.text_field(data, "summary", where)
    question = fields.optional_text(data, "question", where)
    answer = fields.optional_text(data, "answer", where)
    if question is not None and answer is None:
        raise ScenarioError(f"{where}: a 'question' needs an 'answer' that explains it")
    if answer is not None and question is None:
        raise ScenarioError(f"{where}: an 'answer' needs the 'question' it answers")
    rules = fields.rule_tags(data["rules"], where)
    players = fields.player_names(data["players"], where)
    n = len(players)
    dealer = data.get("dealer")
    if dealer is not None and (not is_whole(dealer) or not 0 <= dealer < n):
        raise ScenarioError(
            f"{where}: field 'dealer' must be a seat 0-{n - 1} or null (draw for it, R2), "
            f"got {strict.shown(dealer)} (R2.3)"
        )
    seed = strict.seed(
        data.get("seed", DEFAULT_SEED), f"{where}: field 'seed'", error=ScenarioError
    )
    variant = fields.variant(data.get("variant"), where)
    deck = fields.deck(data.get("deck"), where)
    actions = fields.actions(data["actions"], players, where)
    expect = data["expect"]
    if not isinstance(expect, dict):
        raise ScenarioError(
            f"{where}: field 'expect' must be an object, got {strict.kind_of(expect)}"
        )
    fields.check_expect_shape(expect, f"{where}: expect", len(actions), top=True)
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
        expect=freeze(expect),
        question=question,
        answer=answer,
        source=where,
    )
    scenario.check()
    return scenario
