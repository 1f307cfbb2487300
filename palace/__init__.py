"""Palace Poker: the engine behind the lessons, the Voilà app and the rule explorer."""

from __future__ import annotations

from palace.cards import Card, Rank, Suit, format_cards, new_deck, parse_cards
from palace.errors import (
    CardError,
    DeckError,
    IllegalActionError,
    PalaceError,
    RulesError,
    StateError,
)
from palace.hands import Category, Hand, evaluate, hand_value

__all__ = [
    "Card", "Rank", "Suit", "format_cards", "new_deck", "parse_cards",
    "CardError", "DeckError", "IllegalActionError", "PalaceError", "RulesError", "StateError",
    "Category", "Hand", "evaluate", "hand_value",
]
