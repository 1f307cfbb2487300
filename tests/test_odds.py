"""Battle odds (`palace.analysis.odds`) and `OddsBot`: exact counts, perfect recall, hidden cards.

(a) `battle_odds` agrees set by set with a brute force written here on `resolve_battle`
    (R8.2-R8.6); (b) a seat's memory of its discards and of palaces shown to it in a
    battle (views, R5.3) changes its odds; (c) bots decide from the view alone;
    (d) bad targets raise `PalaceError` naming R7.1 / R7.2.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations
from math import comb

import pytest

from palace import (
    Army,
    Bet,
    Buy,
    Call,
    Card,
    Discard,
    Fold,
    Game,
    PalaceError,
    Phase,
    Raise,
    RuleBot,
    SeatView,
    Stay,
    Trim,
    parse_cards,
    resolve_battle,
)
from palace.analysis.odds import Odds, advise, battle_odds, battle_targets, odds_from
from palace.analysis.odds_bot import OddsBot
from palace.hands import PAIR, STRAIGHT

# ---------------------------------------------------------------- helpers


def deck(players: int, banners: dict, palaces: dict, draws: str = "", dealer: int = 0) -> str:
    """A scripted deck (top first): banners, then palaces one card a round (R4.1, R5.1).

    Every banner has a suit of its own inside its group, so none is rejected (R4.3).
    """
    order = [(dealer + 1 + k) % players for k in range(players)]
    top = [banners[s] for s in order]
    for rnd in range(3):
        top += [palaces[s].split()[rnd] for s in order]
    return " ".join(top + draws.split())


def new_game(players: int, banners: dict, palaces: dict, draws: str = "", seed: int = 1) -> Game:
    g = Game.new(players=players, seed=seed, deck=deck(players, banners, palaces, draws), dealer=0)
    for s, b in banners.items():  # the script did what it says
        assert g.banner(s) == Card.parse(b)
        assert g.palace(s) == parse_cards(palaces[s])
    return g


def brute_force(view: SeatView, target: int, unseen=None) -> tuple[int, int, int]:
    """(wins, ties, losses) for the viewing seat, one `resolve_battle` per hidden palace."""
    me, them = view.me, view.seats[target]
    pool = sorted(view.unseen if unseen is None else unseen)
    mine = Army(me.banner, me.soldiers, view.palace)
    wins = ties = losses = 0
    for palace in combinations(pool, them.palace_count):
        theirs = Army(them.banner, them.soldiers, palace)
        # real roles when this is the open battle; otherwise this seat attacks (R7.1)
        defending = view.battle is not None and view.battle.defender == view.seat
        res = resolve_battle(theirs, mine) if defending else resolve_battle(mine, theirs)
        my_side = "defender" if defending else "attacker"
        if res.winner is None:
            ties += 1
        elif res.winner == my_side:
            wins += 1
        else:
            losses += 1
    return wins, ties, losses


def assert_exact(view: SeatView, target: int) -> Odds:
    want = brute_force(view, target)
    for engine in ("python", "numpy"):
        o = odds_from(view, target, view.unseen, engine=engine)
        assert (o.wins, o.ties, o.losses) == want, engine
    o = battle_odds(view, target)
    assert (o.wins, o.ties, o.losses) == want
    assert o.sets == comb(len(view.unseen), view.seats[target].palace_count) == sum(want)
    assert o.win == pytest.approx(want[0] / o.sets)
    assert o.tie == pytest.approx(want[1] / o.sets)
    assert o.lose == pytest.approx(want[2] / o.sets)
    assert o.win + o.tie + o.lose == pytest.approx(1.0)
    assert o.target == target
    assert o.my_hand.exclude_suit == view.seats[target].banner.suit
    return o


# ---------------------------------------------------------------- (a) exactness


def test_exact_on_a_position_with_ties_and_banner_count_tie_breaks():
    """Ann's hearts fall to Bob's banner (R8.2): she counts only As Ks. Bob's Ah with Kh
    and two spades ties her (A-K, two of each banner suit, R8.6); with Kd or Kc he loses
    the R8.5 count."""
    g = new_game(2, {0: "As", 1: "Ah"}, {0: "Ks 2h 3h", 1: "5c 9d Jc"})
    v = g.view(0)
    assert len(v.unseen) == 47
    o = assert_exact(v, 1)
    assert o.sets == comb(47, 3) == 16215
    spades_left = 11  # 13 spades but As and Ks
    assert o.ties == comb(spades_left, 2)  # Kh and two of Ann's (excluded) spades
    assert o.my_hand.describe() == "High card ace (short: 2 counting cards)"
    assert "loses 2 hearts" in o.explanation or "takes 2 hearts" in o.explanation
    # the R8.5 tie-break decides some sets: Kd or Kc with two spades
    decided = 0
    for k in ("Kd", "Kc"):
        for pair in combinations(sorted(c for c in v.unseen if c.suit == 3), 2):
            res = resolve_battle(
                Army.parse("As", "", "Ks 2h 3h"), Army(Card.parse("Ah"), (), (Card.parse(k), *pair))
            )
            assert res.decided_by == "banner_count" and res.winner == "attacker"
            decided += 1
    assert decided == 2 * comb(spades_left, 2)


def test_exact_for_the_defender_against_the_attacker():
    g = new_game(3, {0: "Ac", 1: "Kh", 2: "Qd"}, {0: "2c 3c 4c", 1: "Kd Ks 7h", 2: "Qs Qc 9h"})
    assert g.to_act == 1
    g.apply(Bet(target=2))
    v = g.view(2)
    assert v.phase is Phase.BATTLE_RESPONSE
    o = assert_exact(v, 1)
    assert advise(v) == [o]
    assert advise(g.view(0)) == []  # not Ann's decision
    assert o.text("Bob").endswith("against Bob")


def test_exact_with_soldiers_after_buys_and_trims():
    g = new_game(
        3,
        {0: "Ac", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "Kd Ks 7h", 2: "Qs Qc 9h"},
        draws="9s 9c 2d 8h",
    )
    g.apply(Buy())  # Bob buys 9s
    g.apply(Trim(cards=()))
    g.apply(Buy())  # Cat buys 9c
    g.apply(Trim(cards=()))
    g.apply(Buy())  # Ann buys 2d
    g.apply(Trim(cards=parse_cards("2d")))  # ... and throws it away
    assert g.to_act == 1
    v = g.view(1)
    assert Card.parse("2d") not in v.unseen
    targets = [a.target for a in v.legal if isinstance(a, Bet)]
    assert targets == [0, 2]
    for t in targets:
        assert_exact(v, t)
    assert [o.target for o in advise(v)] == targets


@pytest.mark.parametrize("seed", [3, 8, 21, 40])
def test_exact_on_random_mid_hand_positions(seed):
    """RuleBots play a few turns; then every target the seat to act could battle."""
    rng = random.Random(seed)
    g = Game.new(players=4, seed=seed)
    bots = {s: RuleBot() for s in range(4)}
    steps = rng.randint(4, 16)
    while not g.is_over:
        v = g.view(g.to_act)
        if steps <= 0 and advise(v):
            break
        g.apply(bots[g.to_act].choose(v))
        steps -= 1
    if g.is_over:
        pytest.skip("the hand ended before a battle could be chosen")
    for o in advise(v)[:2]:
        assert_exact(v, o.target)


def test_text_and_rounding():
    g = new_game(2, {0: "As", 1: "Ah"}, {0: "Ks 2h 3h", 1: "5c 9d Jc"})
    o = battle_odds(g.view(0), 1)
    assert o.text() == o.text("Bob")
    assert o.text("Bob").startswith("win ") and " · tie " in o.text("Bob")
    tiny = dataclasses.replace(o, win=0.003, tie=0.0, lose=0.997)
    assert tiny.text("Bob") == "win <1% · tie 0% · lose >99% against Bob"


def test_at_least_counts_only_the_palaces_that_give_that_much():
    g = new_game(2, {0: "As", 1: "Ah"}, {0: "Ks 2h 3h", 1: "5c 9d Jc"})
    v = g.view(0)
    full = battle_odds(v, 1)
    some = battle_odds(v, 1, at_least=PAIR)
    assert 0 < some.sets < full.sets
    assert some.win < full.win
    assert some.explanation.startswith("If Bob holds at least one pair")
    assert some.wins + some.ties + some.losses == some.sets
    with pytest.raises(PalaceError, match="no palace"):
        battle_odds(v, 1, at_least=STRAIGHT)  # Bob has four cards: no five-card hand
    for bad in (-1, 1 << 30, 2.5, True):
        with pytest.raises(PalaceError, match="at_least"):
            battle_odds(v, 1, at_least=bad)


# ---------------------------------------------------------------- (b) perfect recall


def _recall_game(discard_kind: str) -> Game:
    """Bob buys the 5c that would pair Cat's 5d banner, then throws it away."""
    g = new_game(
        3,
        {0: "Ac", 1: "Kh", 2: "5d"},
        {0: "2c 3c 4c", 1: "Kd 7s 7h", 2: "9s 8c Jh"},
        draws="5c Th",
    )
    g.apply(Buy())  # Bob takes 5c as a soldier
    if discard_kind == "trim":
        g.apply(Trim(cards=parse_cards("5c")))
    else:
        g.apply(Trim(cards=()))
        g.apply(Buy())  # Cat takes Th
        g.apply(Trim(cards=()))
        g.apply(Stay())  # Ann
        g.apply(Discard(cards=parse_cards("5c")))  # Bob pays s to discard it (R6.4)
    assert not g.is_over
    return g


