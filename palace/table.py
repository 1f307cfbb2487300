"""The mutable table of one hand: zones of cards, chips, seats, and the event log.

Every change goes through `Table.record`, which applies the card moves and chip
changes and appends one `Event`; `fold_events` rebuilds the zones and chips at any
event index from the log alone (the deal stepper's back / next).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from palace.cards import Card, new_deck
from palace.events import EndReason, Event, EventKind, Move, Phase
from palace.hands import Hand
from palace.records import by_fields, new_record, set_fields
from palace.rules import Rules
from palace.sentences import pot_sentence  # importing it registers how every event is said

# Enum members as module constants: Python 3.11 reads an Enum class's attributes through a
# slow __getattr__ hook, and a compiled module (palace/native.py) reads these as C statics.
P_DEALER_SELECTION: Final = Phase.DEALER_SELECTION

DEFAULT_NAMES: Final = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
SEAT_PARTS: Final = ("banner", "soldiers", "palace", "cut")
COMMON_ZONES: Final = ("deck", "discard", "rejects")

SEAT_ZONES: Final = [{p: f"seat{s}.{p}" for p in SEAT_PARTS} for s in range(10)]
FACE_UP_ZONES: Final = frozenset(
    ["rejects"] + [z for zones in SEAT_ZONES for p, z in zones.items() if p != "palace"]
)
NO_DETAIL: Final[dict[str, Any]] = {}  # an event's detail when it has none (shared, never changed)
_EMPTY: Final = NO_DETAIL
# the named tuples' classes as module constants: a compiled module reads a class of a
# pure-Python module through its globals dict on every use
EVENT: Final = Event
MOVE: Final = Move


def new_move(
    cards: tuple[Card, ...],
    src: str,
    dst: str,
    seen_by: tuple[int, ...] | None = None,
    pile: bool = False,
) -> Move:
    """A `Move` straight from its fields: what the engine's procedures record with (from
    compiled code, ``Move(...)`` runs the named tuple's Python `__new__`)."""
    return new_record(MOVE, cards, src, dst, seen_by, pile)


def _card_moves(dst: str, seen_by: tuple[int, ...] | None, src: str = "deck") -> list[Move]:
    """One `Move` of a single card from `src` to `dst` for each card, by its index."""
    return [new_move((c,), src, dst, seen_by) for c in new_deck()]


# The deal's moves, one card from the deck each, made once (a `Move` is immutable: events
# may share it; from compiled code a named tuple costs a Python call to make):
# ``CUT_MOVES[seat][card.index]``, ``BANNER_MOVES[...]``, ``PALACE_MOVES[...]`` (seen by the
# seat alone, R5.3), ``REJECT_MOVES[card.index]``; and back: ``UNCUT_MOVES[seat][...]``.
CUT_MOVES: Final = [_card_moves(f"seat{s}.cut", None) for s in range(10)]
UNCUT_MOVES: Final = [_card_moves("deck", None, f"seat{s}.cut") for s in range(10)]
BANNER_MOVES: Final = [_card_moves(f"seat{s}.banner", None) for s in range(10)]
PALACE_MOVES: Final = [_card_moves(f"seat{s}.palace", (s,)) for s in range(10)]
REJECT_MOVES: Final = _card_moves("rejects", None)


class RulesFacts:
    """The figures of a `Rules` the engine reads on every hand and move, worked out once
    (`Rules` is frozen, and its properties are Python calls from compiled code)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.no_limit: bool = rules.no_limit
        self.discard_amount: int = rules.discard_amount
        self.calls_match_attack: bool = rules.calls_match_attack
        self.small_bet: int = rules.small_bet  # s (R3)
        self.max_soldiers: int = rules.max_soldiers  # R6.7's cap
        self.ante_amount: int = rules.ante_amount  # R3.1
        self.palace_cards: int = rules.palace_cards  # R5.1
        self.deck: tuple[Card, ...] = tuple(rules.deck())  # R1.2, in index order
        self.suits: int = len(rules.suits)
        self.stacks: int | None = rules.stacks  # R3.4
        self.quiet_actions: tuple[str, ...] = rules.quiet_actions  # R9.1
        self.two_left: str = rules.two_left  # R9.3
        self.max_turns: int = rules.max_turns  # D22


_FACTS: Final[dict[int, RulesFacts]] = {}


def facts_of(rules: Rules) -> RulesFacts:
    """`RulesFacts` of `rules`, kept by identity (the cache holds the rules, so an id is
    not reused while it is in there)."""
    f = _FACTS.get(id(rules))
    if f is not None and f.rules is rules:
        return f
    if len(_FACTS) >= 256:
        _FACTS.clear()
    f = _FACTS[id(rules)] = RulesFacts(rules)
    return f


def zone(seat: int, part: str) -> str:
    """The zone name of one seat's cards: ``zone(2, "palace") == "seat2.palace"``."""
    return SEAT_ZONES[seat][part]


