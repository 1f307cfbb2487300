"""Jupyter panels for Palace Poker: cards, table, stepper, play, battles, exclusion, quizzes."""

from __future__ import annotations

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
