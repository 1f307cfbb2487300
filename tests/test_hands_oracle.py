"""Hand ranking checked against treys, textbook counts and hand-written cases (R1.3, R8.1-R8.3).

treys ranks hands 1 (royal flush) … 7462 (seven-high): lower is better, the reverse of
our values. Its classes run 0 royal flush, 1 straight flush … 9 high card; a royal flush
is a straight flush here, so class 0 is folded into 1.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from palace import Card, Category, Hand, Rank, Suit, evaluate, hand_value, parse_cards
from palace.cards import new_deck
from palace.hands import SUIT_MASKS, category_of, value_of_bits

treys = pytest.importorskip("treys", reason="treys is in the 'test' extra")

SEED = 7462
EVALUATOR = treys.Evaluator()
TREYS = [treys.Card.new(str(Card.from_index(i))) for i in range(52)]  # by Card.index
TEXTBOOK_FIVE_CARD_COUNTS = {  # hands of each category among all C(52, 5) = 2,598,960
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


def treys_rank(indices: list[int]) -> int:
    """treys' rank (lower is better) of 5-7 cards given by `Card.index`."""
    cards = [TREYS[i] for i in indices]
    return EVALUATOR.evaluate(cards[:2], cards[2:])


def treys_category(rank: int) -> Category:
    """Our category of a treys rank, via treys' own rank classes."""
    return Category(9 - max(EVALUATOR.get_rank_class(rank), 1))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# ---------------------------------------------------------------- (a) all five-card hands
@pytest.mark.slow
def test_R1_3_every_five_card_hand_agrees_with_treys_and_the_textbook() -> None:
    bit = [1 << i for i in range(52)]
    total = 2_598_960
    ours = np.fromiter(
        (
            value_of_bits(bit[a] | bit[b] | bit[c] | bit[d] | bit[e])
            for a, b, c, d, e in itertools.combinations(range(52), 5)
        ),
        dtype=np.int64,
        count=total,
    )
    ev = EVALUATOR.evaluate
    t = TREYS
    theirs = np.fromiter(
        (
            ev([t[a], t[b]], [t[c], t[d], t[e]])
            for a, b, c, d, e in itertools.combinations(range(52), 5)
        ),
        dtype=np.int64,
        count=total,
    )
    # category counts: ours, treys' and the textbook's
    cats, per_cat = np.unique(ours >> 20, return_counts=True)
    our_counts = Counter(
        {Category(c - 1): n for c, n in zip(cats.tolist(), per_cat.tolist(), strict=True)}
    )
    ranks, per_rank = np.unique(theirs, return_counts=True)
    their_counts: Counter[Category] = Counter()
    for rank, n in zip(ranks.tolist(), per_rank.tolist(), strict=True):
        their_counts[treys_category(rank)] += n
    assert our_counts == TEXTBOOK_FIVE_CARD_COUNTS
    assert their_counts == TEXTBOOK_FIVE_CARD_COUNTS
    # the same category for every single hand
    our_cat = (ours >> 20) - 1
    their_cat = np.zeros(7463, dtype=np.int64)
    their_cat[ranks] = [treys_category(r) for r in ranks.tolist()]
    mismatch = np.flatnonzero(our_cat != their_cat[theirs])
    assert mismatch.size == 0, f"{mismatch.size} hands differ in category"
    # the same order: value -> rank is a strictly decreasing bijection on 7462 classes
    pairs = np.unique(ours << 13 | theirs)  # (value, rank) pairs, sorted by our value
    assert len(pairs) == len(np.unique(ours)) == len(ranks) == 7462
    assert np.all(np.diff(pairs & 0x1FFF) < 0)


# ---------------------------------------------------------------- (b) random larger hands
def test_R1_3_twenty_thousand_seven_card_pairs_order_like_treys() -> None:
    rng = np.random.default_rng(SEED)
    hands = [rng.choice(52, 7, replace=False).tolist() for _ in range(40_000)]
    ours = [evaluate([Card.from_index(i) for i in h]).value for h in hands]
    theirs = [treys_rank(h) for h in hands]
    assert [treys_category(r) for r in theirs] == [category_of(v) for v in ours]
    disagree = [
        (hands[i], hands[i + 1])
        for i in range(0, len(hands), 2)
        if sign(ours[i] - ours[i + 1]) != sign(theirs[i + 1] - theirs[i])
    ]
    assert not disagree, disagree[:3]
    assert sum(ours[i] == ours[i + 1] for i in range(0, len(hands), 2)) > 0  # ties do occur


