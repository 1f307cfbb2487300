"""The panels of `palace.widgets`: build each one, click and set values, check what it shows."""

from __future__ import annotations

import html
import re

import pytest

from palace import (
    Army,
    Bet,
    Card,
    Fold,
    Game,
    Phase,
    RuleBot,
    Rules,
    Stay,
    parse_cards,
    play_out,
)
from palace.errors import PalaceError
from palace.lessons import drill, guided_first_hand
from palace.lessons.guided import first_hand
from palace.views import sentence_for
from palace.widgets import (
    CARD_CSS,
    ActionPicker,
    BattleView,
    CardRow,
    DealStepper,
    ExclusionExplorer,
    PlayController,
    PlayPanel,
    TableView,
    card_html,
    cards_html,
)
from palace.widgets.battle_view import shows_battle
from palace.widgets.cards import face
from palace.widgets.quiz import CheckYourself

# Five players, dealer Eve (seat 4): the banner deal goes Ann Ah, Bob Kd, Cat Qc, Dan Js
# (group A), then Eve Ts (group B): Dan and Eve both have spade banners (R4.5, R7.2).
SAME_SUIT_DECK = "Ah Kd Qc Js Ts 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 2d 3d 4d 5d 6d"


def labels(markup: str) -> list[str]:
    """Every aria-label in some HTML (unescaped)."""
    return [html.unescape(m) for m in re.findall(r'aria-label="([^"]*)"', markup)]


def same_suit_game() -> Game:
    g = Game.new(players=5, seed=1, deck=SAME_SUIT_DECK, dealer=4)
    assert g.banner(3).suit == g.banner(4).suit  # the scenario the tests rely on
    for _ in range(3):  # Ann, Bob and Cat stay: Dan (seat 3) decides
        g.apply(Stay())
    assert g.to_act == 3
    return g


# ---------------------------------------------------------------------- cards
class TestCards:
    def test_card_has_text_alternative_and_symbols(self) -> None:
        h = card_html(Card.parse("Ks"))
        assert 'role="img"' in h
        assert labels(h) == ["King of spades"]
        assert 'title="King of spades"' in h
        assert "♠" in h and ">K<" in h

    def test_ten_reads_10(self) -> None:
        assert ">10<" in card_html("Td")

    def test_face_down_hides_the_card(self) -> None:
        h = card_html(Card.parse("Ks"), face_down=True)
        assert labels(h) == ["face-down card"]
        assert "King" not in h and "♠" not in h

    def test_struck_card_names_the_reason(self) -> None:
        reason = "♠ is Bob's banner suit — does not count, R8.2"
        h = card_html("Qs", struck=reason)
        assert "palace-struck" in h
        assert labels(h) == [f"Queen of spades (struck out: {reason})"]

    def test_colour_classes(self) -> None:
        assert "palace-red" in card_html("Qh")
        assert "palace-red" not in card_html("Qc")
        four = card_html("Qc", four_color=True)
        assert "palace-4c" in four and "palace-suit-c" in four
        assert ".palace-4c.palace-suit-c { color: #15803d; }" in CARD_CSS

    def test_cards_html_maps_struck_and_highlight(self) -> None:
        h = cards_html("As Kh 2c", struck={Card.parse("As"): "gone"}, highlight=parse_cards("Kh"))
        assert h.count("palace-struck") == 1
        assert h.count("palace-hl") == 1
        assert "none" in cards_html([])

    def test_card_row_widget(self) -> None:
        row = CardRow("As Kd", label="Soldiers")
        assert row.text() == "Soldiers: A♠ K♦"
        assert row.html.count("<style>") == 1
        row.cards = "7h"
        assert row.text() == "Soldiers: 7♥"
        assert labels(row.html) == ["Seven of hearts"]


