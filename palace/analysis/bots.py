"""Computer players. A bot sees only `game.view(seat)` and returns one of `view.legal`.

>>> from palace.game import Game
>>> g = Game.new(players=4, seed=11)
>>> finished = play_out(g, {s: RuleBot() for s in range(4)})
>>> finished.is_over
True
"""

from __future__ import annotations

import random
from typing import Final

from palace.actions import Action, Bet, Raise
from palace.checks import (
    BUY,
    CALL,
    FOLD,
    RAISE,
    STAY,
    TurnOutline,
    listed_discard,
    listed_trim,
    listing_order,
    trim_floor,
)
from palace.errors import PalaceError
from palace.events import Phase
from palace.hands import (
    Category,
    Hand,
    best_sets,
    card_set,
    evaluate,
    suits_of_five,
    value_of_bits,
)
from palace.match import Bot, EngineBot, play_out

__all__ = ["Bot", "RandomBot", "RuleBot", "my_hand_against", "play_out", "their_visible_against"]
from palace.views import SeatInfo, SeatView

# Categories as plain integers, which compiled code compares as machine words (`_at_least`)
ONE_PAIR: Final = int(Category.ONE_PAIR)
THREE_OF_A_KIND: Final = int(Category.THREE_OF_A_KIND)
# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
P_BATTLE_RESPONSE: Final = Phase.BATTLE_RESPONSE
P_TRIM_TO_FIVE: Final = Phase.TRIM_TO_FIVE
# The action classes too: a compiled module reads a class of a pure-Python module through
# its globals dict on every use, and the rule bot looks for a Raise among the legal answers.
RAISE_TYPE: Final = Raise


class RandomBot(EngineBot):
    """Picks a kind of action uniformly (Buy, Discard, Bet, …), then one of that kind."""

    name = "random"

    def __init__(self, seed: int | random.Random = 0) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        kinds = sorted({a.kind for a in legal})
        kind = self.rng.choice(kinds)
        return self.rng.choice([a for a in legal if a.kind == kind])


def _public(view: SeatView, seat: int) -> list:
    info = view.seats[seat]
    return ([info.banner] if info.banner else []) + list(info.soldiers)


def _public_bits(info: SeatInfo) -> int:
    """A seat's face-up cards (banner and soldiers) as a card set."""
    return card_set(info.soldiers) | (info.banner.bit if info.banner is not None else 0)


def _my_bits(view: SeatView) -> int:
    """The seat's whole hand as a card set: `card_set(view.my_cards)`, without the tuple."""
    return _public_bits(view.seats[view.seat]) | card_set(view.palace)


def my_hand_against(view: SeatView, opponent: int) -> Hand:
    """My whole hand with the opponent's banner suit excluded (R8.2)."""
    return evaluate(list(view.my_cards), exclude_suit=view.seats[opponent].suit)


def their_visible_against(view: SeatView, opponent: int) -> Hand:
    """The opponent's face-up cards with my banner suit excluded: a floor on their hand."""
    return evaluate(_public(view, opponent), exclude_suit=view.me.suit)


def _suit_index(info: SeatInfo) -> int:
    """A seat's banner suit as an index (read off its banner card; `SeatInfo.suit` says
    which seat has no banner yet, R4)."""
    banner = info.banner
    return int(info.suit) if banner is None else banner.index // 13  # index: suit * 13 + ...


class _Sizes:
    """One decision's hand values against an opponent: the same numbers as
    `my_hand_against(...).value` and `their_visible_against(...).value`, worked out when
    asked (a decision asks for each opponent's once, so nothing is kept: two lists a
    decision cost more than the rare value worked out twice)."""

    __slots__ = ("seats", "seat", "mine", "_my_suit")

    def __init__(self, view: SeatView) -> None:
        self.seats = view.seats
        self.seat = view.seat
        self.mine = _my_bits(view)
        self._my_suit = -1  # read when first needed (a seat has a banner once dealt, R4)

    def mine_vs(self, opponent: int) -> int:
        return value_of_bits(self.mine, _suit_index(self.seats[opponent]))

    def floor_vs(self, opponent: int) -> int:
        if self._my_suit < 0:
            self._my_suit = _suit_index(self.seats[self.seat])
        return value_of_bits(_public_bits(self.seats[opponent]), self._my_suit)


