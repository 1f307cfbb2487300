"""Plain words for what a panel shows: a table's rules and stakes, seats, the legend of marks.

>>> from palace.rules import Rules
>>> rules_words(Rules())
'standard rules, stakes 2/4'
>>> rules_words(Rules(structure="no-limit", call_matches_attack=False, stacks=50))
'no-limit, the defender pays by their own army, 50 chips each, stakes 2/4'
"""

from __future__ import annotations

from palace.rules import QUIET_KINDS, Rules
from palace.widgets.theme import esc, rule_badge

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
    if "stacks" in ch:
        parts.append(f"{rules.stacks} chips each")
    if "ante" in ch:
        parts.append(f"ante {rules.ante}")
    if "discard_cost" in ch:
        parts.append("free discard" if rules.discard_cost == 0 else f"discard {rules.discard_cost}")
    if "max_raises" in ch:
        parts.append(f"at most {rules.max_raises} raises a battle")
    if "quiet_actions" in ch:
        quiet = [k.capitalize() for k in QUIET_KINDS if k in rules.quiet_actions]
        parts.append("quiet: " + (" and ".join(quiet) if quiet else "nothing"))
    if "two_left" in ch:
        parts.append("two left: Bet or Fold at once")
    if "max_turns" in ch:
        parts.append(f"at most {rules.max_turns} turns")
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