# ---------------------------------------------------------------------- table
class TestTableView:
    def test_perspective_shows_only_own_palace(self) -> None:
        g = Game.new(players=4, seed=3)
        tv = TableView(g, perspective=0)
        own = g.palace(0)
        other = g.palace(1)
        shown = labels(tv.html)
        assert all(c.name in shown for c in own)
        assert not any(c.name in shown for c in other)
        lines = tv.text().splitlines()
        ann = next(line for line in lines if line.startswith("Ann"))
        bob = next(line for line in lines if line.startswith("Bob"))
        assert "you" in ann and " ".join(c.symbol for c in own) in ann
        assert "palace 3 face-down" in bob

    def test_public_view_and_reveal_all(self) -> None:
        g = Game.new(players=4, seed=3)
        tv = TableView(g)
        assert not any(c.name in labels(tv.html) for s in range(4) for c in g.palace(s))
        tv.show(g, reveal_all=True)
        assert all(c.name in labels(tv.html) for s in range(4) for c in g.palace(s))
        assert "all cards shown" in tv.html

    def test_dealer_turn_and_pot(self) -> None:
        g = Game.new(players=4, seed=3)
        tv = TableView(g)
        text = tv.text()
        dealer = g.names[g.dealer]
        assert f"{dealer} (dealer)" in text
        assert f"{g.names[g.to_act]} (to act)" in text
        assert text.startswith(f"Pot {g.pot} ·")
        assert 'class="palace-dealer"' in tv.html

    def test_out_player_is_marked(self) -> None:
        g = Game.new(players=4, seed=3)
        folder = g.to_act
        g.apply(Fold())
        tv = TableView(g)
        assert f"{g.names[folder]} (out)" in tv.text()
        assert "palace-is-out" in tv.html

    def test_snapshot_with_rejects_during_banner_deal(self) -> None:
        g = Game.new(players=6, seed=3)
        reject = next(e for e in g.events if e.kind == "reject")
        tv = TableView()
        tv.show(g.state_at(reject.index), names=g.names, dealer=g.dealer)
        assert f"Banner rejects: {reject.cards[0].symbol}" in tv.text()
        assert reject.cards[0].name in labels(tv.html)
        assert "Banner deal" in tv.text()

    def test_snapshot_perspective_hides_other_palaces(self) -> None:
        g = Game.new(players=3, seed=2)
        snap = g.state_at(len(g.events) - 1)
        tv = TableView()
        tv.show(snap, perspective=1, names=g.names, dealer=g.dealer)
        shown = labels(tv.html)
        assert all(c.name in shown for c in g.palace(1))
        assert not any(c.name in shown for c in g.palace(0))

    def test_rejects_bad_source(self) -> None:
        with pytest.raises(TypeError):
            TableView().show("not a game")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- stepper
