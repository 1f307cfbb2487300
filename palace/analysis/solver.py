"""A small Palace, solved: the whole game tree of a small-deck table, OpenSpiel's CFR+ on it,
and what the equilibrium does (exact, no sampling).

The small game is a `Rules` table (`SMALL`): two players, the six cards Q K A of hearts
and spades, one palace card each, at most one soldier, one raise a battle, three turns
(D22). It keeps banners (R4), exclusion (R8.2: in a battle each side counts only its own
suit here), the tie-break (R8.5), Buy, Discard, Stay, Fold, Attack, Call and Raise, and
R9.3's forced battle after two quiet turns.

How it is solved:

1. `build_tree` walks every chance outcome and action of the OpenSpiel adapter
   (`palace.analysis.spiel_game`, so the rules are the engine's) once and keeps the tree
   in flat lists, with each decision's information-state string.
2. `to_efg` writes it in Gambit's extensive form; `pyspiel.load_efg_game` loads it as a
   C++ game, so OpenSpiel's `CFRPlusSolver` and `exploitability` run at C++ speed.
3. `solve` runs CFR+ until the exploitability (OpenSpiel's: the mean over the seats of
   what a best response gains, in chips per hand) is below the target, and returns the
   average strategy keyed by the adapter's information-state strings.
4. `equilibrium_figures` walks the tree once under that strategy and gives the exact
   expected figures: each seat's value, attacks, calls, raises, bluffs, buys, hand length,
   pot and how hands end.

``python -m palace.analysis.solver`` solves the small game and its variants and writes
``data/solved/`` (the command is written beside the files).
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyspiel

from palace.analysis import spiel_game as sg
from palace.battle import Army, resolve_battle
from palace.errors import PalaceError
from palace.events import Phase
from palace.game import Game
from palace.rules import Rules

DATA = Path(__file__).resolve().parents[2] / "data" / "solved"

SMALL = Rules(ranks="QKA", suits="hs", palace_cards=1, max_soldiers=1, max_raises=1, max_turns=3)
TINY = Rules(ranks="QKA", suits="hs", palace_cards=1, max_soldiers=1, max_raises=1, max_turns=1)
DEALER = 0  # seat 0 deals, seat 1 acts first (R6.1)

# The variants the lesson compares (each solved the same way).
VARIANTS: dict[str, Rules] = {
    "small game (limit)": SMALL,
    "no-limit (R3.3)": replace(SMALL, structure="no-limit"),
    "call matches attack (R7.6)": replace(SMALL, call_matches_attack=True),
    "two left battle at once (R9.3)": replace(SMALL, two_left="at_once"),
}
FILE_NAMES = {
    "small game (limit)": "small_limit",
    "no-limit (R3.3)": "small_no_limit",
    "call matches attack (R7.6)": "small_call_matches",
    "two left battle at once (R9.3)": "small_at_once",
}
NO_LIMIT_SIZES = {"bet_sizes": (1, 2), "raise_sizes": (1,)}  # the menu for no-limit attacks

CHANCE, DECISION, TERMINAL = 0, 1, 2


# ------------------------------------------------------------------ the tree
@dataclass
class Tree:
    """A game tree in preorder: node `i` has `kind[i]`, `player[i]`, `children[i]`
    (node numbers), `labels[i]` (card indices or action ids); decisions have an
    information set; terminals have returns and the facts the figures count."""

    rules: Rules
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    labels: list[list[int]] = field(default_factory=list)
    infoset: list[int] = field(default_factory=list)  # -1 unless a decision
    returns: dict[int, tuple[float, ...]] = field(default_factory=dict)
    facts: dict[int, dict[str, Any]] = field(default_factory=dict)
    infosets: list[tuple[int, str]] = field(default_factory=list)  # (player, key)
    infoset_actions: list[list[int]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.kind)


def _ahead(g: Game, me: int, other: int) -> bool:
    """Would `me` win a battle against `other` now (R8.2-R8.6)? Used to count bluffs."""
    armies = []
    for s in (me, other):
        banner = g.banner(s)
        assert banner is not None  # the cards are dealt
        armies.append(Army(banner, g.soldiers(s), g.palace(s)))
    return resolve_battle(*armies).winner == "attacker"


def _decision_facts(g: Game, codec: sg.ActionCodec, legal: dict[int, Any]) -> dict[str, Any]:
    seat = g.to_act
    assert seat is not None
    other = 1 - seat
    facts: dict[str, Any] = {
        "phase": g.phase.value,
        "turn": g.turns,
        "must_battle": g.must_battle,
        "soldiers": len(g.soldiers(seat)),
        "kinds": [a.kind for a in legal.values()],
    }
    if g.phase in (Phase.TURN, Phase.BATTLE_RESPONSE):
        facts["ahead"] = _ahead(g, seat, other)
    return facts


def _terminal_facts(g: Game) -> dict[str, Any]:
    kinds = Counter(str(e.kind) for e in g.events)
    res = g.result
    assert res is not None
    return {
        "pot": res.pot,
        "reason": res.reason.value,
        "turns": g.turns,
        "buys": kinds["buy"],
        "attacks": kinds["bet"],
        "raises": kinds["raise"],
        "calls": kinds["call"],
        "discards": kinds["discard"],
        "winners": res.winners,
    }


def build_tree(rules: Rules, *, dealer: int = DEALER, sizes: dict[str, Any] | None = None) -> Tree:
    """Every history of a two-player hand under `rules`, walked through the OpenSpiel
    adapter (chance nodes for every card, the engine's legal actions)."""
    game = sg.load(rules, players=2, dealer=dealer, **(sizes or {}))
    codec = game.codec
    tree = Tree(rules)
    index: dict[tuple[int, str], int] = {}
    stack = [(game.new_initial_state(), -1)]
    while stack:
        state, parent = stack.pop()
        node = tree.size
        if parent >= 0:
            tree.children[parent].append(node)
        tree.children.append([])
        g = state.engine
        if state.is_terminal():
            tree.kind.append(TERMINAL)
            tree.player.append(-4)
            tree.labels.append([])
            tree.infoset.append(-1)
            tree.returns[node] = tuple(state.returns())
            tree.facts[node] = _terminal_facts(g)
            continue
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            tree.kind.append(CHANCE)
            tree.player.append(-1)
            tree.labels.append(outcomes)
            tree.infoset.append(-1)
        else:
            p = state.current_player()
            legal = codec.legal(g)
            outcomes = list(legal)
            key = (p, state.information_state_string(p))
            if key not in index:
                index[key] = len(tree.infosets)
                tree.infosets.append(key)
                tree.infoset_actions.append(outcomes)
            elif tree.infoset_actions[index[key]] != outcomes:
                raise PalaceError(f"information set {key} has two action sets")
            tree.kind.append(DECISION)
            tree.player.append(p)
            tree.labels.append(outcomes)
            tree.infoset.append(index[key])
            tree.facts[node] = _decision_facts(g, codec, legal)
        # children in reverse on the stack, so they are numbered in order (preorder)
        for a in reversed(outcomes):
            stack.append((state.child(a), node))
    return tree


# ------------------------------------------------------------------ Gambit EFG
def to_efg(tree: Tree) -> str:
    """The tree in Gambit's .efg format. Actions are labelled by their position at the
    node ("0", "1", ...), so OpenSpiel's EFG action ids are those positions; chance
    probabilities are exact fractions (1/n)."""
    out = ['EFG 2 R "Palace Poker, small game" { "P0" "P1" }']
    outcome = 0
    chance_no = 0
    per_player: dict[int, dict[int, int]] = {0: {}, 1: {}}
    for i in range(tree.size):
        k = tree.kind[i]
        if k == TERMINAL:
            outcome += 1
            r = tree.returns[i]
            out.append(f't "" {outcome} "" {{ {r[0]:g}, {r[1]:g} }}')
        elif k == CHANCE:
            chance_no += 1
            n = len(tree.labels[i])
            acts = " ".join(f'"{j}" 1/{n}' for j in range(n))
            out.append(f'c "" {chance_no} "" {{ {acts} }} 0')
        else:
            p = tree.player[i]
            numbers = per_player[p]
            number = numbers.setdefault(tree.infoset[i], len(numbers) + 1)
            acts = " ".join(f'"{j}"' for j in range(len(tree.labels[i])))
            out.append(f'p "" {p + 1} {number} "" {{ {acts} }} 0')
    return "\n".join(out) + "\n"


def _efg_keys(tree: Tree) -> dict[str, int]:
    """OpenSpiel's EFG information-state string of each of our information sets."""
    per_player: dict[int, dict[int, int]] = {0: {}, 1: {}}
    for i in range(tree.size):
        if tree.kind[i] == DECISION:
            numbers = per_player[tree.player[i]]
            numbers.setdefault(tree.infoset[i], len(numbers) + 1)
    keys = {}
    for p, numbers in per_player.items():
        for ours, number in numbers.items():
            keys[f"{p}-{p}-{number}-"] = ours
    return keys


# ------------------------------------------------------------------ solving
@dataclass
class Solution:
    """An equilibrium strategy of the small game and how close to exact it is."""

    rules: Rules
    strategy: dict[str, dict[int, float]]  # "seat p|..." information state -> {action: p}
    exploitability: float  # chips per hand (OpenSpiel's exploitability: NashConv / 2)
    iterations: int
    seconds: float
    values: tuple[float, float]  # expected chips per hand for seat 0 (dealer), seat 1
    nodes: int
    infosets: int
    curve: list[tuple[int, float]]  # (iterations, exploitability) along the way
    sizes: dict[str, Any] = field(default_factory=dict)

    def probs(self, key: str) -> dict[int, float]:
        return self.strategy[key]


def _values(tree: Tree, strategy: Callable[[int], list[float]]) -> tuple[float, float]:
    reach = reach_probabilities(tree, strategy)
    v0 = sum(reach[i] * r[0] for i, r in tree.returns.items())
    v1 = sum(reach[i] * r[1] for i, r in tree.returns.items())
    return v0, v1


def reach_probabilities(tree: Tree, strategy: Callable[[int], list[float]]) -> list[float]:
    """How likely each node is when both seats play `strategy` (node -> action probs)."""
    reach = [0.0] * tree.size
    reach[0] = 1.0
    for i in range(tree.size):
        r = reach[i]
        k = tree.kind[i]
        if k == TERMINAL or r == 0.0:
            continue
        kids = tree.children[i]
        if k == CHANCE:
            q = r / len(kids)
            for c in kids:
                reach[c] = q
        else:
            for c, p in zip(kids, strategy(i), strict=True):
                reach[c] = r * p
    return reach


def solve(
    rules: Rules,
    *,
    target: float | None = None,
    max_iterations: int = 100_000,
    max_seconds: float = 600.0,
    check_every: int = 50,
    tree: Tree | None = None,
    sizes: dict[str, Any] | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> Solution:
    """CFR+ (OpenSpiel's `CFRPlusSolver`) on the small game until the exploitability is
    below `target` chips per hand (default: 1% of the ante), the iterations or the time
    run out. The exploitability is measured every `check_every` iterations."""
    start = time.perf_counter()
    tree = tree if tree is not None else build_tree(rules, sizes=sizes)
    target = 0.01 * max(rules.ante_amount, 1) if target is None else target
    efg = pyspiel.load_efg_game(to_efg(tree))
    solver = pyspiel.CFRPlusSolver(efg)
    curve: list[tuple[int, float]] = []
    it = 0
    expl = float("inf")
    while it < max_iterations:
        step = min(check_every, max_iterations - it)
        for _ in range(step):
            solver.evaluate_and_update_policy()
        it += step
        expl = pyspiel.exploitability(efg, solver.average_policy())
        curve.append((it, expl))
        if progress:
            progress(it, expl)
        if expl < target or time.perf_counter() - start > max_seconds:
            break
    table = solver.tabular_average_policy().policy_table()
    keys = _efg_keys(tree)
    strategy: dict[str, dict[int, float]] = {}
    for efg_key, probs in table.items():
        ours = keys[efg_key]
        actions = tree.infoset_actions[ours]
        strategy[tree.infosets[ours][1]] = {actions[a]: float(p) for a, p in probs}
    sol = Solution(
        rules=rules,
        strategy=strategy,
        exploitability=expl,
        iterations=it,
        seconds=time.perf_counter() - start,
        values=(0.0, 0.0),
        nodes=tree.size,
        infosets=len(tree.infosets),
        curve=curve,
        sizes=dict(sizes or {}),
    )
    sol.values = _values(tree, node_policy(tree, sol))
    return sol


def node_policy(tree: Tree, sol: Solution) -> Callable[[int], list[float]]:
    """The strategy as node -> probabilities of the node's actions, in order."""

    def policy(i: int) -> list[float]:
        probs = sol.strategy[tree.infosets[tree.infoset[i]][1]]
        return [probs.get(a, 0.0) for a in tree.labels[i]]

    return policy


# ------------------------------------------------------------------ what the equilibrium does
def equilibrium_figures(tree: Tree, sol: Solution) -> dict[str, float]:
    """Exact expected figures per hand under the solved strategy (both seats playing it)."""
    policy = node_policy(tree, sol)
    reach = reach_probabilities(tree, policy)
    out: dict[str, float] = defaultdict(float)
    for i, facts in tree.facts.items():
        r = reach[i]
        if r == 0.0:
            continue
        if tree.kind[i] == TERMINAL:
            out["pot"] += r * facts["pot"]
            out["turns"] += r * facts["turns"]
            out["attacks"] += r * facts["attacks"]
            out["raises"] += r * facts["raises"]
            out["calls"] += r * facts["calls"]
            out["soldiers bought"] += r * facts["buys"]
            out["discards"] += r * facts["discards"]
            out[f"ends: {facts['reason']}"] += r
            out["hand has a battle"] += r * (facts["attacks"] > 0)
            if facts["reason"] == "last standing" and not facts["attacks"]:
                out["ends: a fold on a turn"] += r
            continue
        probs = policy(i)
        kinds = facts["kinds"]
        seat = tree.player[i]
        name = "first seat" if seat == 1 else "dealer"
        if facts["phase"] == "turn":
            bet = sum(p for p, k in zip(probs, kinds, strict=True) if k == "bet")
            buy = sum(p for p, k in zip(probs, kinds, strict=True) if k == "buy")
            fold = sum(p for p, k in zip(probs, kinds, strict=True) if k == "fold")
            where = "ahead" if facts["ahead"] else "behind"
            out[f"{name}: turns"] += r
            out[f"{name}: attacks"] += r * bet
            out[f"{name}: buys"] += r * buy
            out[f"{name}: turns {where}"] += r
            out[f"{name}: attacks {where}"] += r * bet
            if not facts["ahead"]:
                out[f"{name}: attacks while behind"] += r * bet
            out[f"{name}: folds on a turn"] += r * fold
            if facts["must_battle"]:
                out[f"{name}: forced"] += r
                out[f"{name}: forced attacks"] += r * bet
        elif facts["phase"] == "battle response":
            out[f"{name}: answers"] += r
            where = "ahead" if facts["ahead"] else "behind"
            out[f"{name}: answers {where}"] += r
            out[f"{name}: folds {where}"] += r * sum(
                p for p, k in zip(probs, kinds, strict=True) if k == "fold"
            )
            for kind in ("fold", "call", "raise"):
                pk = sum(p for p, k in zip(probs, kinds, strict=True) if k == kind)
                out[f"{name}: answers {kind}"] += r * pk
                if kind == "raise" and not facts["ahead"]:
                    out[f"{name}: raises while behind"] += r * pk
    figures = {
        "value, dealer (chips per hand)": sol.values[0],
        "value, first seat (chips per hand)": sol.values[1],
        "pot": out["pot"],
        "turns per hand": out["turns"],
        "attacks per hand": out["attacks"],
        "hands with a battle %": 100 * out["hand has a battle"],
        "raises per hand": out["raises"],
        "soldiers bought per hand": out["soldiers bought"],
        "discards per hand": out["discards"],
    }
    for reason in ("last standing", "showdown", "battle tie", "same banner"):
        key = f"ends: {reason}"
        figures[f"ends by {reason} %"] = 100 * out.get(key, 0.0)
    figures["ends by a fold on a turn %"] = 100 * out.get("ends: a fold on a turn", 0.0)

    def pct(a: str, b: str) -> float:
        return 100 * out[a] / out[b] if out[b] else float("nan")

    for name in ("first seat", "dealer"):
        turns = out[f"{name}: turns"] or 1.0
        attacks = out[f"{name}: attacks"]
        answers = out[f"{name}: answers"] or 1.0
        figures[f"{name}: attacks per turn %"] = 100 * attacks / turns
        figures[f"{name}: buys per turn %"] = 100 * out[f"{name}: buys"] / turns
        figures[f"{name}: bluff share of attacks %"] = (
            100 * out[f"{name}: attacks while behind"] / attacks if attacks else 0.0
        )
        for kind in ("fold", "call", "raise"):
            figures[f"{name}: {kind}s facing a bet or raise %"] = (
                100 * out[f"{name}: answers {kind}"] / answers
            )
        figures[f"{name}: attacks when ahead %"] = pct(
            f"{name}: attacks ahead", f"{name}: turns ahead"
        )
        figures[f"{name}: attacks when behind %"] = pct(
            f"{name}: attacks behind", f"{name}: turns behind"
        )
        figures[f"{name}: folds on a turn %"] = pct(f"{name}: folds on a turn", f"{name}: turns")
        figures[f"{name}: attacks when forced to bet or fold (R9.3) %"] = pct(
            f"{name}: forced attacks", f"{name}: forced"
        )
        figures[f"{name}: folds facing a bet when ahead %"] = pct(
            f"{name}: folds ahead", f"{name}: answers ahead"
        )
        figures[f"{name}: folds facing a bet when behind %"] = pct(
            f"{name}: folds behind", f"{name}: answers behind"
        )
    return figures


# ------------------------------------------------------------------ files
def save(sol: Solution, path: Path) -> None:
    """The strategy as gzipped JSON: rules, exploitability, values, and for each
    information state the probabilities of its actions (adapter action ids)."""
    payload = {
        "format": "palace-solution/1",
        "rules": sol.rules.to_dict(),
        "sizes": {k: list(v) for k, v in sol.sizes.items()},
        "dealer": DEALER,
        "exploitability": sol.exploitability,
        "iterations": sol.iterations,
        "seconds": round(sol.seconds, 1),
        "values": list(sol.values),
        "nodes": sol.nodes,
        "infosets": sol.infosets,
        "curve": sol.curve,
        "strategy": {
            k: {str(a): round(p, 6) for a, p in v.items() if p >= 5e-7}
            for k, v in sorted(sol.strategy.items())
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(payload, f, separators=(",", ":"))


def load_solution(path: Path | str) -> Solution:
    """A strategy written by `save` (the lesson reads these; it never solves)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        d = json.load(f)
    if d.get("format") != "palace-solution/1":
        raise PalaceError(f"{path} is not a palace-solution/1 file")
    return Solution(
        rules=Rules.from_dict(d["rules"]),
        strategy={k: {int(a): p for a, p in v.items()} for k, v in d["strategy"].items()},
        exploitability=d["exploitability"],
        iterations=d["iterations"],
        seconds=d["seconds"],
        values=tuple(d["values"]),
        nodes=d["nodes"],
        infosets=d["infosets"],
        curve=[tuple(x) for x in d["curve"]],
        sizes={k: tuple(v) for k, v in d.get("sizes", {}).items()},
    )


def solve_variant(label: str, out: Path, *, figures_only: bool, max_seconds: float) -> None:
    """Build one variant's tree, solve it (or load the stored strategy with
    `figures_only`), and write the strategy, its figures and the timings."""
    rules = VARIANTS[label]
    name = FILE_NAMES[label]
    sizes = NO_LIMIT_SIZES if rules.no_limit else None
    t0 = time.perf_counter()
    tree = build_tree(rules, sizes=sizes)
    built = time.perf_counter() - t0
    print(
        f"{label}: {tree.size:,} nodes, {len(tree.infosets):,} information sets, "
        f"built in {built:.0f} s",
        flush=True,
    )
    meta_path = out / f"{name}_meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    path = out / f"{name}.json.gz"
    if figures_only and path.exists():
        sol = load_solution(path)
    else:
        sol = solve(
            rules,
            tree=tree,
            sizes=sizes,
            max_seconds=max_seconds,
            progress=lambda i, e: print(f"  {i} iterations: exploitability {e:.5f}", flush=True),
        )
        save(sol, path)
        meta["solve_seconds"] = round(sol.seconds, 1)
    meta["build_seconds"] = round(built, 1)
    meta_path.write_text(json.dumps(meta) + "\n")
    figures = equilibrium_figures(tree, sol)
    (out / f"{name}_figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(
        f"  done: exploitability {sol.exploitability:.5f} after {sol.iterations} iterations; "
        f"values {sol.values}",
        flush=True,
    )


def write_readme(out: Path, command: str) -> None:
    """`data/solved/README.md`: the command and a table of every solved variant."""
    lines = [
        "# The small Palace, solved",
        "",
        "Produced by (from the repository root):",
        "",
        f"    .venv/bin/{command}",
        "",
        f"The small game: `{SMALL.label()}`, two players, seat 0 deals and seat 1 acts first "
        "(R6.1); no-limit offers attacks of 1 or 2 times the minimum and raises of the big "
        "bet (the adapter's `bet_sizes=1/2`, `raise_sizes=1`).",
        "",
        "Each `*.json.gz` holds the average strategy of OpenSpiel's CFR+ for one variant "
        "(information state -> action probabilities, action ids of "
        "`palace.analysis.spiel_game`), `*_figures.json` what that strategy does (exact "
        "expectations over every deal, no sampling), `*_meta.json` the timings. "
        "Exploitability is OpenSpiel's (NashConv / 2: what a best response gains on average "
        "per seat) in chips per hand; the ante is 1 chip, so the target is 0.01. Timings are "
        "wall seconds on this shared 2-core machine (build: walking the tree through the "
        "adapter; solve: CFR+ and the exploitability checks).",
        "",
        "| variant | file | nodes | information sets | CFR+ iterations | build s | solve s | "
        "exploitability (chips/hand) | value, dealer | value, first seat |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, name in FILE_NAMES.items():
        path = out / f"{name}.json.gz"
        if not path.exists():
            continue
        sol = load_solution(path)
        meta_path = out / f"{name}_meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        lines.append(
            f"| {label} | `{name}.json.gz` | {sol.nodes:,} | {sol.infosets:,} | "
            f"{sol.iterations} | {meta.get('build_seconds', float('nan')):.0f} | "
            f"{meta.get('solve_seconds', sol.seconds):.0f} | {sol.exploitability:.4f} | "
            f"{sol.values[0]:+.4f} | {sol.values[1]:+.4f} |"
        )
    (out / "README.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Solve the small Palace and its variants (CFR+).")
    ap.add_argument("--out", default=str(DATA))
    ap.add_argument("--max-seconds", type=float, default=600.0, help="per variant (600)")
    ap.add_argument("--only", default=None, help="comma-separated FILE_NAMES values")
    ap.add_argument(
        "--figures-only", action="store_true", help="reuse stored strategies; recompute figures"
    )
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = set(args.only.split(",")) if args.only else set(FILE_NAMES.values())
    for label, name in FILE_NAMES.items():
        if name in wanted:
            solve_variant(label, out, figures_only=args.figures_only, max_seconds=args.max_seconds)
    write_readme(out, "python -m palace.analysis.solver")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
