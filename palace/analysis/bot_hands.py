"""Seeded bot hands: who sits at each seat, one hand played out, and the numbers studies add up.

Hand ``i`` of a run with seed ``s`` is always dealt with seed ``s + i`` and dealer
``i % players``, so a hand's outcome depends only on (seed, i): splitting the hands into
shards of any size, on any number of workers, plays exactly the same hands.

>>> from palace.rules import Rules
>>> totals = hand_totals(Rules(), players=3, seed=5, bot="rules", start=0, stop=4)
>>> totals["hands"], len(totals["won"])
(4, 3)
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from palace.analysis.bots import Bot, RandomBot, RuleBot, play_out
from palace.errors import PalaceError
from palace.events import EventKind
from palace.game import Game
from palace.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

BOTS = ("mixed", "rules", "random")
"""Who plays: "mixed" (rule bots at even seats, random bots at odd), all "rules" or "random"."""


def check_bot(bot: object) -> str:
    """`bot` if it names a line-up in `BOTS`, else a `PalaceError` naming the field."""
    if bot not in BOTS:
        raise PalaceError(f"bot must be one of {', '.join(map(repr, BOTS))}, got {bot!r}")
    return str(bot)


def seat_bots(bot: str, players: int, seed: int, hand: int) -> dict[int, Bot]:
    """The bots of hand `hand`: each `RandomBot` is seeded from (seed, hand, seat)."""
    check_bot(bot)

    def pick(seat: int) -> Bot:
        if bot == "rules" or (bot == "mixed" and seat % 2 == 0):
            return RuleBot()
        return RandomBot(seed + 31 * hand + seat)

    return {s: pick(s) for s in range(players)}


def play_hand(rules: Rules, players: int, seed: int, hand: int, bot: str = "mixed") -> Game:
    """Hand `hand` of a seeded run, played to the end: seed ``seed + hand``, dealer
    ``hand % players``, bots from `seat_bots`."""
    game = Game.new(players=players, seed=seed + hand, rules=rules, dealer=hand % players)
    return play_out(game, seat_bots(bot, players, seed, hand))


_BET: Final = EventKind.BET
_BATTLE: Final = EventKind.BATTLE


def _reason(reason: object) -> str:
    return str(reason.value) if isinstance(reason, Enum) else str(reason)


def hand_row(game: Game, hand: int) -> dict[str, Any]:
    """One finished hand in numbers: actions, pot, battles (attacks), battle showdowns,
    how it ended, how many shared the pot, and the chips won by seat position
    (position 1 is the player left of the dealer, who acts first, R6.1)."""
    actions, pot, battles, showdowns, ending, winners, won = _figures(game, hand)
    return {
        "hand": hand,
        "actions": actions,
        "pot": pot,
        "battles": battles,
        "showdowns": showdowns,
        "ending": ending,
        "winners": winners,
        **{f"won pos {p + 1}": won[p] for p in range(len(won))},
    }


def _figures(game: Game, hand: int) -> tuple[int, int, int, int, str, int, list[int]]:
    """`hand_row`'s figures, in its order (the won chips by seat position as a list)."""
    res = game.result
    if res is None:
        raise PalaceError(f"hand {hand} is not over yet")
    n = game.players
    won = [0] * n
    for seat, chips in res.shares.items():
        won[(seat - game.dealer - 1) % n] += chips
    battles = showdowns = 0
    for e in game.events:
        kind = e[1]  # its kind, by position (a named tuple's attribute is a Python lookup)
        if kind is _BET:
            battles += 1
        elif kind is _BATTLE:
            showdowns += 1
    ending = _reason(res.reason)
    return len(game.actions), sum(game.won), battles, showdowns, ending, len(res.winners), won


def play_hands(
    rules: Rules, hands: int, players: int = 4, seed: int = 0, bot: str = "mixed"
) -> pd.DataFrame:
    """One row per seeded bot hand (`hand_row`), hands ``0 .. hands-1``."""
    import pandas as pd

    rows = [hand_row(play_hand(rules, players, seed, i, bot), i) for i in range(hands)]
    return pd.DataFrame(rows)


_pause_lock = threading.Lock()
_pauses = [0, 1]  # studies running in this process; was the collector on before the first


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while hands are played (nested and threaded uses
    count; the last one out restores it). A hand makes no reference cycles (a test checks
    this), so the collector only walks every live object again and again: 10-15% of a
    study's time."""
    with _pause_lock:
        if _pauses[0] == 0:
            _pauses[1] = int(gc.isenabled())
            gc.disable()
        _pauses[0] += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses[0] -= 1
            if _pauses[0] == 0 and _pauses[1]:
                gc.enable()


def hand_totals(
    rules: Rules, *, players: int, seed: int, bot: str, start: int, stop: int
) -> dict[str, Any]:
    """Whole-number totals over hands ``start .. stop-1`` (one shard of a variant study):
    hands, actions, pot, battles, showdowns, endings by reason, shared pots and the chips
    won by each seat position. Totals of shards add up to the totals of the whole run."""
    out: dict[str, Any] = {
        "hands": 0,
        "actions": 0,
        "pot": 0,
        "battles": 0,
        "showdowns": 0,
        "shared": 0,
        "endings": {},
        "won": [0] * players,
    }
    with collector_paused():
        for i in range(start, stop):
            _add_hand(out, _figures(play_hand(rules, players, seed, i, bot), i))
    return out


def _add_hand(out: dict[str, Any], figures: tuple[int, int, int, int, str, int, list[int]]) -> None:
    actions, pot, battles, showdowns, ending, winners, won = figures
    out["hands"] += 1
    out["actions"] += actions
    out["pot"] += pot
    out["battles"] += battles
    out["showdowns"] += showdowns
    out["shared"] += winners > 1
    endings = out["endings"]
    endings[ending] = endings.get(ending, 0) + 1
    total = out["won"]
    for p in range(len(won)):
        total[p] += won[p]


def averages(totals: dict[str, Any]) -> dict[str, float]:
    """A variant study's column from its totals: averages per hand and shares in %."""
    n = totals["hands"]
    won = totals["won"]
    chips = sum(won)
    endings = totals["endings"]
    return {
        "hands": float(n),
        "actions per hand": totals["actions"] / n,
        "pot": totals["pot"] / n,
        "battles per hand": totals["battles"] / n,
        "battle showdowns per hand": totals["showdowns"] / n,
        "ended by showdown %": 100 * endings.get("showdown", 0) / n,
        "last standing %": 100 * endings.get("last standing", 0) / n,
        "pot shared %": 100 * totals["shared"] / n,
        **{f"chips to pos {p + 1} %": 100 * w / chips if chips else 0.0 for p, w in enumerate(won)},
    }
