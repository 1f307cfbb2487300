"""Whole-number text boxes for the app's setup rows: kept as typed, read strictly, never clamped.

ipywidgets' IntText and BoundedIntText change what was typed without a word (the browser
drops "." and "e", clamps to the bounds and loses digits past 2**53), so the app uses text
boxes and refuses a bad value with a message naming the field and the allowed range.

>>> players = WholeField(4, label="Players", low=2, high=10, note="(R1.1)")
>>> players.read()
4
>>> players.value = "11"
>>> players.read()
Traceback (most recent call last):
...
palace.app.number_fields.FieldError: Players must be a whole number from 2 to 10 (R1.1); got “11”.
"""

from __future__ import annotations

import re
from typing import Any

from ipywidgets import Text
from traitlets import Unicode

from palace import strict
from palace.errors import PalaceError
from palace.numbers import is_whole

# the bounds saved hands and scenarios accept (palace.strict, docs/scenarios.md), so every hand
# dealt from these boxes can be saved and loaded again
SEED_LIMIT = strict.SEED_LIMIT  # |seed| < 2**63
MAX_STAKE = strict.MAX_STAKE  # small bet and big bet
MAX_CHIPS = strict.MAX_CHIPS  # chips each
_WHOLE = re.compile(r"[+-]?[0-9]+")
_MAX_DIGITS = 40  # longer text is out of every range here: no need to convert it
_SHOWN = 24  # characters of a bad value quoted in a message


class FieldError(PalaceError):
    """A setup field holds text that is not a whole number in its range (names the field)."""


class _WholeText(Unicode):
    """Text; a whole number assigned from Python is stored as its digits."""

    def validate(self, obj: Any, value: Any) -> str:
        if is_whole(value):
            value = str(value)
        return super().validate(obj, value)


def shown(text: str) -> str:
    """`text` quoted for a message, cut to a few characters."""
    if len(text) <= _SHOWN:
        return f"“{text}”"
    return f"“{text[:_SHOWN]}…” ({len(text):,} characters)"


def read_whole(text: str, *, label: str, low: int, high: int, note: str = "") -> int:
    """The whole number in `text`, from `low` to `high`; otherwise `FieldError` saying why.

    >>> read_whole(" 007 ", label="Seed", low=0, high=99)
    7
    >>> read_whole("3.7", label="Seed", low=0, high=99)
    Traceback (most recent call last):
    ...
    palace.app.number_fields.FieldError: Seed must be a whole number from 0 to 99; got “3.7”.
    """
    clean = text.strip()
    rule = f"{label} must be a whole number from {low:,} to {high:,}"
    if note:
        rule += f" {note}"
    if not clean:
        raise FieldError(f"{rule}; the box is empty.")
    if len(clean) > _MAX_DIGITS or not _WHOLE.fullmatch(clean):
        raise FieldError(f"{rule}; got {shown(clean)}.")
    value = int(clean)
    if not low <= value <= high:
        raise FieldError(f"{rule}; got {shown(clean)}.")
    return value


class WholeField(Text):
    """A text box for a whole number from `low` to `high` (`read()` checks it).

    The box keeps exactly what was typed; assigning an int from Python stores its digits.
    """

    value = _WholeText(help="the text in the box").tag(sync=True)

    def __init__(
        self, value: int | str, *, label: str, low: int, high: int, note: str = "", **kwargs: Any
    ) -> None:
        kwargs.setdefault("description", label)
        kwargs.setdefault("continuous_update", False)
        super().__init__(value=value, **kwargs)
        self.label, self.low, self.high, self.note = label, low, high, note
        self.add_class("palace-whole-field")

    def read(self) -> int:
        """The number in the box; `FieldError` naming the field and its range otherwise."""
        return read_whole(
            self.value, label=self.label, low=self.low, high=self.high, note=self.note
        )

    def check(self, number: int) -> int:
        """`number` if it may go in the box; `FieldError` naming the field otherwise."""
        return read_whole(
            str(number), label=self.label, low=self.low, high=self.high, note=self.note
        )

    def peek(self) -> int | None:
        """The number in the box, or None if it is not a whole number in range."""
        try:
            return self.read()
        except FieldError:
            return None
