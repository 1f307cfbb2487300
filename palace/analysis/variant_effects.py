"""What a rule change does to the game, with players who adapt: variants compared on the same
seeded deals played by `SearchBot` at every seat, with 95% intervals and findings in words.

The variants are the named ones of `palace.analysis.variants` (`DEFAULT_VARIANTS` by slug).
Like every study (`palace.analysis.studies`) the work is a plan of seeded shards run by
`palace.analysis.shards`: serially, on a Dask `LocalCluster` (the default) or on any Dask
cluster (``--scheduler tcp://HOST:PORT`` or ``DASK_SCHEDULER_ADDRESS``), with a progress bar
and every finished shard saved so an interrupted study resumes. A shard is
`play_hands(rules, seed=, start=, stop=, ...)`: one row of figures per hand. Hand ``i`` is
dealt with seed ``seed + i`` by dealer ``i % players`` under every variant, and the bots of
hand ``i`` are seeded from it, so variants are compared on the same deals (paired
differences) and neither the shard size nor the number of workers changes a table.

`summarise(rows_by_variant)` gives each figure's mean and 95% interval per variant,
`differences(rows_by_variant)` each variant's paired difference from the first (the
baseline) with its interval and whether it is significant, and `findings(...)` says it in
plain words. ``python -m palace.analysis.variant_effects`` writes the tables to
``data/studies/`` (``variant_effects*.csv`` and ``variant_effects.md``); `load` reads them
back.

The small game's counterpart is exact: `palace.analysis.solver.equilibrium_figures` on
the solved strategies (``data/solved/``), tabled by `small_game_table`.

>>> from palace.analysis.variants import variant
>>> rows = play_hands(variant("no-limit").rules, seed=3, start=0, stop=2, simulations=4)
>>> [r["hand"] for r in rows], rows[0]["pot"] > 0
([0, 1], True)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import statistics
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from palace.analysis import cluster
from palace.analysis.bots import Bot, RuleBot
from palace.analysis.odds_bot import OddsBot
from palace.analysis.search_bot import SearchBot
from palace.analysis.shards import Plan, Shard, Watch, run
from palace.analysis.variants import VARIANTS, named
from palace.errors import PalaceError
from palace.events import EndReason
from palace.game import Game
from palace.numbers import whole_in
from palace.rules import Rules

if TYPE_CHECKING:  # pandas and matplotlib are loaded by the functions that build tables
    import pandas as pd
    from matplotlib.figure import Figure

DATA = Path(__file__).resolve().parents[2] / "data" / "studies"
SOLVED = Path(__file__).resolve().parents[2] / "data" / "solved"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "palace" / "studies"

DEFAULT_VARIANTS: tuple[str, ...] = (
    "standard",
    "no-limit",
    "call-matches-attack",
    "two-left-at-once",
)
"""The variants the study compares by default (slugs of `palace.analysis.variants`)."""

PLAYERS: dict[str, str] = {
    "search": "SearchBot (adapts to the rules)",
    "odds": "OddsBot (exact battle odds)",
    "rules": "RuleBot (fixed rules of thumb)",
}
"""Who sits at every seat of a study, by the name the CLI and the app use."""

HANDS_PER_SHARD = 10
"""Hands in one shard of the command-line study (hands are seeded one by one, so the shard
size never changes a table; smaller shards cancel and resume sooner)."""

# figure -> its label in tables (the seat values are added per player count, see `figures`)
FIGURES: dict[str, str] = {
    "attacks": "attacks per hand",
    "attack_rate": "attacks per turn action %",
    "attack_size": "chips per attack",
    "first_attack_turn": "turn of the first attack",
    "buys": "soldiers bought per hand",
    "raises": "raises per hand",
    "turns": "hand length (turn actions)",
    "decisions": "decisions per hand",
    "pot": "pot (chips)",
    "end_fold_to_attack": "ends: a defender folds %",
    "end_battle": "ends: battle showdown %",
    "end_turn_fold": "ends: a fold on a turn %",
    "end_showdown": "ends: showdown (R9.1 / D22) %",
    "end_shared": "ends: pot shared %",
}
PERCENT = {k for k in FIGURES if k.startswith("end_") or k == "attack_rate"}

# figure -> (words when it goes up, words when it goes down)
_CHANGE_WORDS: dict[str, tuple[str, str]] = {
    "attacks": ("more attacks", "fewer attacks"),
    "attack_rate": ("more of the turns are attacks", "fewer of the turns are attacks"),
    "attack_size": ("attacks are bigger", "attacks are smaller"),
    "first_attack_turn": ("attacks come later", "attacks come earlier"),
    "buys": ("more soldiers are bought", "fewer soldiers are bought"),
    "raises": ("more raises", "fewer raises"),
    "turns": ("hands last longer", "hands are shorter"),
    "decisions": ("more decisions a hand", "fewer decisions a hand"),
    "pot": ("pots are bigger", "pots are smaller"),
    "end_fold_to_attack": (
        "more hands end with a defender folding",
        "fewer hands end with a defender folding",
    ),
    "end_battle": ("more hands end in a battle", "fewer hands end in a battle"),
    "end_turn_fold": (
        "more hands end with a fold on a turn",
        "fewer hands end with a fold on a turn",
    ),
    "end_showdown": ("more hands reach the showdown", "fewer hands reach the showdown"),
    "end_shared": ("more pots are shared", "fewer pots are shared"),
}

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def seat_label(position: int, players: int) -> str:
    """The label of a seat's value: position 1 acts first (left of the dealer, R6.1) and
    position `players` is the dealer."""
    if position == players:
        return "value of the dealer (chips per hand)"
    return f"value of the {_ORDINALS[position - 1]} to act (chips per hand)"


def figures(players: int) -> dict[str, str]:
    """Every figure of a study with `players` players: `FIGURES` and each seat's value."""
    out = dict(FIGURES)
    for p in range(1, players + 1):
        out[f"net_pos_{p}"] = seat_label(p, players)
    return out


