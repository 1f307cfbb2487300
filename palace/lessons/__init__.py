"""Helpers for the lesson notebooks: the course map, scripted positions, quizzes, variant tables.

The notebooks in ``notebooks/`` stay thin: they import from here, build a widget and
show it. Everything that decides something — which event to stop at, what a quiz's
right answer is, how two rule variants differ — is computed here from the engine, so
each lesson's text can never disagree with the game.

Each job lives in its own module of ``palace.lessons``; this package gathers their public names.

>>> game = first_turn()
>>> game.names[game.to_act], game.soldiers(0)
('Ann', ())
>>> [lesson.file for lesson in LESSONS][:2]
['01_cards_and_hands.ipynb', '02_the_deal.ipynb']
"""

from __future__ import annotations

from palace.analysis.variants import (
    SUMMARY_ROWS,
    VARIANTS,
    Divergence,
    first_difference,
    side_by_side,
    variant_game,
    variant_summary,
)
from palace.lessons.course_map import (
    ALL_CLAUSES,
    LESSONS,
    SECTIONS,
    Lesson,
    clause_index,
    course_map,
)
from palace.lessons.display import (
    CATEGORY_EXAMPLES,
    Chart,
    ClauseTable,
    category_gallery,
    chart,
    deck_rows,
    show,
)
from palace.lessons.drills import DRILLS, LESSON_DRILLS, drill
from palace.lessons.facts import battle_event, event_index, events_text, said, stake_table
from palace.lessons.guided import (
    FIRST_HAND_STEPS,
    first_battle_story,
    first_hand,
    guided_first_hand,
)
from palace.lessons.positions import (
    attack_position,
    bot_hand,
    first_turn,
    five_soldiers,
    scenario,
    two_left_story,
    under_attack,
)
from palace.lessons.prose import (
    LessonError,
    all_in_call,
    ante_sentence,
    banner_story,
    battle_outcome,
    cap_story,
    changes_story,
    cut_story,
    deck_story,
    divergence_story,
    exclusion_story,
    join,
    moved,
    shared_suits,
    stakes_story,
    summary_story,
)
from palace.lessons.quizzes import (
    banner_card_quiz,
    battle_quiz,
    call_amount_quiz,
    keep_all_quiz,
    legal_kinds_quiz,
    pot_winner_quiz,
)
from palace.widgets.action_picker import exact_odds
from palace.widgets.battle_view import BattleView, armies_of
from palace.widgets.card_rows import CardRows
from palace.widgets.cards import face, faces
from palace.widgets.labels import legend_html
from palace.widgets.play_panel import PlayPanel
from palace.widgets.stepper import DealStepper
from palace.widgets.turn_desk import TurnDesk
from palace.widgets.variant_comparer import VariantComparer

__all__ = [
    "LessonError",
    "all_in_call",
    "ante_sentence",
    "banner_story",
    "battle_outcome",
    "cap_story",
    "changes_story",
    "cut_story",
    "deck_story",
    "divergence_story",
    "exclusion_story",
    "join",
    "moved",
    "shared_suits",
    "stakes_story",
    "summary_story",
    "first_battle_story",
    "ALL_CLAUSES",
    "BattleView",
    "Chart",
    "ClauseTable",
    "chart",
    "DealStepper",
    "PlayPanel",
    "DRILLS",
    "FIRST_HAND_STEPS",
    "LESSON_DRILLS",
    "drill",
    "exact_odds",
    "first_hand",
    "guided_first_hand",
    "legend_html",
    "CATEGORY_EXAMPLES",
    "SECTIONS",
    "SUMMARY_ROWS",
    "CardRows",
    "LESSONS",
    "VARIANTS",
    "Divergence",
    "Lesson",
    "TurnDesk",
    "VariantComparer",
    "armies_of",
    "attack_position",
    "banner_card_quiz",
    "battle_event",
    "battle_quiz",
    "bot_hand",
    "call_amount_quiz",
    "category_gallery",
    "clause_index",
    "course_map",
    "deck_rows",
    "event_index",
    "events_text",
    "first_difference",
    "face",
    "faces",
    "first_turn",
    "five_soldiers",
    "keep_all_quiz",
    "legal_kinds_quiz",
    "pot_winner_quiz",
    "said",
    "scenario",
    "show",
    "side_by_side",
    "stake_table",
    "two_left_story",
    "under_attack",
    "variant_game",
    "variant_summary",
]
