"""How each action is labelled for a player: what it does, to whom, and what it costs (R6, R7).

The label of every action that costs chips says how many ("Buy (2 chips)", "Call (4 chips)",
"Raise by 4 (8 chips with the call)"); cards are written with their suit symbols, as the
events write them ("Discard K♣ 7♥ (2 chips)").
"""

from __future__ import annotations

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.checks import attack_of, raise_of
from palace.numbers import is_whole
from palace.table import Table
from palace.words import plural


def chips(n: int) -> str:
    """A cost in a label: ``"2 chips"``, ``"1 chip"``, ``"no chips"``."""
    return plural(n, "chip") if n else "no chips"


def _symbols(action: Discard | Trim) -> str:
    return " ".join(c.symbol for c in action.cards)


def action_label(t: Table, action: Action) -> str:
    """The action in words, with names and its cost for the player to act:
    ``"Attack Bob (6 chips)"``, ``"Call all-in (3 chips)"``, ``"Discard K♣ (2 chips)"``."""
    seat = t.to_act
    stack = t.stacks[seat] if t.stacks is not None and seat is not None else None
    if isinstance(action, Buy):
        return f"Buy ({chips(t.small_bet)})"
    if isinstance(action, Discard):
        cost = t.discard_amount
        return f"Discard {_symbols(action)} ({chips(cost) if cost else 'free'})"
    if isinstance(action, Trim):
        return f"Discard {_symbols(action)}" if action.cards else "Keep all soldiers"
    if isinstance(action, Stay | Fold):
        return str(action)
    if isinstance(action, Bet):
        target = action.target
        name = t.names[target] if is_whole(target) and 0 <= target < t.players else target
        given = action.amount
        if seat is None or not (given is None or is_whole(given)):
            return f"Attack {name}"
        amount, _ = attack_of(t, seat, given)
        all_in = " all-in" if stack is not None and amount == stack else ""
        return f"Attack {name}{all_in} ({chips(amount)})"
    b = t.battle
    if b is None or seat is None:
        return str(action)
    if isinstance(action, Call):
        pay = b.owed if stack is None else min(b.owed, stack)
        return f"Call{' all-in' if stack is not None and pay == stack else ''} ({chips(pay)})"
    if isinstance(action, Raise):
        given = action.amount
        if not (given is None or is_whole(given)):
            return str(action)
        size = raise_of(t, seat, given)
        return f"Raise by {size} ({chips(b.owed + size)} with the call)"
    return str(action)
