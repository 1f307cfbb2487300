"""Carrying out a legal action: the turn (R6), battles (R7, R8) and the end of the hand (R9, R10).

Every function here assumes `checks.why_illegal` has accepted the action. A Buy stops
before its card is drawn (a chance step, `buy_card`), like every card of the deal.
"""

from __future__ import annotations

import random
from typing import Final, cast

from palace.actions import Action, Bet, Discard, Raise, Trim
from palace.battle import Army, resolve_battle
from palace.cards import Card
from palace.checks import (
    A_BET,
    A_BUY,
    A_DISCARD,
    A_FOLD,
    A_RAISE,
    A_STAY,
    A_TRIM,
    attack_of,
    call_amount,
    min_attack,
    raise_of,
    two_left,
)
from palace.deal import reshuffle_into_deck
from palace.events import EndReason, EventKind, Phase
from palace.hands import Hand, evaluate
from palace.table import PENDING_BUY, Battle, HandResult, Table, new_move, zone

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
E_BATTLE: Final = EventKind.BATTLE
E_BET: Final = EventKind.BET
E_BOTH_OUT: Final = EventKind.BOTH_OUT
E_BUY: Final = EventKind.BUY
E_CALL: Final = EventKind.CALL
E_CAPTURE: Final = EventKind.CAPTURE
E_DISCARD: Final = EventKind.DISCARD
E_FOLD: Final = EventKind.FOLD
E_HAND_END: Final = EventKind.HAND_END
E_OUT: Final = EventKind.OUT
E_POT: Final = EventKind.POT
E_QUIET_ROUND: Final = EventKind.QUIET_ROUND
E_RAISE: Final = EventKind.RAISE
E_SHOWDOWN: Final = EventKind.SHOWDOWN
E_STAY: Final = EventKind.STAY
E_TRIM: Final = EventKind.TRIM
E_TURN_LIMIT: Final = EventKind.TURN_LIMIT
E_TWO_LEFT: Final = EventKind.TWO_LEFT
P_BATTLE_RESPONSE: Final = Phase.BATTLE_RESPONSE
P_DRAW: Final = Phase.DRAW
P_HAND_OVER: Final = Phase.HAND_OVER
P_SHOWDOWN: Final = Phase.SHOWDOWN
P_TRIM_TO_FIVE: Final = Phase.TRIM_TO_FIVE
P_TURN: Final = Phase.TURN
R_BATTLE_TIE: Final = EndReason.BATTLE_TIE
R_LAST_STANDING: Final = EndReason.LAST_STANDING
R_SAME_BANNER: Final = EndReason.SAME_BANNER
R_SHOWDOWN: Final = EndReason.SHOWDOWN


def perform(t: Table, rng: random.Random | None, action: Action) -> None:
    """Apply a legal action for `t.to_act` (`rng` None: manual chance, nothing shuffled)."""
    seat = t.to_act
    assert seat is not None
    kind = type(action)
    # the exact classes first: isinstance of a pure-Python class is a slow call from compiled
    # code, and a Buy or a Stay is never a Trim
    if kind is A_TRIM or (kind is not A_BUY and kind is not A_STAY and isinstance(action, A_TRIM)):
        _trim(t, seat, cast(Trim, action))
    elif t.phase is P_BATTLE_RESPONSE:
        if kind is A_FOLD:
            _battle_fold(t, seat)
        elif isinstance(action, A_RAISE):
            _raise(t, seat, action)
        else:
            _call(t, seat)
    else:
        t.turns += 1
        if kind is A_BUY:
            _buy(t, seat, rng)
        elif isinstance(action, A_DISCARD):
            _discard(t, seat, action)
        elif isinstance(action, A_BET):
            _bet(t, seat, action)
        elif kind is A_STAY:
            t.record(E_STAY, seat, "R6.5")
            _after_turn(t, seat, "stay")
        else:
            _turn_fold(t, seat)


