"""Carrying out a legal action: the turn (R6), battles (R7, R8) and the end of the hand (R9, R10).

Every function here assumes `checks.why_illegal` has accepted the action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.battle import Army, BattleResult, resolve_battle
from palace.cards import Card, format_cards
from palace.checks import banner_suit, call_amount, limit_raise, min_attack, must_battle
from palace.deal import reshuffle_into_deck
from palace.events import Move, Phase
from palace.hands import Hand, evaluate
from palace.rules import MAX_SOLDIERS
from palace.table import Battle, Table, zone
from palace.words import plural


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: who shares the pot, how much each took, and why (R10)."""

    winners: tuple[int, ...]
    shares: dict[int, int]
    reason: str  # "last standing", "same banner", "showdown", "battle tie"
    rule: str
    text: str
    hands: dict[int, Hand] | None = None


def perform(t: Table, rng: random.Random, action: Action) -> None:
    """Apply a legal action for `t.to_act`."""
    seat = t.to_act
    assert seat is not None
    if t.phase is Phase.TRIM_TO_FIVE:
        _trim(t, seat, action)  # type: ignore[arg-type]
    elif t.phase is Phase.BATTLE_RESPONSE:
        if isinstance(action, Fold):
            _battle_fold(t, seat)
        elif isinstance(action, Call):
            _call(t, seat, rng)
        else:
            _raise(t, seat, action)  # type: ignore[arg-type]
    elif isinstance(action, Buy):
        _buy(t, seat, rng)
    elif isinstance(action, Discard):
        _discard(t, seat, action)
    elif isinstance(action, Bet):
        _bet(t, seat, action)
    elif isinstance(action, Stay):
        _after_action(t, seat, "stay", rng, text=f"{t.name(seat)} stays.", rule="R6.5")
    elif isinstance(action, Fold):
        _turn_fold(t, seat, rng)


# ------------------------------------------------------------------ the turn
def _buy(t: Table, seat: int, rng: random.Random) -> None:
    if not t.zones["deck"]:
        n = len(t.zones["discard"])
        reshuffle_into_deck(
            t,
            rng,
            "discard",
            face_up=False,
            rule="R6.3",
            text=f"The draw deck is empty: the discard pile ({plural(n, 'card')}) "
            "is shuffled into a new draw deck.",
        )
    card = t.zones["deck"][0]
    t.quiet.clear()
    t.phase = Phase.TRIM_TO_FIVE
    t.trim_next = None  # decided after the trim: left of the buyer
    n = len(t.cards(seat, "soldiers")) + 1
    t.trim_min = max(0, n - MAX_SOLDIERS)
    must = " (they must discard one: at most five, R6.7)" if t.trim_min else ""
    t.record(
        "buy",
        seat,
        f"{t.name(seat)} pays {plural(t.rules.small_bet, 'chip')} and buys {card.symbol} as a "
        f"soldier; now they may discard any soldiers{must}.",
        "R6.2",
        cards=(card,),
        amount=t.rules.small_bet,
        moves=(Move((card,), "deck", zone(seat, "soldiers")),),
        chips=((seat, -t.rules.small_bet),),
    )


def _trim(t: Table, seat: int, action: Trim) -> None:
    after_capture = t.trim_next is not None
    nxt = t.trim_next if after_capture else t.left_of(seat)
    rule = t.trim_rule if after_capture else "R6.2"
    if len(t.cards(seat, "soldiers")) > MAX_SOLDIERS:
        rule = "R6.7"
    t.phase = Phase.TURN
    t.to_act = nxt
    t.trim_next = None
    if action.cards:
        text = f"{t.name(seat)} discards {format_cards(c.symbol for c in action.cards)}."
    else:
        n = len(t.cards(seat, "soldiers"))
        kept = {0: "has no soldiers to discard", 1: "keeps their soldier"}.get(
            n, f"keeps all {n} soldiers"
        )
        text = f"{t.name(seat)} {kept}."
    t.record(
        "trim",
        seat,
        text,
        rule,
        cards=action.cards,
        moves=(Move(action.cards, zone(seat, "soldiers"), "discard"),) if action.cards else (),
    )