class TestDealStepper:
    def test_next_back_first_last(self) -> None:
        g = Game.new(players=4, seed=3)
        st = DealStepper(g)
        assert st.index == 0
        n = len(g.events)
        assert st.text() == f"Step 1 of {n}: {g.events[0].text} ({g.events[0].rule})"
        assert f"step 1 of {n}" in st.event_html and "#0" not in st.event_html
        st.button("next").click()
        st.button("next").click()
        assert st.index == 2
        assert g.events[2].text in st.text()
        st.button("back").click()
        assert st.index == 1
        st.button("last").click()
        assert st.index == len(g.events) - 1
        assert st.button("next").disabled and not st.button("back").disabled
        st.button("first").click()
        assert st.index == 0 and st.button("back").disabled

    def test_slider_and_play_jump(self) -> None:
        g = Game.new(players=4, seed=3)
        st = DealStepper(g)
        st.slider.value = 13  # "Go to step" counts from 1, as the steps are shown
        assert st.index == 12
        assert st.text().startswith(f"Step 13 of {len(g.events)}: {g.events[12].text}")
        # Play is a button with words (no icon-only control); each tick is one step
        assert st.play.description == "Play" and st.play.tooltip
        st.play.value = True
        assert st.play.description == "Pause"
        assert st.tick() and st.index == 13
        st.last()
        assert not st.tick() and not st.play.value and st.play.description == "Play"

    def test_reject_is_shown_with_rule_badge(self) -> None:
        g = Game.new(players=6, seed=3)
        reject = next(e for e in g.events if e.kind == "reject")
        st = DealStepper(g)
        st.go(reject.index)
        assert st.text() == f"Step {reject.index + 1} of {len(g.events)}: {reject.text} (R4.3)"
        html_ = st.event_html
        assert "palace-event-reject" in html_ and ">R4.3<" in html_
        assert "Banner card rejected" in html_
        assert html.escape(reject.text, quote=True) in html_
        # the rejected card is drawn struck out, the sentence as its reason
        assert any(lab.startswith(reject.cards[0].name + " (struck out") for lab in labels(html_))
        assert f"Banner rejects: {reject.cards[0].symbol}" in st.table.text()

    def test_palace_card_hidden_unless_own_or_revealed(self) -> None:
        g = Game.new(players=4, seed=3)
        ev = next(e for e in g.events if e.kind == "palace")
        card = ev.cards[0]
        st = DealStepper(g, start=ev.index)
        assert card.name not in labels(st.event_html)
        assert "face-down card" in labels(st.event_html)
        st.perspective = ev.seat
        assert card.name in labels(st.event_html)
        st.perspective = (ev.seat + 1) % 4
        assert card.name not in labels(st.event_html)
        st.reveal_all = True
        assert card.name in labels(st.event_html)

    def test_battle_event_shows_battle_view(self) -> None:
        g = Game.new(players=3, seed=1)
        play_out(g, {s: RuleBot() for s in range(3)})
        battle = next(e for e in g.events if e.kind == "battle")
        st = DealStepper(g, start=battle.index)
        assert st.battle.layout.display == "none"  # a spectator never saw the palaces
        st.reveal_all = True
        assert st.battle.layout.display != "none"
        assert "Verdict" in st.battle.text()
        st.next()
        assert st.battle.layout.display == "none"

    def test_whole_hand_block_tells_every_step_as_the_view_may_read_it(self) -> None:
        g = play_out(Game.new(players=3, seed=1), {s: RuleBot() for s in range(3)})
        battle = next(e for e in g.events if e.kind == "battle")
        st = DealStepper(g, start=len(g.events) - 1)
        story = st.story_html
        # a closed <details>, so the page shows the step and the story is one click away
        assert '<details class="palace-whole-hand">' in story
        assert f"The whole hand, step by step ({len(g.events)} steps)" in story
        items = re.findall(r"<li>(.*?)</li>", story, re.S)
        assert len(items) == len(g.events)
        for ev, item in zip(g.events, items, strict=True):
            assert html.escape(sentence_for(ev, None), quote=True) in item
            assert f'<span class="palace-log-num">{ev.index + 1}</span>' in item
        # a spectator never saw the palaces: no battle's cards, no palace card named
        assert "palace-whole-battle" not in story
        palace_cards = {c.name for e in g.events if e.kind == "palace" for c in e.cards}
        assert not palace_cards & set(labels(story))
        st.reveal_all = True
        story = st.story_html
        assert html.escape(battle.text, quote=True) in story
        shown = re.search(r'<div class="palace-whole-battle">(.*?)</li>', story, re.S)
        assert shown is not None
        res = battle.detail["battle"]
        for hand in (res.attacker_hand, res.defender_hand):
            for c in hand.cards:
                assert c.name in " ".join(labels(shown.group(1)))
            for c in hand.excluded:  # struck out with the rule that strikes it
                assert any(
                    lab.startswith(f"{c.name} (struck out") for lab in labels(shown.group(1))
                )
        # a seat sees the battles it fought (R5.3: palaces shown down to the two sides)
        st.reveal_all = False
        st.perspective = battle.detail["defender"]
        fought = [e for e in g.events if shows_battle(e, st.perspective, False)]
        assert fought and st.story_html.count("palace-whole-battle") == len(fought)
        st.perspective = next(
            s for s in range(3) if s not in (battle.detail["attacker"], battle.detail["defender"])
        )
        fought = [e for e in g.events if shows_battle(e, st.perspective, False)]
        assert st.story_html.count("palace-whole-battle") == len(fought)


