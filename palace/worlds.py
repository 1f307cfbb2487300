"""Determinization: a full table consistent with one seat's view, for search (R5.3, D8).

Every card the seat cannot see (`view.unseen`) is dealt uniformly at random into the
places it could be: the other players' palaces (beside the cards the seat was shown),
the draw deck (in random order) and the face-down part of the discard pile. The sampled
table starts its log with one `position` event that lays the cards out.
"""

from __future__ import annotations

import random
from typing import Final

from palace.cards import Card
from palace.errors import StateError
from palace.events import EventKind, Move, Phase
from palace.shuffle import shuffle
from palace.table import Battle, Table, new_table, zone, zone_names
from palace.views import SeatView

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
E_POSITION: Final = EventKind.POSITION
P_BANNER_DEAL: Final = Phase.BANNER_DEAL
P_DEALER_SELECTION: Final = Phase.DEALER_SELECTION
P_PALACE_DEAL: Final = Phase.PALACE_DEAL


def world_table(view: SeatView, rng: random.Random) -> Table:
    """A table where the seat's unseen cards are placed at random (uniformly)."""
    if view.phase in (P_DEALER_SELECTION, P_BANNER_DEAL, P_PALACE_DEAL):
        raise StateError("a world can be sampled once the cards are dealt (R5)")
    n = len(view.seats)
    by_zone = view.known_by_zone
    places: dict[str, list[Card]] = {z: [] for z in zone_names(n)}
    places["rejects"] = list(view.rejects)
    holes: list[tuple[str, int]] = []
    for info in view.seats:
        if info.banner is not None:
            places[zone(info.seat, "banner")] = [info.banner]
        places[zone(info.seat, "soldiers")] = list(info.soldiers)
        pz = zone(info.seat, "palace")
        known = list(view.palace) if info.seat == view.seat else list(by_zone.get(pz, ()))
        places[pz] = known
        holes.append((pz, info.palace_count - len(known)))
    for pile, count in (("discard", view.discard_count), ("deck", view.deck_count)):
        known = list(by_zone.get(pile, ()))
        places[pile] = known
        holes.append((pile, count - len(known)))
    deck_known = bool(places["deck"])
    all_known = view.known
    unseen = [c for c in view.rules.deck() if c not in all_known]
    if any(k < 0 for _, k in holes) or sum(k for _, k in holes) != len(unseen):
        raise StateError(
            f"{view.seats[view.seat].name}'s view does not add up: {len(unseen)} unseen cards "
            f"for {sum(k for _, k in holes)} hidden places"
        )
    shuffle(rng, unseen)
    at = 0
    for z, k in holes:
        places[z].extend(unseen[at : at + k])
        at += k
    if deck_known:  # nobody knows the order of the draw deck (the unseen part is shuffled)
        shuffle(rng, places["deck"])
    return _table(view, places)


def _seen_by(zone_name: str) -> tuple[int, ...] | None:
    if zone_name.endswith(".palace"):
        return (int(zone_name[4 : zone_name.index(".")]),)
    if zone_name in ("deck", "discard"):
        return ()
    return None


def _table(view: SeatView, places: dict[str, list[Card]]) -> Table:
    rules = view.rules
    stacks = [info.stack for info in view.seats]
    t = new_table(
        tuple(info.name for info in view.seats),
        rules,
        dealer=view.dealer,
        stacks=None if rules.stacks is None else [s or 0 for s in stacks],
        active=[info.active for info in view.seats],
    )
    b = view.battle
    if b is not None:
        t.battle = Battle(
            attacker=b.attacker,
            defender=b.defender,
            to_act=b.to_act,
            owed=b.owed,
            paid=dict(b.paid),
            raises=b.raises,
            last_raiser=b.last_raiser,
            last_raise=b.last_raise,
            bettor=b.bettor,
            last_bet=b.last_bet,
            allin_attack=b.allin_attack,
        )
    turn = view.turn
    t.quiet, t.quiet_kinds = list(turn.quiet), dict(turn.quiet_kinds)
    t.must_battle, t.turns = turn.must_battle, turn.turns
    t.trim_min, t.trim_next, t.trim_rule = turn.trim_min, turn.trim_next, turn.trim_rule
    t.phase, t.to_act = view.phase, view.to_act
    # each seat knows its own palace; the draw deck and the discard pile are face down
    moves = tuple(
        Move(tuple(cards), "deck", z, seen_by=_seen_by(z))
        for z, cards in places.items()
        if z != "deck" and cards
    )
    # the cards laid out first, in the order they are laid out: each one is then found at
    # once at the top of the deck
    t.deck[:] = [c for mv in moves for c in mv.cards] + places["deck"]  # the same list
    chips = tuple((info.seat, -info.put_in) for info in view.seats if info.put_in)
    t.record(
        E_POSITION,
        None,
        "R11",
        moves=moves,
        chips=chips,
        detail={
            "order": {"deck": tuple(places["deck"])},
            "why": f"A world sampled for {view.seats[view.seat].name}: the cards they cannot "
            "see are dealt at random.",
        },
    )
    if t.stacks is not None:  # the chips went in from the stacks the view shows
        t.stacks = [s or 0 for s in stacks]
    t.pot = view.pot
    return t
