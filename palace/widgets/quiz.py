"""`CheckYourself`: a lesson's exercise — a question, choice buttons, and a Reveal button.

The learner picks an answer, presses Reveal, and reads whether the pick was right and
why. The explanation comes from the engine (a `BattleResult`'s explanation, an event's
sentence, a refusal's reason, a scenario's answer), so it can never disagree with the
game.

>>> q = CheckYourself("Does a suit ever outrank another?", ["Yes", "No"], "No",
...                   "Suits have no rank anywhere in the game (R1.2).", rules=["R1.2"])
>>> q.choose("No"); q.reveal(); q.correct
True
>>> print(q.text().splitlines()[-1])
Why: Suits have no rank anywhere in the game (R1.2).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence

from ipywidgets import HTML, Button, HBox, Layout, VBox, Widget

from palace.battle import Army, BattleResult, resolve_battle
from palace.classroom import Recorder, record
from palace.hands import evaluate
from palace.numbers import is_whole
from palace.scenarios import Scenario
from palace.widgets.battle_view import BattleView, army_rows_html, side_head_html
from palace.widgets.cards import cards_html
from palace.widgets.drill import ANSWER_CSS, answer_html
from palace.widgets.sheets import with_sheets
from palace.widgets.theme import esc, root, rule_badge, symbols

log = logging.getLogger("palace.widgets")

QUIZ_CSS = """<style>
.palace-quiz-box { background: #fffdf5; border: 1px solid #f2d98a; border-left: 7px solid #f2b705;
  border-radius: 14px; padding: 10px 16px 12px; }
.palace-quiz-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap;
  margin-bottom: 4px; }
.palace-quiz-title { font-size: 13px; font-weight: 750; text-transform: uppercase;
  letter-spacing: .06em; color: #92400e; }
.palace-quiz-q { font-size: 17px; font-weight: 600; color: #111827; }
.palace-quiz-armies { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr));
  gap: 10px; margin-top: 8px; }
