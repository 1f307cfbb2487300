"""Events: the single history of a hand. Every state change is one frozen `Event` (R11).

An event records who did what, the cards and chips that moved, the rule clause that
governs it and the facts its sentence needs; the plain-English sentence (`Event.text`) is
written when it is read (`palace.sentences`), so recording stays cheap. Replay, stepping,
undo and charts read the events.

>>> EventKind.BUY == "buy", EventKind("battle").heading
(True, 'Battle showdown')
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, StrEnum
from typing import Any, NamedTuple

from palace.cards import Card

PUBLIC = None  # a move whose cards every seat sees


class Phase(Enum):
    """Where a hand is: what kind of decision or chance step comes next."""

    DEALER_SELECTION = "dealer selection"
    BANNER_DEAL = "banner deal"
    PALACE_DEAL = "palace deal"
    TURN = "turn"
    DRAW = "draw"  # a bought card is about to be drawn (a chance step, R6.2)
    BATTLE_RESPONSE = "battle response"
    TRIM_TO_FIVE = "trim to five"
    SHOWDOWN = "showdown"
    HAND_OVER = "hand over"

    def __str__(self) -> str:
        return self.value


class EventKind(StrEnum):
    """Every kind of event, with the title a stepper shows. Members equal their value."""

    SHUFFLE = "shuffle"
    CUT = "cut"
    CUT_TIE = "cut_tie"
    DEALER = "dealer"
    GATHER = "gather"
    STACK = "stack"
    ANTE = "ante"
    BANNER = "banner"
    REJECT = "reject"
    RESHUFFLE = "reshuffle"
    PALACE = "palace"
    START = "start"
    POSITION = "position"
    BUY = "buy"
    TRIM = "trim"
    DISCARD = "discard"
    STAY = "stay"
    FOLD = "fold"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    BATTLE = "battle"
    OUT = "out"
    BOTH_OUT = "both_out"
    CAPTURE = "capture"
    TWO_LEFT = "two_left"
    QUIET_ROUND = "quiet_round"
    TURN_LIMIT = "turn_limit"
    SHOWDOWN = "showdown"
    HAND_END = "hand_end"
    POT = "pot"

    @property
    def heading(self) -> str:
        """A short heading for a stepper: ``"Banner card rejected"``."""
        return _TITLES[self]


_TITLES = {
    EventKind.SHUFFLE: "Shuffle",
    EventKind.CUT: "Draw for the deal",
    EventKind.CUT_TIE: "Tie for the deal",
    EventKind.DEALER: "The dealer",
    EventKind.GATHER: "Gathering cards",
    EventKind.STACK: "Scripted deck",
    EventKind.ANTE: "Ante",
    EventKind.BANNER: "Banner card",
    EventKind.REJECT: "Banner card rejected",
    EventKind.RESHUFFLE: "Reshuffle",
    EventKind.PALACE: "Palace card",
    EventKind.START: "Play starts",
    EventKind.POSITION: "A position",
    EventKind.BUY: "Buy",
    EventKind.TRIM: "Discarding soldiers",
    EventKind.DISCARD: "Discard",
    EventKind.STAY: "Stay",
    EventKind.FOLD: "Fold",
    EventKind.BET: "Attack",
    EventKind.RAISE: "Raise",
    EventKind.CALL: "Call",
    EventKind.BATTLE: "Battle showdown",
    EventKind.OUT: "Out of the hand",
    EventKind.BOTH_OUT: "Both out",
    EventKind.CAPTURE: "Capture",
    EventKind.TWO_LEFT: "Two left must battle",
    EventKind.QUIET_ROUND: "Quiet round",
    EventKind.TURN_LIMIT: "Turn limit",
    EventKind.SHOWDOWN: "Showdown",
    EventKind.HAND_END: "End of the hand",
    EventKind.POT: "The pot",
}


class EndReason(StrEnum):
    """How a hand ended (R9, R10): who may share the pot depends on it."""

    LAST_STANDING = "last standing"  # R9.2, R10.1
    SAME_BANNER = "same banner"  # R9.4, R10.2
    SHOWDOWN = "showdown"  # R9.1 / D22, R10.3
    BATTLE_TIE = "battle tie"  # R8.6, R10.4


class Move(NamedTuple):
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


# The fields of an event, in order (the functional form keeps `index` a plain field: in the
# class form a type checker takes it for an override of `tuple.index`).
_EventFields = NamedTuple(  # noqa: UP014 (the class form would shadow tuple.index)
    "_EventFields",
    [
        ("index", int),
        ("kind", EventKind),
        ("seat", "int | None"),
        ("cards", "tuple[Card, ...]"),
        ("amount", int),
        ("rule", str),
        ("phase", Phase),
        ("to_act", "int | None"),
        ("moves", "tuple[Move, ...]"),
        ("chips", "tuple[tuple[int, int], ...]"),
        ("detail", "dict[str, Any]"),
        ("names", "tuple[str, ...]"),
    ],
)


class Event(_EventFields):
    """One state change: index, kind, seat, cards, amount, rule clause and the facts behind
    its sentence.

    `chips` lists (seat, delta) pairs: negative puts chips in the pot, positive takes
    them out (a win, or with ``detail["refund"]`` chips given back, R3.4 / R7.9).
    `phase` and `to_act` describe the state right after the event. `detail` may hold
    ``"order"`` (zone -> its new order after a shuffle), ``"out"`` (seats leaving the hand),
    ``"seen_by"`` / ``"public_text"`` (a battle only its two players see in full, D7) and
    the facts the sentence and the panels need (a battle's result and armies, shares).
    `names` are the players' names, for the sentence.
    """

    __slots__ = ()

    @property
    def text(self) -> str:
        """The event in one plain-English sentence (written now, from the facts)."""
        return SENTENCES[self.kind](self)

    def __str__(self) -> str:
        return f"#{self.index} {self.text} ({self.rule})"

    def __repr__(self) -> str:
        return f"Event(#{self.index} {self.kind.value}, seat={self.seat}, rule={self.rule})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self[:10] == other[:10]

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self[:8])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (moves left out) for saved hands and tables."""
        return {
            "index": self.index,
            "kind": self.kind.value,
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "amount": self.amount,
            "rule": self.rule,
            "text": self.text,
            "phase": self.phase.value,
            "to_act": self.to_act,
        }


# How each kind of event is said: filled in by `palace.sentences` (which the table imports,
# so every recorded event can be read).
SENTENCES: dict[EventKind, Callable[[Event], str]] = {}
