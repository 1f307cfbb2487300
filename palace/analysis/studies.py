"""Rule studies for the explorer: banner-deal statistics, exclusion effects, variant comparisons.

Every function takes a seed and returns a pandas DataFrame; `python -m palace.analysis.studies`
regenerates the tables in ``data/studies/`` (the command is written beside them).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from palace.analysis.batch import evaluate_batch, showdown_batch
from palace.analysis.bots import RandomBot, RuleBot, play_out
from palace.deal import group_of
from palace.game import Game
from palace.hands import Category
from palace.rules import Rules

DATA = Path(__file__).resolve().parents[2] / "data" / "studies"
CATEGORY_NAMES = ["no counting cards"] + [c.label for c in Category]


def _progress(it: Iterable, total: int, desc: str, show: bool):
    if not show:
        return it
    from tqdm.auto import tqdm

    return tqdm(it, total=total, desc=desc, leave=False)


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """`n` rows of `k` distinct card indices (0-51), uniformly at random."""
    keys = rng.random((n, 52))
    return np.argpartition(keys, k, axis=1)[:, :k].astype(np.int16) if k < 52 else keys.argsort(1)


# ---------------------------------------------------------------- R4 banner deal
def simulate_banner_deal(deck: list[int], players: int) -> tuple[int, int, int]:
    """Cards dealt, cards rejected and R4.4 reshuffles for one banner deal (R4.1-R4.4).

    `deck` lists card indices top first. The rejects pile is shuffled back in a fixed
    order here (only the counts are studied).
    """
    deck = list(deck)
    rejects: list[int] = []
    dealt = rejected = reshuffles = 0
    taken: dict[str, set[int]] = {}
    for pos in range(players):
        suits = taken.setdefault(group_of(pos), set())
        while True:
            if not deck:
                deck, rejects = rejects, []
                reshuffles += 1
            card = deck.pop(0)
            dealt += 1
            if card // 13 in suits:
                rejected += 1
                rejects.append(card)
                continue
            suits.add(card // 13)
            break
    return dealt, rejected, reshuffles


def banner_deal_samples(
    players: Iterable[int] = range(2, 11),
    deals: int = 20_000,
    seed: int = 0,
    progress: bool = True,
) -> dict[int, np.ndarray]:
    """Per player count, ``deals`` rows of (cards dealt, rejects, R4.4 reshuffles)."""
    rng = random.Random(seed)
    counts = list(players)
    out = {}
    for n in _progress(counts, len(counts), "banner deals", progress):
        rows = np.empty((deals, 3), dtype=np.int16)
        for i in range(deals):
            deck = list(range(52))
            rng.shuffle(deck)
            rows[i] = simulate_banner_deal(deck, n)
        out[n] = rows
    return out


def banner_deal_stats(
    players: Iterable[int] = range(2, 11),
    deals: int = 20_000,
    seed: int = 0,
    progress: bool = True,
    samples: dict[int, np.ndarray] | None = None,
) -> pd.DataFrame:
    """Per player count: cards dealt and rejected in the banner deal, and R4.4's frequency."""
    samples = samples or banner_deal_samples(players, deals, seed, progress)
    rows = []
    for n, arr in samples.items():
        dealt, rejected, resh = arr[:, 0], arr[:, 1], int((arr[:, 2] > 0).sum())
        rows.append(
            {
                "players": n,
                "deals": len(arr),
                "mean cards dealt": float(dealt.mean()),
                "median": float(np.median(dealt)),
                "90th pct": float(np.percentile(dealt, 90)),
                "99th pct": float(np.percentile(dealt, 99)),
                "mean rejects": float(rejected.mean()),
                "max rejects": int(rejected.max()),
                "no reject %": 100 * float((rejected == 0).mean()),
                "R4.4 reshuffles": resh,
                # impossible below six players (group A leaves at least 12 cards and player
                # 5 takes the next one); else none in n deals bounds it by 3/n at 95%
                "R4.4 chance % (95% bound)": 0.0
                if n <= 5
                else 100 * (3.0 if resh == 0 else resh) / len(arr),
            }
        )
    return pd.DataFrame(rows).set_index("players")


