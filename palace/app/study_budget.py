"""How much computing an Explore study asks for, worked out before it runs, and the cap.

A study with rule, random or mixed bots costs about `UnitCosts.hand_seat` CPU seconds a hand
for each player and variant; one with search bots about `UnitCosts.search_unit` a hand for
each simulation, player² and variant (a search bot searches every world to the end of the
hand, and there are more seats to search for and more moves a hand as players are added).
The figures are the upper end of what ``bench/explore_budget.py`` measures for the compiled
engine and for its pure-Python source (a machine without a C compiler runs the source), so
an estimate errs on the long side. Explore refuses a study whose estimate is over
`MAX_STUDY_SECONDS`, about four minutes of one core's computing, and says how many hands fit.

>>> study_seconds("rules", hands=1_000, players=4, variants=5, compiled=True)
3.0
>>> hands_that_fit("rules", players=4, variants=5, compiled=True)
80000
>>> hands_that_fit("search", players=4, variants=5, simulations=16, compiled=True)
535
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_STUDY_SECONDS: Final = 240.0
"""The cap on one Explore study: about four minutes of one core's computing."""

SEARCH: Final = "search"
SEARCH_SIMULATIONS: Final = 16
"""The search bots' worlds per decision in Explore unless the user asks for more or fewer
(small, so that a study of a few hundred hands stays within a minute or two); the search
costs below were measured at this depth."""


@dataclass(frozen=True)
class UnitCosts:
    """CPU seconds of a unit of a study's work on one engine (bench/explore_budget.py)."""

    hand_seat: float
    """One hand for one player, rule, random or mixed bots (the rule bots' cost, the highest)."""
    search_unit: float
    """One hand per simulation per player², search bots."""


COMPILED_COSTS: Final = UnitCosts(hand_seat=1.5e-4, search_unit=3.5e-4)
"""The compiled engine (`make native`): measured at most 0.11 ms a hand-seat and 0.27 ms a
search unit, over 2-10 players, every named variant and 16 simulations."""

PURE_COSTS: Final = UnitCosts(hand_seat=6e-4, search_unit=1.1e-3)
"""The pure-Python source: measured at most 0.43 ms a hand-seat and 0.85 ms a search unit."""


def unit_costs(compiled: bool | None = None) -> UnitCosts:
    """The costs of the engine in use (`compiled` None), or of the one named."""
    if compiled is None:
        from palace.native import is_compiled

        compiled = is_compiled()
    return COMPILED_COSTS if compiled else PURE_COSTS


def study_seconds(
    bot: str,
    hands: int,
    players: int,
    variants: int = 1,
    simulations: int = SEARCH_SIMULATIONS,
    *,
    compiled: bool | None = None,
) -> float:
    """The estimated CPU seconds of a study: `hands` each under `variants` variants.

    >>> study_seconds("search", hands=100, players=2, variants=2, simulations=16, compiled=False)
    14.08
    """
    costs = unit_costs(compiled)
    if bot == SEARCH:
        per_hand = costs.search_unit * simulations * players**2
    else:
        per_hand = costs.hand_seat * players
    return round(per_hand * hands * variants, 6)


def hands_that_fit(
    bot: str,
    players: int,
    variants: int = 1,
    simulations: int = SEARCH_SIMULATIONS,
    *,
    seconds: float = MAX_STUDY_SECONDS,
    compiled: bool | None = None,
) -> int:
    """The most hands each that a study may play within `seconds` (at least 1)."""
    one = study_seconds(bot, 1, players, variants, simulations, compiled=compiled)
    return max(1, int(seconds / one))


def round_down(n: int) -> int:
    """`n` rounded down to two significant figures, for a number of hands said in a note.

    >>> round_down(92307), round_down(535), round_down(7)
    (92000, 530, 7)
    """
    step = 10 ** max(0, len(str(n)) - 2)
    return n - n % step


def said(seconds: float) -> str:
    """A duration as Explore says it: ``"5 s"``, ``"4.0 minutes"``.

    >>> said(0.2), said(59.6), said(240)
    ('1 s', '60 s', '4.0 minutes')
    """
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{seconds / 60:.1f} minutes"
