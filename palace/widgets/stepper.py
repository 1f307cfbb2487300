"""`DealStepper`: step or play through a hand's events, with the table and the rule of each step."""

from __future__ import annotations

import asyncio

from ipywidgets import (
    HTML,
    BoundedIntText,
    Button,
    Checkbox,
    Dropdown,
    HBox,
    Layout,
    ToggleButton,
    ToggleButtons,
    VBox,
)

from palace.events import Event, EventKind
from palace.game import Game
from palace.views import sees_card, sentence_for
from palace.widgets.battle_view import BattleView, shows_battle
from palace.widgets.cards import cards_html
from palace.widgets.labels import legend_html, rules_words
from palace.widgets.pacing import kernel_loop
from palace.widgets.sheets import with_sheets
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge
from palace.widgets.whole_hand import WHOLE_CSS, story_html

SPEEDS = {"slow": 1600, "normal": 900, "fast": 350}
EVERYONE = -1  # perspective dropdown value for the public view


def key_step(game: Game) -> int:
    """The step a teaching position is about: its first battle showdown, else its last event
    (where a Replay of a scenario opens)."""
    for ev in game.events:
        if ev.kind is EventKind.BATTLE:
            return ev.index
    return len(game.events) - 1


class DealStepper(VBox):
    """First / back / next / last, a Play button and a slider over `game.events`; under the
    step, the whole hand in a closed ``<details>`` block (every step's sentence and each
    battle's cards, as the view may see them), so a page without a kernel shows it all."""

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
        # every card shown without the control: a teaching position on a student's page
        self._whole = bool(reveal_all) and not reveal_control
        self._events = game.events
        last = len(self._events) - 1
        self._css = with_sheets(WHOLE_CSS)
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
        # a Play button with words (not ipywidgets' icon-only Play): the kernel steps on
        self._play = ToggleButton(
            value=False,
            description="Play",
            icon="play",
            tooltip="play the hand from here, one event at a time",
            layout=Layout(width="100px"),
        )
        self._timer: asyncio.TimerHandle | None = None
        # "Go to step" counts from 1, as the steps are shown; a number box (a labelled
        # input) rather than ipywidgets' slider, whose handle has no accessible name
        self._slider = BoundedIntText(
            value=1,
            min=1,
            max=last + 1,
            step=1,
            description="Go to step",
            tooltip="type a step number and press Enter",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=Layout(width="170px"),
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
            tooltip="show every hidden card",
            indent=False,
            layout=Layout(width="230px"),
        )
        self._four = Checkbox(
            value=four_color,
            description="Four-colour suits",
            tooltip="clubs green, diamonds blue",
            indent=False,
            layout=Layout(width="170px"),
        )
        self._event = HTML(layout=Layout(width="100%"))
        self._table = TableView(four_color=four_color)
        self._battle = BattleView(four_color=four_color)
        self._battle.layout.display = "none"
        self._play.observe(self._on_play, names="value")
        self._position = HTML()
        self._story = HTML(layout=Layout(width="100%"))

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
                f"{len(self._events)} steps · {esc(rules_words(game.rules))}</span>"
            )
        )
        controls = HBox(
            [
                *self._steps.values(),
                self._play,
                self._slider,
                self._position,
                self._speed,
            ],
            layout=Layout(flex_flow="row wrap", align_items="center"),
        )
        options = HBox(
            [self._view, self._reveal, self._four] if reveal_control else [self._view, self._four],
            layout=Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            [
                self._css,
                self._title,
                controls,
                options,
                self._event,
                self._table,
                HTML(root(legend_html("act", "focus", "best", "struck", "seen"))),
                self._battle,
                self._story,
            ],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-stepper")
        self._index = -2
        self._draw_story()
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
    def story_html(self) -> str:
        """The whole hand block: every event's sentence and each battle's cards, as the
        view may see them."""
        return self._story.value

    @property
    def slider(self) -> BoundedIntText:
        """Go to step: the step number shown, counted from 1."""
        return self._slider

    @property
    def play(self) -> ToggleButton:
        """Play / Pause: steps on by itself, one event every `speed` (in a running kernel)."""
        return self._play

    @property
    def four_color(self) -> bool:
        return bool(self._four.value)

    @four_color.setter
    def four_color(self, value: bool) -> None:
        self._four.value = bool(value)

    def tick(self) -> bool:
        """One step of Play: the next event; False (and Play stops) at the last one."""
        if self._index >= len(self._events) - 1:
            self._play.value = False
            return False
        self.next()
        return True

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
        """Every hidden card shown: by the instructor's switch, or (on a page without the
        switch) because the caller shows a teaching position whole."""
        return bool(self._reveal.value) or self._whole

    @reveal_all.setter
    def reveal_all(self, value: bool) -> None:
        if self._reveal_control:
            self._whole = False
            self._reveal.value = bool(value)
        else:
            self._whole = bool(value)
            self._draw_story()
            self._render(self._index)

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
        if self._slider.value != index + 1:
            self._slider.value = index + 1  # the observer draws
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
        """The current event: ``"Step 16 of 40: 6♦ is rejected for Bob: … (R4.3)"``."""
        ev = self.event
        text = ev.text if self.reveal_all else sentence_for(ev, self.perspective)
        return f"Step {ev.index + 1} of {len(self._events)}: {text} ({ev.rule})"

    # ------------------------------------------------------------------ callbacks
    def _on_step(self, button: Button) -> None:
        name = next(n for n, b in self._steps.items() if b is button)
        {"first": self.first, "back": self.back, "next": self.next, "last": self.last}[name]()

    def _on_slider(self, change: dict) -> None:
        self._render(int(change["new"]) - 1)

    def _on_speed(self, _change: dict) -> None:
        pass  # the next tick uses the new speed

    def _on_play(self, change: dict) -> None:
        self._play.description = "Pause" if change["new"] else "Play"
        self._play.icon = "pause" if change["new"] else "play"
        if not change["new"]:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return
        if self._index >= len(self._events) - 1:
            self.first()
        self._schedule()

    def _schedule(self) -> None:
        loop = kernel_loop()
        if loop is None:  # no kernel (tests): Play does nothing by itself
            return
        self._timer = loop.call_later(SPEEDS[self._speed.value] / 1000, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if self._play.value and self.tick():
            self._schedule()

    def _on_option(self, _: dict) -> None:
        if self._reveal.value and not self._reveal_control:
            self._reveal.value = False  # not offered on this page: refused (draws again)
            return
        four = self._four.value
        self._table.four_color = four
        self._battle.four_color = four
        self._draw_story()
        self._render(self._index)

    # ------------------------------------------------------------------ drawing
    def _draw_story(self) -> None:
        self._story.value = root(
            story_html(
                self._game, self.perspective, self.reveal_all, four_color=bool(self._four.value)
            )
        )

    def _dealer_at(self, index: int) -> int | None:
        dealer = None
        for ev in self._events[: index + 1]:
            if ev.kind is EventKind.DEALER:
                dealer = ev.seat
        return dealer

    def _render(self, index: int) -> None:
        self._index = index
        last = len(self._events) - 1
        for name in ("first", "back"):
            self._steps[name].disabled = index <= 0
        for name in ("next", "last"):
            self._steps[name].disabled = index >= last
        self._position.value = root(
            f'<span class="palace-note">step {index + 1} of {len(self._events)}</span>'
        )
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
        kind = ev.kind.heading
        extra = {
            EventKind.REJECT: " palace-event-reject",
            EventKind.BATTLE: " palace-event-battle",
            EventKind.POT: " palace-event-pot",
        }.get(ev.kind, "")
        sentence = ev.text if reveal else sentence_for(ev, viewer)
        cards = ""
        if ev.cards:
            shown = [c for c in ev.cards if (reveal or sees_card(ev, c, viewer))]
            hidden = len(ev.cards) - len(shown)
            if ev.kind is EventKind.REJECT:
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
            f"<span>step {ev.index + 1} of {last + 1} · {esc(str(ev.phase))}</span></div>"
        )
        body = (
            f'<div class="palace-event-body">{cards}'
            f'<div class="palace-event-text">{esc(sentence)}</div></div>'
        )
        return f'<div class="palace-event{extra}" data-kind="{esc(ev.kind)}">{head}{body}</div>'
