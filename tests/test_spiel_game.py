"""Palace Poker as an OpenSpiel game: OpenSpiel's own checks, and the same hand in both.

The adapter (`palace.analysis.spiel_game`) must pass OpenSpiel's random simulation test
(legal actions sorted and unique, clones, serialisation round trips, returns within the
utility bounds, game length within its bound), give exactly the engine's result for the
same chance outcomes and actions (a differential test against seeded `palace.Game`
hands), show each seat only what `game.view(seat)` shows (R5.3, D7, D8), and resample
worlds its ISMCTS can search.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from palace import Game, OddsBot, RandomBot, RuleBot, Rules, play_out  # noqa: E402
from palace.analysis import spiel_game as sg  # noqa: E402
from palace.errors import PalaceError  # noqa: E402

SMALL = Rules(ranks="QKA", suits="hs", palace_cards=1, max_soldiers=1, max_raises=1, max_turns=3)

VARIANTS = [
    (Rules(), 4, None),
    (Rules(structure="no-limit", stacks=30), 3, None),
    (Rules(two_left="at_once", max_raises=2), 2, None),
    (Rules(quiet_actions=("stay",), call_matches_attack=True, stacks=12), 5, 1),
    (Rules(structure="no-limit", discard_cost=0, max_turns=12), 2, 0),
    (SMALL, 2, 0),
]


@pytest.mark.parametrize(("rules", "players", "dealer"), VARIANTS)
def test_openspiel_random_simulation_test_passes(rules, players, dealer):
    game = sg.load(rules, players=players, dealer=dealer)
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)


def test_parameters_name_every_rules_field_and_round_trip():
    assert set(sg.rules_fields()) <= set(sg.DEFAULTS)
    for rules, players, dealer in VARIANTS:
        params = sg.params_from_rules(rules, players, dealer)
        assert sg.rules_from_params(params) == rules
        game = pyspiel.load_game(str(sg.load(rules, players, dealer)))  # the game string
        assert game.rules == rules and game.num_players() == players


def test_bad_parameters_are_refused_naming_the_field():
    with pytest.raises(Exception, match="structure"):
        sg.load(Rules(), players=2).__class__({"structure": "pot-limit"})
    with pytest.raises(Exception, match="call_matches_attack"):
        pyspiel.load_game("palace_poker", {"call_matches_attack": "sometimes"})
    with pytest.raises(Exception, match="bet_sizes"):
        pyspiel.load_game("palace_poker", {"bet_sizes": "2/x"})
    with pytest.raises(Exception, match="R4.2"):
        pyspiel.load_game("palace_poker", {"players": 3, "suits": "hs"})


# ------------------------------------------------------------------ differential test
def chance_cards(g: Game) -> list:
    """Every card the deck gave a seeded game, in order (cut, banner, reject, palace, buy)."""
    kinds = {"cut", "banner", "reject", "palace", "buy"}
    return [e.cards[0] for e in g.events if e.kind in kinds]


def replay_in_openspiel(seeded: Game, rules: Rules, dealer: int | None):
    """The seeded hand's chance outcomes and actions, applied to the OpenSpiel state."""
    game = sg.load(rules, players=seeded.players, dealer=dealer)
    state = game.new_initial_state()
    cards = iter(chance_cards(seeded))
    actions = iter(seeded.actions)
    while not state.is_terminal():
        if state.is_chance_node():
            card = next(cards)
            assert card.index in dict(state.chance_outcomes())
            state.apply_action(card.index)
        else:
            action = next(actions)
            aid = game.codec.encode(state.engine, action)
            assert aid in state.legal_actions()
            state.apply_action(aid)
    assert next(actions, None) is None
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    variant=st.sampled_from(range(4)),
    bots=st.sampled_from(["random", "rules", "odds"]),
    given_dealer=st.booleans(),
)
def test_same_chance_outcomes_and_actions_give_the_same_hand(
    seed, players, variant, bots, given_dealer
):
    rules = [
        Rules(),
        Rules(structure="no-limit", stacks=25),
        Rules(two_left="at_once", call_matches_attack=True),
        Rules(max_raises=1, discard_cost=0, max_turns=9),
    ][variant]
    dealer = seed % players if given_dealer else None
    seeded = Game.new(players=players, seed=seed, rules=rules, dealer=dealer)
    make = {"random": RandomBot, "rules": lambda s: RuleBot(), "odds": lambda s: OddsBot()}[bots]
    play_out(seeded, {s: make(seed + s) for s in range(players)})
    state = replay_in_openspiel(seeded, rules, dealer)
    g = state.engine
    net = [seeded.won[s] - seeded.put_in[s] for s in range(players)]
    assert state.returns() == [float(x) for x in net]
    assert g.result.reason == seeded.result.reason and g.result.shares == seeded.result.shares
    skip = {"shuffle", "gather", "stack"}  # a seeded deal records its shuffles; chance does not
    assert [e.text for e in g.events if e.kind not in skip] == [
        e.text for e in seeded.events if e.kind not in skip
    ]
    assert {k: set(v) for k, v in g.zones().items()} == {
        k: set(v) for k, v in seeded.zones().items()
    }


