"""The line at the door: a ceiling on pages served at once and a few started at a time, in order.

A class arriving together asks for thirty kernels in the same second. Started all at once on
a small machine, every one of them is slow and the notebook runner gives up waiting for
output (blank pages). `Admission` lets `start_slots` pages start at a time, in order of
arrival, tells every waiting page how many are ahead of it, and refuses a page outright
once `max_pages` pages hold (or wait for) a kernel: the class is full. A page still starting
after `start_patience` seconds (a stuck kernel) keeps its place but no longer its start
slot, so one stuck page never holds up the rest of the class. A page that a pre-heated
kernel waits for (`warm`) starts at once, beside the slots: its kernel has run the notebook
already, and a class served from a full pool is not made to queue.

>>> import asyncio
>>> async def demo():
...     door = Admission(max_pages=2, start_slots=1, is_alive=lambda kernel_id: True)
...     first, second = door.enter(), door.enter()
...     third = door.enter()  # full: None
...     where = (first.state, second.state, door.ahead(second), third)
...     door.started(first, "k1")  # its page is drawn: the next one starts
...     return where, second.state, door.status()
>>> asyncio.run(demo())  # `second` is next in line: nobody ahead of it
(('starting', 'waiting', 0, None), 'starting', {'pages': 2, 'waiting': 0, 'starting': 1, \
'overdue': 0, 'max_pages': 2, 'start_slots': 1})
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

WAITING, STARTING, HOLDING, GONE = "waiting", "starting", "holding", "gone"


@dataclass(eq=False)
class Ticket:
    """One page's place: waiting in line, starting its kernel, or holding a running kernel."""

    number: int
    state: str = WAITING
    kernel_id: str | None = None
    since: float = 0.0  # when it began starting (the door's clock)
    warm: bool = False  # served by a pre-heated kernel: it takes no start slot
    served: bool = False  # its page has taken its kernel (a warm page: out of the pool)
    _turn: asyncio.Event = field(default_factory=asyncio.Event, repr=False)