# ------------------------------------------------------------------ the turn
def _buy(t: Table, seat: int, rng: random.Random | None) -> None:
    if not t.deck:
        reshuffle_into_deck(t, rng, "discard", face_up=False, rule="R6.3")
    t.quiet.clear()
    t.phase = P_DRAW
    t.to_act = None
    t.pending = PENDING_BUY[seat]


def buy_card(t: Table, card: Card) -> None:
    """The card a Buy draws from the deck (R6.2); then the buyer may discard (D2)."""
    p = t.pending
    assert p is not None and p.kind == "buy"
    seat = p.seat
    t.pending = None
    t.phase = P_TRIM_TO_FIVE
    t.to_act = seat
    t.trim_next = None  # decided after the trim: left of the buyer
    cap = t.max_soldiers
    t.trim_min = max(0, len(t.soldiers(seat)) + 1 - cap)
    t.record(
        E_BUY,
        seat,
        "R6.2",
        cards=(card,),
        amount=t.small_bet,
        moves=(new_move((card,), "deck", zone(seat, "soldiers")),),
        chips=((seat, -t.small_bet),),
        detail={"cap": cap} if t.trim_min else {},
    )


def _trim(t: Table, seat: int, action: Trim) -> None:
    after_capture = t.trim_next is not None
    nxt = t.trim_next if t.trim_next is not None else t.left_of(seat)
    rule = t.trim_rule if after_capture else "R6.2"
    soldiers = t.soldiers(seat)
    if len(soldiers) > t.max_soldiers:
        rule = "R6.7"
    t.trim_next = None
    t.phase = P_TURN
    t.to_act = nxt
    cards = action.cards  # read once: a field of a pure-Python class is a Python lookup
    if cards:
        t.record(
            E_TRIM,
            seat,
            rule,
            cards=cards,
            moves=(new_move(cards, zone(seat, "soldiers"), "discard"),),
        )
    else:
        t.record(E_TRIM, seat, rule, detail={"kept": len(soldiers)})
    _pass_turn(t, nxt)


def _discard(t: Table, seat: int, action: Discard) -> None:
    cost = t.discard_amount
    t.record(
        E_DISCARD,
        seat,
        "R6.4",
        cards=action.cards,
        amount=cost,
        moves=(new_move(action.cards, zone(seat, "soldiers"), "discard"),),
        chips=((seat, -cost),) if cost else (),
    )
    _after_turn(t, seat, "discard")


def _turn_fold(t: Table, seat: int) -> None:
    pal = tuple(t.palace(seat))
    banner = tuple(t.cards(seat, "banner"))
    soldiers = tuple(t.soldiers(seat))
    t.record(
        E_FOLD,
        seat,
        "R6.6",
        cards=banner + soldiers,
        moves=(
            new_move(pal, zone(seat, "palace"), "discard", seen_by=(seat,), pile=True),
            new_move(banner, zone(seat, "banner"), "discard"),
            new_move(soldiers, zone(seat, "soldiers"), "discard"),
        ),
        detail={"out": (seat,)},
    )
    _after_turn(t, seat, "fold")


def _after_turn(t: Table, seat: int, kind: str) -> None:
    """After a Stay, Discard or Fold: end the hand or pass the turn (R9.1-R9.4)."""
    if kind in t.facts.quiet_actions:
        if seat in t.quiet:
            t.quiet.remove(seat)
        t.quiet.append(seat)
        t.quiet_kinds[seat] = kind
    else:
        t.quiet.clear()  # decision D5: an action the table does not count as quiet restarts R9.1
    ends = _ending(t)
    if ends is not None:
        _award(t, *ends)
        return
    live = t.in_hand()
    if not two_left(t) and all(s in t.quiet for s in live):
        t.phase, t.to_act = P_SHOWDOWN, None
        t.record(E_QUIET_ROUND, None, "R9.1")
        _showdown(t)
        return
    _pass_turn(t, t.left_of(seat))