def _discard(t: Table, seat: int, action: Discard) -> None:
    cost = t.rules.discard_amount
    _after_action(
        t,
        seat,
        "discard",
        None,
        text=f"{t.name(seat)} pays {plural(cost, 'chip')} and discards "
        f"{format_cards(c.symbol for c in action.cards)}.",
        rule="R6.4",
        cards=action.cards,
        amount=cost,
        moves=(Move(action.cards, zone(seat, "soldiers"), "discard"),),
        chips=((seat, -cost),) if cost else (),
    )


def _turn_fold(t: Table, seat: int, rng: random.Random) -> None:
    t.active[seat] = False
    pal = tuple(t.cards(seat, "palace"))
    pub = tuple(t.cards(seat, "banner") + t.cards(seat, "soldiers"))
    _after_action(
        t,
        seat,
        "fold",
        rng,
        text=f"{t.name(seat)} folds: their banner, soldiers and palace cards go to the "
        "discard pile.",
        rule="R6.6",
        cards=pub,
        moves=(
            Move(pal, zone(seat, "palace"), "discard", seen_by=(seat,), pile=True),
            Move(tuple(t.cards(seat, "banner")), zone(seat, "banner"), "discard"),
            Move(tuple(t.cards(seat, "soldiers")), zone(seat, "soldiers"), "discard"),
        ),
        out=(seat,),
    )


def _after_action(
    t: Table,
    seat: int,
    kind: str,
    rng: random.Random | None,
    *,
    text: str,
    rule: str,
    cards: tuple[Card, ...] = (),
    amount: int = 0,
    moves: tuple[Move, ...] = (),
    chips: tuple[tuple[int, int], ...] = (),
    out: tuple[int, ...] = (),
) -> None:
    """Record a Stay, Discard or Fold, then end the hand or pass the turn (R9.1)."""
    if kind in t.rules.quiet_actions:
        t.quiet.add(seat)
    else:
        t.quiet.clear()  # decision: an action the table does not count as quiet restarts R9.1
    for s in out:
        t.active[s] = False
    live = t.in_hand()
    ends = _ending(t)
    quiet_end = ends is None and not must_battle(t) and set(live) <= t.quiet
    t.to_act = t.left_of(seat)
    if ends or quiet_end:
        t.phase = Phase.SHOWDOWN if quiet_end else Phase.HAND_OVER
        t.to_act = None
    t.record(
        kind,
        seat,
        text,
        rule,
        cards=cards,
        amount=amount,
        moves=moves,
        chips=chips,
        detail={"out": out} if out else None,
    )
    if ends:
        _award(t, ends)
    elif quiet_end:
        t.record(
            "quiet_round",
            None,
            "Every player still in the hand has taken a quiet action in turn: the hand ends "
            "in a showdown.",
            "R9.1",
        )
        _quiet_showdown(t)


# ------------------------------------------------------------------ battles
def _bet(t: Table, seat: int, action: Bet) -> None:
    target = action.target
    amount = min_attack(t, seat) if action.amount is None else action.amount
    owed = call_amount(t, target, amount)
    t.quiet.clear()
    t.battle = Battle(
        attacker=seat, defender=target, to_act=target, owed=owed, paid={seat: amount, target: 0}
    )
    t.phase = Phase.BATTLE_RESPONSE
    t.to_act = target
    n = len(t.cards(seat, "soldiers"))
    how = f"({plural(n, 'soldier')} + 1) × {t.rules.small_bet}"
    t.record(
        "bet",
        seat,
        f"{t.name(seat)} attacks {t.name(target)} with {plural(amount, 'chip')} ({how}"
        f"{'' if amount == min_attack(t, seat) else ', more than the minimum'}).",
        "R7.3",
        amount=amount,
        chips=((seat, -amount),),
        detail={"target": target},
    )


def _pay(t: Table, seat: int, amount: int) -> int:
    if t.stacks is not None:
        amount = min(amount, t.stacks[seat])  # R3.4: a call may be all-in
    return amount


def _raise(t: Table, seat: int, action: Raise) -> None:
    b = t.battle
    assert b is not None
    size = (
        action.amount
        if action.amount is not None
        else (t.rules.big_bet if t.rules.no_limit else limit_raise(t, seat))
    )
    total = b.owed + size
    other = b.attacker if seat == b.defender else b.defender
    b.paid[seat] += total
    b.raises += 1
    b.last_raiser, b.last_raise = seat, size
    b.owed, b.to_act = size, other
    t.to_act = other
    first = seat == b.defender and b.raises == 1
    t.record(
        "raise",
        seat,
        f"{t.name(seat)} pays {total - size} to call and raises {size} "
        f"({plural(total, 'chip')} in all).",
        "R7.7" if first else "R7.8",
        amount=total,
        chips=((seat, -total),),
    )


