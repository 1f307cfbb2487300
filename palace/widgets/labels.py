"""Plain words for what a panel shows: a table's rules and stakes, seats, the legend of marks.

>>> from palace.rules import Rules
>>> rules_words(Rules())
'standard rules, stakes 2/4'
>>> rules_words(Rules(structure="no-limit", call_matches_attack=False, stacks=50))
'no-limit, the defender pays by their own army, 50 chips each, stakes 2/4'
>>> rules_words(Rules(max_raises=1, quiet_actions=("stay", "discard", "fold"), max_turns=1))
'at most 1 raise a battle, at most 1 turn, stakes 2/4'
"""

from __future__ import annotations

from palace.rules import QUIET_KINDS, Rules
from palace.widgets.theme import esc, rule_badge
from palace.words import joined, plural

LEGEND_ITEMS = {
    "best": ("palace-legend-best", "gold ring: a card of the best five"),
    "struck": ("palace-legend-struck", "red line: a card that does not count (R8.2)"),
    "act": ("palace-legend-act", "gold frame: the player to act"),
    "focus": ("palace-legend-focus", "blue frame: the player this event is about"),
    "seen": ("palace-legend-seen", "blue ring: a palace card seen in a battle"),
}


def stakes_words(rules: Rules) -> str:
    """``"stakes 2/4"``: the small bet s and the big bet b (R3)."""
    return f"stakes {rules.small_bet}/{rules.big_bet}"


def rules_words(rules: Rules) -> str:
    """The table's rules in words a learner can read (never ``field=value``)."""
    parts: list[str] = []
    ch = rules.changes()
    if "structure" in ch:
        parts.append(rules.structure)
    if "call_matches_attack" in ch:
        default = Rules(structure=rules.structure).calls_match_attack
        if rules.calls_match_attack != default:
            parts.append(
                "the defender matches the attack"
                if rules.calls_match_attack
                else "the defender pays by their own army"
            )
    if "stacks" in ch and rules.stacks is not None:
        parts.append(f"{plural(rules.stacks, 'chip')} each")
    if "ante" in ch and rules.ante is not None:
        parts.append(f"ante {plural(rules.ante, 'chip')}" if rules.ante else "no ante")
    if "discard_cost" in ch and rules.discard_cost is not None:
        cost = rules.discard_cost
        parts.append(f"discard {plural(cost, 'chip')}" if cost else "free discard")
    if "max_raises" in ch and rules.max_raises is not None:
        n = rules.max_raises
        parts.append(f"at most {plural(n, 'raise')} a battle" if n else "no raises")
    if "quiet_actions" in ch:
        quiet = [k.capitalize() for k in QUIET_KINDS if k in rules.quiet_actions]
        parts.append("quiet: " + (joined(quiet) if quiet else "nothing"))
    if "two_left" in ch:
        parts.append("two left: Bet or Fold at once")
    if "max_turns" in ch:
        parts.append(f"at most {plural(rules.max_turns, 'turn')}")
    if {"ranks", "suits", "palace_cards", "max_soldiers"} & ch.keys():
        parts.append("a small deck")
    if not parts:
        parts.append("standard rules")
    parts.append(stakes_words(rules))
    return ", ".join(parts)


def legend_html(*items: str) -> str:
    """A small legend of the marks a panel uses (best five, struck card, to act, ...)."""
    keys = items or ("best", "struck", "act", "focus")
    cells = []
    for key in keys:
        swatch, words = LEGEND_ITEMS[key]
        text, _, rule = words.partition(" (")
        badge = f" {rule_badge(rule.rstrip(')'))}" if rule else ""
        cells.append(
            f'<span class="palace-legend-item"><span class="palace-legend-swatch {swatch}" '
            f'aria-hidden="true"></span>{esc(text)}{badge}</span>'
        )
    return (
        '<div class="palace-legend" role="note" aria-label="What the marks mean">'
        f"{''.join(cells)}</div>"
    )


def legend_text(*items: str) -> str:
    """The legend in plain text."""
    keys = items or ("best", "struck", "act", "focus")
    return "Marks: " + "; ".join(LEGEND_ITEMS[k][1] for k in keys)