class TestGuidedHand:
    def test_whole_hand_follows_every_step_to_the_pot(self) -> None:
        guide = guided_first_hand()
        story = guide.story_html
        assert '<details class="palace-whole-hand">' in story
        steps = re.findall(r'palace-whole-step-head">Step (\d+) of (\d+): ([^<]*)', story)
        n = len(guide.steps)
        assert [int(i) for i, _, _ in steps] == list(range(1, n + 1))
        assert [t.strip() for _, _, t in steps] == [s.title for s in guide.steps]
        for step in guide.steps:
            assert html.escape(step.text, quote=True) in story
        # played as the steps ask, the story reaches the hand's end with the battle's cards
        g, bots = first_hand()
        ctl = PlayController(g, human=0, bots=dict(bots))
        for step in guide.steps:
            if step.expect is not None:
                ctl.act(next(a for a in ctl.game.legal_actions() if step.wants(a)))
        assert ctl.game.is_over
        for ev in ctl.game.events[len(first_hand()[0].events) :]:
            assert html.escape(sentence_for(ev, 0), quote=True) in story
        battle = next(e for e in ctl.game.events if e.kind == "battle")
        block = re.search(r'<div class="palace-whole-battle">(.*?)</li>', story, re.S)
        assert block is not None
        shown = labels(block.group(1))
        for c in battle.cards:
            assert any(lab.startswith(c.name) for lab in shown), c
        # the live panel is untouched: still at its first step
        assert guide.index == 0 and not guide.game.is_over


class TestAnswersBehindDetails:
    def test_drill_answer_waits_behind_a_closed_details_until_check(self) -> None:
        d = drill(lesson=1, seed=1)
        ex = d.exercise
        block = re.search(r'<details class="palace-answer">(.*?)</details>', d.html, re.S)
        assert block is not None  # closed: no "open" attribute
        assert html.escape(ex.answer, quote=True) in block.group(1)
        assert html.escape(ex.explanation, quote=True) in block.group(1)
        assert html.escape(ex.question, quote=True) in d.html
        d.choose(ex.answer)
        d.check()
        assert "palace-answer" not in d.html and "palace-drill-right" in d.html
        d.another()
        assert html.escape(d.exercise.answer, quote=True) in d.html.split("palace-answer")[1]

    def test_many_panels_add_their_style_sheets_once(self) -> None:
        first = drill(lesson=1, seed=1).children[0]
        size = len(first.value)
        for seed in range(2, 5):
            assert drill(lesson=1, seed=seed).children[0] is first  # the page's one sheet
        guided_first_hand()
        DealStepper(Game.new(players=3, seed=1))
        grown = len(first.value)
        guided_first_hand()
        DealStepper(Game.new(players=3, seed=2))
        drill(lesson=2, seed=1)
        assert len(first.value) == grown >= size
        assert first.value.count(".palace-whole-hand {") == 1

    def test_quiz_answer_and_showdown_behind_details(self) -> None:
        att, dfn = Army.parse("Kh", "Qs", "Ks 8c 3c"), Army.parse("4d", "Ah", "Ac 6h 2s")
        q = CheckYourself.battle(att, dfn, ("Ann", "Cat"))
        block = re.search(r'<details class="palace-answer">(.*?)</details>', q.html, re.S)
        assert block is not None and "Answer: Ann wins." in block.group(1)
        struck = [lab for lab in labels(block.group(1)) if "struck out" in lab]
        assert len(struck) == 2  # Cat's A♥ and 6♥ under Ann's heart banner (R8.2)
        q.choose("Ann wins")
        q.reveal()
        assert "palace-answer" not in q.html and "palace-quiz-right" in q.html


