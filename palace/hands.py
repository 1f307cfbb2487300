"""Hand ranking (R1.3) with banner-suit exclusion (R8.2) and short hands (R8.3).

A hand's strength is one integer: ``(category + 1) << 20`` plus the deciding ranks
packed four bits each, most significant first, ranks coded 2→1 … A→13 and a missing
kicker coded 0 (so it ranks below every card, R8.3). A hand of no counting cards is 0.

>>> h = evaluate("As Ks Qs Js 9s 2h")
>>> h.category.name, h.describe()
('FLUSH', 'Flush, ace high')
>>> evaluate("As Ks Qs Js 9s 2h", exclude_suit="s").describe()
'High card two (short: 1 counting card)'
>>> evaluate("Ah Kd Qc Js") > evaluate("Ah Kd Qc")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any, Final, cast

from mypy_extensions import i64  # a machine integer where compiled (palace/native.py)

from palace.cards import Card, Rank, Suit, new_deck, parse_cards
from palace.errors import CardError
from palace.words import plural


class Category(IntEnum):
    """Poker hand categories from lowest to highest (R1.3)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Readable name: ``"Three of a kind"``."""
        return self.name.replace("_", " ").capitalize()


# ---------------------------------------------------------------- lookup tables
# `Final` lets the compiled engine (palace/native.py) read these as C statics, not through
# the module's dict on every use.
_N: Final = 1 << 13


def _top_pack(mask: int, k: int) -> int:
    out = 0
    for _ in range(k):
        b = mask.bit_length() - 1
        out = (out << 4) | (b + 1 if b >= 0 else 0)
        if b >= 0:
            mask &= ~(1 << b)
    return out


def _straight_top(mask: int) -> int:
    for top in range(12, 3, -1):  # ace-high down to six-high
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top + 1
    if mask & 0b1000000001111 == 0b1000000001111:  # A-2-3-4-5 ranks as five-high (R1.3)
        return 4
    return 0


# Every table is indexed by a suit's 13-bit rank mask and held as `bytes` (8 KB each, one
# byte an entry): compiled, a byte is read straight from the buffer, where a list of Python
# ints sends each read to an int object of its own (callgrind: 1% fewer instructions and 2%
# fewer L1 data misses a bot hand than lists). The packed tops of 3 and 5 ranks are wider
# than a byte: their high nibble is the top rank (`_TOP`), their lower bits are split into
# byte tables.
_POP: Final = bytes(bin(m).count("1") for m in range(_N))  # cards in the mask
_TOP: Final = bytes(m.bit_length() for m in range(_N))  # highest rank + 1 (0: none)
_STRAIGHT: Final = bytes(_straight_top(m) for m in range(_N))  # straight's top + 1 (0: none)
_TOP2: Final = bytes(_top_pack(m, 2) for m in range(_N))  # the top 2 ranks + 1, 4 bits each
_TOP3_LOW: Final = bytes(_top_pack(m, 3) & 0xFF for m in range(_N))  # 2nd and 3rd of 3
_TOP5_MID: Final = bytes(_top_pack(m, 5) >> 8 & 0xFF for m in range(_N))  # 2nd and 3rd of 5
_TOP5_LOW: Final = bytes(_top_pack(m, 5) & 0xFF for m in range(_N))  # 4th and 5th of 5


def _top5(m: i64) -> i64:
    """The top five ranks of mask `m`, + 1, packed 4 bits each (highest first)."""
    top: i64 = _TOP[m]
    mid: i64 = _TOP5_MID[m]
    low: i64 = _TOP5_LOW[m]
    return top << 16 | mid << 8 | low


# Each category's base value: ``(category + 1) << 20``.
SF: Final = 9 << 20
QUADS: Final = 8 << 20
FULL: Final = 7 << 20
FLUSH: Final = 6 << 20
STRAIGHT: Final = 5 << 20
TRIPS: Final = 4 << 20
TWO_PAIR: Final = 3 << 20
PAIR: Final = 2 << 20
HIGH: Final = 1 << 20


def hand_value(indices: Iterable[int], exclude_suit: int = -1) -> int:
    """Strength of the best five of these card indices, ignoring suit ``exclude_suit``.

    Higher is better; 0 means no counting card.

    >>> hand_value([12, 25, 38, 51]) > hand_value([12, 25, 38])  # four aces > three
    True
    """
    bits = 0
    for i in indices:
        if not 0 <= i < 52:
            raise CardError(f"card index must be 0-51, got {i!r} (R1.2)")
        bits |= 1 << i
    if not -1 <= exclude_suit <= 3:
        raise CardError(f"exclude_suit must be a suit index 0-3 or -1, got {exclude_suit!r}")
    return value_of_bits(bits, exclude_suit)


def card_set(cards: Iterable[Card]) -> int:
    """These cards as a 52-bit card set (bit ``Card.index``), as `value_of_bits` reads it.

    >>> card_set(parse_cards("2c 3c")) == 0b11
    True
    """
    bits = 0
    if type(cards) is tuple:  # the usual case, read by index in compiled code (no iterator)
        for c in cast("tuple[Card, ...]", cards):
            bits |= c.bit
        return bits
    for c in cards:
        bits |= c.bit
    return bits


# Strength (a card's place in the order cards sort in, rank then suit) -> card, and back.
_BY_STRENGTH: Final = tuple(sorted(new_deck()))
_STRENGTH: Final = tuple(s for _, s in sorted((c.index, s) for s, c in enumerate(_BY_STRENGTH)))
STRENGTH_BITS: Final = tuple(c.bit for c in _BY_STRENGTH)  # strength -> the card's bit


def strengths_of(bits: int) -> list[int]:
    """The strengths (0 for 2c .. 51 for As) of the cards of a card set, high to low."""
    out: list[int] = []
    while bits:
        lowest = bits & -bits
        out.append(_STRENGTH[lowest.bit_length() - 1])
        bits ^= lowest
    out.sort()  # (compiled, sort() and reverse() are C calls; sort(reverse=True) a
    out.reverse()  # Python method call with a keyword)
    return out


def cards_of(bits: int) -> tuple[Card, ...]:
    """The cards of a card set, high to low (the order `Card` sorts in); `card_set` undone.

    >>> cards_of(card_set(parse_cards("2c As Kd 2s")))
    (As, Kd, 2s, 2c)
    """
    return tuple([_BY_STRENGTH[s] for s in strengths_of(bits)])


SUIT_MASKS: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)  # a suit's 13 bits


def suits_of_five(bits: int) -> int:
    """How many suits hold five or more cards of a 52-bit card set. With two, `value_of_bits`
    takes the first suit's flush (a hand of ten cards or more), so taking cards away can
    raise its value; with one or none, it never does.

    >>> from palace.cards import parse_cards
    >>> suits_of_five(card_set(parse_cards("2c 3c 4c 5c 7c 2d 3d 4d 5d")))
    1
    """
    return (
        (_POP[bits & 0x1FFF] >= 5)
        + (_POP[(bits >> 13) & 0x1FFF] >= 5)
        + (_POP[(bits >> 26) & 0x1FFF] >= 5)
        + (_POP[bits >> 39] >= 5)
    )


def value_of_bits(bits: i64, exclude_suit: i64 = -1) -> i64:
    """Strength of a 52-bit card set (bit ``Card.index``), ignoring ``exclude_suit``.

    The fast core of `evaluate`. Its integers are machine integers where compiled (a card
    set has 52 bits, a value 24): no int objects, no checks for big ones.
    """
    if exclude_suit >= 0:
        # the suit's 13 bits taken out, not masked with `SUIT_MASKS`: compiled, indexing a
        # Final tuple by a variable builds a tuple of its items first. Never a literal
        # shifted by a variable in these machine integers: mypyc (2.4) writes ``8191 << n``
        # in C, a 32-bit shift, and every suit above clubs would be lost
        shift: i64 = 13 * exclude_suit
        bits ^= ((bits >> shift) & 0x1FFF) << shift
    a: i64 = bits & 0x1FFF
    b: i64 = (bits >> 13) & 0x1FFF
    c: i64 = (bits >> 26) & 0x1FFF
    d: i64 = bits >> 39
    flush: i64 = 0
    st: i64
    s: i64 = a if _POP[a] >= 5 else b if _POP[b] >= 5 else c if _POP[c] >= 5 else d
    if _POP[s] >= 5:  # the first suit (clubs, diamonds, ...) holding five decides
        st = _STRAIGHT[s]
        if st:
            return SF | st << 16
        flush = FLUSH | _top5(s)
    four: i64 = a & b & c & d
    anyr: i64 = a | b | c | d
    q: i64
    t: i64
    p: i64
    rest: i64
    if four:
        q = _TOP[four]  # rank + 1
        kicker: i64 = _TOP[anyr & ~(1 << (q - 1))]
        return QUADS | q << 16 | kicker << 12
    ab: i64 = a & b
    cd: i64 = c & d
    three: i64 = (ab & (c | d)) | (cd & (a | b))
    two: i64 = ab | cd | ((a | b) & (c | d))
    if three:
        t = _TOP[three]
        tb: i64 = 1 << (t - 1)
        rest = two & ~tb
        if rest:
            pair: i64 = _TOP[rest]
            return FULL | t << 16 | pair << 12
        if flush:
            return flush
        st = _STRAIGHT[anyr]
        if st:
            return STRAIGHT | st << 16
        kickers: i64 = _TOP2[anyr & ~tb]
        return TRIPS | t << 16 | kickers << 8
    if flush:
        return flush
    st = _STRAIGHT[anyr]
    if st:
        return STRAIGHT | st << 16
    if two:
        p = _TOP[two]
        pb: i64 = 1 << (p - 1)
        rest = two & ~pb
        if rest:
            p2: i64 = _TOP[rest]
            last: i64 = _TOP[anyr & ~pb & ~(1 << (p2 - 1))]
            return TWO_PAIR | p << 16 | p2 << 12 | last << 8
        low: i64 = anyr & ~pb  # the three kickers: the top rank's nibble, then the next two
        top: i64 = _TOP[low]
        next_two: i64 = _TOP3_LOW[low]
        return PAIR | p << 16 | (top << 8 | next_two) << 4
    if anyr:
        return HIGH | _top5(anyr)
    return 0


_CATEGORIES: Final[tuple[Category | None, ...]] = (None, *Category)  # indexed by ``value >> 20``


def category_of(value: int) -> Category | None:
    """The category of a hand value, or None for a hand of no counting cards."""
    return _CATEGORIES[value >> 20]


def _ranks_of(value: int) -> list[Rank]:
    """The deciding ranks packed in a value, most significant first (missing ones dropped)."""
    out = []
    for shift in (16, 12, 8, 4, 0):
        code = (value >> shift) & 0xF
        if code:
            out.append(Rank(code + 1))
    return out


class Hand:
    """The best hand from some cards, with what was excluded and why (R8.1-R8.3).

    Hands are ordered by strength: ``==`` means equal strength, whatever the suits.
    """

    __slots__ = ("value", "cards", "exclude_suit", "_best")

    def __init__(self, value: int, cards: tuple[Card, ...], exclude_suit: Suit | None) -> None:
        self.value = value
        self.cards = cards
        self.exclude_suit = exclude_suit
        self._best: tuple[Card, ...] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields (a compiled class is rebuilt through its __init__)."""
        return Hand, (self.value, self.cards, self.exclude_suit)

    # ordering ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return self.value == other.value if isinstance(other, Hand) else NotImplemented

    def __lt__(self, other: Hand) -> bool:
        return self.value < other.value

    def __le__(self, other: Hand) -> bool:
        return self.value <= other.value

    def __gt__(self, other: Hand) -> bool:
        return self.value > other.value

    def __ge__(self, other: Hand) -> bool:
        return self.value >= other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"Hand({self.describe()!r}, best={' '.join(map(str, self.best))!r})"

    # facts ------------------------------------------------------------------
    @property
    def category(self) -> Category | None:
        """The hand's category; None when no card counts."""
        return category_of(self.value)

    @property
    def counting(self) -> tuple[Card, ...]:
        """The cards that count: all cards but those of the excluded suit (R8.2)."""
        if self.exclude_suit is None:
            return self.cards
        return tuple(c for c in self.cards if c.suit != self.exclude_suit)

    @property
    def excluded(self) -> tuple[Card, ...]:
        """The cards left out because they are of the opponent's banner suit (R8.2)."""
        if self.exclude_suit is None:
            return ()
        return tuple(c for c in self.cards if c.suit == self.exclude_suit)

    @property
    def is_short(self) -> bool:
        """True when fewer than five cards count (R8.3)."""
        return len(self.counting) < 5

    @property
    def best(self) -> tuple[Card, ...]:
        """The (at most five) cards that make the hand, in the order they decide it."""
        if self._best is None:
            self._best = _best_cards(self.value, self.counting)
        return self._best

    def describe(self) -> str:
        """Plain-English name: ``"Two pair, kings and sevens"``."""
        text = describe_value(self.value)
        n = len(self.counting)
        if n < 5:
            text += f" (short: {plural(n, 'counting card')})"
        return text


