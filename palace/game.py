"""`Game`: one hand of Palace Poker as a state machine with legal actions and an event log.

>>> g = Game.new(players=3, seed=1)
>>> g.phase, g.names[g.to_act]
(<Phase.TURN: 'turn'>, 'Ann')
>>> [str(a) for a in g.legal_actions()]
['Buy', 'Bet against seat 1', 'Bet against seat 2', 'Stay', 'Fold']
>>> from palace.actions import Stay
>>> g.apply(Stay())[0].text
'Ann stays.'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from palace import checks, deal, play, strict
from palace.actions import Action, Bet, action_from_dict
from palace.cards import Card, new_deck, parse_cards
from palace.errors import CardError, DeckError, IllegalActionError, PalaceError, StateError
from palace.events import Event, Phase
from palace.numbers import is_whole
from palace.rules import Rules
from palace.table import DEFAULT_NAMES, Snapshot, Table, fold_events, zone_names

FORMAT = "palace-hand/1"


def _names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool):
        raise PalaceError(
            f"players must be a number 2-10 or a list of names, got {players!r} (R1.1)"
        )
    if isinstance(players, int):
        if not 2 <= players <= 10:
            raise PalaceError(f"players must be 2 to 10, got {strict.shown(players)} (R1.1)")
        return DEFAULT_NAMES[:players]
    if isinstance(players, (str, bytes, bytearray)) or not isinstance(players, Sequence):
        raise PalaceError(
            f"players must be a number 2-10 or a list of names, got {strict.shown(players)} (R1.1)"
        )
    return strict.names(players, "players", error=PalaceError)


def _scripted_deck(deck: Any, rng: random.Random) -> list[Card]:
    """The scripted cards on top, then the rest of the deck in seeded random order."""
    try:
        top = list(parse_cards(deck))
    except CardError as exc:
        raise DeckError(f"deck: {exc}") from None
    seen: set[Card] = set()
    for c in top:
        if c in seen:
            raise DeckError(f"deck: {c} appears twice; a deck has each of the 52 cards once (R1.2)")
        seen.add(c)
    rest = [c for c in new_deck() if c not in seen]
    rng.shuffle(rest)
    return top + rest


class Game:
    """One hand: create with `Game.new`, then `legal_actions()` and `apply(action)`."""

    def __init__(self, table: Table, rng: random.Random, setup: dict[str, Any]) -> None:
        self._t = table
        self._rng = rng
        self._setup = setup
        self._actions: list[Action] = []

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        players: int | Sequence[str] = 4,
        seed: int = 7,
        rules: Rules | None = None,
        deck: str | Sequence[str | Card] | None = None,
        *,
        dealer: int | None = None,
        stacks: Sequence[int] | None = None,
    ) -> Game:
        """Deal a new hand.

        players: 2-10, or their names (R1.1). seed: every shuffle comes from it.
        deck: scripted cards, top first, for lessons (the rest follows in seeded order;
        with a scripted deck the palace deal does not reshuffle, so the script decides
        the palaces too). dealer: skip R2's draw and let this seat deal (R2.3).
        stacks: chips behind for each seat when `rules.stacks` is set (a match carries them).
        """
        names = _names(players)
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise PalaceError(f"rules must be a Rules, got {type(rules).__name__}")
        if not is_whole(seed):
            raise PalaceError(f"seed must be a whole number, got {seed!r}")
        n = len(names)
        if dealer is not None and (not is_whole(dealer) or not 0 <= dealer < n):
            raise PalaceError(f"dealer must be a seat 0-{n - 1}, got {dealer!r} (R2.3)")
        if stacks is not None:
            if rules.stacks is None:
                raise PalaceError("stacks given but rules.stacks is None (R3.4)")
            stacks = list(stacks)
            if len(stacks) != n or any(not isinstance(x, int) or x < 0 for x in stacks):
                raise PalaceError(f"stacks must be {n} whole numbers >= 0 (R3.4)")
        rng = random.Random(seed)
        script = None if deck is None else _scripted_deck(deck, random.Random(seed))
        setup = {
            "players": list(names),
            "seed": seed,
            "rules": rules,
            "deck": None if script is None else [str(c) for c in script],
            "dealer": dealer,
            "stacks": stacks,
        }
        t = Table(
            names=names,
            rules=rules,
            dealer=dealer if dealer is not None else 0,
            zones={z: [] for z in zone_names(n)},
            stacks=(list(stacks) if stacks is not None else [rules.stacks] * n)
            if rules.stacks is not None
            else None,
            put_in=[0] * n,
            won=[0] * n,
            active=[True] * n,
        )
        t.zones["deck"] = new_deck()
        if dealer is None:
            deal.select_dealer(t, rng)
        else:
            t.record("dealer", dealer, f"{t.name(dealer)} deals this hand.", "R2.3")
        if script is not None:
            t.record(
                "stack",
                None,
                "The deck is arranged for this lesson (a scripted deck).",
                "R2.2",
                detail={"order": {"deck": tuple(script)}},
            )
        elif dealer is not None:
            deal.shuffle_zone(t, rng, "deck", "The deck is shuffled before the hand.", "R2.2")
        deal.take_antes(t)
        deal.deal_banners(t, rng)
        deal.deal_palaces(t, rng, shuffle=script is None)
        t.phase = Phase.TURN
        t.to_act = t.left_of(t.dealer)
        g = cls(t, rng, setup)
        t.record(
            "start", t.to_act, f"Play starts with {t.name(t.to_act)}, left of the dealer.", "R6.1"
        )
        if checks.must_battle(t) or play._ending(t):
            pass  # two players always have different banner suits (R4.2), so play goes on
        return g

    # ---------------------------------------------------------------- reading
    @property
    def names(self) -> tuple[str, ...]:
        return self._t.names

    @property
    def players(self) -> int:
        return self._t.players

    @property
    def rules(self) -> Rules:
        return self._t.rules

    @property
    def seed(self) -> int:
        return self._setup["seed"]

    @property
    def dealer(self) -> int:
        return self._t.dealer

    @property
    def phase(self) -> Phase:
        return self._t.phase

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or None when the hand is over."""
        return self._t.to_act

    @property
    def pot(self) -> int:
        return self._t.pot

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._t.events)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The players' actions so far, in order (with the setup, they replay the hand)."""
        return tuple(self._actions)

    @property
    def is_over(self) -> bool:
        return self._t.phase is Phase.HAND_OVER

    @property
    def result(self) -> play.HandResult | None:
        """Who won what, once the hand is over (R10)."""
        return self._t.result

    @property
    def battle(self):
        """The open battle (attacker, defender, owed, paid), or None."""
        return self._t.battle

    @property
    def active(self) -> tuple[bool, ...]:
        return tuple(self._t.active)

    @property
    def put_in(self) -> tuple[int, ...]:
        return tuple(self._t.put_in)

    @property
    def won(self) -> tuple[int, ...]:
        return tuple(self._t.won)

    @property
    def stacks(self) -> tuple[int, ...] | None:
        return None if self._t.stacks is None else tuple(self._t.stacks)

    def zones(self) -> dict[str, tuple[Card, ...]]:
        """Every zone and its cards; each of the 52 cards is in exactly one zone."""
        return {k: tuple(v) for k, v in self._t.zones.items()}

    def banner(self, seat: int) -> Card:
        return self._t.cards(seat, "banner")[0] if self._t.cards(seat, "banner") else None  # type: ignore[return-value]

    def soldiers(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._t.cards(seat, "soldiers"))

    def palace(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._t.cards(seat, "palace"))

    def min_attack(self, seat: int) -> int:
        """R7.3 minimum attack for this seat now."""
        return checks.min_attack(self._t, seat)

    def raise_size(self) -> int:
        """The raise `to_act` would make with ``Raise()``: b, or 2 × s without soldiers in
        limit; the minimum, b, in no-limit (R7.7)."""
        if self._t.to_act is None:
            return 0
        if self.rules.no_limit:
            return self.rules.big_bet
        return checks.limit_raise(self._t, self._t.to_act)

    def owed(self) -> int:
        """What the player answering a battle must pay to call (R7.6, R7.8)."""
        return self._t.battle.owed if self._t.battle else 0

    # ---------------------------------------------------------------- acting
    def why_illegal(self, action: Action) -> str | None:
        """Why `action` is illegal now (naming the rule), or None when it is legal."""
        return checks.why_illegal(self._t, action)

    def legal_actions(self) -> list[Action]:
        """Every legal action for `to_act` (empty only when the hand is over)."""
        return checks.legal_actions(self._t)

    def describe(self, action: Action) -> str:
        """An action in words with player names: ``"Attack Bob (6 chips)"``."""
        if isinstance(action, Bet):
            amt = (
                action.amount
                if action.amount is not None
                else (
                    checks.min_attack(self._t, self._t.to_act) if self._t.to_act is not None else 0
                )
            )
            name = self.names[action.target] if 0 <= action.target < self.players else action.target
            return f"Attack {name} ({amt} chips)"
        return str(action)

    def apply(self, action: Action) -> list[Event]:
        """Carry out a legal action and return the events it produced.

        An illegal action raises `IllegalActionError` naming the rule; nothing changes.
        """
        reason = checks.why_illegal(self._t, action)
        if reason is not None:
            who = self.names[self.to_act] if self.to_act is not None else "nobody"
            raise IllegalActionError(f"{action} is not legal for {who} now: {reason}")
        start = len(self._t.events)
        play.perform(self._t, self._rng, action)
        self._actions.append(action)
        return self._t.events[start:]

    # ---------------------------------------------------------------- history
    def state_at(self, index: int) -> Snapshot:
        """The table right after event `index` (-1: before the first event)."""
        if not isinstance(index, int) or not -1 <= index < len(self._t.events):
            raise PalaceError(f"event index must be -1 to {len(self._t.events) - 1}, got {index!r}")
        return fold_events(self._t.events, self.players, new_deck(), index)

    def replay(self, upto: int | None = None) -> Game:
        """A fresh game with the same setup and the first `upto` actions (all by default)."""
        g = Game._from_setup(self._setup)
        for a in self._actions[: len(self._actions) if upto is None else upto]:
            g.apply(a)
        return g

    def undo(self) -> Game:
        """A new game as it was before the last player action."""
        if not self._actions:
            raise PalaceError("nothing to undo: no action has been taken yet")
        return self.replay(len(self._actions) - 1)

    def view(self, seat: int):
        """What `seat` may know now (R5.3), with perfect recall of what it has seen."""
        from palace.views import view_of

        return view_of(self, seat)

    # ---------------------------------------------------------------- saving
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record: setup, actions and the events (for reading, not trusted)."""
        s = self._setup
        return {
            "format": FORMAT,
            "players": list(s["players"]),
            "seed": s["seed"],
            "rules": s["rules"].to_dict(),
            "deck": s["deck"],
            "dealer": s["dealer"],
            "stacks": s["stacks"],
            "actions": [a.to_dict() for a in self._actions],
            "events": [e.to_dict() for e in self._t.events],
        }

    @classmethod
    def _from_setup(cls, s: dict[str, Any]) -> Game:
        return cls.new(
            players=s["players"],
            seed=s["seed"],
            rules=s["rules"],
            deck=s["deck"],
            dealer=s["dealer"],
            stacks=s["stacks"],
        )

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game from `to_dict` output by replaying it; bad payloads raise `StateError`.

        The ``palace-hand/1`` schema is strict (docs/scenarios.md, "Saved hands"): only
        plain bounded JSON (`palace.strict.check_tree`), no unknown fields, 2-10 different
        names, a seed with |seed| < 2**63, stacks 0 to `strict.MAX_CHIPS`, at most
        `strict.MAX_ACTIONS` actions. Every message names the field.
        """
        if not isinstance(data, dict):
            raise StateError(f"a saved hand must be a JSON object, got {strict.kind_of(data)}")
        strict.check_tree(data)
        fields = ("format", "players", "seed", "rules", "deck", "dealer", "stacks", "actions")
        strict.known_keys(data, (*fields, "events"), "saved hand")
        for key in ("format", "players", "seed"):
            if key not in data:
                raise StateError(f"saved hand is missing the field {key!r}")
        if data["format"] != FORMAT:
            raise StateError(f"format must be {FORMAT!r}, got {strict.shown(data['format'])}")
        names = strict.names(data["players"], "players")
        n = len(names)
        seed = strict.seed(data["seed"], "seed")
        dealer = data.get("dealer")
        if dealer is not None and (not is_whole(dealer) or not 0 <= dealer < n):
            raise StateError(
                f"dealer must be a seat 0-{n - 1} or null, got {strict.shown(dealer)} (R2.3)"
            )
        deck = strict.optional(strict.card_text, data.get("deck"), "deck")
        stacks = data.get("stacks")
        if stacks is not None:
            if not isinstance(stacks, list) or len(stacks) != n:
                raise StateError(
                    f"stacks must be null or a list of {n} chip counts, got "
                    f"{strict.shown(stacks)} (R3.4)"
                )
            for i, x in enumerate(stacks):
                strict.whole(x, f"stacks[{i}]", lo=0, hi=strict.MAX_CHIPS, note="(R3.4)")
        try:
            rules = Rules.from_dict(data.get("rules"))
        except PalaceError as exc:
            raise StateError(strict.bounded(f"rules: {exc}")) from None
        acts = data.get("actions", [])
        if not isinstance(acts, list):
            raise StateError(f"actions must be a list, got {strict.kind_of(acts)}")
        if len(acts) > strict.MAX_ACTIONS:
            raise StateError(
                f"actions: {len(acts):,} actions; a saved hand has at most {strict.MAX_ACTIONS:,}"
            )
        events = data.get("events", [])
        if not isinstance(events, list):
            raise StateError(f"events must be a list, got {strict.kind_of(events)}")
        setup = {
            "players": list(names),
            "seed": seed,
            "rules": rules,
            "deck": deck,
            "dealer": dealer,
            "stacks": stacks,
        }
        try:
            g = cls._from_setup(setup)
        except StateError:
            raise
        except PalaceError as exc:
            raise StateError(strict.bounded(f"saved hand: {exc}")) from None
        for i, a in enumerate(acts):
            action = action_from_dict(a, where=f"actions[{i}]")
            try:
                g.apply(action)
            except PalaceError as exc:
                raise StateError(strict.bounded(f"actions[{i}]: {exc}")) from None
        return g