# ---------------------------------------------------------------------- action picker
class TestActionPicker:
    def test_same_suit_target_disabled_with_r72(self) -> None:
        g = same_suit_game()
        picker = ActionPicker(g, 3)
        eve = picker.button("bet", 4)
        assert eve.disabled
        assert "R7.2" in picker.reason("bet", 4)
        assert "R7.2" in eve.tooltip
        assert "both have ♠ banners" in picker.text()
        for t in (0, 1, 2):
            assert not picker.button("bet", t).disabled
            assert picker.reason("bet", t) == ""

    def test_disabled_kinds_show_reasons(self) -> None:
        picker = ActionPicker(same_suit_game(), 3)
        assert not picker.button("buy").disabled
        assert picker.button("discard").disabled
        assert "R6.4" in picker.reason("discard")
        for kind in ("call", "raise"):
            assert picker.button(kind).disabled and "R7.4" in picker.reason(kind)
        text = picker.text()
        assert "[off] Call — there is no battle to answer" in text
        assert "[on] Stay" in text

    def test_refused_click_shows_the_rule(self) -> None:
        g = same_suit_game()
        picker = ActionPicker(g, 3)
        before = len(g.events)
        picker.button("bet", 4).click()  # clicking a disabled button still reaches the engine
        assert "Refused" in picker.status and "R7.2" in picker.status
        assert len(picker.game.events) == before  # nothing changed
        assert "R7.2" in picker.text().splitlines()[-1]

    def test_buy_leads_to_trim_controls(self) -> None:
        c = PlayController(same_suit_game(), human=3, bots={}, auto=False)
        picker = ActionPicker(c)
        assert picker.toggles == {}
        picker.button("buy").click()
        g = picker.game
        assert g.phase is Phase.TRIM_TO_FIVE and g.to_act == 3
        bought = g.soldiers(3)
        assert set(picker.toggles) == set(bought) and len(bought) == 1
        assert picker.button("buy").disabled and "R6.7" in picker.reason("buy")
        assert "Choosing discards" in picker.text()
        picker.button("keep").click()
        assert picker.game.phase is Phase.TURN and picker.game.to_act == 4
        assert picker.game.soldiers(3) == bought
        assert picker.toggles == {}

    def test_trim_discards_selected_soldier(self) -> None:
        c = PlayController(same_suit_game(), human=3, bots={}, auto=False)
        picker = ActionPicker(c)
        picker.button("buy").click()
        card = next(iter(picker.toggles))
        picker.toggles[card].value = True
        # each toggle is named by its card, and says whether it is ticked (not by its words)
        assert picker.toggles[card].description == f"Discard {face(card)}"
        picker.button("confirm").click()
        assert card not in picker.game.soldiers(3)
        assert card in picker.game.zones()["discard"]

    def test_discard_without_selection_is_refused(self) -> None:
        c = PlayController(same_suit_game(), human=3, bots={}, auto=False)
        picker = ActionPicker(c)
        picker.button("buy").click()
        picker.button("keep").click()
        # round the table back to Dan: Eve, Ann, Bob, Cat stay
        for _ in range(4):
            c.game.apply(Stay())
        picker.refresh()
        assert not picker.button("discard").disabled
        picker.button("discard").click()
        assert picker.toggles  # choosing which soldiers
        picker.button("confirm").click()
        assert "Refused" in picker.status and "R6.4" in picker.status
        soldier = next(iter(picker.toggles))
        picker.toggles[soldier].value = True
        picker.button("confirm").click()
        assert picker.game.soldiers(3) == ()
        assert picker.status.startswith("Done: Discard")

    def test_defender_sees_fold_call_raise(self) -> None:
        g = same_suit_game()
        g.apply(Bet(target=0))  # Dan attacks Ann
        picker = ActionPicker(g, 0)
        for kind in ("fold", "call", "raise"):
            assert not picker.button(kind).disabled, kind
        for kind in ("buy", "stay"):
            assert picker.button(kind).disabled and "R7.4" in picker.reason(kind)
        assert picker.button("call").description == f"Call ({g.owed()} chips)"
        assert "Dan attacks you" in picker.text()
        picker.button("call").click()
        assert any(e.kind == "battle" for e in picker.game.events)

    def test_not_my_turn_everything_waits(self) -> None:
        picker = ActionPicker(same_suit_game(), 0)
        assert all(picker.button(k).disabled for k in ("buy", "stay", "fold"))
        assert "Dan" in picker.reason("buy")
        picker.button("stay").click()
        assert "Refused" in picker.status and "Dan's turn" in picker.status

    def test_advisor_text_next_to_legal_targets(self) -> None:
        seen: list[int] = []

        def advisor(game: Game, seat: int, target: int) -> str:
            seen.append(target)
            return f"win 62% · tie 1% · lose 37% against {game.names[target]}"

        picker = ActionPicker(same_suit_game(), 3, advisor=advisor)
        assert sorted(set(seen)) == [0, 1, 2]  # not Eve: same banner suit
        assert "win 62% · tie 1% · lose 37% against Bob" in picker.text()

    def test_no_limit_amount_starts_at_minimum(self) -> None:
        g = Game.new(players=3, seed=2, rules=Rules(structure="no-limit"))
        picker = ActionPicker(g, g.to_act)
        assert picker.bet_amount.min == g.min_attack(g.to_act)
        me = g.to_act
        target = next(t for t in range(3) if t != me and not picker.button("bet", t).disabled)
        picker.bet_amount.value = g.min_attack(g.to_act) + 5
        picker.button("bet", target).click()
        assert picker.game.events[-1].kind == "bet"
        assert picker.game.events[-1].amount == g.min_attack(g.to_act) + 5

    def test_on_action_callback(self) -> None:
        got = []
        picker = ActionPicker(same_suit_game(), 3)
        picker.on_action(lambda action, events: got.append((action, len(events))))
        picker.button("stay").click()
        assert got and isinstance(got[0][0], Stay) and got[0][1] >= 1


