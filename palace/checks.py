"""Check, then act: the one place that says why an action is illegal now (R3.4, R6, R7, R9.3).

`legal_actions` and `Game.apply` both use these checks, so the reason shown in the UI
is the reason enforced. Each action kind has a gate (what must hold for the kind at all:
R9.3, chips, an empty deck) and, where the action names cards, targets or amounts, a
check of those; `why_illegal` runs both, `legal_actions` runs each gate once and then the
checks for every candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final, TypeVar

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.cards import Card
from palace.events import Phase
from palace.hands import STRENGTH_BITS, card_set, cards_of, strengths_of
from palace.numbers import is_whole
from palace.rules import Rules
from palace.table import Table
from palace.words import plural

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
P_BATTLE_RESPONSE: Final = Phase.BATTLE_RESPONSE
P_HAND_OVER: Final = Phase.HAND_OVER
P_TRIM_TO_FIVE: Final = Phase.TRIM_TO_FIVE
P_TURN: Final = Phase.TURN

BUY: Final = Buy()
STAY: Final = Stay()
FOLD: Final = Fold()
CALL: Final = Call()
RAISE: Final = Raise()
_BETS: Final = [Bet(target=s) for s in range(10)]

# The action classes as module constants, for this module and the engine's others to import:
# a compiled module (palace/native.py) reads a class of a pure-Python module through its
# globals dict on every use, and `why_illegal` and `play.perform` tell every action apart
# by its class.
A_BET: Final = Bet
A_BUY: Final = Buy
A_CALL: Final = Call
A_DISCARD: Final = Discard
A_FOLD: Final = Fold
A_RAISE: Final = Raise
A_STAY: Final = Stay
A_TRIM: Final = Trim


# ------------------------------------------------------------------ amounts (R3.4, R7)
def min_attack(t: Table, seat: int) -> int:
    """R7.3: (attacker's soldiers + 1) × s."""
    return (len(t.soldiers(seat)) + 1) * t.small_bet


def attack_of(t: Table, seat: int, amount: int | None) -> tuple[int, bool]:
    """The chips an attack puts in and whether it is all-in for less than the minimum
    (R3.4 b): ``Bet(amount=None)`` means the minimum, or everything a short stack has."""
    low = min_attack(t, seat)
    stack = t.stacks[seat] if t.stacks is not None else None
    if amount is None:
        if stack is not None and stack < low:
            return stack, True
        return low, False
    return amount, stack is not None and amount == stack and amount < low


def call_amount(t: Table, seat: int, attack: int, allin: bool = False) -> int:
    """R7.6: what the defender pays to call the attack (at most an all-in attack, R3.4 b)."""
    if t.calls_match_attack:
        owed = attack
    else:
        owed = (len(t.soldiers(seat)) + 1) * t.small_bet
    return min(owed, attack) if allin else owed


def limit_raise(t: Table, seat: int) -> int:
    """R7.7: the limit raise is `b`, or 2 × s for a player with no soldiers."""
    if not t.soldiers(seat):
        return 2 * t.small_bet
    return t.rules.big_bet


def raise_of(t: Table, seat: int, amount: int | None) -> int:
    """The size of ``Raise(amount)`` for `seat` (R7.7): the limit size, or at least `b`."""
    if amount is not None:
        return amount
    return t.rules.big_bet if t.no_limit else limit_raise(t, seat)


def two_left(t: Table) -> bool:
    """R9.3: exactly two players of different banner suits are left."""
    live = t.in_hand()
    return len(live) == 2 and t.banner_suit(live[0]) != t.banner_suit(live[1])


def _afford(t: Table, seat: int, amount: int, what: str) -> str | None:
    if t.stacks is not None and t.stacks[seat] < amount:
        left = t.stacks[seat]
        return (
            f"{t.name(seat)} cannot afford {what} of {plural(amount, 'chip')} with "
            f"{plural(left, 'chip') if left else 'no chips'} left (R3.4)"
        )
    return None


# ------------------------------------------------------------------ gates and checks
def _forced(t: Table, seat: int) -> str | None:
    if t.must_battle:
        return (
            f"two players of different banner suits are left: {t.name(seat)} must Bet or "
            "Fold (R9.3)"
        )
    return None


def _buy_gate(t: Table, seat: int) -> str | None:
    reason = _forced(t, seat)
    if reason:
        return reason
    if not t.deck and not t.discard:
        return "the draw deck and the discard pile are both empty, so Buy is not possible (R6.3)"
    return _afford(t, seat, t.small_bet, "a Buy")


def _discard_gate(t: Table, seat: int) -> str | None:
    reason = _forced(t, seat)
    if reason:
        return reason
    if not t.soldiers(seat):
        return f"{t.name(seat)} has no soldiers to discard (R6.4)"
    return _afford(t, seat, t.discard_amount, "a Discard")


def _soldier_cards(t: Table, seat: int, cards: tuple[Card, ...], rule: str) -> str | None:
    soldiers = t.soldiers(seat)
    if card_set(cards).bit_count() != len(cards):  # one bit per card
        return f"a card is named twice in {' '.join(c.symbol for c in cards)} ({rule})"
    for c in cards:
        if c not in soldiers:
            return f"{c.symbol} is not one of {t.name(seat)}'s soldiers ({rule})"
    return None


def _discard_cards(t: Table, seat: int, action: Discard) -> str | None:
    if not action.cards:
        return "a Discard must discard one or more soldiers (R6.4)"
    return _soldier_cards(t, seat, action.cards, "R6.4")


def _bet_target(t: Table, seat: int, target: int) -> str | None:
    """R7.1-R7.2: an opponent still in the hand, of another banner suit."""
    if target == seat:
        return f"{t.name(seat)} cannot attack themselves: name an opponent (R7.1)"
    if not t.active[target]:
        return f"{t.name(target)} is out of the hand and cannot be attacked (R7.1)"
    s = t.banner_suit(seat)
    if t.banner_suit(target) is s:  # one object per suit
        return (
            f"{t.name(seat)} and {t.name(target)} both have {s.symbol} banners: players of the "
            f"same banner suit may not battle (R7.2)"
        )
    return None


def _bet_amount(t: Table, seat: int, given: object) -> str | None:
    """R7.3 and R3.4: the attack's size, whatever the target."""
    if given is not None and not is_whole(given):
        return f"Bet.amount must be a whole number of chips, got {given!r} (R7.3)"
    low = min_attack(t, seat)
    amount, allin = attack_of(t, seat, given if isinstance(given, int) else None)
    if allin:
        return None  # R3.4 b: a short stack attacks with everything it has
    if t.stacks is not None and t.stacks[seat] < low:
        left = t.stacks[seat]
        how = f"with exactly {left}" if left else "for nothing (Bet with no amount)"
        return (
            f"{t.name(seat)} has {plural(left, 'chip') if left else 'no chips'}, less than the "
            f"minimum attack of {low}: they may attack all-in {how} (R3.4)"
        )
    if not t.no_limit and amount != low:
        return f"in limit the attack is exactly (soldiers + 1) × s = {low} (R7.3)"
    if amount < low:
        return f"the minimum attack is (soldiers + 1) × s = {low} (R7.3)"
    return _afford(t, seat, amount, "an attack")


def _given(action: Action, name: str) -> object:
    """A field of an action as it was given: it comes from outside and is checked here,
    whatever its annotation says (the compiled engine would refuse a wrong type with a
    TypeError instead of the rule at fault)."""
    return getattr(action, name)


def _check_bet(t: Table, seat: int, action: Bet) -> str | None:
    target = _given(action, "target")
    if not is_whole(target) or not 0 <= target < t.players:
        return f"Bet.target must name a seat 0-{t.players - 1}, got {target!r} (R7.1)"
    return _bet_target(t, seat, target) or _bet_amount(t, seat, _given(action, "amount"))


def _raise_gate(t: Table, seat: int) -> str | None:
    b = t.battle
    assert b is not None
    if t.rules.max_raises is not None and b.raises >= t.rules.max_raises:
        n = t.rules.max_raises
        return f"this battle has had the maximum of {plural(n, 'raise')} (R7.7)"
    other = b.attacker if seat == b.defender else b.defender
    if t.stacks is not None and t.stacks[other] == 0:
        return f"{t.name(other)} has no chips left, so there is nothing to raise against (R3.4)"
    return None


def _check_raise(t: Table, seat: int, action: Raise) -> str | None:
    b = t.battle
    assert b is not None
    reason = _raise_gate(t, seat)
    if reason:
        return reason
    given = _given(action, "amount")
    if given is not None and not is_whole(given):
        return f"Raise.amount must be a whole number of chips, got {given!r} (R7.7)"
    size = raise_of(t, seat, action.amount)
    if t.no_limit:
        if size < t.rules.big_bet:
            return f"a no-limit raise must be at least the big bet, {t.rules.big_bet} (R7.7)"
    elif size != limit_raise(t, seat):
        return f"in limit the raise is exactly {limit_raise(t, seat)} (R7.7)"
    return _afford(t, seat, b.owed + size, "a call and raise")


def _check_trim(t: Table, seat: int, action: Trim) -> str | None:
    cards = action.cards  # read once: a field of a pure-Python class is a Python lookup
    reason = _soldier_cards(t, seat, cards, "R6.7")
    if reason:
        return reason
    n = len(t.soldiers(seat))
    cap = t.max_soldiers
    if n - len(cards) > cap:
        return (
            f"{t.name(seat)} would keep {n - len(cards)} soldiers: discard at least "
            f"{n - cap} to end with at most {cap} (R6.7)"
        )
    return None


def why_illegal(t: Table, action: Action) -> str | None:
    """Why `action` is not legal for the seat to act now, or None if it is legal."""
    phase = t.phase
    seat = t.to_act
    kind = type(action)
    if t.pending is not None:
        return "a card is being dealt: the next step is chance, not a player's (R4, R5, R6.2)"
    if phase is P_TURN and seat is not None:
        if kind is A_BUY:
            return _buy_gate(t, seat)
        if isinstance(action, A_DISCARD):
            return _discard_gate(t, seat) or _discard_cards(t, seat, action)
        if isinstance(action, A_BET):
            return _check_bet(t, seat, action)
        if kind is A_STAY:
            return _forced(t, seat)
        if kind is A_FOLD:
            return None
    elif phase is P_BATTLE_RESPONSE and seat is not None:
        if kind is A_FOLD or kind is A_CALL:
            return None
        if isinstance(action, A_RAISE):
            return _check_raise(t, seat, action)
    elif phase is P_TRIM_TO_FIVE and seat is not None:
        if isinstance(action, A_TRIM):
            return _check_trim(t, seat, action)
    elif phase is P_HAND_OVER:
        return "the hand is over: no more actions (R9, R10)"
    else:
        return "the cards are still being dealt (R4, R5)"
    if not isinstance(action, Action):
        shown = repr(action) if len(repr(action)) <= 60 else repr(action)[:57] + "..."
        return f"{shown} is not an action (use Buy, Discard, Bet, Stay, Fold, Call, Raise, Trim)"
    me = t.name(seat)
    if phase is P_TRIM_TO_FIVE:
        return (
            f"{me} must first choose which soldiers to discard (at most {t.max_soldiers} "
            "may stay) before play goes on (R6.7)"
        )
    if phase is P_BATTLE_RESPONSE:
        return f"{me} is answering a battle: Fold, Call or Raise (R7.4)"
    if isinstance(action, Call | Raise):
        return f"there is no battle to answer: {action} is only for a defender (R7.4)"
    if isinstance(action, Trim):
        return (
            "there is nothing to trim: discarding soldiers is part of Buy or Discard (R6.2, R6.4)"
        )
    return f"{action} is not a turn action (R6.1)"


# ------------------------------------------------------------------ legal actions
def _orders(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Every subset of `n` positions as a position mask, fewest first and in
    `itertools.combinations` order within a size, and where each size starts."""
    masks: list[int] = []
    starts: list[int] = []
    for k in range(n + 1):
        starts.append(len(masks))
        for combo in combinations(range(n), k):
            pm = 0
            for i in combo:
                pm |= 1 << i
            masks.append(pm)
    return tuple(masks), tuple(starts)


_Orders = tuple[tuple[int, ...], tuple[int, ...]]
_ORDERS: Final[dict[int, _Orders]] = {n: _orders(n) for n in range(9)}  # up to 8 cards


def listing_order(mask: int) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """How `subset_sets` lists the subsets of the cards in `mask`: the cards as one-card
    sets, strongest first; every subset as a mask of their positions, in listing order; and
    where each size starts in that order. A player can weigh the subsets from these without
    a list of them (`palace.analysis.bots.best_trim`).

    >>> from palace.cards import parse_cards
    >>> from palace.hands import card_set
    >>> cards, order, starts = listing_order(card_set(parse_cards("2c Kd As")))
    >>> len(cards), [bin(pm) for pm in order[starts[2]:]]
    (3, ['0b11', '0b101', '0b110', '0b111'])
    """
    bits = [STRENGTH_BITS[s] for s in strengths_of(mask)]  # strongest first
    n = len(bits)
    orders = _ORDERS.get(n)
    if orders is None:  # more cards than any standard table holds (a bigger R6.7 cap)
        orders = _ORDERS[n] = _orders(n)
    return bits, orders[0], orders[1]


def subset_sets(mask: int, low: int) -> list[int]:
    """The card set of every subset of the cards in `mask` with at least `low` cards, in
    the order `legal_actions` lists Discards and Trims: fewest cards first, then strongest
    cards first (the order of `itertools.combinations` over the cards high to low).

    >>> from palace.cards import format_cards, parse_cards
    >>> from palace.hands import card_set, cards_of
    >>> [format_cards(cards_of(s)) for s in subset_sets(card_set(parse_cards("2c Kd As")), 2)]
    ['As Kd', 'As 2c', 'Kd 2c', 'As Kd 2c']
    """
    bits, order, starts = listing_order(mask)
    n = len(bits)
    if low > n:
        return []
    sets = [0] * (1 << n)  # position mask -> card set, each from one smaller mask
    for pm in range(1, 1 << n):
        lowest = pm & -pm
        sets[pm] = sets[pm ^ lowest] | bits[lowest.bit_length() - 1]
    return [sets[pm] for pm in order[starts[max(low, 0)] :]]


_blank: Final = object.__new__
_Subset = TypeVar("_Subset", Discard, Trim)


def _subset_action(cls: type[_Subset], bits: int) -> _Subset:
    """A Discard or Trim of a card set: no parsing, and its frozen fields set once in its
    dict (the fastest way, from compiled code: a classmethod in `actions` would run as
    Python)."""
    action = _blank(cls)
    fields = action.__dict__
    fields["cards"] = cards_of(bits)
    fields["bits"] = bits
    return action


# The actions themselves are kept (frozen, so games share them): building one is most of
# the cost of listing it. One per card set, and one tuple per soldier set, both bounded and
# small: with ten times the room, a long study ran slower, not faster (its hands drifted
# from 0.8 to 1.0-1.2 ms as the caches filled memory; with these sizes they stay at 0.8).
_MOST_KEPT: Final = 4_000
_DISCARD_BY_BITS: Final[dict[int, Discard]] = {}
_TRIM_BY_BITS: Final[dict[int, Trim]] = {}


def _kept(cls: type[_Subset], kept: dict[int, _Subset], bits: int) -> _Subset:
    """The one Discard or Trim kept for this card set (made the first time it is needed)."""
    a = kept.get(bits)
    if a is None:
        if len(kept) > _MOST_KEPT:
            kept.clear()
        a = kept[bits] = _subset_action(cls, bits)
    return a


def _listed(
    cls: type[_Subset], kept: dict[int, _Subset], mask: int, low: int
) -> tuple[_Subset, ...]:
    """Every Discard or Trim of `low` or more of the cards in `mask`, in listing order."""
    return tuple([_kept(cls, kept, bits) for bits in subset_sets(mask, low)])


# The listings themselves, by soldier set (and trim floor): plain dicts, cleared when full,
# as a compiled module reads a dict directly where an `lru_cache` is a Python call.
_MOST_LISTED: Final = 1_024
_DISCARDS_BY_MASK: Final[dict[int, tuple[Discard, ...]]] = {}
_TRIMS_BY_MASK: Final[dict[tuple[int, int], tuple[Trim, ...]]] = {}


def _discards_of(mask: int) -> tuple[Discard, ...]:
    listed = _DISCARDS_BY_MASK.get(mask)
    if listed is None:
        if len(_DISCARDS_BY_MASK) >= _MOST_LISTED:
            _DISCARDS_BY_MASK.clear()
        listed = _DISCARDS_BY_MASK[mask] = _listed(Discard, _DISCARD_BY_BITS, mask, 1)
    return listed


def _trims_of(mask: int, low: int) -> tuple[Trim, ...]:
    key = (mask, low)
    listed = _TRIMS_BY_MASK.get(key)
    if listed is None:
        if len(_TRIMS_BY_MASK) >= _MOST_LISTED:
            _TRIMS_BY_MASK.clear()
        listed = _TRIMS_BY_MASK[key] = _listed(Trim, _TRIM_BY_BITS, mask, low)
    return listed


def _discards(soldiers: list[Card]) -> tuple[Discard, ...]:
    """Every Discard of one or more of these soldiers."""
    return _discards_of(card_set(soldiers))


def trim_floor(soldiers: int, rules: Rules) -> int:
    """R6.7: the fewest of `soldiers` soldiers a Trim must discard (none at or under the cap)."""
    return max(0, soldiers - rules.max_soldiers)


def trim_sets(soldiers: Sequence[Card], rules: Rules) -> list[int]:
    """The card sets (discarded soldiers) of every legal Trim of these soldiers (R6.7), in
    the order `legal_actions` lists the Trims: a player can weigh the choices without
    building them, and take one with `listed_trim`."""
    return subset_sets(card_set(soldiers), trim_floor(len(soldiers), rules))


def listed_trim(bits: int) -> Trim:
    """The Trim of this card set that `legal_actions` lists (the same object)."""
    return _kept(A_TRIM, _TRIM_BY_BITS, bits)


def listed_discard(bits: int) -> Discard:
    """The Discard of this card set that `legal_actions` lists (the same object): while a
    seat may discard, every non-empty set of its soldiers is listed (R6.4)."""
    return _kept(A_DISCARD, _DISCARD_BY_BITS, bits)


TurnOutline = tuple[bool, bool, tuple[Bet, ...], bool]
"""Which turn actions are legal now, without listing the Discards: (Buy, any Discard, the
Bets, Stay). A player that weighs the kinds of action first reads this
(`SeatView.turn_outline`) and builds only the action it takes. Fold is always legal on a
turn (R6.6); while Discard is, every non-empty set of the seat's soldiers is a legal Discard
(`listed_discard`, R6.4); a Bet is the minimum attack on its target (R7.1-R7.3); Stay is
not legal while R9.3 forces a battle. (A plain tuple: a compiled module makes one for the
cost of its four fields.)"""


def turn_outline(t: Table) -> TurnOutline | None:
    """The outline of the legal turn actions now, or None when no turn is due (another
    phase, a card due, the hand over): the gates `legal_actions` lists a turn from."""
    seat = t.to_act
    if seat is None or t.pending is not None or t.phase is not P_TURN:
        return None
    bets: list[Bet] = []
    if _bet_amount(t, seat, None) is None:
        active = t.active
        for s in range(t.players):
            if s != seat and active[s] and _bet_target(t, seat, s) is None:
                bets.append(_BETS[s])
    return (
        _buy_gate(t, seat) is None,
        _discard_gate(t, seat) is None,
        tuple(bets),
        _forced(t, seat) is None,
    )


def outline_of(legal: Sequence[Action]) -> TurnOutline:
    """The outline of a listed turn (`legal_actions` on a turn), read off its actions."""
    kinds = {type(a) for a in legal}
    return (
        Buy in kinds,
        Discard in kinds,
        tuple([a for a in legal if type(a) is Bet]),
        Stay in kinds,
    )


def legal_actions(t: Table) -> list[Action]:
    """Every action `why_illegal` accepts now, in a fixed order (Buy, Discards, Bets,
    Stay, Fold; Fold, Call, Raise; Trims from fewest discards)."""
    seat = t.to_act
    if seat is None or t.pending is not None:
        return []
    phase = t.phase
    if phase is P_TURN:
        outline = turn_outline(t)
        assert outline is not None
        buy, discard, bets, stay = outline
        out: list[Action] = [BUY] if buy else []
        if discard:
            out.extend(_discards(t.soldiers(seat)))
        out.extend(bets)
        if stay:
            out.append(STAY)
        out.append(FOLD)
        return out
    if phase is P_BATTLE_RESPONSE:
        out = [FOLD, CALL]
        if _check_raise(t, seat, RAISE) is None:
            out.append(RAISE)
        return out
    if phase is P_TRIM_TO_FIVE:
        soldiers = t.soldiers(seat)
        return list(_trims_of(card_set(soldiers), trim_floor(len(soldiers), t.rules)))
    return []
