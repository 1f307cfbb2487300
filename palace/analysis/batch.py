"""Hand values and battle showdowns for many hands at once, in numpy (R1.3, R8.1-R8.5)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from palace.errors import CardError, IllegalActionError

__all__ = [
    "Showdown",
    "default_threads",
    "evaluate_batch",
    "resolve_battles_batch",
    "showdown_batch",
]

MAX_CARDS = 9  # banner + soldiers + palace cards (R8.1)
# Rows per work unit. Larger chunks mean longer numpy calls, hence fewer GIL hand-overs
# between threads: on 2 cores, 65536 rows scaled ~1.7x where 16384 rows barely scaled.
DEFAULT_CHUNK = 65_536

# ---------------------------------------------------------------- lookup tables
# Every table is indexed by a 13-bit rank mask (bit 0 = two … bit 12 = ace). Values use
# the encoding of `palace.hands`: (category + 1) << 20 | deciding rank codes (2→1 … A→13,
# missing kicker 0) packed four bits each from bit 16 down. The tables are built here
# from first principles, so the tests compare two independent implementations.
_N = 1 << 13
_M = np.arange(_N, dtype=np.int64)
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SF = (
    (c + 1) << 20 for c in range(9)
)


def _build_tables() -> dict[str, np.ndarray]:
    m = _M
    bits = (m[:, None] >> np.arange(13)) & 1
    pop = bits.sum(axis=1)
    hi = np.where(m > 0, 12 - np.argmax(bits[:, ::-1], axis=1), -1)  # highest set bit
    hb = np.where(m > 0, np.left_shift(1, np.maximum(hi, 0)), 0)  # its mask
    code = hi + 1  # rank code of the highest rank, 0 for an empty mask
    no_hb = ~hb & 0x1FFF

    def top(k: int) -> np.ndarray:  # the k highest ranks, packed 4 bits each
        rest, out = m.copy(), np.zeros(_N, dtype=np.int64)
        for _ in range(k):
            h = hi[rest]
            out = out << 4 | (h + 1)
            rest = rest & ~np.where(h >= 0, np.left_shift(1, np.maximum(h, 0)), 0)
        return out

    top1, top2, top3, top5 = top(1), top(2), top(3), top(5)
    straight = np.zeros(_N, dtype=np.int64)  # rank code of the top card, 0 if none
    for t in range(4, 13):  # six-high … ace-high: a higher straight overwrites a lower one
        window = 0b11111 << (t - 4)
        straight = np.where(m & window == window, t + 1, straight)
    wheel = 0b1000000001111  # A-2-3-4-5 ranks as five-high (R1.3)
    straight = np.where((straight == 0) & (m & wheel == wheel), 4, straight)

    second = m & no_hb
    top2_bits = hb | np.where(second > 0, np.left_shift(1, np.maximum(hi[second], 0)), 0)
    nonempty = m > 0
    level = {"high": 0, "pair": 1, "two_pair": 2, "trips": 3}  # selects a KICK section
    tables = {
        # a suit's own flush or straight flush (pop >= 5): at most one suit has one
        "FV": np.where(pop >= 5, np.where(straight > 0, _SF | straight << 16, _FLUSH | top5), 0),
        "ST": np.where(straight > 0, _STRAIGHT | straight << 16, 0),
        # pairs mask p -> category and pair ranks; MP keeps the kicker ranks + KICK section
        "PV": np.select(
            [pop == 0, pop == 1],
            [0, _PAIR | code << 16],
            _TWO_PAIR | code << 16 | code[second] << 12,
        ),
        "MP": np.select(
            [pop == 0, pop == 1],
            [0x1FFF | level["high"] << 13, no_hb | level["pair"] << 13],
            (~top2_bits & 0x1FFF) | level["two_pair"] << 13,
        ),
        # KICK[section << 13 | ranks]: the kicker part of a value
        "KICK": np.concatenate(
            [np.where(nonempty, _HIGH | top5, 0), top3 << 4, top1 << 8, top2 << 8]
        ),
        # trips mask t: category + trip rank; MT keeps the other ranks (0 when t is empty)
        "TV": np.where(nonempty, _TRIPS | code << 16, 0),
        "MT": np.where(nonempty, no_hb | level["trips"] << 13, 0),
        "FH": np.where(nonempty, (_FULL - _TRIPS) | code << 12, 0),  # added to TV
        # quads mask q: the kicker is read from the two-pair section and shifted 4 left
        "QV": np.where(nonempty, _QUADS | code << 16, 0),
        "MQ": np.where(nonempty, no_hb | level["two_pair"] << 13, 0),
    }
    masks = ("MP", "MT", "MQ")
    return {k: v.astype(np.int64 if k in masks else np.int32) for k, v in tables.items()}


_T = _build_tables()
_FV, _ST, _PV, _MP, _KICK = _T["FV"], _T["ST"], _T["PV"], _T["MP"], _T["KICK"]
_TV, _MT, _FH, _QV, _MQ = _T["TV"], _T["MT"], _T["FH"], _T["QV"], _T["MQ"]
_SECTIONS = 3 << 13  # OR-ed into the rank mask so `& M` keeps M's KICK section bits
_SUIT_BITS = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64)
_KEEP = np.append(~_SUIT_BITS, np.int64(-1))  # _KEEP[s] drops suit s; _KEEP[-1] keeps all
_ONE = np.int64(1)
_BIT = np.append(np.left_shift(_ONE, np.arange(52, dtype=np.int64)), np.int64(0))  # _BIT[-1] = 0
# numpy defines a shift by a negative or too-large count as 0 (the C shift is guarded);
# check it once for the array loop, and fall back to a table when it does not hold.
_SHIFT_PADS = bool(np.all(np.left_shift(_ONE, np.full(64, -1, dtype=np.int64)) == 0))


# ---------------------------------------------------------------- kernel
# The kernel writes every intermediate into preallocated buffers (`out=`): no array is
# allocated per chunk, so the working set stays in cache and two threads do not contend
# in the allocator. `take(..., mode="wrap")` is numpy's fastest unbuffered gather; every
# index is in range here, so the mode changes nothing else.
_WRAP: Any = "wrap"


class _Workspace:
    """Scratch arrays for one thread: seven index arrays and three value arrays."""

    __slots__ = ("masks", "values")

    def __init__(self, rows: int) -> None:
        self.masks = [np.empty(rows, dtype=np.int64) for _ in range(7)]
        self.values = [np.empty(rows, dtype=np.int32) for _ in range(3)]


def _evaluate_rows(
    cards: np.ndarray, exclude: np.ndarray | None, out: np.ndarray, work: _Workspace
) -> None:
    """Write into ``out`` the value of each row, as `palace.hands.value_of_bits` would."""
    rows, width = cards.shape
    m0, m1, m2, m3, m4, m5, m6 = (x[:rows] for x in work.masks)
    g, g2, tv = (x[:rows] for x in work.values)
    take = np.take
    # the 52-bit card set of each row (bit = Card.index); a -1 pad adds nothing
    bits = m0
    for j in range(width):
        dest = bits if j == 0 else m1
        if _SHIFT_PADS:
            np.left_shift(_ONE, cards[:, j], out=dest)
        else:
            take(_BIT, cards[:, j], out=dest, mode=_WRAP)  # -1 wraps to _BIT[52] == 0
        if j:
            bits |= m1
    if exclude is not None:  # R8.2: the opponent's banner suit does not count
        take(_KEEP, exclude, out=m1, mode=_WRAP)  # -1 wraps to _KEEP[4]: keep all
        bits &= m1
    # four 13-bit rank masks, one per suit
    a, b, c, d = m1, m2, m3, m4
    np.bitwise_and(bits, 0x1FFF, out=a)
    np.right_shift(bits, 13, out=b)
    b &= 0x1FFF
    np.right_shift(bits, 26, out=c)
    c &= 0x1FFF
    np.right_shift(bits, 39, out=d)
    v = out
    take(_FV, a, out=v, mode=_WRAP)  # flush or straight flush (needs 5 cards of a suit)
    for suit in (b, c, d):
        take(_FV, suit, out=g, mode=_WRAP)
        v |= g
    # ranks held at least once (r), twice (p), three times (t), four times (q)
    ab, cd = m5, m6
    np.bitwise_and(a, b, out=ab)
    np.bitwise_and(c, d, out=cd)
    a |= b  # a | b
    c |= d  # c | d
    r, p = m2, m4
    np.bitwise_or(a, c, out=r)
    np.bitwise_and(a, c, out=p)
    p |= ab
    p |= cd
    c &= ab
    a &= cd
    c |= a
    t = c
    ab &= cd
    q = ab
    x, mt = m0, m1
    take(_ST, r, out=g, mode=_WRAP)  # straight
    np.maximum(v, g, out=v)
    r |= _SECTIONS
    # Each candidate below is either a correct lower bound of the hand's value or less
    # than 1 << 20 (no category bits), so the largest candidate is the hand's value.
    take(_MP, p, out=x, mode=_WRAP)  # high card, one pair, two pair
    x &= r
    take(_KICK, x, out=g, mode=_WRAP)
    take(_PV, p, out=g2, mode=_WRAP)
    g |= g2
    np.maximum(v, g, out=v)
    take(_MT, t, out=mt, mode=_WRAP)  # three of a kind
    take(_TV, t, out=tv, mode=_WRAP)
    np.bitwise_and(r, mt, out=x)
    take(_KICK, x, out=g, mode=_WRAP)
    g |= tv
    np.maximum(v, g, out=v)
    np.bitwise_and(p, mt, out=x)  # full house: the trips and the best other pair
    take(_FH, x, out=g, mode=_WRAP)
    tv += g
    np.maximum(v, tv, out=v)
    take(_MQ, q, out=x, mode=_WRAP)  # four of a kind
    x &= r
    take(_KICK, x, out=g, mode=_WRAP)
    g <<= 4
    take(_QV, q, out=g2, mode=_WRAP)
    g |= g2
    np.maximum(v, g, out=v)


# ---------------------------------------------------------------- validation
def _int_array(value: Any, name: str, what: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise CardError(f"{name} must be an integer array of {what}: {err}") from None
    if arr.dtype.kind not in "iu":
        raise CardError(f"{name} must be an integer array of {what}, got dtype {arr.dtype}")
    return arr


def _check_range(
    arr: np.ndarray, lo: int, hi: int, name: str, what: str, first_row: int = 0
) -> None:
    """Raise `CardError` naming the first entry of ``arr`` outside ``lo..hi``; ``arr``
    may be rows ``first_row...`` of the argument ``name``."""
    if arr.size == 0:
        return
    if arr.min() < lo or arr.max() > hi:
        bad = np.argwhere((arr < lo) | (arr > hi))[0]
        where = ", ".join(str(int(i) + (first_row if k == 0 else 0)) for k, i in enumerate(bad))
        raise CardError(f"{name}[{where}] = {int(arr[tuple(bad)])} is not {what}")


_CARDS_WHAT = "card indices 0-51 (suit * 13 + rank - 2, R1.2), -1 for no card"


def _cards_arg(cards: Any, name: str, check_range: bool = True) -> np.ndarray:
    """``cards`` as a 2-D integer array of at most 9 columns; ``check_range=False``
    leaves the value check to the caller (`evaluate_batch` does it chunk by chunk)."""
    what = _CARDS_WHAT
    if isinstance(cards, list | tuple) and all(isinstance(row, list | tuple) for row in cards):
        width = max((len(row) for row in cards), default=0)  # pad ragged rows with -1
        if width == 0:  # [] or [[], []]: no cards at all
            return np.zeros((len(cards), 0), dtype=np.int64)
        cards = [list(row) + [-1] * (width - len(row)) for row in cards]
    arr = _int_array(cards, name, what)
    if arr.ndim != 2:
        raise CardError(
            f"{name} must be 2-D (one row per hand), got shape {arr.shape}; "
            "for one hand use cards.reshape(1, -1)"
        )
    if arr.shape[1] > MAX_CARDS:
        raise CardError(
            f"{name} has {arr.shape[1]} columns; a hand has at most {MAX_CARDS} cards (R8.1)"
        )
    if arr.dtype.kind == "u" and arr.itemsize >= 8:  # no int64 loop mixes with uint64
        _check_range(arr, -1, 51, name, what)
        return arr.astype(np.int64)
    if check_range:
        _check_range(arr, -1, 51, name, what)
    return arr


def _suits_arg(suits: Any, n: int, name: str, allow_none: bool) -> np.ndarray:
    lo = -1 if allow_none else 0
    what = "a suit index 0-3 (clubs, diamonds, hearts, spades)" + (
        ", or -1 for none" if allow_none else ""
    )
    arr = _int_array(suits, name, what)
    if arr.ndim == 0:
        arr = np.full(n, arr, dtype=arr.dtype)
    if arr.shape != (n,):
        raise CardError(f"{name} must have shape ({n},), one suit per hand, got {arr.shape}")
    _check_range(arr, lo, 3, name, what)
    return arr.astype(np.int64) if arr.dtype.kind == "u" and arr.itemsize >= 8 else arr


def _positive(value: int | None, name: str, default: int) -> int:
    if value is None:
        return default
    if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
    return int(value)


def default_threads() -> int:
    """Worker threads used when ``threads=None``: the CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run_chunks(
    n: int, chunk: int, threads: int, work: Callable[[int, int, _Workspace], None]
) -> None:
    """Call ``work(start, stop, workspace)`` over row chunks, on up to ``threads`` threads.

    numpy releases the GIL inside its loops (`take`, bitwise ops), so threads overlap.
    """
    starts = range(0, n, chunk)
    lanes = max(1, min(threads, len(starts)))

    def lane(i: int) -> None:
        workspace = _Workspace(min(chunk, n))
        for s in starts[i::lanes]:
            work(s, min(s + chunk, n), workspace)

    if lanes <= 1:
        lane(0)
        return

    with ThreadPoolExecutor(lanes, thread_name_prefix="palace-batch") as pool:
        for future in [pool.submit(lane, i) for i in range(lanes)]:
            future.result()