# ---------------------------------------------------------------------- battle view
class TestBattleView:
    def test_excluded_cards_struck_with_reason(self) -> None:
        bv = BattleView()
        res = bv.show_result(
            Army.parse("Kh", "Qs Js Ts", "9s 2c 3d"),
            Army.parse("As", "Ac Ad", "5d 6d 8c"),
            ("Ann", "Bob"),
        )
        assert res.winner == "defender"
        struck = [lab for lab in labels(bv.html) if "struck out" in lab]
        assert len(struck) == 4
        assert "Queen of spades (struck out: ♠ is Bob's banner suit — does not count, R8.2)" in (
            struck
        )
        text = bv.text()
        assert "does not count (♠ is Bob's banner suit, R8.2): Q♠ J♠ 10♠ 9♠" in text
        assert "High card king (short: 3 counting cards)" in text
        assert "Bob wins with three aces" in text
        assert "Bob captures K♥ Q♠ J♠ 10♠" in text
        assert bv.html.count("palace-hl") == 3 + 5  # both best hands ringed

    def test_tie_break_counts_shown(self) -> None:
        bv = BattleView()
        res = bv.show_result(
            Army.parse("9h", "Ac Kd", "Qc Jd 2h"),
            Army.parse("9s", "Ad Kc", "Qd Jc"),
            ("Ann", "Bob"),
        )
        assert res.decided_by == "banner_count"
        text = bv.text()
        assert "Tie-break (R8.5)" in text and "Ann 2 ♥" in text and "Bob 1 ♠" in text
        assert ">R8.5<" in bv.html

    def test_no_tie_break_line_when_hands_decide(self) -> None:
        bv = BattleView()
        bv.show_result(Army.parse("Ah", "Ad Ac"), Army.parse("2s"), ("Ann", "Bob"))
        assert "Tie-break" not in bv.text()

    def test_still_tied(self) -> None:
        bv = BattleView()
        bv.show_result(
            Army.parse("9h", "Ac Kd", "Qc Jd 2h"),
            Army.parse("9s", "Ad Kc", "Qd Jc 3s"),
            ("Ann", "Bob"),
        )
        assert "No capture" in bv.text() and "Verdict (R8.6)" in bv.text()

    def test_show_event_from_a_game(self) -> None:
        g = Game.new(players=3, seed=1)
        play_out(g, {s: RuleBot() for s in range(3)})
        ev = next(e for e in g.events if e.kind == "battle")
        bv = BattleView()
        bv.show_event(ev, g.names)
        res = ev.detail["battle"]
        a, d = g.names[ev.detail["attacker"]], g.names[ev.detail["defender"]]
        text = bv.text()
        assert text.startswith(f"{a} (attacker")
        assert f"{d} (defender" in text
        assert f"Verdict ({res.rule}): {ev.text}" in text
        excluded = res.attacker_hand.excluded + res.defender_hand.excluded
        struck = [lab for lab in labels(bv.html) if "struck out" in lab]
        assert len(struck) == len(excluded) > 0

    def test_show_event_rejects_other_events(self) -> None:
        g = Game.new(players=3, seed=1)
        with pytest.raises(PalaceError, match="is not a battle showdown"):
            BattleView().show_event(g.events[0])