def describe_value(value: int) -> str:
    """Plain-English name of a hand value.

    >>> describe_value(hand_value([12, 11, 10, 9, 8]))
    'Straight flush, ace high'
    """
    cat = category_of(value)
    if cat is None:
        return "No counting cards"
    r = _ranks_of(value)
    if cat is Category.STRAIGHT_FLUSH:
        return (
            "Straight flush, ace high" if r[0] is Rank.ACE else f"Straight flush, {r[0].noun} high"
        )
    if cat is Category.FOUR_OF_A_KIND:
        return f"Four {r[0].plural}"
    if cat is Category.FULL_HOUSE:
        return f"Full house, {r[0].plural} over {r[1].plural}"
    if cat is Category.FLUSH:
        return f"Flush, {r[0].noun} high"
    if cat is Category.STRAIGHT:
        return f"Straight, {r[0].noun} high"
    if cat is Category.THREE_OF_A_KIND:
        return f"Three {r[0].plural}"
    if cat is Category.TWO_PAIR:
        return f"Two pair, {r[0].plural} and {r[1].plural}"
    if cat is Category.ONE_PAIR:
        return f"Pair of {r[0].plural}"
    return f"High card {r[0].noun}"


# cards of each deciding rank, by category + 1 (0: no counting card); a list, as compiled
# code would build a new tuple to index a Final tuple
_SHAPE_OF: Final[list[tuple[int, ...]]] = [
    (),
    (1, 1, 1, 1, 1),
    (2, 1, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (),
    (),
    (3, 2),
    (4, 1),
    (),
]
_FLUSH_CODE: Final = FLUSH >> 20
_STRAIGHT_CODE: Final = STRAIGHT >> 20
_SF_CODE: Final = SF >> 20


def _of_rank(bits: int, rank: int, count: int) -> int:
    """The `count` cards of rank `rank` (2-14) in a card set, highest suits first."""
    out = 0
    for suit in range(3, -1, -1):
        if count and bits >> (suit * 13 + rank - 2) & 1:
            out |= 1 << (suit * 13 + rank - 2)
            count -= 1
    return out


def best_sets(value: int, bits: int) -> list[int]:
    """The cards that make a hand of this value from its counting cards (a card set), as
    card sets in the order they decide it: the five of a flush, else one set per deciding
    rank (R8.1). Of cards of equal rank, the higher suits are taken.

    >>> from palace.cards import format_cards
    >>> h = evaluate("Kd Kh 7s 7c 2d 2h")
    >>> [format_cards(cards_of(s)) for s in best_sets(h.value, card_set(h.counting))]
    ['Kh Kd', '7s 7c', '2h']
    """
    code = value >> 20
    if code == 0:
        return []
    ranks = [r + 1 for r in ((value >> 16) & 0xF, (value >> 12) & 0xF, (value >> 8) & 0xF,
                             (value >> 4) & 0xF, value & 0xF) if r]  # fmt: skip
    if code == _FLUSH_CODE or code == _SF_CODE:
        best = 0  # the suit `value_of_bits` read the flush from: the first holding five
        while (bits >> 13 * best & 0x1FFF).bit_count() < 5:
            best += 1
        bits &= 0x1FFF << 13 * best
        if code == _FLUSH_CODE:
            out, kept = 0, 0
            for rank in range(14, 1, -1):
                if kept < 5 and bits >> (best * 13 + rank - 2) & 1:
                    out |= 1 << (best * 13 + rank - 2)
                    kept += 1
            return [out]
    if code == _STRAIGHT_CODE or code == _SF_CODE:
        return [_of_rank(bits, 14 if r == 1 else r, 1) for r in range(ranks[0], ranks[0] - 5, -1)]
    sets: list[int] = []
    for rank, count in zip(ranks, _SHAPE_OF[code], strict=False):
        picked = _of_rank(bits, rank, count)
        sets.append(picked)
        bits &= ~picked
    return sets


def _best_cards(value: int, counting: Sequence[Card]) -> tuple[Card, ...]:
    out: list[Card] = []
    for s in best_sets(value, card_set(counting)):
        out.extend(cards_of(s))
    return tuple(out)


def evaluate(cards: str | Iterable[str | Card], exclude_suit: Suit | str | None = None) -> Hand:
    """The best hand from 0-9 cards, leaving out cards of ``exclude_suit`` (R8.1-R8.3)."""
    bits = 0
    if type(cards) is tuple or type(cards) is list:
        for c in cards:
            if type(c) is not Card:
                cs = parse_cards(cards)
                bits = 0
                for c2 in cs:
                    bits |= c2.bit
                break
            bits |= c.bit
        else:
            cs = tuple(cards)
    else:
        cs = parse_cards(cards)
        for c in cs:
            bits |= c.bit
    if bits.bit_count() != len(cs):
        dup = next(c for c in cs if cs.count(c) > 1)
        raise CardError(f"{dup} is named twice: a hand holds each card once (R1.2)")
    if exclude_suit is None:
        return Hand(value_of_bits(bits), cs, None)
    ex = exclude_suit if type(exclude_suit) is Suit else Suit.parse(exclude_suit)
    return Hand(value_of_bits(bits, ex), cs, ex)