def _pass_turn(t: Table, nxt: int) -> None:
    """The turn passes to `nxt`: a hand at its turn limit ends in a showdown (D22); two
    players of different banner suits may have to battle now (R9.3)."""
    t.phase, t.to_act = P_TURN, nxt
    if t.turns >= t.facts.max_turns:
        t.phase, t.to_act = P_SHOWDOWN, None
        t.record(E_TURN_LIMIT, None, "D22", amount=t.turns)
        _showdown(t)
        return
    if t.must_battle or not two_left(t):
        return
    live = t.in_hand()
    if t.facts.two_left == "at_once":
        t.must_battle = True
        t.record(E_TWO_LEFT, nxt, "R9.3", detail={"at_once": True, "left": tuple(live)})
    elif all(s in t.quiet for s in live):
        t.must_battle = True
        first, last = sorted(live, key=t.quiet.index)
        t.record(
            E_TWO_LEFT,
            nxt,
            "R9.3",
            detail={"before": first, "last_seat": last, "last": t.quiet_kinds[last]},
        )


def start(t: Table) -> None:
    """Play begins left of the dealer (R6.1); with two players and R9.3 "at_once" they
    must battle at once."""
    assert t.to_act is not None
    _pass_turn(t, t.to_act)


# ------------------------------------------------------------------ battles
def _bet(t: Table, seat: int, action: Bet) -> None:
    target = action.target
    amount, allin = attack_of(t, seat, action.amount)
    # R3.4 b: an attack that puts its maker all-in, whatever its size, caps the call
    all_in = allin or (t.stacks is not None and amount == t.stacks[seat])
    owed = call_amount(t, target, amount, all_in)
    t.quiet.clear()
    t.battle = Battle(
        attacker=seat,
        defender=target,
        to_act=target,
        owed=owed,
        paid={seat: amount, target: 0},
        bettor=seat,
        last_bet=amount,
        allin_attack=allin,
    )
    t.phase = P_BATTLE_RESPONSE
    t.to_act = target
    t.record(
        E_BET,
        seat,
        "R3.4" if allin else "R7.3",
        amount=amount,
        chips=((seat, -amount),) if amount else (),
        detail={
            "target": target,
            "soldiers": len(t.soldiers(seat)),
            "s": t.small_bet,
            "min": min_attack(t, seat),
            "allin": allin,
            "all_in": all_in and not allin,
        },
    )


def _raise(t: Table, seat: int, action: Raise) -> None:
    b = t.battle
    assert b is not None
    size = raise_of(t, seat, action.amount)
    call = b.owed
    total = call + size
    other = b.attacker if seat == b.defender else b.defender
    b.paid[seat] += total
    b.raises += 1
    b.last_raiser, b.last_raise = seat, size
    b.bettor, b.last_bet = seat, size
    b.owed, b.to_act = size, other
    t.to_act = other
    first = seat == b.defender and b.raises == 1
    t.record(
        E_RAISE,
        seat,
        "R7.7" if first else "R7.8",
        amount=total,
        chips=((seat, -total),),
        detail={"call": call, "size": size},
    )


def _call(t: Table, seat: int) -> None:
    """R7.6 / R7.8, and R3.4 a: a call for less is all-in, and the part of the bet or raise
    it does not match, chip for chip, goes back: an attack of 2 called all-in with 3 gives
    nothing back, an attack of 6 called all-in with 4 gives 2 back; never more than the call
    fell short of what was owed (D4)."""
    b = t.battle
    assert b is not None
    pay = b.owed if t.stacks is None else min(b.owed, t.stacks[seat])
    b.paid[seat] += pay
    chips: list[tuple[int, int]] = [(seat, -pay)] if pay else []
    detail: dict[str, object] = {}
    if pay < b.owed:
        detail["allin"] = True
        back = max(0, min(b.owed, b.last_bet) - pay)
        if back:
            b.paid[b.bettor] -= back
            chips.append((b.bettor, back))
            what = "attack" if b.raises == 0 else "raise"
            detail.update(back=back, bettor=b.bettor, refund=True, of=what)
    t.record(
        E_CALL,
        seat,
        "R3.4" if detail else ("R7.6" if b.raises == 0 else "R7.8"),
        amount=pay,
        chips=tuple(chips),
        detail=detail,
    )
    _battle_showdown(t)