# ---------------------------------------------------------------------- exclusion explorer
class TestExclusionExplorer:
    def test_default_shows_both_hands(self) -> None:
        ex = ExclusionExplorer()
        text = ex.text()
        assert "Without exclusion: Flush, ace high" in text
        assert "With ♠ excluded (R8.2): High card two (short: 1 counting card)" in text
        assert "Taken away: A♠ K♠ Q♠ J♠ 9♠" in text
        assert sum("struck out" in lab for lab in labels(ex.html)) == 5

    def test_own_banner_suit_is_never_the_opponents(self) -> None:
        ex = ExclusionExplorer(own="h", opponent="s")
        offered = [v for _, v in ex.opponent_suit.options]
        hearts, spades = parse_cards("2h 2s")
        assert hearts.suit not in offered and spades.suit in offered  # R7.2
        ex.own_suit.value = spades.suit  # now the opponent's spades would be the own suit
        offered = [v for _, v in ex.opponent_suit.options]
        assert spades.suit not in offered and hearts.suit in offered
        assert ex.text().splitlines()[1] == "Own banner ♠ · opponent's banner none"
        with pytest.raises(ValueError, match="R7.2"):
            ExclusionExplorer(own="c", opponent="c")

    def test_live_update_on_suit_and_cards(self) -> None:
        ex = ExclusionExplorer()
        ex.own_suit.value = parse_cards("2d")[0].suit
        ex.opponent_suit.value = parse_cards("2h")[0].suit
        assert "Taken away: 2♥" in ex.text()
        assert "With ♥ excluded (R8.2): Flush, ace high" in ex.text()
        ex.cards_input.value = "Ah Ad Ac Kd Ks"
        assert "Without exclusion: Full house, aces over kings" in ex.text()
        assert "With ♥ excluded (R8.2): Two pair, aces and kings" in ex.text()

    def test_bad_card_message_keeps_previous_result(self) -> None:
        ex = ExclusionExplorer()
        ex.cards_input.value = "As Kx Qs"
        assert "Kx" in ex.error
        assert "Kx" in ex.html and "palace-error" in ex.html
        assert "Without exclusion: Flush, ace high" in ex.text()  # the last good cards
        assert ex.text().endswith(f"Error: {ex.error}")
        ex.cards_input.value = "As As"
        assert "appears twice" in ex.error
        ex.cards_input.value = "As Ah"
        assert ex.error == "" and "palace-error" not in ex.html
        assert "Pair of aces" in ex.text()

    def test_too_many_cards(self) -> None:
        ex = ExclusionExplorer()
        ex.cards_input.value = "As Ks Qs Js Ts 9s 8s 7s 6s 5s"
        assert "R8.1" in ex.error

    def test_card_grid_follows_and_edits_text(self) -> None:
        ex = ExclusionExplorer(cards="As Kd")
        grid = ex.grid
        assert grid[Card.parse("As")].value and not grid[Card.parse("Qh")].value
        grid[Card.parse("Qh")].value = True
        assert ex.cards_input.value == "As Kd Qh"
        grid[Card.parse("As")].value = False
        assert ex.cards == parse_cards("Kd Qh")

    def test_same_suit_note_and_no_opponent(self) -> None:
        ex = ExclusionExplorer(own="s", opponent="h")
        assert "R7.2" in ex.html  # why the own suit is not offered
        ex.opponent_suit.value = "none"
        assert "Taken away" not in ex.text()
        assert "opponent's banner none" in ex.text()


# ---------------------------------------------------------------------- controller & play panel
class TestPlayController:
    def test_bots_play_until_the_human(self) -> None:
        c = PlayController(players=4, human=2, seed=5)
        assert c.game.is_over or c.game.to_act == 2

    def test_act_refuses_out_of_turn_and_illegal(self) -> None:
        c = PlayController(same_suit_game(), human=0, bots={}, auto=False)
        with pytest.raises(PalaceError, match="Dan's turn"):
            c.act(Stay())

    def test_undo_goes_back_to_the_human_decision(self) -> None:
        c = PlayController(players=4, human=0, seed=5)
        before = len(c.game.events)
        heard = []
        c.add_listener(heard.append)
        c.act(Stay())
        assert len(c.game.events) > before
        c.undo()
        assert len(c.game.events) == before and c.game.to_act == 0
        assert heard[-1] == []
        with pytest.raises(PalaceError, match="nothing to undo"):
            c.undo()

    def test_new_hand_uses_next_seed(self) -> None:
        c = PlayController(players=3, human=0, seed=5)
        c.new_hand()
        assert c.game.seed == 6
        c.new_hand(seed=40)
        assert c.game.seed == 40