# ---------------------------------------------------------------- public API
def evaluate_batch(
    cards: npt.ArrayLike,
    exclude_suits: npt.ArrayLike | None = None,
    *,
    threads: int | None = None,
    chunk: int | None = None,
) -> np.ndarray:
    """Hand values of many hands, equal to `palace.hands.hand_value` row by row (R8.1-R8.3).

    ``cards`` is an integer array of shape ``(n, k)``, ``0 <= k <= 9``: one hand per
    row, card indices ``0-51`` (`Card.index`), ``-1`` for "no card" anywhere in a row,
    so hands of different sizes share one array (a list of lists of different lengths
    is padded that way). ``exclude_suits`` gives, per row, the suit whose cards do not
    count (the opponent's banner suit, R8.2) or ``-1``; a single int applies to every
    row, and None means no exclusion.

    Returns an ``int32`` array of ``n`` values. A card repeated within a row counts
    once, as in `hand_value` (a real deal never repeats a card: that is the caller's
    job). The rows are split into ``chunk``-row pieces (default 65536) worked on by
    ``threads`` threads (default: `default_threads`).

    Raises `CardError`, naming the argument, for a non-integer dtype, a shape other
    than ``(n, 0..9)`` / ``(n,)``, or a value out of range.

    >>> from palace import hand_value, parse_cards
    >>> hands = [[c.index for c in parse_cards("As Ks Qs Js Ts 2h")] + [-1] * 3,
    ...          [c.index for c in parse_cards("Ah Ad 7c")] + [-1] * 6]
    >>> v = evaluate_batch(hands)
    >>> [int(x) for x in v] == [hand_value(h) for h in (hands[0][:6], hands[1][:3])]
    True
    >>> int(evaluate_batch(hands, exclude_suits=[3, -1])[0]) == hand_value(hands[0][:6], 3)
    True
    """
    arr = _cards_arg(cards, "cards", check_range=False)  # values: checked per chunk
    n = arr.shape[0]
    exclude = None if exclude_suits is None else _suits_arg(exclude_suits, n, "exclude_suits", True)
    lanes = _positive(threads, "threads", default_threads())
    size = _positive(chunk, "chunk", DEFAULT_CHUNK)
    out = np.zeros(n, dtype=np.int32)
    if n == 0 or arr.shape[1] == 0:
        return out

    def work(start: int, stop: int, workspace: _Workspace) -> None:
        rows = arr[start:stop]
        _check_range(rows, -1, 51, "cards", _CARDS_WHAT, first_row=start)  # in parallel
        ex = None if exclude is None else exclude[start:stop]
        _evaluate_rows(rows, ex, out[start:stop], workspace)

    _run_chunks(n, size, lanes, work)
    return out


