"""`shuffle`: the standard library's Fisher-Yates shuffle, the same permutation for the same
generator state as `random.Random.shuffle`, written without its per-card method calls.

>>> import random
>>> a, b = list(range(52)), list(range(52))
>>> random.Random(7).shuffle(a); shuffle(random.Random(7), b)
>>> a == b
True
"""

from __future__ import annotations

import random
from typing import Any, Final

_BITS: Final = [n.bit_length() for n in range(1024)]


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle `x` in place exactly as ``rng.shuffle(x)`` would (same draws, same order)."""
    if type(rng) is not random.Random or len(x) >= len(_BITS):
        rng.shuffle(x)  # a subclass may draw differently: let it
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
