"""Per-seat views: what one seat may know (R5.3), with perfect recall of what it has seen.

A seat sees banners, soldiers and the banner rejects (all face up), its own palace
cards, and the palace cards shown to it in its own battles. It remembers where every
card it has seen went: the soldiers it discarded, the palace cards it was shown before
they went face down to the discard pile. `unseen` is every card whose place the seat
cannot know; the odds advisor enumerates hidden palaces from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from palace.actions import Action
from palace.cards import Card, new_deck
from palace.events import Event, Phase
from palace.numbers import is_whole
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
    learned: dict[Card, str] = field(repr=False, compare=False)
    history: tuple[str, ...] = field(repr=False, compare=False)

    @cached_property
    def known(self) -> dict[Card, str]:
        """Where this seat knows each card is (zone names), from what it has seen."""
        known = dict(self.learned)
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


def sees_event(event: Event, viewer: int | None) -> bool:
    """May `viewer` see this event's private part (a battle's palace cards, D7)?

    `viewer` None is a spectator, who sees only what is public.
    """
    seen_by = event.detail.get("seen_by")
    return seen_by is None or (viewer is not None and viewer in seen_by)


def sees_card(event: Event, card: Card, viewer: int | None) -> bool:
    """May `viewer` see which card `card` is in this event (R5.3: palaces are face down)?"""
    for mv in event.moves:
        private = mv.seen_by is not None and (viewer is None or viewer not in mv.seen_by)
        if private and card in mv.cards:
            return False
    return not (event.detail.get("hidden") and viewer != event.seat)


def sentence_for(event: Event, viewer: int | None) -> str:
    """The event's sentence as `viewer` may read it: outsiders of a battle read its public
    text (D7)."""
    if sees_event(event, viewer):
        return event.text
    return str(event.detail.get("public_text", "(hidden)"))


_FACE_UP = frozenset(
    ["rejects"] + [z for zones in _ZONES for p, z in zones.items() if p != "palace"]
)


class _Memory:
    """Where one seat knows cards are: card -> zone, with the reverse index for speed."""

    __slots__ = ("done", "known", "by_zone")

    def __init__(self) -> None:
        self.done = 0
        self.known: dict[Card, str] = {c: "deck" for c in new_deck()}  # a fresh deck
        self.by_zone: dict[str, set[Card]] = {"deck": set(self.known)}

    def place(self, cards: tuple[Card, ...], zone: str) -> None:
        known, by_zone = self.known, self.by_zone
        dst = by_zone.get(zone)
        if dst is None:
            dst = by_zone[zone] = set()
        for c in cards:
            old = known.get(c)
            if old is not None and old != zone:
                by_zone[old].discard(c)
            known[c] = zone
            dst.add(c)

    def relabel(self, src: str, dst: str) -> None:
        moved = self.by_zone.pop(src, set())
        for c in moved:
            self.known[c] = dst
        self.by_zone.setdefault(dst, set()).update(moved)

    def forget(self, src: str) -> None:
        for c in self.by_zone.pop(src, ()):
            del self.known[c]

    def update(self, seat: int, ev: Event) -> None:
        for mv in ev.moves:
            if mv.seen_by is None and mv.dst in _FACE_UP:
                continue  # face-up cards are read off the table when the view is made
            if mv.seen_by is None or seat in mv.seen_by:
                self.place(mv.cards, mv.dst)  # seen (moved, or shown in place)
            elif mv.src == mv.dst:
                continue  # shown to others only: nothing moved
            elif mv.pile:  # a face-down pile moved whole: what was known in it moved too
                self.relabel(mv.src, mv.dst)
            else:
                # a face-down card left `src`: any card we placed there may be the one
                self.forget(mv.src)


def _knowledge(game: Game, seat: int, upto: int) -> tuple[dict[Card, str], tuple[str, ...]]:
    """What `seat` has learned from the first `upto` events (cached, incremental)."""
    cache = game.__dict__.setdefault("_known", {})
    mem = cache.get(seat)
    if mem is None or mem.done > upto:
        mem = cache[seat] = _Memory()
    events = game._t.events
    for ev in events[mem.done : upto]:
        if ev.moves:
            mem.update(seat, ev)  # shuffles only reorder a pile: places stay known
    mem.done = upto
    return dict(mem.known), _history(game, seat, upto)


def _history(game: Game, seat: int, upto: int) -> tuple[str, ...]:
    """Every event's sentence as `seat` may read it: outsiders of a battle read its
    public text (D7); the list of public texts is shared by all seats."""
    shared = game.__dict__.setdefault("_public_history", ([], []))
    texts, private = shared  # private: indices of events with a seen_by restriction
    events = game._t.events
    for ev in events[len(texts) : upto]:
        if ev.detail.get("seen_by") is not None:
            private.append(ev.index)
            texts.append(ev.detail.get("public_text", "(hidden)"))
        else:
            texts.append(ev.text)
    out = texts[:upto]
    for i in private:
        if i < upto and seat in events[i].detail["seen_by"]:
            out[i] = events[i].text
    return tuple(out)


def view_of(game: Game, seat: int) -> SeatView:
    """Build `game.view(seat)`."""
    from palace.errors import PalaceError

    if not is_whole(seat) or not 0 <= seat < game.players:
        raise PalaceError(f"seat must be 0-{game.players - 1}, got {seat!r}")
    t = game._t
    # what the seat has learned, worked out now: the view holds data, never the game
    learned, history = _knowledge(game, seat, len(t.events))
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
        learned=learned,
        history=history,
    )