def _battle_fold(t: Table, seat: int) -> None:
    b = t.battle
    assert b is not None
    winner = b.attacker if seat == b.defender else b.defender
    chips: tuple[tuple[int, int], ...] = ()
    rule = "R7.5"
    if b.raises and b.last_raiser == winner:
        rule = "R7.9"
        chips = ((winner, b.last_raise),)
        b.paid[winner] -= b.last_raise
    t.battle = None
    t.record(
        E_FOLD,
        seat,
        rule,
        chips=chips,
        moves=(
            new_move(
                tuple(t.palace(seat)),
                zone(seat, "palace"),
                "discard",
                seen_by=(seat,),
                pile=True,
            ),
        ),
        detail={"out": (seat,), "refund": bool(chips)},
    )
    _capture(t, winner, seat, b.attacker, rule)


def _capture(t: Table, winner: int, loser: int, attacker: int, rule: str) -> None:
    """The winner takes the loser's banner and soldiers as soldiers (R7.5, R8.4)."""
    banner = tuple(t.cards(loser, "banner"))
    soldiers = tuple(t.soldiers(loser))
    ends = _ending(t)
    n = len(t.soldiers(winner)) + len(banner) + len(soldiers)
    cap = t.max_soldiers
    if ends:
        t.phase, t.to_act = P_HAND_OVER, None
    else:
        t.phase, t.to_act = P_TRIM_TO_FIVE, winner
        t.trim_min = max(0, n - cap)
        t.trim_next = t.left_of(attacker)  # R8.7
        t.trim_rule = rule
    t.record(
        E_CAPTURE,
        winner,
        rule,
        cards=banner + soldiers,
        moves=(
            new_move(banner, zone(loser, "banner"), zone(winner, "soldiers")),
            new_move(soldiers, zone(loser, "soldiers"), zone(winner, "soldiers")),
        ),
        detail={"ends": ends is not None, "over": n > cap, "cap": cap},
    )
    if ends:
        _award(t, *ends)


def army_of(t: Table, seat: int) -> Army:
    return Army(t.cards(seat, "banner")[0], tuple(t.soldiers(seat)), tuple(t.palace(seat)))


def _battle_showdown(t: Table) -> None:
    b = t.battle
    assert b is not None
    a, d = b.attacker, b.defender
    armies = (army_of(t, a), army_of(t, d))
    res = resolve_battle(*armies)
    shown = (
        new_move(tuple(t.palace(a)), zone(a, "palace"), zone(a, "palace"), seen_by=(a, d)),
        new_move(tuple(t.palace(d)), zone(d, "palace"), zone(d, "palace"), seen_by=(a, d)),
    )
    t.battle = None
    detail = {
        "battle": res,
        "armies": armies,
        "attacker": a,
        "defender": d,
        "public_text": f"{t.name(a)} and {t.name(d)} show their palace cards to each other.",
        "seen_by": (a, d),
    }
    if res.winner is None:
        if len(t.in_hand()) == 2:
            t.phase, t.to_act = P_HAND_OVER, None
            t.record(E_BATTLE, None, "R8.6", moves=shown, detail=detail)
            _award(t, (a, d), R_BATTLE_TIE, "R8.6")
            return
        t.phase, t.to_act = P_SHOWDOWN, None
        t.record(E_BATTLE, None, "R8.6", moves=shown, detail=detail)
        t.active[a] = t.active[d] = False
        ends = _ending(t)
        t.phase = P_HAND_OVER if ends else P_TURN
        t.to_act = None if ends else t.left_of(a)
        t.record(
            E_BOTH_OUT,
            None,
            "R8.6",
            moves=tuple(
                new_move(
                    tuple(t.cards(s, part)),
                    zone(s, part),
                    "discard",
                    seen_by=(a, d) if part == "palace" else None,
                    pile=part == "palace",
                )
                for s in (a, d)
                for part in ("banner", "soldiers", "palace")
            ),
            detail={"out": (a, d)},
        )
        if ends:
            _award(t, *ends)
        else:
            _pass_turn(t, t.left_of(a))
        return
    winner, loser = (a, d) if res.winner == "attacker" else (d, a)
    t.phase, t.to_act = P_SHOWDOWN, None
    t.record(E_BATTLE, winner, res.rule, moves=shown, detail=detail)
    t.record(
        E_OUT,
        loser,
        "R8.4",
        moves=(
            new_move(
                tuple(t.palace(loser)),
                zone(loser, "palace"),
                "discard",
                seen_by=(a, d),
                pile=True,
            ),
        ),
        detail={"out": (loser,)},
    )
    _capture(t, winner, loser, a, "R8.4")