def _figures_of(rows_by_variant: Mapping[str, list[dict[str, Any]]]) -> dict[str, str]:
    """The figures of these rows (the seat values of their player count)."""
    seats = [
        int(k.removeprefix("net_pos_"))
        for rows in rows_by_variant.values()
        if rows
        for k in rows[0]
        if k.startswith("net_pos_")
    ]
    return figures(max(seats, default=0))


# ------------------------------------------------------------------ one hand, one shard
def hand_row(game: Game) -> dict[str, Any]:
    """The figures of one finished hand (see `figures`)."""
    res = game.result
    if res is None:
        raise PalaceError("the hand is not over yet: no figures to count")
    events = game.events
    bets = [e for e in events if e.kind == "bet"]
    turns = game.turns
    shared = len(res.winners) > 1
    # how the hand ended: the last fold or battle showdown decides it (R9.2)
    last = next((e for e in reversed(events) if e.kind == "battle" or e.kind == "fold"), None)
    ending = ""
    if res.reason is EndReason.LAST_STANDING and last is not None:
        if last.kind == "battle":
            ending = "battle"
        elif last.rule in ("R7.5", "R7.9"):
            ending = "fold_to_attack"
        else:
            ending = "turn_fold"
    first_attack = bets[0] if bets else None
    turn_of = 0
    if first_attack is not None:  # turn actions up to and including the first attack
        turn_of = sum(
            1
            for e in events[: first_attack.index + 1]
            if e.kind in ("buy", "discard", "stay", "bet")
            or (e.kind == "fold" and e.rule == "R6.6")
        )
    row: dict[str, Any] = {
        "attacks": len(bets),
        "attack_rate": 100.0 * len(bets) / turns if turns else 0.0,
        "attack_size": statistics.fmean(e.amount for e in bets) if bets else math.nan,
        "first_attack_turn": turn_of if first_attack is not None else math.nan,
        "buys": sum(1 for e in events if e.kind == "buy"),
        "raises": sum(1 for e in events if e.kind == "raise"),
        "turns": turns,
        "decisions": len(game.actions),
        "pot": res.pot,
        "end_fold_to_attack": 100.0 * (ending == "fold_to_attack"),
        "end_battle": 100.0 * (ending == "battle"),
        "end_turn_fold": 100.0 * (ending == "turn_fold"),
        "end_showdown": 100.0 * (res.reason is EndReason.SHOWDOWN),
        "end_shared": 100.0 * shared,
    }
    n = game.players
    for p in range(1, n + 1):  # position p is seat (dealer + p) % n; the dealer is position n
        seat = (game.dealer + p) % n
        row[f"net_pos_{p}"] = game.won[seat] - game.put_in[seat]
    return row


