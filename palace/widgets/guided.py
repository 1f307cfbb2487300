"""`GuidedHand`: a first hand played step by step — one idea a step, the learner presses the
real action buttons, the other players follow a script, and the table shows what changed.

The lesson gives the steps (`GuideStep`) and a `start()` that deals the scripted hand and
names the bots; the panel only checks that the learner's action is the one the step
asks for (every other action is held back with the step's words, the engine still
refusing what the rules forbid).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ipywidgets import HTML, Button, HBox, Layout, VBox

from palace.actions import Action
from palace.analysis.bots import Bot
from palace.events import Event, EventKind
from palace.game import Game
from palace.widgets.action_picker import ActionPicker
from palace.widgets.hand_log import LatestBattle
from palace.widgets.labels import legend_html
from palace.widgets.narration import Narration
from palace.widgets.session import PlayController
from palace.widgets.sheets import with_sheets
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge
from palace.widgets.whole_hand import WHOLE_CSS, details_html, event_rows

GUIDE_CSS = """<style>
.palace-guide { background: #fffdf5; border: 2px solid #f2b705; border-radius: 16px;
  padding: 12px 18px; }
.palace-guide-step { font-size: 13px; font-weight: 750; text-transform: uppercase;
  letter-spacing: .06em; color: #92400e; }
.palace-guide-title { font-size: 21px; font-weight: 750; color: #111827; margin: 2px 0 4px; }
.palace-guide-text { font-size: 16.5px; line-height: 1.5; color: #1f2937; }
.palace-guide-do { margin-top: 8px; font-size: 16px; font-weight: 650; color: #1e3a8a; }
.palace-guide-dots { display: flex; gap: 5px; margin-top: 8px; }
.palace-guide-dot { width: 12px; height: 12px; border-radius: 50%; background: #e5e7eb;
  border: 1px solid #6b7280; }
.palace-guide-dot.palace-done { background: #15803d; border-color: #15803d; }
.palace-guide-dot.palace-now { background: #f2b705; border-color: #92400e; }
</style>"""

Start = Callable[[], tuple[Game, Mapping[int, Bot]]]


@dataclass(frozen=True)
class GuideStep:
    """One idea of the guided hand.

    text: what to read. do: what to press (shown under the text). expect: the action the
    learner takes to go on ("buy", "keep" for keeping every soldier, "trim", "stay",
    "bet:2" to attack seat 2, "call", ...) or None for the Next button. battle: show the
    latest battle under the table.
    """

    title: str
    text: str
    do: str = "Press Next."
    expect: str | None = None
    rules: tuple[str, ...] = ()
    battle: bool = False

    def wants(self, action: Action) -> bool:
        """Is `action` the one this step asks for?"""
        if self.expect is None:
            return False
        kind, _, target = self.expect.partition(":")
        if kind == "keep":
            return action.kind == "trim" and not getattr(action, "cards", ())
        if action.kind != kind:
            return False
        return not target or getattr(action, "target", None) == int(target)


def story_html(
    start: Start,
    steps: Sequence[GuideStep],
    *,
    seat: int = 0,
    title: str = "Your first hand",
    four_color: bool = False,
) -> str:
    """The whole guided hand played as its steps ask, in a closed ``<details>`` block: each
    step's words, then what happened after it (as `seat` reads it, with each battle's
    cards), so a page without a kernel can follow the hand from the first step to the last.
    """
    game, bots = start()
    ctl = PlayController(game, human=seat, bots=dict(bots), auto=True)
    since = len(ctl.game.events)
    parts = []
    for i, step in enumerate(steps):
        g = ctl.game
        events = g.events[since:]
        happened = (
            f"<ol>{event_rows(g, events, seat, False, four_color=four_color)}</ol>"
            if events
            else ""
        )
        badges = " ".join(rule_badge(r) for r in step.rules)
        parts.append(
            f'<div class="palace-whole-step"><div class="palace-whole-step-head">Step {i + 1} '
            f"of {len(steps)}: {esc(step.title)} {badges}</div>{happened}"
            f'<div class="palace-guide-text">{esc(step.text)}</div></div>'
        )
        since = len(g.events)  # each event is told once, at the first step after it
        if step.expect is None:
            continue
        action = next((a for a in g.legal_actions() if step.wants(a)), None)
        if action is None or g.is_over:
            break  # the script and the steps disagree: the story stops where they part
        ctl.act(action)
    summary = f"{title}: the whole hand, step by step ({len(steps)} steps)"
    return details_html(summary, "".join(parts))


class GuidedHand(VBox):
    """A scripted first hand, one `GuideStep` at a time, for the learner's `seat`; under the
    guide, the whole hand played as the steps ask (`story_html`), for a page without a
    kernel and for a reader who wants to read ahead."""

    def __init__(
        self,
        start: Start,
        steps: Sequence[GuideStep],
        *,
        seat: int = 0,
        title: str = "Your first hand",
        four_color: bool = False,
    ) -> None:
        if not steps:
            raise ValueError("a guided hand needs at least one step")
        self._start = start
        self._steps = tuple(steps)
        self._seat = seat
        self._title = title
        self._four = four_color
        self._index = 0
        self._since = 0
        self._css = with_sheets(GUIDE_CSS, WHOLE_CSS)
        self._guide = HTML()
        self._next = Button(
            description="Next",
            icon="arrow-right",
            button_style="primary",
            tooltip="go on to the next step",
            layout=Layout(width="120px"),
        )
        self._again = Button(
            description="Start over",
            icon="undo",
            tooltip="deal this first hand again from the beginning",
            layout=Layout(width="130px"),
        )
        self._next.on_click(lambda _: self.next())
        self._again.on_click(lambda _: self.restart())
        self._narration = Narration("What the others did")
        self._table = TableView(four_color=four_color)
        self._legend = HTML(root(legend_html("best", "struck", "act", "focus")))
        self._battle = LatestBattle("The battle", four_color=four_color)
        self._picker_box = VBox(layout=Layout(width="100%"))
        self._ctl: PlayController | None = None
        self._picker: ActionPicker | None = None
        guide_box = VBox(
            [
                self._guide,
                HBox(
                    [self._next, self._again], layout=Layout(grid_gap="8px", flex_flow="row wrap")
                ),
            ],
            layout=Layout(grid_gap="6px"),
        )
        guide_box.add_class("palace-guide")
        self._story = HTML(
            root(story_html(start, self._steps, seat=seat, title=title, four_color=four_color)),
            layout=Layout(width="100%"),
        )
        super().__init__(
            [
                self._css,
                guide_box,
                self._story,
                self._battle,
                self._narration,
                self._table,
                self._legend,
                self._picker_box,
            ],
            layout=Layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-guided")
        self.restart()

    # ------------------------------------------------------------------ public
    @property
    def game(self) -> Game:
        assert self._ctl is not None
        return self._ctl.game

    @property
    def picker(self) -> ActionPicker:
        assert self._picker is not None
        return self._picker

    @property
    def table(self) -> TableView:
        return self._table

    @property
    def battle(self) -> LatestBattle:
        return self._battle

    @property
    def story_html(self) -> str:
        """The whole hand block (every step's words, what happened, each battle's cards)."""
        return self._story.value

    @property
    def narration(self) -> Narration:
        return self._narration

    @property
    def step(self) -> GuideStep:
        return self._steps[self._index]

    @property
    def index(self) -> int:
        """The step shown now, from 0."""
        return self._index

    @property
    def steps(self) -> tuple[GuideStep, ...]:
        return self._steps

    @property
    def finished(self) -> bool:
        """Is the last step shown?"""
        return self._index == len(self._steps) - 1

    @property
    def next_button(self) -> Button:
        return self._next

    @property
    def again_button(self) -> Button:
        return self._again

    def next(self) -> bool:
        """Go on from a reading step (False when the step wants an action, or at the end)."""
        if self.step.expect is not None or self.finished:
            return False
        self._go(self._index + 1)
        return True

    def restart(self) -> None:
        """Deal the scripted hand again and go back to the first step."""
        game, bots = self._start()
        old = self._picker
        self._ctl = PlayController(game, human=self._seat, bots=dict(bots), auto=True)
        self._picker = ActionPicker(self._ctl, self._seat, four_color=self._four, coach=self._coach)
        self._picker.on_action(self._on_action)
        self._ctl.add_listener(self._on_change)
        self._picker_box.children = [self._picker]
        if old is not None:
            old.close()
        self._since = len(game.events)
        self._go(0)

    # ------------------------------------------------------------------ internals
    def _coach(self, action: Action) -> str | None:
        step = self.step
        if step.wants(action):
            return None
        if step.expect is None:
            return "first read the guide above and press Next"
        return f"in this first hand, follow the guide: {step.do}"

    def _on_action(self, action: Action, events: list[Event]) -> None:
        self._since = events[0].index if events else len(self.game.events)
        if self.step.wants(action) and not self.finished:
            self._go(self._index + 1)

    def _on_change(self, _events: list[Event]) -> None:
        self._draw()

    def _go(self, index: int) -> None:
        self._index = index
        self._draw()
        self.picker.refresh()
        if self.step.expect is None and not self.finished:
            self._next.focus()
        else:
            self.picker.focus_prompt()

    def _draw(self) -> None:
        step, n = self.step, len(self._steps)
        badges = " ".join(rule_badge(r) for r in step.rules)
        dots = "".join(
            '<span class="palace-guide-dot'
            + (" palace-done" if i < self._index else " palace-now" if i == self._index else "")
            + '"></span>'
            for i in range(n)
        )
        self._guide.value = root(
            f'<div class="palace-guide-step">{esc(self._title)} · step {self._index + 1} of '
            f'{n}</div><div class="palace-guide-title">{esc(step.title)} {badges}</div>'
            f'<div class="palace-guide-text">{esc(step.text)}</div>'
            f'<div class="palace-guide-do" role="status" aria-live="polite">{esc(step.do)}</div>'
            f'<div class="palace-guide-dots" aria-hidden="true">{dots}</div>'
        )
        self._next.disabled = step.expect is not None or self.finished
        self._narration.show(self.game, self._seat, self._since)
        self._table.show(self.game, perspective=self._seat, focus=self._narration.last_seat)
        if (
            step.battle
            or self._index > 0
            and any(e.kind is EventKind.BATTLE for e in self.game.events)
        ):
            self._battle.show(self.game, self._seat, False)
        else:
            self._battle.layout.display = "none"

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The step, the table, the buttons and the battle in plain text."""
        step = self.step
        lines = [
            f"{self._title} · step {self._index + 1} of {len(self._steps)}: {step.title}",
            step.text,
            f"To do: {step.do}",
            *self._narration.text(),
            "== Table ==",
            self._table.text(),
            "== Your actions ==",
            self.picker.text(),
        ]
        if self._battle.shown:
            lines += self._battle.text()
        return "\n".join(lines)
