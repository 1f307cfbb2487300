"""`PlayController`: one hand, the human seats and the bots; panels act through it and listen."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from palace.actions import Action
from palace.analysis.bots import Bot, RuleBot
from palace.errors import IllegalActionError, PalaceError
from palace.events import Event
from palace.game import Game
from palace.rules import Rules

Listener = Callable[[list[Event]], None]
MAX_BOT_STEPS = 10_000


class PlayController:
    """Holds the game; `act` applies a human action, `advance_bots` lets bots play on.

    human: the learner's seat (or seats). bots: seat -> bot; by default a `RuleBot` for
    every other seat. Listeners get the new events after every change (an empty list
    after `undo` or `new_hand`, which replace the game).

    >>> c = PlayController(players=3, human=0, seed=1)
    >>> c.game.to_act in c.humans or c.game.is_over
    True
    """

    def __init__(
        self,
        game: Game | None = None,
        *,
        human: int | Iterable[int] = 0,
        bots: dict[int, Bot] | None = None,
        players: int | Sequence[str] = 4,
        seed: int = 7,
        rules: Rules | None = None,
        deck: str | Sequence[str] | None = None,
        dealer: int | None = None,
        bot_factory: Callable[[int], Bot] | None = None,
        auto: bool = True,
    ) -> None:
        self.humans: frozenset[int] = frozenset([human] if isinstance(human, int) else human)
        self._bot_factory = bot_factory or (lambda seat: RuleBot())
        self._fixed_bots = bots
        self._setup: dict[str, Any] = {
            "players": players,
            "seed": seed,
            "rules": rules,
            "deck": deck,
            "dealer": dealer,
        }
        self.auto = auto
        self._listeners: list[Listener] = []
        self.bots: dict[int, Bot] = {}
        self._actors: list[int] = []
        if game is None:
            game = Game.new(players, seed, rules, deck, dealer=dealer)
        else:
            self._setup.update(players=list(game.names), seed=game.seed, rules=game.rules)
        self._set_game(game)
        if self.auto:
            self.advance_bots(notify=False)

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        return self._game

    @property
    def seat(self) -> int:
        """The (first) human seat."""
        return min(self.humans)

    @property
    def is_human_turn(self) -> bool:
        return not self._game.is_over and self._game.to_act in self.humans

    @property
    def actors(self) -> tuple[int, ...]:
        """The seat that took each of `game.actions`."""
        return tuple(self._actors)

    def _set_game(self, game: Game) -> None:
        bad = [s for s in self.humans if not 0 <= s < game.players]
        if bad:
            raise PalaceError(f"human seat {bad[0]} is not a seat 0-{game.players - 1}")
        self._game = game
        if self._fixed_bots is not None:
            self.bots = dict(self._fixed_bots)
        else:
            self.bots = {
                s: self._bot_factory(s) for s in range(game.players) if s not in self.humans
            }
        # who took each action so far: replay the actions on a fresh copy
        probe = game.replay(0)
        self._actors = []
        for a in game.actions:
            actor = probe.to_act
            assert actor is not None  # an action was taken, so someone was to act
            self._actors.append(actor)
            probe.apply(a)

    # ------------------------------------------------------------------ listeners
    def add_listener(self, fn: Listener) -> None:
        """Call `fn(events)` after every change of the game."""
        self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        self._listeners.remove(fn)

    def _notify(self, events: list[Event]) -> None:
        for fn in list(self._listeners):
            fn(events)

    # ------------------------------------------------------------------ acting
    def act(self, action: Action, *, advance: bool | None = None) -> list[Event]:
        """Apply the human's action (IllegalActionError names the rule), then let bots play."""
        g = self._game
        if g.is_over:
            raise IllegalActionError("the hand is over: no more actions (R9, R10)")
        seat = g.to_act
        if seat is None or seat not in self.humans:
            who = "nobody's" if seat is None else f"{g.names[seat]}'s"
            raise IllegalActionError(f"it is {who} turn, not yours")
        events = list(g.apply(action))
        self._actors.append(seat)
        if self.auto if advance is None else advance:
            events += self.advance_bots(notify=False)
        self._notify(events)
        return events

    @property
    def bot_to_act(self) -> bool:
        """Is the next decision a bot's?"""
        g = self._game
        seat = g.to_act
        return not g.is_over and seat is not None and seat not in self.humans and seat in self.bots

    def bot_step(self, *, notify: bool = True) -> list[Event]:
        """Let the bot whose decision it is take one action (none when it is not a bot's)."""
        if not self.bot_to_act:
            return []
        g = self._game
        seat = g.to_act
        assert seat is not None
        action = self.bots[seat].choose(g.view(seat))
        events = list(g.apply(action))
        self._actors.append(seat)
        if notify and events:
            self._notify(events)
        return events

    def advance_bots(self, *, notify: bool = True) -> list[Event]:
        """Let the bots act until a human must decide or the hand is over."""
        events: list[Event] = []
        for _ in range(MAX_BOT_STEPS):
            step = self.bot_step(notify=False)
            if not step:
                break
            events += step
        if notify and events:
            self._notify(events)
        return events

    def undo(self) -> None:
        """Go back to the human's last decision (taking back the bots' replies too)."""
        humans = [i for i, s in enumerate(self._actors) if s in self.humans]
        if not humans:
            raise PalaceError("nothing to undo: you have not acted in this hand yet")
        k = humans[-1]
        self._game = self._game.replay(k)
        self._actors = self._actors[:k]
        self._notify([])

    def new_hand(
        self,
        seed: int | None = None,
        *,
        players: int | Sequence[str] | None = None,
        rules: Rules | None = None,
        deck: str | Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> Game:
        """Deal a new hand (the next seed by default) and let the bots play to the learner."""
        s = self._setup
        if players is not None:
            s["players"] = players
        if rules is not None:
            s["rules"] = rules
        s["deck"] = deck
        s["dealer"] = dealer
        s["seed"] = s["seed"] + 1 if seed is None else seed
        game = Game.new(s["players"], s["seed"], s["rules"], s["deck"], dealer=s["dealer"])
        self._set_game(game)
        if self.auto:
            self.advance_bots(notify=False)
        self._notify([])
        return game
