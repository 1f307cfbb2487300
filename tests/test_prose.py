"""Lesson sentences written from the engine (palace.lessons.prose, .perfect, charts' captions):
each figure a lesson prints is the engine's, and a changed rule makes the lesson's check fail."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from palace import Buy, Call, Game, Raise, Rules
from palace.analysis.charts import VARIANT_COLOURS, variants_caption, variants_chart
from palace.battle import BattleResult
from palace.lessons import (
    all_in_call,
    ante_sentence,
    attack_position,
    banner_story,
    battle_event,
    battle_outcome,
    bot_hand,
    cap_story,
    changes_story,
    cut_story,
    deck_story,
    divergence_story,
    exclusion_story,
    first_battle_story,
    moved,
    scenario,
    shared_suits,
    side_by_side,
    stakes_story,
    summary_story,
    under_attack,
    variant_game,
)
from palace.lessons.guided import FIRST_HAND_STEPS, played_first_hand
from palace.lessons.perfect import most_often, move_lines, small_game_story
from palace.lessons.prose import (
    effect,
    flips_story,
    join,
    rejects_story,
    variants_findings,
)
from palace.words import plural

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STUDIES = ROOT / "data" / "studies"


def stored_text(notebook: str) -> str:
    """Every stored stream output of a notebook, joined (what nbval compares)."""
    nb = json.loads((NOTEBOOKS / notebook).read_text())
    return "".join(
        "".join(out.get("text", ""))
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream"
    )


# ---------------------------------------------------------------------- stakes
class TestStakes:
    @pytest.mark.parametrize("s", range(1, 10))
    def test_ante_is_the_engines_and_the_rule(self, s: int) -> None:
        rules = Rules(small_bet=s, big_bet=2 * s)
        ante = Game.new(players=3, seed=s, rules=rules).put_in[0]
        assert ante == s // 2  # R3.1: floor(s / 2)
        assert f"antes {plural(ante, 'chip')}" in ante_sentence(rules)

    def test_ante_override(self) -> None:
        text = ante_sentence(Rules(ante=3))
        assert "ante=3" in text and "antes 3 chips" in text

    @pytest.mark.parametrize(
        "rules",
        [
            Rules(),
            Rules(small_bet=3, big_bet=8),
            Rules(small_bet=5, big_bet=10),
            Rules(structure="no-limit"),
            Rules(call_matches_attack=True),
            Rules(structure="no-limit", call_matches_attack=False),
            Rules(stacks=8),
            Rules(stacks=11),
            Rules(stacks=13),
        ],
        ids=lambda r: r.label(),
    )
    def test_stakes_story_figures_are_the_engines(self, rules: Rules) -> None:
        from palace import Bet

        game = attack_position(rules)
        lines = stakes_story(game).splitlines()
        assert lines[0].startswith(f"At stakes {rules.small_bet}/{rules.big_bet} Ann")
        assert f"= {plural(game.min_attack(0), 'chip')}" in lines[0]
        for target, line in zip((1, 2), lines[1:], strict=True):
            probe = game.replay()
            bet = probe.apply(Bet(target=target))[-1]
            assert line.startswith(game.names[target])
            assert plural(probe.owed(), "chip") in line
            if Raise() in probe.legal_actions():
                assert f"{probe.raise_size()}" in line.split(";")[-1]
            else:
                assert "no raise" in line and "(R3.4)" in line
            if bet.detail.get("allin"):
                assert "all-in" in lines[0] and plural(bet.amount, "chip") in lines[0]

    def test_no_soldier_raise_differs_from_b_at_3_8(self) -> None:
        game = attack_position(Rules(small_bet=3, big_bet=8))
        cat = stakes_story(game).splitlines()[2]
        assert "2 × s = 2 × 3 = 6, not b = 8 (R7.7)" in cat

    def test_all_in_call_refunds_chip_for_chip(self) -> None:
        for stacks in (12, 13):
            game = under_attack(Rules(stacks=stacks))
            game.apply(Raise())
            owed, left = game.owed(), game.stacks[0]
            text = all_in_call(game)
            back = owed - left
            assert game.stacks[0] == 0 and back > 0
            assert f"the other {back} go back to Bob (R3.4)" in text
            assert sum(game.put_in) == game.pot  # the chips given back left the pot

    def test_all_in_call_needs_stacks(self) -> None:
        with pytest.raises(Exception, match="R3.4"):
            all_in_call(under_attack())


def test_a_changed_raise_rule_fails_the_lesson_check() -> None:
    """R7.7 changed in the engine (a player with no soldiers raises b, as with soldiers):
    lesson 4's sentence refuses to print, naming the clause. Run in a pure-Python process,
    where the engine's function can be replaced."""
    script = textwrap.dedent(
        """
        import palace.checks as checks
        from palace import Rules
        from palace.lessons import attack_position, stakes_story
        from palace.lessons.prose import LessonError

        checks.limit_raise = lambda table, seat: table.rules.big_bet
        try:
            stakes_story(attack_position(Rules(small_bet=3, big_bet=8)))
        except LessonError as e:
            print("refused:", e)
        """
    )
    env = {**os.environ, "PALACE_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("refused: R7.7: the engine contradicts"), out.stdout + out.stderr


def test_lesson_4_prints_what_the_engine_says_now() -> None:
    """The stored lesson is the helpers' output under the current rules (as nbval checks);
    other stakes would print another sentence, so a rule change cannot go unnoticed."""
    text = stored_text("04_battles.ipynb")
    now = stakes_story(attack_position(Rules(small_bet=3, big_bet=8)))
    assert now in text
    assert stakes_story(attack_position(Rules(small_bet=3, big_bet=6))) not in text


# ---------------------------------------------------------------------- the deal
class TestDeal:
    @pytest.mark.parametrize("players", range(2, 11))
    def test_cut_and_banner_stories(self, players: int) -> None:
        for seed in range(3):
            game = Game.new(players=players, seed=seed)
            cut = cut_story(game)
            assert cut.endswith(f"{game.names[game.dealer]} has the highest card and deals (R2.1).")
            ties = sum(e.kind == "cut_tie" for e in game.events)
            assert cut.count("draw again (R2.2)") == ties
            banners = banner_story(game)
            for e in game.events:
                if e.kind == "banner":
                    assert f"keeps {e.cards[0].symbol}" in banners
                if e.kind == "reject":
                    assert e.cards[0].symbol in banners
            assert f"Dealing starts left of {game.names[game.dealer]}" in banners

    def test_shared_suits(self) -> None:
        for seed in range(6):
            game = Game.new(players=6, seed=seed)
            text = shared_suits(game)
            by_suit: dict[str, list[str]] = {}
            for s in range(6):
                by_suit.setdefault(game.banner_suit(s).symbol, []).append(game.names[s])
            for suit, names in by_suit.items():
                if len(names) > 1:
                    assert f"{join(names)}" in text and suit in text


# ---------------------------------------------------------------------- turns, battles
def test_deck_story_counts_from_the_rules() -> None:
    game = scenario("discard-pile-reshuffled").game()
    text = deck_story(game)
    left = 52 - 4 * game.players  # R5.2: banners and three palace cards each are dealt
    assert f"holds {left} cards" in text
    assert f"After {left} Buys the draw deck is empty" in text
    assert "nobody may Buy (R6.3)" in text and game.why_illegal(Buy()) is not None


def test_battle_outcome_names_who_is_out() -> None:
    game = scenario("tie-both-out").game()
    text = battle_outcome(game)
    result = battle_event(game).detail["battle"]
    assert isinstance(result, BattleResult) and result.winner is None
    assert "(R8.6)" in text and "Ann and Bob are out" in text and "Cat and Dan play on" in text


@pytest.mark.parametrize(
    "name", ["exclusion-kills-flush", "exclusion-turns-win-into-loss", "tie-banner-count"]
)
def test_exclusion_story(name: str) -> None:
    game = scenario(name).game()
    event = battle_event(game)
    result = event.detail["battle"]
    unstruck = result.without_exclusion(*event.detail["armies"])
    text = exclusion_story(game)
    assert ("the rule decided this battle" in text) == (unstruck.winner != result.winner)
    for card in result.attacker_hand.excluded + result.defender_hand.excluded:
        assert card.symbol in text


def test_cap_story() -> None:
    game = bot_hand(players=4, seed=1)
    over = [s for s in range(4) if len(game.soldiers(s)) > 5]
    text = cap_story(game)
    if over:
        n = len(game.soldiers(over[0]))
        assert f"{game.names[over[0]]} ends the hand with {n} soldiers" in text
    else:
        assert text.startswith("Nobody ends the hand")


def test_guided_steps_are_the_played_hand() -> None:
    game = played_first_hand()
    battle = battle_event(game)
    result = battle.detail["battle"]
    showdown = next(s for s in FIRST_HAND_STEPS if s.title == "The showdown")
    struck = " ".join(c.symbol for c in result.defender_hand.excluded)
    assert struck and struck in showdown.text and struck in first_battle_story()
    attack = next(s for s in FIRST_HAND_STEPS if s.title.startswith("Attack"))
    bet = next(e for e in game.events if e.kind == "bet")
    assert f"= {plural(bet.amount, 'chip')}" in attack.text
    assert f"({plural(game.won[0], 'chip')})" in FIRST_HAND_STEPS[-1].text


# ---------------------------------------------------------------------- variants
class TestVariants:
    def test_changes_story_counts_the_table(self) -> None:
        for rules in (Rules(structure="no-limit"), Rules(stacks=20)):
            df = side_by_side(2026, Rules(), rules, hands=8)
            a, b = "standard", rules.label()
            grew = sum(df[(b, "pot")] > df[(a, "pot")])
            shrank = sum(df[(b, "pot")] < df[(a, "pot")])
            text = changes_story(df)
            words = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")
            assert f"the pot grows in {words[grew]}" in text
            assert f"shrinks in {words[shrank]}" in text

    def test_stored_lesson_7_says_what_the_table_shows(self) -> None:
        text = stored_text("07_rule_variants.ipynb")
        for rules in (Rules(structure="no-limit"), Rules(stacks=20)):
            assert changes_story(side_by_side(2026, Rules(), rules, hands=8)) in text
        a, b = variant_game(Rules(), 2026, 4), variant_game(Rules(stacks=20), 2026, 4)
        assert divergence_story(a, b) in text

    def test_divergence_story_reads_the_stack(self) -> None:
        a, b = variant_game(Rules(), 2026, 4), variant_game(Rules(stacks=20), 2026, 4)
        text = divergence_story(a, b)
        bet = next(e for e, f in zip(b.events, a.events, strict=False) if e != f)
        if bet.kind == "bet" and bet.detail.get("allin"):
            assert "attacks all-in" in text and plural(bet.amount, "chip") in text
        same = divergence_story(a, variant_game(Rules(), 2026, 4))
        assert same == "The two hands are event for event the same."

    def test_summary_story_and_moved(self) -> None:
        df = pd.DataFrame(
            {"A": [1.0, 2.0, 3.0], "B": [1.0, 2.5, 3.0]}, index=["pot", "battles", "actions"]
        )
        assert moved(df, "B") == ["battles"]
        assert summary_story(df) == "B: battles 2.00 → 2.50 (more); the same: pot and actions."

    def test_variants_findings_on_the_stored_table(self) -> None:
        df = pd.read_csv(STUDIES / "variants.csv", index_col=0)
        text = variants_findings(df)
        for col in df.columns[1:]:
            assert col in text
        same = text.splitlines()[0]
        assert "two left battle at once (R9.3)" not in same  # it removes moves (R9.3)

    def test_effect(self) -> None:
        from palace.analysis.variant_effects import load

        d = load("variant_effects").differences
        row = d[(d["variant"] == "no-limit (R3.3)") & (d["key"] == "pot")].iloc[0]
        assert effect(d, "no-limit (R3.3)", "pot") == float(row["difference"])
        with pytest.raises(Exception, match="no figure"):
            effect(d, "no-limit (R3.3)", "nothing")


# ---------------------------------------------------------------------- the explorer's words
def test_variants_chart_one_colour_per_variant() -> None:
    df = pd.read_csv(STUDIES / "variants.csv", index_col=0)
    fig = variants_chart(df)
    ax = fig.axes[0]
    colours = {}
    for container in ax.containers:
        label = container.get_label()
        faces = {tuple(p.get_facecolor()) for p in container.patches}
        assert len(faces) == 1
        colours[label] = faces.pop()
    assert set(colours) == set(df.columns[1:])
    assert len(set(colours.values())) == len(colours)
    assert len(VARIANT_COLOURS) == len(set(VARIANT_COLOURS))
    with pytest.raises(ValueError, match="colours"):
        variants_chart(pd.concat([df] + [df.add_suffix(f" {i}") for i in range(2)], axis=1))


def test_variants_caption_names_only_what_the_chart_shows() -> None:
    df = pd.read_csv(STUDIES / "variants.csv", index_col=0)
    caption = variants_caption(df)
    for row in ("pot", "battles per hand", "actions per hand", "battle showdowns per hand"):
        assert row in caption
    assert "ending" not in caption and f"{len(df.columns) - 1} named variants" in caption
    flat = caption.split("Only the pot moves under: ")[1]
    assert "two left battle at once (R9.3)" not in flat


def test_rejects_and_flips_stories() -> None:
    dist = pd.read_csv(STUDIES / "banner_rejects.csv", index_col=0)
    dist.columns = [int(c) for c in dist.columns]
    text = rejects_story(dist)
    assert f"{100 - dist.loc[0, 2]:.1f}% of deals reject at least one card" in text
    flips = pd.read_csv(STUDIES / "exclusion_flips.csv", index_col=0)
    assert f"{flips['winner changed %'].iloc[0]:.1f}%" in flips_story(flips)


def test_small_game_story_names_players() -> None:
    rules = Rules(
        ranks="QKA", suits="hs", palace_cards=1, max_soldiers=1, max_raises=1, max_turns=3
    )
    game = Game.new(players=2, seed=0, rules=rules, dealer=0)
    text = small_game_story(rules)
    first = game.names[game.to_act]
    assert f"{game.names[0]} deals and {first}" in text and not re.search(r"seat \d", text)
    t = pd.DataFrame({"fold": [76.0], "stay": [24.0]}, index=["Q, Q"])
    assert (
        most_often(t, "Q, Q") == "fold" and move_lines(t, ["Q, Q"]) == "Q, Q: fold 76%, stay 24%."
    )


# ---------------------------------------------------------------------- the lessons' text
LESSON_FILES = sorted(p.name for p in NOTEBOOKS.glob("0*.ipynb"))


@pytest.mark.parametrize("name", LESSON_FILES)
def test_lessons_keep_the_rules_inside_the_course(name: str) -> None:
    """No lesson sends a learner to docs/rules.md's decisions, or names seats by number."""
    nb = json.loads((NOTEBOOKS / name).read_text())
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        assert not re.search(r"\bD\d+\b", source), (name, source[:80])
        assert "docs/rules.md" not in source, name
        if cell["cell_type"] == "markdown":
            assert not re.search(r"\bseat \d\b", source), (name, source[:80])


def test_the_index_reads_r9_3_as_the_rule_does() -> None:
    nb = json.loads((NOTEBOOKS / "00_index.ipynb").read_text())
    text = " ".join("".join(c["source"]) for c in nb["cells"]).replace("\n", " ")
    assert "they play on as usual" in text and "may only Bet or Fold (R9.3)" in text
    assert "matches the attack (R7.6)" in text and "all-in" in text


def test_calls_are_sized_as_r7_6_says() -> None:
    """The sentences lesson 4 prints for no-limit: the defender matches the attack."""
    from palace import Bet

    game = attack_position(Rules(structure="no-limit"))
    game.apply(Bet(target=1, amount=10))
    assert game.owed() == 10
    assert [e.amount for e in game.apply(Call())][:1] == [10]
