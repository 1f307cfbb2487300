"""The deal: choosing the first dealer (R2), antes (R3.1), banners (R4) and palaces (R5).

Each card dealt is one event, so a learner can step through the deal card by card.
"""

from __future__ import annotations

import random

from palace.cards import Card
from palace.events import Move, Phase
from palace.table import Table, zone
from palace.words import plural

GROUPS = "ABC"


def deal_order(t: Table) -> list[int]:
    """Seats in dealing order, starting left of the dealer (R4.1, R5.1)."""
    return [(t.dealer + 1 + k) % t.players for k in range(t.players)]


def group_of(position: int) -> str:
    """Suit group of the player at deal position 0-9: A for 1-4, B for 5-8, C for 9-10 (R4.2)."""
    return GROUPS[position // 4]


def shuffle_zone(t: Table, rng: random.Random, zone_name: str, text: str, rule: str) -> None:
    """Shuffle a pile and record its new order."""
    order = list(t.zones[zone_name])
    rng.shuffle(order)
    t.record("shuffle", None, text, rule, detail={"order": {zone_name: tuple(order)}})


def reshuffle_into_deck(
    t: Table, rng: random.Random, src: str, *, face_up: bool, rule: str, text: str
) -> None:
    """Shuffle a whole pile into a new draw deck: the face-up rejects (R4.4) or the
    face-down discard pile (R6.3), whose cards nobody sees go (a seat that knew a card
    was in the pile now knows it is in the deck)."""
    pile = tuple(t.zones[src])
    order = list(pile)
    rng.shuffle(order)
    move = Move(pile, src, "deck") if face_up else Move(pile, src, "deck", seen_by=(), pile=True)
    t.record(
        "reshuffle",
        None,
        text,
        rule,
        cards=pile if face_up else (),
        moves=(move,),
        detail={"order": {"deck": tuple(order)}},
    )


def select_dealer(t: Table, rng: random.Random) -> int:
    """R2.1-R2.2: one face-up card each, highest rank deals; the tied draw again."""
    t.phase = Phase.DEALER_SELECTION
    shuffle_zone(t, rng, "deck", "The deck is shuffled to choose the first dealer.", "R2.1")
    contenders = list(range(t.players))
    used: list[tuple[int, Card]] = []
    while True:
        drawn: list[tuple[int, Card]] = []
        for s in contenders:
            c = t.zones["deck"][0]
            t.record(
                "cut",
                s,
                f"{t.name(s)} draws {c.symbol} for the deal.",
                "R2.1" if not used else "R2.2",
                cards=(c,),
                moves=(Move((c,), "deck", zone(s, "cut")),),
            )
            drawn.append((s, c))
        used.extend(drawn)
        top = max(c.rank for _, c in drawn)
        contenders = [s for s, c in drawn if c.rank == top]
        if len(contenders) == 1:
            break
        names = " and ".join(t.name(s) for s in contenders)
        t.record("cut_tie", None, f"{names} tie with {top.plural}: only they draw again.", "R2.2")
    dealer = contenders[0]
    t.dealer = dealer
    t.record("dealer", dealer, f"{t.name(dealer)} has the highest card and deals.", "R2.1")
    back = tuple(c for _, c in used)
    t.record(
        "gather",
        None,
        "The cards drawn for the deal go back into the deck.",
        "R2.2",
        moves=tuple(Move((c,), zone(s, "cut"), "deck") for s, c in used),
        cards=back,
    )
    shuffle_zone(t, rng, "deck", "The deck is reshuffled before the hand.", "R2.2")
    return dealer


def take_antes(t: Table) -> None:
    """R3.1: every player antes into the one pot before the banner deal."""
    ante = t.rules.ante_amount
    if ante == 0:
        return
    chips = tuple(
        (s, -min(ante, t.stack(s) if t.stacks is not None else ante)) for s in range(t.players)
    )
    short = [t.name(s) for s, paid in chips if -paid < ante]
    text = f"Every player antes {plural(ante, 'chip')} into the pot."
    if short:
        text = (
            f"The players ante {plural(ante, 'chip')} each; "
            f"{', '.join(short)} can pay only what they have left (R3.4)."
        )
    t.record("ante", None, text, "R3.1", amount=-sum(p for _, p in chips), chips=chips)


def deal_banners(t: Table, rng: random.Random) -> None:
    """R4: one face-up banner each; inside a suit group every banner suit differs."""
    t.phase = Phase.BANNER_DEAL
    holders: dict[str, dict[int, int]] = {}  # group -> suit -> seat
    for pos, seat in enumerate(deal_order(t)):
        g = group_of(pos)
        taken = holders.setdefault(g, {})
        while True:
            if not t.zones["deck"]:
                n = len(t.zones["rejects"])
                reshuffle_into_deck(
                    t,
                    rng,
                    "rejects",
                    face_up=True,
                    rule="R4.4",
                    text=f"The deck has run out: the {n} banner rejects are shuffled into a "
                    "new deck.",
                )
            c = t.zones["deck"][0]
            if c.suit in taken:
                owner = taken[c.suit]
                t.record(
                    "reject",
                    seat,
                    f"{c.symbol} is rejected for {t.name(seat)}: {c.suit.symbol} is already "
                    f"{t.name(owner)}'s banner in group {g}.",
                    "R4.3",
                    cards=(c,),
                    moves=(Move((c,), "deck", "rejects"),),
                    detail={"group": g, "owner": owner},
                )
                continue
            taken[c.suit] = seat
            t.record(
                "banner",
                seat,
                f"{t.name(seat)}'s banner is {c.symbol} (group {g}).",
                "R4.1" if pos == 0 else "R4.3",
                cards=(c,),
                moves=(Move((c,), "deck", zone(seat, "banner")),),
                detail={"group": g},
            )
            break


def deal_palaces(t: Table, rng: random.Random, *, shuffle: bool = True) -> None:
    """R5.1: gather the rest and the rejects, shuffle, deal three face-down cards each."""
    t.phase = Phase.PALACE_DEAL
    rej = tuple(t.zones["rejects"])
    deck_after = list(t.zones["deck"]) + list(rej)
    if shuffle:
        rng.shuffle(deck_after)
    how = "and shuffled" if shuffle else "(a scripted deck: not shuffled)"
    t.record(
        "gather",
        None,
        f"The {len(rej)} banner rejects are gathered with the rest of the deck {how}.",
        "R5.1",
        cards=rej,
        moves=(Move(rej, "rejects", "deck"),) if rej else (),
        detail={"order": {"deck": tuple(deck_after)}},
    )
    order = deal_order(t)
    for rnd in range(3):
        for seat in order:
            c = t.zones["deck"][0]
            t.record(
                "palace",
                seat,
                f"{t.name(seat)} receives palace card {rnd + 1} of 3, face down.",
                "R5.1",
                cards=(c,),
                moves=(Move((c,), "deck", zone(seat, "palace"), seen_by=(seat,)),),
                detail={"hidden": True},
            )