class Showdown(NamedTuple):
    """Battle showdowns in bulk (R8): both sides' values and banner counts, and who won."""

    values_att: np.ndarray  # attacker's hand values, the defender's banner suit excluded (R8.2)
    values_def: np.ndarray  # defender's hand values, the attacker's banner suit excluded
    banner_att: np.ndarray  # attacker's cards of their own banner suit (R8.5 tie-break)
    banner_def: np.ndarray  # defender's cards of their own banner suit
    outcome: np.ndarray  # int8: +1 attacker wins, -1 defender wins, 0 still tied (R8.6)


def showdown_batch(
    att_cards: npt.ArrayLike,
    att_banner_suits: npt.ArrayLike,
    def_cards: npt.ArrayLike,
    def_banner_suits: npt.ArrayLike,
    *,
    threads: int | None = None,
    chunk: int | None = None,
) -> Showdown:
    """Show down many battles at once (R8.1-R8.6), returning values and outcomes.

    Row ``i`` is one battle: ``att_cards[i]`` and ``def_cards[i]`` hold all of each
    player's cards (banner, soldiers, palace; 0-9 cards, ``-1`` pads, as in
    `evaluate_batch`); the banner suits are suit indices 0-3. Each side leaves out
    cards of the *other* side's banner suit (R8.2); the higher value wins (R8.4); on
    equal values the side holding more cards of its own banner suit wins, counting
    every card it holds (R8.5); still equal gives 0 (R8.6). A repeated card is
    counted twice by the R8.5 count: pass real deals.

    Raises `CardError` for malformed arrays (naming the argument) and
    `IllegalActionError` when a row's banners share a suit (R7.2 forbids that battle).

    >>> from palace.cards import parse_cards
    >>> idx = lambda s: [c.index for c in parse_cards(s)]
    >>> s = showdown_batch([idx("Kh 9s 9d")], [2], [idx("Ks 9h 9c")], [3])
    >>> s.outcome.tolist(), s.banner_att.tolist(), s.banner_def.tolist()
    ([0], [1], [1])
    >>> showdown_batch([idx("Kh Kd 2h")], [2], [idx("Ks Kc 2d")], [3]).outcome.tolist()
    [1]
    """
    att = _cards_arg(att_cards, "att_cards")
    dfn = _cards_arg(def_cards, "def_cards")
    n = att.shape[0]
    if dfn.shape[0] != n:
        raise CardError(
            f"att_cards has {n} rows but def_cards has {dfn.shape[0]}: one battle per row"
        )
    s_att = _suits_arg(att_banner_suits, n, "att_banner_suits", False)
    s_def = _suits_arg(def_banner_suits, n, "def_banner_suits", False)
    same = np.flatnonzero(s_att == s_def)
    if same.size:
        i = int(same[0])
        raise IllegalActionError(
            f"battle {i}: att_banner_suits[{i}] == def_banner_suits[{i}] == {int(s_att[i])}; "
            "a player may not attack a banner of their own suit (R7.2)"
        )
    values_att = evaluate_batch(att, s_def, threads=threads, chunk=chunk)
    values_def = evaluate_batch(dfn, s_att, threads=threads, chunk=chunk)
    banner_att = _own_suit_count(att, s_att)
    banner_def = _own_suit_count(dfn, s_def)
    outcome = np.sign(values_att.astype(np.int64) - values_def).astype(np.int8)
    tied = outcome == 0
    outcome[tied] = np.sign(banner_att[tied] - banner_def[tied])
    return Showdown(values_att, values_def, banner_att, banner_def, outcome)


