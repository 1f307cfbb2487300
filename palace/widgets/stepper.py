"""`DealStepper`: step or play through a hand's events, with the table and the rule of each step."""

from __future__ import annotations

from ipywidgets import (
    HTML,
    Button,
    Checkbox,
    Dropdown,
    HBox,
    IntSlider,
    Layout,
    Play,
    ToggleButtons,
    VBox,
    link,
)

from palace.events import Event
from palace.game import Game
from palace.views import sees_card, sentence_for
from palace.widgets.battle_view import BattleView, shows_battle
from palace.widgets.cards import cards_html
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge, style_widget

KIND_TITLES = {
    "shuffle": "Shuffle",
    "cut": "Draw for the deal",
    "cut_tie": "Tie for the deal",
    "dealer": "The dealer",
    "gather": "Gathering cards",
    "stack": "Scripted deck",
    "ante": "Ante",
    "banner": "Banner card",
    "reject": "Banner card rejected",
    "reshuffle": "Reshuffle",
    "palace": "Palace card",
    "start": "Play starts",
    "buy": "Buy",
    "trim": "Discarding soldiers",
    "discard": "Discard",
    "stay": "Stay",
    "fold": "Fold",
    "bet": "Attack",
    "raise": "Raise",
    "call": "Call",
    "battle": "Battle showdown",
    "out": "Out of the hand",
    "both_out": "Both out",
    "capture": "Capture",
    "quiet_round": "Quiet round",
    "showdown": "Showdown",
    "pot": "The pot",
}
SPEEDS = {"slow": 1600, "normal": 900, "fast": 350}
EVERYONE = -1  # perspective dropdown value for the public view