class Admission:
    """A ceiling (`max_pages`) and a line where `start_slots` pages start at once, in order.

    `is_alive(kernel_id)` says whether a page's kernel still runs (culled or shut-down
    kernels free their place). A page starting for longer than `start_patience` seconds
    (by `clock`) is overdue: it no longer takes a start slot.
    """

    def __init__(
        self,
        *,
        max_pages: int,
        start_slots: int,
        is_alive: Callable[[str], bool],
        start_patience: float = 180.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_pages < 1 or start_slots < 1:
            raise ValueError("max_pages and start_slots must be at least 1")
        if start_patience <= 0:
            raise ValueError("start_patience must be a positive number of seconds")
        self.max_pages = max_pages
        self.start_slots = start_slots
        self.start_patience = start_patience
        self._clock = clock
        self._is_alive = is_alive
        self._numbers = itertools.count(1)
        self._line: deque[Ticket] = deque()
        self._starting: set[Ticket] = set()
        self._holding: set[Ticket] = set()

    # ------------------------------------------------------------------ counts
    def pages(self) -> int:
        """Pages waiting, starting or holding a live kernel."""
        self._prune()
        return len(self._line) + len(self._starting) + len(self._holding)

    def status(self) -> dict[str, int]:
        return {
            "pages": self.pages(),
            "waiting": len(self._line),
            "starting": len(self._starting),
            "overdue": sum(1 for t in self._starting if not t.warm) - self._busy_slots(),
            "max_pages": self.max_pages,
            "start_slots": self.start_slots,
        }

    def ahead(self, ticket: Ticket) -> int:
        """How many pages are in line before this one (0 once it may start)."""
        if ticket.state != WAITING:
            return 0
        for i, other in enumerate(self._line):
            if other is ticket:
                return i
        return 0

    # ------------------------------------------------------------------ moves
    def enter(self, *, warm: bool = False) -> Ticket | None:
        """A place for a new page, or None when the class is full. A `warm` page (one a
        pre-heated kernel waits for) starts at once and takes no start slot: its kernel has
        already run the notebook up to the visitor's link, so it costs the machine little."""
        if self.pages() >= self.max_pages:
            return None
        ticket = Ticket(next(self._numbers), warm=warm)
        if warm:
            ticket.state, ticket.since = STARTING, self._clock()
            self._starting.add(ticket)
            return ticket
        self._line.append(ticket)
        self._promote()
        return ticket

    def warm_starting(self) -> int:
        """Warm pages still starting (each is taking, or has taken, a pre-heated kernel)."""
        return sum(1 for t in self._starting if t.warm)

    def warm_unserved(self) -> int:
        """Warm pages that have not taken their pre-heated kernel yet: the pool's ready
        kernels, less these, are free for the next page (a kernel a page has taken has left
        the pool already)."""
        return sum(1 for t in self._starting if t.warm and not t.served)

    def pool_has_room(self, ready: int) -> bool:
        """May a page arriving now count on one of the pool's `ready` kernels? Yes while
        they outnumber the warm pages that have not taken theirs yet (thirty pages arriving
        together from a pool of thirty all start at once; the thirty-first waits in line).

        >>> door = Admission(max_pages=9, start_slots=1, is_alive=lambda kernel_id: True)
        >>> first, second = door.enter(warm=True), door.enter(warm=True)
        >>> door.pool_has_room(2)  # two kernels ready, both promised
        False
        >>> door.served(first)  # `first` took its kernel: one is left, for `second`
        >>> door.pool_has_room(1), door.pool_has_room(2)
        (False, True)
        """
        return ready > self.warm_unserved()

    def served(self, ticket: Ticket) -> None:
        """The page has its kernel (taken from the pool, or started for it)."""
        ticket.served = True

    async def wait_turn(
        self,
        ticket: Ticket,
        report: Callable[[int], Awaitable[None] | None] | None = None,
        every: float = 1.0,
        gone: Callable[[], bool] = lambda: False,
    ) -> bool:
        """Wait until the ticket may start; `report(ahead)` on each change (and every few
        seconds, as a heartbeat). False if the page went away (`gone()`) first."""
        last, quiet = -1, 0.0
        while ticket.state == WAITING:
            if gone():
                self.leave(ticket)
                return False
            self._promote()  # a page starting for too long frees its slot
            if ticket.state != WAITING:
                break
            ahead = self.ahead(ticket)
            if report is not None and (ahead != last or quiet >= 5.0):
                result = report(ahead)
                if result is not None:
                    await result
                last, quiet = ahead, 0.0
            try:
                await asyncio.wait_for(ticket._turn.wait(), timeout=every)
            except TimeoutError:
                quiet += every
        return ticket.state == STARTING

    def started(self, ticket: Ticket, kernel_id: str | None) -> None:
        """The page is drawn: it holds `kernel_id` (None: it got no kernel) and frees its slot."""
        self._starting.discard(ticket)
        if kernel_id is not None and ticket.state != GONE:
            ticket.state, ticket.kernel_id = HOLDING, kernel_id
            self._holding.add(ticket)
        else:
            ticket.state = GONE
        self._promote()

    def leave(self, ticket: Ticket) -> None:
        """The page went away before it got a kernel (or its kernel is gone)."""
        if ticket in self._line:
            self._line.remove(ticket)
        self._starting.discard(ticket)
        self._holding.discard(ticket)
        ticket.state = GONE
        ticket._turn.set()
        self._promote()

    # ------------------------------------------------------------------ internals
    def _busy_slots(self) -> int:
        """Start slots taken: pages starting, less those overdue (`start_patience`)."""
        now = self._clock()
        return sum(1 for t in self._starting if not t.warm and now - t.since < self.start_patience)

    def _promote(self) -> None:
        while self._line and self._busy_slots() < self.start_slots:
            ticket = self._line.popleft()
            ticket.state, ticket.since = STARTING, self._clock()
            self._starting.add(ticket)
            ticket._turn.set()

    def _prune(self) -> None:
        for ticket in [t for t in self._holding if not self._is_alive(t.kernel_id or "")]:
            self._holding.discard(ticket)
            ticket.state = GONE
