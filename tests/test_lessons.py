"""Lesson helpers (`palace.lessons`), the `CheckYourself` quiz and the notebooks' shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from palace import Army, Discard, Game, Phase, RuleBot, Rules, Stay, resolve_battle
from palace.analysis.bot_hands import play_hands
from palace.errors import PalaceError
from palace.lessons import (
    ALL_CLAUSES,
    LESSONS,
    SECTIONS,
    SUMMARY_ROWS,
    VARIANTS,
    TurnDesk,
    VariantComparer,
    armies_of,
    attack_position,
    banner_card_quiz,
    battle_event,
    battle_quiz,
    bot_hand,
    call_amount_quiz,
    category_gallery,
    clause_index,
    course_map,
    deck_rows,
    event_index,
    events_text,
    face,
    faces,
    first_difference,
    first_turn,
    five_soldiers,
    keep_all_quiz,
    legal_kinds_quiz,
    pot_winner_quiz,
    scenario,
    show,
    side_by_side,
    stake_table,
    under_attack,
    variant_game,
    variant_summary,
)
from palace.scenarios import CLAUSES
from palace.widgets.quiz import PICK_FIRST, TIE_CHOICE, CheckYourself

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
# Five players, dealer Eve: Dan (J♠) and Eve (T♠) share a banner suit (R4.5, R7.2).
SAME_SUIT_DECK = "Ah Kd Qc Js Ts 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 2d 3d 4d 5d 6d"


def simple_quiz() -> CheckYourself:
    return CheckYourself(
        "Does a suit ever outrank another?",
        ["Yes", "No"],
        "No",
        "Suits have no rank anywhere in the game (R1.2).",
        rules=["R1.2"],
    )


# ---------------------------------------------------------------------- CheckYourself
class TestCheckYourself:
    def test_starts_unanswered(self) -> None:
        q = simple_quiz()
        assert q.picked is None and not q.revealed and q.correct is None
        assert q.reveal_button.disabled
        lines = q.text().splitlines()
        assert lines[0] == "✎ Check yourself"
        assert lines[1] == "Q: Does a suit ever outrank another?"
        assert lines[2] == "Choices: [ ] Yes · [ ] No"
        assert lines[3] == PICK_FIRST
        assert "Why" not in q.text()

    def test_reveal_needs_a_pick(self) -> None:
        q = simple_quiz()
        q.reveal_button.click()  # a click on the disabled button still reaches the handler
        assert not q.revealed and q.correct is None
        assert PICK_FIRST in q.html

    def test_right_pick(self) -> None:
        q = simple_quiz()
        q.button("No").click()
        assert q.picked == "No" and not q.reveal_button.disabled
        assert "Choices: [ ] Yes · [x] No" in q.text()
        assert q.text().endswith("Press Reveal to check.")
        q.reveal_button.click()
        assert q.revealed and q.correct is True
        assert q.text().splitlines()[-2:] == [
            "✓ Right: No.",
            "Why: Suits have no rank anywhere in the game (R1.2).",
        ]
        assert q.button("No").button_style == "success"
        assert all(q.button(c).disabled for c in q.choices)
        assert "palace-quiz-right" in q.html

    def test_wrong_pick_and_try_again(self) -> None:
        q = simple_quiz()
        q.button(0).click()
        q.reveal()
        assert q.correct is False
        assert "✗ Not quite: you picked “Yes”; the answer is “No”." in q.text()
        assert q.button("Yes").button_style == "danger"
        assert q.button("No").button_style == "success"
        q.choose("No")  # locked once revealed
        assert q.picked == "Yes"
        q.reset_button.click()
        assert q.picked is None and not q.revealed
        assert q.text().endswith(PICK_FIRST)
        assert "palace-quiz-wrong" not in q.html and "Why" not in q.text()

    def test_bad_definitions(self) -> None:
        with pytest.raises(ValueError, match="not one of the choices"):
            CheckYourself("?", ["a", "b"], "c", "why")
        with pytest.raises(ValueError, match="two or more different"):
            CheckYourself("?", ["a", "a"], "a", "why")
        with pytest.raises(ValueError, match="index 5"):
            CheckYourself("?", ["a", "b"], 5, "why")
        with pytest.raises(ValueError, match="not one of the choices"):
            simple_quiz().choose("Maybe")

    def test_plain_text_repr_is_the_text(self) -> None:
        q = simple_quiz()
        assert repr(q) == "CheckYourself('Does a suit ever outrank another?')"
        bundle = q._repr_mimebundle_()
        assert bundle["text/plain"] == q.text()
        assert "application/vnd.jupyter.widget-view+json" in bundle

    def test_battle_winner_from_the_engine(self) -> None:
        att = Army.parse("Kh", "Qs Js Ts", "9s 2c 3d")
        dfn = Army.parse("As", "Ac Ad", "5d 6d 8c")
        q = CheckYourself.battle(att, dfn, ("Ann", "Bob"))
        assert q.choices == ("Ann wins", "Bob wins", TIE_CHOICE)
        assert q.answer == "Bob wins" and resolve_battle(att, dfn).winner == "defender"
        assert q.explanation.startswith("Bob wins with three aces")
        battle = q.children[-1]
        assert battle.layout.display == "none"  # the showdown waits for Reveal
        q.choose("Bob wins")
        q.reveal()
        assert battle.layout.display is None
        assert "does not count (♠ is Bob's banner suit, R8.2)" in battle.text()
        # the question shows both armies face up, nothing struck out yet
        assert "struck out" not in q.html and "King of hearts" in q.html

    def test_battle_tie_break_and_full_tie(self) -> None:
        q = CheckYourself.battle(
            Army.parse("Qd", "Qs", "8d 8c 3d"), Army.parse("Qh", "Qc", "8h 8s 3c"), ("Ann", "Bob")
        )
        assert q.answer == "Ann wins" and "R8.5" in q.explanation
        tie = CheckYourself.battle(
            Army.parse("9h", "Ac Kd", "Qc Jd 2h"), Army.parse("9s", "Ad Kc", "Qd Jc 3s")
        )
        assert tie.answer == TIE_CHOICE and "R8.6" in tie.explanation

    def test_battle_without_exclusion_note(self) -> None:
        q = CheckYourself.battle(
            Army.parse("Kh", "Qs Js Ts", "9s 2c 3d"),
            Army.parse("As", "Ac Ad", "5d 6d 8c"),
            without_exclusion=True,
            note="Exclusion decided it.",
        )
        assert (
            "Had every card counted — Ann: Straight, king high; Bob: Three aces — Ann would win."
            in (q.explanation)
        )
        assert q.explanation.endswith("Exclusion decided it.")

    @pytest.mark.parametrize(
        ("first", "second", "answer"),
        [
            ("Ad 2c 3h 4s 5d", "6c 5h 4d 3s 2h", "Bob's hand"),  # the wheel is the lowest (R1.3)
            ("Kh Kc 9d 9s 4c 4d As", "Qs Qh Qd 3c 2h", "Bob's hand"),
            ("As Kd Qh Jc 9s", "Ah Ks Qd Jd 9c", "They are equal"),  # suits have no rank
        ],
    )
    def test_hands(self, first: str, second: str, answer: str) -> None:
        q = CheckYourself.hands(first, second, ("Ann", "Bob"))
        assert q.answer == answer
        assert "(R1.3)" in q.explanation and "Ann:" in q.explanation

    def test_scenario(self) -> None:
        scn = scenario("tie-banner-count")
        q = CheckYourself.scenario(scn, ["Ann", "Bob"], "Ann")
        assert q.question == scn.question and q.explanation == scn.answer
        assert scn.title in q.text().splitlines()[0]

    def test_battle_sentences_name_the_players(self) -> None:
        res = resolve_battle(Army.parse("2h", "3c"), Army.parse("Ks", "Kd"))
        text = res.explain("Ann", "Bob")
        assert text.startswith("Bob wins with a pair of kings (K♠ K♦")
        assert "against Ann's high card three (3♣ 2♥" in text
        assert "attacker" not in text and "defender" not in text and text.endswith("(R8.4).")


# ---------------------------------------------------------------------- course map
class TestCourseMap:
    def test_every_clause_is_taught(self) -> None:
        taught = {c for lesson in LESSONS for c in lesson.clauses}
        assert set(ALL_CLAUSES) <= taught
        assert taught <= set(ALL_CLAUSES)
        # ALL_CLAUSES is RULES.md's numbering (as the scenario loader knows it), R11 aside
        assert set(ALL_CLAUSES) == {c for c in CLAUSES if "." in c}

    def test_clause_index(self) -> None:
        df = clause_index()
        assert list(df.index) == [f"R{k} {t}" for k, t in SECTIONS.items()]
        assert df.loc["R6 The turn", "3 Your turn"] == "all"
        assert df.loc["R8 Battle showdown", "5 Banner-suit exclusion"] == "8.2, 8.3"
        assert (df != "").any(axis=1).all()  # every section is taught somewhere

    def test_course_map(self) -> None:
        df = course_map()
        assert list(df.index) == list(range(1, 8))
        assert df.loc[2, "title"] == "The deal"

    def test_notebooks_cite_their_clauses(self) -> None:
        for lesson in LESSONS:
            nb = json.loads((NOTEBOOKS / lesson.file).read_text())
            text = "\n".join("".join(c["source"]) for c in nb["cells"])
            missing = [c for c in lesson.clauses if not re.search(rf"{re.escape(c)}\b", text)]
            assert not missing, f"{lesson.file} does not cite {missing}"

    def test_index_links_every_lesson(self) -> None:
        nb = json.loads((NOTEBOOKS / "00_index.ipynb").read_text())
        text = "\n".join("".join(c["source"]) for c in nb["cells"])
        for lesson in LESSONS:
            assert f"]({lesson.file})" in text

    @pytest.mark.parametrize("name", ["00_index.ipynb"] + [lesson.file for lesson in LESSONS])
    def test_notebooks_are_thin_and_stored(self, name: str) -> None:
        nb = json.loads((NOTEBOOKS / name).read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            assert cell["execution_count"] is not None, name
            source = "".join(cell["source"])
            assert not re.search(r"^\s*(for|while|if|def|class)\b", source, re.M), (name, source)


# ---------------------------------------------------------------------- lesson 1
class TestCardsAndHands:
    def test_gallery_names_every_category(self) -> None:
        lines = category_gallery().text().splitlines()
        assert len(lines) == 9
        assert lines[0].startswith("1. Straight flush, nine high: ")
        assert lines[1] == "2. Four of a kind, queens: Q♠ Q♥ Q♦ Q♣ 4♠"
        assert lines[5].startswith("6. Three of a kind, sevens: ")
        assert lines[7].startswith("8. One pair, aces: ")
        # The category is named once: never "Four of a kind: Four queens".
        assert not any(name in line for line in lines for name in ("Four q", "Three s", "Pair of"))
        assert lines[4] == "5. Straight, five high: 5♦ 4♠ 3♥ 2♣ A♦"
        assert lines[-1].startswith("9. High card")

    def test_deck_rows(self) -> None:
        lines = deck_rows().text().splitlines()
        assert len(lines) == 4 and all(len(line.split(": ")[1].split()) == 13 for line in lines)

    def test_face(self) -> None:
        assert face("Ts") == "10♠" and face("As") == "A♠"
        assert faces("Td 9c") == "10♦ 9♣"

    def test_show_uses_text(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import IPython.display

        shown = []
        monkeypatch.setattr(IPython.display, "display", lambda obj, raw: shown.append((obj, raw)))
        rows = deck_rows()
        show(rows)
        ((bundle, raw),) = shown
        assert raw and bundle["text/plain"] == rows.text()
        assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == rows.model_id


# ---------------------------------------------------------------------- lesson 2
class TestDeal:
    def test_event_index(self) -> None:
        g = Game.new(players=5, seed=8)
        assert g.events[event_index(g, "cut_tie")].rule == "R2.2"
        assert event_index(g, "reject", -1) > event_index(g, "reject", 0)
        with pytest.raises(PalaceError, match="no 'battle' event"):
            event_index(g, "battle")

    def test_events_text(self) -> None:
        g = Game.new(players=5, seed=8)
        text = events_text(g, "banner", "reject")
        assert text.splitlines()[0] == "Step 14: Dan's banner is J♠ (group A) (R4.1)."
        assert "2♠ is rejected for Bob" in text
        assert "palace card" not in text
        palaces = events_text(g, "palace")
        assert "face down" in palaces  # spectators read the public sentence (R5.3)

    def test_banner_quiz_rejected(self) -> None:
        g = Game.new(players=5, seed=8)
        q = banner_card_quiz(g, event_index(g, "reject", 1))
        assert "Bob, in group A, is dealt 2♠" in q.question
        assert "group A: Dan J♠, Eve 7♦, Ann 4♥" in q.question
        assert q.answer.startswith("Rejected")
        assert "already Dan's banner in group A" in q.explanation

    def test_banner_quiz_kept_in_another_group(self) -> None:
        g = Game.new(players=6, seed=6)
        q = banner_card_quiz(g, event_index(g, "banner", -1))
        assert q.answer == "Kept: Eve's banner is 4♥"
        assert "group A: Fay 5♥, Ann 8♣, Bob 10♠, Cat Q♦; group B: Dan 9♣" in q.question
        assert "group B holds 9♣ so far, so ♥ is free there" in q.explanation

    def test_banner_quiz_needs_a_banner_event(self) -> None:
        g = Game.new(players=3, seed=1)
        with pytest.raises(PalaceError, match="not a banner-deal card"):
            banner_card_quiz(g, 0)


# ---------------------------------------------------------------------- lesson 3
class TestYourTurn:
    def test_positions(self) -> None:
        g = first_turn()
        assert g.names[g.dealer] == "Cat" and g.to_act == 0 and g.soldiers(0) == ()
        assert "R6.4" in g.why_illegal(Discard(cards=()))
        five = five_soldiers()
        assert five.to_act == 0 and len(five.soldiers(0)) == 5
        assert five.zones()["deck"][0].symbol == "9♣"

    def test_keep_all_quiz(self) -> None:
        q = keep_all_quiz(five_soldiers())
        assert q.answer == "Ann must discard at least one soldier before play goes on"
        assert "R6.7" in q.explanation and "9♣" in q.explanation
        q = keep_all_quiz(first_turn())
        assert q.answer == "Ann may keep the one soldier"
        assert q.question.startswith("Ann holds 0 soldiers (none) and buys.")
        assert "Keeping the one soldier is legal" in q.explanation
        empty = scenario("discard-pile-reshuffled").game()
        q = keep_all_quiz(empty)
        assert q.answer.endswith("may not Buy now") and "R6.3" in q.explanation

    def test_turn_desk_buy_trim_and_start_again(self) -> None:
        desk = TurnDesk(first_turn())
        assert desk.picker.button("discard").disabled
        assert desk.again_button.disabled
        desk.picker.button("buy").click()
        assert desk.game.phase is Phase.TRIM_TO_FIVE
        assert "Choosing discards from K♦" in desk.text()
        assert "K♦" in desk.table.text()
        desk.picker.button("keep").click()
        # Bob and Cat play on (no dead end at "Waiting for Bob"), narrated, back to Ann
        assert desk.game.to_act == 0 and "Your turn, Ann" in desk.text()
        said = desk.narration.lines
        assert said and said[0].startswith("Bob ") and any(ln.startswith("Cat ") for ln in said)
        assert "== What the others did ==" in desk.text()
        assert not desk.again_button.disabled
        desk.again_button.click()
        assert desk.game.actions == first_turn().actions and desk.game.to_act == 0
        assert desk.again_button.disabled

    def test_turn_desk_soldier_cap(self) -> None:
        desk = TurnDesk(five_soldiers())
        desk.picker.button("buy").click()
        desk.picker.button("keep").click()
        assert "Refused" in desk.picker.status and "R6.7" in desk.picker.status
        card = next(c for c in desk.picker.toggles if c.symbol == "3♠")
        desk.picker.toggles[card].value = True
        desk.picker.button("confirm").click()
        assert len(desk.game.soldiers(0)) == 5 and card not in desk.game.soldiers(0)

    def test_turn_desk_needs_a_seat(self) -> None:
        with pytest.raises(PalaceError, match="hand is over"):
            TurnDesk(bot_hand(3, 1))


# ---------------------------------------------------------------------- lesson 4
class TestBattles:
    def test_stake_table(self) -> None:
        df = stake_table(attack_position())
        assert list(df.index) == ["Bob", "Cat"]
        assert df.loc["Bob", "attack (R7.3)"] == 6 and df.loc["Bob", "call (R7.6)"] == 4
        assert df.loc["Cat", "call (R7.6)"] == 2 and df.loc["Cat", "call + raise (R7.7)"] == "2 + 4"
        assert "not allowed" not in df.columns

    def test_stake_table_same_suit(self) -> None:
        g = Game.new(players=5, seed=1, deck=SAME_SUIT_DECK, dealer=4)
        for _ in range(3):
            g.apply(Stay())
        df = stake_table(g)  # Dan to act; Eve shares his spade banner
        assert df.loc["Eve", "attack (R7.3)"] == "—" and "R7.2" in df.loc["Eve", "not allowed"]
        with pytest.raises(PalaceError):
            stake_table(under_attack())

    def test_under_attack(self) -> None:
        g = under_attack()
        assert g.phase is Phase.BATTLE_RESPONSE and g.to_act == 1 and g.owed() == 4

    def test_call_amount_quiz(self) -> None:
        q = call_amount_quiz(under_attack())
        assert q.choices == ("4 chips", "6 chips", "10 chips") and q.answer == "4 chips"
        assert "own army" in q.explanation and "Bob calls with 4 chips" in q.explanation
        v = call_amount_quiz(under_attack(Rules(call_matches_attack=True)))
        assert v.answer == "6 chips" and "4 chips" in v.choices  # the other rule's amount
        assert "matches the attack" in v.explanation
        with pytest.raises(PalaceError):
            call_amount_quiz(attack_position())

    def test_turn_desk_defender_calls(self) -> None:
        desk = TurnDesk(under_attack(), seat=1, bots={0: RuleBot()})
        assert "Ann attacks you" in desk.text()
        desk.picker.button("call").click()
        assert "== Showdown ==" in desk.text()
        assert "Verdict (R8.4): Bob wins" in desk.battle.text()
        desk.start_again()
        assert "== Showdown ==" not in desk.text() and desk.game.to_act == 1

    def test_turn_desk_defender_raises_and_the_bot_answers(self) -> None:
        desk = TurnDesk(under_attack(), seat=1, bots={0: RuleBot()})
        desk.picker.button("raise").click()
        kinds = [e.kind for e in desk.game.events[-6:]]
        assert "raise" in kinds and ("battle" in kinds or "out" in kinds)
        # the bot's answer to the raise is narrated: Ann's call or fold comes first
        answer = next(e for e in desk.game.events if e.kind in ("call", "fold") and e.seat == 0)
        assert desk.narration.lines[0].startswith("Ann ")
        assert answer.text in desk.narration.lines

    def test_armies_and_battle_quiz_match_the_scenarios(self) -> None:
        g = scenario("exclusion-turns-win-into-loss").game()
        att, dfn = armies_of(battle_event(g))
        assert att.banner.symbol == "9♣" and dfn.banner.symbol == "8♦"
        assert len(att.palace) == 3 and att.soldiers[0].symbol == "K♥"
        q = battle_quiz(g, without_exclusion=True)
        assert q.answer == "Cat wins" and "Bob would win" in q.explanation
        tie = battle_quiz(scenario("tie-banner-count").game())
        assert tie.answer == "Ann wins" and "R8.5" in tie.explanation
        both = battle_quiz(scenario("tie-both-out").game())
        assert both.answer == TIE_CHOICE
        with pytest.raises(PalaceError):
            armies_of(g.events[0])

    def test_scenario_lookup(self) -> None:
        assert scenario("tie-banner-count").id == "tie-banner-count"
        assert scenario("04-tie-banner-count").id == "tie-banner-count"
        with pytest.raises(PalaceError, match="no scenario"):
            scenario("nope")


# ---------------------------------------------------------------------- lesson 6
class TestPlayAHand:
    def test_bot_hand(self) -> None:
        g = bot_hand()
        assert g.is_over and g.result.rule == "R10.1"
        assert sum(e.kind == "battle" for e in g.events) == 3

    def test_pot_winner_quiz(self) -> None:
        q = pot_winner_quiz(scenario("quiet-round-showdown"))
        assert q.answer == "Ann takes the pot" and "R10.3" in q.explanation
        # the engine's sentence, its rule, then the scenario's reason (its "Ann." dropped)
        assert q.explanation.startswith(
            "Ann takes the pot of 8 chips with the best hand (R10.3). Banner-suit exclusion"
        )
        share = pot_winner_quiz(scenario("same-banner-share"))
        assert share.choices == ("Ann takes the pot", "Eve takes the pot", "They share it")
        assert share.answer == "They share it"
        with pytest.raises(PalaceError):
            pot_winner_quiz(scenario("tie-banner-count"))  # the hand goes on

    def test_legal_kinds_quiz(self) -> None:
        scn = scenario("two-left-must-battle")
        q = legal_kinds_quiz(scn, 3)
        assert q.answer == "only Bet or Fold" and "R9.3" in q.explanation
        assert legal_kinds_quiz(scn, 0).answer.startswith("Buy, Bet, Stay or Fold")


# ---------------------------------------------------------------------- lesson 7
class TestVariants:
    def test_side_by_side_matches_play_hands(self) -> None:
        a, b = Rules(), Rules(structure="no-limit")
        df = side_by_side(2026, a, b, hands=4)
        assert list(df.columns.get_level_values(0).unique()) == [
            "standard",
            "structure=no-limit",
            "",
        ]
        pa = play_hands(a, 4, 4, 2026, "rules")
        pb = play_hands(b, 4, 4, 2026, "rules")
        assert list(df[("standard", "pot")]) == list(pa["pot"])
        assert list(df[("structure=no-limit", "pot")]) == list(pb["pot"])
        for i in range(4):  # the winner names are those of the replayed hands
            g = variant_game(b, 2026, i)
            assert df.loc[i, ("structure=no-limit", "winner")] == " & ".join(
                g.names[s] for s in g.result.winners
            )
        for i in range(4):  # "what changed" says exactly how the two replays differ
            changed = df.loc[i, ("", "what changed")]
            pot_a, pot_b = pa["pot"].iloc[i], pb["pot"].iloc[i]
            assert (f"pot {pot_a}→{pot_b}" in changed) == (pot_a != pot_b)
            if changed == "nothing":
                assert (
                    df.loc[i, ("standard", "winner")] == df.loc[i, ("structure=no-limit", "winner")]
                )

    def test_side_by_side_same_rules(self) -> None:
        df = side_by_side(1, Rules(), Rules(), hands=2)
        assert "standard (B)" in df.columns.get_level_values(0)
        assert set(df[("", "what changed")]) == {"nothing"}

    def test_stacks_change_the_ending(self) -> None:
        df = side_by_side(2026, Rules(), Rules(stacks=20), hands=8)
        for i in range(8):
            a, b = variant_game(Rules(), 2026, i), variant_game(Rules(stacks=20), 2026, i)
            changed = df.loc[i, ("", "what changed")]
            if a.result.reason != b.result.reason:
                assert f"ends by {b.result.reason}" in changed
            if a.pot != b.pot or sum(a.won) != sum(b.won):
                assert "pot" in changed

    def test_first_difference(self) -> None:
        same = first_difference(variant_game(Rules(), 2026, 4), variant_game(Rules(), 2026, 4))
        assert same.index is None and "the same" in str(same)
        ga, gb = variant_game(Rules(), 2026, 4), variant_game(Rules(stacks=20), 2026, 4)
        div = first_difference(ga, gb)
        first = next(
            i
            for i, (x, y) in enumerate(zip(ga.events, gb.events, strict=False))
            if str(x) != str(y)
        )
        assert div.index == first
        assert div.a == str(ga.events[first]).split(" ", 1)[1]
        assert div.b == str(gb.events[first]).split(" ", 1)[1]
        assert str(div).startswith(f"First difference at event #{first}:")

    def test_variant_game_bots(self) -> None:
        for bot in ("rules", "random", "mixed"):
            assert variant_game(Rules(), 3, 1, bot=bot).is_over
        with pytest.raises(PalaceError):
            variant_game(Rules(), 3, 1, bot="clever")

    def test_comparer(self) -> None:
        c = VariantComparer(seed=2026, hands=3)
        assert c.text().splitlines()[0] == "Hand 0: standard vs no-limit (R3.3)"
        div = first_difference(
            variant_game(Rules(), 2026, 0), variant_game(Rules(structure="no-limit"), 2026, 0)
        )
        assert f"First difference at event #{div.index}" in c.text()
        c.variant.value = "20 chips each (R3.4)"
        c.hand.value = 2
        assert c.text().splitlines()[0] == "Hand 2: standard vs 20 chips each (R3.4)"
        pots = [sum(variant_game(r, 2026, 2).won) for r in (Rules(), Rules(stacks=20))]
        assert f"pot: {pots[0]} | {pots[1]}" in c.text()
        assert "20 chips each (R3.4)" in c.html
        labels = {v.label for v in VARIANTS.values()}
        assert labels >= {"no-limit (R3.3)", "call matches attack (R7.6)"}
        assert list(c.variant.options) == [v.label for v in VARIANTS.values()][1:]

    def test_variant_summary(self) -> None:
        df = variant_summary(
            {"standard": Rules(), "no-limit": Rules(structure="no-limit")}, hands=20, seed=1
        )
        assert list(df.index) == list(SUMMARY_ROWS)
        assert list(df.columns) == ["standard", "no-limit"]
        assert df.loc["battles per hand", "standard"] == df.loc["battles per hand", "no-limit"]
