"""What a perfect player does in the small Palace: the stored equilibrium strategies read back
as tables for lesson 09 (nothing here solves; `palace.analysis.solver` does, offline).

* `figures_table()`: each solved variant's exact expected figures side by side;
* `first_moves(solution)`: the first seat's opening move for every hand it can hold
  (banner and palace card), averaged over the deals that give it that hand;
* `answers_to_an_attack(solution)`: how the dealer answers an opening attack, by hand;
* `convergence(solution)`: CFR+'s exploitability against iterations;
* `findings(table)`: the comparisons in plain words.

The solved files are in ``data/solved/``; reading a strategy needs the OpenSpiel adapter
(the ``agents`` extra), because information states are the adapter's strings.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pandas as pd

from palace.analysis import spiel_game as sg
from palace.analysis.solver import DEALER, FILE_NAMES, Solution, load_solution

SOLVED = Path(__file__).resolve().parents[2] / "data" / "solved"
FIRST, DEALER_SEAT = 1 - DEALER, DEALER


def load_solutions(directory: Path = SOLVED) -> dict[str, Solution]:
    """Every stored solution, by variant label (those that exist)."""
    out = {}
    for label, name in FILE_NAMES.items():
        path = directory / f"{name}.json.gz"
        if path.exists():
            out[label] = load_solution(path)
    return out


def figures_table(directory: Path = SOLVED) -> pd.DataFrame:
    """Rows: figures; columns: variants (exact expectations per hand under equilibrium)."""
    cols = {}
    for label, name in FILE_NAMES.items():
        path = directory / f"{name}_figures.json"
        if path.exists():
            cols[label] = json.loads(path.read_text())
    return pd.DataFrame(cols)


def summary_table(directory: Path = SOLVED) -> pd.DataFrame:
    """One row per solved variant: size, CFR+ iterations, exploitability, seat values."""
    rows = []
    for label, sol in load_solutions(directory).items():
        rows.append(
            {
                "variant": label,
                "information sets": sol.infosets,
                "CFR+ iterations": sol.iterations,
                "exploitability (chips/hand)": round(sol.exploitability, 4),
                "value, first seat": round(sol.values[FIRST], 3),
                "value, dealer": round(sol.values[DEALER_SEAT], 3),
            }
        )
    return pd.DataFrame(rows).set_index("variant")


def convergence(sol: Solution) -> pd.DataFrame:
    """CFR+ iterations against exploitability (chips per hand)."""
    return pd.DataFrame(sol.curve, columns=["iterations", "exploitability"])


# ------------------------------------------------------------------ opening moves
def _deals(sol: Solution):
    """Every deal of the small game up to the first decision, with its probability."""
    game = sg.load(sol.rules, players=2, dealer=DEALER, **sol.sizes)
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if not state.is_chance_node():
            yield game, state, p
            continue
        for a, q in state.chance_outcomes():
            stack.append((state.child(a), p * q))


def _hand(state, seat: int) -> str:
    """A seat's hand in words; with two suits the suits only matter as "own" (counts in a
    battle) or "theirs" (excluded in a battle, R8.2), so hands that differ only by a swap
    of suits read the same."""
    g = state.engine
    banner = g.banner(seat)
    if len(g.rules.suits) != 2:
        palace = " ".join(c.symbol for c in g.palace(seat))
        return f"{banner.symbol} banner, {palace} palace"
    parts = [
        f"{str(c)[0]} ({'own suit' if c.suit == banner.suit else 'their suit'})"
        for c in g.palace(seat)
    ]
    return f"{str(banner)[0]} banner, palace " + ", ".join(parts)


def _kinds(game, state, probs: dict[int, float]) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for a, p in probs.items():
        kind = game.codec.decode(state.engine, a).kind
        out[{"bet": "attack"}.get(kind, kind)] += p
    return out


def first_moves(sol: Solution) -> pd.DataFrame:
    """The first seat's opening move (R6.1) by the hand it holds, in % (weighted over the
    deals that give it that hand: the dealer's banner and palace vary)."""
    acc: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    weight: dict[str, float] = defaultdict(float)
    for game, state, p in _deals(sol):
        key = state.information_state_string(state.current_player())
        hand = _hand(state, state.current_player())
        for kind, q in _kinds(game, state, sol.strategy[key]).items():
            acc[hand][kind] += p * q
        weight[hand] += p
    rows = {
        hand: {k: 100 * v / weight[hand] for k, v in kinds.items()} for hand, kinds in acc.items()
    }
    df = pd.DataFrame(rows).T.fillna(0.0)
    cols = [c for c in ("attack", "buy", "stay", "discard", "fold") if c in df.columns]
    return df[cols].sort_index().round(1)


