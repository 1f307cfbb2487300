"""Per-seat views: what one seat may know (R5.3), with perfect recall of what it has seen.

A seat sees banners, soldiers and the banner rejects (all face up), its own palace
cards, and the palace cards shown to it in its own battles. It remembers where every
card it has seen went: the soldiers it discarded, the palace cards it was shown before
they went face down to the discard pile. `unseen` is every card whose place the seat
cannot know; the odds advisor enumerates hidden palaces from it, and `sample_world` deals
them at random into a full game a searching player can play forward.

This module is also the one home of "who may see this card": `sees_event`, `sees_card`
and `sentence_for` are what the stepper, the lessons and the app ask.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, NamedTuple, Protocol, cast

from palace.actions import Action
from palace.cards import Card, Suit
from palace.checks import TurnOutline, outline_of, turn_outline
from palace.errors import StateError
from palace.events import Event, Phase
from palace.records import new_record
from palace.rules import Rules
from palace.table import FACE_UP_ZONES, Table


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

    @property
    def suit(self) -> Suit:
        """The seat's banner suit (every seat has a banner once the banner deal is done)."""
        if self.banner is None:
            raise StateError(f"{self.name} has no banner yet (R4)")
        return self.banner.suit

    @property
    def flag(self) -> Card:
        """The seat's banner card (every seat has one once the banner deal is done)."""
        if self.banner is None:
            raise StateError(f"{self.name} has no banner yet (R4)")
        return self.banner


class BattleInfo(NamedTuple):
    """The open battle, as every seat sees it (R7)."""

    attacker: int
    defender: int
    to_act: int
    owed: int
    paid: dict[int, int]
    raises: int
    last_raiser: int | None = None
    last_raise: int = 0
    bettor: int = -1
    last_bet: int = 0
    allin_attack: bool = False


class TurnState(NamedTuple):
    """The public facts of where the turn is: quiet actions (R9.1), R9.3, the turn count
    (D22) and a pending trim (R6.7)."""

    quiet: tuple[int, ...] = ()
    quiet_kinds: tuple[tuple[int, str], ...] = ()
    must_battle: bool = False
    turns: int = 0
    trim_min: int = 0
    trim_next: int | None = None
    trim_rule: str = "R6.2"


_NO_TURN: Final = TurnState()  # a view's turn facts until `build_view` hands it its lister


class _Lister(Protocol):
    def _legal_tuple(self) -> tuple[Action, ...]: ...


class OwedLegal:
    """A view's legal actions, listed when first asked for: by the view when a player reads
    them, or by the game just before its table changes (`Game._settle`), whichever comes
    first. The view and the game both hold it; a view dropped unread says so (`dropped`,
    set by `SeatView.__del__`), so listing costs nothing for it. A native class where the
    engine is compiled: made and read as C, where a Python object with a weak reference
    from the game cost more than a view's other fields."""

    def __init__(self, game: _Lister, table: Table) -> None:
        self.game = game  # the game, whose legal actions these are until it moves on
        self.table = table  # its table, whose turn outline they are until then
        self.listed: tuple[Action, ...] | None = None
        self.dropped = False  # the view was dropped before it read them
        # the view's public turn facts, worked out like `listed` (a bot rarely reads them)
        self.turn: TurnState | None = None

    def __call__(self) -> tuple[Action, ...]:
        return _listed_now(self)


def _turn_of(owed: OwedLegal) -> TurnState:
    """`owed`'s turn facts, worked out now if they were not yet (before the table changes)."""
    turn = owed.turn
    if turn is None:
        table = owed.table
        turn = owed.turn = _turn_now(table.turn_shown, table)
    return turn


def settle(owed: OwedLegal) -> None:
    """Work out what a view still alive has not read yet (its legal actions and turn facts),
    before its table changes (`Game._settle`)."""
    if not owed.dropped:
        _listed_now(owed)
        _turn_of(owed)