.palace-quiz-hint { font-size: 14px; color: #6b7280; font-style: italic; }
.palace-quiz-right, .palace-quiz-wrong { border-radius: 12px; padding: 10px 14px;
  font-size: 15px; }
.palace-quiz-right { background: #f0fdf4; border: 2px solid #15803d; }
.palace-quiz-wrong { background: #fef2f2; border: 2px solid #b91c1c; }
.palace-quiz-verdict { font-size: 17px; font-weight: 700; margin-bottom: 4px; }
.palace-quiz-right .palace-quiz-verdict { color: #166534; }
.palace-quiz-wrong .palace-quiz-verdict { color: #991b1b; }
.palace-quiz-why { color: #1f2937; line-height: 1.45; }
</style>"""

PICK_FIRST = "Pick an answer, then press Reveal."
TIE_CHOICE = "Still tied: both are out (R8.6)"


def army_html(name: str, role: str, army: Army, *, four_color: bool = False) -> str:
    """One army face up (banner, soldiers, palace), nothing struck out: the question's view."""
    head = side_head_html(name, role, army.suit)
    rows = army_rows_html(army, four_color=four_color, small=True)
    return f'<div class="palace-side">{head}{rows}</div>'


def default_question_id(question: str, choices: Sequence[str], answer: str) -> str:
    """A question's id for the class dashboard: its text (cut) and a short hash that tells
    apart two questions worded alike (the same words over other armies)."""
    digest = hashlib.sha1("\x1f".join([question, *choices, answer]).encode()).hexdigest()[:6]
    text = " ".join(question.split())
    return f"{text[:150]} #{digest}"


class CheckYourself(VBox):
    """A question with choice buttons; Reveal says if the pick was right and explains why.

    question: the text asked. choices: the buttons' labels. answer: the right choice (a
    label or its index). explanation: why (from the engine). rules: clause badges shown
    by the title. extra_html: shown under the question (e.g. cards). reveal_widget: a
    widget shown only after Reveal (e.g. a `BattleView` of the showdown).

    Every Reveal is an answer for the class (`palace.classroom`): ``recorder(question_id,
    correct, picked)`` is called, by default `palace.classroom.record`, which records for
    the student who joined the class on this page and does nothing otherwise. question_id:
    how the teacher's dashboard names the question (default: its text and a short hash of
    its choices and answer).
    """

    def __init__(
        self,
        question: str,
        choices: Sequence[str],
        answer: str | int,
        explanation: str,
        *,
        title: str = "Check yourself",
        rules: Iterable[str] = (),
        extra_html: str = "",
        reveal_widget: Widget | None = None,
        question_id: str | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self._choices = tuple(str(c) for c in choices)
        if len(self._choices) < 2 or len(set(self._choices)) != len(self._choices):
            raise ValueError(f"CheckYourself needs two or more different choices, got {choices!r}")
        if is_whole(answer):
            if not 0 <= answer < len(self._choices):
                raise ValueError(f"answer index {answer} is not one of the {len(choices)} choices")
            answer = self._choices[answer]
        if answer not in self._choices:
            raise ValueError(f"answer {answer!r} is not one of the choices {self._choices!r}")
        self._question = question
        self._answer = str(answer)
        self._explanation = explanation
        self._title = title
        self._rules = tuple(rules)
        self._picked: str | None = None
        self._revealed = False
        self.question_id = question_id or default_question_id(question, self._choices, self._answer)
        self.recorder: Recorder | None = recorder  # None: palace.classroom.record

        self._css = with_sheets(QUIZ_CSS, ANSWER_CSS)
        badges = " ".join(rule_badge(r) for r in self._rules)
        self._head = HTML(
            root(
                '<div class="palace-quiz-head">'
                f'<span class="palace-quiz-title">✎ {esc(title)}</span>{badges}</div>'
                f'<div class="palace-quiz-q">{esc(question)}</div>{extra_html}'
            )
        )
        self._buttons: dict[str, Button] = {}
        for c in self._choices:
            b = Button(
                description=c,
                tooltip=c,
                layout=Layout(width="auto", min_width="150px", flex="none"),
            )
            b.on_click(self._on_choice)
            self._buttons[c] = b
        self._reveal = Button(
            description="Reveal",
            icon="eye",
            button_style="warning",
            disabled=True,
            tooltip=PICK_FIRST,
            layout=Layout(width="120px"),
        )
        self._reset = Button(
            description="Try again",
            icon="undo",
            tooltip="hide the answer and pick again",
            layout=Layout(width="130px", display="none"),
        )
        self._reveal.on_click(lambda _: self.reveal())
        self._reset.on_click(lambda _: self.reset())
        self._hint = HTML()
        self._verdict = HTML()
        self._extra = reveal_widget
        box = [
            self._css,
            self._head,
            HBox(
                list(self._buttons.values()),
                layout=Layout(flex_flow="row wrap", grid_gap="8px"),
            ),
            HBox(
                [self._reveal, self._reset, self._hint],
                layout=Layout(align_items="center", grid_gap="10px"),
            ),
            self._verdict,
        ]
        if reveal_widget is not None:
            reveal_widget.layout.display = "none"
            box.append(reveal_widget)
        super().__init__(box, layout=Layout(width="100%", grid_gap="8px"))
        self.add_class("palace-panel")
        self.add_class("palace-quiz")
        self.add_class("palace-quiz-box")
        self._draw()

    # ------------------------------------------------------------------ factories
    @classmethod
    def battle(
        cls,
        attacker: Army,
        defender: Army,
        names: Sequence[str] = ("Ann", "Bob"),
        *,
        question: str | None = None,
        title: str = "Check yourself: who wins the battle?",
        note: str = "",
        without_exclusion: bool = False,
        four_color: bool = False,
    ) -> CheckYourself:
        """Predict a battle's winner; Reveal shows the engine's showdown (R8).

        note: words added after the engine's explanation. without_exclusion: also say who
        would have won had every card counted (what banner-suit exclusion changed, R8.2).
        """
        an, dn = names[0], names[1]
        res: BattleResult = resolve_battle(attacker, defender)
        if without_exclusion:
            pa, pb = evaluate(attacker.cards), evaluate(defender.cards)
            who = f"{an} would win" if pa > pb else f"{dn} would win" if pb > pa else "a tie"
            note = (
                f"Had every card counted — {an}: {pa.describe()}; {dn}: {pb.describe()} — {who}. "
                + note
            )
        answer = {"attacker": f"{an} wins", "defender": f"{dn} wins", None: TIE_CHOICE}[res.winner]
        view = BattleView(four_color=four_color)
        view.show_result(attacker, defender, (an, dn), res)
        armies = (
            '<div class="palace-quiz-armies">'
            f"{army_html(an, 'attacker', attacker, four_color=four_color)}"
            f"{army_html(dn, 'defender', defender, four_color=four_color)}</div>"
        )
        q = question or f"{an} attacks {dn} and {dn} calls. Who wins the showdown?"
        return cls(
            q,
            [f"{an} wins", f"{dn} wins", TIE_CHOICE],
            answer,
            f"{res.explain(an, dn)} {note}".strip(),
            title=title,
            rules=sorted({"R8.2", res.rule}),
            extra_html=armies,
            reveal_widget=view,
        )

    @classmethod
    def hands(
        cls,
        first: str,
        second: str,
        names: Sequence[str] = ("Ann", "Bob"),
        *,
        question: str | None = None,
        title: str = "Check yourself: which hand is higher?",
        four_color: bool = False,
    ) -> CheckYourself:
        """Compare two players' best hands (R1.3, R8.1: best five of all their cards)."""
        a, b = evaluate(first), evaluate(second)
        an, bn = names[0], names[1]
        choices = [f"{an}'s hand", f"{bn}'s hand", "They are equal"]
        answer = 0 if a > b else 1 if b > a else 2
        verdict = (
            f"{an}'s hand is higher"
            if a > b
            else f"{bn}'s hand is higher"
            if b > a
            else "The hands are equal: suits have no rank (R1.2)"
        )
        explanation = (
            f"{an}: {a.describe()} (best five {symbols(a.best)}). "
            f"{bn}: {b.describe()} (best five {symbols(b.best)}). {verdict} (R1.3)."
        )
        rows = "".join(
            f'<div class="palace-side"><div class="palace-side-head">'
            f'<span class="palace-name">{esc(n)}</span></div>'
            f"{cards_html(h.cards, four_color=four_color, small=True)}</div>"
            for n, h in ((an, a), (bn, b))
        )
        return cls(
            question or "Each player's best five cards count. Whose hand is higher?",
            choices,
            answer,
            explanation,
            title=title,
            rules=["R1.3"],
            extra_html=f'<div class="palace-quiz-armies">{rows}</div>',
        )

    @classmethod
    def scenario(
        cls,
        scenario: Scenario,
        choices: Sequence[str],
        answer: str | int,
        *,
        question: str | None = None,
    ) -> CheckYourself:
        """A teaching scenario's question (or `question`); its answer text explains."""
        return cls(
            question or scenario.question or scenario.summary,
            choices,
            answer,
            scenario.answer or scenario.summary,
            title=f"Check yourself: {scenario.title}",
            rules=scenario.rules,
        )

    # ------------------------------------------------------------------ public
    @property
    def question(self) -> str:
        return self._question

    @property
    def choices(self) -> tuple[str, ...]:
        return self._choices

    @property
    def answer(self) -> str:
        return self._answer

    @property
    def explanation(self) -> str:
        return self._explanation

    @property
    def picked(self) -> str | None:
        """The learner's current pick (None before any)."""
        return self._picked

    @property
    def revealed(self) -> bool:
        return self._revealed

    @property
    def correct(self) -> bool | None:
        """After Reveal: was the pick right? None before Reveal."""
        return None if not self._revealed else self._picked == self._answer

    @property
    def html(self) -> str:
        """What the exercise draws: the question (with its cards), the hint line and, after
        Reveal, the verdict with the explanation (before it, the answer behind a closed
        ``<details>``, for a page without a kernel)."""
        return self._head.value + self._hint.value + self._verdict.value

    @property
    def reveal_button(self) -> Button:
        return self._reveal

    @property
    def reset_button(self) -> Button:
        return self._reset

    def button(self, choice: str | int) -> Button:
        """The button of a choice (its label or index)."""
        if isinstance(choice, int):
            return self._buttons[self._choices[choice]]
        return self._buttons[choice]

    def choose(self, choice: str | int) -> None:
        """Pick a choice (as clicking its button does); ignored once revealed."""
        if self._revealed:
            return
        label = self._choices[choice] if is_whole(choice) else choice
        if label not in self._buttons:
            raise ValueError(f"{choice!r} is not one of the choices {self._choices!r}")
        self._picked = label
        self._draw()

    def reveal(self) -> None:
        """Show whether the pick was right and the explanation (needs a pick first)."""
        if self._picked is None:
            self._hint.value = root(f'<span class="palace-quiz-hint">{PICK_FIRST}</span>')
            return
        if self._revealed:
            return  # one answer per pick: Try again makes the next one
        self._revealed = True
        self._draw()
        try:
            (self.recorder or record)(self.question_id, self._picked == self._answer, self._picked)
        except Exception:  # noqa: BLE001 - a broken recorder must not break the exercise
            log.exception("CheckYourself: the recorder failed for %s", self.question_id)

    def reset(self) -> None:
        """Hide the answer and clear the pick."""
        self._picked = None
        self._revealed = False
        self._draw()

    # ------------------------------------------------------------------ drawing
    def _on_choice(self, button: Button) -> None:
        self.choose(next(c for c, b in self._buttons.items() if b is button))

    def _draw(self) -> None:
        for c, b in self._buttons.items():
            b.disabled = self._revealed
            if self._revealed and c == self._answer:
                b.button_style, b.icon = "success", "check"
            elif self._revealed and c == self._picked:
                b.button_style, b.icon = "danger", "times"
            elif c == self._picked:
                b.button_style, b.icon = "info", "hand-o-right"
            else:
                b.button_style, b.icon = "", ""
        self._reveal.disabled = self._picked is None or self._revealed
        self._reveal.layout.display = "none" if self._revealed else None
        self._reset.layout.display = None if self._revealed else "none"
        if self._picked is None:
            self._hint.value = root(f'<span class="palace-quiz-hint">{PICK_FIRST}</span>')
        elif not self._revealed:
            self._hint.value = root(
                f'<span class="palace-quiz-hint">Your pick: <b>{esc(self._picked)}</b>. '
                "Press Reveal to check.</span>"
            )
        else:
            self._hint.value = ""
        if self._revealed:
            ok = self.correct
            cls = "palace-quiz-right" if ok else "palace-quiz-wrong"
            self._verdict.value = root(
                f'<div class="{cls}" role="status">'
                f'<div class="palace-quiz-verdict">{esc(self._verdict_text())}</div>'
                f'<div class="palace-quiz-why">{esc(self._explanation)}</div></div>'
            )
        else:
            shown = getattr(self._extra, "html", "")  # e.g. a BattleView's showdown
            self._verdict.value = root(
                answer_html(
                    self._answer, self._explanation, shown if isinstance(shown, str) else ""
                )
            )
        if self._extra is not None:
            self._extra.layout.display = None if self._revealed else "none"

    def _verdict_text(self) -> str:
        if self.correct:
            return f"✓ Right: {self._answer}."
        return f"✗ Not quite: you picked “{self._picked}”; the answer is “{self._answer}”."

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The exercise in plain text: question, choices (pick marked), verdict and why."""
        marks = []
        for c in self._choices:
            mark = "x" if c == self._picked else " "
            marks.append(f"[{mark}] {c}")
        lines = [f"✎ {self._title}", f"Q: {self._question}", "Choices: " + " · ".join(marks)]
        if not self._revealed:
            lines.append(PICK_FIRST if self._picked is None else "Press Reveal to check.")
        else:
            lines.append(self._verdict_text())
            lines.append(f"Why: {self._explanation}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"CheckYourself({self._question!r})"

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        """The widget view, with `text()` as its plain-text alternative (not a cut repr)."""
        data = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = self.text()
        return data