@pytest.mark.parametrize("how", ["trim", "discard"])
def test_a_discarded_card_is_remembered_and_changes_the_odds(how):
    g = _recall_game(how)
    five = Card.parse("5c")
    assert five in g.zones()["discard"]
    v = g.view(1)
    assert v.known[five] == "discard"
    assert five not in v.unseen
    assert five in v.known_discards()
    remembered = battle_odds(v, 2)
    forgotten = odds_from(v, 2, v.unseen | {five})
    assert forgotten.sets == comb(len(v.unseen) + 1, 3) > remembered.sets
    assert remembered.win != forgotten.win
    assert remembered.win > forgotten.win  # one fewer five to pair Cat's banner
    # exact either way
    assert (forgotten.wins, forgotten.ties, forgotten.losses) == brute_force(
        v, 2, v.unseen | {five}
    )


def test_palace_cards_shown_in_a_battle_are_remembered_in_the_discard_pile():
    """Bob beats Cat; both saw Cat's palace (R8), which then goes face down to the discard
    pile (R8.4). Bob remembers it; Ann, who did not see it, cannot."""
    g = new_game(
        3,
        {0: "Qs", 1: "Ah", 2: "Kd"},
        {0: "2c 3c 4c", 1: "Ac 8c 7h", 2: "Qd Qc 5h"},
    )
    assert g.to_act == 1
    g.apply(Bet(target=2))
    g.apply(Call())
    shown = set(parse_cards("Qd Qc 5h"))
    assert not g.active[2] and g.active[1]  # pair of aces beats pair of queens (R8.4)
    assert shown <= set(g.zones()["discard"])
    g.apply(Trim(cards=()))  # Bob keeps Kd as a soldier
    bob, ann = g.view(1), g.view(0)
    for c in shown:
        assert bob.known[c] == "discard"
        assert c not in bob.unseen
        assert c in ann.unseen
    assert any("show their palace cards" in h for h in g.history(ann.seat))
    remembered = battle_odds(bob, 0)
    forgotten = odds_from(bob, 0, bob.unseen | shown)
    assert remembered.win > forgotten.win  # Ann cannot hold the queens Bob saw
    assert remembered.sets == comb(len(bob.unseen), 3)