def check_players(bot: object) -> str:
    """`bot` if it names a kind of player in `PLAYERS`, else a `PalaceError` naming it."""
    if bot not in PLAYERS:
        raise PalaceError(f"bot must be one of {', '.join(map(repr, PLAYERS))}, got {bot!r}")
    return str(bot)


def seat_bots(bot: str, players: int, simulations: int, hand_seed: int) -> dict[int, Bot]:
    """The bots of one hand: the same kind at every seat; a `SearchBot` is seeded from the
    hand's seed and its seat, and searches exactly `simulations` worlds a decision."""
    check_players(bot)
    if bot == "search":
        return {p: SearchBot(simulations, seed=hand_seed * 11 + p) for p in range(players)}
    if bot == "odds":
        return {p: OddsBot() for p in range(players)}
    return {p: RuleBot() for p in range(players)}


def play_hands(
    rules: Rules,
    *,
    seed: int,
    start: int,
    stop: int,
    players: int = 2,
    bot: str = "search",
    simulations: int = 60,
) -> list[dict[str, Any]]:
    """Hands ``start .. stop-1`` of a study, played out; one row of figures per hand.

    Hand ``i`` is dealt with seed ``seed + i`` by dealer ``i % players`` (R2.3), so a row
    depends only on its inputs and ``i``: the same anywhere (in this process, on a Dask
    worker) and in any shard."""
    rows = []
    for i in range(start, stop):
        game = Game.new(players=players, seed=seed + i, rules=rules, dealer=i % players)
        bots = seat_bots(bot, players, simulations, seed + i)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat)))
        row = hand_row(game)
        row["hand"] = i
        rows.append(row)
    return rows


# ------------------------------------------------------------------ statistics
def _isnan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def ci95(xs: Iterable[float]) -> tuple[float, float, float, int]:
    """Mean, normal-approximation 95% interval of the mean, and n (NaNs dropped)."""
    v = [x for x in xs if not _isnan(x)]
    if not v:
        return (math.nan, math.nan, math.nan, 0)
    m = statistics.fmean(v)
    half = 1.96 * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else math.nan
    return (m, m - half, m + half, len(v))


def summarise(rows_by_variant: Mapping[str, list[dict[str, Any]]]) -> pd.DataFrame:
    """Each figure's mean and 95% interval per variant (rows: figure x variant; columns:
    mean / ci95_low / ci95_high / n). The normal-approximation interval is cut to what the
    figure can be: no count below 0, no share of hands above 100%."""
    import pandas as pd

    table = {}
    for key, label in _figures_of(rows_by_variant).items():
        for name, rows in rows_by_variant.items():
            m, lo, hi, n = ci95(r[key] for r in rows)
            if key in FIGURES:  # counts, sizes and shares: never below 0 (a seat's value may be)
                lo = max(lo, 0.0) if not _isnan(lo) else lo
            if key in PERCENT:  # a share of hands: never above 100%
                hi = min(hi, 100.0) if not _isnan(hi) else hi
            table[(label, name)] = {"mean": m, "ci95_low": lo, "ci95_high": hi, "n": n}
    df = pd.DataFrame(table).T
    df.index = pd.MultiIndex.from_tuples(df.index, names=["figure", "variant"])
    df["n"] = df["n"].astype(int)
    return df


