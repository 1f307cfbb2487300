"""How each event is said: one plain-English sentence per `EventKind`, written when it is read.

Events keep the facts (cards, amounts, seats, a small `detail`); the sentence is built from
them on demand, so recording a hand stays cheap and every sentence still names the
players and the cards (R11).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from palace.events import SENTENCES, EndReason, Event, EventKind
from palace.hand_words import decided, deciding_cards, hand_cards
from palace.hand_words import symbols as _syms
from palace.hands import Hand, describe_value
from palace.words import joined, number_word, plural, verb_for


def _and(names: tuple[str, ...], seats: Iterable[int]) -> str:
    """The players named in a list: "Ann", "Ann and Bob", "Ann, Bob and Cat"."""
    return joined(names[s] for s in seats)


def _chips(n: int) -> str:
    """An amount said in a sentence: "1 chip", "3 chips", "nothing"."""
    return plural(n, "chip") if n else "nothing"


def _who(e: Event) -> str:
    """The name of the event's player."""
    assert e.seat is not None, e
    return e.names[e.seat]


def _says(kind: EventKind) -> Callable[[Callable[[Event], str]], Callable[[Event], str]]:
    def register(fn: Callable[[Event], str]) -> Callable[[Event], str]:
        SENTENCES[kind] = fn
        return fn

    return register


def sentence(event: Event) -> str:
    """The sentence of any event (the same as ``event.text``)."""
    return SENTENCES[event.kind](event)


# ------------------------------------------------------------------ the deal (R2-R5)
_SHUFFLES = {
    "first_dealer": "The deck is shuffled to choose the first dealer.",
    "again": "The deck is reshuffled before the hand.",
    "before_hand": "The deck is shuffled before the hand.",
}


@_says(EventKind.SHUFFLE)
def _shuffle(e: Event) -> str:
    return _SHUFFLES[e.detail.get("why", "before_hand")]


@_says(EventKind.CUT)
def _cut(e: Event) -> str:
    return f"{_who(e)} draws {e.cards[0].symbol} for the deal."


@_says(EventKind.CUT_TIE)
def _cut_tie(e: Event) -> str:
    tied = _and(e.names, e.detail["tied"])
    return f"{tied} tie with {e.detail['rank'].plural}: only they draw again."


@_says(EventKind.DEALER)
def _dealer(e: Event) -> str:
    who = _who(e)
    if e.rule == "R2.1":
        return f"{who} has the highest card and deals."
    return f"{who} deals this hand."


@_says(EventKind.GATHER)
def _gather(e: Event) -> str:
    if e.rule == "R2.2":
        return "The cards drawn for the deal go back into the deck."
    how = "and shuffled" if e.detail.get("shuffled") else "(a scripted deck: not shuffled)"
    if e.detail.get("manual"):
        how = "(each card dealt from it is a chance step)"
    n = len(e.cards)
    if n == 0:
        return f"No card was rejected: the rest of the deck is gathered {how}."
    if n == 1:
        return f"The banner reject {e.cards[0].symbol} is gathered with the rest of the deck {how}."
    return f"The {n} banner rejects are gathered with the rest of the deck {how}."


@_says(EventKind.STACK)
def _stack(e: Event) -> str:
    return "The deck is arranged for this lesson (a scripted deck)."


@_says(EventKind.ANTE)
def _ante(e: Event) -> str:
    ante = e.detail["ante"]
    short = e.detail.get("short", ())
    if not ante:
        return "There is no ante at these stakes."
    if short:
        return (
            f"The players ante {plural(ante, 'chip')} each; {_and(e.names, short)} can pay "
            "only what they have left (R3.4)."
        )
    return f"Every player antes {plural(ante, 'chip')} into the pot."


@_says(EventKind.BANNER)
def _banner(e: Event) -> str:
    return f"{_who(e)}'s banner is {e.cards[0].symbol} (group {e.detail['group']})."


@_says(EventKind.REJECT)
def _reject(e: Event) -> str:
    c = e.cards[0]
    return (
        f"{c.symbol} is rejected for {_who(e)}: {c.suit.symbol} is already "
        f"{e.names[e.detail['owner']]}'s banner in group {e.detail['group']}."
    )


@_says(EventKind.RESHUFFLE)
def _reshuffle(e: Event) -> str:
    n = e.detail["n"]
    if e.rule == "R4.4":
        rejects = plural(n, "banner reject")
        are = verb_for(n, "is", "are")
        return f"The deck has run out: the {rejects} {are} shuffled into a new deck."
    return (
        f"The draw deck is empty: the discard pile ({plural(n, 'card')}) is shuffled into a "
        "new draw deck."
    )


@_says(EventKind.PALACE)
def _palace(e: Event) -> str:
    d = e.detail
    return f"{_who(e)} receives palace card {d['round']} of {d['of']}, face down."


