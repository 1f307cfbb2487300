"""Battle showdown between two armies: exclusion (R8.2), ranking (R8.3-R8.4), tie-break (R8.5-R8.6).

>>> att = Army.parse(banner="Kh", soldiers="Qs Js Ts", palace="9s 2c 3d")  # a straight...
>>> dfn = Army.parse(banner="As", soldiers="Ac", palace="5d 6d 8c")
>>> r = resolve_battle(att, dfn)   # ...but the defender's banner suit takes the spades away
>>> r.winner, r.decided_by, r.attacker_hand.describe()
('defender', 'hand', 'High card king (short: 3 counting cards)')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from palace.cards import Card, CardsLike, Suit, parse_cards
from palace.hand_words import decided, hand_cards, hand_name
from palace.hands import Hand, evaluate
from palace.records import by_fields, set_fields
from palace.words import plural

_ARMY_FIELDS: Final = ("banner", "soldiers", "palace")
_RESULT_FIELDS: Final = (
    "winner",
    "decided_by",
    "attacker_hand",
    "defender_hand",
    "attacker_banner_count",
    "defender_banner_count",
    "attacker_suit",
    "defender_suit",
)


@dataclass(frozen=True, init=False)
class Army:
    """A player's cards in a battle: the banner, the soldiers and the palace (R8.1)."""

    banner: Card
    soldiers: tuple[Card, ...] = ()
    palace: tuple[Card, ...] = ()

    def __init__(  # written out: a showdown makes two (palace.records)
        self, banner: Card, soldiers: tuple[Card, ...] = (), palace: tuple[Card, ...] = ()
    ) -> None:
        set_fields(self, _ARMY_FIELDS, banner, soldiers, palace)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    @classmethod
    def parse(cls, banner: str | Card, soldiers: CardsLike = (), palace: CardsLike = ()) -> Army:
        """An army from strings: ``Army.parse("Kh", "Ks 7s", "2c 9d 4s")``."""
        return cls(Card.parse(banner), parse_cards(soldiers), parse_cards(palace))

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


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, init=False)
class BattleResult:
    """Who won a battle, how it was decided, both hands and the R8.5 counts.

    `explain(attacker="Ann", defender="Bob")` says it in words with the players' names;
    `without_exclusion()` is the same battle with no banner-suit exclusion, so a lesson can
    say when exclusion decided it (`exclusion_decided`).
    """

    winner: Side | None
    decided_by: Literal["hand", "banner_count", "tie"]
    attacker_hand: Hand
    defender_hand: Hand
    attacker_banner_count: int
    defender_banner_count: int
    attacker_suit: Suit
    defender_suit: Suit

    def __init__(  # written out: a showdown makes one (palace.records)
        self,
        winner: Side | None,
        decided_by: Literal["hand", "banner_count", "tie"],
        attacker_hand: Hand,
        defender_hand: Hand,
        attacker_banner_count: int,
        defender_banner_count: int,
        attacker_suit: Suit,
        defender_suit: Suit,
    ) -> None:
        set_fields(
            self,
            _RESULT_FIELDS,
            winner,
            decided_by,
            attacker_hand,
            defender_hand,
            attacker_banner_count,
            defender_banner_count,
            attacker_suit,
            defender_suit,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    @property
    def rule(self) -> str:
        """The clause that decided it: R8.4, R8.5 or R8.6."""
        return {"hand": "R8.4", "banner_count": "R8.5", "tie": "R8.6"}[self.decided_by]

    @property
    def explanation(self) -> str:
        """`explain()` with "the attacker" and "the defender" for names."""
        return self.explain()

    def explain(
        self, attacker: str = "the attacker", defender: str = "the defender", *, cite: bool = True
    ) -> str:
        """The result in one sentence, naming the two sides: each side's best five and the
        cards it lost to the other's banner suit (R8.2) and, where the two hands are of one
        category, the cards that decided it (R8.4) or the banner counts (R8.5, R8.6); `cite`
        adds the clause.

        >>> ann, bob = Army.parse("Kh", "Kd 7c", "9d 4c 2c"), Army.parse("As", "Qs 3h", "Jd 8h 5c")
        >>> r = resolve_battle(ann, bob)
        >>> print(r.explain("Ann", "Bob"))  # doctest: +NORMALIZE_WHITESPACE
        Ann wins with a pair of kings (K♥ K♦ 9♦ 7♣ 4♣; no spades lost) against Bob's high
        card ace (A♠ Q♠ J♦ 5♣; short: 4 counting cards; hearts lost: 3♥ 8♥) (R8.4).
        >>> r.explain("Ann", "Bob", cite=False)[-9:]
        ': 3♥ 8♥).'
        """
        ah, dh = self.attacker_hand, self.defender_hand
        a_cards = f"({hand_cards(ah, self.defender_suit.noun)})"
        d_cards = f"({hand_cards(dh, self.attacker_suit.noun)})"
        a_txt, d_txt = f"{hand_name(ah)} {a_cards}", f"{hand_name(dh)} {d_cards}"
        if self.decided_by == "hand":
            if self.winner == "attacker":
                w, lo, wt, wh, lh, lc = attacker, defender, a_txt, ah, dh, d_cards
            else:
                w, lo, wt, wh, lh, lc = defender, attacker, d_txt, dh, ah, a_cards
            why = decided(w, wh, lo, lh)
            text = f"{_upper(w)} wins with {wt} against {lo}'s {hand_name(lh, article=False)} {lc}"
            text += f": {why}" if why else ""
        else:
            both = f"{_upper(attacker)} holds {a_txt} and {defender} {d_txt}, equal card for card"
            ac, dc = self.attacker_banner_count, self.defender_banner_count
            if self.decided_by == "banner_count":
                w = attacker if self.winner == "attacker" else defender
                text = (
                    f"{both}; {w} wins the tie-break with more cards of their own banner suit "
                    f"({max(ac, dc)} against {min(ac, dc)})"
                )
            else:
                text = (
                    f"{both}, and each holds {plural(ac, 'card')} of their own banner suit: still "
                    "tied, so both are out unless they are the last two"
                )
        return text + (f" ({self.rule})." if cite else ".")

    def without_exclusion(self, attacker: Army, defender: Army) -> BattleResult:
        """The same two armies shown down with no banner-suit exclusion (a counterfactual)."""
        return resolve_battle(attacker, defender, exclusion=False)


def resolve_battle(attacker: Army, defender: Army, *, exclusion: bool = True) -> BattleResult:
    """Show a battle down: each side loses the cards of the other's banner suit (R8.2).

    `exclusion=False` shows the same battle with every card counting, for lessons that ask
    what exclusion changed; the game itself always excludes.
    """
    ah = evaluate(list(attacker.cards), exclude_suit=defender.suit if exclusion else None)
    dh = evaluate(list(defender.cards), exclude_suit=attacker.suit if exclusion else None)
    ac, dc = attacker.banner_count(), defender.banner_count()
    a_suit, d_suit = attacker.suit, defender.suit
    if ah != dh:
        side: Side = "attacker" if ah > dh else "defender"
        return BattleResult(side, "hand", ah, dh, ac, dc, a_suit, d_suit)
    if ac != dc:
        winner: Side = "attacker" if ac > dc else "defender"
        return BattleResult(winner, "banner_count", ah, dh, ac, dc, a_suit, d_suit)
    return BattleResult(None, "tie", ah, dh, ac, dc, a_suit, d_suit)
