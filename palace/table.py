"""The mutable table of one hand: zones of cards, chips, seats, and the event log.

Every change goes through `Table.record`, which applies the card moves and chip
changes and appends one `Event`; `fold_events` rebuilds the zones and chips at any
event index from the log alone (the deal stepper's back / next).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from palace.cards import Card
from palace.events import Event, Move, Phase
from palace.rules import Rules

DEFAULT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
SEAT_PARTS = ("banner", "soldiers", "palace", "cut")
COMMON_ZONES = ("deck", "discard", "rejects")


_ZONES = [{p: f"seat{s}.{p}" for p in SEAT_PARTS} for s in range(10)]


def zone(seat: int, part: str) -> str:
    """The zone name of one seat's cards: ``zone(2, "palace") == "seat2.palace"``."""
    return _ZONES[seat][part]


def zone_names(players: int) -> list[str]:
    """Every zone of a table: deck, discard, rejects, then each seat's four parts."""
    return list(COMMON_ZONES) + [zone(s, p) for s in range(players) for p in SEAT_PARTS]


@dataclass
class Battle:
    """An open battle (R7): who attacks whom, what each has paid, whose answer it is."""

    attacker: int
    defender: int
    to_act: int
    owed: int  # what `to_act` must pay to call
    paid: dict[int, int]
    raises: int = 0
    last_raiser: int | None = None
    last_raise: int = 0


@dataclass
class Table:
    """All mutable state of a hand. Game procedures change it only through `record`."""

    names: tuple[str, ...]
    rules: Rules
    dealer: int
    zones: dict[str, list[Card]]
    stacks: list[int] | None
    pot: int = 0
    put_in: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    phase: Phase = Phase.DEALER_SELECTION
    to_act: int | None = None
    battle: Battle | None = None
    quiet: set[int] = field(default_factory=set)
    trim_min: int = 0
    trim_next: int | None = None  # who acts after the trim
    trim_rule: str = "R6.2"  # the clause that gave the trim: R6.2 (Buy), R7.5 / R8.4 (capture)
    events: list[Event] = field(default_factory=list)
    result: Any = None

    @property
    def players(self) -> int:
        return len(self.names)

    def name(self, seat: int | None) -> str:
        return "the dealer" if seat is None else self.names[seat]

    def cards(self, seat: int, part: str) -> list[Card]:
        return self.zones[_ZONES[seat][part]]

    def army(self, seat: int) -> list[Card]:
        """All of a seat's cards: banner, soldiers, palace (R8.1)."""
        return (
            self.cards(seat, "banner") + self.cards(seat, "soldiers") + self.cards(seat, "palace")
        )

    def in_hand(self) -> list[int]:
        """Seats still in the hand, in seat order."""
        return [s for s in range(self.players) if self.active[s]]

    def left_of(self, seat: int) -> int:
        """The next seat still in the hand to the left of `seat` (R6.1)."""
        n = self.players
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self.active[s]:
                return s
        return seat

    def stack(self, seat: int) -> int | None:
        """Chips behind, or None when stacks are unlimited (R3.4)."""
        return None if self.stacks is None else self.stacks[seat]

    def can_pay(self, seat: int, amount: int) -> bool:
        return self.stacks is None or self.stacks[seat] >= amount

    def record(
        self,
        kind: str,
        seat: int | None,
        text: str,
        rule: str,
        *,
        cards: tuple[Card, ...] = (),
        amount: int = 0,
        moves: tuple[Move, ...] = (),
        chips: tuple[tuple[int, int], ...] = (),
        detail: dict[str, Any] | None = None,
    ) -> Event:
        """Apply moves and chip changes, then append and return the event."""
        detail = detail or {}
        for mv in moves:
            if mv.src == mv.dst:
                continue
            src = self.zones[mv.src]
            for c in mv.cards:
                src.remove(c)
            self.zones[mv.dst].extend(mv.cards)
        for zname, order in detail.get("order", {}).items():
            self.zones[zname][:] = order
        for s in detail.get("out", ()):
            self.active[s] = False
        refund = detail.get("refund", False)
        for seat_, delta in chips:
            self.pot -= delta
            if delta < 0 or refund:
                self.put_in[seat_] -= delta
            else:
                self.won[seat_] += delta
            if self.stacks is not None:
                self.stacks[seat_] += delta
        ev = Event(
            index=len(self.events),
            kind=kind,
            seat=seat,
            cards=cards,
            amount=amount,
            rule=rule,
            text=text,
            phase=self.phase,
            to_act=self.to_act,
            moves=moves,
            chips=chips,
            detail=detail,
        )
        self.events.append(ev)
        return ev


@dataclass(frozen=True)
class Snapshot:
    """The table as it stood right after event `index` (or before any, index -1)."""

    index: int
    zones: dict[str, tuple[Card, ...]]
    pot: int
    put_in: tuple[int, ...]
    won: tuple[int, ...]
    active: tuple[bool, ...]
    phase: Phase
    to_act: int | None
    event: Event | None


def fold_events(events: list[Event], players: int, initial_deck: list[Card], upto: int) -> Snapshot:
    """Rebuild the table right after event `upto` from the log alone."""
    zones: dict[str, list[Card]] = {z: [] for z in zone_names(players)}
    zones["deck"] = list(initial_deck)
    pot = 0
    put_in = [0] * players
    won = [0] * players
    active = [True] * players
    phase = Phase.DEALER_SELECTION
    to_act = None
    ev = None
    for ev in events[: upto + 1]:
        for mv in ev.moves:
            if mv.src == mv.dst:
                continue
            for c in mv.cards:
                zones[mv.src].remove(c)
            zones[mv.dst].extend(mv.cards)
        if "order" in ev.detail:
            for zname, order in ev.detail["order"].items():
                zones[zname] = list(order)
        for s, delta in ev.chips:
            pot -= delta
            if delta < 0 or ev.detail.get("refund"):
                put_in[s] -= delta
            else:
                won[s] += delta
        for s in ev.detail.get("out", ()):
            active[s] = False
        phase, to_act = ev.phase, ev.to_act
    return Snapshot(
        index=upto if events[: upto + 1] else -1,
        zones={k: tuple(v) for k, v in zones.items()},
        pot=pot,
        put_in=tuple(put_in),
        won=tuple(won),
        active=tuple(active),
        phase=phase,
        to_act=to_act,
        event=ev,
    )
