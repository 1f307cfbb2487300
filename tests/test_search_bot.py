"""SearchBot: ISMCTS over sampled worlds that sees only the view, plays legal actions under
any `Rules`, keeps to its budget, is reproducible from its seed, and says why in words."""

from __future__ import annotations

import pytest

from palace import Bet, Call, Fold, Game, Raise, Rules, play_out
from palace.analysis.search_bot import SearchBot, candidates, rollout_action

VARIANTS = [
    (Rules(), 2),
    (Rules(structure="no-limit", stacks=30), 3),
    (Rules(two_left="at_once", call_matches_attack=True), 2),
    (Rules(max_raises=1, discard_cost=0, quiet_actions=("stay",)), 4),
]


@pytest.mark.parametrize(("rules", "players"), VARIANTS)
def test_plays_whole_hands_under_any_rules_with_legal_actions(rules, players):
    g = Game.new(players=players, seed=11, rules=rules)
    bots = {s: SearchBot(12, seed=s) for s in range(players)}
    while not g.is_over:
        view = g.view(g.to_act)
        action = bots[g.to_act].choose(view)
        assert action in view.legal or g.why_illegal(action) is None
        g.apply(action)
    assert sum(g.won) == sum(g.put_in)


def test_budget_and_time_limit_are_kept():
    g = Game.new(players=4, seed=3)
    view = g.view(g.to_act)
    result = SearchBot(30, seed=1).search(view)
    assert result.simulations == 30 and sum(s.visits for s in result.stats) <= 30
    quick = SearchBot(10_000, time_limit=0.05, seed=1).search(view)
    assert quick.simulations < 10_000
    with pytest.raises(Exception, match="simulations"):
        SearchBot(0)


class SlowClock:
    """A CPU clock on which every reading is ten seconds after the last: a very busy machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 10.0
        return self.now


def test_a_busy_machine_plays_the_same_hand(monkeypatch):
    """The budget is a count, not a clock: the Play tab's search bots and a study's play the
    same moves however slow the machine is (the same seed gives the same hand)."""
    from palace.analysis.search_bot import time as bot_time
    from palace.analysis.variant_effects import seat_bots
    from palace.app.play_tab import PlayTab

    def hands() -> tuple[list[str], list[str]]:
        tab = PlayTab(players=4, seed=4, bot="search")
        study = play_out(Game.new(players=3, seed=12), seat_bots("search", 3, 20, 12))
        return [e.text for e in tab.game.events], [repr(a) for a in study.actions]

    quiet = hands()
    monkeypatch.setattr(bot_time, "process_time", SlowClock())
    assert hands() == quiet


def test_the_same_seed_gives_the_same_choice():
    g = Game.new(players=3, seed=8)
    view = g.view(g.to_act)
    a = SearchBot(40, seed=5).search(view)
    b = SearchBot(40, seed=5).search(view)
    assert a.best == b.best and a.stats == b.stats


def nuts_defence() -> Game:
    """Bob (seat 1) attacks Ann, whose three aces cannot lose: Bob's spades do not count
    for him (R8.2) and four cards make no straight or flush (R8.3)."""
    deck = "2c As 3c Ah 4d Ad 7h Ks"  # banners: Bob 2c, Ann As; palaces alternate Bob, Ann
    g = Game.new(players=2, seed=1, deck=deck, dealer=0)
    g.apply(Bet(target=0))
    return g


def test_it_does_not_fold_a_hand_that_cannot_lose_and_says_why():
    g = nuts_defence()
    view = g.view(0)
    bot = SearchBot(60, seed=2)
    action = bot.choose(view)
    assert isinstance(action, Call | Raise)
    text = bot.explain(view)
    assert text.startswith("Ann ") and "100% to win a battle against Bob" in text
    assert "sampled worlds" in text and "chips" in text


def test_explain_names_the_attack_and_the_exact_odds():
    g = Game.new(players=2, seed=1, deck="2c As 3c Ah 4d Ad 7h Ks", dealer=0)
    # Bob to act: every attack the search considers is explained with exact odds
    bot = SearchBot(40, seed=3)
    result = bot.search(g.view(1))
    assert {type(s.action).__name__ for s in result.stats} >= {"Bet"}
    from palace.analysis.search_bot import explain_result

    sentence = explain_result(g.view(1), result)
    assert sentence.startswith("Bob ")
    if isinstance(result.best, Bet):
        assert "to win a battle against Ann (exact odds)" in sentence


def test_candidates_and_playouts_stay_legal():
    for seed in range(5):
        g = Game.new(players=4, seed=seed, rules=Rules(structure="no-limit"))
        while not g.is_over:
            legal = g.legal_actions()
            for a in candidates(g, legal):
                assert g.why_illegal(a) is None
            g.apply(rollout_action(g, legal))


def test_candidates_never_fold_a_turn_when_staying_is_allowed():
    g = Game.new(players=3, seed=2)
    assert Fold() in g.legal_actions()
    assert Fold() not in candidates(g, g.legal_actions())


def test_a_less_tried_choice_with_a_higher_average_is_not_called_better():
    """The runner-up is the next most *tried* choice; when its average is higher (on fewer
    worlds) the sentence says so instead of reading as a contradiction."""
    from palace.analysis.search_bot import RootStats, SearchResult, explain_result

    g = Game.new(players=2, seed=1, deck="2c As 3c Ah 4d Ad 7h Ks", dealer=0)
    view = g.view(1)
    legal = [a for a in view.legal if not isinstance(a, Bet)]
    top, other = legal[0], legal[1]
    stats = (
        RootStats(top, "stays", 13, 3.5, 4),
        RootStats(other, "buys a soldier", 3, 11.5, 0),
    )
    text = explain_result(view, SearchResult(top, stats, 40, 0.1, 40))
    assert "tried this 13 times for +3.5 chips on average" in text
    assert "4 of those tries beat every other choice's average" in text
    assert "next most tried: buys a soldier, 3 times for +11.5" in text
    assert "fewer tries, so a less certain average" in text
    calm = (RootStats(top, "stays", 13, 3.5, 9), RootStats(other, "buys a soldier", 3, 1.0, 0))
    assert "less certain" not in explain_result(view, SearchResult(top, calm, 40, 0.1, 40))
