"""The table's rules as one frozen, validated `Rules`: stakes, deck and variants (R3, R6, R7, R9).

>>> Rules().ante_amount, Rules(small_bet=5, big_bet=10).ante_amount
(1, 2)
>>> Rules(structure="pot-limit")
Traceback (most recent call last):
...
palace.errors.RulesError: Rules.structure must be 'limit' or 'no-limit', got 'pot-limit' (R3.3)
>>> Rules().calls_match_attack, Rules(structure="no-limit").calls_match_attack
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from palace import strict
from palace.cards import Card, Rank, Suit, new_deck
from palace.errors import RulesError
from palace.numbers import is_whole

QUIET_KINDS = ("stay", "discard", "fold")
TWO_LEFT = ("after_quiet_round", "at_once")
ALL_RANKS = "23456789TJQKA"
ALL_SUITS = "cdhs"
MAX_SOLDIERS = 5  # R6.7, the standard cap
PALACE_CARDS = 3  # R5.1, the standard palace
MAX_TURNS = 200  # D22: a hand that reaches this many turns ends in a showdown
MAX_STAKE = strict.MAX_STAKE  # no table plays for more than a million chips a bet
MAX_STACK = strict.MAX_CHIPS
MAX_TURNS_LIMIT = 100_000


def _int_field(
    name: str,
    value: object,
    *,
    minimum: int,
    maximum: int,
    allow_none: bool,
    rule: str,
) -> None:
    if value is None and allow_none:
        return
    if not is_whole(value) or not minimum <= value <= maximum:
        kind = "a whole number" + (" or None" if allow_none else "")
        raise RulesError(
            f"Rules.{name} must be {kind} from {minimum} to {maximum}, got "
            f"{strict.shown(value)} ({rule})"
        )


def _letters(name: str, value: object, allowed: str, minimum: int, rule: str) -> str:
    if not isinstance(value, str):
        raise RulesError(f"Rules.{name} must be a string of letters from {allowed!r} ({rule})")
    text = value.strip()
    keyed = {c.upper() if name == "ranks" else c.lower() for c in text}
    bad = sorted(c for c in keyed if c not in allowed)
    if bad or len(keyed) != len(text):
        what = f"unknown letter {bad[0]!r}" if bad else "a letter twice"
        raise RulesError(
            f"Rules.{name} must list letters of {allowed!r} once each; {what} ({rule})"
        )
    if len(keyed) < minimum:
        raise RulesError(f"Rules.{name} needs at least {minimum} letters, got {text!r} ({rule})")
    return "".join(c for c in allowed if c in keyed)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Stakes, the deck and every variant RULES.md names, with its default.

    small_bet / big_bet: `s` and `b` (R3). ante: None means floor(s/2) (R3.1).
    structure: "limit" or "no-limit" (R3.3). stacks: None for unlimited chips, or the
    chips each player starts with (R3.4). discard_cost: None means `s` (R6.4).
    call_matches_attack: the defender calls the attacker's amount instead of their own
    army's size; None (default) means False in limit and True in no-limit (R7.6).
    max_raises: cap on raises in one battle, None unlimited (R7.7).
    quiet_actions: the turn actions that count towards a quiet round (R9.1).
    two_left: "after_quiet_round" (default) or "at_once": when two players of different
    banner suits are left, when only Bet and Fold remain (R9.3).
    max_turns: a hand that reaches this many turn actions ends in a showdown (D22).
    ranks / suits: the deck (default all 52 cards); palace_cards: palace cards each
    (R5.1, default 3); max_soldiers: the soldier cap (R6.7, default 5). A smaller deck,
    palace and cap make the small game the solver plays (docs/rules.md).
    """

    small_bet: int = 2
    big_bet: int = 4
    ante: int | None = None
    structure: Literal["limit", "no-limit"] = "limit"
    stacks: int | None = None
    discard_cost: int | None = None
    call_matches_attack: bool | None = None
    max_raises: int | None = None
    quiet_actions: tuple[str, ...] = field(default=QUIET_KINDS)
    two_left: Literal["after_quiet_round", "at_once"] = "after_quiet_round"
    max_turns: int = MAX_TURNS
    ranks: str = ALL_RANKS
    suits: str = ALL_SUITS
    palace_cards: int = PALACE_CARDS
    max_soldiers: int = MAX_SOLDIERS

    def __post_init__(self) -> None:
        _int_field(
            "small_bet", self.small_bet, minimum=1, maximum=MAX_STAKE, allow_none=False, rule="R3"
        )
        _int_field(
            "big_bet", self.big_bet, minimum=1, maximum=MAX_STAKE, allow_none=False, rule="R3"
        )
        if self.big_bet < self.small_bet:
            raise RulesError(
                f"Rules.big_bet ({self.big_bet}) must be at least Rules.small_bet "
                f"({self.small_bet}) (R3)"
            )
        _int_field("ante", self.ante, minimum=0, maximum=MAX_STAKE, allow_none=True, rule="R3.1")
        if self.structure not in ("limit", "no-limit"):
            raise RulesError(
                f"Rules.structure must be 'limit' or 'no-limit', got {self.structure!r} (R3.3)"
            )
        _int_field(
            "stacks", self.stacks, minimum=1, maximum=MAX_STACK, allow_none=True, rule="R3.4"
        )
        _int_field(
            "discard_cost",
            self.discard_cost,
            minimum=0,
            maximum=MAX_STAKE,
            allow_none=True,
            rule="R6.4",
        )
        if self.call_matches_attack is not None and not isinstance(self.call_matches_attack, bool):
            raise RulesError(
                f"Rules.call_matches_attack must be None, True or False, got "
                f"{self.call_matches_attack!r} (R7.6)"
            )
        _int_field(
            "max_raises", self.max_raises, minimum=0, maximum=1000, allow_none=True, rule="R7.7"
        )
        qa = self.quiet_actions
        if isinstance(qa, str) or not isinstance(qa, tuple | list | frozenset | set):
            raise RulesError(
                f"Rules.quiet_actions must be a collection of {QUIET_KINDS}, got {qa!r} (R9.1)"
            )
        bad = [k for k in qa if not isinstance(k, str) or k not in QUIET_KINDS]
        if bad:
            raise RulesError(
                f"Rules.quiet_actions may only name {', '.join(QUIET_KINDS)}; got {bad[0]!r} (R9.1)"
            )
        object.__setattr__(self, "quiet_actions", tuple(k for k in QUIET_KINDS if k in qa))
        if self.two_left not in TWO_LEFT:
            raise RulesError(
                f"Rules.two_left must be 'after_quiet_round' or 'at_once', got {self.two_left!r} "
                "(R9.3)"
            )
        _int_field(
            "max_turns", self.max_turns, minimum=1, maximum=100_000, allow_none=False, rule="D22"
        )
        object.__setattr__(self, "ranks", _letters("ranks", self.ranks, ALL_RANKS, 3, "R1.2"))
        object.__setattr__(self, "suits", _letters("suits", self.suits, ALL_SUITS, 2, "R1.2"))
        _int_field(
            "palace_cards", self.palace_cards, minimum=1, maximum=3, allow_none=False, rule="R5.1"
        )
        _int_field(
            "max_soldiers", self.max_soldiers, minimum=1, maximum=5, allow_none=False, rule="R6.7"
        )

    @property
    def ante_amount(self) -> int:
        """Each player's ante: `ante`, or floor(s / 2) by default (R3.1)."""
        return self.small_bet // 2 if self.ante is None else self.ante

    @property
    def discard_amount(self) -> int:
        """The price of a Discard action: `discard_cost`, or `s` by default (R6.4)."""
        return self.small_bet if self.discard_cost is None else self.discard_cost

    @property
    def no_limit(self) -> bool:
        """True for the no-limit structure (R3.3)."""
        return self.structure == "no-limit"

    @property
    def calls_match_attack(self) -> bool:
        """Does a call match the attacker's amount (R7.6)? `call_matches_attack`, or by
        default: no in limit (each stake is sized by its own army), yes in no-limit."""
        if self.call_matches_attack is None:
            return self.no_limit
        return self.call_matches_attack

    @property
    def full_deck(self) -> bool:
        """True when the deck is the standard 52 cards (R1.2)."""
        return self.ranks == ALL_RANKS and self.suits == ALL_SUITS

    def deck(self) -> list[Card]:
        """The table's deck in index order (all 52 cards unless `ranks`/`suits` shrink it).

        >>> len(Rules().deck()), Rules(ranks="TJQKA", suits="chs").deck()[:3]
        (52, [Tc, Jc, Qc])
        """
        if self.full_deck:
            return new_deck()
        ranks = {Rank(ALL_RANKS.index(r) + 2) for r in self.ranks}
        suits = {Suit(ALL_SUITS.index(s)) for s in self.suits}
        return [c for c in new_deck() if c.rank in ranks and c.suit in suits]

    def changes(self) -> dict[str, Any]:
        """The fields that differ from the defaults, for labels and tables.

        >>> Rules(structure="no-limit", discard_cost=0).changes()
        {'structure': 'no-limit', 'discard_cost': 0}
        """
        default = Rules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def label(self) -> str:
        """Short human label: ``"standard"`` or ``"structure=no-limit, discard_cost=0"``."""
        ch = self.changes()
        return ", ".join(f"{k}={v}" for k, v in ch.items()) if ch else "standard"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["quiet_actions"] = list(self.quiet_actions)
        return d

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from a dict (a file's JSON); every bad value raises `RulesError` naming the
        field, in a short message. Stakes are whole numbers up to `strict.MAX_STAKE`, stacks
        up to `strict.MAX_CHIPS`, `max_raises` up to `strict.MAX_RAISES`."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of Rules fields, got {strict.got(data)}")
        names = sorted(f.name for f in fields(cls))
        for key in data:
            if key not in names:
                raise RulesError(
                    f"unknown Rules field {strict.shown(key, 24)}; known: {', '.join(names)}"
                )
        numbers = {
            "small_bet": (1, strict.MAX_STAKE, "R3"),
            "big_bet": (1, strict.MAX_STAKE, "R3"),
            "ante": (0, strict.MAX_STAKE, "R3.1"),
            "stacks": (1, strict.MAX_CHIPS, "R3.4"),
            "discard_cost": (0, strict.MAX_STAKE, "R6.4"),
            "max_raises": (0, strict.MAX_RAISES, "R7.7"),
            "max_turns": (1, MAX_TURNS_LIMIT, "D22"),
            "palace_cards": (1, PALACE_CARDS, "R5.1"),
            "max_soldiers": (1, MAX_SOLDIERS, "R6.7"),
        }
        kwargs = dict(data)
        for key, (lo, hi, rule) in numbers.items():
            if kwargs.get(key) is not None:  # None: the default (the constructor checks it)
                strict.whole(
                    kwargs[key], f"Rules.{key}", lo=lo, hi=hi, note=f"({rule})", error=RulesError
                )
        structure = kwargs.get("structure", "limit")
        if not isinstance(structure, str) or structure not in ("limit", "no-limit"):
            raise RulesError(
                "Rules.structure must be 'limit' or 'no-limit', got "
                f"{strict.shown(structure)} (R3.3)"
            )
        cma = kwargs.get("call_matches_attack")
        if cma is not None and not isinstance(cma, bool):
            raise RulesError(
                "Rules.call_matches_attack must be null, true or false, got "
                f"{strict.shown(cma)} (R7.6)"
            )
        for key, rule in (("two_left", "R9.3"), ("ranks", "R1.2"), ("suits", "R1.2")):
            if key in kwargs and (not isinstance(kwargs[key], str) or len(kwargs[key]) > 20):
                raise RulesError(
                    f"Rules.{key} must be a short text, got {strict.shown(kwargs[key])} ({rule})"
                )
        if "quiet_actions" in kwargs:
            qa = kwargs["quiet_actions"]
            if not isinstance(qa, (list, tuple)) or any(
                not isinstance(k, str) or k not in QUIET_KINDS for k in qa
            ):
                raise RulesError(
                    f"Rules.quiet_actions must be a list of {', '.join(QUIET_KINDS)}, got "
                    f"{strict.shown(qa)} (R9.1)"
                )
            kwargs["quiet_actions"] = tuple(qa)
        return cls(**kwargs)


STANDARD = Rules()
"""The standard rules, made once: `Rules` is a frozen value, so every game may share it."""
