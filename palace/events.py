"""Events: the single history of a hand. Every state change is one frozen `Event` (R11).

An event records who did what, the cards and chips that moved, the rule clause that
governs it and a plain-English sentence; replay, stepping, undo and charts read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from palace.cards import Card

PUBLIC = None  # a move whose cards every seat sees


class Phase(Enum):
    """Where a hand is: what kind of decision or chance step comes next."""

    DEALER_SELECTION = "dealer selection"
    BANNER_DEAL = "banner deal"
    PALACE_DEAL = "palace deal"
    TURN = "turn"
    BATTLE_RESPONSE = "battle response"
    TRIM_TO_FIVE = "trim to five"
    SHOWDOWN = "showdown"
    HAND_OVER = "hand over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Move:
    """Cards going from one zone to another.

    `seen_by` None means face up to all, else the seats that see which cards they are.
    `pile` marks a face-down pile moved whole (a reshuffle, a palace going to the
    discard pile): a seat that knew a card was in `src` now knows it is in `dst`.
    A move with ``src == dst`` only shows cards.
    """

    cards: tuple[Card, ...]
    src: str
    dst: str
    seen_by: tuple[int, ...] | None = PUBLIC
    pile: bool = False


@dataclass(frozen=True)
class Event:
    """One state change: index, kind, seat, cards, amount, rule clause and sentence.

    `chips` lists (seat, delta) pairs: negative puts chips in the pot, positive takes
    them out (a win, or with ``detail["refund"]`` an uncalled raise given back, R7.9).
    `phase` and `to_act` describe the state right after the event.
    `detail` may hold ``"order"`` (zone -> its new order after a shuffle), ``"out"``
    (seats leaving the hand) and facts for the UI (a battle's hands, shares).
    """

    index: int
    kind: str
    seat: int | None
    cards: tuple[Card, ...]
    amount: int
    rule: str
    text: str
    phase: Phase
    to_act: int | None
    moves: tuple[Move, ...] = ()
    chips: tuple[tuple[int, int], ...] = ()
    detail: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return f"#{self.index} {self.text} ({self.rule})"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (moves included) for saved hands and tables."""
        return {
            "index": self.index,
            "kind": self.kind,
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "amount": self.amount,
            "rule": self.rule,
            "text": self.text,
            "phase": self.phase.value,
            "to_act": self.to_act,
        }
