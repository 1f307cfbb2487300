"""Palace Poker: the engine behind the lessons, the Voilà app and the rule explorer."""

from __future__ import annotations

from palace.native import check_fresh

check_fresh()  # a compiled engine older than its source would play old rules (palace.native)

from palace.actions import (
    Action,
    Bet,
    Buy,
    Call,
    Discard,
    Fold,
    Raise,
    Stay,
    Trim,
    action_from_dict,
)
from palace.analysis.batch import evaluate_batch, resolve_battles_batch, showdown_batch
from palace.analysis.bots import RandomBot, RuleBot
from palace.analysis.odds import Odds, advise, battle_odds, odds_advisor
from palace.analysis.odds_bot import OddsBot
from palace.analysis.search_bot import SearchBot
from palace.battle import Army, BattleResult, resolve_battle
from palace.cards import Card, Rank, Suit, format_cards, new_deck, parse_cards
from palace.errors import (
    CardError,
    DeckError,
    IllegalActionError,
    PalaceError,
    RulesError,
    StateError,
)
from palace.events import EndReason, Event, EventKind, Move, Phase
from palace.game import Game
from palace.hands import Category, Hand, evaluate, hand_value
from palace.match import Bot, Match, play_out
from palace.rules import Rules
from palace.table import HandResult
from palace.views import SeatView

__all__ = [
    "Action",
    "Bet",
    "Buy",
    "Call",
    "Discard",
    "Fold",
    "Raise",
    "Stay",
    "Trim",
    "action_from_dict",
    "Army",
    "BattleResult",
    "resolve_battle",
    "RandomBot",
    "RuleBot",
    "play_out",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "new_deck",
    "parse_cards",
    "CardError",
    "DeckError",
    "IllegalActionError",
    "PalaceError",
    "RulesError",
    "StateError",
    "Event",
    "EventKind",
    "EndReason",
    "Bot",
    "Move",
    "Phase",
    "Game",
    "Category",
    "Hand",
    "evaluate",
    "hand_value",
    "Match",
    "HandResult",
    "Rules",
    "SeatView",
    "evaluate_batch",
    "resolve_battles_batch",
    "showdown_batch",
    "Odds",
    "advise",
    "battle_odds",
    "odds_advisor",
    "OddsBot",
    "SearchBot",
]
