"""Player actions as frozen records (R6 turn actions, R7 battle answers, R6.7 trims).

>>> str(Bet(target=2)), str(Discard(cards=parse_cards("7h 2c")))
('Bet against seat 2', 'Discard 7h 2c')
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from palace import strict
from palace.cards import Card, format_cards, parse_cards
from palace.errors import StateError
from palace.hands import card_set


@dataclass(frozen=True)
class Action:
    """Base of every action; `kind` is the serialised name."""

    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"kind": "bet", "target": 2, "amount": None}``."""
        d: dict[str, Any] = {"kind": self.kind}
        for name in saved_fields(type(self)):
            v = getattr(self, name)
            d[name] = [str(c) for c in v] if name == "cards" else v
        return d


def saved_fields(cls: type[Action]) -> tuple[str, ...]:
    """The fields an action is saved and rebuilt with (not those worked out from them)."""
    return tuple(f.name for f in fields(cls) if f.init)


@dataclass(frozen=True)
class Buy(Action):
    """R6.2: pay `s`, take the top card of the draw deck as a soldier, then discard any."""

    kind: ClassVar[str] = "buy"

    def __str__(self) -> str:
        return "Buy"


@dataclass(frozen=True)
class Discard(Action):
    """R6.4: pay the discard cost and discard one or more soldiers, drawing nothing."""

    cards: tuple[Card, ...] = ()
    bits: int = field(default=0, init=False, repr=False, compare=False)  # `cards` as a card set
    kind: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        cards = tuple(sorted(parse_cards(self.cards), reverse=True))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "bits", card_set(cards))

    def __str__(self) -> str:
        return f"Discard {format_cards(self.cards)}"


@dataclass(frozen=True)
class Bet(Action):
    """R7.1-R7.3: attack `target`; `amount` None means the minimum attack."""

    target: int = -1
    amount: int | None = None
    kind: ClassVar[str] = "bet"

    def __str__(self) -> str:
        if self.amount is None:
            return f"Bet against seat {self.target}"
        return f"Bet {self.amount} against seat {self.target}"


@dataclass(frozen=True)
class Stay(Action):
    """R6.5: do nothing; the turn passes."""

    kind: ClassVar[str] = "stay"

    def __str__(self) -> str:
        return "Stay"


@dataclass(frozen=True)
class Fold(Action):
    """R6.6 on a turn, R7.5 / R7.9 in a battle: leave the hand."""

    kind: ClassVar[str] = "fold"

    def __str__(self) -> str:
        return "Fold"


@dataclass(frozen=True)
class Call(Action):
    """R7.6 / R7.8: pay what is owed and show the battle down."""

    kind: ClassVar[str] = "call"

    def __str__(self) -> str:
        return "Call"


@dataclass(frozen=True)
class Raise(Action):
    """R7.7 / R7.8: pay what is owed, then raise; `amount` None means the limit size."""

    amount: int | None = None
    kind: ClassVar[str] = "raise"

    def __str__(self) -> str:
        return "Raise" if self.amount is None else f"Raise {self.amount}"


@dataclass(frozen=True)
class Trim(Action):
    """R6.2 / R6.7 / R7.5: after a Buy or capture, discard these soldiers (maybe none)."""

    cards: tuple[Card, ...] = ()
    bits: int = field(default=0, init=False, repr=False, compare=False)  # `cards` as a card set
    kind: ClassVar[str] = "trim"

    def __post_init__(self) -> None:
        cards = tuple(sorted(parse_cards(self.cards), reverse=True))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "bits", card_set(cards))

    def __str__(self) -> str:
        return "Keep all soldiers" if not self.cards else f"Discard {format_cards(self.cards)}"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (Buy, Discard, Bet, Stay, Fold, Call, Raise, Trim)
}


def action_from_dict(data: Any, where: str = "action") -> Action:
    """Rebuild an action from `Action.to_dict` output; bad payloads raise `StateError`.

    Messages name the field (``actions[3].kind``) and quote at most a short piece of a bad
    value. `target` is a seat 0-9, `amount` at most `strict.MAX_CHIPS`; whether the action
    is legal is the game's business.
    """
    if not isinstance(data, dict) or "kind" not in data:
        raise StateError(f"{where} must be an object with a 'kind' field, got {strict.got(data)}")
    kind = data["kind"]
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise StateError(
            f"{where}.kind {strict.shown(kind)} is not one of {', '.join(sorted(ACTION_TYPES))}"
        )
    kwargs = {k: v for k, v in data.items() if k != "kind"}
    allowed = set(saved_fields(cls))
    for k in kwargs:
        if k not in allowed:
            raise StateError(f"{where}: unknown field {strict.shown(k, 24)} for a {kind} action")
    if "target" in kwargs:  # a seat: to_dict always writes one (null is not a seat)
        strict.whole(kwargs["target"], f"{where}.target", lo=0, hi=strict.MAX_PLAYERS - 1)
    if kwargs.get("amount") is not None:
        strict.whole(kwargs["amount"], f"{where}.amount", lo=0, hi=strict.MAX_CHIPS)
    if "cards" in kwargs:
        strict.card_text(kwargs["cards"], f"{where}.cards")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise StateError(strict.bounded(f"{where}: {exc}")) from None