class DealStepper(VBox):
    """First / back / next / last, a Play button and a slider over `game.events`."""

    def __init__(
        self,
        game: Game,
        *,
        perspective: int | None = None,
        reveal_all: bool = False,
        four_color: bool = False,
        start: int = 0,
        reveal_control: bool = True,
    ) -> None:
        self._game = game
        self._reveal_control = reveal_control  # False: a student's page, no reveal offered
        self._events = game.events
        last = len(self._events) - 1
        self._css = style_widget()
        self._steps = {  # the step buttons by name
            name: Button(
                description=name.capitalize(),
                icon=icon,
                tooltip=tip,
                button_style="primary" if name == "next" else "",
                layout=Layout(width="92px"),
            )
            for name, icon, tip in (
                ("first", "fast-backward", "first event"),
                ("back", "step-backward", "previous event"),
                ("next", "step-forward", "next event"),
                ("last", "fast-forward", "last event"),
            )
        }
        self._play = Play(
            value=0,
            min=0,
            max=last,
            step=1,
            interval=SPEEDS["normal"],
            description="Play",
            tooltip="play the hand",
        )
        self._slider = IntSlider(
            value=0,
            min=0,
            max=last,
            step=1,
            description="Event",
            continuous_update=True,
            layout=Layout(width="420px"),
        )
        self._speed = ToggleButtons(
            options=list(SPEEDS),
            value="normal",
            description="Speed",
            tooltips=["slow", "normal", "fast"],
            style={"button_width": "74px", "description_width": "50px"},
            layout=Layout(width="auto"),
        )
        self._view = Dropdown(
            options=[("Everyone (public cards)", EVERYONE)]
            + [(f"{n}'s seat", i) for i, n in enumerate(game.names)],
            value=EVERYONE if perspective is None else perspective,
            description="View as",
            layout=Layout(width="260px"),
        )
        self._reveal = Checkbox(
            value=reveal_all and reveal_control,
            description="Reveal all cards (instructor)",
            indent=False,
            layout=Layout(width="230px"),
        )
        self._four = Checkbox(
            value=four_color,
            description="Four-colour suits",
            indent=False,
            layout=Layout(width="170px"),
        )
        self._event = HTML(layout=Layout(width="100%"))
        self._table = TableView(four_color=four_color)
        self._battle = BattleView(four_color=four_color)
        self._battle.layout.display = "none"
        link((self._play, "value"), (self._slider, "value"))

        for button in self._steps.values():
            button.on_click(self._on_step)
        self._slider.observe(self._on_slider, names="value")
        self._speed.observe(self._on_speed, names="value")
        for w in (self._view, self._reveal, self._four):
            w.observe(self._on_option, names="value")

        self._title = HTML(
            root(
                '<span class="palace-title">Step through the hand</span> '
                f'<span class="palace-subtitle">{len(game.names)} players · seed {game.seed} · '
                f"{len(self._events)} events · {esc(game.rules.label())} rules</span>"
            )
        )
        controls = HBox(
            [
                *self._steps.values(),
                self._play,
                self._slider,
                self._speed,
            ],
            layout=Layout(flex_flow="row wrap", align_items="center"),
        )
        options = HBox(
            [self._view, self._reveal, self._four] if reveal_control else [self._view, self._four],
            layout=Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            [self._css, self._title, controls, options, self._event, self._table, self._battle],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-stepper")
        self._index = -2
        self.go(start)

    # ------------------------------------------------------------------ public
    @property
    def game(self) -> Game:
        """The hand being stepped through."""
        return self._game

    @property
    def index(self) -> int:
        """The event shown now."""
        return self._index

    @property
    def event(self) -> Event:
        return self._events[self._index]

    @property
    def event_html(self) -> str:
        """The HTML of the current event's banner: kind, rule, cards (as the view may see
        them) and sentence."""
        return self._event.value

    def button(self, name: str) -> Button:
        """A step button: "first", "back", "next" or "last"."""
        if name not in self._steps:
            raise KeyError(f"no step button {name!r}: first, back, next or last")
        return self._steps[name]

    @property
    def slider(self) -> IntSlider:
        return self._slider

    @property
    def play(self) -> Play:
        return self._play

    @property
    def table(self) -> TableView:
        return self._table

    @property
    def battle(self) -> BattleView:
        return self._battle

    @property
    def perspective(self) -> int | None:
        return None if self._view.value == EVERYONE else self._view.value

    @perspective.setter
    def perspective(self, seat: int | None) -> None:
        self._view.value = EVERYONE if seat is None else seat

    @property
    def reveal_all(self) -> bool:
        return self._reveal.value

    @reveal_all.setter
    def reveal_all(self, value: bool) -> None:
        self._reveal.value = bool(value) and self._reveal_control

    @property
    def reveal_control(self) -> bool:
        """Whether "Reveal all cards" is offered (False on a student's page: never revealed)."""
        return self._reveal_control

    @reveal_control.setter
    def reveal_control(self, allowed: bool) -> None:
        self._reveal_control = bool(allowed)
        row = self.children[3]
        kids = [w for w in row.children if w is not self._reveal]
        row.children = [kids[0], self._reveal, *kids[1:]] if allowed else kids
        if not allowed:
            self._reveal.value = False

    def go(self, index: int) -> None:
        """Show the table right after event `index` (clamped to the hand)."""
        index = max(0, min(int(index), len(self._events) - 1))
        if self._slider.value != index:
            self._slider.value = index  # the observer draws
        else:
            self._render(index)

    def next(self) -> None:
        self.go(self._index + 1)

    def back(self) -> None:
        self.go(self._index - 1)

    def first(self) -> None:
        self.go(0)

    def last(self) -> None:
        self.go(len(self._events) - 1)

    def text(self) -> str:
        """The current event: ``"#15 6♦ is rejected for Bob: … (R4.3)"``."""
        ev = self.event
        text = ev.text if self.reveal_all else sentence_for(ev, self.perspective)
        return f"#{ev.index} {text} ({ev.rule})"

    # ------------------------------------------------------------------ callbacks
    def _on_step(self, button: Button) -> None:
        name = next(n for n, b in self._steps.items() if b is button)
        {"first": self.first, "back": self.back, "next": self.next, "last": self.last}[name]()

    def _on_slider(self, change: dict) -> None:
        self._render(change["new"])

    def _on_speed(self, change: dict) -> None:
        self._play.interval = SPEEDS[change["new"]]

    def _on_option(self, _: dict) -> None:
        if self._reveal.value and not self._reveal_control:
            self._reveal.value = False  # not offered on this page: refused (draws again)
            return
        four = self._four.value
        self._table.four_color = four
        self._battle.four_color = four
        self._render(self._index)

    # ------------------------------------------------------------------ drawing
    def _dealer_at(self, index: int) -> int | None:
        dealer = None
        for ev in self._events[: index + 1]:
            if ev.kind == "dealer":
                dealer = ev.seat
        return dealer

    def _render(self, index: int) -> None:
        self._index = index
        last = len(self._events) - 1
        for name in ("first", "back"):
            self._steps[name].disabled = index <= 0
        for name in ("next", "last"):
            self._steps[name].disabled = index >= last
        game, viewer, reveal = self._game, self.perspective, self.reveal_all
        snap = game.state_at(index)
        self._table.show(
            snap,
            viewer,
            reveal,
            names=game.names,
            dealer=self._dealer_at(index),
            focus=self._events[index].seat,
        )
        ev = self._events[index]
        self._event.value = root(self._event_html(ev, viewer, reveal, last))
        if shows_battle(ev, viewer, reveal):
            self._battle.show_event(ev, game.names)
            self._battle.layout.display = None
        else:
            self._battle.layout.display = "none"

    def _event_html(self, ev: Event, viewer: int | None, reveal: bool, last: int) -> str:
        kind = KIND_TITLES.get(ev.kind, ev.kind.replace("_", " ").capitalize())
        extra = {
            "reject": " palace-event-reject",
            "battle": " palace-event-battle",
            "pot": " palace-event-pot",
        }.get(ev.kind, "")
        sentence = ev.text if reveal else sentence_for(ev, viewer)
        cards = ""
        if ev.cards:
            shown = [c for c in ev.cards if (reveal or sees_card(ev, c, viewer))]
            hidden = len(ev.cards) - len(shown)
            if ev.kind == "reject":
                cards = cards_html(
                    shown, four_color=self._four.value, struck={c: sentence for c in shown}
                )
            else:
                cards = cards_html(shown, four_color=self._four.value, empty="")
            if hidden:
                cards += cards_html(ev.cards[:hidden], face_down=True, empty="")
        head = (
            f'<div class="palace-event-head"><span class="palace-event-kind">{esc(kind)}</span>'
            f"{rule_badge(ev.rule, warn=ev.kind == 'reject')}"
            f"<span>event #{ev.index} of #{last} · {esc(str(ev.phase))}</span></div>"
        )
        body = (
            f'<div class="palace-event-body">{cards}'
            f'<div class="palace-event-text">{esc(sentence)}</div></div>'
        )
        return f'<div class="palace-event{extra}" data-kind="{esc(ev.kind)}">{head}{body}</div>'