def answers_to_an_attack(sol: Solution) -> pd.DataFrame:
    """How the dealer answers when the first seat opens with an attack (R7.4), by the
    dealer's hand, in % (every opening attack counts, weighted by how often the first
    seat makes it)."""
    acc: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    weight: dict[str, float] = defaultdict(float)
    for game, state, p in _deals(sol):
        first = sol.strategy[state.information_state_string(state.current_player())]
        for a, q in first.items():
            if game.codec.decode(state.engine, a).kind != "bet" or q <= 0:
                continue
            after = state.child(a)
            seat = after.current_player()
            hand = _hand(after, seat)
            probs = sol.strategy[after.information_state_string(seat)]
            for kind, r in _kinds(game, after, probs).items():
                acc[hand][kind] += p * q * r
            weight[hand] += p * q
    rows = {
        hand: {k: 100 * v / weight[hand] for k, v in kinds.items()} for hand, kinds in acc.items()
    }
    df = pd.DataFrame(rows).T.fillna(0.0)
    cols = [c for c in ("fold", "call", "raise") if c in df.columns]
    return df[cols].sort_index().round(1)


# ------------------------------------------------------------------ words
def findings(table: pd.DataFrame, base: str = "small game (limit)") -> list[str]:
    """The equilibrium's figures compared in plain words (exact numbers: no intervals)."""
    if base not in table.columns:
        return []
    b = table[base]
    lines = [
        f"Perfect play in the small game: the first seat is worth "
        f"{b['value, first seat (chips per hand)']:+.3f} chips a hand and the dealer "
        f"{b['value, dealer (chips per hand)']:+.3f}; {b['hands with a battle %']:.0f}% of "
        f"hands have a battle and the pot averages {b['pot']:.2f} chips.",
        f"The first seat attacks on {b['first seat: attacks per turn %']:.0f}% of its turns; "
        f"{b['first seat: bluff share of attacks %']:.0f}% of its attacks are made with the "
        f"weaker hand (bluffs). The dealer folds {b['dealer: folds facing a bet or raise %']:.0f}%"
        f" of the time it faces a bet or raise.",
    ]
    for col in table.columns:
        if col == base:
            continue
        v = table[col]
        parts = []
        for key, what in (
            ("pot", "the pot"),
            ("hands with a battle %", "hands with a battle (%)"),
            ("raises per hand", "raises per hand"),
            ("soldiers bought per hand", "soldiers bought per hand"),
            ("turns per hand", "turns per hand"),
            ("value, first seat (chips per hand)", "the first seat's value"),
        ):
            d = v[key] - b[key]
            if abs(d) >= 0.005:
                parts.append(f"{what} {b[key]:.2f} → {v[key]:.2f}")
        lines.append(f"{col}: " + ("; ".join(parts) if parts else "the same figures") + " (exact).")
    return lines


# ------------------------------------------------------------------ charts
KEY_FIGURES = (
    "hands with a battle %",
    "first seat: attacks per turn %",
    "first seat: bluff share of attacks %",
    "dealer: folds facing a bet or raise %",
    "first seat: buys per turn %",
    "ends by a fold on a turn %",
)


def convergence_chart(solutions: dict[str, Solution]):
    """Exploitability (chips per hand, log scale) against CFR+ iterations, per variant."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    for label, sol in solutions.items():
        df = convergence(sol)
        ax.plot(df["iterations"], df["exploitability"], marker="o", label=label)
    ax.axhline(0.01, color="grey", linestyle="--", linewidth=1, label="1% of the ante")
    ax.set_yscale("log")
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("exploitability (chips per hand)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    plt.close(fig)
    return fig


def variant_chart(table: pd.DataFrame, rows: tuple[str, ...] = KEY_FIGURES):
    """The key equilibrium figures (%) per variant, as grouped bars."""
    import matplotlib.pyplot as plt

    part = table.loc[[r for r in rows if r in table.index]]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    part.plot.barh(ax=ax, width=0.8)
    ax.set_xlabel("% (exact, under equilibrium play)")
    ax.invert_yaxis()
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    plt.close(fig)
    return fig
