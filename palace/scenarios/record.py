"""The `Scenario` record: one checked teaching position, the games it deals, its JSON form.

The record replays itself (deal, then each action, an illegal one refused as a
`ScenarioError`) and checks its expectations on the games it reaches (`checks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from palace.actions import Action
from palace.errors import PalaceError
from palace.game import Game
from palace.numbers import is_whole
from palace.rules import Rules
from palace.scenarios.checks import check_state, checkpoints, final_state
from palace.scenarios.schema import FORMAT, ScenarioError, thaw


@dataclass(frozen=True)
class Scenario:
    """One checked teaching position: its metadata, setup and the actions that reach it.

    `game()` deals the hand and applies every action; `game_at(k)` stops after the
    first `k`. `expect` is the (read-only) dict of what must hold, checked on load.
    """

    id: str
    title: str
    summary: str
    rules: tuple[str, ...]
    players: tuple[str, ...]
    dealer: int | None
    seed: int
    variant: Rules
    deck: tuple[str, ...] | None
    actions: tuple[Action, ...]
    expect: Mapping[str, Any] = field(compare=False, repr=False)
    question: str | None = None
    answer: str | None = None
    source: str = field(default="", compare=False)

    @property
    def n_actions(self) -> int:
        """How many player actions the scenario takes."""
        return len(self.actions)

    @property
    def where(self) -> str:
        """How messages name the scenario: its file (or ``upload``), else its id."""
        return self.source or self.id

    def game(self) -> Game:
        """A fresh `Game`, dealt from the scenario's setup, after all its actions."""
        return self.game_at(len(self.actions))

    def game_at(self, k: int) -> Game:
        """A fresh `Game` after the first `k` actions (0: right after the deal)."""
        if not is_whole(k) or not 0 <= k <= len(self.actions):
            raise ScenarioError(
                f"{self.id}: game_at needs a whole number 0-{len(self.actions)}, got {k!r}"
            )
        g = self._deal()
        for i, a in enumerate(self.actions[:k]):
            self._act(g, a, i)
        return g

    def check(self) -> None:
        """Replay the scenario and check every expectation; raises `ScenarioError`.

        The hand is dealt and stepped through once; each checkpoint is checked on the
        live game when its action count is reached (checks only read the game).
        """
        expect = thaw(self.expect)
        due = checkpoints(expect, self.where)
        g = self._deal()
        for label, state in due.get(0, ()):
            check_state(g, state, self.players, label)
        for i, a in enumerate(self.actions):
            self._act(g, a, i)
            for label, state in due.get(i + 1, ()):
                check_state(g, state, self.players, label)
        check_state(g, final_state(expect), self.players, f"{self.where}: expect")

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a JSON-ready dict in the ``palace-scenario/1`` format."""
        d: dict[str, Any] = {
            "format": FORMAT,
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "rules": list(self.rules),
            "players": list(self.players),
            "dealer": self.dealer,
            "seed": self.seed,
        }
        if self.variant.changes():
            d["variant"] = self.variant.to_dict()
        if self.deck is not None:
            d["deck"] = " ".join(self.deck)
        d["actions"] = [action_json(a) for a in self.actions]
        d["expect"] = thaw(self.expect)
        if self.question is not None:
            d["question"] = self.question
        if self.answer is not None:
            d["answer"] = self.answer
        return d

    # ------------------------------------------------------------------ replay
    def _deal(self) -> Game:
        try:
            return Game.new(
                players=list(self.players),
                seed=self.seed,
                rules=self.variant,
                deck=None if self.deck is None else list(self.deck),
                dealer=self.dealer,
            )
        except PalaceError as exc:
            raise ScenarioError(f"{self.where}: the hand cannot be dealt: {exc}") from None

    def _act(self, g: Game, a: Action, i: int) -> None:
        reason = g.why_illegal(a)
        if reason is not None:
            who = g.names[g.to_act] if g.to_act is not None else "nobody"
            raise ScenarioError(
                f"{self.where}: actions[{i}] ({g.describe(a)} by {who}) is illegal: {reason}"
            )
        g.apply(a)


def action_json(a: Action) -> dict[str, Any]:
    """An action as a scenario writes it: `Action.to_dict` without a null amount."""
    d = a.to_dict()
    return {k: v for k, v in d.items() if not (k == "amount" and v is None)}
