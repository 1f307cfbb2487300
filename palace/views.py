"""Per-seat views: what one seat may know (R5.3), with perfect recall of what it has seen.

A seat sees banners, soldiers and the banner rejects (all face up), its own palace
cards, and the palace cards shown to it in its own battles. It remembers where every
card it has seen went: the soldiers it discarded, the palace cards it was shown before
they went face down to the discard pile. `unseen` is every card whose place the seat
cannot know; the odds advisor enumerates hidden palaces from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from palace.actions import Action
from palace.cards import Card, new_deck
from palace.events import Event, Phase
from palace.rules import Rules
from palace.table import _ZONES

if TYPE_CHECKING:
    from palace.game import Game


class SeatInfo(NamedTuple):
    """The public facts about one seat."""

    seat: int
    name: str
    banner: Card | None
    soldiers: tuple[Card, ...]
    palace_count: int
    active: bool
    put_in: int
    stack: int | None


@dataclass(frozen=True)
class BattleInfo:
    """The open battle, as every seat sees it (R7)."""

    attacker: int
    defender: int
    to_act: int
    owed: int
    paid: dict[int, int]
    raises: int


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the table. Never holds the deck order or others' palaces."""

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    pot: int
    rules: Rules
    seats: tuple[SeatInfo, ...]
    palace: tuple[Card, ...]
    deck_count: int
    discard_count: int
    rejects: tuple[Card, ...]
    battle: BattleInfo | None
    legal: tuple[Action, ...]
    _recall: Callable[[], tuple[dict[Card, str], tuple[str, ...]]] = field(
        repr=False, compare=False
    )

    @cached_property
    def known(self) -> dict[Card, str]:
        """Where this seat knows each card is (zone names), from what it has seen."""
        known = dict(self._recall()[0])
        for c in self.rejects:
            known[c] = "rejects"
        for info in self.seats:
            if info.banner is not None:
                known[info.banner] = f"seat{info.seat}.banner"
            for c in info.soldiers:
                known[c] = f"seat{info.seat}.soldiers"
        for c in self.palace:
            known[c] = f"seat{self.seat}.palace"
        return known

    @cached_property
    def history(self) -> tuple[str, ...]:
        """The sentence of every event so far, as this seat may read it."""
        return self._recall()[1]

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place this seat cannot know: the candidates for hidden palaces."""
        return frozenset(c for c in new_deck() if c not in self.known)

    @property
    def me(self) -> SeatInfo:
        return self.seats[self.seat]

    @property
    def my_cards(self) -> tuple[Card, ...]:
        """Banner, soldiers and palace: the whole hand (R8.1)."""
        me = self.me
        return ((me.banner,) if me.banner else ()) + me.soldiers + self.palace

    def known_palace(self, seat: int) -> tuple[Card, ...]:
        """The cards of `seat`'s palace this seat knows (its own, or shown in a battle)."""
        z = f"seat{seat}.palace"
        return tuple(sorted((c for c, where in self.known.items() if where == z), reverse=True))

    def known_discards(self) -> tuple[Card, ...]:
        """Cards this seat knows are in the discard pile (perfect recall)."""
        return tuple(sorted((c for c, w in self.known.items() if w == "discard"), reverse=True))


def _update(known: dict[Card, str], seat: int, ev: Event) -> None:
    for mv in ev.moves:
        if mv.pile:
            for c, where in list(known.items()):
                if where == mv.src:
                    known[c] = mv.dst
        elif mv.seen_by is None or seat in mv.seen_by:
            for c in mv.cards:
                known[c] = mv.dst
        else:
            # a face-down card left `src`: any card we placed there may be the one that went
            for c, where in list(known.items()):
                if where == mv.src:
                    del known[c]


def _knowledge(game: Game, seat: int, upto: int) -> tuple[dict[Card, str], tuple[str, ...]]:
    """What `seat` has learned from the first `upto` events (cached, incremental)."""
    cache = game.__dict__.setdefault("_known", {})
    entry = cache.get(seat)
    if entry is None or entry[0] > upto:
        entry = cache[seat] = [0, {c: "deck" for c in new_deck()}, []]  # a fresh deck
    done, known, history = entry
    for ev in game._t.events[done:upto]:
        _update(known, seat, ev)  # shuffles only reorder a pile: places stay known
        history.append(_text_for(ev, seat))
    entry[0] = upto
    return dict(known), tuple(history)


def _text_for(ev: Event, seat: int) -> str:
    seen_by = ev.detail.get("seen_by")
    if seen_by is not None and seat not in seen_by:
        return ev.detail.get("public_text", "(hidden)")
    return ev.text


def view_of(game: Game, seat: int) -> SeatView:
    """Build `game.view(seat)`."""
    from palace.errors import PalaceError

    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        raise PalaceError(f"seat must be 0-{game.players - 1}, got {seat!r}")
    t = game._t
    upto = len(t.events)
    z = t.zones
    stacks = t.stacks or [None] * t.players
    seats = tuple(
        SeatInfo(
            s,
            t.names[s],
            (z[zn["banner"]] or (None,))[0],
            tuple(z[zn["soldiers"]]),
            len(z[zn["palace"]]),
            t.active[s],
            t.put_in[s],
            stacks[s],
        )
        for s, zn in zip(range(t.players), _ZONES, strict=False)
    )
    b = t.battle
    battle = (
        None
        if b is None
        else BattleInfo(b.attacker, b.defender, b.to_act, b.owed, dict(b.paid), b.raises)
    )
    return SeatView(
        seat=seat,
        phase=t.phase,
        to_act=t.to_act,
        dealer=t.dealer,
        pot=t.pot,
        rules=t.rules,
        seats=seats,
        palace=tuple(t.cards(seat, "palace")),
        deck_count=len(t.zones["deck"]),
        discard_count=len(t.zones["discard"]),
        rejects=tuple(t.zones["rejects"]),
        battle=battle,
        legal=tuple(game.legal_actions()) if t.to_act == seat else (),
        _recall=lambda: _knowledge(game, seat, upto),
    )
