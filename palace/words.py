"""English helpers for the sentences the engine and the panels write.

>>> plural(1, "chip"), plural(3, "chip"), plural(0, "soldier")
('1 chip', '3 chips', '0 soldiers')
>>> plural(2, "army", "armies"), number_word(5), number_word(12)
('2 armies', 'five', '12')
>>> joined(["Ann"]), joined(["Ann", "Bob"]), joined(["Ann", "Bob", "Cat"])
('Ann', 'Ann and Bob', 'Ann, Bob and Cat')
"""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`n` and the noun, singular for exactly one: "1 chip", "2 chips"."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def noun_for(n: int, noun: str, many: str | None = None) -> str:
    """The noun alone, singular for exactly one: "raise" or "raises"."""
    return noun if n == 1 else (many or noun + "s")


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: int) -> str:
    """Small numbers as words ("five"), larger ones as digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def joined(items: Iterable[str]) -> str:
    """A list in words: "Ann", "Ann and Bob", "Ann, Bob and Cat"."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def verb_for(n: int, one: str, many: str) -> str:
    """The verb that agrees with a count: ``verb_for(1, "goes", "go")`` is "goes"."""
    return one if n == 1 else many
