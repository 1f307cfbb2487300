"""The small Palace solved: a tiny instance re-solved here (CFR+ drives exploitability down),
the tree matches the OpenSpiel adapter, and the shipped strategies are what they claim."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from palace.analysis import solver as sv  # noqa: E402
from palace.analysis import spiel_game as sg  # noqa: E402

SOLVED = Path(__file__).resolve().parents[1] / "data" / "solved"


@pytest.fixture(scope="module")
def tiny_tree() -> sv.Tree:
    return sv.build_tree(sv.TINY)


@pytest.fixture(scope="module")
def tiny_solution(tiny_tree) -> sv.Solution:
    return sv.solve(sv.TINY, tree=tiny_tree, max_iterations=60, check_every=10, target=0.0)


def test_cfr_plus_drives_exploitability_down(tiny_tree, tiny_solution):
    curve = [e for _, e in tiny_solution.curve]
    assert curve[-1] < curve[0] / 2
    assert tiny_solution.exploitability < 0.01 * sv.TINY.ante_amount  # 1% of the ante
    efg = pyspiel.load_efg_game(sv.to_efg(tiny_tree))
    uniform = pyspiel.exploitability(efg, pyspiel.UniformRandomPolicy(efg))
    assert uniform > 50 * tiny_solution.exploitability
    # zero-sum: the two seats' values cancel
    assert tiny_solution.values[0] == pytest.approx(-tiny_solution.values[1], abs=1e-9)


def test_the_tree_is_the_adapters_game(tiny_tree, tiny_solution):
    game = sg.load(sv.TINY, players=2, dealer=sv.DEALER)
    rng = random.Random(7)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            p = state.current_player()
            probs = tiny_solution.strategy[state.information_state_string(p)]
            assert set(probs) == set(state.legal_actions())
            assert sum(probs.values()) == pytest.approx(1.0)
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(tiny_tree.infosets) == tiny_solution.infosets
    assert sum(1 for k in tiny_tree.kind if k == sv.TERMINAL) == len(tiny_tree.returns)


def test_equilibrium_figures_are_expectations(tiny_tree, tiny_solution):
    fig = sv.equilibrium_figures(tiny_tree, tiny_solution)
    ends = sum(
        fig[f"ends by {r} %"] for r in ("last standing", "showdown", "battle tie", "same banner")
    )
    assert ends == pytest.approx(100.0)
    assert fig["turns per hand"] == pytest.approx(1.0)  # max_turns=1: one turn, then D22
    assert fig["pot"] >= 2 * sv.TINY.ante_amount
    for key, value in fig.items():
        if key.endswith("%"):
            # NaN: the situation never arises (no forced battle within one turn, R9.3)
            assert math.isnan(value) or -1e-9 <= value <= 100 + 1e-9, key


def test_save_and_load_round_trip(tmp_path, tiny_solution):
    path = tmp_path / "tiny.json.gz"
    sv.save(tiny_solution, path)
    back = sv.load_solution(path)
    assert back.rules == sv.TINY and back.exploitability == tiny_solution.exploitability
    key = next(iter(tiny_solution.strategy))
    for a, p in tiny_solution.strategy[key].items():
        assert back.strategy[key].get(a, 0.0) == pytest.approx(p, abs=1e-6)


@pytest.mark.parametrize("name", sorted(sv.FILE_NAMES.values()))
def test_shipped_strategies_are_solved_below_one_percent_of_the_ante(name):
    path = SOLVED / f"{name}.json.gz"
    if not path.exists():
        pytest.skip(f"{path.name} not generated (python -m palace.analysis.solver)")
    sol = sv.load_solution(path)
    assert sol.exploitability < 0.01 * sol.rules.ante_amount
    assert sol.values[0] == pytest.approx(-sol.values[1], abs=1e-6)
    game = sg.load(sol.rules, players=2, dealer=sv.DEALER, **sol.sizes)
    rng = random.Random(name)
    for _ in range(20):  # the strategy answers every information state of real hands
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            probs = sol.strategy[state.information_state_string(state.current_player())]
            assert set(probs) <= set(state.legal_actions())
            state.apply_action(rng.choice(state.legal_actions()))


def test_lesson_tables_read_the_shipped_strategy():
    from palace.analysis import perfect_play as pp

    path = SOLVED / "small_limit.json.gz"
    if not path.exists():
        pytest.skip("small_limit.json.gz not generated (python -m palace.analysis.solver)")
    sol = pp.load_solutions()["small game (limit)"]
    moves = pp.first_moves(sol)
    assert ((moves.sum(axis=1) - 100).abs() < 0.5).all()  # each hand's opening move, in %
    # 15 hands: 3 banner ranks x 5 palace cards (2 of its own suit, 3 of theirs)
    assert len(moves) == 15 and "attack" in moves.columns
    answers = pp.answers_to_an_attack(sol)
    assert ((answers.sum(axis=1) - 100).abs() < 0.5).all()
    table = pp.figures_table()
    assert table.loc["value, first seat (chips per hand)", "small game (limit)"] == pytest.approx(
        sol.values[1]
    )
    lines = pp.findings(table)
    assert lines[0].startswith("Perfect play in the small game: the first seat is worth")
