"""Write a lesson's deck by saying who gets what: `deck_for` orders the cards for `Game.new`.

>>> deck = deck_for(players=2, dealer=0, banners={0: "As", 1: "Kh"},
...                 palaces={0: "2c 3c 4c", 1: "5d 6d 7d"}, draws="9s")
>>> from palace.game import Game
>>> g = Game.new(players=2, seed=1, deck=deck, dealer=0)
>>> g.banner(0), g.palace(1), g.zones()["deck"][0]
(As, (5d, 6d, 7d), 9s)
"""

from __future__ import annotations

from collections.abc import Mapping

from palace.cards import Card, parse_cards
from palace.errors import DeckError

CardsLike = str | list[str | Card] | tuple[Card, ...]


def deck_for(
    *,
    players: int,
    dealer: int,
    banners: Mapping[int, str | Card],
    palaces: Mapping[int, CardsLike],
    draws: CardsLike = "",
    rejects: Mapping[int, CardsLike] | None = None,
) -> list[Card]:
    """The top of a scripted deck giving these banners, palaces and first draws.

    `rejects[seat]` lists cards dealt to that seat before its banner and rejected
    (R4.3): they must clash with an earlier banner of the seat's group. Rejects end up
    under the rest of the deck before the palace deal (R5.1, no shuffle when scripted).
    """
    order = [(dealer + 1 + k) % players for k in range(players)]
    rejects = rejects or {}
    top: list[Card] = []
    for pos, seat in enumerate(order):
        group = [Card.parse(banners[s]).suit for s in order[pos - pos % 4 : pos] if s in banners]
        for c in parse_cards(rejects.get(seat, "")):
            if c.suit not in group:
                raise DeckError(
                    f"deck_for: {c} would not be rejected for seat {seat}: its suit is free in "
                    "the group (R4.3)"
                )
            top.append(c)
        if seat not in banners:
            raise DeckError(f"deck_for: no banner given for seat {seat} (R4.1)")
        banner = Card.parse(banners[seat])
        if banner.suit in group:
            raise DeckError(
                f"deck_for: seat {seat}'s banner {banner} repeats a suit of its group (R4.2)"
            )
        top.append(banner)
    pal = {s: parse_cards(palaces.get(s, "")) for s in range(players)}
    for s, cs in pal.items():
        if len(cs) != 3:
            raise DeckError(
                f"deck_for: seat {s} needs exactly 3 palace cards, got {len(cs)} (R5.1)"
            )
    for rnd in range(3):
        for seat in order:
            top.append(pal[seat][rnd])
    top.extend(parse_cards(draws))
    if len(set(top)) != len(top):
        dup = next(c for c in top if top.count(c) > 1)
        raise DeckError(f"deck_for: {dup} is used twice (R1.2)")
    return top
