"""Check, then act: the one place that says why an action is illegal now (R6, R7, R9.3).

`legal_actions` and `Game.apply` both use `why_illegal`, so the reason shown in the UI
is the reason enforced.
"""

from __future__ import annotations

from itertools import combinations

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.cards import format_cards
from palace.events import Phase
from palace.numbers import is_whole
from palace.rules import MAX_SOLDIERS
from palace.table import Table
from palace.words import plural


def must_battle(t: Table) -> bool:
    """R9.3: exactly two players of different banner suits are left."""
    if t.active.count(True) != 2:
        return False
    live = t.in_hand()
    return t.cards(live[0], "banner")[0].suit != t.cards(live[1], "banner")[0].suit


def banner_suit(t: Table, seat: int):
    return t.cards(seat, "banner")[0].suit


def min_attack(t: Table, seat: int) -> int:
    """R7.3: (attacker's soldiers + 1) × s."""
    return (len(t.cards(seat, "soldiers")) + 1) * t.rules.small_bet


def call_amount(t: Table, seat: int, attack: int) -> int:
    """R7.6: what the defender pays to call the attack."""
    if t.rules.call_matches_attack:
        return attack
    return (len(t.cards(seat, "soldiers")) + 1) * t.rules.small_bet


def limit_raise(t: Table, seat: int) -> int:
    """R7.7: the limit raise is `b`, or 2 × s for a player with no soldiers."""
    if not t.cards(seat, "soldiers"):
        return 2 * t.rules.small_bet
    return t.rules.big_bet


def _afford(t: Table, seat: int, amount: int, what: str) -> str | None:
    if not t.can_pay(seat, amount):
        return (
            f"{t.name(seat)} cannot afford {what} of {amount} with {t.stack(seat)} chips "
            f"left (R3.4)"
        )
    return None


def why_illegal(t: Table, action: Action) -> str | None:
    """Why `action` is not legal for the seat to act now, or None if it is legal."""
    phase = t.phase
    if phase is Phase.TURN:
        check = _TURN.get(type(action))
        if check is not None:
            return check(t, t.to_act, action)
    elif phase is Phase.BATTLE_RESPONSE:
        check = _ANSWER.get(type(action))
        if check is not None:
            return check(t, t.to_act, action)
    elif phase is Phase.TRIM_TO_FIVE:
        if type(action) is Trim:
            return _check_cards(t, t.to_act, action.cards, "R6.7") or _check_trim(
                t, t.to_act, action
            )
    elif phase is Phase.HAND_OVER:
        return "the hand is over: no more actions (R9, R10)"
    else:
        return "the cards are still being dealt (R4, R5)"
    if not isinstance(action, Action):
        return f"{action!r} is not an action (use Buy, Discard, Bet, Stay, Fold, Call, Raise, Trim)"
    me = t.name(t.to_act)
    if phase is Phase.TRIM_TO_FIVE:
        return (
            f"{me} must first choose which soldiers to discard (at most {MAX_SOLDIERS} may "
            f"stay) before play goes on (R6.7)"
        )
    if phase is Phase.BATTLE_RESPONSE:
        return f"{me} is answering a battle: Fold, Call or Raise (R7.4)"
    if isinstance(action, (Call, Raise)):
        return f"there is no battle to answer: {action} is only for a defender (R7.4)"
    if isinstance(action, Trim):
        return (
            "there is nothing to trim: discarding soldiers is part of Buy or Discard (R6.2, R6.4)"
        )
    return f"{action} is not a turn action (R6.1)"


def _quiet_ok(t: Table, seat: int) -> str | None:
    if must_battle(t):
        return (
            f"two players of different banner suits are left: {t.name(seat)} must Bet or "
            "Fold (R9.3)"
        )
    return None


def _check_buy(t: Table, seat: int, action: Buy) -> str | None:
    reason = _quiet_ok(t, seat)
    if reason:
        return reason
    if not t.zones["deck"] and not t.zones["discard"]:
        return "the draw deck and the discard pile are both empty, so Buy is not possible (R6.3)"
    return _afford(t, seat, t.rules.small_bet, "a Buy")


def _check_discard(t: Table, seat: int, action: Discard) -> str | None:
    reason = _quiet_ok(t, seat)
    if reason:
        return reason
    if not t.cards(seat, "soldiers"):
        return f"{t.name(seat)} has no soldiers to discard (R6.4)"
    if not action.cards:
        return "a Discard must discard one or more soldiers (R6.4)"
    return _check_cards(t, seat, action.cards, "R6.4") or _afford(
        t, seat, t.rules.discard_amount, "a Discard"
    )


