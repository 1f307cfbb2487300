"""Presenter mode: the table and the latest battle side by side on one projector screen.

Made for 1920×1080 at 150% zoom (a 1280×720 CSS page): the event's sentence large on top,
big Back and Next buttons (the ← and → keys press them: the page script of ``make app``),
the table on the left and the latest battle so far on the right, nothing below the fold.
It steps through the hand shown in Replay (or the hand in Play) and moves Replay with it.
"""

from __future__ import annotations

from collections.abc import Callable

from ipywidgets import HTML, Button, HBox, Layout, VBox

from palace.events import Event
from palace.game import Game
from palace.views import sentence_for
from palace.widgets.battle_view import BattleView, shows_battle
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge

PRESENTER_CSS = """<style>
.palace-presenter { background: #0f4429; border-radius: 14px; padding: 10px 14px; }
.palace-presenter-sentence { font-size: 24px; line-height: 1.25; font-weight: 650; color: #fff;
  min-height: 64px; }
.palace-presenter-sentence .palace-presenter-kind { font-size: 15px; text-transform: uppercase;
  letter-spacing: .08em; color: #f2b705; margin-right: 10px; }
.palace-presenter-count { font-size: 15px; color: #d1fae5; }
.palace-presenter .palace-presenter-nav button, .palace-presenter-nav.jupyter-button {
  height: 58px; font-size: 22px; font-weight: 700; border-radius: 12px; }
.palace-presenter-stage { background: #fff; border-radius: 12px; padding: 6px; }
.palace-presenter-stage .palace-table { zoom: .8; }
.palace-presenter-battle .palace-battleview { zoom: .66; }
.palace-presenter-none { color: #6b7280; font-size: 17px; padding: 20px; }
</style>"""


def latest_battle(events: tuple[Event, ...], index: int) -> Event | None:
    """The last battle showdown at or before event `index`."""
    for ev in reversed(events[: index + 1]):
        if ev.kind == "battle" and "battle" in ev.detail:
            return ev
    return None


class Presenter(VBox):
    """Big Back/Next through a hand's events: sentence, table and latest battle on one screen.

    on_move(index): called after each step (the app moves Replay's stepper with it).
    on_leave(): the Leave button.
    """

    def __init__(
        self,
        *,
        on_move: Callable[[int], None] | None = None,
        on_leave: Callable[[], None] | None = None,
    ) -> None:
        self._on_move = on_move
        self._on_leave = on_leave
        self._game: Game | None = None
        self._index = 0
        self._viewer: int | None = None
        self._reveal = False
        self.back_button = Button(
            description="Back",
            icon="arrow-left",
            layout=Layout(width="150px", height="58px", flex="none"),
        )
        self.next_button = Button(
            description="Next",
            icon="arrow-right",
            button_style="primary",
            layout=Layout(width="150px", height="58px", flex="none"),
        )
        self.leave_button = Button(
            description="Leave",
            icon="times",
            tooltip="leave presenter mode",
            layout=Layout(width="120px", height="58px", flex="none"),
        )
        for b, cls in (
            (self.back_button, "palace-presenter-back"),
            (self.next_button, "palace-presenter-next"),
            (self.leave_button, "palace-presenter-leave"),
        ):
            b.add_class("palace-presenter-nav")
            b.add_class(cls)
        self.back_button.on_click(lambda _: self.back())
        self.next_button.on_click(lambda _: self.next())
        self.leave_button.on_click(lambda _: self._leave())
        self.sentence = HTML(layout=Layout(flex="1 1 auto"))
        self.table = TableView()
        self.battle = BattleView()
        self._no_battle = HTML(
            root('<div class="palace-presenter-none">No battle yet in this hand.</div>')
        )
        self._battle_box = VBox([self.battle, self._no_battle], layout=Layout(width="100%"))
        self._battle_box.add_class("palace-presenter-battle")
        top = HBox(
            [self.back_button, self.sentence, self.next_button, self.leave_button],
            layout=Layout(align_items="center", grid_gap="14px", width="100%"),
        )
        stage = HBox(
            [
                VBox([self.table], layout=Layout(flex="1 1 55%", min_width="0")),
                VBox([self._battle_box], layout=Layout(flex="1 1 45%", min_width="0")),
            ],
            layout=Layout(grid_gap="10px", width="100%", align_items="flex-start"),
        )
        stage.add_class("palace-presenter-stage")
        super().__init__(
            [HTML(PRESENTER_CSS, layout=Layout(display="none")), top, stage],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-presenter")

    # ------------------------------------------------------------------ public
    @property
    def index(self) -> int:
        return self._index

    @property
    def game(self) -> Game | None:
        return self._game

    def show(self, game: Game, index: int, viewer: int | None = None, reveal: bool = False) -> None:
        """Present `game` at event `index` as `viewer` sees it (`reveal`: every card)."""
        self._game, self._viewer, self._reveal = game, viewer, reveal
        self.go(index)

    def go(self, index: int) -> None:
        if self._game is None:
            return
        last = len(self._game.events) - 1
        self._index = max(0, min(int(index), last))
        self._draw()
        if self._on_move is not None:
            self._on_move(self._index)

    def next(self) -> None:
        self.go(self._index + 1)

    def back(self) -> None:
        self.go(self._index - 1)

    def text(self) -> str:
        if self._game is None:
            return "Presenter: no hand."
        ev = self._game.events[self._index]
        return f"Presenter, step {ev.index + 1}: {self._sentence(ev)} ({ev.rule})"

    # ------------------------------------------------------------------ drawing
    def _sentence(self, ev: Event) -> str:
        return ev.text if self._reveal else sentence_for(ev, self._viewer)

    def _draw(self) -> None:
        g = self._game
        assert g is not None
        events = g.events
        i = self._index
        ev = events[i]
        dealer = next((e.seat for e in reversed(events[: i + 1]) if e.kind == "dealer"), None)
        self.table.show(
            g.state_at(i), self._viewer, self._reveal, names=g.names, dealer=dealer, focus=ev.seat
        )
        kind = ev.kind.heading
        self.sentence.value = root(
            '<div class="palace-presenter-sentence">'
            f'<span class="palace-presenter-kind">{esc(kind)}</span>{rule_badge(ev.rule)}'
            f"<div>{esc(self._sentence(ev))}</div>"
            f'<div class="palace-presenter-count">step {ev.index + 1} of {len(events)}</div>'
            "</div>"
        )
        battle = latest_battle(events, i)
        if battle is not None and shows_battle(battle, self._viewer, self._reveal):
            self.battle.show_event(battle, g.names)
            self.battle.layout.display = None
            self._no_battle.layout.display = "none"
        else:
            self.battle.layout.display = "none"
            self._no_battle.value = root(
                '<div class="palace-presenter-none">'
                + (
                    "No battle yet in this hand."
                    if battle is None
                    else "The latest battle's palace cards are not shown in this view (R8.4)."
                )
                + "</div>"
            )
            self._no_battle.layout.display = None
        self.back_button.disabled = i <= 0
        self.next_button.disabled = i >= len(events) - 1

    def _leave(self) -> None:
        if self._on_leave is not None:
            self._on_leave()
