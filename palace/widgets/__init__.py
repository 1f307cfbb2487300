"""Jupyter panels for Palace Poker: cards, table, stepper, play, battles, exclusion, quizzes.

Each panel is imported when first named (``from palace.widgets import TableView``), so a
page that shows one panel does not load the others (issue 26).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palace.widgets.action_picker import ActionPicker
    from palace.widgets.battle_view import BattleView
    from palace.widgets.card_rows import CardRows
    from palace.widgets.cards import CardRow, backs_html, card_html, cards_html, with_css
    from palace.widgets.exclusion_explorer import ExclusionExplorer
    from palace.widgets.play_panel import PlayPanel
    from palace.widgets.quiz import CheckYourself
    from palace.widgets.session import PlayController
    from palace.widgets.stepper import DealStepper
    from palace.widgets.table_view import TableView
    from palace.widgets.theme import CARD_CSS, PANEL_CSS

_HOME = {
    "CARD_CSS": "theme",
    "PANEL_CSS": "theme",
    "CardRow": "cards",
    "CardRows": "card_rows",
    "backs_html": "cards",
    "card_html": "cards",
    "cards_html": "cards",
    "with_css": "cards",
    "TableView": "table_view",
    "DealStepper": "stepper",
    "ActionPicker": "action_picker",
    "BattleView": "battle_view",
    "ExclusionExplorer": "exclusion_explorer",
    "PlayPanel": "play_panel",
    "PlayController": "session",
    "CheckYourself": "quiz",
}

__all__ = [
    "CARD_CSS",
    "PANEL_CSS",
    "CardRow",
    "CardRows",
    "backs_html",
    "card_html",
    "cards_html",
    "with_css",
    "TableView",
    "DealStepper",
    "ActionPicker",
    "BattleView",
    "ExclusionExplorer",
    "PlayPanel",
    "PlayController",
    "CheckYourself",
]
assert set(__all__) == set(_HOME)


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'palace.widgets' has no attribute {name!r}")
    value = getattr(import_module(f"palace.widgets.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
