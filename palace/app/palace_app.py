"""`PalaceApp`: the whole suite in one widget for a class: play, replay, battles, variants, lessons.

``notebooks/app.ipynb`` is just ``PalaceApp()``; ``make app`` serves the notebooks folder with
Voilà, so the app is at ``/voila/render/app.ipynb`` and its Lessons tab links to the lessons
beside it. Every browser tab gets its own kernel, so every learner gets their own app.

The constructor never displays anything: show the returned widget (the notebook's last
expression). Each tab is a widget of its own, in a module of its own: `PlayTab`
(``play_tab``), `ReplayTab` (``replay_tab``), `BattleLab` (``battle_lab``), `ExploreTab`
(``explore_tab``) and `LessonsTab` (``lessons_tab``), each with a ``.text()`` for tests, as
the other Palace panels. Saving and loading hands is in ``files``, what the tabs share in
``common`` and the app's stylesheet in ``style``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ipywidgets import HTML, Checkbox, Dropdown, HBox, Layout, Tab, ToggleButtons, VBox

from palace.app.classroom_bar import ClassroomBar
from palace.app.common import VIEW_ALL, VIEW_PLAYERS, VIEW_SEAT, guard
from palace.app.deep_links import Link
from palace.app.lazy import Later
from palace.app.lessons_tab import LESSON_DIR
from palace.app.play_tab import PlayTab
from palace.app.style import APP_CSS
from palace.app.teacher import page_is_teachers
from palace.errors import PalaceError
from palace.game import Game
from palace.scenarios import SCENARIO_DIR
from palace.table import DEFAULT_NAMES
from palace.widgets.action_picker import Advisor, exact_odds
from palace.widgets.theme import (
    quiet_tooltips,
    root,
    share_default_styles,
    shared_layout,
    style_widget,
)

if TYPE_CHECKING:  # the tabs behind Play are imported when first opened
    from palace.app.battle_lab import BattleLab
    from palace.app.explore_tab import ExploreTab
    from palace.app.lessons_tab import LessonsTab
    from palace.app.replay_tab import ReplayTab

__all__ = ["TAB_TITLES", "PalaceApp"]


TAB_TITLES = ("Play", "Replay", "Battle lab", "Explore", "Lessons")


# ---------------------------------------------------------------------------- the tabs
def _replay_tab(scenario_dir: str | Path, on_play_on: Callable[[Game], None]) -> ReplayTab:
    from palace.app.replay_tab import ReplayTab

    return ReplayTab(scenario_dir, on_play_on=on_play_on)


def _battle_lab() -> BattleLab:
    from palace.app.battle_lab import BattleLab

    return BattleLab()


def _explore_tab(hands: int) -> ExploreTab:
    from palace.app.explore_tab import ExploreTab

    return ExploreTab(hands=hands)


def _lessons_tab(folder: str | Path) -> LessonsTab:
    from palace.app.lessons_tab import LessonsTab

    return LessonsTab(folder)


# ---------------------------------------------------------------------------- the app
class PalaceApp(VBox):
    """The Palace app: a header, the instructor's card switch and five tabs.

    >>> app = PalaceApp()
    >>> app
    PalaceApp(tabs=Play, Replay, Battle lab, Explore, Lessons)

    advisor: ``advisor(game, seat, target) -> str`` shown beside each legal attack in
    Play; "auto" is the exact odds (`palace.widgets.action_picker.exact_odds`, a bar and
    words), None shows no odds.
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
        teacher: bool = True,
    ) -> None:
        if isinstance(advisor, str) and advisor != "auto":
            raise PalaceError(f"advisor must be 'auto', None or a function, got {advisor!r}")
        adv: Advisor | None = exact_odds if isinstance(advisor, str) else advisor
        share_default_styles()  # one style model per kind of control (theme)
        self._css = style_widget()
        self._app_css = HTML(value=APP_CSS, layout=shared_layout(display="none"))
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
                "Play: the player whose turn it is · Replay: public cards, every card for a "
                "teaching scenario",
                "only what the chosen player may see",
                "instructor: every hidden card face up",
            ],
            style={"button_width": "128px"},
            layout=shared_layout(),
        )
        self.view_seat = Dropdown(
            options=[(n, i) for i, n in enumerate(DEFAULT_NAMES[:players])],
            value=0,
            description="Player",
            disabled=True,
            layout=shared_layout(width="200px"),
        )
        self.four_color = Checkbox(
            value=False,
            description="Four-colour suits",
            tooltip="clubs green, diamonds blue, hearts red, spades black: everywhere in the app",
            indent=False,
            layout=shared_layout(width="auto"),
        )
        bar = HBox(
            [
                HTML(
                    root('<span class="palace-section">Cards shown</span>'), layout=shared_layout()
                ),
                self.view_mode,
                self.view_seat,
                HTML(
                    root('<span class="palace-note">applies to the Play and Replay tables</span>'),
                    layout=shared_layout(),
                ),
                self.four_color,
            ],
            layout=Layout(flex_flow="row wrap", align_items="center", grid_gap="12px"),
        )
        bar.add_class("palace-app-bar")

        self.teacher = teacher
        self.play = PlayTab(players=players, seed=seed, advisor=adv, on_save=self._saved)
        # the tabs behind Play are built the first time they are opened (or used from code)
        slot = shared_layout(width="100%")  # a tab's box is never hidden or resized
        self._replay: Later[ReplayTab] = Later(
            lambda: _replay_tab(scenario_dir, self._play_on),
            on_built=self._new_replay,
            layout=slot,
        )
        self._battle_lab: Later[BattleLab] = Later(
            _battle_lab, on_built=self._new_battle_lab, layout=slot
        )
        self._explore: Later[ExploreTab] = Later(lambda: _explore_tab(explore_hands), layout=slot)
        self._lessons: Later[LessonsTab] = Later(lambda: _lessons_tab(lessons_dir), layout=slot)
        self.tabs = Tab(
            children=[self.play, self._replay, self._battle_lab, self._explore, self._lessons],
            titles=list(TAB_TITLES),
        )
        self.tabs.selected_index = 0
        self.classroom = ClassroomBar(self)  # links, QR, presenter, class (classroom_bar)
        self._bar = bar
        self.view_mode.observe(self._on_view, names="value")
        self.view_seat.observe(self._on_view, names="value")
        self.tabs.observe(self._on_tab, names="selected_index")
        self.four_color.observe(self._on_four, names="value")
        super().__init__(
            [self._css, self._app_css, self.header, bar, self.classroom, self.tabs],
            layout=shared_layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app")
        self._syncing = False
        self.play.on_game = self._on_game
        self._apply_view()
        self.set_teacher(teacher)
        quiet_tooltips(self)

    def __repr__(self) -> str:
        return f"PalaceApp(tabs={', '.join(TAB_TITLES)})"

    # ------------------------------------------------------------------ the tabs
    @property
    def replay(self) -> ReplayTab:
        """The Replay tab (built on first use)."""
        return self._replay.get()

    @property
    def battle_lab(self) -> BattleLab:
        """The Battle lab tab (built on first use)."""
        return self._battle_lab.get()

    @property
    def explore(self) -> ExploreTab:
        """The Explore tab (built on first use)."""
        return self._explore.get()

    @property
    def lessons(self) -> LessonsTab:
        """The Lessons tab (built on first use)."""
        return self._lessons.get()

    def built_tabs(self) -> list[str]:
        """The titles of the tabs built so far (Play always; the others once opened)."""
        slots = self.tabs.children
        return [
            t for t, w in zip(TAB_TITLES, slots, strict=True) if not isinstance(w, Later) or w.built
        ]

    def _new_replay(self, replay: ReplayTab) -> None:
        replay.on_game = self._on_game
        replay.set_reveal_allowed(self.teacher)
        if self.four_color.value:
            replay.set_four_color(True)
        self._apply_view()
        quiet_tooltips(replay)

    def _new_battle_lab(self, lab: BattleLab) -> None:
        if self.four_color.value:
            lab.set_four_color(True)
        quiet_tooltips(lab)

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

    # ------------------------------------------------------------------ a class (issue 15)
    def open_page(self, query: str) -> list[str]:
        """A served page's link: the teacher's token (else a student's page), then the moment
        it names (`palace.app.deep_links`); returns the link's problems (also shown)."""
        from palace.app.deep_links import parse_link

        link = parse_link(query)
        self.set_teacher(page_is_teachers(link.instructor), link.instructor)
        return self.open_link(link)

    def open_link(self, query: str | Link | None) -> list[str]:
        """Open a link to a moment (a query string); a bad one changes nothing, says why."""
        return self.classroom.open_link(query)

    def set_teacher(self, teacher: bool, token: str | None = None) -> None:
        """Teacher: "All cards" and the teacher's tools; a student's page has neither."""
        self.teacher = teacher
        options = [("Players' view", VIEW_PLAYERS), ("One seat", VIEW_SEAT)]
        tips = [
            "Play: the human whose turn it is · Replay: public cards only",
            "only what the chosen seat may see",
        ]
        if teacher:
            options.append(("All cards", VIEW_ALL))
            tips.append("instructor: every hidden card face up")
        elif self.view_mode.value == VIEW_ALL:
            self.view_mode.value = VIEW_PLAYERS
        self.view_mode.options, self.view_mode.tooltips = options, tips
        if self._replay.built:
            self.replay.set_reveal_allowed(teacher)
        self.classroom.set_teacher(teacher, token)
        self._apply_view()

    def table_view(self) -> tuple[int | None, bool]:
        """(seat whose view the tables show, every card shown) as the switch says now."""
        mode = self.view_mode.value
        seat = self.view_seat.value if mode == VIEW_SEAT else None
        return seat, mode == VIEW_ALL and self.teacher

    def presenting(self, on: bool) -> None:
        """Presenter mode: only the presenter on screen (the tabs keep their state)."""
        for w in (self.header, self._bar, self.tabs):
            w.layout.display = "none" if on else None

    def say(self, text: str, *, ok: bool) -> None:
        """Show `text` in the Play tab's message line (where the app's alerts go)."""
        self.play.say(text, ok=ok)

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
        self.play.say(f"Playing on from the replay ({len(game.actions)} actions so far).", ok=True)
        self.select("Play")

    def _current_names(self) -> tuple[str, ...]:
        if self.tabs.selected_index == 1 and self._replay.built and self.replay.game is not None:
            return self.replay.game.names
        return self.play.game.names

    def _seat_options(self) -> None:
        names = self._current_names()
        options = [(n, i) for i, n in enumerate(names)]
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
        if not self._replay.built:
            return
        if mode == VIEW_ALL:
            self.replay.set_view(None, True)
        elif mode == VIEW_SEAT:
            self.replay.set_view(seat, False)
        else:
            self.replay.set_view(None, False)

    @guard
    def _on_view(self, _: dict) -> None:
        if not self._syncing:
            self._apply_view()

    @guard
    def _on_four(self, change: dict) -> None:
        self.set_four_color(change["new"])

    def set_four_color(self, value: bool) -> None:
        """Four-colour suits in every tab (the header switch)."""
        if self.four_color.value != bool(value):
            self.four_color.value = bool(value)  # the observer comes back here
            return
        self.play.set_four_color(value)
        for slot in (self._replay, self._battle_lab):
            if slot.panel is not None:
                slot.panel.set_four_color(value)

    def _on_tab(self, change: dict) -> None:
        slot = self.tabs.children[change["new"] or 0]
        if isinstance(slot, Later):
            slot.get()  # the tab is built the first time it is opened
        self._seat_options()
        self._apply_view()

    def _on_game(self) -> None:
        """A new hand in Play or Replay: seat names may have changed."""
        self._seat_options()
        self._apply_view()
        quiet_tooltips(self.play)
        if self._replay.built:
            quiet_tooltips(self.replay)