def _own_suit_count(cards: np.ndarray, suits: np.ndarray) -> np.ndarray:
    """Cards of suit ``suits[i]`` in row ``i`` (-1 pads have suit -1 and never match)."""
    out = np.zeros(cards.shape[0], dtype=np.int32)
    if cards.shape[1] == 0:
        return out
    for start in range(0, len(out), DEFAULT_CHUNK):  # bounded temporaries
        stop = start + DEFAULT_CHUNK
        same = cards[start:stop] // 13 == suits[start:stop, None]
        out[start:stop] = np.count_nonzero(same, axis=1)
    return out


def resolve_battles_batch(
    att_cards: npt.ArrayLike,
    att_banner_suits: npt.ArrayLike,
    def_cards: npt.ArrayLike,
    def_banner_suits: npt.ArrayLike,
    *,
    threads: int | None = None,
    chunk: int | None = None,
) -> np.ndarray:
    """Winners of many battles: ``+1`` attacker, ``-1`` defender, ``0`` tie (R8.2-R8.6).

    The arguments are those of `showdown_batch`, which also returns the hand values
    and banner counts; this returns only its ``int8`` ``outcome`` array.

    >>> from palace.cards import parse_cards
    >>> idx = lambda s: [c.index for c in parse_cards(s)]
    >>> resolve_battles_batch([idx("Ah Kh Qh Jh 9h"), idx("2c")], [2, 0],
    ...                       [idx("7s 7d 2d"), idx("3d")], [3, 1]).tolist()
    [1, -1]
    """
    return showdown_batch(
        att_cards, att_banner_suits, def_cards, def_banner_suits, threads=threads, chunk=chunk
    ).outcome