def _at_least(value: int, category: int) -> bool:
    """Is a hand of this value in `category` or better (a hand of no counting card is not)?"""
    return value >> 20 > category


_WEIGH_ALL: Final = 3
"""Up to this many soldiers, `best_trim` weighs all their trims (eight at most): cheaper
than keeping track of which ones to grow."""


def best_trim(whole: int, soldiers: int, low: int) -> int:
    """The soldiers the rule bot discards (a card set) in a Trim of at least `low` of
    `soldiers`, its whole hand being `whole`: the trim that keeps the strongest hand, then
    the fewest cards, then the first listed by `legal_actions` (R6.7); -1 if none is legal.

    Taking cards away never raises a hand's value (while at most one suit holds five:
    `suits_of_five`), so the strongest kept hand is among the trims of exactly `low`
    soldiers, and a trim of one more soldier can keep it only if a trim it contains does:
    the search weighs the smallest trims, then grows only those that keep the best value,
    one soldier at a time, and takes the first listed of the largest. With two suits of
    five, or few soldiers, it weighs every trim in listing order (`checks.listing_order`),
    each card set a local integer.

    >>> from palace.cards import parse_cards
    >>> from palace.hands import cards_of
    >>> soldiers = card_set(parse_cards("8h 9d Kc Ks"))
    >>> hand = soldiers | card_set(parse_cards("As Ah Ad 2c 3d"))  # full house: aces and kings
    >>> cards_of(best_trim(hand, soldiers, 0))
    (9d, 8h)
    """
    cards, order, starts = listing_order(soldiers)
    n = len(cards)
    if low < 0:
        low = 0
    if low > n:
        return -1
    if n <= _WEIGH_ALL or suits_of_five(whole) > 1:
        return _weigh_every_trim(whole, cards, order, starts, low)
    # the trims of `low` soldiers, in listing order: the best value, and those that keep it
    best_value = -1
    level: list[int] = []  # position masks (bit i: the i-th strongest soldier)
    level_bits: list[int] = []  # their card sets
    for i in range(starts[low], starts[low + 1] if low < n else len(order)):
        pm = order[i]
        bits = _bits_of(pm, cards)
        value = value_of_bits(whole & ~bits)
        if value > best_value:
            best_value = value
            level = [pm]
            level_bits = [bits]
        elif value == best_value:
            level.append(pm)
            level_bits.append(bits)
    seen = [False] * (1 << n)
    size = low
    while size < n:
        grown: list[int] = []
        grown_bits: list[int] = []
        for k in range(len(level)):
            pm = level[k]
            for j in range(n):
                bit = 1 << j
                if pm & bit or seen[pm | bit]:
                    continue
                seen[pm | bit] = True
                bits = level_bits[k] | cards[j]
                if value_of_bits(whole & ~bits) == best_value:
                    grown.append(pm | bit)
                    grown_bits.append(bits)
        if not grown:
            break
        level, level_bits = grown, grown_bits
        size += 1
    first = 0  # the first listed: within a size, trims are listed as `combinations` of
    for k in range(1, len(level)):  # positions, so the one holding the lowest position
        differ = level[k] ^ level[first]  # where two differ comes first
        if level[k] & differ & -differ:
            first = k
    return level_bits[first]


def _bits_of(pm: int, cards: list[int]) -> int:
    """The card set of a position mask over `cards`."""
    bits = 0
    while pm:
        lowest = pm & -pm
        bits |= cards[lowest.bit_length() - 1]
        pm ^= lowest
    return bits


def _weigh_every_trim(
    whole: int, cards: list[int], order: tuple[int, ...], starts: tuple[int, ...], low: int
) -> int:
    """`best_trim` by weighing every trim in listing order (a hand whose value taking cards
    away may raise)."""
    n = len(cards)
    best = -1
    best_value = best_size = -1
    for size in range(low, n + 1):  # fewest discarded first: a tie goes to the first
        for i in range(starts[size], starts[size + 1] if size < n else len(order)):
            bits = _bits_of(order[i], cards)
            value = value_of_bits(whole & ~bits)
            if value > best_value or (value == best_value and size > best_size):
                best, best_value, best_size = bits, value, size
    return best