def differences(
    rows_by_variant: Mapping[str, list[dict[str, Any]]], baseline: str | None = None
) -> pd.DataFrame:
    """Each variant minus the baseline (None: the first variant), paired by hand: mean
    difference, its 95% interval, the relative change, and whether the interval excludes 0."""
    import pandas as pd

    if baseline is None:
        baseline = next(iter(rows_by_variant))
    if baseline not in rows_by_variant:
        raise PalaceError(f"baseline {baseline!r} is not one of the variants studied")
    base = {r["hand"]: r for r in rows_by_variant[baseline]}
    out = []
    for name, rows in rows_by_variant.items():
        if name == baseline:
            continue
        for key, label in _figures_of(rows_by_variant).items():
            diffs = [
                r[key] - base[r["hand"]][key]
                for r in rows
                if r["hand"] in base and not _isnan(r[key]) and not _isnan(base[r["hand"]][key])
            ]
            b_mean = ci95(r[key] for r in rows_by_variant[baseline])[0]
            if len(diffs) < 2:  # e.g. the turn of a first attack when one side never attacks
                d, lo, hi = ci95(r[key] for r in rows)[0] - b_mean, math.nan, math.nan
            else:
                d, lo, hi, _ = ci95(diffs)
            # a relative change only of a positive amount (not of a seat's net chips)
            plain = key.startswith("net_pos_") or _isnan(b_mean) or b_mean <= 0
            rel = math.nan if plain else 100.0 * d / b_mean
            out.append(
                {
                    "variant": name,
                    "figure": label,
                    "key": key,
                    "baseline": b_mean,
                    "difference": d,
                    "ci95_low": lo,
                    "ci95_high": hi,
                    "relative %": rel,
                    "significant": not _isnan(lo) and (lo > 0 or hi < 0),
                    "pairs": len(diffs),
                }
            )
    return pd.DataFrame(out)


# ------------------------------------------------------------------ findings in words
@dataclass(frozen=True)
class Finding:
    """One variant against the baseline: what changed significantly (in words, with the
    interval) and which figures did not change significantly."""

    variant: str
    baseline: str
    changes: tuple[str, ...]
    unchanged: tuple[str, ...]

    def __str__(self) -> str:
        return self.sentence()

    def sentence(self, *, bold: bool = False) -> str:
        name = f"**{self.variant}**" if bold else self.variant
        said = "; ".join(self.changes) if self.changes else "no significant difference"
        text = f"{name}: {said}"
        if self.unchanged:
            text += ". Not significant: " + ", ".join(self.unchanged)
        return text + "."


def _change_words(key: str, label: str, up: bool) -> str:
    if key.startswith("net_pos_"):
        who = label.removeprefix("value of ").removesuffix(" (chips per hand)")
        return f"{who} {'gains' if up else 'loses'}"
    words = _CHANGE_WORDS.get(key)
    return (words[0] if up else words[1]) if words else f"{label} {'up' if up else 'down'}"


def finding_list(diffs: pd.DataFrame, baseline: str = "the baseline") -> list[Finding]:
    """`differences` as one `Finding` per variant."""
    out = []
    for name, part in diffs.groupby("variant", sort=False):
        changes = []
        for _, r in part[part["significant"]].iterrows():
            what = _change_words(str(r["key"]), str(r["figure"]), r["difference"] > 0)
            rel = "" if _isnan(r["relative %"]) else f", {r['relative %']:+.0f}%"
            changes.append(
                f"{what} ({r['figure']} {r['difference']:+.2f}{rel}, "
                f"95% CI [{r['ci95_low']:+.2f}, {r['ci95_high']:+.2f}])"
            )
        unchanged = tuple(str(f) for f in part[~part["significant"]]["figure"])
        out.append(Finding(str(name), baseline, tuple(changes), unchanged))
    return out


