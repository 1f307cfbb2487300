"""A `Match`: several hands in a row, the deal passing left (R2.3), with running totals.

>>> from palace.analysis.bots import RuleBot
>>> m = Match(players=3, seed=5)
>>> for _ in range(3):
...     g = m.play_hand({s: RuleBot() for s in range(3)})
>>> first = m.hands[0].dealer
>>> [g.dealer for g in m.hands] == [first, (first + 1) % 3, (first + 2) % 3]
True
>>> sum(m.totals)
0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from palace.actions import Action
from palace.errors import PalaceError
from palace.game import Game, player_names
from palace.rules import STANDARD, Rules
from palace.views import SeatView


class Bot(Protocol):
    """Anything that picks a legal action from a seat's view (it never sees the game)."""

    def choose(self, view: SeatView) -> Action: ...


class EngineBot:
    """The base of the engine's own bots (`RuleBot`, `RandomBot`): compiled, `play_out` calls
    their `choose` straight, where another bot's is a Python method call."""

    def choose(self, view: SeatView) -> Action:
        raise NotImplementedError


def play_out(game: Game, bots: Mapping[int, Bot], *, stop_at_human: bool = False) -> Game:
    """Let bots act until the hand is over (or, with `stop_at_human`, a seat without a bot)."""
    while not game.is_over:
        seat = game.to_act
        if seat is None:
            raise PalaceError("a card is due: a game with manual chance needs apply_chance")
        # The same calls on either branch: narrowed to a dict and to an `EngineBot`, compiled
        # code makes them straight, not as Python method calls (2% of a rule-bot hand).
        if isinstance(bots, dict):
            bot = bots.get(seat)
        else:
            bot = bots.get(seat)
        if bot is None:
            if stop_at_human:
                return game
            raise PalaceError(f"no bot for seat {seat} ({game.names[seat]})")
        # the view goes before the game moves, so the game need not list its legal actions
        if isinstance(bot, EngineBot):
            action = bot.choose(game.view(seat))
        else:
            action = bot.choose(game.view(seat))
        game.apply(action)
    return game


class Match:
    """Hands dealt in turn; `totals` is each player's net chips (won minus put in)."""

    def __init__(
        self, players: int | Sequence[str] = 4, seed: int = 7, rules: Rules | None = None
    ) -> None:
        self.names = player_names(players)
        self.seed = seed
        self.rules = STANDARD if rules is None else rules
        self.hands: list[Game] = []
        self.totals = [0] * len(self.names)
        self.stacks: list[int] | None = (
            [self.rules.stacks] * len(self.names) if self.rules.stacks is not None else None
        )

    @property
    def current(self) -> Game | None:
        return self.hands[-1] if self.hands else None

    def next_dealer(self) -> int | None:
        """None for the first hand (R2.1 draw), then one seat left of the last dealer (R2.3)."""
        if not self.hands:
            return None
        return (self.hands[-1].dealer + 1) % len(self.names)

    def new_hand(self) -> Game:
        """Deal the next hand; the previous one must be over."""
        if self.hands and not self.hands[-1].is_over:
            raise PalaceError("the current hand is not over yet: finish it before dealing the next")
        if self.stacks is not None and sum(1 for s in self.stacks if s > 0) < 2:
            raise PalaceError("fewer than two players have chips left: the match is over (R3.4)")
        seed = self.seed * 1_000 + len(self.hands)
        g = Game.new(
            players=self.names,
            seed=seed,
            rules=self.rules,
            dealer=self.next_dealer(),
            stacks=self.stacks,
        )
        self.hands.append(g)
        return g

    def record(self, game: Game) -> None:
        """Add a finished hand's result to the running totals (called by `play_hand`)."""
        if not game.is_over:
            raise PalaceError("only a finished hand can be recorded")
        for s in range(len(self.names)):
            self.totals[s] += game.won[s] - game.put_in[s]
        if self.stacks is not None and game.stacks is not None:
            self.stacks = list(game.stacks)

    def play_hand(self, bots: Mapping[int, Bot]) -> Game:
        """Deal a hand, let the bots play it out, record it and return it."""
        g = self.new_hand()
        play_out(g, bots)
        self.record(g)
        return g

    def table(self):
        """A pandas DataFrame: one row per hand, net chips per player, plus totals."""
        import pandas as pd

        rows = []
        for i, g in enumerate(self.hands, 1):
            if not g.is_over:
                continue
            row = {"hand": i, "dealer": self.names[g.dealer], "pot": sum(g.won)}
            for s, n in enumerate(self.names):
                row[n] = g.won[s] - g.put_in[s]
            rows.append(row)
        return pd.DataFrame(rows).set_index("hand") if rows else pd.DataFrame()
