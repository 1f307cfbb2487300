"""How a hand is said: its name in a sentence, its best five, and the cards that decided two hands.

>>> from palace.hands import evaluate
>>> a, b = evaluate("9h 9c Ah 5d 2c"), evaluate("9d 9s Kc 8c 3c")
>>> hand_name(a), hand_cards(a), decided("Ann", a, "Bob", b)
('a pair of nines', '9♥ 9♣ A♥ 5♦ 2♣', "Ann's A♥ beats Bob's K♣")
"""

from __future__ import annotations

from collections.abc import Iterable

from palace.cards import Card
from palace.hands import Hand, describe_value
from palace.words import plural


def symbols(cards: Iterable[Card]) -> str:
    """Cards as printed on them, suit symbols and all: ``"K♣ 10♥"`` (a dash for none)."""
    return " ".join(c.symbol for c in cards) or "—"


def hand_name(h: Hand, article: bool = True) -> str:
    """A hand's name inside a sentence: "a pair of aces", "three kings", "high card ten";
    without the article after a possessive ("Ann's pair of aces")."""
    if h.category is None:
        return "no counting cards" if article else "hand of no counting cards"
    text = describe_value(h.value)
    text = text[:1].lower() + text[1:]
    a = article and text.startswith(("pair", "flush", "straight", "full house"))
    return "a " + text if a else text


def hand_cards(h: Hand, lost_to: str | None = None) -> str:
    """The cards that make a hand, how many count when fewer than five do (R8.1-R8.3) and,
    in a battle, the cards lost to the opponent's banner suit `lost_to` (R8.2)."""
    n = len(h.counting)
    parts = [symbols(h.best) if h.best else "no counting cards"]
    if n < 5:
        parts.append(f"short: {plural(n, 'counting card')}")
    if lost_to is not None:
        parts.append(
            f"{lost_to} lost: {symbols(h.excluded)}" if h.excluded else f"no {lost_to} lost"
        )
    return "; ".join(parts)


def deciding_cards(a: Hand, b: Hand) -> tuple[Card | None, Card | None] | None:
    """The first pair of cards, in the order they decide the hands, where two hands of the
    same category differ (None for a missing card of a short hand, R8.3); None when the
    categories differ or the hands are equal."""
    if a.category != b.category or a == b:
        return None
    for i in range(max(len(a.best), len(b.best))):
        ca = a.best[i] if i < len(a.best) else None
        cb = b.best[i] if i < len(b.best) else None
        if ca is None or cb is None or ca.rank != cb.rank:
            return ca, cb
    return None


def decided(win: str, w: Hand, lose: str, lo: Hand) -> str:
    """ "Ann's K♣ beats Bob's Q♥": the cards that decided two hands of one category, where
    `w` beats `lo` ("" when the categories differ or the hands are equal)."""
    pair = deciding_cards(w, lo)
    if pair is None:
        return ""
    cw, cl = pair
    assert cw is not None
    if cl is None:
        short = plural(len(lo.best), "counting card")
        return f"{win}'s {cw.symbol} decides it, as {lose} has only {short}"
    return f"{win}'s {cw.symbol} beats {lose}'s {cl.symbol}"
