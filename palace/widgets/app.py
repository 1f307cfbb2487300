"""`PalaceApp`: the whole suite in one widget for a class: play, replay, battles, variants, lessons.

``notebooks/app.ipynb`` is just ``PalaceApp()``; ``make app`` serves the notebooks folder with
Voilà, so the app is at ``/voila/render/app.ipynb`` and its Lessons tab links to the lessons
beside it. Every browser tab gets its own kernel, so every learner gets their own app.

The constructor never displays anything: show the returned widget (the notebook's last
expression). Each tab is a widget of its own (`PlayTab`, `ReplayTab`, `BattleLab`,
`ExploreTab`, `LessonsTab`) with a ``.text()`` for tests, as the other Palace panels.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any

from ipywidgets import (
    HTML,
    BoundedIntText,
    Button,
    Checkbox,
    Dropdown,
    FileUpload,
    HBox,
    IntProgress,
    IntText,
    Layout,
    Tab,
    Text,
    ToggleButton,
    ToggleButtons,
    VBox,
    Widget,
)

from palace.battle import Army
from palace.cards import parse_cards
from palace.errors import CardError, PalaceError, StateError
from palace.events import Event
from palace.game import FORMAT as HAND_FORMAT
from palace.game import Game
from palace.rules import Rules
from palace.scenarios import (
    FORMAT as SCENARIO_FORMAT,
)
from palace.scenarios import (
    MAX_BYTES,
    SCENARIO_DIR,
    Scenario,
    ScenarioError,
    load_scenario,
    load_scenario_text,
    open_data_file,
)
from palace.table import DEFAULT_NAMES
from palace.widgets.action_picker import ActionPicker, Advisor
from palace.widgets.battle_view import BattleView
from palace.widgets.controller import PlayController
from palace.widgets.exclusion_explorer import ExclusionExplorer
from palace.widgets.stepper import DealStepper, battle_visible
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge, style_widget

__all__ = [
    "PalaceApp",
    "PlayTab",
    "ReplayTab",
    "BattleLab",
    "ExploreTab",
    "LessonsTab",
    "Loaded",
    "LoadError",
    "load_hand_or_scenario",
    "hand_json",
    "download_link",
    "odds_advisor",
    "lesson_notebooks",
]

log = logging.getLogger("palace.app")

LESSON_DIR = Path(__file__).resolve().parents[2] / "notebooks"
APP_NOTEBOOK = "app.ipynb"
TAB_TITLES = ("Play", "Replay", "Battle lab", "Explore", "Lessons")
# The instructor switch: what the Play and Replay tables show.
VIEW_PLAYERS, VIEW_SEAT, VIEW_ALL = "players", "seat", "all"
VARIANT_NAMES = (
    "standard (limit)",
    "no-limit",
    "free discard",
    "call matches attack",
    "only Stay is quiet",
)  # palace.studies.STANDARD_VARIANTS, named here so the app starts without pandas

APP_CSS = """<style>
.palace-app { max-width: 1500px; }
.palace-app-header { display: flex; align-items: center; gap: 18px; border-radius: 18px;
  padding: 14px 24px; color: #fff; border-bottom: 5px solid #f2b705;
  background: radial-gradient(ellipse at 20% 0%, #1f7a4a 0%, #17603a 55%, #0f4429 100%);
  box-shadow: 0 3px 10px rgba(0,0,0,.2); }
.palace-app-logo { font-size: 46px; line-height: 1; color: #f2b705;
  text-shadow: 0 2px 3px rgba(0,0,0,.35); }
.palace-app-title { font-size: 31px; font-weight: 800; letter-spacing: .01em; color: #fff; }
.palace-app-tagline { font-size: 16.5px; color: #e5f3ea; }
.palace-app-bar { background: #f8fafc; border: 1px solid #e2e8f0; border-radius: 12px;
  padding: 4px 10px; }
.palace-app .widget-tab > .widget-tab-bar { min-height: 44px; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tab { flex: 0 1 170px; min-width: 120px;
  min-height: 44px; line-height: 42px; padding: 0 18px; font-size: 16.5px; font-weight: 650;
  text-align: center; color: #374151; background: #f1f5f9; border-radius: 10px 10px 0 0; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tab.lm-mod-current { color: #0f4429;
  background: #fff; border-top: 3px solid #f2b705; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tabLabel { line-height: 40px; }
.palace-app .widget-tab > .widget-tab-contents { padding: 14px 12px; }
.palace-app .widget-label, .palace-app .widget-inline-hbox .widget-label { font-size: 14.5px; }
.palace-app input, .palace-app select { font-size: 14.5px; }
.palace-app .widget-upload.jupyter-button { height: 34px; border-radius: 8px; font-size: 14.5px; }
.palace-app .palace-box > .widget-box, .palace-app .widget-tab-contents > .widget-box {
  max-width: calc(100% - 6px); }
.palace-box { background: #fff; border: 1px solid #e5e7eb; border-radius: 14px;
  padding: 10px 14px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.06); }
.palace-box-title { font-size: 17px; font-weight: 700; color: #111827; margin-bottom: 2px; }
.palace-alert { background: #fef2f2; color: #991b1b; border: 1px solid #fca5a5;
  border-left: 6px solid #b91c1c; border-radius: 10px; padding: 7px 12px; font-size: 15px; }
.palace-okay { background: #f0fdf4; color: #166534; border: 1px solid #bbf7d0;
  border-left: 6px solid #15803d; border-radius: 10px; padding: 7px 12px; font-size: 15px; }
.palace-download { display: inline-block; padding: 6px 14px; border-radius: 8px;
  background: #1d4ed8; color: #fff !important; font-weight: 650; text-decoration: none; }
.palace-download:hover { background: #1e40af; }
.palace-scenario-q { margin-top: 8px; padding: 8px 12px; border-radius: 10px;
  background: #eff6ff; border: 1px solid #bfdbfe; font-size: 16px; }
.palace-scenario-a { margin-top: 6px; padding: 8px 12px; border-radius: 10px;
  background: #f0fdf4; border: 1px solid #bbf7d0; font-size: 15.5px; }
.palace-df table { border-collapse: collapse; font-size: 14.5px; }
.palace-df th, .palace-df td { padding: 4px 12px; border-bottom: 1px solid #e5e7eb;
  text-align: right; }
.palace-df thead th { background: #f1f5f9; text-align: center; }
.palace-df tbody th { text-align: left; font-weight: 600; color: #374151; }
.palace-lessons { list-style: none; padding: 0; margin: 6px 0; display: grid; gap: 8px; }
.palace-lessons li { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px;
  padding: 8px 14px; }
.palace-lessons a { font-size: 17px; font-weight: 700; color: #1d4ed8; text-decoration: none; }
.palace-lessons a:hover { text-decoration: underline; }
.palace-lesson-file { color: #6b7280; font-size: 13px; margin-left: 8px; font-family:
  ui-monospace, Menlo, Consolas, monospace; }
.palace-lesson-about { color: #374151; font-size: 14.5px; margin-top: 2px; }
</style>"""


# ---------------------------------------------------------------------------- helpers
def _message(text: str, *, ok: bool) -> str:
    """An alert-styled (or green) line; empty text clears it."""
    if not text:
        return ""
    if ok:
        return root(f'<div class="palace-okay" role="status">✓ {esc(text)}</div>')
    return root(f'<div class="palace-alert" role="alert">✗ {esc(text)}</div>')


def _close_tree(widget: Widget) -> None:
    """Close a widget and its children (a replaced panel should not linger in the kernel)."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def _guard(method: Callable[..., Any]) -> Callable[..., Any]:
    """Widget callbacks: an unexpected error becomes an alert in the tab, not a dead app."""

    @wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the user, logged for the teacher
            log.exception("palace app: %s failed", method.__name__)
            self._say(f"Something went wrong ({type(exc).__name__}: {exc}).", ok=False)
            return None

    return wrapper


def _box(title: str, *children: Widget, **layout: Any) -> VBox:
    head = HTML(root(f'<div class="palace-box-title">{esc(title)}</div>')) if title else None
    kids = [head, *children] if head is not None else list(children)
    box = VBox(kids, layout=Layout(grid_gap="6px", **layout))
    box.add_class("palace-box")
    return box


def _row(*children: Widget, gap: str = "10px") -> HBox:
    return HBox(
        list(children), layout=Layout(flex_flow="row wrap", align_items="center", grid_gap=gap)
    )


_WIDE = {"description_width": "initial"}


# ---------------------------------------------------------------------------- saving / loading
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


# ---------------------------------------------------------------------------- the odds hook
def odds_advisor() -> Advisor | None:
    """The exact odds advisor (`palace.odds.battle_odds`), or None if it is not available.

    The Play tab passes it to each `ActionPicker` (``advisor(game, seat, target) -> str``):
    ``"win 62% · tie 1% · lose 37% against Bob"`` beside every legal attack.
    """
    try:
        from palace.odds import odds_advisor as advise
    except Exception:  # noqa: BLE001 - the advisor is optional
        return None
    return advise


# ---------------------------------------------------------------------------- play
class PlayTab(VBox):
    """Set up a hand (players, seed, variant, stakes, which seats are bots) and play it.

    Several seats may be human: they take turns at the same screen ("hot seat"); the
    action buttons always belong to the human whose decision it is.
    """

    def __init__(
        self,
        *,
        players: int = 4,
        seed: int = 7,
        advisor: Advisor | None = None,
        on_save: Callable[[Game], None] | None = None,
        on_game: Callable[[], None] | None = None,
        log_lines: int = 10,
    ) -> None:
        self._advisor = advisor
        self._on_save = on_save
        self.on_game = on_game  # called after a new hand is dealt or loaded
        self._log_lines = log_lines
        self._view_mode, self._view_seat = VIEW_PLAYERS, 0
        self.players = BoundedIntText(
            value=players, min=2, max=10, description="Players", layout=Layout(width="150px")
        )
        self.seed = IntText(value=seed, description="Seed", layout=Layout(width="170px"))
        self.variant = Dropdown(
            options=list(VARIANT_NAMES),
            value=VARIANT_NAMES[0],
            description="Variant",
            layout=Layout(width="290px"),
        )
        self.small_bet = BoundedIntText(
            value=2,
            min=1,
            max=10_000,
            description="Small bet s",
            style=_WIDE,
            layout=Layout(width="160px"),
        )
        self.big_bet = BoundedIntText(
            value=4,
            min=1,
            max=10_000,
            description="Big bet b",
            style=_WIDE,
            layout=Layout(width="150px"),
        )
        self.stacks = BoundedIntText(
            value=0,
            min=0,
            max=1_000_000,
            description="Chips each (0 = unlimited)",
            style=_WIDE,
            layout=Layout(width="280px"),
        )
        self.bots = [
            Checkbox(
                value=i != 0,
                description=f"{name} is a bot",
                indent=False,
                layout=Layout(width="135px"),
            )
            for i, name in enumerate(DEFAULT_NAMES)
        ]
        self.deal_button = Button(
            description="Deal", icon="play", button_style="primary", layout=Layout(width="120px")
        )
        self.next_button = Button(
            description="Next seed",
            icon="forward",
            tooltip="seed + 1, then deal",
            layout=Layout(width="130px"),
        )
        self.undo_button = Button(
            description="Undo",
            icon="undo",
            tooltip="take back the last human decision",
            layout=Layout(width="110px"),
        )
        self.save_button = Button(
            description="Save hand",
            icon="download",
            tooltip="make a download link for this hand",
            layout=Layout(width="140px"),
        )
        self.odds = Checkbox(
            value=advisor is not None,
            disabled=advisor is None,
            description="Show battle odds",
            indent=False,
            layout=Layout(width="170px"),
        )
        self.message = HTML()
        self.download = HTML()
        self._title = HTML()
        self._result = HTML()
        self.table = TableView()
        self._pickers_box = VBox(layout=Layout(flex="1 1 560px", min_width="480px"))
        self._log = HTML(layout=Layout(width="100%"))
        self._battle_title = HTML()
        self.battle = BattleView()
        self._battle_box = VBox([self._battle_title, self.battle])

        self.deal_button.on_click(self._on_deal)
        self.next_button.on_click(self._on_next)
        self.undo_button.on_click(self._on_undo)
        self.save_button.on_click(self._on_save_click)
        self.players.observe(self._on_players, names="value")
        self.odds.observe(self._on_odds, names="value")

        self._bot_row = _row(*self.bots, gap="2px 6px")
        setup = _box(
            "Set up a hand",
            _row(self.players, self.seed, self.variant),
            _row(self.small_bet, self.big_bet, self.stacks),
            HTML(
                root(
                    '<div class="palace-section">Computer players (untick a seat to play '
                    "it yourself; several humans take turns)</div>"
                )
            ),
            self._bot_row,
            _row(self.deal_button, self.next_button, self.undo_button, self.save_button, self.odds),
            self.download,
        )
        lower = HBox(
            [
                self._pickers_box,
                VBox([self._log], layout=Layout(flex="1 1 380px", min_width="320px")),
            ],
            layout=Layout(flex_flow="row wrap", grid_gap="14px", width="100%"),
        )
        super().__init__(
            [setup, self.message, self._title, self._result, self.table, lower, self._battle_box],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-play")
        self._ctl: PlayController | None = None
        self._pickers: dict[int, ActionPicker] = {}
        self._on_players({"new": players})
        self.deal()

    # ------------------------------------------------------------------ public
    @property
    def controller(self) -> PlayController:
        assert self._ctl is not None
        return self._ctl

    @property
    def game(self) -> Game:
        return self.controller.game

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(sorted(self.controller.humans))

    @property
    def pickers(self) -> dict[int, ActionPicker]:
        return dict(self._pickers)

    @property
    def picker(self) -> ActionPicker | None:
        """The action buttons shown now (the human whose decision it is), if any."""
        seat = self._picker_seat()
        return None if seat is None else self._pickers[seat]

    def rules(self) -> Rules:
        """The Rules of the setup: the chosen variant with the stakes fields (RulesError)."""
        if self.variant.value == VARIANT_NAMES[0]:
            base = Rules().to_dict()  # no pandas import (via palace.studies) for the default
        else:
            from palace.studies import STANDARD_VARIANTS

            base = STANDARD_VARIANTS[self.variant.value].to_dict()
        base.update(
            small_bet=self.small_bet.value,
            big_bet=self.big_bet.value,
            stacks=self.stacks.value or None,
        )
        return Rules.from_dict(base)

    def deal(self, seed: int | None = None) -> bool:
        """Deal a hand from the setup; False (with an alert) if the setup is refused."""
        if seed is not None:
            self.seed.value = seed
        n = self.players.value
        humans = [s for s in range(n) if not self.bots[s].value]
        try:
            game = Game.new(players=n, seed=self.seed.value, rules=self.rules())
        except PalaceError as exc:
            self._say(f"Cannot deal: {exc}", ok=False)
            return False
        self.start(game, humans)
        who = ", ".join(game.names[s] for s in humans) or "nobody (all bots)"
        self._say(f"Dealt seed {game.seed}: {n} players; human: {who}.", ok=True)
        return True

    def start(self, game: Game, humans: Sequence[int]) -> None:
        """Play `game` with these human seats (bots for the others) from where it stands."""
        old = list(self._pickers.values())
        ctl = PlayController(game, human=[s for s in humans if 0 <= s < game.players])
        self._ctl = ctl
        self._pickers = {
            s: ActionPicker(ctl, s, advisor=self._active_advisor()) for s in sorted(ctl.humans)
        }
        ctl.add_listener(self._on_change)
        self.download.value = ""
        self.redraw()
        for p in old:
            _close_tree(p)
        if self.on_game is not None:
            self.on_game()

    def set_view(self, mode: str, seat: int) -> None:
        """The instructor switch: players' view, one seat's view or all cards."""
        self._view_mode, self._view_seat = mode, seat
        self.redraw()

    def perspective(self) -> tuple[int | None, bool]:
        """(seat whose view the table shows, reveal all)."""
        g = self.game
        if self._view_mode == VIEW_ALL:
            return self._acting_human(), True
        if self._view_mode == VIEW_SEAT:
            return (self._view_seat if 0 <= self._view_seat < g.players else None), False
        return self._acting_human(), False

    def save(self) -> str:
        """Refresh the download link for the current hand; returns the JSON saved."""
        g = self.game
        self.download.value = root(download_link(g))
        if self._on_save is not None:
            self._on_save(g.replay())
        return hand_json(g)

    def undo(self) -> bool:
        try:
            self.controller.undo()
        except PalaceError as exc:
            self._say(str(exc), ok=False)
            return False
        self._say("The last human decision was taken back.", ok=True)
        return True

    # ------------------------------------------------------------------ callbacks
    @_guard
    def _on_deal(self, _: Button) -> None:
        self.deal()

    @_guard
    def _on_next(self, _: Button) -> None:
        self.deal(self.seed.value + 1)

    @_guard
    def _on_undo(self, _: Button) -> None:
        self.undo()

    @_guard
    def _on_save_click(self, _: Button) -> None:
        self.save()
        self._say(f"Saved: download {download_name(self.game)} below the buttons.", ok=True)

    def _on_players(self, change: dict) -> None:
        n = change["new"]
        for i, box in enumerate(self.bots):
            box.layout.display = None if i < n else "none"

    @_guard
    def _on_odds(self, change: dict) -> None:
        for p in self._pickers.values():
            p.advisor = self._active_advisor()

    @_guard
    def _on_change(self, events: list[Event]) -> None:
        if events:
            self._say("", ok=True)
        self.download.value = ""  # a saved link would be stale
        self.redraw()

    # ------------------------------------------------------------------ drawing
    def _active_advisor(self) -> Advisor | None:
        return self._advisor if self.odds.value else None

    def _say(self, text: str, *, ok: bool) -> None:
        self.message.value = _message(text, ok=ok)

    def _acting_human(self) -> int | None:
        """The human whose decision it is, else the last human who acted, else the first."""
        ctl = self.controller
        g = ctl.game
        if not ctl.humans:
            return None
        if g.to_act in ctl.humans:
            return g.to_act
        for s in reversed(ctl.actors):
            if s in ctl.humans:
                return s
        return min(ctl.humans)

    def _picker_seat(self) -> int | None:
        return self._acting_human()

    def _log_pairs(self, seat: int | None, reveal: bool) -> list[tuple[Event, str]]:
        g = self.game
        if reveal:
            pairs = [(e, e.text) for e in g.events]
        elif seat is None:
            pairs = [
                (e, str(e.detail.get("public_text", e.text)))
                if e.detail.get("seen_by") is not None
                else (e, e.text)
                for e in g.events
            ]
        else:
            pairs = list(zip(g.events, g.view(seat).history, strict=False))
        return pairs[-self._log_lines :]

    def redraw(self) -> None:
        """Draw the table, the buttons of the human to act, the log, battle and result."""
        ctl = self.controller
        g = ctl.game
        seat, reveal = self.perspective()
        humans = sorted(ctl.humans)
        bots = [g.names[s] for s in range(g.players) if s not in ctl.humans]
        parts = [f"seed {g.seed}", f"{g.players} players", f"{g.rules.label()} rules"]
        if humans:
            parts.append("human: " + ", ".join(g.names[s] for s in humans))
        if bots:
            parts.append("bots: " + ", ".join(bots))
        self._title.value = root(
            '<span class="palace-title">The hand</span> '
            f'<span class="palace-subtitle">{esc(" · ".join(parts))}</span>'
        )
        self.table.show(g, perspective=seat, reveal_all=reveal)
        ps = self._picker_seat()
        if ps is None:
            note = HTML(
                root(
                    '<div class="palace-prompt">Every seat is a bot: the computer played the hand '
                    "out. Untick a seat above to play it yourself.</div>"
                )
            )
            self._pickers_box.children = [note]
        else:
            self._pickers_box.children = [self._pickers[ps]]
        self.undo_button.disabled = not any(s in ctl.humans for s in ctl.actors)
        rows = [
            f'<div class="palace-log-line"><span class="palace-log-num">#{ev.index}</span>'
            f"{rule_badge(ev.rule)}<span>{esc(text)}</span></div>"
            for ev, text in self._log_pairs(seat, reveal)
        ]
        self._log.value = root(
            '<div class="palace-section">Latest events</div>'
            f'<div class="palace-log" aria-live="polite">{"".join(rows)}</div>'
        )
        battle = None
        for ev in reversed(g.events):
            if ev.kind == "battle" and "battle" in ev.detail and battle_visible(ev, seat, reveal):
                battle = ev
                break
        if battle is None:
            self._battle_box.layout.display = "none"
        else:
            self.battle.show_event(battle, g.names)
            self._battle_title.value = root(
                f'<div class="palace-section">Latest battle (event #{battle.index})</div>'
            )
            self._battle_box.layout.display = None
        if g.is_over and g.result is not None:
            r = g.result
            shares = ", ".join(f"{g.names[s]} +{v}" for s, v in r.shares.items())
            self._result.value = root(
                '<div class="palace-result" role="status">'
                '<span class="palace-trophy" aria-hidden="true">★</span>'
                f"{esc(r.text)} {rule_badge(r.rule)}"
                f'<div class="palace-verdict-line">Shares: {esc(shares)}. Press <b>Deal</b> '
                "or <b>Next seed</b> to play again, or <b>Save hand</b> to keep it.</div></div>"
            )
        else:
            self._result.value = ""

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """What the tab shows, in plain text."""
        g = self.game
        seat, reveal = self.perspective()
        parts = ["== Table ==", self.table.text()]
        p = self.picker
        parts += ["== Actions ==", p.text() if p is not None else "Every seat is a bot."]
        parts.append("== Latest events ==")
        parts += [f"#{ev.index} {text} ({ev.rule})" for ev, text in self._log_pairs(seat, reveal)]
        if self._battle_box.layout.display != "none":
            parts += ["== Latest battle ==", self.battle.text()]
        if g.is_over and g.result is not None:
            parts += ["== Result ==", f"{g.result.text} ({g.result.rule})"]
        return "\n".join(parts)


# ---------------------------------------------------------------------------- replay
@dataclass
class _Entry:
    label: str
    loaded: Loaded | None = None
    path: Path | None = None  # a scenario file, loaded on first use


class ReplayTab(VBox):
    """Step through a scenario, a saved hand or an uploaded file, event by event."""

    def __init__(
        self,
        scenario_dir: str | Path = SCENARIO_DIR,
        *,
        on_play_on: Callable[[Game], None] | None = None,
        on_game: Callable[[], None] | None = None,
    ) -> None:
        self._on_play_on = on_play_on
        self.on_game = on_game  # called after another hand is shown
        self._view: tuple[int | None, bool] = (None, False)
        self._entries: dict[str, _Entry] = {}
        self._counter = 0
        self._syncing = False
        problems: list[str] = []
        folder = Path(scenario_dir)
        for i, path in enumerate(sorted(folder.glob("*.json")), start=1):
            try:
                sc = load_scenario(path)
            except ScenarioError as exc:
                problems.append(str(exc))
                continue
            self._entries[f"scenario:{path.name}"] = _Entry(f"{i:02d} · {sc.title}", path=path)

        self.choice = Dropdown(
            options=self._options(),
            description="Hand",
            layout=Layout(width="min(720px, 100%)"),
        )
        self.name_box = Text(
            placeholder="scenarios/01-quiet-round-showdown.json",
            description="Open from data/",
            style=_WIDE,
            continuous_update=False,
            layout=Layout(width="480px"),
        )
        self.open_button = Button(
            description="Open", icon="folder-open", layout=Layout(width="100px")
        )
        self.upload = FileUpload(
            accept=".json,application/json",
            multiple=False,
            description="Upload .json",
            icon="upload",
            layout=Layout(width="300px"),
        )
        self.message = HTML()
        self.info = HTML()
        self.answer_toggle = ToggleButton(
            value=False, description="Show the answer", icon="eye", layout=Layout(width="170px")
        )
        self.answer = HTML()
        self.save_button = Button(
            description="Save hand", icon="download", layout=Layout(width="140px")
        )
        self.play_on_button = Button(
            description="Play on in the Play tab",
            icon="play",
            tooltip="continue this hand from its last event in the Play tab",
            layout=Layout(width="220px"),
        )
        self.download = HTML()
        self._stepper_box = VBox(layout=Layout(width="100%"))
        self.stepper: DealStepper | None = None
        self.current: Loaded | None = None
        self._current_key: str | None = None

        self.choice.observe(self._on_choice, names="value")
        self.open_button.on_click(self._on_open)
        self.upload.observe(self._on_upload, names="value")
        self.answer_toggle.observe(self._on_answer, names="value")
        self.save_button.on_click(self._on_save)
        self.play_on_button.on_click(self._on_play_on_click)

        picker = _box(
            "Choose a hand to replay",
            _row(self.choice),
            _row(self.name_box, self.open_button, self.upload),
            HTML(
                root(
                    '<div class="palace-note">Scenarios come from <code>data/scenarios/'
                    "</code>; saved hands from <b>Save hand</b> in Play or Replay appear in "
                    "the list too. Uploads: a saved hand (<code>palace-hand/1</code>) or a "
                    "scenario (<code>palace-scenario/1</code>), at most 1 MB.</div>"
                )
            ),
        )
        about = _box("", self.info, _row(self.answer_toggle), self.answer)
        tools = _row(self.save_button, self.play_on_button, self.download)
        super().__init__(
            [picker, self.message, about, self._stepper_box, tools],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-replay")
        if problems:
            self._say("Some scenario files were skipped: " + " | ".join(problems), ok=False)
        if self._entries:
            self.select(next(iter(self._entries)))
        else:
            self.info.value = root('<div class="palace-note">No scenarios found.</div>')

    # ------------------------------------------------------------------ public
    @property
    def game(self) -> Game | None:
        return None if self.current is None else self.current.game

    @property
    def entry_keys(self) -> list[str]:
        return list(self._entries)

    def select(self, key: str) -> bool:
        """Show the entry `key` (a scenario file, saved hand or upload)."""
        if key not in self._entries:
            raise KeyError(key)
        if self.choice.value != key:
            self.choice.value = key  # the observer shows it
            return self._current_key == key
        return self._show(key)

    def add(self, loaded: Loaded, label: str, *, select: bool = True) -> str:
        """Add a loaded hand to the list (and show it)."""
        self._counter += 1
        key = f"{loaded.kind}:{self._counter}"
        self._entries[key] = _Entry(label, loaded=loaded)
        self._syncing = True  # new options reset a Dropdown's value: put it back
        try:
            self.choice.options = self._options()
            if self._current_key is not None:
                self.choice.value = self._current_key
        finally:
            self._syncing = False
        if select:
            self.select(key)
        return key

    def add_saved(self, game: Game) -> str:
        over = "over" if game.is_over else f"{len(game.actions)} actions"
        loaded = Loaded(
            "hand",
            f"Saved hand · seed {game.seed} · {', '.join(game.names)}",
            game,
            None,
            download_name(game),
        )
        return self.add(
            loaded, f"Saved · seed {game.seed} · {game.players} players · {over}", select=False
        )

    def load_bytes(self, data: bytes | str, name: str) -> bool:
        """Load an upload; a bad file leaves the current replay as it is (alert shown)."""
        try:
            loaded = load_hand_or_scenario(data, source=name)
        except LoadError as exc:
            self._refuse(str(exc))
            return False
        kind = "scenario" if loaded.kind == "scenario" else "hand"
        self.add(loaded, f"Uploaded · {name} · {loaded.title}")
        self._say(f"Loaded {name}: {kind} “{loaded.title}”.", ok=True)
        return True

    def open_name(self, name: str) -> bool:
        """Open a file by name from data/ only (no absolute paths, no '..')."""
        try:
            loaded = load_data_file(name.strip())
        except LoadError as exc:
            self._refuse(str(exc))
            return False
        self.add(loaded, f"data/{name.strip()} · {loaded.title}")
        self._say(f"Opened data/{name.strip()}.", ok=True)
        return True

    def set_view(self, seat: int | None, reveal: bool) -> None:
        self._view = (seat, reveal)
        if self.stepper is not None:
            self._apply_view(self.stepper)

    def save(self) -> str | None:
        g = self.game
        if g is None:
            return None
        self.download.value = root(download_link(g))
        return hand_json(g)

    # ------------------------------------------------------------------ internals
    def _options(self) -> list[tuple[str, str]]:
        return [(e.label, k) for k, e in self._entries.items()]

    def _say(self, text: str, *, ok: bool) -> None:
        self.message.value = _message(text, ok=ok)

    def _refuse(self, problem: str) -> None:
        kept = ""
        if self.current is not None:
            kept = f" The replay of “{self.current.title}” stays loaded."
        self._say(f"Not loaded: {problem}.{kept}", ok=False)

    def _loaded(self, key: str) -> Loaded:
        e = self._entries[key]
        if e.loaded is None:
            assert e.path is not None
            sc = load_scenario(e.path)
            e.loaded = Loaded("scenario", sc.title, sc.game(), sc, f"scenarios/{e.path.name}")
        return e.loaded

    def _apply_view(self, stepper: DealStepper) -> None:
        seat, reveal = self._view
        g = stepper._game  # noqa: SLF001 - the stepper's own game
        stepper.perspective = seat if seat is not None and 0 <= seat < g.players else None
        stepper.reveal_all = reveal

    def _show(self, key: str) -> bool:
        try:
            loaded = self._loaded(key)
        except PalaceError as exc:
            self._refuse(str(exc))
            if self._current_key is not None and self.choice.value != self._current_key:
                self.choice.value = self._current_key
            return False
        seat, reveal = self._view
        g = loaded.game
        stepper = DealStepper(
            g,
            perspective=seat if seat is not None and 0 <= seat < g.players else None,
            reveal_all=reveal,
        )
        old = self.stepper
        self.stepper = stepper
        self._stepper_box.children = [stepper]
        if old is not None:
            _close_tree(old)
        self.current = loaded
        self._current_key = key
        self.download.value = ""
        self.answer_toggle.value = False
        self._draw_info()
        self.play_on_button.disabled = g.is_over
        self.play_on_button.tooltip = (
            "the hand is over" if g.is_over else "continue this hand in the Play tab"
        )
        if self.on_game is not None:
            self.on_game()
        return True

    def _draw_info(self) -> None:
        loaded = self.current
        assert loaded is not None
        g = loaded.game
        sc = loaded.scenario
        facts = (
            f"{g.players} players ({', '.join(g.names)}) · seed {g.seed} · "
            f"{g.rules.label()} rules · {len(g.actions)} actions · {len(g.events)} events"
        )
        if sc is not None:
            badges = " ".join(rule_badge(r) for r in sc.rules)
            html = (
                f'<div class="palace-box-title">{esc(sc.title)} {badges}</div>'
                f'<div class="palace-note">{esc(facts)} · file {esc(loaded.source)}</div>'
                f'<div style="margin-top:6px;font-size:15.5px">{esc(sc.summary)}</div>'
            )
            if sc.question:
                html += f'<div class="palace-scenario-q"><b>Question.</b> {esc(sc.question)}</div>'
            self.answer_toggle.layout.display = None if sc.question else "none"
            self.answer.value = (
                root(f'<div class="palace-scenario-a"><b>Answer.</b> {esc(sc.answer)}</div>')
                if sc.answer
                else ""
            )
        else:
            result = f" · {g.result.text}" if g.is_over and g.result is not None else ""
            html = (
                f'<div class="palace-box-title">{esc(loaded.title)}</div>'
                f'<div class="palace-note">{esc(facts)}{esc(result)} · from '
                f"{esc(loaded.source)}</div>"
            )
            self.answer_toggle.layout.display = "none"
            self.answer.value = ""
        self.info.value = root(html)
        self.answer.layout.display = "none"

    # ------------------------------------------------------------------ callbacks
    @_guard
    def _on_choice(self, change: dict) -> None:
        if self._syncing:
            return
        if change["new"] is not None and change["new"] != self._current_key:
            if self._show(change["new"]):
                self._say("", ok=True)

    @_guard
    def _on_open(self, _: Button) -> None:
        if self.name_box.value.strip():
            self.open_name(self.name_box.value)
        else:
            self._say(
                "Type a file name inside data/, such as scenarios/01-quiet-round-showdown.json.",
                ok=False,
            )

    @_guard
    def _on_upload(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        name = str(item.get("name") or "upload.json")
        content = item.get("content", b"")
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        self.upload.value = ()  # free the bytes; the next upload is a new change
        self.load_bytes(data, name)

    def _on_answer(self, change: dict) -> None:
        self.answer.layout.display = None if change["new"] else "none"
        self.answer_toggle.description = "Hide the answer" if change["new"] else "Show the answer"

    @_guard
    def _on_save(self, _: Button) -> None:
        if self.save() is not None:
            self._say(f"Saved: download {download_name(self.game)} below.", ok=True)

    @_guard
    def _on_play_on_click(self, _: Button) -> None:
        if self.game is not None and self._on_play_on is not None and not self.game.is_over:
            self._on_play_on(self.game.replay())

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        if self.current is None:
            return "No hand loaded."
        lines = [f"Replay: {self.current.title} ({self.current.source})"]
        sc = self.current.scenario
        if sc is not None:
            lines.append(f"Summary: {sc.summary}")
            if sc.question:
                lines.append(f"Question: {sc.question}")
                if self.answer_toggle.value:
                    lines.append(f"Answer: {sc.answer}")
        if self.stepper is not None:
            lines.append(self.stepper.text())
        return "\n".join(lines)


# ---------------------------------------------------------------------------- battle lab
class BattleLab(VBox):
    """The exclusion explorer, and a battle between two armies typed by the instructor."""

    DEFAULTS = (("Ann", "Kh", "Qs Js Ts", "9s 2c 3d"), ("Bob", "As", "Ac", "5d 6d 8c"))

    def __init__(self) -> None:
        self.explorer = ExclusionExplorer()
        self.sides: list[dict[str, Text]] = []
        columns = []
        for role, (name, banner, soldiers, palace) in zip(
            ("Attacker", "Defender"), self.DEFAULTS, strict=True
        ):
            fields = {
                "name": Text(value=name, description="Name"),
                "banner": Text(value=banner, description="Banner", placeholder="one card, e.g. Kh"),
                "soldiers": Text(
                    value=soldiers, description="Soldiers", placeholder="0-5 cards, e.g. Qs Js"
                ),
                "palace": Text(
                    value=palace, description="Palace", placeholder="up to 3 cards, e.g. 9s 2c 3d"
                ),
            }
            for w in fields.values():
                w.continuous_update = False
                w.layout = Layout(width="340px")
                w.observe(self._on_input, names="value")
            self.sides.append(fields)
            columns.append(
                VBox([HTML(root(f'<div class="palace-section">{role}</div>')), *fields.values()])
            )
        self.show_button = Button(
            description="Show down",
            icon="bolt",
            button_style="danger",
            layout=Layout(width="140px"),
        )
        self.show_button.on_click(self._on_show)
        self.error = HTML()
        self.battle = BattleView()
        self._message = ""
        intro = HTML(
            root(
                '<div class="palace-note">Type cards as rank + suit: <code>As Kd 7h Tc</code> '
                "(T = ten). Each side's hand is its banner, soldiers and palace (R8.1); the "
                "opponent's banner suit does not count (R8.2).</div>"
            )
        )
        builder = _box(
            "Battle builder",
            intro,
            HBox(columns, layout=Layout(flex_flow="row wrap", grid_gap="24px")),
            _row(self.show_button),
            self.error,
            self.battle,
        )
        super().__init__(
            [_box("Exclusion explorer (R8.2)", self.explorer), builder],
            layout=Layout(width="100%", grid_gap="12px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-battle")
        self.update()

    @property
    def message(self) -> str:
        """The last validation problem ("" when both armies are fine)."""
        return self._message

    def armies(self) -> tuple[Army, Army, tuple[str, str]]:
        """Both armies from the inputs; `CardError` names the side and the problem."""
        armies, names, seen = [], [], {}
        for role, f in zip(("attacker", "defender"), self.sides, strict=True):
            name = f["name"].value.strip() or role.capitalize()
            names.append(name)
            try:
                banner = parse_cards(f["banner"].value)
                soldiers = parse_cards(f["soldiers"].value)
                palace = parse_cards(f["palace"].value)
            except CardError as exc:
                raise CardError(f"{name} ({role}): {exc}") from None
            if len(banner) != 1:
                raise CardError(
                    f"{name} ({role}): the banner is exactly one card (R4), got {len(banner)}"
                )
            if len(soldiers) > 5:
                raise CardError(
                    f"{name} ({role}): at most five soldiers (R6.7), got {len(soldiers)}"
                )
            if len(palace) > 3:
                raise CardError(
                    f"{name} ({role}): a palace has three cards (R5.1), got {len(palace)}"
                )
            for c in (*banner, *soldiers, *palace):
                if c in seen:
                    raise CardError(
                        f"{c} appears twice ({seen[c]} and {name}): a deck has each "
                        "card once (R1.2)"
                    )
                seen[c] = name
            armies.append(Army(banner[0], soldiers, palace))
        if armies[0].suit == armies[1].suit:
            raise CardError(
                f"both banners are {armies[0].suit.noun}: players of the same banner suit "
                "never battle (R7.2)"
            )
        return armies[0], armies[1], (names[0], names[1])

    def update(self) -> bool:
        try:
            att, dfn, names = self.armies()
        except CardError as exc:
            self._message = str(exc)
            self.error.value = _message(f"{exc} — showing the last good battle.", ok=False)
            return False
        self._message = ""
        self.error.value = ""
        self.battle.show_result(att, dfn, names)
        return True

    def _say(self, text: str, *, ok: bool) -> None:
        self.error.value = _message(text, ok=ok)

    @_guard
    def _on_input(self, _: dict) -> None:
        self.update()

    @_guard
    def _on_show(self, _: Button) -> None:
        self.update()

    def text(self) -> str:
        lines = [
            "== Exclusion explorer ==",
            self.explorer.text(),
            "== Battle ==",
            self.battle.text(),
        ]
        if self._message:
            lines.append(f"Error: {self._message}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------- explore
def format_table(df: Any) -> Any:
    """Counts as whole numbers, averages and percentages with two decimals."""
    out = df.astype(object)
    for row in df.index:
        whole = row == "hands"
        out.loc[row] = [f"{v:,.0f}" if whole else f"{v:,.2f}" for v in df.loc[row]]
    return out


class ExploreTab(VBox):
    """Rule-variant comparisons: the same seeded bot hands under each chosen variant."""

    def __init__(self, *, hands: int = 200) -> None:
        self.variant_boxes = {
            name: Checkbox(value=True, description=name, indent=False, layout=Layout(width="260px"))
            for name in VARIANT_NAMES
        }
        self.hands = BoundedIntText(
            value=hands,
            min=10,
            max=20_000,
            step=50,
            description="Hands each",
            style=_WIDE,
            layout=Layout(width="190px"),
        )
        self.players = BoundedIntText(
            value=4, min=2, max=10, description="Players", layout=Layout(width="150px")
        )
        self.seed = IntText(value=2026, description="Seed", layout=Layout(width="170px"))
        self.bot = Dropdown(
            options=[
                ("mixed (rule + random bots)", "mixed"),
                ("rule bots", "rules"),
                ("random bots", "random"),
            ],
            value="mixed",
            description="Bots",
            layout=Layout(width="290px"),
        )
        self.run_button = Button(
            description="Run", icon="play", button_style="primary", layout=Layout(width="120px")
        )
        self.progress = IntProgress(
            value=0,
            min=0,
            max=1,
            description="Progress",
            bar_style="info",
            layout=Layout(width="340px"),
        )
        self.status = HTML()
        self.table = HTML()
        self.chart = HTML()
        self.run_button.on_click(self._on_run)
        self.result = None  # the last pandas DataFrame
        note = HTML(
            root(
                '<div class="palace-note">Each variant plays the <b>same</b> seeded hands with the '
                "same bots, so differences come from the rules. The chart shows each variant as "
                "a change from the first one ticked. 200 hands take a few seconds.</div>"
            )
        )
        form = _box(
            "Compare rule variants",
            note,
            HBox(
                [
                    VBox(
                        [
                            HTML(root('<div class="palace-section">Variants</div>')),
                            *self.variant_boxes.values(),
                        ]
                    ),
                    VBox(
                        [
                            self.hands,
                            self.players,
                            self.seed,
                            self.bot,
                            _row(self.run_button, self.progress),
                        ]
                    ),
                ],
                layout=Layout(flex_flow="row wrap", grid_gap="20px"),
            ),
            self.status,
        )
        super().__init__(
            [form, self.table, self.chart], layout=Layout(width="100%", grid_gap="12px")
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-explore")

    @property
    def selected(self) -> list[str]:
        """The ticked variants, in `VARIANT_NAMES` order (the first is the chart's baseline)."""
        return [n for n, box in self.variant_boxes.items() if box.value]

    @selected.setter
    def selected(self, names: Sequence[str]) -> None:
        unknown = set(names) - set(VARIANT_NAMES)
        if unknown:
            raise ValueError(f"unknown variants: {sorted(unknown)}")
        for n, box in self.variant_boxes.items():
            box.value = n in names

    def _say(self, text: str, *, ok: bool) -> None:
        self.status.value = _message(text, ok=ok)

    def run(self) -> bool:
        """Play the hands for each chosen variant; show the table and the chart."""
        from palace.studies import STANDARD_VARIANTS, compare_variants

        names = self.selected
        if not names:
            self._say("Pick at least one variant.", ok=False)
            return False
        self.run_button.disabled = True
        self.progress.max = len(names)
        self.progress.value = 0
        self.progress.bar_style = "info"
        frames = []
        try:
            for i, name in enumerate(names):
                self._say(
                    f"Playing {self.hands.value} hands: variant {i + 1} of {len(names)} ({name})…",
                    ok=True,
                )
                frames.append(
                    compare_variants(
                        {name: STANDARD_VARIANTS[name]},
                        hands=self.hands.value,
                        players=self.players.value,
                        seed=self.seed.value,
                        bot=self.bot.value,
                        progress=False,
                    )
                )
                self.progress.value = i + 1
        finally:
            self.run_button.disabled = False
        import pandas as pd

        df = pd.concat(frames, axis=1)
        self.result = df
        self.progress.bar_style = "success"
        table = format_table(df).to_html(classes="palace-df-table", border=0)
        self.table.value = root(
            '<div class="palace-section">Averages per hand, same seeded hands under each '
            f"variant ({self.hands.value} hands, {self.players.value} players, seed "
            f"{self.seed.value}, {esc(self.bot.value)} bots)</div>"
            f'<div class="palace-df" style="overflow-x:auto">{table}</div>'
        )
        if len(names) >= 2:
            from palace.charts import variants_chart

            fig = variants_chart(df)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
            b64 = base64.b64encode(buf.getvalue()).decode("ascii")
            self.chart.value = root(
                f'<img alt="bar chart: each variant as a % change from {esc(names[0])}" '
                f'src="data:image/png;base64,{b64}" style="max-width:100%;height:auto">'
            )
        else:
            self.chart.value = root(
                '<div class="palace-note">Pick two or more variants to see '
                "the chart of changes from the first.</div>"
            )
        self._say(f"Done: {self.hands.value} hands × {len(names)} variants.", ok=True)
        return True

    @_guard
    def _on_run(self, _: Button) -> None:
        self.run()

    def text(self) -> str:
        if self.result is None:
            return "No comparison run yet."
        return self.result.to_string()


# ---------------------------------------------------------------------------- lessons
@dataclass(frozen=True)
class Lesson:
    file: str
    title: str
    about: str


_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"(\*\*|__|\*|`)")


def _plain(markdown: str) -> str:
    """Markdown prose as plain text: links keep their words, emphasis and code marks go."""
    text = _MD_LINK.sub(r"\1", markdown)
    text = _MD_MARKS.sub("", text)
    return " ".join(text.lstrip("> ").split())


def _notebook_title(path: Path, limit: int = 170) -> tuple[str, str]:
    """A notebook's first heading and the first paragraph after it (plain text)."""
    fallback = path.stem.replace("_", " ").strip()
    try:
        if path.stat().st_size > 20 * MAX_BYTES:
            return fallback, ""
        nb = json.loads(path.read_text("utf-8"))
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "markdown":
                continue
            src = cell.get("source", "")
            text = src if isinstance(src, str) else "".join(src)
            lines = text.splitlines()
            heading = next((i for i, ln in enumerate(lines) if ln.startswith("#")), None)
            if heading is None:
                continue
            title = _plain(lines[heading].lstrip("#")) or fallback
            rest = "\n".join(lines[heading + 1 :])
            paragraphs = [p.strip() for p in re.split(r"\n\s*\n", rest) if p.strip()]
            about = ""
            for p in paragraphs:
                if not p.startswith(("#", "|", "```", "<", "!", "$")):
                    about = _plain(p)
                    break
            if len(about) > limit:
                about = about[: limit - 1].rsplit(" ", 1)[0] + "…"
            elif about.endswith(":"):
                about = about[:-1] + "…"  # the list or table it introduces is in the lesson
            return title, about
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    return fallback, ""


def lesson_notebooks(folder: str | Path = LESSON_DIR) -> list[Lesson]:
    """Every ``*.ipynb`` in `folder` except the app, in file-name order, with its title."""
    root_ = Path(folder)
    if not root_.is_dir():
        return []
    out = []
    for p in sorted(root_.glob("*.ipynb")):
        if p.name == APP_NOTEBOOK:
            continue
        title, about = _notebook_title(p)
        out.append(Lesson(p.name, title, about))
    return out


class LessonsTab(VBox):
    """Links that open each lesson notebook rendered by Voilà, in a new browser tab.

    With ``make app`` Voilà serves the notebooks folder: the app is
    ``/voila/render/app.ipynb`` and a lesson ``/voila/render/NAME.ipynb``, so a link
    relative to the app's page, ``./NAME.ipynb``, opens it. (``../render/NAME.ipynb`` reaches
    the same page there, but not when Voilà runs inside Jupyter Server, on JupyterHub or
    Binder, where the app is ``.../voila/render/notebooks/app.ipynb``: the sibling link
    works in both.)
    """

    def __init__(self, folder: str | Path = LESSON_DIR) -> None:
        self.folder = Path(folder)
        self.html = HTML(layout=Layout(width="100%"))
        self.refresh_button = Button(
            description="Refresh list", icon="refresh", layout=Layout(width="140px")
        )
        self.refresh_button.on_click(self._on_refresh)
        super().__init__(
            [self.html, self.refresh_button], layout=Layout(width="100%", grid_gap="8px")
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-lessons")
        self.lessons: list[Lesson] = []
        self.refresh()

    @staticmethod
    def href(name: str) -> str:
        return f"./{name}"

    def refresh(self) -> None:
        self.lessons = lesson_notebooks(self.folder)
        script = os.environ.get("SCRIPT_NAME", "")
        single = bool(script) and not script.endswith(".ipynb")
        warn = ""
        if single:
            warn = _message(
                "This server shows only the app notebook, so lesson links cannot open: serve "
                "the notebooks folder instead (make app, or voila notebooks/).",
                ok=False,
            )
        if not self.lessons:
            self.html.value = warn + root(
                '<div class="palace-note">No lesson notebooks yet in '
                f"<code>{esc(self.folder.name)}/</code>.</div>"
            )
            return
        items = []
        for lesson in self.lessons:
            about = (
                f'<div class="palace-lesson-about">{esc(lesson.about)}</div>'
                if lesson.about
                else ""
            )
            items.append(
                f'<li><a href="{esc(self.href(lesson.file))}" target="_blank" rel="noopener">'
                f"{esc(lesson.title)}</a>"
                f'<span class="palace-lesson-file">{esc(lesson.file)}</span>{about}</li>'
            )
        self.html.value = warn + root(
            '<div class="palace-box-title">Lessons</div>'
            '<div class="palace-note">Each link opens the lesson, run by Voilà, in a new '
            "browser tab (with its own kernel, so it starts fresh).</div>"
            f'<ul class="palace-lessons">{"".join(items)}</ul>'
        )

    @_guard
    def _on_refresh(self, _: Button) -> None:
        self.refresh()

    def _say(self, text: str, *, ok: bool) -> None:
        self.html.value = _message(text, ok=ok) + self.html.value

    def text(self) -> str:
        return "\n".join(f"{lesson.title} -> {self.href(lesson.file)}" for lesson in self.lessons)


# ---------------------------------------------------------------------------- the app
class PalaceApp(VBox):
    """The Palace app: a header, the instructor's card switch and five tabs.

    >>> app = PalaceApp()
    >>> app
    PalaceApp(tabs=Play, Replay, Battle lab, Explore, Lessons)

    advisor: ``advisor(game, seat, target) -> str`` shown beside each legal attack in
    Play; "auto" uses `palace.odds` when it is available, None shows no odds.
    """

    def __init__(
        self,
        *,
        players: int = 4,
        seed: int = 7,
        advisor: Advisor | None | str = "auto",
        scenario_dir: str | Path = SCENARIO_DIR,
        lessons_dir: str | Path = LESSON_DIR,
        explore_hands: int = 200,
    ) -> None:
        adv = odds_advisor() if advisor == "auto" else advisor
        self._css = style_widget()
        self._app_css = HTML(value=APP_CSS, layout=Layout(display="none"))
        self.header = HTML(
            root(
                '<div class="palace-app-header"><div class="palace-app-logo" aria-hidden="true">♜'
                '</div><div><div class="palace-app-title">Palace Poker</div>'
                '<div class="palace-app-tagline">Deal, play and replay hands, test battles and '
                "compare rule variants — every step names its rule in RULES.md.</div></div></div>"
            )
        )
        self.view_mode = ToggleButtons(
            options=[
                ("Players' view", VIEW_PLAYERS),
                ("One seat", VIEW_SEAT),
                ("All cards", VIEW_ALL),
            ],
            value=VIEW_PLAYERS,
            tooltips=[
                "Play: the human whose turn it is · Replay: public cards only",
                "only what the chosen seat may see",
                "instructor: every hidden card face up",
            ],
            style={"button_width": "128px"},
        )
        self.view_seat = Dropdown(
            options=[(f"{n} (seat {i})", i) for i, n in enumerate(DEFAULT_NAMES[:players])],
            value=0,
            description="Seat",
            disabled=True,
            layout=Layout(width="200px"),
        )
        bar = HBox(
            [
                HTML(root('<span class="palace-section">Cards shown</span>')),
                self.view_mode,
                self.view_seat,
                HTML(
                    root('<span class="palace-note">applies to the Play and Replay tables</span>')
                ),
            ],
            layout=Layout(flex_flow="row wrap", align_items="center", grid_gap="12px"),
        )
        bar.add_class("palace-app-bar")

        self.play = PlayTab(players=players, seed=seed, advisor=adv, on_save=self._saved)
        self.replay = ReplayTab(scenario_dir, on_play_on=self._play_on)
        self.battle_lab = BattleLab()
        self.explore = ExploreTab(hands=explore_hands)
        self.lessons = LessonsTab(lessons_dir)
        self.tabs = Tab(
            children=[self.play, self.replay, self.battle_lab, self.explore, self.lessons],
            titles=list(TAB_TITLES),
        )
        self.tabs.selected_index = 0
        self.view_mode.observe(self._on_view, names="value")
        self.view_seat.observe(self._on_view, names="value")
        self.tabs.observe(self._on_tab, names="selected_index")
        super().__init__(
            [self._css, self._app_css, self.header, bar, self.tabs],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app")
        self._syncing = False
        self.play.on_game = self._on_game
        self.replay.on_game = self._on_game
        self._apply_view()

    def __repr__(self) -> str:
        return f"PalaceApp(tabs={', '.join(TAB_TITLES)})"

    # ------------------------------------------------------------------ public
    def select(self, title: str) -> None:
        """Show a tab by its title."""
        self.tabs.selected_index = TAB_TITLES.index(title)

    def set_view(self, mode: str, seat: int = 0) -> None:
        """The instructor switch from code: "players", "seat" (with `seat`) or "all"."""
        self._seat_options()
        if seat in [v for _, v in self.view_seat.options]:
            self.view_seat.value = seat
        self.view_mode.value = mode

    def text(self) -> str:
        """The selected tab in plain text."""
        tab = self.tabs.children[self.tabs.selected_index or 0]
        return f"[{TAB_TITLES[self.tabs.selected_index or 0]}]\n{tab.text()}"

    # ------------------------------------------------------------------ wiring
    def _saved(self, game: Game) -> None:
        self.replay.add_saved(game)

    def _play_on(self, game: Game) -> None:
        humans = [
            s
            for s in range(game.players)
            if s < len(self.play.bots) and not self.play.bots[s].value
        ]
        self.play.start(game, humans)
        self.play._say(  # noqa: SLF001
            f"Playing on from the replay ({len(game.actions)} actions so far).", ok=True
        )
        self.select("Play")

    def _current_names(self) -> tuple[str, ...]:
        if self.tabs.selected_index == 1 and self.replay.game is not None:
            return self.replay.game.names
        return self.play.game.names

    def _seat_options(self) -> None:
        names = self._current_names()
        options = [(f"{n} (seat {i})", i) for i, n in enumerate(names)]
        if list(self.view_seat.options) != options:
            keep = self.view_seat.value
            self._syncing = True
            try:
                self.view_seat.options = options
                self.view_seat.value = keep if keep is not None and keep < len(names) else 0
            finally:
                self._syncing = False

    def _apply_view(self) -> None:
        mode, seat = self.view_mode.value, self.view_seat.value or 0
        self.view_seat.disabled = mode != VIEW_SEAT
        self.play.set_view(mode, seat)
        if mode == VIEW_ALL:
            self.replay.set_view(None, True)
        elif mode == VIEW_SEAT:
            self.replay.set_view(seat, False)
        else:
            self.replay.set_view(None, False)

    def _on_view(self, _: dict) -> None:
        if self._syncing:
            return
        try:
            self._apply_view()
        except Exception as exc:  # noqa: BLE001
            log.exception("palace app: view switch failed")
            self.play._say(f"Something went wrong ({exc}).", ok=False)  # noqa: SLF001

    def _on_tab(self, _: dict) -> None:
        self._seat_options()
        self._apply_view()

    def _on_game(self) -> None:
        """A new hand in Play or Replay: seat names may have changed."""
        self._seat_options()
        self._apply_view()
