"""Battle showdown between two armies: exclusion (R8.2), ranking (R8.3-R8.4), tie-break (R8.5-R8.6).

>>> att = Army.parse(banner="Kh", soldiers="Qs Js Ts", palace="9s 2c 3d")  # a straight...
>>> dfn = Army.parse(banner="As", soldiers="Ac", palace="5d 6d 8c")
>>> r = resolve_battle(att, dfn)   # ...but the defender's banner suit takes the spades away
>>> r.winner, r.decided_by, r.attacker_hand.describe()
('defender', 'hand', 'High card king (short: 3 counting cards)')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from palace.cards import Card, Suit, parse_cards
from palace.hands import Hand, evaluate
from palace.words import plural


@dataclass(frozen=True)
class Army:
    """A player's cards in a battle: the banner, the soldiers and the palace (R8.1)."""

    banner: Card
    soldiers: tuple[Card, ...] = ()
    palace: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, banner: str | Card, soldiers: object = (), palace: object = ()) -> Army:
        """An army from strings: ``Army.parse("Kh", "Ks 7s", "2c 9d 4s")``."""
        return cls(Card.parse(banner), parse_cards(soldiers), parse_cards(palace))  # type: ignore[arg-type]

    @property
    def suit(self) -> Suit:
        """The banner suit."""
        return self.banner.suit

    @property
    def cards(self) -> tuple[Card, ...]:
        """Banner, soldiers and palace cards: the whole hand (R8.1)."""
        return (self.banner, *self.soldiers, *self.palace)

    def banner_count(self) -> int:
        """Cards of the army's own banner suit, banner included (R8.5)."""
        return sum(1 for c in self.cards if c.suit == self.banner.suit)


Side = Literal["attacker", "defender"]


@dataclass(frozen=True)
class BattleResult:
    """Who won a battle, how it was decided, both hands and the R8.5 counts."""

    winner: Side | None
    decided_by: Literal["hand", "banner_count", "tie"]
    attacker_hand: Hand
    defender_hand: Hand
    attacker_banner_count: int
    defender_banner_count: int
    explanation: str

    @property
    def rule(self) -> str:
        """The clause that decided it: R8.4, R8.5 or R8.6."""
        return {"hand": "R8.4", "banner_count": "R8.5", "tie": "R8.6"}[self.decided_by]


def _named(h: Hand) -> str:
    """A hand's name inside a sentence: "a pair of aces", "three kings", "high card ten"."""
    text = h.describe()
    text = text[:1].lower() + text[1:]
    return "a " + text if text.startswith(("pair", "flush", "straight", "full house")) else text


def resolve_battle(attacker: Army, defender: Army) -> BattleResult:
    """Show a battle down: each side loses the cards of the other's banner suit (R8.2)."""
    ah = evaluate(list(attacker.cards), exclude_suit=defender.suit)
    dh = evaluate(list(defender.cards), exclude_suit=attacker.suit)
    ac, dc = attacker.banner_count(), defender.banner_count()

    def lost(h: Hand) -> str:
        return " ".join(c.symbol for c in h.excluded) if h.excluded else "none"

    a_txt = f"{_named(ah)} (cards of {defender.suit.noun} lost: {lost(ah)})"
    d_txt = f"{_named(dh)} (cards of {attacker.suit.noun} lost: {lost(dh)})"
    if ah != dh:
        winner: Side = "attacker" if ah > dh else "defender"
        w, l_ = (a_txt, d_txt) if winner == "attacker" else (d_txt, a_txt)
        text = f"The {winner} wins with {w} against {l_} (R8.4)."
        return BattleResult(winner, "hand", ah, dh, ac, dc, text)
    if ac != dc:
        winner = "attacker" if ac > dc else "defender"
        text = (
            f"Both hold {_named(ah)}; the {winner} wins the tie-break with more cards of "
            f"their own banner suit ({max(ac, dc)} against {min(ac, dc)}, R8.5)."
        )
        return BattleResult(winner, "banner_count", ah, dh, ac, dc, text)
    text = (
        f"Both hold {_named(ah)} and {plural(ac, 'card')} of their own banner "
        f"suit: still tied, so both are out unless they are the last two (R8.6)."
    )
    return BattleResult(None, "tie", ah, dh, ac, dc, text)
