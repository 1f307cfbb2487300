"""Card value types: `Rank`, `Suit`, the frozen `Card`, a parser and a fresh deck (R1.2).

>>> parse_cards("As Kd 10h 7C")
(As, Kd, Th, 7c)
>>> Card.parse("Td").name
'Ten of diamonds'
>>> Card.from_index(Card.parse("As").index)
As
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from palace.errors import CardError
from palace.numbers import is_whole


class Rank(IntEnum):
    """Card ranks; the value is the pip count with J=11, Q=12, K=13, A=14 (R1.2)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """One-character symbol: ``"A"``, ``"K"``, ..., ``"T"``, ``"9"``, ..., ``"2"``."""
        return _RANK_LETTERS[self]

    @property
    def noun(self) -> str:
        """English name: ``"ace"``, ``"ten"``, ``"two"``."""
        return self.name.lower()

    @property
    def plural(self) -> str:
        """English plural: ``"aces"``, ``"sixes"``."""
        return "sixes" if self is Rank.SIX else self.noun + "s"


class Suit(IntEnum):
    """The four suits; they have no rank in this game (R1.2). The value is the suit index."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter symbol: ``"c"``, ``"d"``, ``"h"``, ``"s"``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """Unicode suit symbol: ``"♣"``, ``"♦"``, ``"♥"``, ``"♠"``."""
        return "♣♦♥♠"[self]

    @property
    def noun(self) -> str:
        """English name in lower case: ``"clubs"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str | Suit | int) -> Suit:
        """A suit from ``"h"``, ``"H"``, ``"♥"``, ``"hearts"`` or a `Suit`.

        >>> Suit.parse("♠"), Suit.parse("Hearts")
        (<Suit.SPADES: 3>, <Suit.HEARTS: 2>)
        """
        if isinstance(text, Suit):
            return text
        if is_whole(text) and 0 <= text < 4:
            return cls(text)
        if isinstance(text, str):
            key = text.strip().lower()
            if key in _SUIT_BY_TEXT:
                return _SUIT_BY_TEXT[key]
        raise CardError(f"unknown suit {text!r}: use c, d, h or s (R1.2)")


_RANK_LETTERS = {r: ("T" if r == 10 else "JQKA"[r - 11] if r > 10 else str(int(r))) for r in Rank}
_RANK_BY_TEXT = {v.lower(): k for k, v in _RANK_LETTERS.items()} | {"10": Rank.TEN}
_SUIT_BY_TEXT = (
    {s.letter: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {s.noun: s for s in Suit}
    | {s.noun[:-1]: s for s in Suit}
)


class Card:
    """One playing card; `str` gives ``"As"``.

    There is one `Card` object per card: `Card(rank, suit)`, `Card.parse` and unpickling all
    give the same object, so cards compare by identity (fast: the engine moves cards
    between lists all the time) and hash by their index (so sets of cards iterate in the
    same order in every run). Its fields are read-only. A compiled class where the engine
    is compiled (palace/native.py): the engine reads a card's fields directly.
    """

    _rank: Rank
    _suit: Suit
    _index: int
    _bit: int

    def __new__(cls, rank: Rank | int, suit: Suit | int | str) -> Card:
        try:
            r = Rank(rank)
        except (ValueError, TypeError):
            raise CardError(f"unknown rank {rank!r} (R1.2)") from None
        s = Suit.parse(suit)
        index = int(s) * 13 + int(r) - 2
        if _DECK:
            return _DECK[index]
        card = super().__new__(cls)
        card._rank = r
        card._suit = s
        card._index = index
        card._bit = 1 << index
        return card

    @property
    def rank(self) -> Rank:
        """The card's rank (R1.2)."""
        return self._rank

    @property
    def suit(self) -> Suit:
        """The card's suit (R1.2)."""
        return self._suit

    @property
    def index(self) -> int:
        """``suit * 13 + rank - 2``: 0 for 2c, 51 for As (`Card.from_index` undoes it)."""
        return self._index

    @property
    def bit(self) -> int:
        """``1 << index``: the card in a card set (`palace.hands.card_set`)."""
        return self._bit

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """A card from ``"As"``, ``"10h"``, ``"td"``, ``"K♠"``; a `Card` passes through."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r} (expected a string such as 'As', R1.2)")
        s = text.strip()
        if len(s) < 2:
            raise CardError(f"not a card: {text!r} (expected rank then suit, such as 'As', R1.2)")
        rank = _RANK_BY_TEXT.get(s[:-1].lower())
        if rank is None:
            raise CardError(
                f"unknown rank {s[:-1]!r} in card {text!r}: use A K Q J T (or 10) 9-2 (R1.2)"
            )
        suit_key = s[-1].lower()
        if suit_key not in _SUIT_BY_TEXT:
            raise CardError(f"unknown suit {s[-1]!r} in card {text!r}: use c, d, h or s (R1.2)")
        return _DECK[_SUIT_BY_TEXT[suit_key] * 13 + rank - 2]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0-51, ``suit * 13 + rank - 2``); inverse of `.index`."""
        if not is_whole(index) or not 0 <= index < 52:
            raise CardError(f"card index must be an integer 0-51, got {index!r} (R1.2)")
        return _DECK[index]

    @property
    def name(self) -> str:
        """Text alternative for screen readers: ``"King of spades"``."""
        return f"{self.rank.noun.capitalize()} of {self.suit.noun}"

    @property
    def symbol(self) -> str:
        """Rank and suit symbol as printed on the card: ``"K♠"``, ``"10♥"``."""
        return ("10" if self.rank is Rank.TEN else self.rank.letter) + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __hash__(self) -> int:
        return self._index

    def __lt__(self, other: Card) -> bool:
        """Order by rank, then suit index (for display only: suits have no rank, R1.2)."""
        return (self.rank, self.suit) < (other.rank, other.suit)


_DECK: tuple[Card, ...] = ()
_DECK = tuple(Card(Rank(i % 13 + 2), Suit(i // 13)) for i in range(52))


CardsLike = str | Iterable[str | Card] | None  # anything `parse_cards` reads


def parse_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Cards from ``"As Kd 7h"`` (spaces or commas) or an iterable of strings and cards.

    >>> parse_cards("ah,KS 10c")
    (Ah, Ks, Tc)
    """
    if cards is None:
        return ()
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str):
        items: Iterable[str | Card] = cards.replace(",", " ").split()
    else:
        try:
            items = iter(cards)
        except TypeError:
            raise CardError(
                f"cards must be a string such as 'As Kd 7h' or a list of cards, got {cards!r}"
                " (R1.2)"
            ) from None
    return tuple(Card.parse(c) for c in items)


def new_deck() -> list[Card]:
    """A fresh ordered deck: 2c, 3c, ..., Ac, 2d, ..., As (index order).

    >>> deck = new_deck(); len(deck), deck[0], deck[-1]
    (52, 2c, As)
    """
    return list(_DECK)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as ``"As Kd 7h"``; ``"—"`` for none."""
    text = " ".join(str(c) for c in cards)
    return text or "—"