def _listed_now(owed: OwedLegal) -> tuple[Action, ...]:
    """`owed`'s legal actions, listed now if they were not yet (a plain function: compiled
    code calls it directly, where calling the object goes through its `__call__` slot)."""
    listed = owed.listed
    if listed is None:
        listed = owed.listed = owed.game._legal_tuple()
    return listed


P_TURN: Final = Phase.TURN
# the named tuples' classes as module constants: a compiled module reads a class of its own
# that is not native (a NamedTuple) through its globals dict on every use
SEAT_INFO: Final = SeatInfo
BATTLE_INFO: Final = BattleInfo
TURN_STATE: Final = TurnState


_FIELDS: Final = (
    "seat", "phase", "to_act", "dealer", "pot", "rules", "seats", "palace", "deck_count",
    "discard_count", "rejects", "battle", "legal", "learned", "turn", "sampler",
)  # fmt: skip
_COMPARED: Final = _FIELDS[:13]  # what makes two views equal (and their repr)


class SeatView:
    """One seat's knowledge of the table. Never holds the deck order or others' palaces.

    A snapshot: it never changes once made (treat it as read-only). A view made by a game
    works out `legal` and `learned` when they are first read, as of the moment it was made
    (`build_view`). It is a compiled class where the engine is compiled (palace/native.py),
    so the players that read it every move read its fields directly."""

    def __init__(
        self,
        seat: int,
        phase: Phase,
        to_act: int | None,
        dealer: int,
        pot: int,
        rules: Rules,
        seats: tuple[SeatInfo, ...],
        palace: tuple[Card, ...],
        deck_count: int,
        discard_count: int,
        rejects: tuple[Card, ...],
        battle: BattleInfo | None,
        legal: tuple[Action, ...] | Callable[[], tuple[Action, ...]] = (),
        learned: dict[Card, str] | tuple[list[SeatMemory | None], Table, int] | None = None,
        turn: TurnState = TurnState(),  # noqa: B008 (an immutable NamedTuple)
        # builds a game from a sampled world (the Game class's factory, never a game)
        sampler: Callable[[SeatView, random.Random], Any] | None = None,
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.to_act = to_act
        self.dealer = dealer
        self.pot = pot
        self.rules = rules
        self.seats = seats
        self.palace = palace
        self.deck_count = deck_count
        self.discard_count = discard_count
        self.rejects = rejects
        self.battle = battle
        # the turn facts as given, or the game's lister that works them out (`build_view`)
        self._turn: TurnState | OwedLegal = turn
        self.sampler = sampler
        # `legal` as given, or the function that lists them
        self._legal: tuple[Action, ...] | Callable[[], tuple[Action, ...]] = legal
        # `learned` as given, or (the game's memories by seat, the table, how far to read it)
        self._learned: dict[Card, str] | tuple[list[SeatMemory | None], Table, int] | None = learned
        self._known: dict[Card, str] | None = None
        self._unseen: frozenset[Card] | None = None
        self._by_zone: dict[str, list[Card]] | None = None

    def __del__(self) -> None:
        # a view dropped before it read its legal actions or turn facts: the game need not
        # work them out
        owed = self._turn
        if type(owed) is OwedLegal:
            owed.dropped = True
        else:
            legal = self._legal
            if type(legal) is OwedLegal:
                legal.dropped = True

    @property
    def turn(self) -> TurnState:
        """The table's public turn facts (R9.1, R9.3), as of the moment the view was made."""
        turn = self._turn
        if isinstance(turn, OwedLegal):
            turn = self._turn = _turn_of(turn)
        return turn

    @property
    def legal(self) -> tuple[Action, ...]:
        """The seat's legal actions (none when it is not the seat's turn)."""
        legal = self._legal
        if isinstance(legal, tuple):
            return legal
        listed = _listed_now(legal) if type(legal) is OwedLegal else legal()
        self._legal = listed
        return listed

    @property
    def turn_outline(self) -> TurnOutline | None:
        """The seat's legal turn actions in outline, (Buy, any Discard, the Bets, Stay),
        without listing every Discard (`palace.checks.TurnOutline`); None when no turn of
        this seat is due. The same gates as `legal`, as of the moment the view was made."""
        if self.phase is not P_TURN or self.to_act != self.seat:
            return None
        legal = self._legal
        if type(legal) is OwedLegal and legal.listed is None:
            # not listed yet, so the game has not moved since this view was made (a
            # compiled call: the game's would go through Python's method call)
            return turn_outline(legal.table)
        listed = self.legal
        return outline_of(listed) if listed else None

    @property
    def learned(self) -> dict[Card, str]:
        """Where the seat remembers cards it saw went, as of this view (perfect recall)."""
        learned = self._learned
        if learned is None:
            learned = {}
        elif isinstance(learned, tuple):
            learned = _recall(learned, self.seat, self.rules)
        self._learned = learned
        return learned

    def _state(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FIELDS}

    def replace(self, **changes: Any) -> SeatView:
        """A copy with some fields changed: ``view.replace(legal=...)``."""
        return SeatView(**{**self._state(), **changes})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and `copy` a view with `legal` and `learned` worked out."""
        return (_view_of, (self._state(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _COMPARED)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple([getattr(self, k) for k in _COMPARED]))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in _COMPARED)
        return f"SeatView({shown})"

    @property
    def known(self) -> dict[Card, str]:
        """Where this seat knows each card is (zone names), from what it has seen."""
        if self._known is None:
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
            self._known = known
        return self._known

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place this seat cannot know: the candidates for hidden palaces."""
        if self._unseen is None:
            known = self.known
            self._unseen = frozenset(c for c in self.rules.deck() if c not in known)
        return self._unseen

    @property
    def known_by_zone(self) -> dict[str, list[Card]]:
        """`known` turned around: zone -> the cards this seat knows are there."""
        if self._by_zone is None:
            out: dict[str, list[Card]] = {}
            for c, where in self.known.items():
                out.setdefault(where, []).append(c)
            self._by_zone = out
        return self._by_zone

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(info.name for info in self.seats)

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

    def known_in(self, zone_name: str) -> tuple[Card, ...]:
        """Cards this seat knows are in a zone (the deck, the discard pile, a palace)."""
        return tuple(sorted(self.known_by_zone.get(zone_name, ()), reverse=True))

    def sample_world(self, rng: random.Random) -> Any:
        """A full game consistent with everything this seat has seen: the cards it cannot
        see (`unseen`) are dealt uniformly at random into the other palaces, the draw deck
        (in random order) and the face-down part of the discard pile. For search: play it
        forward, clone it, throw it away (a `palace.Game`)."""
        if self.sampler is None:
            raise ValueError("this view was not made by a game, so it cannot sample a world")
        return self.sampler(self, rng)


_FRESH: Final[dict[tuple[str, str], tuple[dict[Card, str], frozenset[Card]]]] = {}
_NOTHING: Final[tuple[dict[Card, str], frozenset[Card]]] = ({}, frozenset())


def _fresh_deck(rules: Rules | None) -> tuple[dict[Card, str], frozenset[Card]]:
    """A fresh memory of the table's deck (`Rules.deck`, which its ranks and suits decide):
    every card in the deck, in index order. Built once per deck: copying a dict or set
    reuses its hashes, where building one hashes every card. None: nothing known."""
    if rules is None:
        return _NOTHING
    key = (rules.ranks, rules.suits)
    fresh = _FRESH.get(key)
    if fresh is None:
        known = {c: "deck" for c in rules.deck()}
        fresh = _FRESH[key] = (known, frozenset(known))
    return fresh


class SeatMemory:
    """Where one seat knows cards are: card -> zone, with the reverse index for speed.

    A game keeps one per seat and feeds it the events that move cards out of sight
    (`Table.memo`), so building a view costs only what happened since the last one.
    """

    __slots__ = ("seat", "done", "known", "by_zone")

    def __init__(self, seat: int, rules: Rules | None) -> None:
        self.seat = seat
        self.done = 0  # how many of the table's `memo` events this memory has read
        known, deck_set = _fresh_deck(rules)
        self.known: dict[Card, str] = dict(known)
        self.by_zone: dict[str, set[Card]] = {"deck": set(deck_set)}

    def _place(self, cards: tuple[Card, ...], zone: str) -> None:
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

    def _relabel(self, src: str, dst: str) -> None:
        moved = self.by_zone.pop(src, set())
        for c in moved:
            self.known[c] = dst
        self.by_zone.setdefault(dst, set()).update(moved)

    def _forget(self, src: str) -> None:
        for c in self.by_zone.pop(src, ()):
            del self.known[c]

    def read(self, ev: Event) -> None:
        """Learn what one event shows this seat."""
        seat = self.seat
        for mv in ev.moves:
            if mv.seen_by is None and mv.dst in FACE_UP_ZONES:
                continue  # face-up cards are read off the table when the view is made
            if mv.seen_by is None or seat in mv.seen_by:
                self._place(mv.cards, mv.dst)  # seen (moved, or shown in place)
            elif mv.src == mv.dst:
                continue  # shown to others only: nothing moved
            elif mv.pile:  # a face-down pile moved whole: what was known in it moved too
                self._relabel(mv.src, mv.dst)
            else:
                # a face-down card left `src`: any card we placed there may be the one
                self._forget(mv.src)

    def catch_up(self, t: Table, upto: int = -1) -> None:
        """Read every event since the last call (up to the table's `upto`-th memo entry)."""
        memo, events = t.memo, t.events
        end = len(memo) if upto < 0 else upto
        for i in memo[self.done : end]:
            self.read(events[i])
        self.done = max(self.done, end)

    def copy(self) -> SeatMemory:
        m = SeatMemory(self.seat, None)
        m.done, m.known = self.done, dict(self.known)
        m.by_zone = {k: set(v) for k, v in self.by_zone.items()}
        return m


def _view_of(state: dict[str, Any]) -> SeatView:
    """A view from its fields (how views unpickle)."""
    return SeatView(**state)


def _recall(
    recall: tuple[list[SeatMemory | None], Table, int], seat: int, rules: Rules
) -> dict[Card, str]:
    """Where `seat` knew cards were when the table had `k` memo entries (its `learned`).

    The game keeps one memory per seat, made when a view of the seat is first asked what
    it learned (a player that never asks costs no memory). The seat's memory reads on to
    that point; a memory already past it (a later view was read first) cannot go back, so a
    fresh one reads the table's history from the start: the table only ever appends to it."""
    memories, t, k = recall
    memory = memories[seat]
    if memory is None:
        memory = memories[seat] = SeatMemory(seat, rules)
    elif memory.done > k:
        memory = SeatMemory(seat, rules)
    memory.catch_up(t, k)
    return dict(memory.known)


def _same_cards(cards: tuple[Card, ...], now: list[Card]) -> bool:
    """Does a zone still hold these cards, in this order?"""
    if len(cards) != len(now):
        return False
    for i in range(len(now)):
        if cards[i] is not now[i]:
            return False
    return True


def _quiet_now(shown: tuple[int, ...], t: Table) -> tuple[int, ...]:
    """The seats of the table's quiet run (R9.1): `shown` while it still tells them."""
    now = t.quiet
    if len(shown) == len(now):
        for i in range(len(now)):
            if shown[i] != now[i]:
                return tuple(now)
        return shown
    return tuple(now)


def _kinds_now(shown: tuple[tuple[int, str], ...], t: Table) -> tuple[tuple[int, str], ...]:
    """What each quiet seat did (R9.1), in order: `shown` while it still tells it."""
    now = t.quiet_kinds
    if len(shown) == len(now):
        i = 0
        for seat, kind in now.items():  # the same pairs in the same order
            pair = shown[i]
            if pair[0] != seat or pair[1] != kind:
                return tuple(now.items())
            i += 1
        return shown
    return tuple(now.items())


def _turn_now(shown: TurnState | None, t: Table) -> TurnState:
    """The table's public turn facts: `shown` (the last view's) while it still tells them,
    else new ones that reuse its quiet run and kinds where those still hold (the turn count
    changes with every turn; the quiet run far less often)."""
    if shown is None:
        quiet, kinds = tuple(t.quiet), tuple(t.quiet_kinds.items())
    else:
        quiet, kinds = _quiet_now(shown[0], t), _kinds_now(shown[1], t)
        if (
            quiet is shown[0]
            and kinds is shown[1]
            and shown[3] == t.turns
            and shown[2] == t.must_battle
            and shown[4] == t.trim_min
            and shown[5] == t.trim_next
            and shown[6] == t.trim_rule
        ):
            return shown
    turn: TurnState = new_record(
        TURN_STATE, quiet, kinds, t.must_battle, t.turns, t.trim_min, t.trim_next, t.trim_rule
    )
    t.turn_shown = turn
    return turn


def build_view(
    t: Table,
    seat: int,
    memories: list[SeatMemory | None],
    legal: tuple[Action, ...] | Callable[[], tuple[Action, ...]],
    sampler: Callable[[SeatView, random.Random], Any] | None = None,
) -> SeatView:
    """The view of `seat` now: the table's public facts, the seat's palace and memory.

    `legal` is the seat's legal actions, or a function that lists them (called when the
    view's `legal` is first read: the caller must read it before the table changes). What
    the seat remembers (`learned`) is read from its memory in `memories` (the game's, one
    per seat, made when first needed) when first asked for, up to this moment."""
    stacks = t.stacks
    names, active, put_in = t.names, t.active, t.put_in
    infos: list[SeatInfo] = []
    last, lists = t.seat_infos, t.seat_lists
    for s in range(t.players):
        flag, army, palace = lists[s]
        card = flag[0] if flag else None
        count = len(palace)
        stack = stacks[s] if stacks is not None else None
        info: SeatInfo | None = last[s]
        if (  # the seat's facts since the last view: most turns change one seat or none
            info is None
            or info[2] is not card
            or info[4] != count
            or info[5] != active[s]
            or info[6] != put_in[s]
            or (info[7] is not stack and info[7] != stack)  # (the same object: no call)
            or not _same_cards(info[3], army)
        ):
            info = last[s] = new_record(
                SEAT_INFO, s, names[s], card, tuple(army), count, active[s], put_in[s], stack
            )
        infos.append(info)
    seats = tuple(infos)
    # the seat's palace and the rejects as in the last view, while they hold the same cards
    # (a view is immutable, so views may share them)
    palace_now = lists[seat][2]
    palace_shown = t.palaces_shown[seat]
    if palace_shown is None or not _same_cards(palace_shown, palace_now):
        palace_shown = t.palaces_shown[seat] = tuple(palace_now)
    rejects_now = t.rejects
    rejects = t.rejects_shown
    if rejects is None or not _same_cards(rejects, rejects_now):
        rejects = t.rejects_shown = tuple(rejects_now)
    b = t.battle
    battle = (
        None
        if b is None
        else new_record(
            BATTLE_INFO,
            b.attacker,
            b.defender,
            b.to_act,
            b.owed,
            dict(b.paid),
            b.raises,
            b.last_raiser,
            b.last_raise,
            b.bettor,
            b.last_bet,
            b.allin_attack,
        )
    )
    owed = type(legal) is OwedLegal
    view = SeatView(
        seat,
        t.phase,
        t.to_act,
        t.dealer,
        t.pot,
        t.rules,
        seats,
        palace_shown,
        len(t.deck),
        len(t.discard),
        rejects,
        battle,
        legal,
        (memories, t, len(t.memo)),
        _NO_TURN if owed else _turn_now(t.turn_shown, t),
        sampler,
    )
    if owed:  # worked out when read, or by the game before the table changes
        view._turn = cast(OwedLegal, legal)
    return view
