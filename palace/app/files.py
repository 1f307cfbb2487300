"""Saving and loading hands: the download link, and reading saved hands or scenario files."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from palace import strict
from palace.errors import PalaceError, StateError
from palace.game import FORMAT as HAND_FORMAT
from palace.game import Game
from palace.scenarios import (
    FORMAT as SCENARIO_FORMAT,
)
from palace.scenarios import (
    MAX_BYTES,
    Scenario,
    ScenarioError,
    load_scenario_text,
    open_data_file,
)
from palace.widgets.theme import esc


def hand_json(game: Game) -> str:
    """The hand as ``palace-hand/1`` JSON (what the download link holds)."""
    return json.dumps(game.to_dict(), ensure_ascii=False, indent=1)


def download_name(game: Game) -> str:
    return f"palace-hand-{game.seed}.json"


def download_link(game: Game) -> str:
    """An ``<a download>`` link holding the hand as base64 JSON (no server round trip)."""
    data = hand_json(game).encode("utf-8")
    b64 = base64.b64encode(data).decode("ascii")
    name = download_name(game)
    size = f"{len(data) / 1024:.1f} KB"
    return (
        f'<a class="palace-download" download="{esc(name)}" '
        f'href="data:application/json;base64,{b64}" title="save the hand as a JSON file">'
        f"⬇ Download {esc(name)}</a> "
        f'<span class="palace-note">{len(game.actions)} actions · {size} · load it back in '
        "the Replay tab</span>"
    )


class LoadError(StateError):
    """An uploaded or named file is not a hand or scenario Palace can load (message says why)."""


@dataclass(frozen=True)
class Loaded:
    """A hand ready to replay: from a saved hand, a scenario file or an upload."""

    kind: str  # "hand" or "scenario"
    title: str
    game: Game
    scenario: Scenario | None
    source: str


def load_hand_or_scenario(data: bytes | str, source: str = "upload") -> Loaded:
    """Read a saved hand (``palace-hand/1``) or a scenario (``palace-scenario/1``).

    Both formats go through one strict schema (`palace.strict`): every problem raises
    `LoadError` whose short message names the file and the field: too big (over 1 MB),
    not UTF-8, not JSON, a repeated key, an unknown format, a field that fails the schema
    (a name that is not clean text, a number out of range, ...), an illegal action or a
    card that appears twice. Nothing is stored before the whole file has passed.
    """
    where = strict.printable(source, 80)
    parsed = strict.parse_json(data, where, error=LoadError)
    if not isinstance(parsed, dict):
        raise LoadError(
            f"{where}: a hand or scenario must be a JSON object {{...}}, "
            f"got {strict.kind_of(parsed)}"
        )
    fmt = parsed.get("format")
    if fmt == HAND_FORMAT:
        try:
            game = Game.from_dict(parsed)
        except PalaceError as exc:
            raise LoadError(strict.bounded(f"{where}: {exc}")) from None
        names = ", ".join(game.names)
        return Loaded("hand", f"Saved hand · seed {game.seed} · {names}", game, None, where)
    if fmt == SCENARIO_FORMAT:
        try:
            sc = load_scenario_text(data, source=where)
            game = sc.game()
        except PalaceError as exc:
            text = str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
            raise LoadError(strict.bounded(text)) from None
        return Loaded("scenario", sc.title, game, sc, where)
    raise LoadError(
        f"{where}: field 'format' must be {HAND_FORMAT!r} (a saved hand) or "
        f"{SCENARIO_FORMAT!r} (a scenario), got {strict.shown(fmt)}"
    )


def load_data_file(name: str) -> Loaded:
    """Open a hand or scenario by a name inside ``data/`` only (`open_data_file` checks it)."""
    try:
        path = open_data_file(name)
    except ScenarioError as exc:
        raise LoadError(str(exc)) from None
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise LoadError(
            f"{strict.printable(name, 80)}: the file is {size:,} bytes; the limit is "
            f"{MAX_BYTES:,} bytes (1 MB)"
        )
    return load_hand_or_scenario(path.read_bytes(), source=name)
