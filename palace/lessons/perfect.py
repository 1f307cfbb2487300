"""Lesson 9's sentences about the solved small game, written from its rules and stored tables.

>>> from palace.rules import Rules
>>> print(small_game_story(Rules(ranks="QKA", suits="hs", palace_cards=1, max_soldiers=1,
...                              max_raises=1, max_turns=3)))  # doctest: +NORMALIZE_WHITESPACE
Two players: Ann deals and Bob, on her left, acts first (R6.1); the tables call Bob "the
first seat" and Ann "the dealer". The deck is the 6 cards Q♥ K♥ A♥ Q♠ K♠ A♠; each player
antes 1 chip (R3.1) and gets 1 palace card; at most 1 soldier (R6.7) and 1 raise a battle
(R7.7); a hand that reaches its 3rd turn ends in a showdown.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from palace.game import Game
from palace.rules import Rules
from palace.words import plural

if TYPE_CHECKING:  # pandas is loaded by the tables these helpers read
    import pandas as pd

DEALER_SEAT = 0
"""The seat that deals in the solved small game (``palace.analysis.solver.DEALER``)."""


def small_game_story(rules: Rules, dealer: int = DEALER_SEAT) -> str:
    """Who deals and who acts first in the small game, and its sizes, from a dealt game."""
    game = Game.new(players=2, seed=0, rules=rules, dealer=dealer)
    first = game.to_act
    assert first is not None
    d, f = game.names[game.dealer], game.names[first]
    deck = " ".join(c.symbol for c in rules.deck())
    raises = rules.max_raises if rules.max_raises is not None else "any number of"
    return (
        f"Two players: {d} deals and {f}, on her left, acts first (R6.1); the tables call {f} "
        f'"the first seat" and {d} "the dealer". The deck is the {len(rules.deck())} cards '
        f"{deck}; each player antes {plural(game.put_in[0], 'chip')} (R3.1) and gets "
        f"{plural(rules.palace_cards, 'palace card')}; at most "
        f"{plural(rules.max_soldiers, 'soldier')} (R6.7) and {raises} "
        f"{'raise' if raises == 1 else 'raises'} a battle (R7.7); a hand that reaches its "
        f"{_ordinal(rules.max_turns)} turn ends in a showdown."
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def move_lines(table: pd.DataFrame, rows: Iterable[str]) -> str:
    """Rows of a strategy table (actions in %), each with its actions from the most often.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"attack": [46.3], "buy": [18.2], "stay": [35.5]}, index=["A, K"])
    >>> print(move_lines(t, ["A, K"]))
    A, K: attack 46%, stay 36%, buy 18%.
    """
    lines = []
    for row in rows:
        values = table.loc[[row]].to_numpy(dtype=float)[0]
        shares = sorted(zip(table.columns, values, strict=True), key=lambda kv: -kv[1])
        parts = ", ".join(f"{kind} {share:.0f}%" for kind, share in shares)
        lines.append(f"{row}: {parts}.")
    return "\n".join(lines)


def most_often(table: pd.DataFrame, row: str) -> str:
    """The action a strategy table's row takes most often."""
    return str(table.loc[row].idxmax())