def test_R8_1_R8_2_nine_cards_with_exclusion_match_treys_best_five() -> None:
    """Nine cards, one suit left out: when five or more cards still count, our value
    orders like treys' best five-card subset of the counting cards (R8.1, R8.2)."""
    rng = np.random.default_rng(SEED + 1)
    checked: list[tuple[int, int]] = []
    while len(checked) < 3_000:
        hand = rng.choice(52, 9, replace=False).tolist()
        ex = int(rng.integers(-1, 4))
        counting = [i for i in hand if i // 13 != ex]
        if len(counting) < 5:
            continue
        ours = hand_value(hand, ex)
        theirs = min(treys_rank(list(five)) for five in itertools.combinations(counting, 5))
        assert category_of(ours) is treys_category(theirs), (hand, ex)
        checked.append((ours, theirs))
    for (v1, r1), (v2, r2) in itertools.pairwise(checked):
        assert sign(v1 - v2) == sign(r2 - r1)


def test_R8_2_leaving_out_a_suit_is_valuing_the_cards_without_it() -> None:
    """`value_of_bits(bits, suit)` is the value of the same cards with that suit's taken
    away, for every suit, on random sets of up to 14 cards (the compiled evaluator works in
    machine integers, where a shift done in 32 bits once lost every suit above clubs)."""
    rng = random.Random(82)
    for _ in range(20_000):
        bits = sum(1 << i for i in rng.sample(range(52), rng.randint(0, 14)))
        for suit in range(4):
            assert value_of_bits(bits, suit) == value_of_bits(bits & ~SUIT_MASKS[suit]), (
                hex(bits),
                suit,
            )


# ---------------------------------------------------------------- (c) hand-written cases
def value(text: str, exclude: str | None = None) -> int:
    return evaluate(text, exclude).value


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("Ah Kd Qc Js 9h", "2h 2d 3c 4s 5h"),  # high card < one pair
        ("Ah Ad Kc Qs Jh", "2h 2d 3c 3s 4h"),  # one pair < two pair
        ("Ah Ad Kc Ks Qh", "2h 2d 2c 3s 4h"),  # two pair < three of a kind
        ("Ah Ad Ac Ks Qh", "Ah 2d 3c 4s 5h"),  # three of a kind < the wheel straight
        ("Ah Kd Qc Js Th", "2h 3h 4h 5h 7h"),  # straight < flush
        ("Ah Kh Qh Jh 9h", "2h 2d 2c 3s 3h"),  # flush < full house
        ("Ah Ad Ac Ks Kh", "2h 2d 2c 2s 3h"),  # full house < four of a kind
        ("Ah Ad Ac As Kh", "Ah 2h 3h 4h 5h"),  # four of a kind < the wheel straight flush
    ],
)
def test_R1_3_categories_rank_in_order(lower: str, higher: str) -> None:
    assert evaluate(lower) < evaluate(higher)
    assert evaluate(lower).category + 1 == evaluate(higher).category


def test_R1_3_wheel_ranks_below_six_high_straight() -> None:
    wheel, six = evaluate("Ah 2c 3d 4s 5h"), evaluate("2c 3d 4s 5h 6h")
    assert wheel.category is six.category is Category.STRAIGHT
    assert wheel < six < evaluate("Th Jc Qd Ks Ah")
    assert wheel.value == (Category.STRAIGHT + 1) << 20 | 4 << 16  # five-high: rank code 4
    assert [c.rank for c in wheel.best] == [Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE]
    assert evaluate("Ah 2h 3h 4h 5h") < evaluate("2h 3h 4h 5h 6h")  # also as straight flush
    assert evaluate("Qh Kd Ac 2s 3h").category is Category.HIGH_CARD  # no wrap-around


def test_R1_2_suits_have_no_rank() -> None:
    a, b = evaluate("As Kh 9d 7c 2s"), evaluate("Ac Kd 9s 7h 2c")
    assert a == b and hash(a) == hash(b) and not a < b and not b < a
    assert evaluate("Ah Kh Qh Jh 9h") == evaluate("As Ks Qs Js 9s")


