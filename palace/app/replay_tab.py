"""The app's Replay tab: step through a scenario, a saved hand or an upload, event by event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ipywidgets import HTML, Button, Dropdown, FileUpload, Layout, Text, ToggleButton, VBox

from palace import strict
from palace.app.common import WIDE_LABEL, close_tree, flow_row, guard, message_html, titled_box
from palace.app.files import (
    Loaded,
    LoadError,
    download_link,
    download_name,
    hand_json,
    load_data_file,
    load_hand_or_scenario,
)
from palace.errors import PalaceError
from palace.game import Game
from palace.scenarios import SCENARIO_DIR, ScenarioError, load_scenario
from palace.widgets.labels import rules_words
from palace.widgets.stepper import DealStepper, key_step
from palace.widgets.theme import esc, root, rule_badge

_LABEL = 160  # characters of a list entry's label
_SAID = 1200  # characters of a message under the picker


@dataclass
class _Entry:
    label: str
    loaded: Loaded | None = None
    path: Path | None = None  # a scenario file, loaded on first use
    data_name: str | None = None  # its name inside data/, when a link can name it


def _options(entries: dict[str, _Entry]) -> list[tuple[str, str]]:
    return [(strict.printable(e.label, _LABEL), k) for k, e in entries.items()]


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
        self.four_color = False
        self._reveal_allowed = True
        self._entries: dict[str, _Entry] = {}
        self._counter = 0
        self._syncing = False
        problems: list[str] = []
        folder = Path(scenario_dir)
        self.scenario_dir = folder
        for i, path in enumerate(sorted(folder.glob("*.json")), start=1):
            try:
                sc = load_scenario(path)
            except ScenarioError as exc:
                problems.append(str(exc))
                continue
            self._entries[f"scenario:{path.name}"] = _Entry(
                f"{i:02d} · {sc.title}", path=path, data_name=f"scenarios/{path.name}"
            )

        self.choice = Dropdown(
            options=self._options(),
            description="Hand",
            layout=Layout(width="min(720px, 100%)"),
        )
        self.name_box = Text(
            placeholder="scenarios/01-quiet-round-showdown.json",
            description="Open from data/",
            style=WIDE_LABEL,
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

        picker = titled_box(
            "Choose a hand to replay",
            flow_row(self.choice),
            flow_row(self.name_box, self.open_button, self.upload),
            HTML(
                root(
                    '<div class="palace-note">Scenarios come from <code>data/scenarios/'
                    "</code>; saved hands from <b>Save hand</b> in Play or Replay appear in "
                    "the list too. Uploads: a saved hand (<code>palace-hand/1</code>) or a "
                    "scenario (<code>palace-scenario/1</code>), at most 1 MB.</div>"
                )
            ),
        )
        about = titled_box("", self.info, flow_row(self.answer_toggle), self.answer)
        tools = flow_row(self.save_button, self.play_on_button, self.download)
        super().__init__(
            [picker, self.message, about, self._stepper_box, tools],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-replay")
        if problems:
            self.say("Some scenario files were skipped: " + " | ".join(problems), ok=False)
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

    @property
    def data_name(self) -> str | None:
        """The shown hand's name inside data/ (what a link names), None for an upload."""
        if self._current_key is None:
            return None
        return self._entries[self._current_key].data_name

    @property
    def from_scenario_dir(self) -> bool:
        """Is the shown hand a scenario of the Replay list's folder (a link can name it)?"""
        return (self._current_key or "").startswith("scenario:")

    def add_scenario_file(self, path: Path) -> str:
        """Add (or refresh) a scenario file of the folder in the list, and show it."""
        key = f"scenario:{path.name}"
        sc = load_scenario(path)
        entry = _Entry(f"New · {sc.title}", path=path, data_name=f"scenarios/{path.name}")
        if key in self._entries:
            self._entries[key] = entry
            self._current_key = None  # show the new version
            self._show(key)
            return key
        self._entries = {**self._entries, key: entry}
        self._syncing = True
        try:
            self.choice.options = _options(self._entries)
        finally:
            self._syncing = False
        self.select(key)
        return key

    def set_reveal_allowed(self, allowed: bool) -> None:
        """A student's page: the stepper offers no "Reveal all cards" (teacher only)."""
        self._reveal_allowed = allowed
        if not allowed:
            self._view = (self._view[0], False)
        if self.stepper is not None:
            self.stepper.reveal_control = allowed

    def select(self, key: str) -> bool:
        """Show the entry `key` (a scenario file, saved hand or upload)."""
        if key not in self._entries:
            raise KeyError(key)
        if self.choice.value != key:
            self.choice.value = key  # the observer shows it
            return self._current_key == key
        return self._show(key)

    def add(
        self, loaded: Loaded, label: str, *, select: bool = True, data_name: str | None = None
    ) -> str:
        """Add a loaded hand to the list (and show it).

        The list changes only once the new options are in the dropdown: if that fails,
        the entries and the options stay as they were (no half-added hand).
        """
        key = f"{loaded.kind}:{self._counter + 1}"
        entry = _Entry(strict.printable(label, _LABEL), loaded=loaded, data_name=data_name)
        entries = {**self._entries, key: entry}
        old = self.choice.options
        self._syncing = True  # new options reset a Dropdown's value: put it back
        try:
            self.choice.options = _options(entries)
            if self._current_key is not None:
                self.choice.value = self._current_key
        except Exception:
            self.choice.options = old
            if self._current_key is not None:
                self.choice.value = self._current_key
            raise
        finally:
            self._syncing = False
        self._entries = entries
        self._counter += 1
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
        self.say(f"Loaded {name}: {kind} “{loaded.title}”.", ok=True)
        return True

    def open_name(self, name: str) -> bool:
        """Open a file by name from data/ only (no absolute paths, no '..')."""
        try:
            loaded = load_data_file(name.strip())
        except LoadError as exc:
            self._refuse(str(exc))
            return False
        self.add(loaded, f"data/{name.strip()} · {loaded.title}", data_name=name.strip())
        self.say(f"Opened data/{name.strip()}.", ok=True)
        return True

    def set_view(self, seat: int | None, reveal: bool) -> None:
        self._view = (seat, reveal and self._reveal_allowed)
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
        return _options(self._entries)

    def say(self, text: str, *, ok: bool) -> None:
        # whatever a file held, what the browser is sent is clean, encodable and short
        self.message.value = message_html(strict.printable(text, _SAID), ok=ok)

    def _refuse(self, problem: str) -> None:
        kept = ""
        if self.current is not None:
            kept = f" The replay of “{self.current.title}” stays loaded."
        self.say(f"Not loaded: {problem}.{kept}", ok=False)

    def _loaded(self, key: str) -> Loaded:
        e = self._entries[key]
        if e.loaded is None:
            assert e.path is not None
            sc = load_scenario(e.path)
            e.loaded = Loaded("scenario", sc.title, sc.game(), sc, f"scenarios/{e.path.name}")
        return e.loaded

    def _teaching(self) -> bool:
        """A scenario in the players' view: a teaching position shows every card."""
        seat, _ = self._view
        return seat is None and self.current is not None and self.current.scenario is not None

    def _apply_view(self, stepper: DealStepper) -> None:
        seat, reveal = self._view
        g = stepper.game
        stepper.perspective = seat if seat is not None and 0 <= seat < g.players else None
        # a scenario is a teaching position, shown whole like a diagram in a book (D29);
        # a played or uploaded hand shows every card only on the teacher's page
        stepper.reveal_all = (reveal and self._reveal_allowed) or self._teaching()

    def set_four_color(self, value: bool) -> None:
        """Four-colour suits in the replay (the app's header switch)."""
        self.four_color = bool(value)
        if self.stepper is not None:
            self.stepper.four_color = self.four_color

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
        teaching = loaded.scenario is not None and seat is None
        stepper = DealStepper(
            g,
            perspective=seat if seat is not None and 0 <= seat < g.players else None,
            reveal_all=(reveal and self._reveal_allowed) or teaching,
            reveal_control=self._reveal_allowed,
            four_color=self.four_color,
            start=key_step(g) if loaded.scenario is not None else 0,
        )
        old = self.stepper
        self.stepper = stepper
        self._stepper_box.children = [stepper]
        if old is not None:
            close_tree(old)
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
            f"{rules_words(g.rules)} · {len(g.actions)} actions · {len(g.events)} steps"
        )
        if sc is not None:
            badges = " ".join(rule_badge(r) for r in sc.rules)
            html = (
                f'<div class="palace-box-title">{esc(sc.title)} {badges}</div>'
                f'<div class="palace-note">{esc(facts)} · file {esc(loaded.source)}</div>'
            )
            # the summary tells the outcome: it waits behind "Show the answer" with it
            if sc.question:
                html += f'<div class="palace-scenario-q"><b>Question.</b> {esc(sc.question)}</div>'
            answer = f"<b>Answer.</b> {esc(sc.answer)} " if sc.answer else ""
            self.answer_toggle.layout.display = None
            self.answer.value = root(
                f'<div class="palace-scenario-a">{answer}<div style="margin-top:4px">'
                f"<b>What happens.</b> {esc(sc.summary)}</div></div>"
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
    @guard
    def _on_choice(self, change: dict) -> None:
        if self._syncing:
            return
        if change["new"] is not None and change["new"] != self._current_key:
            if self._show(change["new"]):
                self.say("", ok=True)

    @guard
    def _on_open(self, _: Button) -> None:
        if self.name_box.value.strip():
            self.open_name(self.name_box.value)
        else:
            self.say(
                "Type a file name inside data/, such as scenarios/01-quiet-round-showdown.json.",
                ok=False,
            )

    @guard
    def _on_upload(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        name = strict.printable(str(item.get("name") or "upload.json"), 80)
        content = item.get("content", b"")
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        self.upload.value = ()  # free the bytes; the next upload is a new change
        self.load_bytes(data, name)

    def _on_answer(self, change: dict) -> None:
        self.answer.layout.display = None if change["new"] else "none"
        self.answer_toggle.description = "Hide the answer" if change["new"] else "Show the answer"

    @guard
    def _on_save(self, _: Button) -> None:
        g = self.game
        if g is not None and self.save() is not None:
            self.say(f"Saved: download {download_name(g)} below.", ok=True)

    @guard
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
            if sc.question:
                lines.append(f"Question: {sc.question}")
            if self.answer_toggle.value:
                if sc.answer:
                    lines.append(f"Answer: {sc.answer}")
                lines.append(f"Summary: {sc.summary}")
        if self.stepper is not None:
            lines.append(self.stepper.text())
        return "\n".join(lines)
