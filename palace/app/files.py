"""Saving and loading hands: the download link, and reading saved hands or scenario files."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

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

    Every problem raises `LoadError` whose message names the file and the problem: too
    big (over 1 MB), not UTF-8, not JSON, an unknown format, a field that fails the
    schema, an illegal action or a card that appears twice.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_BYTES:
        raise LoadError(f"{source} is {len(raw):,} bytes; the limit is {MAX_BYTES:,} bytes (1 MB)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(f"{source} is not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError(
            f"{source} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise LoadError(f"{source}: the JSON is nested too deeply") from None
    if not isinstance(parsed, dict):
        raise LoadError(
            f"{source}: a hand or scenario must be a JSON object {{...}}, "
            f"got {type(parsed).__name__}"
        )
    fmt = parsed.get("format")
    if fmt == HAND_FORMAT:
        try:
            game = Game.from_dict(parsed)
        except PalaceError as exc:
            raise LoadError(f"{source}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a hostile file must not crash the app
            raise LoadError(
                f"{source}: not a saved hand Palace can read ({type(exc).__name__}: {exc})"
            ) from None
        names = ", ".join(game.names)
        return Loaded("hand", f"Saved hand · seed {game.seed} · {names}", game, None, source)
    if fmt == SCENARIO_FORMAT:
        try:
            sc = load_scenario_text(raw, source=source)
            game = sc.game()
        except PalaceError as exc:
            raise LoadError(str(exc) if source in str(exc) else f"{source}: {exc}") from None
        except Exception as exc:  # noqa: BLE001
            raise LoadError(
                f"{source}: not a scenario Palace can read ({type(exc).__name__}: {exc})"
            ) from None
        return Loaded("scenario", sc.title, game, sc, source)
    raise LoadError(
        f"{source}: field 'format' must be {HAND_FORMAT!r} (a saved hand) or "
        f"{SCENARIO_FORMAT!r} (a scenario), got {fmt!r}"
    )


def load_data_file(name: str) -> Loaded:
    """Open a hand or scenario by a name inside ``data/`` only (`open_data_file` checks it)."""
    try:
        path = open_data_file(name)
    except ScenarioError as exc:
        raise LoadError(str(exc)) from None
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise LoadError(f"{name} is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (1 MB)")
    return load_hand_or_scenario(path.read_bytes(), source=name)
