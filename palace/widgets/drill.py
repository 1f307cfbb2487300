"""`Drill`: endless practice — a generated question, a hint, Check, Another one, a running score.

The questions come from generators (``palace.lessons.drills``): each takes a seeded
`random.Random` and returns an `Exercise` whose answer the engine computed for that very
position. The panel never stores an answer by hand: it only compares the learner's pick
with the exercise's.

>>> import random
>>> def coin(rng: random.Random) -> Exercise:
...     n = rng.randint(1, 6)
...     return Exercise(f"Is {n} even?", ("Yes", "No"), "Yes" if n % 2 == 0 else "No",
...                     hint="Even numbers end in 0, 2, 4, 6 or 8.", explanation=f"{n}.")
>>> d = Drill([coin], seed=1)
>>> d.choose(d.exercise.answer); d.check(); d.score
(1, 1)
>>> before = d.exercise.key; d.another(); d.exercise.key != before
True
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ipywidgets import HTML, Button, HBox, Layout, VBox

from palace.classroom import Recorder, record
from palace.numbers import is_whole
from palace.widgets.sheets import with_sheets
from palace.widgets.theme import esc, root, rule_badge

DRILL_CSS = """<style>
.palace-drill { background: #f7fbff; border: 1px solid #bfdbfe; border-left: 7px solid #1d4ed8;
  border-radius: 14px; padding: 10px 16px 12px; }