def _check_raise(t: Table, seat: int, action: Raise) -> str | None:
    b = t.battle
    assert b is not None
    if t.rules.max_raises is not None and b.raises >= t.rules.max_raises:
        n = t.rules.max_raises
        return f"this battle has had the maximum of {plural(n, 'raise')} (R7.7)"
    if action.amount is not None and not is_whole(action.amount):
        return f"Raise.amount must be a whole number of chips, got {action.amount!r} (R7.7)"
    size = limit_raise(t, seat)
    if t.rules.no_limit:
        if action.amount is not None and action.amount < t.rules.big_bet:
            return f"a no-limit raise must be at least the big bet, {t.rules.big_bet} (R7.7)"
        size = action.amount if action.amount is not None else t.rules.big_bet
    elif action.amount is not None and action.amount != size:
        return f"in limit the raise is exactly {size} (R7.7)"
    return _afford(t, seat, b.owed + size, "calling and raising")


def _always(t: Table, seat: int, action: Action) -> None:
    return None


def _check_cards(t: Table, seat: int, cards, rule: str) -> str | None:
    soldiers = t.cards(seat, "soldiers")
    if len(set(cards)) != len(cards):
        return f"a card is named twice in {format_cards(cards)} ({rule})"
    for c in cards:
        if c not in soldiers:
            return f"{c} is not one of {t.name(seat)}'s soldiers ({rule})"
    return None


def _check_trim(t: Table, seat: int, action: Trim) -> str | None:
    left = len(t.cards(seat, "soldiers")) - len(action.cards)
    if left > MAX_SOLDIERS:
        need = len(t.cards(seat, "soldiers")) - MAX_SOLDIERS
        return (
            f"{t.name(seat)} would keep {left} soldiers: discard at least {need} to end with "
            f"at most {MAX_SOLDIERS} (R6.7)"
        )
    return None


def _check_bet(t: Table, seat: int, action: Bet) -> str | None:
    target = action.target
    if not is_whole(target) or not 0 <= target < t.players:
        return f"Bet.target must name a seat 0-{t.players - 1}, got {target!r} (R7.1)"
    if target == seat:
        return f"{t.name(seat)} cannot attack themselves: name an opponent (R7.1)"
    if not t.active[target]:
        return f"{t.name(target)} is out of the hand and cannot be attacked (R7.1)"
    if banner_suit(t, target) == banner_suit(t, seat):
        s = banner_suit(t, seat)
        return (
            f"{t.name(seat)} and {t.name(target)} both have {s.symbol} banners: players of the "
            f"same banner suit may not battle (R7.2)"
        )
    low = min_attack(t, seat)
    if action.amount is not None and not is_whole(action.amount):
        return f"Bet.amount must be a whole number of chips, got {action.amount!r} (R7.3)"
    amount = low if action.amount is None else action.amount
    if not t.rules.no_limit and amount != low:
        return f"in limit the attack is exactly (soldiers + 1) × s = {low} (R7.3)"
    if amount < low:
        return f"the minimum attack is (soldiers + 1) × s = {low} (R7.3)"
    return _afford(t, seat, amount, "an attack")


_TURN = {
    Buy: _check_buy,
    Discard: _check_discard,
    Bet: lambda t, seat, a: _check_bet(t, seat, a),
    Stay: lambda t, seat, a: _quiet_ok(t, seat),
    Fold: _always,
}
_ANSWER = {Fold: _always, Call: _always, Raise: _check_raise}


def candidates(t: Table) -> list[Action]:
    """Every action worth checking now (card subsets spelled out)."""
    if t.phase is Phase.TURN:
        seat = t.to_act
        soldiers = sorted(t.cards(seat, "soldiers"), reverse=True)
        out: list[Action] = [Buy()]
        for k in range(1, len(soldiers) + 1):
            out.extend(Discard(cards=combo) for combo in combinations(soldiers, k))
        out.extend(Bet(target=s) for s in range(t.players) if s != seat and t.active[s])
        out += [Stay(), Fold()]
        return out
    if t.phase is Phase.BATTLE_RESPONSE:
        return [Fold(), Call(), Raise()]
    if t.phase is Phase.TRIM_TO_FIVE:
        soldiers = sorted(t.cards(t.to_act, "soldiers"), reverse=True)
        low = max(0, len(soldiers) - MAX_SOLDIERS)
        return [
            Trim(cards=combo)
            for k in range(low, len(soldiers) + 1)
            for combo in combinations(soldiers, k)
        ]
    return []


def legal_actions(t: Table) -> list[Action]:
    """The actions `why_illegal` accepts now."""
    return [a for a in candidates(t) if why_illegal(t, a) is None]
