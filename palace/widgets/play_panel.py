"""`PlayPanel`: a learner plays one seat against bots to the end of the hand."""

from __future__ import annotations

from collections.abc import Sequence

from ipywidgets import HTML, Button, Checkbox, Dropdown, HBox, IntText, Layout, ToggleButton, VBox

from palace.analysis.bots import Bot
from palace.errors import PalaceError
from palace.events import Event
from palace.game import Game
from palace.rules import Rules
from palace.widgets.action_picker import ActionPicker, Advisor
from palace.widgets.battle_view import BattleView
from palace.widgets.hand_log import HandLog
from palace.widgets.hand_review import HandReview
from palace.widgets.labels import legend_html, rules_words
from palace.widgets.narration import Narration
from palace.widgets.pacing import BOT_SPEEDS, BotPacer
from palace.widgets.session import PlayController
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, style_widget


class PlayPanel(VBox):
    """Table (the learner's view), action buttons, what the bots did (paced: `speed`), the
    latest events, battles, the result and a review of the learner's decisions."""

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        seat: int = 0,
        seed: int = 7,
        *,
        rules: Rules | None = None,
        deck: str | Sequence[str] | None = None,
        dealer: int | None = None,
        bots: dict[int, Bot] | None = None,
        controller: PlayController | None = None,
        advisor: Advisor | None = None,
        four_color: bool = False,
        log_lines: int = 8,
        speed: str = "normal",
    ) -> None:
        self._ctl = controller or PlayController(
            human=seat,
            players=players,
            seed=seed,
            rules=rules,
            deck=deck,
            dealer=dealer,
            bots=bots,
        )
        self._ctl.auto = False  # the pacer plays the bots, one action at a time
        self._pacer = BotPacer(self._ctl, speed)
        self._narration = Narration("Since your last move")
        self._review = HandReview()
        self._since = len(self._ctl.game.events)
        self._speed = Dropdown(
            options=[(name.capitalize(), name) for name in BOT_SPEEDS],
            value=speed,
            description="Bot speed",
            style={"description_width": "initial"},
            layout=Layout(width="180px"),
        )
        self._seat = seat if controller is None else controller.seat
        self._css = style_widget()
        self._title = HTML()
        self._seed = IntText(
            value=self._ctl.game.seed, description="Seed", layout=Layout(width="160px")
        )
        self._new = Button(
            description="New hand",
            icon="refresh",
            button_style="primary",
            layout=Layout(width="130px"),
        )
        self._undo = Button(
            description="Undo",
            icon="undo",
            layout=Layout(width="110px"),
            tooltip="take back your last decision",
        )
        self._reveal = ToggleButton(
            value=False,
            description="Reveal all",
            icon="eye",
            tooltip="instructor: show every palace",
            layout=Layout(width="130px"),
        )
        self._four = Checkbox(
            value=four_color,
            description="Four-colour suits",
            indent=False,
            layout=Layout(width="170px"),
        )
        self._message = HTML()
        self._message_text = ""
        self._hand_log = HandLog(
            again="Press <b>New hand</b> to play again.", lines=log_lines, four_color=four_color
        )
        self._table = TableView(four_color=four_color)
        self._picker = ActionPicker(self._ctl, self._seat, advisor=advisor, four_color=four_color)
        self._picker.on_action(self._on_action)
        self._speed.observe(self._on_speed, names="value")

        self._new.on_click(self._on_new)
        self._undo.on_click(self._on_undo)
        self._reveal.observe(self._on_option, names="value")
        self._four.observe(self._on_option, names="value")
        self._ctl.add_listener(self._on_change)

        header = HBox(
            [
                self._title,
                self._seed,
                self._new,
                self._undo,
                self._reveal,
                self._four,
                self._speed,
            ],
            layout=Layout(flex_flow="row wrap", align_items="center", grid_gap="8px"),
        )
        lower = HBox(
            [
                VBox([self._picker], layout=Layout(flex="1 1 560px", min_width="480px")),
                VBox([self._hand_log.log], layout=Layout(flex="1 1 360px", min_width="320px")),
            ],
            layout=Layout(flex_flow="row wrap", grid_gap="14px", width="100%"),
        )
        super().__init__(
            [
                self._css,
                header,
                self._message,
                self._hand_log.result,
                self._review,
                self._narration,
                self._table,
                HTML(root(legend_html("best", "struck", "act", "focus", "seen"))),
                lower,
                self._hand_log.battle_box,
            ],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-playpanel")
        self._ctl.advance_bots(notify=False)  # the bots before the learner's first decision
        self.redraw()

    # ------------------------------------------------------------------ public
    @property
    def controller(self) -> PlayController:
        return self._ctl

    @property
    def game(self) -> Game:
        return self._ctl.game

    @property
    def picker(self) -> ActionPicker:
        return self._picker

    @property
    def table(self) -> TableView:
        return self._table

    @property
    def battle(self) -> BattleView:
        return self._hand_log.battle

    @property
    def hand_log(self) -> HandLog:
        """The latest events, the latest battle and the result box."""
        return self._hand_log

    @property
    def narration(self) -> Narration:
        """What the bots did since the learner's last move."""
        return self._narration

    @property
    def review(self) -> HandReview:
        """After the hand: each of the learner's decisions beside the odds they had."""
        return self._review

    @property
    def pacer(self) -> BotPacer:
        return self._pacer

    @property
    def message(self) -> str:
        """The panel's last message (a new hand dealt, a decision taken back, or why not)."""
        return self._message_text

    @property
    def reveal_all(self) -> bool:
        return self._reveal.value

    @reveal_all.setter
    def reveal_all(self, value: bool) -> None:
        self._reveal.value = bool(value)

    def button(self, name: str) -> Button:
        """The panel's own buttons: "new" or "undo"."""
        return {"new": self._new, "undo": self._undo}[name]

    @property
    def seed_input(self) -> IntText:
        return self._seed

    def new_hand(self, seed: int | None = None) -> None:
        """Deal a new hand (seed from the Seed box by default)."""
        self._pacer.cancel()
        self._ctl.new_hand(self._seed.value if seed is None else seed)
        self._ctl.advance_bots()

    def undo(self) -> bool:
        """Take back the learner's last decision; False (with a message) if there is none."""
        try:
            self._ctl.undo()
        except PalaceError as exc:
            self._say(str(exc), ok=False)
            return False
        self._say("Your last decision was taken back.", ok=True)
        return True

    # ------------------------------------------------------------------ callbacks
    def _on_new(self, _: Button) -> None:
        self.new_hand()
        self._say(f"New hand dealt with seed {self.game.seed}.", ok=True)

    def _on_undo(self, _: Button) -> None:
        self.undo()

    def _on_option(self, _: dict) -> None:
        four = self._four.value
        for w in (self._table, self._hand_log.battle, self._picker):
            w.four_color = four
        self.redraw()

    def _on_speed(self, change: dict) -> None:
        self._pacer.speed = change["new"]

    def _on_action(self, _action: object, events: list[Event]) -> None:
        self._since = events[0].index if events else len(self.game.events)
        self.redraw()

    def _on_change(self, events: list[Event]) -> None:
        if events:
            self._say("", ok=True)
        else:
            self._since = len(self.game.events)
        self.redraw()
        self._pacer.run()

    # ------------------------------------------------------------------ drawing
    def _say(self, text: str, *, ok: bool) -> None:
        self._message_text = text
        cls = "palace-status-ok" if ok else "palace-status-bad"
        self._message.value = (
            root(f'<div class="palace-status-line {cls}" role="status">{esc(text)}</div>')
            if text
            else ""
        )

    def redraw(self) -> None:
        """Draw everything from the controller's game."""
        g = self.game
        seat, reveal = self._seat, self.reveal_all
        self._seed.value = g.seed
        self._title.value = root(
            f'<span class="palace-title">Palace Poker</span> '
            f'<span class="palace-subtitle">you play {esc(g.names[seat])} · '
            f"{len(g.names)} players · {esc(rules_words(g.rules))}</span>"
        )
        self._narration.show(g, seat, self._since, reveal=reveal)
        self._table.show(g, perspective=seat, reveal_all=reveal, focus=self._narration.last_seat)
        self._picker.refresh()
        self._undo.disabled = not any(s == seat for s in self._ctl.actors)
        self._hand_log.show(g, seat, reveal, since=self._since)
        if g.is_over:
            self._review.show(g, seat, self._ctl.actors)
        else:
            self._review.clear()

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """What the learner sees, in plain text."""
        parts = [*self._narration.text(), "== Table ==", self._table.text()]
        parts += ["== Your actions ==", self._picker.text()]
        parts += self._hand_log.text(self.game, self._seat, self.reveal_all)
        parts += self._review.text()
        return "\n".join(parts)
