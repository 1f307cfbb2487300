"""Dealing a scenario's hand and applying its actions; a refusal is a `ScenarioError`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palace.actions import Action
from palace.errors import PalaceError
from palace.game import Game
from palace.scenarios.schema import ScenarioError

if TYPE_CHECKING:
    from palace.scenarios.record import Scenario


def _new_game(s: Scenario, where: str) -> Game:
    try:
        return Game.new(
            players=list(s.players),
            seed=s.seed,
            rules=s.variant,
            deck=None if s.deck is None else list(s.deck),
            dealer=s.dealer,
        )
    except PalaceError as exc:
        raise ScenarioError(f"{where}: the hand cannot be dealt: {exc}") from None


def _apply(g: Game, a: Action, i: int, where: str) -> None:
    reason = g.why_illegal(a)
    if reason is not None:
        who = g.names[g.to_act] if g.to_act is not None else "nobody"
        raise ScenarioError(
            f"{where}: actions[{i}] ({g.describe(a)} by {who}) is illegal: {reason}"
        )
    g.apply(a)
