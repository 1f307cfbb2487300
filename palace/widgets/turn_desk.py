"""`TurnDesk`: a scripted position a learner plays from one seat, with a Start again button."""

from __future__ import annotations

from collections.abc import Mapping

from ipywidgets import HTML, Button, Layout, VBox

from palace.actions import Action
from palace.analysis.bots import Bot, RuleBot
from palace.errors import PalaceError
from palace.events import Event
from palace.game import Game
from palace.widgets.action_picker import ActionPicker
from palace.widgets.battle_view import BattleView
from palace.widgets.hand_log import LatestBattle
from palace.widgets.labels import legend_html
from palace.widgets.narration import Narration
from palace.widgets.pacing import BotPacer
from palace.widgets.session import PlayController
from palace.widgets.table_view import TableView
from palace.widgets.theme import root, style_widget


class TurnDesk(VBox):
    """A scripted position for one learner seat: the table (their view), their action
    buttons, what the other players did since, the latest battle, and a Start again button.

    bots: the computer players (seat -> bot); every other seat but the learner's plays as a
    `RuleBot`, so the hand always goes on. Their moves are narrated and paced (`speed`, as
    `BOT_SPEEDS`), the seat that acted last ringed on the table.
    """

    def __init__(
        self,
        game: Game,
        seat: int | None = None,
        *,
        bots: Mapping[int, Bot] | None = None,
        four_color: bool = False,
        speed: str = "normal",
    ) -> None:
        seat = game.to_act if seat is None else seat
        if seat is None:
            raise PalaceError("TurnDesk needs a seat: the hand is over")
        self._start = len(game.actions)
        players: dict[int, Bot] = {s: RuleBot() for s in range(game.players) if s != seat}
        players.update(bots or {})
        self._ctl = PlayController(game, human=seat, bots=players, auto=False)
        self._pacer = BotPacer(self._ctl, speed)
        self._seat = seat
        self._since = len(game.events)
        self._css = style_widget()
        self._narration = Narration("What the others did")
        self._table = TableView(four_color=four_color)
        self._picker = ActionPicker(self._ctl, seat, four_color=four_color)
        self._picker.on_action(self._on_action)
        self._battle_box = LatestBattle("The showdown", heading="Showdown", four_color=four_color)
        self._again = Button(
            description="Start again",
            icon="undo",
            tooltip="back to the lesson's position",
            layout=Layout(width="140px"),
        )
        self._again.on_click(self._on_again)
        self._ctl.add_listener(self._on_change)
        super().__init__(
            [
                self._css,
                self._narration,
                self._table,
                HTML(root(legend_html("best", "struck", "act", "focus", "seen"))),
                self._picker,
                self._again,
                self._battle_box,
            ],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-desk")
        self._draw()

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
        return self._battle_box.battle

    @property
    def again_button(self) -> Button:
        """Start again: back to the lesson's position (disabled until something was done)."""
        return self._again

    @property
    def narration(self) -> Narration:
        """What the other players did since the learner's last action."""
        return self._narration

    @property
    def pacer(self) -> BotPacer:
        """How fast the computer players act (`pacer.speed`)."""
        return self._pacer

    def start_again(self) -> None:
        """Take back everything done since the lesson's position."""
        self._pacer.cancel()
        while len(self._ctl.game.actions) > self._start:
            self._ctl.undo()
        self._since = len(self.game.events)
        self._draw()

    def _on_again(self, _: Button) -> None:
        self.start_again()

    def _on_action(self, _action: Action, events: list[Event]) -> None:
        self._since = events[0].index if events else len(self.game.events)
        self._draw()

    def _on_change(self, _events: list[Event]) -> None:
        self._draw()
        self._pacer.run()

    def _draw(self) -> None:
        self._narration.show(self.game, self._seat, self._since)
        self._table.show(self.game, perspective=self._seat, focus=self._narration.last_seat)
        self._again.disabled = len(self.game.actions) <= self._start
        self._battle_box.show(self.game, self._seat, False)

    def text(self) -> str:
        """What the others did, the table, the buttons and the latest battle in plain text."""
        parts = [*self._narration.text(), "== Table ==", self._table.text()]
        parts += ["== Actions ==", self._picker.text()]
        return "\n".join(parts + self._battle_box.text())