.palace-drill-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.palace-drill-title { font-size: 13px; font-weight: 750; text-transform: uppercase;
  letter-spacing: .06em; color: #1e3a8a; }
.palace-drill-score { margin-left: auto; font-size: 14px; font-weight: 650; color: #1f2937;
  background: #e0ecff; border-radius: 999px; padding: 2px 12px; }
.palace-drill-q { font-size: 17px; font-weight: 600; color: #111827; margin-top: 4px; }
.palace-drill-hint { background: #fffbeb; border: 1px solid #fcd34d; border-radius: 10px;
  padding: 6px 12px; font-size: 14.5px; color: #78350f; }
.palace-drill-right, .palace-drill-wrong { border-radius: 12px; padding: 10px 14px;
  font-size: 15px; color: #1f2937; }
.palace-drill-right { background: #f0fdf4; border: 2px solid #15803d; }
.palace-drill-wrong { background: #fef2f2; border: 2px solid #b91c1c; }
.palace-drill-verdict { font-size: 17px; font-weight: 700; margin-bottom: 4px; }
.palace-drill-right .palace-drill-verdict { color: #166534; }
.palace-drill-wrong .palace-drill-verdict { color: #991b1b; }
.palace-drill-armies { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 10px; margin-top: 8px; }
</style>"""

PICK = "Pick an answer, then press Check. Stuck? Press Hint."
ANSWER_CSS = """<style>
.palace-answer { border: 1px dashed #94a3b8; border-radius: 10px; padding: 4px 12px;
  font-size: 14.5px; color: #1f2937; }
.palace-answer > summary { cursor: pointer; font-weight: 650; color: #1e3a8a; }
</style>"""


def answer_html(answer: str, explanation: str, extra: str = "") -> str:
    """The answer and why, behind a closed ``<details>`` element: a page without a kernel
    (or a reader who would rather not press Check) can still read it, after thinking."""
    return (
        '<details class="palace-answer"><summary>Show the answer</summary>'
        f"<p><b>Answer: {esc(answer)}.</b> {esc(explanation)}</p>{extra}</details>"
    )


MAX_TRIES = 50  # draws before giving up on a position different from the last one


@dataclass(frozen=True)
class Exercise:
    """One generated question and the engine's answer for it.

    choices: the buttons' labels; answer: the right one. hint: a nudge shown before the
    answer; explanation: why (the engine's words). rules: clause badges. extra_html: cards
    or a table drawn under the question. key: what makes this position this one (two
    exercises with the same key are the same question). position: the engine objects the
    question was made from (armies, a game, cards), so a test can check the answer.
    """

    question: str
    choices: tuple[str, ...]
    answer: str
    hint: str = ""
    explanation: str = ""
    rules: tuple[str, ...] = ()
    extra_html: str = ""
    kind: str = ""
    key: str = ""
    position: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.choices) < 2 or len(set(self.choices)) != len(self.choices):
            raise ValueError(f"an exercise needs two or more different choices: {self.choices!r}")
        if self.answer not in self.choices:
            raise ValueError(f"the answer {self.answer!r} is not one of {self.choices!r}")
        if not self.key:
            object.__setattr__(self, "key", f"{self.question}|{self.extra_html}")


Generator = Callable[[random.Random], Exercise]


class Drill(VBox):
    """Practice without end: one question at a time from `generators`, picked at random.

    Pick a choice, press Hint for a nudge, Check to see if you were right and why, and
    Another one for a new position. The score counts each question once, at its first
    Check, for as long as the panel lives (the session). Each first Check is also an answer
    for the class (`palace.classroom`): ``recorder(question_id, correct, answer)``, by
    default the student who joined the class on this page (nothing when nobody has); the
    question id is the drill's title and the kind of question, e.g.
    ``"drill/battles/who-wins"``, so the dashboard counts each kind of question.
    """

    def __init__(
        self,
        generators: Sequence[Generator] | Mapping[str, Generator],
        *,
        seed: int = 0,
        title: str = "Drill",
        recorder: Recorder | None = None,
    ) -> None:
        gens = list(generators.values()) if isinstance(generators, Mapping) else list(generators)
        if not gens:
            raise ValueError("a Drill needs at least one question generator")
        self._gens = gens
        self._rng = random.Random(seed)
        self._title = title
        self.recorder: Recorder | None = recorder  # None: palace.classroom.record
        self._right = 0
        self._answered = 0
        self._picked: str | None = None
        self._checked = False
        self._hinted = False
        self._exercise: Exercise = self._draw_exercise(None)

        self._css = with_sheets(DRILL_CSS, ANSWER_CSS)
        self._head = HTML()
        self._choices_box = HBox(layout=Layout(flex_flow="row wrap", grid_gap="8px"))
        self._buttons: dict[str, Button] = {}
        self._check = Button(
            description="Check", button_style="primary", layout=Layout(width="110px")
        )
        self._hint_button = Button(description="Hint", layout=Layout(width="100px"))
        self._another = Button(
            description="Another one", button_style="success", layout=Layout(width="140px")
        )
        self._check.on_click(lambda _: self.check())
        self._hint_button.on_click(lambda _: self.hint())
        self._another.on_click(lambda _: self.another())
        self._status = HTML()
        self._hint_html = HTML()
        self._verdict = HTML()
        super().__init__(
            [
                self._css,
                self._head,
                self._choices_box,
                HBox(
                    [self._check, self._hint_button, self._another],
                    layout=Layout(flex_flow="row wrap", grid_gap="8px", align_items="center"),
                ),
                self._status,
                self._hint_html,
                self._verdict,
            ],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-drill")
        self._new_buttons()
        self._draw()

    # ------------------------------------------------------------------ public
    @property
    def exercise(self) -> Exercise:
        """The question shown now."""
        return self._exercise

    @property
    def score(self) -> tuple[int, int]:
        """(right, answered) this session."""
        return self._right, self._answered

    @property
    def picked(self) -> str | None:
        return self._picked

    @property
    def checked(self) -> bool:
        return self._checked

    @property
    def hinted(self) -> bool:
        return self._hinted

    @property
    def correct(self) -> bool | None:
        """After Check: was the pick right? None before."""
        return None if not self._checked else self._picked == self._exercise.answer

    @property
    def check_button(self) -> Button:
        return self._check

    @property
    def hint_button(self) -> Button:
        return self._hint_button

    @property
    def another_button(self) -> Button:
        return self._another

    @property
    def html(self) -> str:
        """Everything the panel draws as HTML (question, hint, and the verdict after Check,
        before it the answer behind a closed ``<details>``)."""
        return self._head.value + self._hint_html.value + self._verdict.value

    def button(self, choice: str | int) -> Button:
        """The button of a choice (its label or index)."""
        if isinstance(choice, int):
            return self._buttons[self._exercise.choices[choice]]
        return self._buttons[choice]

    def choose(self, choice: str | int) -> None:
        """Pick an answer (as its button does); ignored once checked."""
        if self._checked:
            return
        label = self._exercise.choices[choice] if is_whole(choice) else choice
        if label not in self._buttons:
            raise ValueError(f"{choice!r} is not one of {self._exercise.choices!r}")
        self._picked = label
        self._draw()
        self._check.focus()

    def hint(self) -> None:
        """Show the hint (before the answer)."""
        self._hinted = True
        self._draw()

    def check(self) -> None:
        """Say whether the pick is right, and why; counts towards the score once."""
        if self._picked is None:
            self._say(PICK)
            return
        if not self._checked:
            self._answered += 1
            correct = self._picked == self._exercise.answer
            self._right += int(correct)
            self._record(correct)
        self._checked = True
        self._draw()
        self._another.focus()

    def another(self) -> None:
        """A new position (never the same as the one shown)."""
        self._exercise = self._draw_exercise(self._exercise.key)
        self._picked = None
        self._checked = False
        self._hinted = False
        self._new_buttons()
        self._draw()
        first = next(iter(self._buttons.values()))
        first.focus()

    @property
    def question_id(self) -> str:
        """The id the class dashboard counts this question under."""
        title = re.sub(r"[^a-z0-9]+", "-", self._title.lower()).strip("-") or "drill"
        return f"drill/{title}/{self._exercise.kind}"

    # ------------------------------------------------------------------ internals
    def _record(self, correct: bool) -> None:
        try:
            (self.recorder or record)(self.question_id, correct, self._picked or "")
        except Exception:  # noqa: BLE001 - a broken recorder must not break the drill
            logging.getLogger("palace.widgets").exception("Drill: the recorder failed")

    def _draw_exercise(self, avoid: str | None) -> Exercise:
        for _ in range(MAX_TRIES):
            ex = self._rng.choice(self._gens)(self._rng)
            if ex.key != avoid:
                return ex
        raise RuntimeError("the drill's generators keep giving the same position")

    def _new_buttons(self) -> None:
        for b in self._buttons.values():
            b.close()
        self._buttons = {}
        for c in self._exercise.choices:
            b = Button(description=c, tooltip=c, layout=Layout(width="auto", flex="none"))
            b.on_click(self._on_choice)
            self._buttons[c] = b
        self._choices_box.children = list(self._buttons.values())

    def _on_choice(self, button: Button) -> None:
        self.choose(next(c for c, b in self._buttons.items() if b is button))

    def _say(self, text: str) -> None:
        self._status.value = root(f'<div class="palace-quiz-hint" role="status">{esc(text)}</div>')

    def _score_text(self) -> str:
        right, answered = self.score
        if not answered:
            return "Score: none answered yet"
        return f"Score: {right} right of {answered}"

    def _draw(self) -> None:
        ex = self._exercise
        badges = " ".join(rule_badge(r) for r in ex.rules)
        self._head.value = root(
            '<div class="palace-drill-head">'
            f'<span class="palace-drill-title">↻ {esc(self._title)}</span>{badges}'
            f'<span class="palace-drill-score" role="status">{esc(self._score_text())}</span>'
            f'</div><div class="palace-drill-q">{esc(ex.question)}</div>{ex.extra_html}'
        )
        for c, b in self._buttons.items():
            b.disabled = self._checked
            if self._checked and c == ex.answer:
                b.button_style, b.icon = "success", "check"
            elif self._checked and c == self._picked:
                b.button_style, b.icon = "danger", "times"
            elif c == self._picked:
                b.button_style, b.icon = "info", "hand-o-right"
            else:
                b.button_style, b.icon = "", ""
        self._check.disabled = self._checked
        self._hint_button.disabled = self._hinted or self._checked or not ex.hint
        if self._picked is None:
            self._say(PICK)
        elif not self._checked:
            self._say(f"Your pick: {self._picked}. Press Check.")
        else:
            self._status.value = ""
        self._hint_html.value = (
            root(f'<div class="palace-drill-hint"><b>Hint.</b> {esc(ex.hint)}</div>')
            if self._hinted and not self._checked
            else ""
        )
        if self._checked:
            ok = self.correct
            cls = "palace-drill-right" if ok else "palace-drill-wrong"
            self._verdict.value = root(
                f'<div class="{cls}" role="status"><div class="palace-drill-verdict">'
                f"{esc(self._verdict_text())}</div><div>{esc(ex.explanation)}</div></div>"
            )
        else:
            self._verdict.value = root(answer_html(ex.answer, ex.explanation))

    def _verdict_text(self) -> str:
        if self.correct:
            return f"✓ Right: {self._exercise.answer}."
        return f"✗ Not quite: you picked “{self._picked}”; the answer is “{self._exercise.answer}”."

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The drill in plain text: title and score, question, choices, hint, verdict."""
        ex = self._exercise
        marks = [f"[{'x' if c == self._picked else ' '}] {c}" for c in ex.choices]
        lines = [
            f"↻ {self._title} · {self._score_text()}",
            f"Q: {ex.question}",
            "Choices: " + " · ".join(marks),
        ]
        if self._hinted and not self._checked:
            lines.append(f"Hint: {ex.hint}")
        if self._checked:
            lines += [self._verdict_text(), f"Why: {ex.explanation}"]
        else:
            lines.append(PICK if self._picked is None else "Press Check.")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Drill({self._title!r})"

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        """The widget view, with `text()` as its plain-text alternative."""
        data = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = self.text()
        return data


def drill_of(generators: Iterable[Generator], *, seed: int = 0, title: str = "Drill") -> Drill:
    """A `Drill` of these generators (a convenience for notebooks)."""
    return Drill(list(generators), seed=seed, title=title)
