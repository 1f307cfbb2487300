"""One strict vocabulary for every file a user can load (saved hands and scenarios).

Bounded JSON (size, nesting, how many values), clean text (no lone UTF-16 surrogates, no
NUL or control characters, a length cap), player names, whole numbers that are not
booleans and lie in documented ranges. Every refusal raises the caller's `PalaceError`
subclass with a message that names the field and stays short: a value is never echoed
whole (`shown` cuts it).

>>> parse_json('{"seed": 7, "players": ["Ann", "Bob"]}', "hand.json")
{'seed': 7, 'players': ['Ann', 'Bob']}
>>> parse_json('{"seed": 1, "seed": 2}', "hand.json")
Traceback (most recent call last):
...
palace.errors.StateError: hand.json: the key 'seed' appears twice in one object
>>> name(" Ann ", "players[0]"), shown("x" * 100)
('Ann', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)")
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Callable
from typing import Any, NoReturn

from palace.errors import PalaceError, StateError
from palace.numbers import is_whole

# ------------------------------------------------------------------------------ limits
MAX_FILE_BYTES = 1 << 20  # 1 MB: the largest file (upload, data file, JSON text) read
MAX_DEPTH = 32  # objects and lists nested in one another (the formats need fewer than 10)
MAX_VALUES = 200_000  # values in one document, counted as it is read
MAX_TEXT = 4000  # characters in one text value (a summary, an answer, an event's sentence)
MAX_KEY = 64  # characters in one object key (field names, player names, zone names)
MAX_NAME = 40  # characters in a player's name
MAX_PLAYERS = 10  # R1.1
MAX_ACTIONS = 5000  # actions in one saved hand or scenario (each is replayed on load)
SEED_LIMIT = 2**63  # a seed is a whole number with |seed| < 2**63
MAX_STAKE = 1_000_000  # small bet, big bet, ante and discard cost
MAX_CHIPS = 1_000_000_000  # chips behind (stacks) and the amount of one bet or raise
MAX_RAISES = 1000  # Rules.max_raises
MAX_SHOWN = 48  # characters of a bad value quoted in a message
MAX_MESSAGE = 600  # characters in any refusal message

_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# names: no control characters at all, no line/paragraph separators, no bidi overrides
_BAD_NAME = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

ErrorType = type[PalaceError]


# ------------------------------------------------------------------------------ messages
def shown(value: Any, limit: int = MAX_SHOWN) -> str:
    """A short description of `value` for a message: never the whole of a big value.

    >>> shown(10**300), shown([1] * 9), shown(b"AB"), shown("\\ud800")
    ('a 301-digit number', 'a list of 9 items', "bytes b'AB'", "'\\\\ud800'")
    """
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        digits = _digits(value)
        return repr(value) if digits <= 24 else f"a {digits:,}-digit number"
    if isinstance(value, _HugeNumber):
        return f"a {value.digits:,}-digit number"
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    if isinstance(value, (bytes, bytearray)):
        head = bytes(value[:limit])
        return f"bytes {head!r}" + (f" ({len(value):,} bytes)" if len(value) > limit else "")
    if isinstance(value, (list, tuple)):
        word = "list" if isinstance(value, list) else "tuple"
        return f"a {word} of {len(value):,} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return f"an object with {len(value):,} key{'s' if len(value) != 1 else ''}"
    return f"a {type(value).__name__}"


def got(value: Any) -> str:
    """What a message says it got: ``text 'abc'``, ``the number 7``, ``true``, ``null``,
    ``a list of 3 items``, ``a 301-digit number``, ``bytes b'AB'``.

    >>> got("7"), got(7.0), got(True), got(None), got({"a": 1}), got(10**30)
    ("text '7'", 'the number 7.0', 'true', 'null', 'an object with 1 key', 'a 31-digit number')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"text {shown(value)}"
    if isinstance(value, (int, float)) and not shown(value).startswith("a "):
        return f"the number {shown(value)}"
    return shown(value)


def bounded(message: str, limit: int = MAX_MESSAGE) -> str:
    """`message` cut to `limit` characters (with "…" when cut)."""
    return message if len(message) <= limit else message[: limit - 1] + "…"


def printable(text: str, limit: int = MAX_TEXT) -> str:
    """`text` safe to show and send to a browser: bad characters become "�", cut to `limit`."""
    return bounded(_BAD_TEXT.sub("\ufffd", str(text)), limit)


def kind_of(value: Any) -> str:
    """The JSON name of a value's type, for messages: "text", "a number", "a list", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float, _HugeNumber)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__} (not a JSON value)"


def refuse(error: ErrorType, message: str) -> NoReturn:
    """Raise `error` with `message` cut to `MAX_MESSAGE`."""
    raise error(bounded(message))


def path(parent: str, key: str | int) -> str:
    """The path of a child value: ``players[1]``, ``rules.small_bet``, ``shares['a b']``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _PLAIN_KEY.match(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{shown(key, 24)}]"


def _digits(n: int) -> int:
    """Decimal digits of |n| (without building a string a huge int would refuse)."""
    n = abs(n)
    if n < 10**24:
        return len(str(n))
    return int(n.bit_length() * 0.30103) + 1