@_says(EventKind.START)
def _start(e: Event) -> str:
    return f"Play starts with {_who(e)}, left of the dealer."


@_says(EventKind.POSITION)
def _position(e: Event) -> str:
    return str(e.detail.get("why", "The table is set to a position."))


# ------------------------------------------------------------------ the turn (R6)
@_says(EventKind.BUY)
def _buy(e: Event) -> str:
    cap = e.detail.get("cap")
    must = f" (they must discard one: at most {number_word(cap)}, R6.7)" if cap is not None else ""
    return (
        f"{_who(e)} pays {plural(e.amount, 'chip')} and buys {e.cards[0].symbol} as a "
        f"soldier; now they may discard any soldiers{must}."
    )


@_says(EventKind.TRIM)
def _trim(e: Event) -> str:
    who = _who(e)
    if e.cards:
        return f"{who} discards {_syms(e.cards)}."
    n = e.detail.get("kept", 0)
    kept = {0: "has no soldiers to discard", 1: "keeps their soldier"}.get(
        n, f"keeps all {n} soldiers"
    )
    return f"{who} {kept}."


@_says(EventKind.DISCARD)
def _discard(e: Event) -> str:
    if not e.amount:
        return f"{_who(e)} discards {_syms(e.cards)}, free at this table."
    return f"{_who(e)} pays {plural(e.amount, 'chip')} and discards {_syms(e.cards)}."


@_says(EventKind.STAY)
def _stay(e: Event) -> str:
    return f"{_who(e)} stays."


@_says(EventKind.FOLD)
def _fold(e: Event) -> str:
    who = _who(e)
    if e.rule == "R6.6":
        return f"{who} folds: their banner, soldiers and palace cards go to the discard pile."
    out = " and is out of the hand: their palace cards go to the discard pile"
    if e.rule == "R7.9" and e.chips:
        winner, back = e.chips[0]
        return (
            f"{who} folds to the raise{out}; the uncalled raise of {plural(back, 'chip')} goes "
            f"back to {e.names[winner]}."
        )
    return f"{who} folds{out}."


# ------------------------------------------------------------------ battles (R7, R8)
@_says(EventKind.BET)
def _bet(e: Event) -> str:
    d = e.detail
    who, target = _who(e), e.names[d["target"]]
    n, s, low = d["soldiers"], d["s"], d["min"]
    if d.get("allin"):
        if not e.amount:
            return (
                f"{who} has no chips left and attacks {target} all-in for nothing (the minimum "
                f"is {low}): {target} calls for nothing."
            )
        return (
            f"{who} attacks {target} all-in with {plural(e.amount, 'chip')}, less than the "
            f"minimum of {low}: {target}'s call is at most {e.amount}."
        )
    how = f"({plural(n, 'soldier')} + 1) × {s}" if n else f"(0 + 1) × {s}"
    nos = "" if n else ", with no soldiers"
    chips = plural(e.amount, "chip")
    cap = ""
    if d.get("all_in"):
        cap = f"; it is all {who} has, so {target}'s call is at most {e.amount} (R3.4)"
    if e.amount == low:
        return f"{who} attacks {target} with {chips}: {how}{nos}{cap}."
    return f"{who} attacks {target} with {chips}, more than the minimum of {how} = {low}{nos}{cap}."


@_says(EventKind.RAISE)
def _raise(e: Event) -> str:
    d = e.detail
    return (
        f"{_who(e)} calls with {plural(d['call'], 'chip')} and raises by {d['size']}: "
        f"{plural(e.amount, 'chip')} in all."
    )


@_says(EventKind.CALL)
def _call(e: Event) -> str:
    d = e.detail
    who = _who(e)
    if not e.amount:
        text = f"{who} calls for nothing"
        if d.get("allin"):
            text = f"{who} has no chips left and calls all-in for nothing"
    else:
        text = f"{who} calls with {plural(e.amount, 'chip')}"
        if d.get("allin"):
            text += " (all-in)"
    back = d.get("back")
    if back:
        bettor = e.names[d["bettor"]]
        what = d.get("of", "bet")
        text += (
            f"; the {plural(back, 'chip')} of {bettor}'s {what} that this call does not match "
            f"{verb_for(back, 'goes', 'go')} back to {bettor}"
        )
    return text + "."


@_says(EventKind.BATTLE)
def _battle(e: Event) -> str:
    d = e.detail
    return d["battle"].explain(e.names[d["attacker"]], e.names[d["defender"]], cite=False)


@_says(EventKind.OUT)
def _out(e: Event) -> str:
    return f"{_who(e)} is out of the hand: their palace cards go to the discard pile."


