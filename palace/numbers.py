"""The one check for "a whole number" that every validator uses (a bool is not one).

>>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
(True, False, False, False)
>>> whole_in("hands", 0, 1)
Traceback (most recent call last):
palace.errors.PalaceError: hands must be a whole number >= 1, got 0
"""

from __future__ import annotations

from typing import Any, TypeGuard

from palace.errors import PalaceError


def is_whole(value: Any) -> TypeGuard[int]:
    """True for an `int` that is not a `bool`."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_in(name: str, value: object, low: int, high: int | None = None) -> int:
    """`value` if it is a whole number from `low` to `high` (None: no upper bound), else a
    `PalaceError` naming `name` and the range."""
    if not is_whole(value) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f">= {low}"
        raise PalaceError(f"{name} must be a whole number {span}, got {value!r}")
    return value