def zone_names(players: int) -> list[str]:
    """Every zone of a table: deck, discard, rejects, then each seat's four parts."""
    return list(_ZONE_NAMES[players])


_ZONE_NAMES: Final = [
    tuple(COMMON_ZONES) + tuple(zone(s, p) for s in range(n) for p in SEAT_PARTS) for n in range(11)
]
_EMPTY_ZONES: Final[list[dict[str, list[Card]]]] = [
    {z: [] for z in names} for names in _ZONE_NAMES
]  # templates of `new_table`'s zones (copied, never handed out)


_RESULT_FIELDS: Final = ("winners", "shares", "reason", "rule", "pot", "names", "dealer", "hands")


@dataclass(frozen=True, init=False)
class HandResult:
    """How a hand ended: who shares the pot, how much each took, and why (R10)."""

    winners: tuple[int, ...]
    shares: dict[int, int]
    reason: EndReason
    rule: str
    pot: int
    names: tuple[str, ...]
    dealer: int
    hands: dict[int, Hand] | None = None

    def __init__(  # written out: every hand makes one (palace.records)
        self,
        winners: tuple[int, ...],
        shares: dict[int, int],
        reason: EndReason,
        rule: str,
        pot: int,
        names: tuple[str, ...],
        dealer: int,
        hands: dict[int, Hand] | None = None,
    ) -> None:
        set_fields(self, _RESULT_FIELDS, winners, shares, reason, rule, pot, names, dealer, hands)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    @property
    def text(self) -> str:
        """The pot's sentence: ``"Ann takes the pot of 12 chips with the best hand."``."""
        return pot_sentence(self.names, self.pot, self.shares, self.reason, self.dealer)


@dataclass(init=False)
class Battle:
    """An open battle (R7): who attacks whom, what each has paid, whose answer it is.

    `owed` is what `to_act` must pay to call; `cap` is the most a call may cost when the
    attack was all-in (R3.4 b); `bettor` made the bet or raise now being answered.
    """

    attacker: int
    defender: int
    to_act: int
    owed: int
    paid: dict[int, int]
    raises: int = 0
    last_raiser: int | None = None
    last_raise: int = 0
    bettor: int = -1
    last_bet: int = 0  # the bet or raise now being answered (what an all-in call refunds, R3.4)
    allin_attack: bool = False

    # written out rather than generated: a compiled build (palace/native.py) runs it as C,
    # where the dataclass's own is Python it interprets (a battle is opened several times a hand)
    def __init__(
        self,
        attacker: int,
        defender: int,
        to_act: int,
        owed: int,
        paid: dict[int, int],
        raises: int = 0,
        last_raiser: int | None = None,
        last_raise: int = 0,
        bettor: int = -1,
        last_bet: int = 0,
        allin_attack: bool = False,
    ) -> None:
        self.attacker = attacker
        self.defender = defender
        self.to_act = to_act
        self.owed = owed
        self.paid = paid
        self.raises = raises
        self.last_raiser = last_raiser
        self.last_raise = last_raise
        self.bettor = bettor
        self.last_bet = last_bet
        self.allin_attack = allin_attack

    def copy(self) -> Battle:
        """An independent copy (its own `paid`)."""
        return Battle(
            self.attacker,
            self.defender,
            self.to_act,
            self.owed,
            dict(self.paid),
            self.raises,
            self.last_raiser,
            self.last_raise,
            self.bettor,
            self.last_bet,
            self.allin_attack,
        )


