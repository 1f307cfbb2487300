"""The deal: choosing the first dealer (R2), antes (R3.1), banners (R4) and palaces (R5).

Each card dealt is one event and one chance step: the deal stops before every card
(`Table.pending`) and `deal_card` goes on with the card the deck gives. A seeded game
gives the top card of a shuffled deck at once; a game with manual chance (for game-tree
search) lets the caller choose each card.
"""

from __future__ import annotations

import random
from typing import Final

from palace.cards import Card
from palace.events import EventKind, Phase
from palace.shuffle import shuffle
from palace.table import (
    BANNER_MOVES,
    CUT_MOVES,
    NO_DETAIL,
    PALACE_MOVES,
    PENDING_BANNER,
    PENDING_CUT,
    PENDING_PALACE,
    REJECT_MOVES,
    UNCUT_MOVES,
    DealState,
    Table,
    new_move,
)

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
E_ANTE: Final = EventKind.ANTE
E_BANNER: Final = EventKind.BANNER
E_CUT: Final = EventKind.CUT
E_CUT_TIE: Final = EventKind.CUT_TIE
E_DEALER: Final = EventKind.DEALER
E_GATHER: Final = EventKind.GATHER
E_PALACE: Final = EventKind.PALACE
E_REJECT: Final = EventKind.REJECT
E_RESHUFFLE: Final = EventKind.RESHUFFLE
E_SHUFFLE: Final = EventKind.SHUFFLE
E_STACK: Final = EventKind.STACK
E_START: Final = EventKind.START
P_BANNER_DEAL: Final = Phase.BANNER_DEAL
P_DEALER_SELECTION: Final = Phase.DEALER_SELECTION
P_PALACE_DEAL: Final = Phase.PALACE_DEAL
P_TURN: Final = Phase.TURN

GROUPS: Final = "ABC"

# The deal's event details, made once and shared by every event that says the same (an
# event's detail is read, never changed): a palace card's round of its `palace_cards`
# (R5.1), a banner's group (R4.2), a rejected banner's group and the seat that holds its
# suit (R4.3).
PALACE_DETAILS: Final = [
    [{"hidden": True, "round": r, "of": of} for r in range(of + 1)] for of in range(11)
]
BANNER_DETAILS: Final = {g: {"group": g} for g in GROUPS}
REJECT_DETAILS: Final = {g: [{"group": g, "owner": s} for s in range(10)] for g in GROUPS}


def deal_order(t: Table) -> list[int]:
    """Seats in dealing order, starting left of the dealer (R4.1, R5.1)."""
    n = t.players
    return [(t.dealer + 1 + k) % n for k in range(n)]