# ---------------------------------------------------------------- (c) bots see only the view


def _twin(cat_palace: str) -> Game:
    return new_game(
        3,
        {0: "Ac", 1: "Kh", 2: "5d"},
        {0: "2c 3c 4c", 1: "Kd Ks 7h", 2: cat_palace},
        draws="9s 8s 6h Th Jc",
    )


@pytest.mark.parametrize("bot", [OddsBot(), RuleBot()], ids=["odds", "rules"])
def test_hidden_cards_do_not_change_a_bots_choice(bot):
    """Two deals alike but for Cat's palace: Bob's and Ann's choices are the same."""
    a, b = _twin("2d 7c 9h"), _twin("5s 5h 5c")  # Cat holds nothing, or four fives
    assert a.palace(2) != b.palace(2)
    script = [Buy(), Trim(cards=()), Buy(), Trim(cards=()), Stay(), Buy(), Trim(cards=())]
    script += [Bet(target=0)]  # Bob attacks Ann: Ann's answer is compared too
    decided = 0
    for act in script:
        assert a.to_act == b.to_act and a.phase == b.phase
        seat = a.to_act
        if seat != 2 and a.phase is not Phase.TRIM_TO_FIVE:
            va, vb = a.view(seat), b.view(seat)
            assert va.unseen == vb.unseen and va.legal == vb.legal
            assert bot.choose(va) == bot.choose(vb)
            decided += 1
        a.apply(act)
        b.apply(act)
    assert a.phase is Phase.BATTLE_RESPONSE and a.to_act == 0
    va, vb = a.view(0), b.view(0)
    assert bot.choose(va) == bot.choose(vb)
    assert decided >= 3


