"""The course map: the lessons in order, what each teaches and which RULES.md clauses it covers."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Lesson:
    """One notebook of the course: its file, title, one line on what it teaches, clauses."""

    file: str
    title: str
    line: str
    clauses: tuple[str, ...]


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "01_cards_and_hands.ipynb",
        "Your first hand, cards and hands",
        "A guided first hand in five minutes; then the deck, the nine poker hands and the best "
        "five of up to nine cards.",
        ("R1.1", "R1.2", "R1.3", "R8.1", "R8.2", "R8.3"),
    ),
    Lesson(
        "02_the_deal.ipynb",
        "The deal",
        "Choosing the dealer, the banner deal with its rejects and suit groups, the palace deal.",
        (
            "R2.1",
            "R2.2",
            "R2.3",
            "R3.1",
            "R4.1",
            "R4.2",
            "R4.3",
            "R4.4",
            "R4.5",
            "R5.1",
            "R5.2",
            "R5.3",
        ),
    ),
    Lesson(
        "03_your_turn.ipynb",
        "Your turn",
        "Buy, Discard, Stay or Fold — and the five-soldier cap.",
        ("R6.1", "R6.2", "R6.3", "R6.4", "R6.5", "R6.6", "R6.7"),
    ),
    Lesson(
        "04_battles.ipynb",
        "Battles",
        "Attack sizes, fold / call / raise in limit and no-limit, all-in with limited chips, "
        "the showdown; ties go to the banner count, and a battle still tied puts both players "
        "out.",
        (
            "R3.2",
            "R3.3",
            "R3.4",
            "R7.1",
            "R7.2",
            "R7.3",
            "R7.4",
            "R7.5",
            "R7.6",
            "R7.7",
            "R7.8",
            "R7.9",
            "R8.1",
            "R8.4",
            "R8.5",
            "R8.6",
            "R8.7",
        ),
    ),
    Lesson(
        "05_banner_suit_exclusion.ipynb",
        "Banner-suit exclusion",
        "In a battle your opponent's banner suit does not count for you — and short hands.",
        ("R8.2", "R8.3", "R7.2"),
    ),
    Lesson(
        "06_play_a_hand.ipynb",
        "Play a hand",
        "Play a whole hand against the bots: the four ways a hand ends (quiet round, one "
        "player left, two left must battle, one banner suit left) and who takes the pot.",
        ("R9.1", "R9.2", "R9.3", "R9.4", "R10.1", "R10.2", "R10.3", "R10.4"),
    ),
    Lesson(
        "07_rule_variants.ipynb",
        "Rule variants",
        "The same seeded hands under two rule variants, side by side.",
        ("R3.3", "R3.4", "R6.4", "R7.6", "R7.7", "R9.1"),
    ),
)

ALL_CLAUSES: tuple[str, ...] = tuple(
    f"R{s}.{k}"
    for s, n in ((1, 3), (2, 3), (3, 4), (4, 5), (5, 3), (6, 7), (7, 9), (8, 7), (9, 4), (10, 4))
    for k in range(1, n + 1)
)


def course_map() -> pd.DataFrame:
    """The lessons in order: title, what each teaches and the clauses it covers."""
    rows = [
        {
            "lesson": i,
            "title": lesson.title,
            "what you learn": lesson.line,
            "clauses": ", ".join(lesson.clauses),
        }
        for i, lesson in enumerate(LESSONS, start=1)
    ]
    return pd.DataFrame(rows).set_index("lesson")


SECTIONS: dict[int, str] = {
    1: "Players, cards",
    2: "Choosing the first dealer",
    3: "Stakes and ante",
    4: "Banner cards",
    5: "Palace cards",
    6: "The turn",
    7: "Bet / battle",
    8: "Battle showdown",
    9: "End of the hand",
    10: "Winning the pot",
}


def clause_index() -> pd.DataFrame:
    """Which lesson teaches which clause: one row per section of RULES.md (R1-R10), one
    column per lesson; "all" when a lesson covers every clause of the section."""
    rows = []
    for sec, title in SECTIONS.items():
        clauses = [c for c in ALL_CLAUSES if c.startswith(f"R{sec}.")]
        row: dict[str, str] = {}
        for i, lesson in enumerate(LESSONS, start=1):
            mine = [c for c in clauses if c in lesson.clauses]
            key = f"{i} {lesson.title}"
            if not mine:
                row[key] = ""
            elif len(mine) == len(clauses):
                row[key] = "all"
            else:
                row[key] = ", ".join(c[1:] for c in mine)
        rows.append({"rules": f"R{sec} {title}", **row})
    return pd.DataFrame(rows).set_index("rules")