def _click_a_legal_action(panel: PlayPanel, prefer: str = "stay") -> None:
    """What a learner might do: keep soldiers, `prefer` (stay or buy), call, attack, else fold."""
    p = panel.picker
    if p.toggles:
        soldiers = list(p.toggles)
        extra = max(0, len(soldiers) - 5)
        for c in soldiers[:extra]:
            p.toggles[c].value = True
        p.button("confirm" if extra else "keep").click()
        return
    if prefer == "buy" and len(panel.game.soldiers(p.seat)) >= 3:
        prefer = "stay"  # buying for ever never ends the hand (R9.1 restarts)
    for kind in (prefer, "stay", "call"):
        if not p.button(kind).disabled:
            p.button(kind).click()
            return
    g = panel.game
    for t in range(g.players):
        if t != p.seat and not p.button("bet", t).disabled:
            p.button("bet", t).click()
            return
    p.button("fold").click()


class TestPlayPanel:
    @pytest.mark.parametrize("prefer", ["stay", "buy"])
    @pytest.mark.parametrize("seed", [1, 5, 9])
    def test_plays_to_the_end(self, seed: int, prefer: str) -> None:
        panel = PlayPanel(players=4, seat=0, seed=seed)
        clicks = 0
        while not panel.game.is_over and clicks < 300:
            assert panel.game.to_act == 0
            before = len(panel.game.events)
            _click_a_legal_action(panel, prefer)
            assert len(panel.game.events) > before, panel.picker.status
            clicks += 1
        assert panel.game.is_over and clicks >= 1
        text = panel.text()
        assert "== Result ==" in text and panel.game.result.text in text
        assert "The hand is over" in panel.picker.text()
        assert "palace-result" in panel.hand_log.result.value

    def test_learner_view_and_reveal_all(self) -> None:
        panel = PlayPanel(players=4, seat=0, seed=5)
        g = panel.game
        other = [c for s in range(1, 4) if g.active[s] for c in g.palace(s)]
        assert not any(c.name in labels(panel.table.html) for c in other)
        panel.reveal_all = True
        assert all(c.name in labels(panel.table.html) for c in other)

    def test_undo_and_new_hand_buttons(self) -> None:
        panel = PlayPanel(players=4, seat=0, seed=5)
        assert panel.button("undo").disabled
        start = len(panel.game.events)
        panel.picker.button("stay").click()
        assert not panel.button("undo").disabled
        panel.button("undo").click()
        assert len(panel.game.events) == start
        assert "taken back" in panel.message
        panel.seed_input.value = 77
        panel.button("new").click()
        assert panel.game.seed == 77
        assert "seed 77" in panel.message

    def test_log_hides_other_palaces(self) -> None:
        panel = PlayPanel(players=4, seat=0, seed=5, log_lines=200)
        log = panel.text().split("== Latest events ==")[1]
        assert "receives palace card" in log
        assert "#" not in log and re.search(r"^\d+\. ", log, re.M)  # steps counted from 1

    def test_battle_view_after_the_learners_battle(self) -> None:
        for seed in range(1, 40):
            panel = PlayPanel(players=3, seat=0, seed=seed)
            g = panel.game
            target = next((t for t in (1, 2) if not panel.picker.button("bet", t).disabled), None)
            if g.is_over or target is None:
                continue
            panel.picker.button("bet", target).click()
            if any(e.kind == "battle" for e in panel.game.events):
                break
        else:
            pytest.skip("no seed gave an answered attack")
        assert panel.hand_log.battle_shown
        assert "== Latest battle ==" in panel.text()
        assert "Verdict" in panel.battle.text()