class RuleBot(EngineBot):
    """A simple card-room regular: buys toward a hand, attacks when clearly ahead on what
    it can see, calls or raises strong defences and folds weak ones."""

    name = "rules"

    def __init__(
        self, attack_at: Category = Category.TWO_PAIR, buy_below: Category = Category.TWO_PAIR
    ) -> None:
        self.attack_at = attack_at
        self.buy_below = buy_below
        # the same as plain integers, compared as machine words on every decision
        self._attack_at = int(attack_at)
        self._buy_below = int(buy_below)

    def choose(self, view: SeatView) -> Action:
        if view.phase is P_TRIM_TO_FIVE and view.to_act == view.seat:
            return self._trim(view)  # weighs the trims without listing them (`view.legal`)
        if view.phase is P_BATTLE_RESPONSE and view.legal:
            return self._answer(view)
        outline = view.turn_outline  # the kinds of turn action, the Discards not listed
        if outline is None:
            raise PalaceError(f"seat {view.seat} has no decision to make now")
        return self._turn(view, outline)

    def _trim(self, view: SeatView) -> Action:
        """Keep the soldiers that make the best hand, and no more than it needs (R6.7):
        `best_trim` weighs the legal trims as card sets, and only the one taken is built."""
        soldiers = view.me.soldiers
        bits = best_trim(_my_bits(view), card_set(soldiers), trim_floor(len(soldiers), view.rules))
        if bits < 0:
            raise PalaceError(f"seat {view.seat} has no trim to choose (R6.7)")
        return listed_trim(bits)

    def _answer(self, view: SeatView) -> Action:
        b = view.battle
        assert b is not None
        opp = b.attacker if view.seat == b.defender else b.defender
        sizes = _Sizes(view)
        mine, floor = sizes.mine_vs(opp), sizes.floor_vs(opp)
        if _at_least(mine, THREE_OF_A_KIND) and mine > floor and b.raises < 2:
            if any(type(a) is RAISE_TYPE for a in view.legal):
                return RAISE
        if mine > floor and _at_least(mine, ONE_PAIR):
            return CALL
        return FOLD

    def _turn(self, view: SeatView, outline: TurnOutline) -> Action:
        can_buy, can_discard, bets, can_stay = outline
        not_forced = can_buy or can_discard or can_stay  # else only Bet and Fold (R9.3)
        sizes = _Sizes(view)
        best: tuple[int, Bet] | None = None
        for a in bets:
            target = a.target  # read once: a field of a pure-Python class is a Python lookup
            mine = sizes.mine_vs(target)
            margin = mine - sizes.floor_vs(target)
            if _at_least(mine, self._attack_at) and margin > 0:
                if best is None or margin > best[0]:
                    best = (margin, a)
        if not not_forced:  # only Bet and Fold: R9.3, two left must battle
            if bets:
                return best[1] if best else max(bets, key=lambda a: sizes.mine_vs(a.target))
            return FOLD
        if best is not None:
            return self._sized(view, best[1], sizes)
        whole = value_of_bits(sizes.mine)  # my whole hand
        if can_buy and not _at_least(whole, self._buy_below) and len(view.me.soldiers) < 5:
            return BUY
        if can_discard:
            # soldiers outside the best five only raise what attacks and calls cost (R7.3, R7.6)
            five = 0
            for cards in best_sets(whole, sizes.mine):
                five |= cards
            idle = card_set(view.me.soldiers) & ~five
            if idle:  # a non-empty set of its soldiers: listed while it may discard (R6.4)
                return listed_discard(idle)
        return STAY

    def _sized(self, view: SeatView, bet: Bet, sizes: _Sizes | None = None) -> Bet:
        """In no-limit, press a strong hand with twice the minimum attack (R7.3)."""
        if not view.rules.no_limit:
            return bet
        mine = (sizes or _Sizes(view)).mine_vs(bet.target)
        if not _at_least(mine, THREE_OF_A_KIND):
            return bet
        amount = 2 * (len(view.me.soldiers) + 1) * view.rules.small_bet
        if view.me.stack is not None and amount > view.me.stack:
            return bet
        return Bet(target=bet.target, amount=amount)