@dataclass(frozen=True)
class Pending:
    """The next chance step: which card goes where is decided by the deck (R2, R4, R5, R6.2).

    kind: "cut" (a card drawn for the deal), "banner", "palace" or "buy"; seat: who gets it.
    """

    kind: str
    seat: int


PENDING_KINDS: Final = ("cut", "banner", "palace", "buy")
_PENDING: Final = {(k, s): Pending(k, s) for k in PENDING_KINDS for s in range(len(SEAT_ZONES))}
# the chance steps by seat: one shared value each (it is frozen), made once, as a card is
# dealt or bought dozens of times a hand
PENDING_CUT: Final = [_PENDING[("cut", s)] for s in range(len(SEAT_ZONES))]
PENDING_BANNER: Final = [_PENDING[("banner", s)] for s in range(len(SEAT_ZONES))]
PENDING_PALACE: Final = [_PENDING[("palace", s)] for s in range(len(SEAT_ZONES))]
PENDING_BUY: Final = [_PENDING[("buy", s)] for s in range(len(SEAT_ZONES))]


@dataclass(init=False)
class DealState:
    """Where the deal is, so it can stop before every card (a chance step) and go on."""

    stage: str  # cut, banner, palace, done
    contenders: list[int]
    drawn: list[tuple[int, Card]]
    used: list[tuple[int, Card]]
    pos: int
    holders: dict[str, dict[Any, int]]
    dealt: int  # palace cards dealt so far
    order: list[int]  # seats in dealing order (R4.1, R5.1)
    script: list[Card] | None  # a scripted deck (D1): no shuffle before the palaces

    # written out rather than generated: a compiled build (palace/native.py) runs it as C,
    # where the dataclass's own is Python it interprets (every hand makes one)
    def __init__(
        self,
        stage: str = "cut",
        contenders: list[int] | None = None,
        drawn: list[tuple[int, Card]] | None = None,
        used: list[tuple[int, Card]] | None = None,
        pos: int = 0,
        holders: dict[str, dict[Any, int]] | None = None,
        dealt: int = 0,
        order: list[int] | None = None,
        script: list[Card] | None = None,
    ) -> None:
        self.stage = stage
        self.contenders = [] if contenders is None else contenders
        self.drawn = [] if drawn is None else drawn
        self.used = [] if used is None else used
        self.pos = pos
        self.holders = {} if holders is None else holders
        self.dealt = dealt
        self.order = [] if order is None else order
        self.script = script

    def copy(self) -> DealState:
        """An independent copy (its own lists and dictionaries; the script is never changed)."""
        return DealState(
            self.stage,
            list(self.contenders),
            list(self.drawn),
            list(self.used),
            self.pos,
            {g: dict(v) for g, v in self.holders.items()},
            self.dealt,
            list(self.order),
            self.script,
        )


