"""The `Scenario` record: one checked teaching position, the games it deals, its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from palace.actions import Action
from palace.game import Game
from palace.rules import Rules
from palace.scenarios.checks import _check_expectations
from palace.scenarios.replay import _apply, _new_game
from palace.scenarios.schema import FORMAT, ScenarioError, _thaw


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

    def game(self) -> Game:
        """A fresh `Game`, dealt from the scenario's setup, after all its actions."""
        return self.game_at(len(self.actions))

    def game_at(self, k: int) -> Game:
        """A fresh `Game` after the first `k` actions (0: right after the deal)."""
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= len(self.actions):
            raise ScenarioError(
                f"{self.id}: game_at needs a whole number 0-{len(self.actions)}, got {k!r}"
            )
        g = _new_game(self, self.source or self.id)
        for i, a in enumerate(self.actions[:k]):
            _apply(g, a, i, self.source or self.id)
        return g

    def check(self) -> None:
        """Replay the scenario and check every expectation; raises `ScenarioError`."""
        _check_expectations(self, self.source or self.id)

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
        d["actions"] = [_action_json(a) for a in self.actions]
        d["expect"] = _thaw(self.expect)
        if self.question is not None:
            d["question"] = self.question
        if self.answer is not None:
            d["answer"] = self.answer
        return d


def _action_json(a: Action) -> dict[str, Any]:
    d = a.to_dict()
    return {k: v for k, v in d.items() if not (k == "amount" and v is None)}