def findings(diffs: pd.DataFrame) -> list[str]:
    """The differences in plain words (Markdown), one line per variant: what changed
    significantly (with the interval) and what did not."""
    return [f.sentence(bold=True) for f in finding_list(diffs)]


def ci_table(summary: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """`summarise`'s table for reading: one row per figure, one column per variant, each
    cell ``mean [low, high]``."""
    import pandas as pd

    figures_ = list(dict.fromkeys(summary.index.get_level_values("figure")))
    names = list(dict.fromkeys(summary.index.get_level_values("variant")))

    values = {
        key: (float(row[0]), float(row[1]), float(row[2]))
        for key, row in zip(
            summary.index, summary[["mean", "ci95_low", "ci95_high"]].to_numpy(), strict=True
        )
    }

    def cell(f: str, v: str) -> str:
        mean, low, high = values[(f, v)]
        if _isnan(mean):
            return "—"
        if _isnan(low):
            return f"{mean:.{digits}f}"
        return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"

    return pd.DataFrame(
        {v: [cell(f, v) for f in figures_] for v in names}, index=pd.Index(figures_, name="figure")
    )


KEY_FIGURES = (
    "attack_size",
    "first_attack_turn",
    "buys",
    "raises",
    "turns",
    "pot",
    "end_battle",
    "end_turn_fold",
)


CHART_LIMIT = 150.0
"""The % change shown in full on `effects_chart`; a longer bar is cut there and labelled."""


def effects_chart(diffs: pd.DataFrame, keys: Sequence[str] = KEY_FIGURES) -> Figure:
    """Each variant's change from the baseline, in % of the baseline's mean, with the 95%
    interval as a whisker: a bar whose whisker crosses 0 is not a significant change. A bar
    beyond ±`CHART_LIMIT` % is cut at the edge and its value written beside it."""
    import matplotlib.pyplot as plt

    rows = [k for k in keys if k in set(diffs["key"])]
    labels = [str(diffs.loc[diffs["key"] == k, "figure"].iloc[0]) for k in rows]
    names = list(dict.fromkeys(diffs["variant"]))
    fig, ax = plt.subplots(figsize=(8.0, 0.45 * len(rows) * max(1, len(names)) ** 0.5 + 1.6))
    colours = ("#7a1fa2", "#1f5fbf", "#f0a202", "#1b7f3b", "#c62828", "#555555")
    height = 0.8 / max(1, len(names))
    edge = CHART_LIMIT

    def clip(x: float) -> float:
        return max(-edge, min(edge, x))

    for i, name in enumerate(names):
        part = diffs[diffs["variant"] == name].set_index("key")
        ys: list[float] = []
        xs: list[float] = []
        los: list[float] = []
        his: list[float] = []
        for j, k in enumerate(rows):
            r = part.loc[k]
            b = r["baseline"]
            if not b or _isnan(b):
                continue
            y = j + (i - (len(names) - 1) / 2) * height
            x = 100 * r["difference"] / b
            lo = x if _isnan(r["ci95_low"]) else 100 * r["ci95_low"] / b
            hi = x if _isnan(r["ci95_high"]) else 100 * r["ci95_high"] / b
            ys.append(y)
            xs.append(clip(x))
            los.append(clip(x) - clip(min(lo, hi)))
            his.append(clip(max(lo, hi)) - clip(x))
            if abs(x) > edge:
                ax.text(clip(x), y, f" {x:+.0f}% ", va="center", fontsize=7,
                        ha="right" if x > 0 else "left", color="white")  # fmt: skip
        ax.barh(ys, xs, height=height, color=colours[i % len(colours)], label=name)
        ax.errorbar(xs, ys, xerr=[los, his], fmt="none", ecolor="#222", elinewidth=0.9, capsize=2)
    ax.axvline(0, color="#333", lw=0.8)
    ax.set_xlim(-edge * 1.02, edge * 1.02)
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("% change from the baseline (whiskers: 95% interval)")
    ax.set_title("What each rule change does, on the same deals")
    ax.legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncols=min(3, len(names)))  # fmt: skip
    fig.tight_layout()
    plt.close(fig)
    return fig