def test_odds_bot_would_act_differently_if_it_could_see():
    """The twin test is not vacuous: with Cat's four fives known, Bob's odds differ."""
    a, b = _twin("2d 7c 9h"), _twin("5s 5h 5c")
    va, vb = a.view(1), b.view(1)
    assert battle_odds(va, 2) == battle_odds(vb, 2)
    peek_a = odds_from(va, 2, parse_cards("2d 7c 9h"))
    peek_b = odds_from(vb, 2, parse_cards("5s 5h 5c"))
    assert peek_a.win == 1.0 and peek_b.win == 0.0


def test_odds_bot_plays_legal_actions_with_any_table():
    from palace.analysis.bots import RandomBot, play_out
    from palace.rules import Rules

    rng = random.Random(5)
    for i in range(12):
        n = rng.randint(2, 8)
        rules = Rules(structure=rng.choice(["limit", "no-limit"]), max_raises=rng.choice([None, 1]))
        g = Game.new(players=n, seed=100 + i, rules=rules)
        bots = {s: rng.choice([OddsBot(), RuleBot(), RandomBot(i)]) for s in range(n)}
        assert play_out(g, bots).is_over


def test_odds_bot_folds_a_hopeless_defence_and_raises_a_sure_one():
    # Cat's 2h falls to Bob's hearts (R8.2): high card queen against an attacker
    g = new_game(3, {0: "Ac", 1: "Kh", 2: "Qd"}, {0: "2c 3c 4c", 1: "Kd Ks Kc", 2: "2h 3s 4d"})
    g.apply(Bet(target=2))
    v = g.view(2)
    assert battle_odds(v, 1).win < 0.5
    assert OddsBot().choose(v) == Fold()
    # three aces: Bob (Kh and three palace cards, diamonds excluded) can make at most
    # three kings, whatever he holds
    g2 = new_game(3, {0: "9c", 1: "Kh", 2: "Ad"}, {0: "2c 3c 4c", 1: "2h 3s 4d", 2: "As Ac Qs"})
    g2.apply(Bet(target=2))
    v2 = g2.view(2)
    assert battle_odds(v2, 1).win == 1.0
    assert "no palace Bob could hold beats you" in battle_odds(v2, 1).explanation
    assert OddsBot().choose(v2) == Raise()


# ---------------------------------------------------------------- (d) validation


def test_bad_targets_name_the_rule():
    g = new_game(
        5,
        {0: "As", 1: "Ah", 2: "Kd", 3: "Kc", 4: "Ks"},  # seat 0 deals, group B: may repeat
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc", 3: "2d 3d 4d", 4: "5d 6d 7d"},
    )
    v = g.view(1)
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(v, 1)  # yourself
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(v, 5)  # no such seat
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(v, True)  # type: ignore[arg-type]
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(v, "2")  # type: ignore[arg-type]
    v4 = g.view(4)
    with pytest.raises(PalaceError, match=r"R7\.2"):
        battle_odds(v4, 0)  # both spades: seat 0 was dealt in group B (R4.2)
    assert battle_odds(v4, 1).sets > 0
    assert battle_targets(v4) == [1, 2, 3] and battle_targets(g.view(0)) == [1, 2, 3]
    g.apply(Fold())  # Bob folds (R6.6)
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(g.view(2), 1)  # out of the hand
    with pytest.raises(PalaceError, match=r"R7\.1"):
        battle_odds(g.view(1), 2)  # Bob himself is out
    assert battle_targets(g.view(1)) == [] and 1 not in battle_targets(g.view(2))
    with pytest.raises(PalaceError, match="engine"):
        odds_from(g.view(2), 3, g.view(2).unseen, engine="gpu")  # type: ignore[arg-type]
    assert battle_odds(g.view(2), 3).win >= 0


def test_advise_lists_every_legal_bet_target():
    g = new_game(
        4,
        {0: "As", 1: "Ah", 2: "Kd", 3: "Kc"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc", 3: "2d 3d 4d"},
    )
    v = g.view(g.to_act)
    odds = advise(v)
    assert [o.target for o in odds] == [a.target for a in v.legal if isinstance(a, Bet)]
    assert [o.target for o in odds] == [0, 2, 3]
    for o in odds:
        assert isinstance(o, Odds) and o.explanation.endswith(".")
        assert o.target_name in o.explanation
