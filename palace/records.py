"""Records the engine makes often: named tuples straight from their fields (`new_record`), and
frozen dataclasses with a written-out ``__init__`` (how it sets a field, how they pickle).

A dataclass's generated ``__init__`` is Python that even the compiled engine
(`palace.native`) interprets, so the records a hand makes often (`palace.table.HandResult`,
`palace.battle.BattleResult`, `palace.battle.Army`) write theirs out, with
``@dataclass(frozen=True, init=False)``: it sets each field through `set_field`, as the
generated one does, so they stay frozen. A compiled class is unpickled through its
``__init__``, so they pickle as their fields (`by_fields`).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, init=False)
... class Pair:
...     a: int
...     b: int
...     def __init__(self, a: int, b: int) -> None:
...         set_field(self, "a", a)
...         set_field(self, "b", b)
...     def __reduce__(self): return by_fields(self)
>>> by_fields(Pair(1, 2))
(<class 'palace.records.Pair'>, (1, 2))
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final, TypeVar

from palace.native import PURE_ENV

_T = TypeVar("_T", bound=tuple[Any, ...])

if TYPE_CHECKING:

    def new_record(cls: type[_T], *values: Any) -> _T:
        """``tuple.__new__(cls, values)``: a named tuple straight from its fields."""
        ...

elif os.environ.get(PURE_ENV) != "1":
    try:  # built with the compiled engine (`make native`): one allocation, no field tuple
        from palace._records import new_record
    except ImportError:

        def new_record(cls, *values):
            return tuple.__new__(cls, values)

else:  # the pure-Python source runs the very same records through tuple.__new__

    def new_record(cls, *values):
        return tuple.__new__(cls, values)


set_field: Final = object.__setattr__
"""Set a field of a frozen dataclass from its own ``__init__``."""


def by_fields(record: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass: rebuilt by its class from its fields, in order."""
    return type(record), tuple(getattr(record, f.name) for f in fields(record))