# ------------------------------------------------------------------ the small game (exact)
def small_game_table(directory: Path = SOLVED) -> pd.DataFrame:
    """The solved small game's equilibrium figures per variant (exact expectations, no
    sampling: no interval needed), from ``data/solved/*_figures.json``."""
    import pandas as pd

    from palace.analysis.solver import FILE_NAMES  # the solver needs OpenSpiel only to solve

    cols = {}
    for label, name in FILE_NAMES.items():
        path = directory / f"{name}_figures.json"
        if path.exists():
            cols[label] = json.loads(path.read_text())
    return pd.DataFrame(cols)


# ------------------------------------------------------------------ running a study


def plan(
    variants: Mapping[str, Rules] | None = None,
    *,
    hands: int = 400,
    players: int = 2,
    seed: int = 2026,
    bot: str = "search",
    simulations: int = 60,
    per_shard: int = HANDS_PER_SHARD,
) -> Plan:
    """The study as seeded shards (every input checked, naming the field at fault): for
    each variant in order, hands ``0 .. hands-1`` in blocks of `per_shard`."""
    variants = named(DEFAULT_VARIANTS) if variants is None else dict(variants)
    if not variants:
        raise PalaceError("variants must name at least one variant")
    for label, rules in variants.items():
        if not isinstance(rules, Rules):
            raise PalaceError(f"variant {label!r} must map to a Rules, got {type(rules).__name__}")
    hands, players = whole_in("hands", hands, 1), whole_in("players", players, 2, 10)
    seed, bot = whole_in("seed", seed, 0), check_players(bot)
    simulations, per_shard = (
        whole_in("simulations", simulations, 1),
        whole_in("per_shard", per_shard, 1),
    )
    shards = tuple(
        Shard(
            play_hands,
            {
                "rules": rules,
                "seed": seed,
                "start": start,
                "stop": min(hands, start + per_shard),
                "players": players,
                "bot": bot,
                "simulations": simulations,
            },
        )
        for rules in variants.values()
        for start in range(0, hands, per_shard)
    )
    return Plan(f"variant-effects-{bot}", shards)


