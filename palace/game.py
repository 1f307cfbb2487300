"""`Game`: one hand of Palace Poker as a state machine with legal actions and an event log.

>>> g = Game.new(players=3, seed=1)
>>> g.phase, g.names[g.to_act]
(<Phase.TURN: 'turn'>, 'Ann')
>>> [str(a) for a in g.legal_actions()]
['Buy', 'Bet against seat 1', 'Bet against seat 2', 'Stay', 'Fold']
>>> from palace.actions import Stay
>>> g.apply(Stay())[0].text
'Ann stays.'

Chance steps are explicit: with ``manual_chance=True`` the game stops before every card
dealt or bought and the caller chooses it (each card of the deck equally likely):

>>> m = Game.new(players=2, seed=1, dealer=0, manual_chance=True)
>>> m.is_chance, len(m.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from typing import Any, Final

from palace import checks, deal, play, strict, worlds
from palace.action_words import action_label
from palace.actions import Action, action_from_dict
from palace.cards import Card, Suit, parse_cards
from palace.errors import CardError, DeckError, IllegalActionError, PalaceError, StateError
from palace.events import Event, Phase
from palace.numbers import is_whole
from palace.rules import STANDARD, Rules
from palace.shuffle import shuffle
from palace.table import (
    DEFAULT_NAMES,
    Battle,
    HandResult,
    Snapshot,
    Table,
    facts_of,
    fold_events,
    new_table,
)
from palace.views import OwedLegal, SeatMemory, SeatView, build_view, sentence_for, settle

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
P_HAND_OVER: Final = Phase.HAND_OVER

FORMAT: Final = "palace-hand/1"


def player_names(players: object) -> tuple[str, ...]:
    """The players' names from a count (2-10: Ann, Bob, ...) or a list of names (R1.1)."""
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


def _scripted_deck(deck: Any, rules: Rules, rng: random.Random) -> list[Card]:
    """The scripted cards on top, then the rest of the deck in seeded random order."""
    try:
        top = list(parse_cards(deck))
    except CardError as exc:
        raise DeckError(f"deck: {exc}") from None
    cards = rules.deck()
    allowed = set(cards)
    seen: set[Card] = set()
    for c in top:
        if c in seen:
            raise DeckError(f"deck: {c} appears twice; a deck has each of its cards once (R1.2)")
        if c not in allowed:
            raise DeckError(f"deck: {c} is not in this table's deck (Rules.ranks, Rules.suits)")
        seen.add(c)
    rest = [c for c in cards if c not in seen]
    shuffle(rng, rest)
    return top + rest


def _check_size(rules: Rules, n: int) -> None:
    """The deck must hold a banner and a palace for everyone, and suits for each group."""
    facts = facts_of(rules)
    group = min(4, n)  # the first group is the largest
    if group > facts.suits:
        raise PalaceError(
            f"{n} players need {group} banner suits in a group, but this deck has "
            f"{facts.suits} (R4.2)"
        )
    need = n * (1 + facts.palace_cards)
    if need > len(facts.deck):
        raise PalaceError(
            f"{n} players need {need} cards for banners and palaces; this deck has "
            f"{len(facts.deck)} (R4, R5)"
        )


_Random: Final = random.Random
_new_random: Final = random.Random.__new__
_seed_random: Final = _random.Random.seed


def seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)``, the same generator state, without its Python-level
    ``__init__`` and ``seed`` (the C seeding they end in is all they do for a number)."""
    rng = _new_random(_Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what `Random.seed` sets beside
    # the C state (`getstate` reads it; typeshed leaves it out)
    return rng


class Game:
    """One hand: create with `Game.new`, then `legal_actions()` and `apply(action)`."""

    def __init__(self, table: Table, rng: random.Random | None, setup: dict[str, Any]) -> None:
        self._t = table
        self._rng = rng  # None: chance steps are chosen by the caller
        self._rng_shared = False  # a clone shares the generator until one of them draws
        self._setup = setup
        self._actions: list[Action] = []
        self._chances: list[Card] = []  # cards chosen for chance steps (manual chance)
        self._memories: list[SeatMemory | None] = [None] * table.players
        self._legal: tuple[int, list[Action]] = (-1, [])
        # views whose `legal` is listed when first read: listed before the table changes
        self._owed: list[OwedLegal] = []
        self._rng_seed: int | None = None  # a world's generator, not yet made

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
        manual_chance: bool = False,
    ) -> Game:
        """Deal a new hand.

        players: 2-10, or their names (R1.1). seed: every shuffle comes from it.
        deck: scripted cards, top first, for lessons (the rest follows in seeded order;
        with a scripted deck the palace deal does not reshuffle, so the script decides
        the palaces too). dealer: skip R2's draw and let this seat deal (R2.3).
        stacks: chips behind for each seat when `rules.stacks` is set (a match carries them).
        manual_chance: stop before every card dealt or bought (`is_chance`,
        `chance_outcomes`, `apply_chance`), for game-tree search; nothing is shuffled.
        """
        names = player_names(players)
        rules = STANDARD if rules is None else rules
        if not isinstance(rules, Rules):
            raise PalaceError(f"rules must be a Rules, got {type(rules).__name__}")
        if not is_whole(seed):
            raise PalaceError(f"seed must be a whole number, got {seed!r}")
        n = len(names)
        _check_size(rules, n)
        if dealer is not None and (not is_whole(dealer) or not 0 <= dealer < n):
            raise PalaceError(f"dealer must be a seat 0-{n - 1}, got {dealer!r} (R2.3)")
        if stacks is not None:
            if rules.stacks is None:
                raise PalaceError("stacks given but rules.stacks is None (R3.4)")
            stacks = list(stacks)
            if len(stacks) != n or any(not is_whole(x) or x < 0 for x in stacks):
                raise PalaceError(f"stacks must be {n} whole numbers >= 0 (R3.4)")
        if manual_chance and deck is not None:
            raise PalaceError("a scripted deck already decides every card: no manual chance")
        rng = seeded_random(seed)
        script = None if deck is None else _scripted_deck(deck, rules, random.Random(seed))
        setup = {
            "players": list(names),
            "seed": seed,
            "rules": rules,
            "deck": None if script is None else [str(c) for c in script],
            "dealer": dealer,
            "stacks": stacks,
            "manual_chance": manual_chance,
        }
        t = new_table(
            names,
            rules,
            dealer=dealer if dealer is not None else 0,
            stacks=(list(stacks) if stacks is not None else [rules.stacks] * n)
            if rules.stacks is not None
            else None,
        )
        t.zones["deck"][:] = t.facts.deck
        g = cls(t, None if manual_chance else rng, setup)
        deal.begin(t, g._rng, dealer=dealer, script=script)
        g._run_chance()
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
        return int(self._setup["seed"])

    @property
    def dealer(self) -> int:
        return self._t.dealer

    @property
    def phase(self) -> Phase:
        return self._t.phase

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or None when the hand is over (or a card is due)."""
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
        return self._t.phase is P_HAND_OVER

    @property
    def result(self) -> HandResult | None:
        """Who won what, once the hand is over (R10)."""
        return self._t.result

    @property
    def battle(self) -> Battle | None:
        """The open battle (attacker, defender, owed, paid, raises), or None."""
        return self._t.battle

    @property
    def must_battle(self) -> bool:
        """R9.3: two players of different banner suits are left and must Bet or Fold now."""
        return self._t.must_battle

    @property
    def turns(self) -> int:
        """Turn actions taken so far (a hand ends in a showdown at `rules.max_turns`, D22)."""
        return self._t.turns

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
        """Every zone and its cards; each card of the deck is in exactly one zone."""
        return {k: tuple(v) for k, v in self._t.zones.items()}

    def banner(self, seat: int) -> Card | None:
        """The seat's banner card (None before the banner deal reaches it)."""
        cards = self._t.cards(seat, "banner")
        return cards[0] if cards else None

    def banner_suit(self, seat: int) -> Suit:
        """The seat's banner suit; `StateError` before its banner is dealt (R4)."""
        card = self.banner(seat)
        if card is None:
            raise StateError(f"{self.names[seat]} has no banner yet (R4)")
        return card.suit

    def soldiers(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._t.soldiers(seat))

    def palace(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._t.palace(seat))

    def min_attack(self, seat: int) -> int:
        """R7.3 minimum attack for this seat now."""
        return checks.min_attack(self._t, seat)

    def raise_size(self) -> int:
        """The raise `to_act` would make with ``Raise()``: b, or 2 × s without soldiers in
        limit; the minimum, b, in no-limit (R7.7)."""
        if self._t.to_act is None:
            return 0
        return checks.raise_of(self._t, self._t.to_act, None)

    def owed(self) -> int:
        """What the player answering a battle must pay to call (R7.6, R7.8)."""
        return self._t.battle.owed if self._t.battle else 0

    # ---------------------------------------------------------------- acting
    def why_illegal(self, action: Action) -> str | None:
        """Why `action` is illegal now (naming the rule), or None when it is legal."""
        return checks.why_illegal(self._t, action)

    def legal_actions(self) -> list[Action]:
        """Every legal action for `to_act` (empty when the hand is over or a card is due)."""
        return list(self._legal_now())

    def _legal_now(self) -> list[Action]:
        """The legal actions, listed once per table version (callers must not change it)."""
        version, legal = self._legal
        if version != self._t.version:
            legal = checks.legal_actions(self._t)
            self._legal = (self._t.version, legal)
        return legal

    def describe(self, action: Action) -> str:
        """An action in words with player names and its cost: ``"Attack Bob (6 chips)"``."""
        return action_label(self._t, action)

    def apply(self, action: Action) -> list[Event]:
        """Carry out a legal action and return the events it produced.

        An illegal action raises `IllegalActionError` naming the rule; nothing changes.
        """
        if self._owed:
            self._settle()
        t = self._t
        version, legal = self._legal
        if version == t.version and any(a is action for a in legal):
            reason = None  # one of the legal actions handed out for this very state
        else:
            reason = checks.why_illegal(t, action)
        if reason is not None:
            who = self.names[t.to_act] if t.to_act is not None else "nobody"
            said = self.describe(action)
            raise IllegalActionError(f"{said} is not legal for {who} now: {reason}")
        start = len(t.events)
        play.perform(t, self._use_rng() if type(action) is checks.A_BUY else None, action)
        self._actions.append(action)
        self._run_chance()
        return t.events[start:]

    # ---------------------------------------------------------------- chance steps
    @property
    def is_chance(self) -> bool:
        """True when the next step is a card from the deck (only seen with manual chance)."""
        return self._t.pending is not None

    def chance_outcomes(self) -> tuple[Card, ...]:
        """The cards the next chance step may give, each equally likely (the deck's cards)."""
        if self._t.pending is None:
            return ()
        return tuple(sorted(self._t.zones["deck"], key=lambda c: c.index))

    def apply_chance(self, card: Card | str) -> list[Event]:
        """Deal `card` for the pending chance step (a card of the deck)."""
        if self._owed:
            self._settle()
        t = self._t
        if t.pending is None:
            raise IllegalActionError("no card is due: the next step is a player's (R6)")
        try:
            c = Card.parse(card)
        except CardError as exc:
            raise IllegalActionError(f"apply_chance: {exc}") from None
        if c not in t.zones["deck"]:
            raise IllegalActionError(f"{c} is not in the deck, so it cannot be dealt now")
        start = len(t.events)
        self._resolve(c)
        self._chances.append(c)
        self._run_chance()
        return t.events[start:]

    def _resolve(self, card: Card) -> None:
        t = self._t
        pending = t.pending
        assert pending is not None
        if pending.kind == "buy":
            play.buy_card(t, card)
        else:
            deal.deal_card(t, self._use_rng(), card)
            if t.pending is None and t.deal is None:
                play.start(t)

    def _run_chance(self) -> None:
        """With seeded chance, deal every due card at once: the top of the shuffled deck."""
        if self._rng is None and self._rng_seed is None:
            return
        t = self._t
        if t.deal is not None and deal.deal_from_top(t, self._use_rng()):
            play.start(t)
        while t.pending is not None:
            self._resolve(t.deck[0])

    def _use_rng(self) -> random.Random | None:
        if self._rng_seed is not None:
            self._rng, self._rng_seed = random.Random(self._rng_seed), None
        elif self._rng is not None and self._rng_shared:
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        return self._rng

    # ---------------------------------------------------------------- copies and worlds
    def clone(self) -> Game:
        """An independent copy that plays on exactly as this game would (same seed stream)."""
        g = Game(self._t.copy(), self._rng, self._setup)
        g._rng_shared = self._rng_shared = self._rng is not None
        g._actions = self._actions[:]
        g._chances = self._chances[:]
        g._legal = self._legal
        g._rng_seed = self._rng_seed
        return g

    @classmethod
    def _world(cls, view: SeatView, rng: random.Random) -> Game:
        t = worlds.world_table(view, rng)
        g = cls(t, None, {"world": True, "seed": 0})
        g._rng_seed = rng.getrandbits(64)  # its own generator is made when first needed
        return g

    # ---------------------------------------------------------------- history
    def state_at(self, index: int) -> Snapshot:
        """The table right after event `index` (-1: before the first event)."""
        if not is_whole(index) or not -1 <= index < len(self._t.events):
            raise PalaceError(f"event index must be -1 to {len(self._t.events) - 1}, got {index!r}")
        return fold_events(self._t.events, self.players, self.rules.deck(), index)

    def replay(self, upto: int | None = None) -> Game:
        """A fresh game with the same setup and the first `upto` actions (all by default)."""
        if "world" in self._setup:
            raise StateError("a sampled world cannot be replayed: clone it before playing on")
        g = Game._from_setup(self._setup)
        chances = iter(self._chances)
        for a in self._actions[: len(self._actions) if upto is None else upto]:
            while g.is_chance:
                g.apply_chance(next(chances))
            g.apply(a)
        return g

    def undo(self) -> Game:
        """A new game as it was before the last player action."""
        if not self._actions:
            raise PalaceError("nothing to undo: no action has been taken yet")
        return self.replay(len(self._actions) - 1)

    def view(self, seat: int) -> SeatView:
        """What `seat` may know now (R5.3), with perfect recall of what it has seen."""
        if (type(seat) is not int and not is_whole(seat)) or not 0 <= seat < self.players:
            raise PalaceError(f"seat must be 0-{self.players - 1}, got {seat!r}")
        memories = self._memories  # a seat's memory is made when `learned` is first read
        t = self._t
        if t.to_act != seat:
            return build_view(t, seat, memories, (), _WORLD)
        version, listed = self._legal
        if version == t.version:
            return build_view(t, seat, memories, tuple(listed), _WORLD)
        # listed when the view's `legal` is first read (a player may never read it), or
        # at the latest before this game changes (`_settle`)
        owed = OwedLegal(self, t)
        self._owed.append(owed)
        return build_view(t, seat, memories, owed, _WORLD)

    def _legal_tuple(self) -> tuple[Action, ...]:
        return tuple(self._legal_now())

    def _settle(self) -> None:
        """Work out the legal actions and turn facts of every view still alive that has not
        read them yet, before the table changes under it."""
        owed, self._owed = self._owed, []
        for legal in owed:
            settle(legal)

    def history(self, seat: int | None) -> tuple[str, ...]:
        """Every event's sentence as `seat` may read it (None: a spectator), D7."""
        return tuple(sentence_for(e, seat) for e in self._t.events)

    # ---------------------------------------------------------------- saving
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record: setup, actions and the events (for reading, not trusted)."""
        s = self._setup
        if "world" in s:
            raise StateError("a sampled world has no deal to save: save the game it came from")
        if s.get("manual_chance"):
            raise StateError("a game with manual chance is saved by its chance outcomes, not here")
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
            manual_chance=s.get("manual_chance", False),
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


def _sample_world(view: SeatView, rng: random.Random) -> Game:
    """A game from a world sampled for `view` (every view's `sampler`)."""
    return Game._world(view, rng)


_WORLD: Final = _sample_world  # read as a C static on every view made (a bound classmethod
# would be made anew each time)