@_says(EventKind.BOTH_OUT)
def _both_out(e: Event) -> str:
    a, d = e.detail["out"]
    return f"{e.names[a]} and {e.names[d]} are both out: all their cards go to the discard pile."


@_says(EventKind.CAPTURE)
def _capture(e: Event) -> str:
    d = e.detail
    extra = ""
    if not d.get("ends"):
        cap = d.get("cap", 5)
        extra = (
            f" and must discard down to {number_word(cap)} (R6.7)"
            if d.get("over")
            else " and may discard any"
        )
    what = "a soldier" if len(e.cards) == 1 else "soldiers"
    return f"{_who(e)} captures {_syms(e.cards)} as {what}{extra}."


# ------------------------------------------------------------------ the end of the hand (R9, R10)
@_says(EventKind.TWO_LEFT)
def _two_left(e: Event) -> str:
    d = e.detail
    who = _who(e)
    if d.get("at_once"):
        return (
            f"Only {_and(e.names, d['left'])} are left, with different banner suits: they must "
            f"battle, so {who} may only Bet or Fold."
        )
    before = d["before"]
    what = {"stay": "stayed", "discard": "discarded", "fold": "folded"}[d["last"]]
    return (
        f"{e.names[d['last_seat']]} {what} after {e.names[before]}: with two left, {who} must "
        "now Bet or Fold."
    )


@_says(EventKind.QUIET_ROUND)
def _quiet_round(e: Event) -> str:
    return (
        "Every player still in the hand has taken a quiet action in turn: the hand ends in a "
        "showdown."
    )


@_says(EventKind.TURN_LIMIT)
def _turn_limit(e: Event) -> str:
    return (
        f"The hand has reached its limit of {plural(e.amount, 'turn')}: it ends in a showdown "
        "(R10.3)."
    )


@_says(EventKind.SHOWDOWN)
def _showdown(e: Event) -> str:
    hands: dict[int, Hand] = e.detail["hands"]
    names = e.names
    text = "; ".join(
        f"{names[s]}: {describe_value(h.value)} ({hand_cards(h)})" for s, h in hands.items()
    )
    best = max(hands.values())
    top = [s for s, h in hands.items() if h == best]
    if len(top) > 1:
        return f"Showdown, no exclusion: {text}. {_and(names, top)} hold equal best hands."
    (w,) = top
    beats: dict[str, list[str]] = {}  # the winner's deciding card: the cards it beats
    short: list[str] = []
    for s, h in hands.items():
        pair = deciding_cards(best, h) if s != w else None
        if pair is None:
            continue
        cw, cl = pair
        if cl is None or cw is None:
            short.append(decided(names[w], best, names[s], h))
        else:
            beats.setdefault(cw.symbol, []).append(f"{names[s]}'s {cl.symbol}")
    why = [f"{names[w]}'s {c} beats {joined(lost)}" for c, lost in beats.items()] + short
    verdict = f"{names[w]}'s hand is best" + (f": {'; '.join(why)}" if why else "")
    return f"Showdown, no exclusion: {text}. {verdict}."


@_says(EventKind.HAND_END)
def _hand_end(e: Event) -> str:
    if e.rule == "R9.2":
        return f"Only {_who(e)} is left in the hand."
    left = e.detail["left"]
    return (
        f"Only {e.detail['suit'].symbol} banners are left ({_and(e.names, left)}): no battle "
        "is possible, so the hand ends."
    )


def pot_sentence(
    names: tuple[str, ...],
    pot: int,
    shares: dict[int, int],
    reason: EndReason,
    dealer: int,
) -> str:
    """How the pot was won or shared (R10)."""
    if len(shares) == 1:
        (w,) = shares
        why = {
            EndReason.LAST_STANDING: " as the last player standing",
            EndReason.SHOWDOWN: " with the best hand",
        }.get(reason, "")
        if not pot:
            return f"{names[w]} wins the hand{why}, but the pot is empty."
        return f"{names[w]} takes the pot of {plural(pot, 'chip')}{why}."
    n = len(names)
    order = sorted(shares, key=lambda s: (s - dealer - 1) % n)
    who = joined(f"{names[s]} {shares[s] or 'nothing'}" for s in order)
    why = {
        EndReason.SAME_BANNER: "only one banner suit is left, so no battle is possible",
        EndReason.BATTLE_TIE: "the last two tied a battle",
        EndReason.SHOWDOWN: "their best hands are equal",
        EndReason.LAST_STANDING: "",
    }[reason]
    if not pot:
        return f"{_and(names, order)} share the hand, but the pot is empty: {why}."
    return f"The pot of {plural(pot, 'chip')} is shared ({who}): {why}."


@_says(EventKind.POT)
def _pot(e: Event) -> str:
    d: dict[str, Any] = e.detail
    return pot_sentence(e.names, d["pot"], d["shares"], d["reason"], d["dealer"])