def test_R1_3_best_five_of_nine_cards() -> None:
    hand = evaluate("As Ad Ac Kh Kd 2c 3c 4c 5c")  # a full house and a wheel straight flush
    assert hand.category is Category.STRAIGHT_FLUSH
    assert hand.best == parse_cards("5c 4c 3c 2c Ac")
    assert evaluate("As Ad Ac Kh Kd Ks 2c 2d 9h").describe() == "Full house, aces over kings"


def test_R8_2_exclusion_kills_a_flush() -> None:
    cards = "As Ks Qs Js 9s 2h 3d"
    assert evaluate(cards).category is Category.FLUSH
    hand = evaluate(cards, "s")
    assert hand.category is Category.HIGH_CARD
    assert hand.excluded == parse_cards("As Ks Qs Js 9s")
    assert hand.counting == parse_cards("2h 3d")
    assert hand.best == parse_cards("3d 2h")
    assert hand.is_short
    assert hand.value == (Category.HIGH_CARD + 1) << 20 | 2 << 16 | 1 << 12  # 3, 2, -, -, -


def test_R8_2_exclusion_kills_a_straight_and_breaks_a_full_house() -> None:
    assert evaluate("9h Tc Jd Qs Kh 2h", "c").category is Category.HIGH_CARD
    assert evaluate("9h Tc Jd Qs Kh 8d 8h", "c").category is Category.ONE_PAIR
    full = "Kh Kd Ks 7h 7c 2d"
    assert evaluate(full).category is Category.FULL_HOUSE
    assert evaluate(full, "s").category is Category.TWO_PAIR
    assert evaluate(full, "c").category is Category.THREE_OF_A_KIND
    # without the diamonds, kings full of sevens becomes sevens full of kings
    assert evaluate("Kh Kd Ks 7h 7c 7s 2d", "d") == evaluate("7h 7c 7s Kh Ks")


def test_R8_2_best_and_excluded_name_the_cards() -> None:
    hand = evaluate("Ks Kd 7h 7c 2s 9d", Suit.SPADES)
    assert hand.excluded == parse_cards("Ks 2s")
    assert hand.category is Category.ONE_PAIR
    assert [c.rank for c in hand.best] == [Rank.SEVEN, Rank.SEVEN, Rank.KING, Rank.NINE]
    assert set(hand.best) == set(parse_cards("7h 7c Kd 9d"))
    assert evaluate("Ks Kd 7h 7c 2s 9d").excluded == ()


def test_R8_3_ace_king_queen_jack_beats_ace_king_queen() -> None:
    assert evaluate("Ah Kd Qc Js") > evaluate("Ah Kd Qc") > evaluate("Ah Kd") > evaluate("Ah")
    assert evaluate("Ah Kd Qc").describe() == "High card ace (short: 3 counting cards)"


def test_R8_3_no_counting_cards_loses_to_any_card() -> None:
    nothing = evaluate("As Ks Qs", "s")
    assert nothing.value == 0 and nothing.category is None and nothing.best == ()
    assert nothing.describe() == "No counting cards (short: 0 counting cards)"
    assert nothing < evaluate("2c") and evaluate("") == nothing
    assert hand_value([]) == 0


def test_R8_3_five_card_high_card_beats_same_top_four_with_no_fifth() -> None:
    assert evaluate("Ah Kd Qc Js 2h") > evaluate("Ah Kd Qc Js")
    assert evaluate("Ah Kd Qc Js 2h") > evaluate("Ah Kd Qc 9s 8s 7c", "c")


def test_R8_3_pair_with_missing_kickers() -> None:
    assert evaluate("Ah Ad").value == (Category.ONE_PAIR + 1) << 20 | 13 << 16
    assert evaluate("Ah Ad") < evaluate("Ah Ad 2c") < evaluate("Ah Ad 3c 2d")
    assert evaluate("Ah Ad 3c 2d") < evaluate("Ah Ad 4c 2d 3s")
    assert evaluate("Ah Ad") > evaluate("Kh Kd Qc Js Th 9s", "s")  # higher pair, fewer cards
    assert evaluate("Ah Ad").best == parse_cards("Ah Ad")


