"""The table's rule variants (RULES.md R3, R6.4, R7.6, R7.7, R9.1) as one frozen, validated `Rules`.

>>> Rules().ante_amount, Rules(small_bet=5, big_bet=10).ante_amount
(1, 2)
>>> Rules(structure="pot-limit")
Traceback (most recent call last):
...
palace.errors.RulesError: Rules.structure must be 'limit' or 'no-limit', got 'pot-limit' (R3.3)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from palace import strict
from palace.errors import RulesError
from palace.numbers import is_whole

QUIET_KINDS = ("stay", "discard", "fold")
MAX_SOLDIERS = 5  # R6.7


def _int_field(name: str, value: object, *, minimum: int, allow_none: bool, rule: str) -> None:
    if value is None and allow_none:
        return
    if not is_whole(value) or value < minimum:
        kind = "a whole number" + (" or None" if allow_none else "")
        raise RulesError(f"Rules.{name} must be {kind} >= {minimum}, got {value!r} ({rule})")


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Stakes and every variant RULES.md names, with its default.

    small_bet / big_bet: `s` and `b` (R3). ante: None means floor(s/2) (R3.1).
    structure: "limit" or "no-limit" (R3.3). stacks: None for unlimited chips, or the
    chips each player starts with (R3.4). discard_cost: None means `s` (R6.4).
    call_matches_attack: the defender calls the attacker's amount instead of their own
    army's (R7.6). max_raises: cap on raises in one battle, None unlimited (R7.7).
    quiet_actions: the turn actions that count towards a quiet round (R9.1).
    """

    small_bet: int = 2
    big_bet: int = 4
    ante: int | None = None
    structure: Literal["limit", "no-limit"] = "limit"
    stacks: int | None = None
    discard_cost: int | None = None
    call_matches_attack: bool = False
    max_raises: int | None = None
    quiet_actions: tuple[str, ...] = field(default=QUIET_KINDS)

    def __post_init__(self) -> None:
        _int_field("small_bet", self.small_bet, minimum=1, allow_none=False, rule="R3")
        _int_field("big_bet", self.big_bet, minimum=1, allow_none=False, rule="R3")
        if self.big_bet < self.small_bet:
            raise RulesError(
                f"Rules.big_bet ({self.big_bet}) must be at least Rules.small_bet "
                f"({self.small_bet}) (R3)"
            )
        _int_field("ante", self.ante, minimum=0, allow_none=True, rule="R3.1")
        if self.structure not in ("limit", "no-limit"):
            raise RulesError(
                f"Rules.structure must be 'limit' or 'no-limit', got {self.structure!r} (R3.3)"
            )
        _int_field("stacks", self.stacks, minimum=1, allow_none=True, rule="R3.4")
        _int_field("discard_cost", self.discard_cost, minimum=0, allow_none=True, rule="R6.4")
        if not isinstance(self.call_matches_attack, bool):
            raise RulesError(
                f"Rules.call_matches_attack must be True or False, got "
                f"{self.call_matches_attack!r} (R7.6)"
            )
        _int_field("max_raises", self.max_raises, minimum=0, allow_none=True, rule="R7.7")
        qa = self.quiet_actions
        if isinstance(qa, str) or not isinstance(qa, (tuple, list, frozenset, set)):
            raise RulesError(
                f"Rules.quiet_actions must be a collection of {QUIET_KINDS}, got {qa!r} (R9.1)"
            )
        bad = [k for k in qa if k not in QUIET_KINDS]
        if bad:
            raise RulesError(
                f"Rules.quiet_actions may only name {', '.join(QUIET_KINDS)}; got {bad[0]!r} (R9.1)"
            )
        object.__setattr__(self, "quiet_actions", tuple(k for k in QUIET_KINDS if k in qa))

    @property
    def ante_amount(self) -> int:
        """Each player's ante: `ante`, or floor(s / 2) by default (R3.1)."""
        return self.small_bet // 2 if self.ante is None else self.ante

    @property
    def discard_amount(self) -> int:
        """The price of a Discard action: `discard_cost`, or `s` by default (R6.4)."""
        return self.small_bet if self.discard_cost is None else self.discard_cost

    @property
    def no_limit(self) -> bool:
        """True for the no-limit structure (R3.3)."""
        return self.structure == "no-limit"

    def changes(self) -> dict[str, Any]:
        """The fields that differ from the defaults, for labels and tables.

        >>> Rules(structure="no-limit", discard_cost=0).changes()
        {'structure': 'no-limit', 'discard_cost': 0}
        """
        default = Rules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def label(self) -> str:
        """Short human label: ``"standard"`` or ``"structure=no-limit, discard_cost=0"``."""
        ch = self.changes()
        return ", ".join(f"{k}={v}" for k, v in ch.items()) if ch else "standard"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        d = asdict(self)
        d["quiet_actions"] = list(self.quiet_actions)
        return d

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from a dict (a file's JSON); every bad value raises `RulesError` naming the
        field, in a short message. Stakes are whole numbers up to `strict.MAX_STAKE`, stacks
        up to `strict.MAX_CHIPS`, `max_raises` up to `strict.MAX_RAISES`."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of Rules fields, got {strict.got(data)}")
        names = sorted(f.name for f in fields(cls))
        for key in data:
            if key not in names:
                raise RulesError(
                    f"unknown Rules field {strict.shown(key, 24)}; known: {', '.join(names)}"
                )
        numbers = {
            "small_bet": (1, strict.MAX_STAKE, "R3"),
            "big_bet": (1, strict.MAX_STAKE, "R3"),
            "ante": (0, strict.MAX_STAKE, "R3.1"),
            "stacks": (1, strict.MAX_CHIPS, "R3.4"),
            "discard_cost": (0, strict.MAX_STAKE, "R6.4"),
            "max_raises": (0, strict.MAX_RAISES, "R7.7"),
        }
        kwargs = dict(data)
        for key, (lo, hi, rule) in numbers.items():
            if kwargs.get(key) is not None:  # None: the default (the constructor checks it)
                strict.whole(
                    kwargs[key], f"Rules.{key}", lo=lo, hi=hi, note=f"({rule})", error=RulesError
                )
        structure = kwargs.get("structure", "limit")
        if not isinstance(structure, str) or structure not in ("limit", "no-limit"):
            raise RulesError(
                "Rules.structure must be 'limit' or 'no-limit', got "
                f"{strict.shown(structure)} (R3.3)"
            )
        if not isinstance(kwargs.get("call_matches_attack", False), bool):
            raise RulesError(
                "Rules.call_matches_attack must be true or false, got "
                f"{strict.shown(kwargs['call_matches_attack'])} (R7.6)"
            )
        if "quiet_actions" in kwargs:
            qa = kwargs["quiet_actions"]
            if not isinstance(qa, (list, tuple)) or any(
                not isinstance(k, str) or k not in QUIET_KINDS for k in qa
            ):
                raise RulesError(
                    f"Rules.quiet_actions must be a list of {', '.join(QUIET_KINDS)}, got "
                    f"{strict.shown(qa)} (R9.1)"
                )
            kwargs["quiet_actions"] = tuple(qa)
        return cls(**kwargs)