def test_no_limit_sizes_come_from_the_menu():
    rules = Rules(structure="no-limit", stacks=40)
    game = sg.load(rules, players=2, dealer=0, bet_sizes=(1, 3), raise_sizes=(1, 2))
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    words = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    # the minimum attack is 2 chips (no soldiers, R7.3), three times it 6, all-in 39
    assert [w for w in words if w.startswith("Attack")] == [
        "Attack Ann (2 chips)",
        "Attack Ann (6 chips)",
        "Attack Ann all-in (39 chips)",
    ]


# ------------------------------------------------------------------ what a seat sees
def dealt_state(game, seed: int):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def test_information_state_hides_other_palaces_and_keeps_perfect_recall():
    game = sg.load(Rules(), players=3, dealer=0)
    a, b = dealt_state(game, 1), dealt_state(game, 1)
    # deal b again with seat 2's palace swapped for other cards: seat 0 cannot tell
    hist = a.history()
    assert a.information_state_string(0) == b.information_state_string(0)
    eng = a.engine
    mine = {str(c) for c in eng.palace(0)}
    text = a.information_state_string(0)
    assert all(c in text for c in mine)
    for c in eng.palace(1) + eng.palace(2):
        assert f"palace1>:0:[{c}]" not in text and f"palace2>:0:[{c}]" not in text
    # another deal where only seat 2's palace differs gives seat 0 the same information
    other = game.new_initial_state()
    swapped = False
    for i, action in enumerate(hist):
        if not swapped and i == len(hist) - 2:  # seat 2's last palace card (seat 0 is last)
            spare = [x for x, _ in other.chance_outcomes() if x not in hist[-2:]][0]
            other.apply_action(spare)
            swapped = True
        else:
            other.apply_action(action)
    assert other.engine.palace(2) != eng.palace(2)
    assert other.information_state_string(0) == a.information_state_string(0)
    assert other.information_state_string(2) != a.information_state_string(2)
    assert np.array_equal(other.information_state_tensor(0), a.information_state_tensor(0))
    # perfect recall: the string only grows as the hand goes on
    before = a.information_state_string(1)
    a.apply_action(a.legal_actions()[0])
    assert a.information_state_string(1).startswith(before)


def test_observation_shows_exactly_the_view():
    game = sg.load(Rules(), players=4, dealer=2)
    state = dealt_state(game, 9)
    while not state.is_terminal() and len(state.history()) < 60:
        seat = state.current_player()
        if seat >= 0:
            assert state.observation_string(seat) == sg.view_text(state.engine.view(seat))
            tensor = np.asarray(state.observation_tensor(seat)).reshape(-1)
            assert tensor.size == game.observation_tensor_size()
            view = state.engine.view(seat)
            obs = game.make_py_observer()
            obs.set_from(state, seat)
            for c in view.palace:
                assert obs.dict["cards"][c.index, obs.zone_index[f"seat{seat}.palace"]] == 1
            for c in view.unseen:
                assert obs.dict["cards"][c.index, 0] == 1
            action = RuleBot().choose(view)
            state.apply_action(game.codec.encode(state.engine, action))
        else:
            state.apply_action(state.chance_outcomes()[0][0])


# ------------------------------------------------------------------ search support
def test_resampled_worlds_keep_the_information_state_and_play_to_the_end():
    game = sg.load(Rules(), players=3, dealer=0)
    state = dealt_state(game, 5)
    for _ in range(3):
        state.apply_action(state.legal_actions()[-1 if state.current_player() != 1 else 0])
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(10):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert set(world.engine.palace(player)) == set(state.engine.palace(player))
        seen.add(tuple(world.engine.palace((player + 1) % 3)))
        rng = random.Random(1)
        while not world.is_terminal():
            world.apply_action(rng.choice(world.legal_actions()))
        assert sum(world.returns()) == 0
    assert len(seen) > 1  # the hidden palaces really are drawn at random


def test_openspiel_ismcts_plays_palace():
    from open_spiel.python.algorithms import ismcts, mcts

    game = sg.load(Rules(), players=3, dealer=0)
    state = dealt_state(game, 2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 40, random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()


def test_serialisation_round_trip_and_worlds_refuse_it():
    game = sg.load(SMALL, players=2, dealer=0)
    state = dealt_state(game, 3)
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.information_state_string(0) == state.information_state_string(0)
    state = dealt_state(game, 3)
    world = state.resample_from_infostate(state.current_player(), lambda: 0.5)
    with pytest.raises(Exception, match="sampled world"):
        world.serialize()


def test_an_unknown_parameter_is_refused():
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("palace_poker", {"players": 2, "colour": "red"})
    with pytest.raises(PalaceError, match="outside"):
        game = sg.load(SMALL, players=2, dealer=0)
        game.codec.decode(game.new_initial_state().engine, game.codec.size)


def test_observations_at_chance_nodes_do_not_reveal_hidden_cards():
    game = sg.load(Rules(), players=3, dealer=0)
    state = game.new_initial_state()
    rng = random.Random(8)
    obs = game.make_py_observer()
    while True:  # through the deal, then a Buy's card (a chance node mid-hand)
        if state.is_chance_node():
            for seat in range(3):
                obs.set_from(state, seat)
                g = state.engine
                hidden = [c for s in range(3) if s != seat for c in g.palace(s)]
                hidden += [c for c in g.zones()["deck"] if c not in state.engine.view(seat).known]
                for c in hidden:
                    assert obs.dict["cards"][c.index, 0] == 1, (seat, c)
            if state.engine.phase.value == "draw":
                break
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(game.codec.BUY)