# ------------------------------------------------------------------ end of the hand
def _ending(t: Table) -> tuple[tuple[int, ...], EndReason, str] | None:
    """R9.2 / R9.4: the hand ends at once when one player, or only one banner suit, is left."""
    live = t.in_hand()
    if len(live) == 1:
        return (tuple(live), R_LAST_STANDING, "R10.1")
    if len({t.banner_suit(s) for s in live}) == 1:
        return (tuple(live), R_SAME_BANNER, "R9.4")
    return None


def _showdown(t: Table) -> None:
    """R10.3: best five of all cards, no exclusion; the best hand takes the pot."""
    live = t.in_hand()
    hands = {s: evaluate(t.army(s)) for s in live}
    best = max(hands.values())
    winners = tuple(s for s in live if hands[s] == best)
    t.phase = P_HAND_OVER
    t.record(
        E_SHOWDOWN,
        None,
        "R10.3",
        moves=tuple(
            new_move(tuple(t.palace(s)), zone(s, "palace"), zone(s, "palace")) for s in live
        ),
        detail={"hands": hands},
    )
    _award(t, winners, R_SHOWDOWN, "R10.3", hands)


def split(pot: int, winners: tuple[int, ...], dealer: int, players: int) -> dict[int, int]:
    """R10.4: equal shares; odd chips one each to the sharers nearest the dealer's left.

    >>> split(7, (0, 2), dealer=1, players=4)
    {2: 4, 0: 3}
    """
    order = sorted(winners, key=lambda s: (s - dealer - 1) % players)
    base, odd = divmod(pot, len(winners))
    return {s: base + (1 if i < odd else 0) for i, s in enumerate(order)}


def _award(
    t: Table,
    winners: tuple[int, ...],
    reason: EndReason,
    rule: str,
    hands: dict[int, Hand] | None = None,
) -> None:
    shares = split(t.pot, winners, t.dealer, t.players)
    t.phase, t.to_act = P_HAND_OVER, None
    t.must_battle = False
    if reason is R_LAST_STANDING:
        t.record(E_HAND_END, winners[0], "R9.2")
    elif reason is R_SAME_BANNER:
        t.record(
            E_HAND_END, None, "R9.4", detail={"left": winners, "suit": t.banner_suit(winners[0])}
        )
    if len(winners) > 1:
        rule = "R10.4" if reason is not R_SAME_BANNER else "R10.2"
    pot = t.pot
    t.result = HandResult(
        winners=winners,
        shares=shares,
        reason=reason,
        rule=rule,
        pot=pot,
        names=t.names,
        dealer=t.dealer,
        hands=hands,
    )
    t.record(
        E_POT,
        winners[0] if len(winners) == 1 else None,
        rule,
        amount=sum(shares.values()),
        chips=tuple((s, v) for s, v in shares.items() if v),
        detail={"shares": shares, "pot": pot, "reason": reason, "dealer": t.dealer},
    )
