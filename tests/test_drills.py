"""Drills: every generated question's answer is the engine's, and the panel keeps score."""

from __future__ import annotations

import random

import pytest

from palace import Phase, evaluate, resolve_battle
from palace.lessons.drills import (
    DRILLS,
    LESSON_DRILLS,
    TIE,
    battle_winner,
    drill,
    kinds_label,
)
from palace.widgets.drill import PICK, Drill, Exercise

SEEDS = range(12)


def _check(ex: Exercise) -> None:
    """Recompute the answer from the engine objects the question was made from."""
    assert ex.answer in ex.choices and len(set(ex.choices)) == len(ex.choices)
    if ex.kind == "battle":
        att, dfn, (an, dn) = ex.position
        res = resolve_battle(att, dfn)
        want = {"attacker": f"{an} wins", "defender": f"{dn} wins", None: TIE}[res.winner]
        assert ex.answer == want
        assert res.attacker_hand.excluded or res.defender_hand.excluded  # exclusion at work
    elif ex.kind == "exclusion":
        cards, suit = ex.position
        assert ex.answer == evaluate(cards, exclude_suit=suit).category.label
        assert suit.symbol in ex.question
    elif ex.kind == "best-five":
        assert ex.answer == evaluate(ex.position).category.label
    elif ex.kind == "legal":
        game = ex.position
        assert ex.answer == kinds_label({a.kind for a in game.legal_actions()})
    elif ex.kind == "two-left":
        game = ex.position
        assert sum(game.active) == 2
        forced = {a.kind for a in game.legal_actions()} <= {"bet", "fold"}
        assert ex.answer.startswith("Yes" if forced else "No")
    elif ex.kind == "stake":
        game = ex.position
        if game.phase is Phase.BATTLE_RESPONSE:
            assert ex.answer == f"{game.owed()} chips"
        else:
            assert ex.answer == f"{game.min_attack(game.to_act)} chips"
    elif ex.kind == "banner":
        game, index = ex.position
        kept = game.events[index].kind == "banner"
        assert ex.answer.startswith("Kept" if kept else "Rejected")
    elif ex.kind == "keep":
        game = ex.position
        over = len(game.soldiers(game.to_act)) + 1 > game.rules.max_soldiers
        assert ex.answer.endswith(
            "discard at least one" if over else f"keep all {len(game.soldiers(game.to_act)) + 1}"
        )
    else:  # pragma: no cover - a new kind needs its check here
        raise AssertionError(f"no check for drill kind {ex.kind!r}")


@pytest.mark.parametrize("kind", list(DRILLS))
def test_generated_answers_are_the_engines(kind: str) -> None:
    rng = random.Random(2026)
    seen = set()
    for _ in SEEDS:
        ex = DRILLS[kind](rng)
        assert ex.kind == kind and ex.hint and ex.explanation and ex.rules
        _check(ex)
        seen.add(ex.key)
    assert len(seen) > len(SEEDS) // 2  # random positions, not one fixed question


def test_two_left_drill_covers_both_answers() -> None:
    rng = random.Random(7)
    answers = {DRILLS["two-left"](rng).answer.split(":")[0] for _ in range(30)}
    assert answers == {"Yes", "No"}


def test_another_one_changes_the_position_and_score_counts_once() -> None:
    d = drill(lesson=4, seed=3)
    assert d.score == (0, 0) and d.correct is None
    first = d.exercise
    wrong = next(c for c in first.choices if c != first.answer)
    d.button(wrong).click()
    assert d.picked == wrong
    d.check_button.click()
    d.check_button.click()  # a second Check does not count again
    assert d.correct is False and d.score == (0, 1)
    assert "✗ Not quite" in d.text() and first.explanation in d.text()
    d.another_button.click()
    assert d.exercise.key != first.key and d.picked is None and not d.checked
    d.choose(d.exercise.answer)
    d.check()
    assert d.correct is True and d.score == (1, 2)
    assert "Score: 1 right of 2" in d.text()


def test_hint_comes_before_the_answer() -> None:
    d = drill("battle", seed=1)
    assert "Hint:" not in d.text()
    d.hint_button.click()
    assert d.hinted and f"Hint: {d.exercise.hint}" in d.text()
    assert d.exercise.answer not in d.exercise.hint
    d.choose(0)
    d.check()
    assert d.hint_button.disabled and "Hint:" not in d.text()


def test_check_needs_a_pick() -> None:
    d = drill("exclusion", seed=2)
    d.check()
    assert not d.checked and d.score == (0, 0)
    assert PICK in d.text()


def test_every_lesson_has_a_drill_and_bad_names_are_refused() -> None:
    for lesson in LESSON_DRILLS:
        d = drill(lesson=lesson, seed=lesson)
        assert isinstance(d, Drill) and d.exercise.answer in d.exercise.choices
    with pytest.raises(ValueError, match="unknown drill 'poker'"):
        drill("poker")
    with pytest.raises(ValueError, match="not one of"):
        Exercise("Q?", ("a", "b"), "c")


def test_same_seed_same_questions() -> None:
    a, b = drill(lesson=6, seed=11), drill(lesson=6, seed=11)
    for _ in range(3):
        assert a.exercise.key == b.exercise.key
        a.another()
        b.another()


def test_each_first_check_is_recorded_for_the_class() -> None:
    answers: list[tuple[str, bool, str]] = []
    d = Drill(
        {"who wins": battle_winner},
        seed=5,
        title="Battles",
        recorder=lambda qid, ok, detail: answers.append((qid, ok, detail)) or True,
    )
    ex = d.exercise
    d.choose(ex.answer)
    d.check()
    d.check()  # a second Check of the same question is not a second answer
    d.another()
    wrong = next(c for c in d.exercise.choices if c != d.exercise.answer)
    d.choose(wrong)
    d.check()
    assert answers == [
        ("drill/battles/battle", True, ex.answer),
        ("drill/battles/battle", False, wrong),
    ]


def test_a_broken_recorder_does_not_break_the_drill() -> None:
    def broken(qid: str, ok: bool, detail: str) -> bool:
        raise RuntimeError("the class store is down")

    d = Drill({"who wins": battle_winner}, seed=5, recorder=broken)
    d.choose(d.exercise.answer)
    d.check()
    assert d.correct is True and d.score == (1, 1)
