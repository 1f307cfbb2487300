"""`Narration`: what the other players did since the learner's last move, newest marked.

>>> from palace.game import Game
>>> g = Game.new(players=3, seed=2)
>>> n = Narration()
>>> n.show(g, seat=0, since=len(g.events)); n.lines
[]
"""

from __future__ import annotations

from collections.abc import Mapping

from ipywidgets import HTML, Layout

from palace.events import Event
from palace.game import Game
from palace.views import sentence_for
from palace.widgets.theme import esc, root, rule_badge

NARRATED = frozenset(
    (
        "buy",
        "trim",
        "discard",
        "stay",
        "fold",
        "bet",
        "raise",
        "call",
        "battle",
        "out",
        "both_out",
        "capture",
        "reshuffle",
        "two_left",
        "turn_limit",
        "hand_end",
        "quiet_round",
        "showdown",
        "pot",
    )
)


class Narration(HTML):
    """The others' moves since event `since`, one sentence each as `seat` may read it;
    the newest is highlighted (what just changed). Hidden while there is nothing to say.
    A move may carry a note (a bot's reason), shown under its sentence."""

    def __init__(self, title: str = "Meanwhile") -> None:
        super().__init__(layout=Layout(width="100%", display="none"))
        self._title = title
        self._lines: list[tuple[Event, str]] = []
        self._notes: dict[int, str] = {}

    @property
    def lines(self) -> list[str]:
        return [text for _, text in self._lines]

    @property
    def last_seat(self) -> int | None:
        """The seat the newest narrated event is about (to ring on the table)."""
        return self._lines[-1][0].seat if self._lines else None

    @property
    def notes(self) -> list[str]:
        """The notes shown, in order (each under the sentence of its move)."""
        return [self._notes[e.index] for e, _ in self._lines if e.index in self._notes]

    def show(
        self,
        game: Game,
        seat: int | None,
        since: int,
        *,
        reveal: bool = False,
        notes: Mapping[int, str] | None = None,
    ) -> None:
        """Narrate `game.events[since:]` that are not `seat`'s own turn actions; `notes`
        maps an event's index to a note shown under it (a bot's reason for that move)."""
        own = {"buy", "trim", "discard", "stay", "fold", "bet", "raise", "call"}
        self._lines = [
            (e, e.text if reveal else sentence_for(e, seat))
            for e in game.events[since:]
            if e.kind in NARRATED and not (e.seat == seat and e.kind in own)
        ]
        shown = {e.index for e, _ in self._lines}
        self._notes = {i: n for i, n in (notes or {}).items() if i in shown and n}
        if not self._lines:
            self.value = ""
            self.layout.display = "none"
            return
        rows = []
        for i, (e, text) in enumerate(self._lines):
            new = " palace-new" if i == len(self._lines) - 1 else ""
            rows.append(
                f'<div class="palace-narration-line{new}">{rule_badge(e.rule)} {esc(text)}</div>'
            )
            if e.index in self._notes:
                rows.append(
                    '<div class="palace-narration-why" style="margin:0 0 3px 2.2em;'
                    'font-size:0.92em;color:#4c1d95"><b>Why:</b> '
                    f"{esc(self._notes[e.index])}</div>"
                )
        self.value = root(
            f'<div class="palace-narration" aria-live="polite"><div class="palace-section">'
            f"{esc(self._title)}</div>{''.join(rows)}</div>"
        )
        self.layout.display = None

    def text(self) -> list[str]:
        """The narration as plain-text lines (none while hidden)."""
        if not self._lines:
            return []
        out = [f"== {self._title} =="]
        for e, text in self._lines:
            out.append(text)
            if e.index in self._notes:
                out.append(f"    why: {self._notes[e.index]}")
        return out
