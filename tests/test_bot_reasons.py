"""Bots explain their decisions: a reason per move (SearchBot from its search, OddsBot from
its odds, RuleBot from the hands it compares), and the Play tab narrates each bot move with
its reason, whichever kind of bot plays the computer seats."""

from __future__ import annotations

import pytest

from palace import Game, OddsBot, RuleBot, play_out
from palace.analysis.bot_reasons import Explaining, because, reason
from palace.analysis.search_bot import SearchBot, explain_result
from palace.app.play_tab import BOT_KINDS, PlayTab
from palace.events import Event

ACTIONS = {"buy", "trim", "discard", "stay", "fold", "bet", "raise", "call"}


def first_attack(seed: int, players: int = 3) -> tuple[Game, int]:
    """A game stopped at a RuleBot decision that attacks, and the seat to act."""
    g = Game.new(players=players, seed=seed)
    bot = RuleBot()
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        a = bot.choose(g.view(seat))
        if a.kind == "bet":
            return g, seat
        g.apply(a)
    raise AssertionError("no attack in this hand")


def test_explaining_plays_exactly_like_the_bot_it_wraps() -> None:
    said: list[str] = []
    wrapped = {s: Explaining(RuleBot(), lambda v, a, why: said.append(why)) for s in range(4)}
    a = play_out(Game.new(players=4, seed=9), wrapped)
    b = play_out(Game.new(players=4, seed=9), {s: RuleBot() for s in range(4)})
    assert a.actions == b.actions
    assert len(said) == len(a.actions) and all(said)


def test_a_rule_bot_says_which_hands_it_compared() -> None:
    g, seat = first_attack(seed=2)
    view = g.view(seat)
    action = RuleBot().choose(view)
    target = g.names[action.target]
    text = reason(RuleBot(), view, action)
    assert text.startswith(f"{g.names[seat]} attacks {target} (")
    assert f"against {target}'s banner suit beats what {target} shows" in text
    assert text == f"{g.names[seat]} attacks {target} ({action_amount(view)} chips): " + because(
        RuleBot(), view, action
    )


def action_amount(view: object) -> int:
    return (len(view.me.soldiers) + 1) * view.rules.small_bet  # type: ignore[attr-defined]


def test_an_odds_bot_gives_its_exact_odds() -> None:
    g = Game.new(players=3, seed=0)
    bot = OddsBot()
    while not g.is_over:
        seat = g.to_act
        view = g.view(seat)
        a = bot.choose(view)
        why = because(bot, view, a)
        if a.kind in ("bet", "call", "raise") or (a.kind == "fold" and view.battle is not None):
            assert "% to win a battle against" in why and "exact odds" in why
        else:
            assert why  # a buy, stay or trim: RuleBot's reason
        g.apply(a)


def test_a_search_bot_reason_is_its_search_in_words() -> None:
    g, seat = first_attack(seed=2)
    view = g.view(seat)
    bot = SearchBot(30, seed=4)
    a = bot.choose(view)
    assert bot.last is not None
    assert reason(bot, view, a) == explain_result(view, bot.last)
    assert "sampled worlds" in because(bot, view, a)
    assert because(SearchBot(30), view, a) == ""  # a bot that never searched has nothing to say


def test_the_only_legal_choice_says_so() -> None:
    g = Game.new(players=2, seed=1)
    view = g.view(g.to_act)
    forced = view.replace(legal=(view.legal[0],))
    for bot in (RuleBot(), OddsBot(), SearchBot(10)):
        a = bot.choose(forced)
        assert because(bot, forced, a) == "it is the only legal choice."
        assert reason(bot, forced, a).endswith(": it is the only legal choice.")


# ------------------------------------------------------------------ the Play tab
def bot_moves(tab: PlayTab) -> list[Event]:
    g = tab.game
    return [e for e in g.events if e.kind in ACTIONS and e.seat not in tab.humans]


@pytest.mark.parametrize("kind", list(BOT_KINDS))
def test_each_bot_move_is_narrated_with_its_reason(kind: str) -> None:
    tab = PlayTab(players=3, seed=5, bot=kind)
    assert tab.bot_kind.value == kind and tab.explain.value
    assert tab.humans == (0,)
    moves = bot_moves(tab)
    assert moves, "the bots played before Ann's first decision"
    reasons = tab.reasons
    # every bot move has its reason, at the index of its first event
    for e in moves:
        if e.kind != "trim" or e.index in reasons:
            assert e.index in reasons, e.text
    notes = tab.narration.notes
    assert notes and set(notes) <= set(reasons.values())
    text = tab.text()
    assert "== Since your last move ==" in text
    first = next(e for e in moves if e.index in reasons)
    narrated = text.split("== Table ==")[0]
    assert f"    why: {reasons[first.index]}" in narrated
    if kind == "search":
        assert any("sampled worlds" in n for n in notes)


def test_after_a_human_move_the_bots_replies_carry_their_reasons() -> None:
    tab = PlayTab(players=4, seed=4, bot="search")
    picker = tab.picker
    assert picker is not None
    before = len(tab.game.events)
    picker.button("stay").click()
    replies = [e for e in bot_moves(tab) if e.index >= before]
    assert len(replies) >= 3  # Bob, Cat and Dan answered Ann's Stay
    said = tab.text().split("== Table ==")[0]
    for e in replies:
        assert f"    why: {tab.reasons[e.index]}" in said


def test_explanations_can_be_turned_off_and_the_bot_kind_changed_mid_hand() -> None:
    tab = PlayTab(players=3, seed=5)
    assert "why:" in tab.text()
    tab.explain.value = False
    assert "why:" not in tab.text() and tab.narration.notes == []
    tab.explain.value = True
    tab.bot_kind.value = "odds"
    assert "odds bots" in tab.message.value
    assert all(type(b.bot) is OddsBot for b in tab.controller.bots.values())  # type: ignore[attr-defined]
    tab.deal(seed=6)
    assert all(type(b.bot) is OddsBot for b in tab.controller.bots.values())  # type: ignore[attr-defined]


def test_undo_forgets_the_reasons_of_moves_taken_back() -> None:
    tab = PlayTab(players=3, seed=11, bot="rules")
    picker = tab.picker
    assert picker is not None
    n = len(tab.game.events)
    picker.button(next(k for k in ("stay", "call") if not picker.button(k).disabled)).click()
    assert any(i >= n for i in tab.reasons)
    assert tab.undo()
    assert all(i < len(tab.game.events) for i in tab.reasons)


def test_an_unknown_bot_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="bot must be one of rules, odds, search"):
        PlayTab(bot="alpha")