class Table:
    """All mutable state of a hand. Game procedures change it only through `record`.

    A zone's list is changed in place, never replaced (``t.zones["deck"][:] = cards``):
    `deck`, `discard`, `rejects` and each seat's lists in `seat_lists` are the same lists."""

    def __init__(
        self,
        *,
        names: tuple[str, ...],
        rules: Rules,
        dealer: int,
        zones: dict[str, list[Card]],
        stacks: list[int] | None,
        put_in: list[int],
        won: list[int],
        active: list[bool],
    ) -> None:
        self.names = names
        self.rules = rules
        # the rules' derived figures read on every move, worked out once per `Rules`
        facts = self.facts = facts_of(rules)
        self.no_limit: bool = facts.no_limit
        self.discard_amount: int = facts.discard_amount
        self.calls_match_attack: bool = facts.calls_match_attack
        self.small_bet: int = facts.small_bet  # s (R3)
        self.max_soldiers: int = facts.max_soldiers  # R6.7's cap
        self.dealer = dealer
        self.zones = zones
        # the draw deck, the discard pile and the banner rejects: the same lists as in `zones`
        # (a zone's list is changed in place, never replaced), read without a dictionary lookup
        self.deck: list[Card] = zones["deck"]
        self.discard: list[Card] = zones["discard"]
        self.rejects: list[Card] = zones["rejects"]
        self.stacks = stacks
        self.put_in = put_in
        self.won = won
        self.active = active
        self.players = len(names)
        self.pot = 0
        self.phase = P_DEALER_SELECTION
        self.to_act: int | None = None
        self.battle: Battle | None = None
        self.quiet: list[int] = []  # seats whose latest turns were quiet, in order
        self.quiet_kinds: dict[int, str] = {}  # what each of them did
        self.must_battle = False  # R9.3: only Bet or Fold now
        self.turns = 0  # turn actions taken (D22)
        self.trim_min = 0
        self.trim_next: int | None = None  # who acts after the trim
        self.trim_rule = "R6.2"  # the clause that gave the trim: R6.2 (Buy), R7.5 / R8.4
        self.pending: Pending | None = None
        self.deal: DealState | None = None
        self.events: list[Event] = []
        self.memo: list[int] = []  # events a seat's memory must read
        self.result: HandResult | None = None
        self.version = 0  # changes with every event (caches of legal actions key on it)
        # each seat's public facts in the last view made (`views.build_view` reuses one that
        # still holds: views are immutable, so they may share it)
        self.seat_infos: list[Any] = [None] * len(names)
        # and the parts of the last view that most moves leave as they were: each seat's
        # palace, the banner rejects and the turn's public facts (a `TurnState`)
        self.palaces_shown: list[tuple[Card, ...] | None] = [None] * len(names)
        self.rejects_shown: tuple[Card, ...] | None = None
        self.turn_shown: Any = None
        # each seat's banner, soldiers and palace lists, the same objects as in `zones`
        # (a seat's zone list is changed in place, never replaced: `record`)
        self.seat_lists: list[tuple[list[Card], list[Card], list[Card]]] = [
            (zones[z["banner"]], zones[z["soldiers"]], zones[z["palace"]])
            for z in SEAT_ZONES[: len(names)]
        ]

    def name(self, seat: int | None) -> str:
        return "the dealer" if seat is None else self.names[seat]

    def cards(self, seat: int, part: str) -> list[Card]:
        return self.zones[SEAT_ZONES[seat][part]]

    def soldiers(self, seat: int) -> list[Card]:
        """`cards(seat, "soldiers")`, read without a dictionary lookup."""
        return self.seat_lists[seat][1]

    def palace(self, seat: int) -> list[Card]:
        """`cards(seat, "palace")`, read without a dictionary lookup."""
        return self.seat_lists[seat][2]

    def banner_suit(self, seat: int) -> Any:
        return self.seat_lists[seat][0][0].suit

    def army(self, seat: int) -> list[Card]:
        """All of a seat's cards: banner, soldiers, palace (R8.1)."""
        z = SEAT_ZONES[seat]
        return self.zones[z["banner"]] + self.zones[z["soldiers"]] + self.zones[z["palace"]]

    def in_hand(self) -> list[int]:
        """Seats still in the hand, in seat order."""
        return [s for s in range(len(self.names)) if self.active[s]]

    def left_of(self, seat: int) -> int:
        """The next seat still in the hand to the left of `seat` (R6.1)."""
        n = len(self.names)
        active = self.active
        for k in range(1, n + 1):
            s = (seat + k) % n
            if active[s]:
                return s
        return seat

    def stack(self, seat: int) -> int | None:
        """Chips behind, or None when stacks are unlimited (R3.4)."""
        return None if self.stacks is None else self.stacks[seat]

    def can_pay(self, seat: int, amount: int) -> bool:
        return self.stacks is None or self.stacks[seat] >= amount

    def record(
        self,
        kind: EventKind,
        seat: int | None,
        rule: str,
        *,
        cards: tuple[Card, ...] = (),
        amount: int = 0,
        moves: tuple[Move, ...] = (),
        chips: tuple[tuple[int, int], ...] = (),
        detail: dict[str, Any] = _EMPTY,
    ) -> Event:
        """Apply moves and chip changes, then append and return the event."""
        zones = self.zones
        memo = False
        for mv in moves:
            # the fields by position (a named tuple's attribute is a Python lookup)
            mv_cards, mv_src, mv_dst, seen_by, _ = mv
            if seen_by is not None or mv_dst not in FACE_UP_ZONES:
                memo = True
            if mv_src == mv_dst:
                continue
            src = zones[mv_src]
            for c in mv_cards:
                src.remove(c)
            zones[mv_dst].extend(mv_cards)
        if detail:  # (most details hold neither an order nor seats out: test before looping)
            reorder = detail.get("order")
            if reorder is not None:
                for zname, order in reorder.items():
                    zones[zname][:] = order
            out = detail.get("out")
            if out is not None:
                for s in out:
                    self.active[s] = False
            refund = detail.get("refund", False)
        else:
            refund = False
        if chips:
            stacks = self.stacks
            for seat_, delta in chips:
                self.pot -= delta
                if delta < 0 or refund:
                    self.put_in[seat_] -= delta
                else:
                    self.won[seat_] += delta
                if stacks is not None:
                    stacks[seat_] += delta
        events = self.events
        if memo:
            self.memo.append(len(events))
        ev = new_record(
            EVENT,
            len(events),
            kind,
            seat,
            cards,
            amount,
            rule,
            self.phase,
            self.to_act,
            moves,
            chips,
            detail,
            self.names,
        )
        events.append(ev)
        self.version += 1
        return ev

    def record_dealt(
        self, kind: EventKind, seat: int | None, rule: str, move: Move, detail: dict[str, Any]
    ) -> None:
        """`record` of an event whose one move takes cards from the deck, with no chips and
        a detail without an order or seats out (each card dealt, R2, R4, R5): the same
        changes and the same event, without the general case's tests."""
        cards, _, dst, seen_by, _ = move
        zones = self.zones
        deck = self.deck
        for c in cards:
            deck.remove(c)
        zones[dst].extend(cards)
        events = self.events
        if seen_by is not None or dst not in FACE_UP_ZONES:
            self.memo.append(len(events))
        events.append(
            new_record(
                EVENT,
                len(events),
                kind,
                seat,
                cards,
                0,
                rule,
                self.phase,
                self.to_act,
                (move,),
                (),
                detail,
                self.names,
            )
        )
        self.version += 1

    def copy(self) -> Table:
        """An independent copy (events are immutable and shared)."""
        t = Table(
            names=self.names,
            rules=self.rules,
            dealer=self.dealer,
            zones={k: v[:] for k, v in self.zones.items()},
            stacks=None if self.stacks is None else self.stacks[:],
            put_in=self.put_in[:],
            won=self.won[:],
            active=self.active[:],
        )
        t.facts = self.facts  # the same object (the cache may have dropped these rules)
        t.pot = self.pot
        t.phase = self.phase
        t.to_act = self.to_act
        b = self.battle
        t.battle = None if b is None else b.copy()
        t.quiet = self.quiet[:]
        t.quiet_kinds = dict(self.quiet_kinds)
        t.must_battle = self.must_battle
        t.turns = self.turns
        t.trim_min = self.trim_min
        t.trim_next = self.trim_next
        t.trim_rule = self.trim_rule
        t.pending = self.pending
        t.deal = None if self.deal is None else self.deal.copy()
        t.events = self.events[:]
        t.memo = self.memo[:]
        t.result = self.result
        t.version = self.version
        # what the last view showed (immutable, so shared), for the copy's views to reuse
        t.seat_infos = self.seat_infos[:]
        t.palaces_shown = self.palaces_shown[:]
        t.rejects_shown = self.rejects_shown
        t.turn_shown = self.turn_shown
        return t


def new_table(
    names: tuple[str, ...],
    rules: Rules,
    *,
    dealer: int,
    stacks: list[int] | None,
    active: list[bool] | None = None,
) -> Table:
    """A table before any card moves: every zone empty, nothing put in or won, every seat
    in the hand unless `active` says otherwise."""
    n = len(names)
    zones = _EMPTY_ZONES[n].copy()  # the keys laid out once: only the lists are new
    for z in _ZONE_NAMES[n]:
        zones[z] = []
    return Table(
        names=names,
        rules=rules,
        dealer=dealer,
        zones=zones,
        stacks=stacks,
        put_in=[0] * n,
        won=[0] * n,
        active=[True] * n if active is None else active,
    )


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
    phase = P_DEALER_SELECTION
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