# ------------------------------------------------------------------------------ JSON text
class _HugeNumber:
    """A JSON number with too many digits to be a field of these formats (kept unconverted)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {self.digits:,}-digit number"


def _parse_int(text: str) -> int | _HugeNumber:
    digits = len(text.lstrip("-"))
    return _HugeNumber(digits) if digits > 30 else int(text)


def parse_json(
    text: str | bytes | bytearray,
    where: str,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    error: ErrorType = StateError,
    what: str = "file",
) -> Any:
    """Parse JSON text strictly, then `check_tree` it.

    Refused: more than `max_bytes` (UTF-8), bytes that are not UTF-8, bad JSON (line and
    column named), a key repeated in one object, ``NaN``/``Infinity``, numbers with more
    than 30 digits, nesting deeper than `MAX_DEPTH`, and whatever `check_tree` refuses.
    """
    if isinstance(text, str):
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            size = len(text.encode("utf-8", "surrogatepass"))
            refuse(
                error, f"{where}: the {what} is {size:,} bytes; the limit is {max_bytes:,} bytes"
            )
    elif isinstance(text, (bytes, bytearray, memoryview)):
        if len(text) > max_bytes:
            refuse(
                error,
                f"{where}: the {what} is {len(text):,} bytes; the limit is {max_bytes:,} bytes",
            )
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            refuse(error, f"{where}: not UTF-8 text (bad byte at offset {exc.start})")
    else:
        refuse(error, f"{where}: expected JSON text, got {shown(text)}")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                refuse(error, f"{where}: the key {shown(k)} appears twice in one object")
            out[k] = v
        return out

    def constant(name: str) -> Any:
        refuse(error, f"{where}: {name} is not allowed (use a number)")

    try:
        data = json.loads(
            text, object_pairs_hook=pairs, parse_constant=constant, parse_int=_parse_int
        )
    except json.JSONDecodeError as exc:
        refuse(
            error,
            f"{where}: the {what} is not valid JSON at line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}",
        )
    except RecursionError:
        refuse(error, f"{where}: the JSON is nested more than {MAX_DEPTH} deep")
    check_tree(data, where, error=error)
    return data


def check_tree(data: Any, where: str = "", *, error: ErrorType = StateError) -> None:
    """Refuse anything that is not plain, bounded JSON, naming the path of the first problem.

    Objects with text keys (at most `MAX_KEY` characters), lists (tuples pass as lists),
    text (`text` rules, at most `MAX_TEXT`), whole numbers with |n| < 2**63, finite
    floats, true/false and null; at most `MAX_DEPTH` levels and `MAX_VALUES` values.
    The walk uses no recursion, so a self-containing dict is refused, not a crash.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    count = 0

    def at(p: str) -> str:
        return f"{where}: {p}" if where and p else (p or where or "the document")

    while stack:
        value, p, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            refuse(error, f"{at('')}: more than {MAX_VALUES:,} values: too big to load")
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, str):
            text(value, at(p), required=False, error=error)
        elif isinstance(value, int):
            if not -SEED_LIMIT < value < SEED_LIMIT:
                refuse(error, f"{at(p)}: {shown(value)} is out of range (|n| < 2**63)")
        elif isinstance(value, _HugeNumber):
            refuse(error, f"{at(p)}: {shown(value)} is out of range (|n| < 2**63)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                refuse(error, f"{at(p)}: {value!r} is not allowed (use a finite number)")
        elif isinstance(value, (dict, list, tuple)):
            if depth >= MAX_DEPTH:
                refuse(error, f"{at(p)}: nested more than {MAX_DEPTH} deep")
            if isinstance(value, dict):
                if len(value) > MAX_VALUES:
                    refuse(error, f"{at(p)}: {shown(value)}: too big to load")
                for k, v in value.items():
                    if not isinstance(k, str):
                        refuse(error, f"{at(p)}: a key must be text, got {shown(k)}")
                    if len(k) > MAX_KEY or _BAD_NAME.search(k):
                        refuse(
                            error,
                            f"{at(p)}: the key {shown(k, 24)} is not a usable key (at most "
                            f"{MAX_KEY} characters, no control characters)",
                        )
                    stack.append((v, path(p, k), depth + 1))
            else:
                if len(value) > MAX_VALUES:
                    refuse(error, f"{at(p)}: {shown(value)}: too big to load")
                stack.extend((v, path(p, i), depth + 1) for i, v in enumerate(value))
        else:
            refuse(
                error,
                f"{at(p)} must be a JSON value (text, number, list, object, true/false or "
                f"null), got {shown(value)}",
            )


# ------------------------------------------------------------------------------ fields
def text(
    value: Any,
    where: str,
    *,
    limit: int = MAX_TEXT,
    required: bool = True,
    error: ErrorType = StateError,
) -> str:
    """Text of at most `limit` characters with no NUL, control characters (tab and line
    breaks are fine) or lone surrogates; `required`: not empty or blank."""
    if not isinstance(value, str):
        refuse(error, f"{where} must be text, got {got(value)}")
    if len(value) > limit:
        refuse(error, f"{where} is {len(value):,} characters long; at most {limit:,} are allowed")
    bad = _BAD_TEXT.search(value)
    if bad is not None:
        refuse(error, f"{where} holds the character {_char(bad.group())}, which is not allowed")
    if required and not value.strip():
        refuse(error, f"{where} must be non-empty text, got {shown(value)}")
    return value


def name(value: Any, where: str, *, error: ErrorType = StateError) -> str:
    """A player's name: text of 1 to `MAX_NAME` characters (spaces around it trimmed),
    with no control, line-separator or bidi-override characters."""
    if not isinstance(value, str):
        refuse(error, f"{where} must be a name (text), got {got(value)}")
    trimmed = value.strip()
    if not trimmed:
        refuse(error, f"{where} must be a non-empty name, got {shown(value)}")
    if len(trimmed) > MAX_NAME:
        refuse(
            error,
            f"{where} is {len(trimmed):,} characters long; a name has at most {MAX_NAME}",
        )
    bad = _BAD_NAME.search(trimmed)
    if bad is not None:
        refuse(error, f"{where} holds the character {_char(bad.group())}, not allowed in a name")
    return trimmed


def names(value: Any, where: str = "players", *, error: ErrorType = StateError) -> tuple[str, ...]:
    """A list of 2 to `MAX_PLAYERS` different names (R1.1); a tuple is taken as a list."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, (list, tuple)):
        refuse(
            error,
            f"{where} must be 2 to {MAX_PLAYERS} names in a list, got {got(value)} (R1.1)",
        )
    if not 2 <= len(value) <= MAX_PLAYERS:
        refuse(
            error,
            f"{where} names {len(value):,} players; Palace needs 2 to {MAX_PLAYERS} (R1.1)",
        )
    out: list[str] = []
    for i, item in enumerate(value):
        n = name(item, f"{where}[{i}]", error=error)
        if n in out:
            refuse(error, f"{where}[{i}] {shown(n)} is named twice; every name must differ")
        out.append(n)
    return tuple(out)


def whole(
    value: Any, where: str, *, lo: int, hi: int, note: str = "", error: ErrorType = StateError
) -> int:
    """A whole number (not true/false, not 2.0) from `lo` to `hi`; `note` ends the message."""
    if not is_whole(value) or not lo <= value <= hi:
        tail = f" {note}" if note else ""
        refuse(
            error,
            f"{where} must be a whole number {lo:,} to {hi:,}, got {got(value)}{tail}",
        )
    return value


def seed(value: Any, where: str = "seed", *, error: ErrorType = StateError) -> int:
    """A seed: a whole number with |seed| < 2**63."""
    if not is_whole(value) or not -SEED_LIMIT < value < SEED_LIMIT:
        refuse(
            error,
            f"{where} must be a whole number with |seed| < 2**63, got {got(value)}",
        )
    return value


def optional(check: Callable[..., Any], value: Any, *args: Any, **kwargs: Any) -> Any:
    """`None` stays `None`; anything else goes through `check`."""
    return None if value is None else check(value, *args, **kwargs)


def known_keys(
    data: dict[str, Any], known: tuple[str, ...], where: str, *, error: ErrorType = StateError
) -> None:
    """Refuse a key that is not in `known`, suggesting the nearest one."""
    for key in data:
        if key not in known:
            near = difflib.get_close_matches(str(key)[:MAX_KEY], known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            refuse(
                error,
                f"{where}: unknown field {shown(key, 24)}{hint}; known fields: {', '.join(known)}",
            )


def card_text(value: Any, where: str, *, error: ErrorType = StateError) -> Any:
    """Cards as a file gives them: text such as ``"As Kd"`` or a list of short card texts,
    at most 52 cards; what the cards are is checked by `palace.cards` afterwards."""
    if isinstance(value, str):
        return text(value, where, limit=52 * 4, required=False, error=error)
    if isinstance(value, (list, tuple)):
        if len(value) > 52:
            refuse(error, f"{where} lists {len(value):,} cards; a deck has 52")
        for i, item in enumerate(value):
            if not isinstance(item, str) or len(item) > 8:
                refuse(
                    error,
                    f"{where}[{i}] must be a card such as 'As', got {got(item)}",
                )
            text(item, f"{where}[{i}]", required=False, error=error)
        return value
    refuse(
        error,
        f"{where} must be cards as text such as 'As Kd' or a list of cards, got {got(value)}",
    )


def _char(c: str) -> str:
    """A character a message can show: ``U+D800 (a lone UTF-16 surrogate)``."""
    n = ord(c)
    if 0xD800 <= n <= 0xDFFF:
        what = "a lone UTF-16 surrogate"
    elif n == 0:
        what = "NUL"
    elif n < 0x20 or 0x7F <= n <= 0x9F:
        what = "a control character"
    elif n in (0x2028, 0x2029):
        what = "a line or paragraph separator"
    else:
        what = "a text-direction control"
    return f"U+{n:04X} ({what})"
