"""`shuffle`: the standard library's Fisher-Yates shuffle, the same permutation for the same
generator state as `random.Random.shuffle`, written with half its generator calls.

>>> import random
>>> a, b = list(range(52)), list(range(52))
>>> random.Random(7).shuffle(a); shuffle(random.Random(7), b)
>>> a == b
True

``random.Random.shuffle`` draws each position's card with ``getrandbits(k)`` (k = the bit
length of the cards left), again while the draw is too big: for k <= 32 that is the top k
bits of the generator's next 32-bit word. ``random()`` takes two words, a and b, and gives
``(a >> 5) * 2**-27 + (b >> 6) * 2**-53`` exactly, so ``random() * 2**53`` holds the top
27 bits of a and the top 26 of b: two draws for one call. It is used while at least two
positions are left to fill (each draws at least one word), so the generator ends in the
very state ``rng.shuffle`` leaves it in.
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import i64  # a machine integer where compiled (palace/native.py)

_BITS: Final = [n.bit_length() for n in range(1024)]
_TWO_53: Final = 9007199254740992.0  # 2**53
_LOW_26: Final[i64] = (1 << 26) - 1


def _bit_length(n: i64) -> i64:
    """``n.bit_length()`` for 0 < n < 2**26."""
    k: i64 = 0
    while n:
        n >>= 1
        k += 1
    return k


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle `x` in place exactly as ``rng.shuffle(x)`` would (same draws, same order,
    the generator left in the same state)."""
    if type(rng) is not random.Random or len(x) >= len(_BITS):
        rng.shuffle(x)  # a subclass may draw differently: let it
        return
    rand = rng.random
    i: i64 = len(x) - 1
    j: i64
    spare: i64 = -1  # the top 26 bits of a word drawn and not used yet, or -1
    pair: i64
    k: i64 = _bit_length(i + 1)  # the bits of a draw for this position: (i + 1).bit_length()
    low: i64 = i + 1  # made 2**(k - 1), the highest power of two in it: below it, k is one less
    while low & (low - 1):
        low &= low - 1
    while i > 1:
        if i + 1 < low:
            k -= 1
            low >>= 1
        if spare >= 0:
            j = spare >> (26 - k)
            spare = -1
        else:
            pair = i64(rand() * _TWO_53)  # two words: a >> 5 above, b >> 6 in the low 26 bits
            j = pair >> (53 - k)
            spare = pair & _LOW_26
        if j > i:
            continue  # too big: draw again for this position
        x[i], x[j] = x[j], x[i]
        i -= 1
    if i == 1:  # two cards left: two bits a draw (the last position: one word at a time)
        j = spare >> 24 if spare >= 0 else rng.getrandbits(2)
        while j > 1:
            j = rng.getrandbits(2)
        x[1], x[j] = x[j], x[1]