def _call(t: Table, seat: int, rng: random.Random) -> None:
    b = t.battle
    assert b is not None
    pay = _pay(t, seat, b.owed)
    b.paid[seat] += pay
    allin = " (all-in, R3.4)" if pay < b.owed else ""
    t.record(
        "call",
        seat,
        f"{t.name(seat)} calls with {plural(pay, 'chip')}{allin}.",
        "R7.6" if b.raises == 0 else "R7.8",
        amount=pay,
        chips=((seat, -pay),) if pay else (),
    )
    _battle_showdown(t, rng)


def _battle_fold(t: Table, seat: int) -> None:
    b = t.battle
    assert b is not None
    winner = b.attacker if seat == b.defender else b.defender
    chips: tuple[tuple[int, int], ...] = ()
    rule = "R7.5"
    text = f"{t.name(seat)} folds"
    out = " and is out of the hand: their palace cards go to the discard pile"
    if b.raises and b.last_raiser == winner:
        rule = "R7.9"
        chips = ((winner, b.last_raise),)
        b.paid[winner] -= b.last_raise
        back = plural(b.last_raise, "chip")
        text += f" to the raise{out}; the uncalled raise of {back} goes back to {t.name(winner)}."
    else:
        text += out + "."
    t.battle = None
    t.active[seat] = False
    t.record(
        "fold",
        seat,
        text,
        rule,
        chips=chips,
        moves=(
            Move(
                tuple(t.cards(seat, "palace")),
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
    taken = tuple(t.cards(loser, "banner") + t.cards(loser, "soldiers"))
    ends = _ending(t)
    n = len(t.cards(winner, "soldiers")) + len(taken)
    if ends:
        t.phase, t.to_act = Phase.HAND_OVER, None
    else:
        t.phase, t.to_act = Phase.TRIM_TO_FIVE, winner
        t.trim_min = max(0, n - MAX_SOLDIERS)
        t.trim_next = t.left_of(attacker)  # R8.7
        t.trim_rule = rule
    extra = " and must discard down to five (R6.7)" if n > MAX_SOLDIERS else " and may discard any"
    t.record(
        "capture",
        winner,
        f"{t.name(winner)} captures {format_cards(c.symbol for c in taken)} as soldiers"
        f"{'' if ends else extra}.",
        rule,
        cards=taken,
        moves=(
            Move(tuple(t.cards(loser, "banner")), zone(loser, "banner"), zone(winner, "soldiers")),
            Move(
                tuple(t.cards(loser, "soldiers")), zone(loser, "soldiers"), zone(winner, "soldiers")
            ),
        ),
    )
    if ends:
        _award(t, ends)


def army_of(t: Table, seat: int) -> Army:
    return Army(
        t.cards(seat, "banner")[0], tuple(t.cards(seat, "soldiers")), tuple(t.cards(seat, "palace"))
    )


def _battle_showdown(t: Table, rng: random.Random) -> None:
    b = t.battle
    assert b is not None
    a, d = b.attacker, b.defender
    armies = (army_of(t, a), army_of(t, d))
    res: BattleResult = resolve_battle(*armies)
    text = res.explain(t.name(a), t.name(d), cite=False)  # the event cites its rule itself
    shown = (
        Move(tuple(t.cards(a, "palace")), zone(a, "palace"), zone(a, "palace"), seen_by=(a, d)),
        Move(tuple(t.cards(d, "palace")), zone(d, "palace"), zone(d, "palace"), seen_by=(a, d)),
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
        last_two = len(t.in_hand()) == 2
        if last_two:
            t.phase, t.to_act = Phase.HAND_OVER, None
            t.record("battle", None, text, "R8.6", moves=shown, detail=detail)
            _award(t, ((a, d), "battle tie", "R8.6"))
            return
        t.phase, t.to_act = Phase.SHOWDOWN, None
        t.record("battle", None, text, "R8.6", moves=shown, detail=detail)
        t.active[a] = t.active[d] = False
        ends = _ending(t)
        t.phase = Phase.HAND_OVER if ends else Phase.TURN
        t.to_act = None if ends else t.left_of(a)
        t.record(
            "both_out",
            None,
            f"{t.name(a)} and {t.name(d)} are both out: all their cards go to the discard pile.",
            "R8.6",
            moves=tuple(
                Move(
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
            _award(t, ends)
        return
    winner, loser = (a, d) if res.winner == "attacker" else (d, a)
    t.phase, t.to_act = Phase.SHOWDOWN, None
    t.record("battle", winner, text, res.rule, moves=shown, detail=detail)
    t.active[loser] = False
    t.record(
        "out",
        loser,
        f"{t.name(loser)} is out of the hand: their palace cards go to the discard pile.",
        "R8.4",
        moves=(
            Move(
                tuple(t.cards(loser, "palace")),
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
def _ending(t: Table) -> tuple[tuple[int, ...], str, str] | None:
    """R9.2 / R9.4: the hand ends at once when one player, or only one banner suit, is left."""
    live = t.in_hand()
    if len(live) == 1:
        return (tuple(live), "last standing", "R10.1")
    if len({banner_suit(t, s) for s in live}) == 1:
        return (tuple(live), "same banner", "R9.4")
    return None


def _quiet_showdown(t: Table) -> None:
    """R10.3: best five of all cards, no exclusion; the best hand takes the pot."""
    live = t.in_hand()
    hands = {s: evaluate(t.army(s)) for s in live}
    best = max(hands.values())
    winners = tuple(s for s in live if hands[s] == best)
    text = "; ".join(f"{t.name(s)}: {hands[s].describe()}" for s in live)
    t.phase = Phase.HAND_OVER
    t.record(
        "showdown",
        None,
        f"Showdown, no exclusion: {text}.",
        "R10.3",
        moves=tuple(
            Move(tuple(t.cards(s, "palace")), zone(s, "palace"), zone(s, "palace")) for s in live
        ),
        detail={"hands": hands},
    )
    _award(t, (winners, "showdown", "R10.3"), hands)


def split(pot: int, winners: tuple[int, ...], dealer: int, players: int) -> dict[int, int]:
    """R10.4: equal shares; odd chips one each to the sharers nearest the dealer's left.

    >>> split(7, (0, 2), dealer=1, players=4)
    {2: 4, 0: 3}
    """
    order = sorted(winners, key=lambda s: (s - dealer - 1) % players)
    base, odd = divmod(pot, len(winners))
    return {s: base + (1 if i < odd else 0) for i, s in enumerate(order)}


def _award(
    t: Table, ending: tuple[tuple[int, ...], str, str], hands: dict[int, Hand] | None = None
) -> None:
    winners, reason, rule = ending
    shares = split(t.pot, winners, t.dealer, t.players)
    t.phase, t.to_act = Phase.HAND_OVER, None
    if reason == "last standing":
        t.record("hand_end", winners[0], f"Only {t.name(winners[0])} is left in the hand.", "R9.2")
    elif reason == "same banner":
        suit = banner_suit(t, winners[0])
        t.record(
            "hand_end",
            None,
            f"Only {suit.symbol} banners are left ({', '.join(t.name(s) for s in winners)}): "
            "no battle is possible, so the hand ends.",
            "R9.4",
        )
    if len(winners) == 1:
        w = winners[0]
        why = {
            "last standing": "as the last player standing",
            "showdown": "with the best hand",
        }.get(reason, "")
        text = f"{t.name(w)} takes the pot of {plural(t.pot, 'chip')} {why}."
        text = text.replace("  ", " ").replace(" .", ".")
    else:
        who = ", ".join(
            f"{t.name(s)} {shares[s]}"
            for s in sorted(shares, key=lambda s: (s - t.dealer - 1) % t.players)
        )
        why = {
            "same banner": "only one banner suit is left, so no battle is possible",
            "battle tie": "the last two tied a battle",
            "showdown": "their best hands are equal",
        }[reason]
        text = f"The pot of {plural(t.pot, 'chip')} is shared ({who}): {why}."
        rule = "R10.4" if reason != "same banner" else "R10.2"
    t.result = HandResult(winners, shares, reason, rule, text, hands)
    t.record(
        "pot",
        winners[0] if len(winners) == 1 else None,
        text,
        rule,
        amount=sum(shares.values()),
        chips=tuple((s, v) for s, v in shares.items() if v),
        detail={"shares": shares},
    )