def test_R8_3_short_hands_make_no_straight_or_flush() -> None:
    assert evaluate("2h 3h 4h 5h").category is Category.HIGH_CARD
    assert evaluate("2h 3h 4h 5h 6h 7s", "h").category is Category.HIGH_CARD
    assert evaluate("Kh Kd 7c 7s").category is Category.TWO_PAIR
    assert evaluate("Kh Kd 7c 7s") < evaluate("Kh Kd 7c 7s 2d")
    assert evaluate("9h 9d 9c") < evaluate("9h 9d 9c 2s")
    assert evaluate("9h 9d 9c 9s").value == (Category.FOUR_OF_A_KIND + 1) << 20 | 8 << 16
    assert evaluate("9h 9d 9c 9s") < evaluate("9h 9d 9c 9s 2d")


def test_R8_3_short_hand_after_exclusion_is_described_as_short() -> None:
    hand = evaluate("As Ks Qs Js Ts 9h 9d 4c 2c", "s")
    assert hand.is_short and len(hand.counting) == 4 and len(hand.excluded) == 5
    assert hand.describe() == "Pair of nines (short: 4 counting cards)"


def test_hand_is_hashable_and_equal_by_strength() -> None:
    hands = [evaluate("Ah Kd"), evaluate("As Kc"), evaluate("Ad Kh 2c", "c"), evaluate("2c")]
    assert len(set(hands)) == 2
    assert hands[0] == hands[1] == hands[2] != hands[3]
    assert sorted(hands)[0] == evaluate("2d")
    assert isinstance(hands[0], Hand) and (hands[0] == "Ah Kd") is False


def _best_cards_plainly(hand: Hand) -> tuple[Card, ...]:
    """`Hand.best` as it was first written, card by card (the reference for `best_sets`):
    a flush from the suit with most cards (of equals, the first met high to low), a
    straight's cards rank by rank, else each deciding rank's cards, higher suits first."""
    value = hand.value
    if category_of(value) is None:
        return ()
    cat = category_of(value)
    ranks = [
        Rank(((value >> shift) & 0xF) + 1) for shift in (16, 12, 8, 4, 0) if (value >> shift) & 0xF
    ]
    pool = sorted(hand.counting, reverse=True)
    if cat in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        by_suit: dict[Suit, list[Card]] = {}
        for c in pool:
            by_suit.setdefault(c.suit, []).append(c)
        suit_cards = max(by_suit.values(), key=len)
        if cat is Category.FLUSH:
            return tuple(suit_cards[:5])
        pool = suit_cards
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        want = [14 if r == 1 else r for r in range(int(ranks[0]), int(ranks[0]) - 5, -1)]
        return tuple(next(c for c in pool if c.rank == r) for r in want)
    shapes = {0: (1, 1, 1, 1, 1), 1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 6: (3, 2), 7: (4, 1)}
    out: list[Card] = []
    for rank, count in zip(ranks, shapes[int(cat)], strict=False):
        picked = [c for c in pool if c.rank == rank and c not in out][:count]
        out.extend(picked)
    return tuple(out)


def test_R8_1_the_best_five_are_the_cards_written_out_plainly() -> None:
    """`Hand.best` (from `best_sets`, card sets) names the same cards in the same order as
    the plain card-by-card rule, on random hands of up to nine cards (R8.1) with and without
    an excluded suit, some short of five counting cards (R8.3); on bigger card sets (a rule
    bot weighing trims after a capture), two suits may hold five, and the best cards are
    still the ones the value was read from."""
    rng = random.Random(81)
    deck = new_deck()
    for i in range(20_000):
        if i % 5 == 0:  # five or more in each of two suits
            a, b = rng.sample(range(4), 2)
            cards = [c for c in deck if c.suit in (a, b) and rng.random() < 0.45]
        else:
            cards = rng.sample(deck, rng.randint(0, 9))
        hand = evaluate(cards, exclude_suit=rng.choice([None, "c", "d", "h", "s"]))
        if len(hand.counting) <= 9:
            assert hand.best == _best_cards_plainly(hand), (cards, hand)
        assert len(hand.best) == min(5, len(hand.counting)), (cards, hand)
        assert evaluate(hand.best).value == hand.value, (cards, hand)
