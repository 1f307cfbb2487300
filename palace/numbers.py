"""The one check for "a whole number" that every validator uses (a bool is not one).

>>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
(True, False, False, False)
"""

from __future__ import annotations

from typing import Any, TypeGuard


def is_whole(value: Any) -> TypeGuard[int]:
    """True for an `int` that is not a `bool`."""
    return isinstance(value, int) and not isinstance(value, bool)
