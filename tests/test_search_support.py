"""What search players rely on: legal actions that match the checks, clones that play on
identically, chance steps a caller can choose, and sampled worlds that never contradict
what a seat has seen (D8) and are uniform over what it has not."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palace import (
    Bet,
    Buy,
    Call,
    Card,
    Discard,
    Fold,
    Game,
    IllegalActionError,
    Phase,
    Raise,
    RandomBot,
    Rules,
    Stay,
    Trim,
)
from palace.checks import legal_actions
from palace.deal import begin
from palace.play import perform
from palace.scenarios import SCENARIO_DIR, load_scenario
from palace.table import DEFAULT_NAMES, facts_of, new_table
from palace.worlds import world_table

RULES = st.builds(
    Rules,
    structure=st.sampled_from(["limit", "no-limit"]),
    stacks=st.sampled_from([None, 10, 30]),
    two_left=st.sampled_from(["after_quiet_round", "at_once"]),
    max_raises=st.sampled_from([None, 1]),
)


def random_position(seed: int, players: int, rules: Rules, steps: int) -> Game:
    g = Game.new(players=players, seed=seed, rules=rules)
    bot = RandomBot(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(bot.choose(g.view(g.to_act)))
    return g


def candidates(g: Game) -> list:
    """Every action worth asking about now, legal or not, built from what the table shows."""
    seat = g.to_act
    if seat is None:
        return []
    soldiers = g.soldiers(seat)
    subsets = [c for k in range(len(soldiers) + 1) for c in combinations(soldiers, k)]
    return [
        Buy(),
        Stay(),
        Fold(),
        Call(),
        Raise(),
        *(Bet(target=s) for s in range(g.players)),
        *(Discard(cards=c) for c in subsets if c),
        *(Trim(cards=c) for c in subsets),
    ]


def chance_cards(g: Game) -> list[Card]:
    """Every card the deck gave, in order: the chance outcomes of a seeded game."""
    kinds = {"cut", "banner", "reject", "palace", "buy"}
    return [e.cards[0] for e in g.events if e.kind in kinds]


# ------------------------------------------------------------------ one rules implementation
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    rules=RULES,
    steps=st.integers(0, 30),
)
def test_legal_actions_are_exactly_what_why_illegal_accepts(seed, players, rules, steps):
    g = random_position(seed, players, rules, steps)
    legal = g.legal_actions()
    for a in candidates(g):
        assert (g.why_illegal(a) is None) == (a in legal), a
    assert all(g.why_illegal(a) is None for a in legal)


# ------------------------------------------------------------------ clones
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 25))
def test_a_clone_plays_on_exactly_as_the_game(seed, players, steps):
    g = random_position(seed, players, Rules(), steps)
    c = g.clone()
    assert c.zones() == g.zones() and c.events == g.events
    bot_a, bot_b = RandomBot(seed + 1), RandomBot(seed + 1)
    while not g.is_over:
        g.apply(bot_a.choose(g.view(g.to_act)))
        c.apply(bot_b.choose(c.view(c.to_act)))
    assert c.is_over
    assert [e.to_dict() for e in c.events] == [e.to_dict() for e in g.events]
    assert c.zones() == g.zones() and c.result.shares == g.result.shares


def test_a_clone_is_independent_and_shares_no_state():
    g = Game.new(players=3, seed=5)
    before = json.dumps(g.to_dict(), sort_keys=True)
    c = g.clone()
    c.apply(Buy())
    c.apply(Trim())
    c.apply(Stay())
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    assert len(c.actions) == 3 and len(g.actions) == 0


def _state(table: object) -> dict[str, object]:
    """Every data attribute of a table (compiled or not: read through `dir`)."""
    names = [n for n in dir(table) if not n.startswith("_")]
    return {n: getattr(table, n) for n in names if not callable(getattr(table, n))}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 40))
def test_a_table_copy_has_every_field_and_shares_nothing_mutable(seed, players, steps):
    # the tables clone() copies: one rebuilt from a seat's view mid-hand (a battle, the
    # turn's state) and played on to a chance step, and one stopped before the deal's first
    # card (the deal's own state)
    rng = random.Random(seed)
    g = random_position(seed, players, Rules(stacks=60), steps)
    if g.is_over:
        return
    mid_hand = world_table(g.view(g.to_act), rng)
    for _ in range(3):
        legal = legal_actions(mid_hand)
        if not legal:
            break
        perform(mid_hand, None, rng.choice(legal))
    mid_deal = new_table(DEFAULT_NAMES[:players], Rules(), dealer=0, stacks=None)
    mid_deal.zones["deck"][:] = Rules().deck()  # a zone's list is filled, never replaced
    begin(mid_deal, None, dealer=None, script=None)
    for table in (mid_hand, mid_deal):
        copy = table.copy()
        state, copied = _state(table), _state(copy)
        assert {"zones", "battle", "deal", "pending", "events", "version", "turns"} <= set(state)
        assert copied == state
        for name, value in state.items():
            if isinstance(value, list | dict) or name in ("battle", "deal"):
                assert value is None or copied[name] is not value, name


def test_a_table_copy_keeps_its_rules_facts_after_the_cache_let_them_go():
    # the derived figures of a Rules are cached by identity and the cache is emptied when
    # full: a copy made after that shares its table's figures all the same
    table = new_table(DEFAULT_NAMES[:4], Rules(stacks=60), dealer=0, stacks=[60] * 4)
    for ante in range(300):  # other rules in use meanwhile (a study's variants, a sweep)
        facts_of(Rules(small_bet=1 + ante, big_bet=2 + 2 * ante))
    assert table.copy().facts is table.facts


def test_clones_reshuffle_the_discard_pile_identically():
    # scenario 09 empties the draw deck; a clone taken before the R6.3 reshuffle must
    # shuffle the discard pile exactly as the game does (the seeded stream is shared)
    scn = load_scenario(SCENARIO_DIR / "09-discard-pile-reshuffled.json")
    g = scn.game_at(22)
    c = g.clone()
    for game in (g, c):
        for _ in range(3):
            game.apply(Buy())
            game.apply(Trim())
    assert any(e.kind == "reshuffle" and e.rule == "R6.3" for e in g.events)
    assert [str(e) for e in c.events] == [str(e) for e in g.events]
    assert c.zones()["deck"] == g.zones()["deck"]


# ------------------------------------------------------------------ chance steps
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8), steps=st.integers(0, 30))
def test_manual_chance_with_the_same_cards_gives_the_same_hand(seed, players, steps):
    seeded = random_position(seed, players, Rules(), steps)
    g = Game.new(players=players, seed=seed, dealer=seeded.dealer, manual_chance=True)
    cards = iter(chance_cards(seeded)[sum(1 for e in seeded.events if e.kind == "cut") :])
    actions = iter(seeded.actions)
    while True:
        if g.is_chance:
            card = next(cards)
            assert card in g.chance_outcomes()
            g.apply_chance(card)
            continue
        a = next(actions, None)
        if a is None:
            break
        g.apply(a)
    skip = {"shuffle", "cut", "cut_tie", "gather", "dealer"}
    texts = [e.text for e in g.events if e.kind not in skip]
    want = [e.text for e in seeded.events if e.kind not in skip]
    assert texts == want
    assert {k: set(v) for k, v in g.zones().items()} == {
        k: set(v) for k, v in seeded.zones().items()
    }


def test_chance_steps_are_explicit_and_checked():
    g = Game.new(players=2, seed=1, dealer=0, manual_chance=True)
    assert g.is_chance and g.to_act is None and g.legal_actions() == []
    assert g.phase is Phase.BANNER_DEAL and len(g.chance_outcomes()) == 52
    with pytest.raises(IllegalActionError, match="chance"):
        g.apply(Stay())
    g.apply_chance("As")
    assert g.banner(1) == Card.parse("As")
    with pytest.raises(IllegalActionError, match="not in the deck"):
        g.apply_chance("As")
    for card in ("Ks", "Kh", "2c", "3c", "4c", "5c", "6c", "7c"):  # Ks rejected for Ann
        g.apply_chance(card)
    assert g.phase is Phase.TURN and not g.is_chance and g.to_act == 1
    assert [e.kind for e in g.events if e.kind in ("reject", "banner")] == [
        "banner",
        "reject",
        "banner",
    ]
    g.apply(Buy())
    assert g.is_chance and g.phase is Phase.DRAW  # the bought card is a chance step
    g.apply_chance("Qd")
    assert g.phase is Phase.TRIM_TO_FIVE and g.soldiers(1) == (Card.parse("Qd"),)
    assert "Qd" not in [str(c) for c in g.chance_outcomes()]


def test_a_small_deck_game():
    rules = Rules(ranks="TJQKA", suits="chs", palace_cards=1, max_soldiers=2)
    g = Game.new(players=2, seed=3, rules=rules, dealer=0)
    assert len(g.rules.deck()) == 15
    assert len(g.palace(0)) == 1 and sum(len(v) for v in g.zones().values()) == 15
    bot = RandomBot(1)
    while not g.is_over:
        g.apply(bot.choose(g.view(g.to_act)))
        assert all(len(g.soldiers(s)) <= 2 for s in range(2)) or g.phase is Phase.TRIM_TO_FIVE
    assert g.state_at(len(g.events) - 1).zones == {k: tuple(v) for k, v in g.zones().items()}
    with pytest.raises(Exception, match="R4.2"):
        Game.new(players=4, rules=rules)


# ------------------------------------------------------------------ sampled worlds
def _check_world(g: Game, seat: int, world: Game) -> None:
    view = g.view(seat)
    wz = world.zones()
    for card, where in view.known.items():
        assert card in wz[where], f"{card} should be in {where}"
    for zone, cards in g.zones().items():
        assert len(wz[zone]) == len(cards), zone
    assert set(wz[f"seat{seat}.palace"]) == set(g.palace(seat))
    assert world.phase is g.phase and world.to_act == g.to_act and world.pot == g.pot
    assert world.put_in == g.put_in and world.active == g.active
    if g.to_act == seat:
        assert world.legal_actions() == g.legal_actions()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    rules=RULES,
    steps=st.integers(0, 40),
)
def test_sampled_worlds_never_contradict_what_the_seat_knows(seed, players, rules, steps):
    g = random_position(seed, players, rules, steps)
    if g.is_over:
        return
    rng = random.Random(seed)
    for seat in range(players):
        world = g.view(seat).sample_world(rng)
        _check_world(g, seat, world)
        bot = RandomBot(seed)
        while not world.is_over:  # a world plays to the end like any game
            world.apply(bot.choose(world.view(world.to_act)))
        assert sum(world.put_in) == world.pot + sum(world.won)


def _chi_square_bound(df: int, z: float = 3.09) -> float:
    """The 99.9% point of a chi-square with `df` degrees of freedom (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_sampled_worlds_are_uniform_over_the_unseen_cards():
    g = Game.new(players=3, seed=21)
    view = g.view(0)
    unseen = sorted(view.unseen, key=lambda c: c.index)
    rng = random.Random(2026)
    n = 6000
    counts: Counter[Card] = Counter()
    for _ in range(n):
        world = view.sample_world(rng)
        counts.update(world.palace(1))
    slots = 3  # Bob's three palace cards come from the unseen cards, each equally likely
    expected = n * slots / len(unseen)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in unseen)
    assert chi2 < _chi_square_bound(len(unseen) - 1), chi2
    assert set(counts) <= set(unseen)  # never a card the seat has seen


def test_a_world_remembers_palace_cards_shown_in_a_battle():
    scn = load_scenario(SCENARIO_DIR / "03-exclusion-turns-win-into-loss.json")
    g = scn.game()
    for seat in range(g.players):
        if g.is_over:
            break
        view = g.view(seat)
        for _ in range(20):
            _check_world(g, seat, view.sample_world(random.Random(seat)))