def group_of(position: int) -> str:
    """Suit group of the player at deal position 0-9: A for 1-4, B for 5-8, C for 9-10 (R4.2)."""
    return GROUPS[position // 4]


def shuffle_zone(t: Table, rng: random.Random | None, zone_name: str, why: str, rule: str) -> None:
    """Shuffle a pile and record its new order (with manual chance there is no order to
    record: every card drawn from it is chosen by chance)."""
    if rng is None:
        return
    order = list(t.zones[zone_name])
    shuffle(rng, order)
    t.record(E_SHUFFLE, None, rule, detail={"order": {zone_name: tuple(order)}, "why": why})


def reshuffle_into_deck(
    t: Table, rng: random.Random | None, src: str, *, face_up: bool, rule: str
) -> None:
    """Shuffle a whole pile into a new draw deck: the face-up rejects (R4.4) or the
    face-down discard pile (R6.3), whose cards nobody sees go (a seat that knew a card
    was in the pile now knows it is in the deck)."""
    pile = tuple(t.zones[src])
    move = (
        new_move(pile, src, "deck")
        if face_up
        else new_move(pile, src, "deck", seen_by=(), pile=True)
    )
    detail: dict[str, object] = {"n": len(pile)}
    if rng is not None:
        order = list(pile)
        shuffle(rng, order)
        detail["order"] = {"deck": tuple(order)}
    t.record(E_RESHUFFLE, None, rule, cards=pile if face_up else (), moves=(move,), detail=detail)


def take_antes(t: Table) -> None:
    """R3.1: every player antes into the one pot before the banner deal."""
    ante = t.facts.ante_amount
    if ante == 0:
        return
    chips = tuple(
        (s, -min(ante, t.stacks[s] if t.stacks is not None else ante)) for s in range(t.players)
    )
    short = tuple(s for s, paid in chips if -paid < ante)
    t.record(
        E_ANTE,
        None,
        "R3.1",
        amount=-sum(p for _, p in chips),
        chips=chips,
        detail={"ante": ante, "short": short},
    )


# ------------------------------------------------------------------ the deal as chance steps
def begin(
    t: Table, rng: random.Random | None, *, dealer: int | None, script: list[Card] | None
) -> None:
    """Start the deal: R2's draw for the dealer (or the given dealer), then stop before the
    first card. `rng` None means manual chance (nothing is shuffled)."""
    t.deal = DealState(script=script)
    if dealer is None:
        t.phase = P_DEALER_SELECTION
        shuffle_zone(t, rng, "deck", "first_dealer", "R2.1")
        t.deal.contenders = list(range(t.players))
        t.pending = PENDING_CUT[0]
    else:
        t.dealer = dealer
        t.record(E_DEALER, dealer, "R2.3")
        _after_dealer(t, rng, script, given=True)


def _after_dealer(
    t: Table, rng: random.Random | None, script: list[Card] | None, *, given: bool
) -> None:
    if script is not None:
        t.record(E_STACK, None, "R2.2", detail={"order": {"deck": tuple(script)}})
    elif given:
        shuffle_zone(t, rng, "deck", "before_hand", "R2.2")
    take_antes(t)
    t.phase = P_BANNER_DEAL
    assert t.deal is not None
    t.deal.stage = "banner"
    t.deal.pos = 0
    t.deal.order = deal_order(t)
    _next_banner(t, rng)


def _next_banner(t: Table, rng: random.Random | None) -> None:
    d = t.deal
    assert d is not None
    if d.pos == t.players:
        _begin_palaces(t, rng, scripted=d.script is not None)
        return
    if not t.deck:
        reshuffle_into_deck(t, rng, "rejects", face_up=True, rule="R4.4")
    t.pending = PENDING_BANNER[d.order[d.pos]]


def _begin_palaces(t: Table, rng: random.Random | None, *, scripted: bool) -> None:
    d = t.deal
    assert d is not None
    t.phase = P_PALACE_DEAL
    d.stage = "palace"
    rej = tuple(t.rejects)
    deck_after = list(t.deck) + list(rej)
    shuffled = rng is not None and not scripted
    if shuffled:
        assert rng is not None
        shuffle(rng, deck_after)
    detail: dict[str, object] = {"shuffled": shuffled, "manual": rng is None}
    if rng is not None:
        detail["order"] = {"deck": tuple(deck_after)}
    t.record(
        E_GATHER,
        None,
        "R5.1",
        cards=rej,
        moves=(new_move(rej, "rejects", "deck"),) if rej else (),
        detail=detail,
    )
    d.dealt = 0
    _next_palace(t)


def _next_palace(t: Table) -> None:
    d = t.deal
    assert d is not None
    if d.dealt == t.players * t.facts.palace_cards:
        t.pending = None
        d.stage = "done"
        t.deal = None
        t.phase = P_TURN
        t.to_act = t.left_of(t.dealer)
        t.record(E_START, t.to_act, "R6.1")
        return
    t.pending = PENDING_PALACE[d.order[d.dealt % t.players]]


def deal_card(t: Table, rng: random.Random | None, card: Card) -> None:
    """Deal `card` (from the deck) for the pending deal step, then go on to the next card."""
    p, d = t.pending, t.deal
    assert p is not None and d is not None
    if p.kind == "cut":
        _cut(t, rng, card)
    elif p.kind == "banner":
        _banner(t, rng, card)
    else:
        seat = p.seat
        move = PALACE_MOVES[seat][card.index]
        detail = PALACE_DETAILS[t.facts.palace_cards][d.dealt // t.players + 1]
        t.record_dealt(E_PALACE, seat, "R5.1", move, detail)
        d.dealt += 1
        _next_palace(t)


def deal_from_top(t: Table, rng: random.Random | None) -> bool:
    """Deal every card the deal still waits for from the top of the deck, as a seeded game
    does: `deal_card` for each, one after another. True if the deal is over."""
    deck = t.deck  # changed in place, never replaced (`Table.record`)
    while t.deal is not None and t.pending is not None:
        deal_card(t, rng, deck[0])
    return t.deal is None and t.pending is None


def _cut(t: Table, rng: random.Random | None, card: Card) -> None:
    """R2.1-R2.2: one face-up card each, highest rank deals; the tied draw again."""
    d = t.deal
    p = t.pending
    assert d is not None and p is not None
    seat = d.contenders[len(d.drawn)]
    move = CUT_MOVES[seat][card.index]
    t.record_dealt(E_CUT, seat, "R2.1" if not d.used else "R2.2", move, NO_DETAIL)
    d.drawn.append((seat, card))
    if len(d.drawn) < len(d.contenders):
        t.pending = PENDING_CUT[d.contenders[len(d.drawn)]]
        return
    d.used.extend(d.drawn)
    top = max(c.rank for _, c in d.drawn)
    d.contenders = [s for s, c in d.drawn if c.rank == top]
    d.drawn = []
    if len(d.contenders) > 1:
        t.record(E_CUT_TIE, None, "R2.2", detail={"tied": tuple(d.contenders), "rank": top})
        t.pending = PENDING_CUT[d.contenders[0]]
        return
    t.pending = None
    t.dealer = d.contenders[0]
    t.record(E_DEALER, t.dealer, "R2.1")
    t.record(
        E_GATHER,
        None,
        "R2.2",
        moves=tuple([UNCUT_MOVES[s][c.index] for s, c in d.used]),
        cards=tuple(c for _, c in d.used),
    )
    shuffle_zone(t, rng, "deck", "again", "R2.2")
    _after_dealer(t, rng, d.script, given=False)


def _banner(t: Table, rng: random.Random | None, card: Card) -> None:
    """R4: one face-up banner each; inside a suit group every banner suit differs."""
    d = t.deal
    p = t.pending
    assert d is not None and p is not None
    g = group_of(d.pos)
    taken = d.holders.setdefault(g, {})
    suit = card.suit
    owner = taken.get(suit)
    if owner is not None:
        move = REJECT_MOVES[card.index]
        t.record_dealt(E_REJECT, p.seat, "R4.3", move, REJECT_DETAILS[g][owner])
    else:
        taken[suit] = p.seat
        move = BANNER_MOVES[p.seat][card.index]
        rule = "R4.1" if d.pos == 0 else "R4.3"
        t.record_dealt(E_BANNER, p.seat, rule, move, BANNER_DETAILS[g])
        d.pos += 1
    _next_banner(t, rng)