def run_study(
    variants: Mapping[str, Rules] | None = None,
    *,
    hands: int = 400,
    players: int = 2,
    seed: int = 2026,
    bot: str = "search",
    simulations: int = 60,
    per_shard: int = HANDS_PER_SHARD,
    progress: bool = False,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    watch: Watch | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Every variant (``{label: Rules}``; None: `DEFAULT_VARIANTS`) on the same seeded
    hands; the rows of each, in hand order. Runs where `scheduler` says
    (`palace.analysis.cluster`), the same rows wherever it runs; `cache`, `progress` and
    `watch` as for every study (`palace.analysis.shards.run`)."""
    variants = named(DEFAULT_VARIANTS) if variants is None else dict(variants)
    the_plan = plan(
        variants,
        hands=hands,
        players=players,
        seed=seed,
        bot=bot,
        simulations=simulations,
        per_shard=per_shard,
    )
    results = run(the_plan, scheduler=scheduler, cache=cache, progress=progress, watch=watch)
    blocks = len(results) // len(variants)
    return {
        label: [row for part in results[v * blocks : (v + 1) * blocks] for row in part]
        for v, label in enumerate(variants)
    }


# ------------------------------------------------------------------ stored tables
@dataclass(frozen=True)
class Stored:
    """A study written by the command line: its tables, read back (no play)."""

    name: str
    summary: pd.DataFrame
    differences: pd.DataFrame
    about: str  # the first lines of its .md: the command and the setup

    @property
    def table(self) -> pd.DataFrame:
        """`ci_table` of the summary: ``mean [low, high]`` per figure and variant."""
        return ci_table(self.summary)

    def findings(self) -> list[Finding]:
        return finding_list(self.differences, baseline=self.baseline)

    @property
    def baseline(self) -> str:
        return str(self.summary.index.get_level_values("variant")[0])


def load(name: str = "variant_effects", directory: Path = DATA) -> Stored:
    """The stored study ``<directory>/<name>*``: summary, paired differences and setup."""
    import pandas as pd

    path = Path(directory)
    if not (path / f"{name}.csv").exists():
        raise PalaceError(f"no stored study {name!r} in {path}")
    summary = pd.read_csv(path / f"{name}.csv", index_col=[0, 1])
    diffs = pd.read_csv(path / f"{name}_differences.csv")
    text = (path / f"{name}.md").read_text().split("\n| figure")[0].strip()
    return Stored(name, summary, diffs, text)


def contrast(studies: Mapping[str, Stored], keys: Sequence[str] | None = None) -> pd.DataFrame:
    """The same variants' paired differences from two or more stored studies side by side
    (``{"SearchBot": load(...), "RuleBot": load(...)}``): one row per variant and figure,
    each cell ``difference [95% CI]`` with ``*`` when significant and ``·`` when not."""
    import pandas as pd

    cols: dict[str, dict[tuple[str, str], str]] = {}
    for name, study in studies.items():
        d = study.differences
        if keys is not None:
            d = d[d["key"].isin(list(keys))]
        cells = {}
        for _, r in d.iterrows():
            if _isnan(r["ci95_low"]):
                cell = f"{r['difference']:+.2f}"
            else:
                mark = "*" if r["significant"] else "·"
                cell = (
                    f"{r['difference']:+.2f} [{r['ci95_low']:+.2f}, {r['ci95_high']:+.2f}] {mark}"
                )
            cells[(str(r["variant"]), str(r["figure"]))] = cell
        cols[name] = cells
    df = pd.DataFrame(cols)
    df.index = pd.MultiIndex.from_tuples(df.index, names=["variant", "figure"])
    return df.fillna("—")


def seen_by(studies: Mapping[str, Stored]) -> list[str]:
    """Per variant, in words: how many figures each study finds changed significantly,
    and which ones only the first study sees."""
    names = list(studies)
    first = studies[names[0]].differences
    lines = []
    for variant_label in dict.fromkeys(first["variant"]):
        found = {
            n: [
                str(f)
                for f, sig in zip(
                    s.differences.loc[s.differences["variant"] == variant_label, "figure"],
                    s.differences.loc[s.differences["variant"] == variant_label, "significant"],
                    strict=True,
                )
                if sig
            ]
            for n, s in studies.items()
        }
        counts = ", ".join(f"{n}: {len(v)}" for n, v in found.items())
        only = [f for f in found[names[0]] if all(f not in found[n] for n in names[1:])]
        text = f"{variant_label}: figures that change significantly ({counts})"
        if only:
            text += f"; seen only by {names[0]}: {', '.join(only)}"
        lines.append(text + ".")
    return lines


def report(
    rows: Mapping[str, list[dict[str, Any]]],
    *,
    command: str,
    setup: str,
    stem: str,
    seconds: float,
) -> str:
    """The Markdown written beside the tables: the command, the setup, the table and the
    findings in words."""
    table = ci_table(summarise(rows))
    names = list(table.columns)
    lines = [
        "| figure | " + " | ".join(names) + " |",
        "| --- |" + " ---: |" * len(names),
        *(f"| {f} | " + " | ".join(table.loc[f]) + " |" for f in table.index),
    ]
    baseline = names[0]
    return "\n".join(
        [
            "# Variant effects",
            "",
            "Produced by (from the repository root):",
            "",
            f"    .venv/bin/{command}",
            "",
            f"{setup} The same deals under every variant. Each cell: mean [95% CI]; "
            f"differences are paired by deal. ({seconds:.0f} s here.) Files: `{stem}.csv` "
            f"(this table), `{stem}_differences.csv` (each variant minus {baseline}), "
            f"`{stem}_hands.csv` (one row per hand).",
            "",
            *lines,
            "",
            f"## Findings (each variant against {baseline}, paired by deal)",
            "",
            *[f"- {line}" for line in findings(differences(rows))],
            "",
            "Each line tests many figures at the 95% level, so about one figure in twenty "
            "may come out significant by chance alone; a difference near its interval's "
            "edge deserves a bigger run.",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m palace.analysis.variant_effects",
        description="Variant effects with adaptive players, as seeded shards on Dask.",
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--hands", type=int, default=400, help="hands per variant (400)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", choices=list(PLAYERS), default="search", help="who plays (search)")
    ap.add_argument("--simulations", type=int, default=60, help="SearchBot budget (60)")
    ap.add_argument(
        "--variants",
        nargs="+",
        default=list(DEFAULT_VARIANTS),
        metavar="SLUG",
        help=f"the first is the baseline (default: {' '.join(DEFAULT_VARIANTS)}; "
        f"known: {', '.join(VARIANTS)})",
    )
    cluster.add_arguments(ap, cache=CACHE, out=DATA)
    ap.add_argument("--name", default="variant_effects", help="file name stem (variant_effects)")
    args = ap.parse_args(argv)
    cluster.use_arguments(args)
    try:
        variants = named(args.variants)
        the_plan = plan(
            variants,
            hands=args.hands,
            players=args.players,
            seed=args.seed,
            bot=args.bot,
            simulations=args.simulations,
        )
    except PalaceError as exc:
        ap.error(str(exc))
    start = time.perf_counter()
    try:
        rows = run_study(
            variants,
            hands=args.hands,
            players=args.players,
            seed=args.seed,
            bot=args.bot,
            simulations=args.simulations,
            progress=not args.quiet,
            scheduler=args.scheduler,
            cache=None if args.no_cache else args.cache,
        )
    except KeyboardInterrupt:
        where = "" if args.no_cache else f"; finished shards are kept in {args.cache}"
        print(f"interrupted{where}: run the same command again to resume", file=sys.stderr)
        return 130
    except PalaceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    secs = time.perf_counter() - start
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    stem = args.name
    summarise(rows).to_csv(out / f"{stem}.csv")
    differences(rows).to_csv(out / f"{stem}_differences.csv", index=False)
    import pandas as pd

    pd.DataFrame([r | {"variant": v} for v, rs in rows.items() for r in rs]).to_csv(
        out / f"{stem}_hands.csv", index=False, float_format="%.6g"
    )
    command = "python -m palace.analysis.variant_effects " + shlex.join(
        [
            *("--seed", str(args.seed), "--hands", str(args.hands)),
            *("--players", str(args.players), "--bot", args.bot),
            *(("--simulations", str(args.simulations)) if args.bot == "search" else ()),
            *("--variants", *args.variants, "--name", stem),
        ]
    )  # what the numbers depend on (not where they were computed)
    who = PLAYERS[args.bot].split(" (")[0]
    budget = f"({args.simulations} simulations)" if args.bot == "search" else ""
    setup = (
        f"{args.hands} seeded hands per variant, {args.players} players, `{who}{budget}` at "
        f"every seat ({len(the_plan.shards)} shards of up to {HANDS_PER_SHARD} hands)."
    )
    text = report(rows, command=command, setup=setup, stem=stem, seconds=secs)
    (out / f"{stem}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "DEFAULT_VARIANTS",
    "FIGURES",
    "Finding",
    "PLAYERS",
    "Stored",
    "check_players",
    "ci95",
    "ci_table",
    "contrast",
    "differences",
    "effects_chart",
    "figures",
    "finding_list",
    "findings",
    "hand_row",
    "load",
    "plan",
    "play_hands",
    "run_study",
    "seen_by",
    "seat_bots",
    "small_game_table",
    "summarise",
]
