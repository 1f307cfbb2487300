"""Records the engine makes often: named tuples straight from their fields (`new_record`), and
frozen dataclasses with a written-out ``__init__`` (how it sets its fields, how they pickle).

A dataclass's generated ``__init__`` is Python that even the compiled engine
(`palace.native`) interprets, so the records a hand makes often (`palace.table.HandResult`,
`palace.battle.BattleResult`, `palace.battle.Army`) write theirs out, with
``@dataclass(frozen=True, init=False)``: it sets its fields with one `set_fields` call
(``object.__setattr__`` for each, as the generated one does), so they stay frozen. A compiled
class is unpickled through its ``__init__``, so they pickle as their fields (`by_fields`).

Where the engine is compiled, `new_record` and `set_fields` are C (``palace/_records.c``,
built with it): from compiled code ``tuple.__new__`` first makes three tuples and
``object.__setattr__`` goes through a method wrapper for each field. The source
(``PALACE_PURE=1``) runs the Python ones below, so `tests/test_native.py` compares the two.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, init=False)
... class Pair:
...     a: int
...     b: int
...     def __init__(self, a: int, b: int) -> None:
...         set_fields(self, ("a", "b"), a, b)
...     def __reduce__(self): return by_fields(self)
>>> by_fields(Pair(1, 2))
(<class 'palace.records.Pair'>, (1, 2))
>>> from palace.events import Move
>>> new_record(Move, (), "deck", "discard", None, False)
Move(cards=(), src='deck', dst='discard', seen_by=None, pile=False)
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from palace.native import PURE_ENV

_T = TypeVar("_T", bound=tuple[Any, ...])

if TYPE_CHECKING:

    def new_record(cls: type[_T], *values: Any) -> _T:
        """``tuple.__new__(cls, values)``: a named tuple straight from its fields."""
        ...

    def set_fields(record: object, names: tuple[str, ...], *values: Any) -> None:
        """``object.__setattr__(record, name, value)`` for each name and value, in order."""
        ...

else:

    def new_record(cls, *values):
        return tuple.__new__(cls, values)

    def set_fields(record, names, *values):
        if not isinstance(names, tuple):
            raise TypeError("set_fields(record, names, *values): names must be a tuple")
        if len(names) != len(values):  # the C form's message (zip's would differ)
            raise TypeError(f"set_fields: {len(names)} names but {len(values)} values")
        for name, value in zip(names, values, strict=False):
            object.__setattr__(record, name, value)

    if os.environ.get(PURE_ENV) != "1":  # the source runs the Python ones above
        try:  # built with the compiled engine (`make native`): the same, in C
            from palace._records import new_record as c_new_record
            from palace._records import set_fields as c_set_fields
        except ImportError:
            pass
        else:
            new_record, set_fields = c_new_record, c_set_fields


def by_fields(record: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass: rebuilt by its class from its fields, in order."""
    return type(record), tuple(getattr(record, f.name) for f in fields(record))
