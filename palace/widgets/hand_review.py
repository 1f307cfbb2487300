"""`HandReview`: after a hand, each of the learner's decisions beside the exact battle odds
they had at that moment ("you attacked Cat at 38%"), from `palace.analysis.odds`.

>>> from palace.game import Game
>>> from palace.analysis.bots import RuleBot, play_out
>>> g = play_out(Game.new(players=3, seed=4), {s: RuleBot() for s in range(3)})
>>> actors = [None] * len(g.actions)
>>> probe = g.replay(0)
>>> for i, a in enumerate(g.actions):
...     actors[i] = probe.to_act; _ = probe.apply(a)
>>> lines = review(g, 0, actors)
>>> all(d.line.startswith("You ") for d in lines)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ipywidgets import HTML, Layout

from palace.actions import Action, Bet
from palace.analysis.odds import Odds, battle_odds, battle_targets
from palace.errors import PalaceError
from palace.events import Phase
from palace.game import Game
from palace.widgets.action_picker import odds_bar_html
from palace.widgets.theme import esc, root

REVIEWED = ("buy", "discard", "stay", "fold", "bet", "call", "raise")


@dataclass(frozen=True)
class Decision:
    """One decision of the learner: what they did, and the odds they had then."""

    number: int
    action: Action
    line: str
    odds: Odds | None
    against: str


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _did(state: Game, seat: int, action: Action) -> tuple[str, int | None]:
    """What the learner did, in the past tense, and the seat it was about (if any)."""
    names = state.names
    b = state.battle
    foe = None
    if state.phase is Phase.BATTLE_RESPONSE and b is not None:
        foe = b.attacker if seat == b.defender else b.defender
    kind = action.kind
    if isinstance(action, Bet):
        return f"You attacked {names[action.target]}", action.target
    if kind == "call" and foe is not None:
        return f"You called {names[foe]}", foe
    if kind == "raise" and foe is not None:
        return f"You raised {names[foe]}", foe
    if kind == "fold" and foe is not None:
        return f"You folded to {names[foe]}", foe
    words = {
        "buy": "You bought a soldier",
        "discard": "You discarded",
        "stay": "You stayed",
        "fold": "You folded",
    }
    return words[kind], None


def review(game: Game, seat: int, actors: Sequence[int | None]) -> list[Decision]:
    """Each turn or battle decision `seat` took in `game` (`actors[i]` took action i), with
    the odds of the battle it was about, or of its best battle then."""
    if len(actors) != len(game.actions):
        raise PalaceError("review needs the seat of every action of the hand")
    out: list[Decision] = []
    for k, (who, action) in enumerate(zip(actors, game.actions, strict=True)):
        if who != seat or action.kind not in REVIEWED:
            continue
        state = game.replay(k)
        view = state.view(seat)
        did, about = _did(state, seat, action)
        targets = battle_targets(view)
        odds: Odds | None = None
        against = ""
        if about is not None and about in targets:
            odds = battle_odds(view, about)
            against = state.names[about]
            line = f"{did} at {_pct(odds.win)}: {odds.text(against)}."
        elif targets:
            every = [battle_odds(view, t) for t in targets]
            odds = max(every, key=lambda o: (o.win, -o.lose))
            against = state.names[odds.target]
            line = (
                f"{did}. Your best battle then: {_pct(odds.win)} against {against} "
                f"({odds.text(against)})."
            )
        else:
            line = f"{did}. No battle was possible then."
        out.append(Decision(len(out) + 1, action, line, odds, against))
    return out


class HandReview(HTML):
    """The review of a finished hand for one seat; hidden until `show` has a hand over."""

    def __init__(self) -> None:
        super().__init__(layout=Layout(width="100%", display="none"))
        self._decisions: list[Decision] = []
        self._name = ""

    @property
    def decisions(self) -> list[Decision]:
        return list(self._decisions)

    def show(self, game: Game, seat: int, actors: Sequence[int | None]) -> None:
        """Review `seat`'s decisions if the hand is over (else hide)."""
        if not game.is_over:
            self.clear()
            return
        self._decisions = review(game, seat, actors)
        self._name = game.names[seat]
        rows = []
        for d in self._decisions:
            bar = odds_bar_html(d.odds.win, d.odds.tie, d.odds.lose) if d.odds else ""
            rows.append(
                f'<li class="palace-review-line"><span class="palace-odds">{bar}'
                f"<span>{esc(d.line)}</span></span></li>"
            )
        body = "".join(rows) or "<li>You took no decision in this hand.</li>"
        self.value = root(
            f'<div class="palace-review-box"><div class="palace-section">Your hand in review, '
            f"{esc(self._name)}: each decision beside the exact odds you had then</div>"
            f'<ol class="palace-review">{body}</ol></div>'
        )
        self.layout.display = None

    def clear(self) -> None:
        self._decisions = []
        self.value = ""
        self.layout.display = "none"

    def text(self) -> list[str]:
        if self.layout.display == "none":
            return []
        lines = [f"== Your hand in review, {self._name} =="]
        lines += [f"{d.number}. {d.line}" for d in self._decisions] or ["No decisions."]
        return lines
