"""Named rule variants (one list for the studies, the app and lesson 7) and side-by-side hands.

Each `Variant` has a stable slug (for code, URLs and files), a label a learner reads and its
`Rules`. Adding a variant is one entry in `VARIANTS`; the app's menus, the Explore tab, the
study tables and lesson 7 all read this list.

>>> variant("no-limit").rules.structure
'no-limit'
>>> variant("standard").rules == Rules()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.game import Game
from palace.rules import Rules
from palace.table import DEFAULT_NAMES

if TYPE_CHECKING:  # pandas is loaded by the functions that build tables, not on import
    import pandas as pd


@dataclass(frozen=True)
class Variant:
    """A named rule variant: `slug` for code and files, `label` for people, and its `Rules`."""

    slug: str
    label: str
    rules: Rules


def by_slug(*variants: Variant) -> dict[str, Variant]:
    table: dict[str, Variant] = {}
    for v in variants:
        if v.slug in table or any(v.label == w.label for w in table.values()):
            raise PalaceError(f"variant {v.slug!r} is named twice")
        table[v.slug] = v
    return table


VARIANTS: dict[str, Variant] = by_slug(
    Variant("standard", "standard (limit)", Rules()),
    Variant("no-limit", "no-limit (R3.3)", Rules(structure="no-limit")),
    Variant("20-chips", "20 chips each (R3.4)", Rules(stacks=20)),
    Variant(
        "no-limit-20-chips",
        "no-limit, 20 chips each (R3.3, R3.4)",
        Rules(structure="no-limit", stacks=20),
    ),
    Variant("call-matches-attack", "call matches attack (R7.6)", Rules(call_matches_attack=True)),
    Variant(
        "no-limit-own-call",
        "no-limit, call sized by own army (R7.6)",
        Rules(structure="no-limit", call_matches_attack=False),
    ),
    Variant("two-left-at-once", "two left battle at once (R9.3)", Rules(two_left="at_once")),
    Variant("free-discard", "free discard (R6.4)", Rules(discard_cost=0)),
    Variant("one-raise", "one raise per battle (R7.7)", Rules(max_raises=1)),
    Variant("only-stay-quiet", "only Stay is quiet (R9.1)", Rules(quiet_actions=("stay",))),
)
"""Every named variant by slug, in menu order; the first is the standard rules."""

STANDARD = "standard"


def variant(slug: str) -> Variant:
    """The variant named `slug`; a `PalaceError` naming the known slugs otherwise."""
    try:
        return VARIANTS[slug]
    except (KeyError, TypeError):
        raise PalaceError(f"unknown variant {slug!r}; known: {', '.join(VARIANTS)}") from None


def named(slugs: Iterable[str] | None = None) -> dict[str, Rules]:
    """``{label: Rules}`` for `slugs` (all variants when None), ready for `compare_variants`."""
    chosen = [variant(s) for s in (VARIANTS if slugs is None else slugs)]
    return {v.label: v.rules for v in chosen}


def _winner_names(row: pd.Series, hand: int, players: int) -> str:
    """Winners of a `play_hands` row, by name: position p (1 = left of the dealer) is seat
    (dealer + p) % players, and `play_hands` deals hand i with dealer i % players."""
    dealer = hand % players
    won = [
        DEFAULT_NAMES[(dealer + p) % players]
        for p in range(1, players + 1)
        if row[f"won pos {p}"] > 0
    ]
    return " & ".join(sorted(won, key=DEFAULT_NAMES.index)) or "—"


def side_by_side(
    seed: int,
    rules_a: Rules,
    rules_b: Rules,
    *,
    hands: int = 8,
    players: int = 4,
    bot: str = "rules",
) -> pd.DataFrame:
    """The same seeded bot hands under two rule sets, one row per hand, and what changed.

    Both columns come from `palace.analysis.bot_hands.play_hands` (same seeds, same bots), so
    a difference is the rules' doing. Columns: pot, battles, winner, ending under each
    variant (labelled by `Rules.label()`), then "what changed".
    """
    import pandas as pd

    from palace.analysis.bot_hands import play_hands

    a = play_hands(rules_a, hands, players, seed, bot)
    b = play_hands(rules_b, hands, players, seed, bot)
    la, lb = rules_a.label(), rules_b.label()
    if la == lb:
        lb += " (B)"
    rows = []
    for i in range(hands):
        ra, rb = a.iloc[i], b.iloc[i]
        wa, wb = _winner_names(ra, i, players), _winner_names(rb, i, players)
        changes = []
        if wa != wb:
            changes.append(f"winner {wa}→{wb}")
        if ra["ending"] != rb["ending"]:
            changes.append(f"ends by {rb['ending']}")
        if ra["battles"] != rb["battles"]:
            changes.append(f"battles {ra['battles']}→{rb['battles']}")
        if ra["pot"] != rb["pot"]:
            changes.append(f"pot {ra['pot']}→{rb['pot']}")
        rows.append(
            {
                (la, "pot"): int(ra["pot"]),
                (la, "battles"): int(ra["battles"]),
                (la, "winner"): wa,
                (la, "ending"): ra["ending"],
                (lb, "pot"): int(rb["pot"]),
                (lb, "battles"): int(rb["battles"]),
                (lb, "winner"): wb,
                (lb, "ending"): rb["ending"],
                ("", "what changed"): "; ".join(changes) or "nothing",
            }
        )
    columns: list[tuple[str, str]] = list(rows[0]) if rows else []
    df = pd.DataFrame(rows, columns=pd.MultiIndex.from_tuples(columns))
    df.index = pd.RangeIndex(hands, name="hand")
    return df


def variant_game(
    rules: Rules, seed: int, hand: int = 0, *, players: int = 4, bot: str = "rules"
) -> Game:
    """Hand `hand` of `side_by_side` / `play_hands` (same seed, dealer and bots), replayed."""
    from palace.analysis.bot_hands import play_hand

    return play_hand(rules, players, seed, hand, bot)


SUMMARY_ROWS = (
    "pot",
    "battles per hand",
    "battle showdowns per hand",
    "ended by showdown %",
    "last standing %",
    "pot shared %",
    "actions per hand",
)


def variant_summary(
    variants: Mapping[str, Rules],
    *,
    hands: int = 200,
    seed: int = 2026,
    players: int = 4,
    bot: str = "rules",
) -> pd.DataFrame:
    """Averages over many seeded hands (the serial form of `studies.compare_variants`), the
    rows a lesson reads: pot, battles and showdowns per hand, how hands end, actions per hand."""
    import pandas as pd

    from palace.analysis.bot_hands import averages, hand_totals

    cols = {
        label: averages(
            hand_totals(rules, players=players, seed=seed, bot=bot, start=0, stop=hands)
        )
        for label, rules in variants.items()
    }
    return pd.DataFrame(cols).round(2).loc[list(SUMMARY_ROWS)]


@dataclass(frozen=True)
class Divergence:
    """Where two replays of one hand first differ: the event number and both sentences."""

    index: int | None
    a: str
    b: str

    def __str__(self) -> str:
        if self.index is None:
            return "The two hands are event for event the same."
        return f"First difference at event #{self.index}:\n  A: {self.a}\n  B: {self.b}"


def first_difference(game_a: Game, game_b: Game) -> Divergence:
    """The first event whose sentence differs between two games (None when none does)."""
    ea, eb = game_a.events, game_b.events
    for i in range(max(len(ea), len(eb))):
        ta = f"{ea[i].text} ({ea[i].rule})" if i < len(ea) else "(the hand is over)"
        tb = f"{eb[i].text} ({eb[i].rule})" if i < len(eb) else "(the hand is over)"
        if ta != tb:
            return Divergence(i, ta, tb)
    return Divergence(None, "", "")