def banner_deal_distribution(
    players: Iterable[int] = range(2, 11),
    deals: int = 20_000,
    seed: int = 0,
    progress: bool = True,
    samples: dict[int, np.ndarray] | None = None,
) -> pd.DataFrame:
    """% of banner deals by the number of rejected cards (R4.3), one column per player count.

    Cards dealt = players + rejects, so this is also the distribution of cards dealt.
    """
    samples = samples or banner_deal_samples(players, deals, seed, progress)
    top = max(int(arr[:, 1].max()) for arr in samples.values())
    cols = {
        n: np.bincount(arr[:, 1], minlength=top + 1) / len(arr) * 100 for n, arr in samples.items()
    }
    df = pd.DataFrame(cols, index=pd.RangeIndex(top + 1, name="rejects"))
    df.columns.name = "players"
    return df


# ---------------------------------------------------------------- R8.2 exclusion
def _battles(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, ...]:
    cards = random_hands(rng, n, 2 * k)
    att, dfn = cards[:, :k], cards[:, k:]
    sa, sd = att[:, 0] // 13, dfn[:, 0] // 13  # the first card of each army is its banner
    keep = sa != sd  # R7.2: same-suit banners never battle
    return att[keep], dfn[keep], sa[keep], sd[keep]


def exclusion_flip_rate(
    sizes: Iterable[int] = range(4, 10),
    battles: int = 200_000,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """How often banner-suit exclusion changes a battle's winner, by army size (R8.2).

    Both armies have `size` cards (banner, soldiers, palace); each battle is shown
    down with exclusion (R8.2) and without it, the R8.5 tie-break applied to both.
    """
    rng = np.random.default_rng(seed)
    rows = []
    sizes = list(sizes)
    for k in _progress(sizes, len(sizes), "army sizes", progress):
        att, dfn, sa, sd = _battles(rng, battles, k)
        real = showdown_batch(att, sa, dfn, sd)
        va, vd = evaluate_batch(att), evaluate_batch(dfn)
        plain = np.sign(va.astype(np.int64) - vd).astype(np.int8)
        tied = plain == 0
        plain[tied] = np.sign(real.banner_att[tied] - real.banner_def[tied])
        changed = real.outcome != plain
        rows.append(
            {
                "army size": k,
                "battles": int(len(att)),
                "winner changed %": 100 * float(changed.mean()),
                "win became loss %": 100 * float(((plain == 1) & (real.outcome == -1)).mean()),
                "loss became win %": 100 * float(((plain == -1) & (real.outcome == 1)).mean()),
                "attacker wins % (R8.2)": 100 * float((real.outcome == 1).mean()),
                "still tied % (R8.6)": 100 * float((real.outcome == 0).mean()),
                "cards lost per side": float(
                    ((att // 13 == sd[:, None]).sum() + (dfn // 13 == sa[:, None]).sum())
                    / (2 * len(att))
                ),
            }
        )
    return pd.DataFrame(rows).set_index("army size")


def category_frequencies(
    sizes: Iterable[int] = range(4, 10),
    hands: int = 200_000,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """Hand-category frequencies (%) for 4-9 cards, without and with one suit excluded.

    The first card of each hand is the player's banner; the excluded suit is a random
    other suit (an opponent's banner, R8.2).
    """
    rng = np.random.default_rng(seed)
    cols = {}
    sizes = list(sizes)
    for k in _progress(sizes, len(sizes), "hand sizes", progress):
        cards = random_hands(rng, hands, k)
        own = cards[:, 0] // 13
        other = (own + rng.integers(1, 4, size=len(cards))) % 4
        for label, ex in (("all count", None), ("one suit excluded", other)):
            v = evaluate_batch(cards, ex)
            cat = np.where(v == 0, 0, (v >> 20))  # 0 = no counting cards, 1..9 categories
            freq = np.bincount(cat, minlength=10) / len(v) * 100
            cols[(k, label)] = freq
    df = pd.DataFrame(cols, index=CATEGORY_NAMES)
    df.columns = pd.MultiIndex.from_tuples(df.columns, names=["cards", ""])
    return df.round(3)


# ---------------------------------------------------------------- variants
def play_hands(
    rules: Rules,
    hands: int,
    players: int = 4,
    seed: int = 0,
    bot: str = "mixed",
    progress: bool = False,
    desc: str = "hands",
) -> pd.DataFrame:
    """One row per seeded bot hand: length, pot, battles, winner's seat position, ending.

    `bot` is "rules" (all `RuleBot`), "random" (all `RandomBot`) or "mixed" (both).
    """
    rows = []
    for i in _progress(range(hands), hands, desc, progress):
        g = Game.new(players=players, seed=seed + i, rules=rules, dealer=i % players)
        if bot == "rules":
            bots = {s: RuleBot() for s in range(players)}
        elif bot == "random":
            bots = {s: RandomBot(seed + 31 * i + s) for s in range(players)}
        else:  # "mixed": rule-based players at even seats, random players at odd seats
            bots = {
                s: RuleBot() if s % 2 == 0 else RandomBot(seed + 31 * i + s) for s in range(players)
            }
        play_out(g, bots)
        res = g.result
        rows.append(
            {
                "hand": i,
                "actions": len(g.actions),
                "pot": sum(g.won),
                "battles": sum(1 for e in g.events if e.kind == "bet"),
                "showdowns": sum(1 for e in g.events if e.kind == "battle"),
                "ending": res.reason,
                "winners": len(res.winners),
                # position 1 is the player left of the dealer, who acts first (R6.1)
                **{
                    f"won pos {p}": sum(
                        v for s, v in res.shares.items() if (s - g.dealer) % players == p % players
                    )
                    for p in range(1, players + 1)
                },
            }
        )
    return pd.DataFrame(rows)


def compare_variants(
    variants: Mapping[str, Rules],
    hands: int = 1_000,
    players: int = 4,
    seed: int = 0,
    bot: str = "mixed",
    progress: bool = True,
) -> pd.DataFrame:
    """The same seeded bot hands under each variant: averages side by side."""
    rows = {}
    for name, rules in variants.items():
        df = play_hands(rules, hands, players, seed, bot, progress, desc=name)
        won = df[[c for c in df.columns if c.startswith("won pos")]].sum()
        rows[name] = {
            "actions per hand": df["actions"].mean(),
            "pot": df["pot"].mean(),
            "battles per hand": df["battles"].mean(),
            "battle showdowns per hand": df["showdowns"].mean(),
            "ended by showdown %": 100 * (df["ending"] == "showdown").mean(),
            "last standing %": 100 * (df["ending"] == "last standing").mean(),
            "pot shared %": 100 * (df["winners"] > 1).mean(),
            **{f"chips to pos {c.split()[-1]} %": 100 * won[c] / won.sum() for c in won.index},
        }
    return pd.DataFrame(rows).round(2)


STANDARD_VARIANTS: dict[str, Rules] = {
    "standard (limit)": Rules(),
    "no-limit": Rules(structure="no-limit"),
    "free discard": Rules(discard_cost=0),
    "call matches attack": Rules(call_matches_attack=True),
    "only Stay is quiet": Rules(quiet_actions=("stay",)),
}


def main(argv: list[str] | None = None) -> None:
    """Regenerate the study tables in data/studies/."""
    ap = argparse.ArgumentParser(description="Regenerate Palace's rule-study tables")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--hands", type=int, default=2_000, help="bot hands per variant")
    ap.add_argument("--samples", type=int, default=500_000, help="random hands/battles per size")
    ap.add_argument("--deals", type=int, default=20_000, help="banner deals per player count")
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    cmd = (
        f"python -m palace.analysis.studies --seed {args.seed} --hands {args.hands} "
        f"--samples {args.samples} --deals {args.deals}"
    )
    samples = banner_deal_samples(deals=args.deals, seed=args.seed)
    tables = {
        "banner_deal.csv": banner_deal_stats(samples=samples),
        "banner_rejects.csv": banner_deal_distribution(samples=samples),
        "exclusion_flips.csv": exclusion_flip_rate(battles=args.samples, seed=args.seed),
        "categories.csv": category_frequencies(hands=args.samples, seed=args.seed),
        "variants.csv": compare_variants(STANDARD_VARIANTS, hands=args.hands, seed=args.seed),
    }
    for name, df in tables.items():
        df.to_csv(args.out / name)
        print(f"wrote {args.out / name}")
    (args.out / "README.md").write_text(
        "# Study tables\n\nGenerated by the rule explorer (`palace/analysis/studies.py`) with:\n\n"
        f"```\n{cmd}\n```\n\nSame command, same numbers: every table comes from the seed.\n"
        + "".join(f"\n- `{n}`: {tables[n].shape[0]} rows" for n in tables)
        + "\n"
    )


if __name__ == "__main__":
    main()
