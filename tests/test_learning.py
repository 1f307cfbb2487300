"""Issue 12 in pytest: clause texts behind the badges, the counterfactual line, the guided
first hand, the hand review, the legend, and lesson pages free of programmer leftovers."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from palace import Army, Game, RuleBot, Rules, play_out, resolve_battle
from palace.clauses import CLAUSES, clause_ids, clause_text
from palace.lessons import (
    ALL_CLAUSES,
    FIRST_HAND_STEPS,
    LESSONS,
    battle_event,
    guided_first_hand,
    scenario,
    two_left_story,
)
from palace.widgets import BattleView, DealStepper
from palace.widgets.battle_view import exclusion_changed
from palace.widgets.hand_review import HandReview, review
from palace.widgets.labels import legend_text, rules_words
from palace.widgets.session import PlayController
from palace.widgets.theme import rule_badge

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSON_FILES = ["00_index.ipynb"] + [lesson.file for lesson in LESSONS[:6]]

# Ann (K♥) and Cat (K♠): Cat's 2♥ and Ann's 4♠ 3♠ do not count. With exclusion Cat's pair
# of kings wins; without it Ann's two pair would.
FLIP = (Army.parse("Kh", "4s 4d", "3s 3c 9d"), Army.parse("Ks", "Kd", "Qc 2h 7c"))
# Exclusion takes cards from both, but the same side wins either way.
NO_FLIP = (Army.parse("Ah", "Ad Ac", "2s 7c 9d"), Army.parse("Ks", "Qh", "3c 4d 8s"))


# ---------------------------------------------------------------------- clause texts
def test_every_clause_and_cited_decision_has_a_text() -> None:
    for cid in (*ALL_CLAUSES, "R11", *(f"D{k}" for k in range(1, 23))):
        assert len(clause_text(cid)) > 20, cid
    with pytest.raises(KeyError, match="R12.1"):
        clause_text("R12.1")


def test_clause_ids_expand_ranges() -> None:
    assert clause_ids("R7.1-R7.3") == ("R7.1", "R7.2", "R7.3")
    assert clause_ids("R6.2 / R6.7 / R7.5") == ("R6.2", "R6.7", "R7.5")
    assert clause_ids("R10.1-R10.4") == ("R10.1", "R10.2", "R10.3", "R10.4")
    assert clause_ids("D2, R3.4 a") == ("D2", "R3.4")
    assert clause_ids("no rule") == ()


def test_a_badge_opens_its_clause() -> None:
    markup = rule_badge("R8.2")
    button = re.search(
        r'<button type="button" class="palace-badge" popovertarget="([^"]+)"', markup
    )
    assert button is not None, markup
    pid = button.group(1)
    assert f'id="{pid}" popover' in markup  # the popover the button opens
    assert html.escape(CLAUSES["R8.2"], quote=True) in markup
    assert 'aria-label="R8.2: read the rule"' in markup
    assert rule_badge("R8.2") != markup  # every badge's popover has an id of its own
    assert rule_badge("") == ""


# ---------------------------------------------------------------------- counterfactual
def test_the_counterfactual_line_when_exclusion_flips_the_battle() -> None:
    att, dfn = FLIP
    real = resolve_battle(att, dfn)
    plain = resolve_battle(att, dfn, exclusion=False)
    assert real.winner == "defender" and plain.winner == "attacker"  # the engine's verdicts
    line = exclusion_changed(att, dfn, ("Ann", "Cat"))
    assert line == (
        "Without banner-suit exclusion Ann's two pair (fours and threes) would beat "
        "Cat's pair of kings."
    )
    view = BattleView()
    view.show_result(att, dfn, ("Ann", "Cat"))
    assert view.counterfactual == line
    assert "palace-counterfactual" in view.html and html.escape(line, quote=True) in view.html
    assert f"What exclusion changed (R8.2): {line}" in view.text()
    # the toggle shows both hands unstruck: nothing struck out, every card counting
    assert view.unstruck_button.layout.display != "none"
    assert "struck out" in view.html
    view.unstruck_button.value = True
    assert view.unstruck and "struck out" not in view.html
    assert "Two pair" in view.html and "What if every card counted?" in view.html
    view.unstruck = False
    assert "struck out" in view.html


def test_no_counterfactual_line_when_exclusion_changes_nothing() -> None:
    att, dfn = NO_FLIP
    real = resolve_battle(att, dfn)
    assert real.attacker_hand.excluded or real.defender_hand.excluded  # cards were struck
    assert resolve_battle(att, dfn, exclusion=False).winner == real.winner
    view = BattleView()
    view.show_result(att, dfn, ("Ann", "Bob"))
    assert view.counterfactual == "" and "palace-counterfactual" not in view.html
    assert "What exclusion changed" not in view.text()
    # the toggle is still there (cards were struck), and says the result stands
    view.unstruck = True
    assert "the result would be the same" in view.html


def test_battle_views_of_a_game_say_it_too() -> None:
    g = scenario("exclusion-kills-flush").game()
    ev = battle_event(g)
    view = BattleView()
    view.show_event(ev, g.names)
    assert view.counterfactual.startswith("Without banner-suit exclusion Bob's flush")
    st = DealStepper(g, reveal_all=True, start=ev.index)  # Replay and the lessons
    assert st.battle.counterfactual == view.counterfactual
    tie = scenario("tie-banner-count").game()
    view.show_event(battle_event(tie), tie.names)
    assert view.counterfactual == "" and view.unstruck_button.layout.display == "none"


# ---------------------------------------------------------------------- guided first hand
def test_the_guided_first_hand_from_start_to_pot() -> None:
    guide = guided_first_hand()
    p = guide.picker
    assert guide.index == 0 and guide.step.title == "Meet the table"
    assert "first read the guide" in p.reason("buy")  # coached: read first
    guide.next_button.click()
    assert guide.step.expect == "buy" and p.reason("buy") == ""
    assert "follow the guide" in p.reason("stay")  # one idea a step: only Buy now
    assert not p.act(p.game.legal_actions()[-1]) or guide.index == 1
    p.button("buy").click()
    p.button("keep").click()
    assert guide.step.title == "Bob and Cat play"
    assert [ln.split()[0] for ln in guide.narration.lines] == ["Bob", "Bob", "Cat", "Cat"]
    guide.next_button.click()
    p.button("bet", 2).click()  # attack Cat
    assert guide.step.title == "The showdown" and guide.battle.shown
    battle = guide.battle.battle
    assert battle.result is not None and battle.result.winner == "attacker"
    assert battle.counterfactual.endswith("Cat's pair of aces would beat Ann's pair of kings.")
    guide.next_button.click()
    p.button("keep").click()
    assert guide.finished and guide.game.is_over
    assert guide.game.result.winners == (0,) and guide.game.result.rule == "R10.1"
    assert "step 8 of 8" in guide.text()
    guide.again_button.click()
    assert guide.index == 0 and not guide.game.actions


def test_guided_steps_are_one_idea_each_and_cite_rules() -> None:
    assert len(FIRST_HAND_STEPS) <= 10
    for step in FIRST_HAND_STEPS:
        assert step.rules and len(step.text.split()) < 90, step.title


# ---------------------------------------------------------------------- review, legend, words
def test_hand_review_gives_the_odds_of_each_decision() -> None:
    c = PlayController(players=3, human=0, seed=5)
    while not c.game.is_over:
        legal = c.game.legal_actions()
        kinds = [a.kind for a in legal]
        pick = legal[kinds.index("call")] if "call" in kinds else legal[0]
        c.act(pick)
    decisions = review(c.game, 0, c.actors)
    mine = [a for a, s in zip(c.game.actions, c.actors, strict=True) if s == 0]
    assert len(decisions) == len([a for a in mine if a.kind != "trim"])
    for d in decisions:
        assert re.search(r"\d+%", d.line) or "No battle was possible" in d.line
        if d.odds is not None:
            assert abs(d.odds.win + d.odds.tie + d.odds.lose - 1) < 1e-9
    panel = HandReview()
    panel.show(c.game, 0, c.actors)
    assert panel.text()[0] == "== Your hand in review, Ann =="
    assert len(panel.text()) == len(decisions) + 1


def test_rules_in_words_and_the_legend() -> None:
    assert rules_words(Rules()) == "standard rules, stakes 2/4"
    words = rules_words(Rules(structure="no-limit", two_left="at_once", small_bet=5, big_bet=10))
    assert words == "no-limit, two left: Bet or Fold at once, stakes 5/10"
    assert "=" not in words and "True" not in words
    assert "gold frame: the player to act" in legend_text()


def test_two_left_story_follows_r9_3() -> None:
    story = two_left_story().splitlines()
    assert story[-1].endswith("Bob may Bet (attack) or Fold.")
    assert "Ann may Buy, Discard, Bet (attack), Stay or Fold." in story[2]  # plays on
    at_once = two_left_story(Rules(two_left="at_once")).splitlines()
    assert at_once[-1].startswith("Ann may not Buy") and "R9.3" in at_once[-1]


# ---------------------------------------------------------------------- programmer leftovers
LEFTOVERS = [
    (r"\bTrue\b|\bFalse\b|\bNone\b", "a Python value"),
    (r"\bseat \d\b|\bHand \d\b", "a seat or hand counted from 0"),
    (r"#\d+ of #\d+|\bevent #\d+", "event numbers counted from 0"),
    (r"^#\d+ ", "an event's repr"),
    (r"\w+=(True|False|None|\d|')", "a field=value"),
    (r"\d\.\d+e[-+]\d\d", "a number in scientific notation"),
    (r"```", "a raw markdown fence"),
    (r"<palace\.|object at 0x|\bWidget\(|\bVBox\(|\bHBox\(|HTML\(value=", "a Python repr"),
    (r"\bnull\b", "a null"),
]


def lesson_texts(name: str) -> list[tuple[str, str]]:
    """Every text a lesson shows: markdown, and the text outputs of its code cells."""
    nb = json.loads((NOTEBOOKS / name).read_text("utf-8"))
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            out.append((f"{name} cell {i}", "".join(cell["source"])))
            continue
        for o in cell.get("outputs", []):
            text = o.get("text") or o.get("data", {}).get("text/plain") or ""
            out.append((f"{name} cell {i} output", "".join(text)))
    return out


@pytest.mark.parametrize("name", LESSON_FILES)
def test_no_raw_reprs_in_a_lessons_text(name: str) -> None:
    for where, text in lesson_texts(name):
        for pattern, what in LEFTOVERS:
            m = re.search(pattern, text, re.M)
            assert m is None, f"{where}: {what}: {text[max(0, m.start() - 60) : m.end() + 60]!r}"


def test_the_leftover_check_can_fail() -> None:
    g = play_out(Game.new(players=3, seed=2), {s: RuleBot() for s in range(3)})
    bad = f"{g.events[0]}\ncall_matches_attack=True\n2.59e-02"
    hits = [what for pattern, what in LEFTOVERS if re.search(pattern, bad, re.M)]
    assert "an event's repr" in hits and "a field=value" in hits
    assert "a number in scientific notation" in hits


def test_D28_no_banner_count_tie_break_at_a_quiet_round_showdown() -> None:
    from palace import Stay
    from palace.script import deck_for

    deck = deck_for(
        players=3,
        dealer=2,
        banners={0: "Ah", 1: "As", 2: "2c"},
        palaces={0: "Kh Qc Js", 1: "Kc Qd Jh", 2: "3d 4h 6s"},
    )
    g = Game.new(players=["Ann", "Bob", "Cat"], seed=1, deck=deck, dealer=2)
    for _ in range(3):
        g.apply(Stay())
    assert g.is_over and any(e.kind == "showdown" and e.rule == "R10.3" for e in g.events)
    # Ann holds two hearts (her banner suit), Bob one spade: no R8.5 here, they share
    assert g.result.winners == (0, 1)
